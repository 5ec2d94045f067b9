// SPDX-License-Identifier: Apache-2.0
// Path coverage (issue 21, section 6): one classifier per dimension, each reading a case's
// shape, input words and expected result (storage-layouts.md Section 4 for the nvfp4 tiles,
// tensor-formats.txt 3.3 for its scale words, ggml's quantizers with a min for the block signs).
#include "ninfer/suites/paths.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::suites::paths {

namespace {

constexpr std::uint32_t bit(unsigned i) { return std::uint32_t{1} << i; }

/// [N, K] of an nvfp4 call in block_scale_k16_m128x4_v1 with a geometry, else {0, 0}.
std::pair<std::uint64_t, std::uint64_t> nvfp4_shape(const Case &c) {
    if (c.format != NINFER_FORMAT_nvfp4 || c.layout != NINFER_LAYOUT_block_scale_k16_m128x4_v1 || c.shape.size() != 2) return {0, 0};
    const std::uint64_t n = c.shape[0], k = c.shape[1];
    if (n == 0 || k == 0 || n % oracle::kNvfp4TileRows != 0 || k % (oracle::kNvfp4TileGroups * oracle::kNvfp4Group) != 0) return {0, 0};
    return {n, k};
}

/// Swizzle tiles (128 rows x 4 scale columns, 64 values of K) along N and along K of an accepted
/// nvfp4 call: one tile, two or more along N only, along K only, along both.
std::uint32_t nvfp4_tiles(const Case &c) {
    const auto [n, k] = nvfp4_shape(c);
    if (n == 0 || c.expect.status != NINFER_OK) return 0;
    const bool rows = n / oracle::kNvfp4TileRows >= 2, cols = k / (oracle::kNvfp4TileGroups * oracle::kNvfp4Group) >= 2;
    return bit((rows ? 1u : 0u) + (cols ? 2u : 0u));
}

/// The nvfp4 E4M3 scale words a call offers: the scale plane of its payload (N*K/2 bytes in), or
/// layout_encode's SCALES plane.
std::vector<std::uint8_t> nvfp4_scale_words(const Case &c, std::uint64_t n, std::uint64_t k) {
    if (c.op == NINFER_OP_layout_encode) return c.input(NINFER_PLANE_SCALES);
    const auto &p = c.input(NINFER_PLANE_PAYLOAD);
    const std::uint64_t at = n * k / 2, bytes = n * k / oracle::kNvfp4Group;
    if (p.size() < at + bytes) return {};
    return {p.begin() + static_cast<std::ptrdiff_t>(at), p.begin() + static_cast<std::ptrdiff_t>(at + bytes)};
}

/// The E4M3 NaN scale words offered: 0x7F, 0xFF, or none.
std::uint32_t nvfp4_scale_nan(const Case &c) {
    const auto [n, k] = nvfp4_shape(c);
    if (n == 0) return 0;
    const auto words = nvfp4_scale_words(c, n, k);
    if (words.empty()) return 0;
    std::uint32_t m = 0;
    if (std::find(words.begin(), words.end(), 0x7F) != words.end()) m |= bit(0);
    if (std::find(words.begin(), words.end(), 0xFF) != words.end()) m |= bit(1);
    return m ? m : bit(2);
}

/// Subnormal weight words of a `linear` call over the direct word format F: some, or none.
template <std::uint32_t F>
std::uint32_t linear_weight_subnormal(const Case &c) {
    if (c.op != NINFER_OP_linear || c.format != F) return 0;
    const auto &f = oracle::word_format(F);
    const auto &p = c.input(NINFER_PLANE_PAYLOAD);
    const int b = f.bytes();
    for (std::size_t i = 0; i + static_cast<std::size_t>(b) <= p.size(); i += static_cast<std::size_t>(b))
        if ((oracle::word_class_byte(f, get_word(p, i / static_cast<std::size_t>(b), b)) & ~NINFER_CLASS_SIGN) == NINFER_CLASS_SUBNORMAL)
            return bit(0);
    return bit(1);
}

/// Products a small correctly_rounded call may hold (the classifier recomputes its binary32 result).
constexpr std::uint64_t kMidpointProducts = 4096;

/// A correctly_rounded call into bf16 or fp16: some element's binary32 rounding is an output
/// midpoint, some element's double rounding (binary32 first) differs from the expected word, or
/// neither. Calls of more than kMidpointProducts products are not classified.
std::uint32_t linear_output_midpoint(const Case &c) {
    if (c.op != NINFER_OP_linear || c.profile != NINFER_PROFILE_correctly_rounded || c.expect.status != NINFER_OK || c.shape.size() != 2)
        return 0;
    const auto *out = find_plane(c.expect.outputs, NINFER_PLANE_OUTPUT);
    const auto *act = find_plane(c.inputs, NINFER_PLANE_ACTIVATION);
    if (!out || !act || (out->format != NINFER_FORMAT_bf16 && out->format != NINFER_FORMAT_fp16)) return 0;
    const std::uint64_t n = c.shape[0], k = c.shape[1], m = c.count;
    if (n * k * m > kMidpointProducts) return 0;
    oracle::LinearCall call{c.format, c.layout, c.profile, n, k, m, act->format, NINFER_FORMAT_fp32};
    const auto y32 = oracle::linear_expect(call, c.input(NINFER_PLANE_PAYLOAD), act->bytes);
    if (y32.status != NINFER_OK) return 0;
    const auto conv = out->format == NINFER_FORMAT_bf16 ? NINFER_CONVERSION_fp32_to_bf16_rne : NINFER_CONVERSION_fp32_to_fp16_rne;
    const auto &rne = *abi::find_id(abi::kConversions, conv);
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < m * n; ++i) {
        const std::uint64_t w32 = get_word(y32.output, i, 4), expected = get_word(out->bytes, i, 2);
        if (oracle::conversion_is_tie(rne, w32)) mask |= bit(0);
        if (oracle::convert_word(rne, w32) != expected) mask |= bit(1);
    }
    return mask ? mask : bit(2);
}

/// ggml quantizers with a minimum, by ggml_type: the values that share one min (q4_1, q5_1: the
/// block; q2_K: 16; q4_K, q5_K: 32).
constexpr std::array<std::pair<std::uint32_t, std::size_t>, 5> kMinGroups = {{{3, 32}, {7, 32}, {10, 16}, {12, 32}, {13, 32}}};

/// A quantizer with a min over binary32 source words: some group all positive, some all
/// negative, some mixed (or holding a zero).
std::uint32_t gguf_min_signs(const Case &c) {
    if (c.op != NINFER_OP_quant_encode || c.expect.status != NINFER_OK || c.inputs.empty()) return 0;
    const auto *t = abi::find_id(abi::kGgufTypes, c.format);
    if (!t) return 0;
    const auto g = std::find_if(kMinGroups.begin(), kMinGroups.end(), [&](const auto &e) { return e.first == t->ggml_type; });
    if (g == kMinGroups.end()) return 0;
    const auto &x = c.inputs.front().bytes;
    const std::size_t words = x.size() / 4;
    std::uint32_t mask = 0;
    for (std::size_t at = 0; at + g->second <= words; at += g->second) {
        bool pos = true, neg = true;
        for (std::size_t j = at; j < at + g->second; ++j) {
            const auto w = static_cast<std::uint32_t>(get_word(x, j, 4));
            const bool zero = (w & 0x7FFFFFFFu) == 0;
            pos = pos && !zero && (w >> 31) == 0;
            neg = neg && !zero && (w >> 31) == 1;
        }
        mask |= pos ? bit(0) : neg ? bit(1) : bit(2);
    }
    return mask;
}

bool matches(const std::string &pattern, const std::string &id) {
    if (!pattern.empty() && pattern.back() == '*') return id.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return pattern == id;
}

std::string criterion_rule(std::uint32_t criterion) { return rule::linear_criterion(*abi::find_id(abi::kCriteria, criterion)); }

std::vector<std::string> min_quantizer_rules() {
    std::vector<std::string> out;
    for (const auto &[type, group] : kMinGroups)
        for (const auto &t : abi::kGgufTypes)
            if (t.ggml_type == type) out.push_back(rule::gguf_quantize(t));
    return out;
}

std::vector<std::string> every_criterion_rule() {
    std::vector<std::string> out;
    for (const auto &c : abi::kCriteria) out.push_back(rule::linear_criterion(c));
    return out;
}

Dimension weight_subnormals(std::uint32_t (*classify)(const Case &), const char *format) {
    return {std::string("linear.weight_subnormal.") + format, {"subnormal", "normal_only"},
            std::string("linear calls over ") + format + " weights: a subnormal weight word offered or not",
            classify, every_criterion_rule(), bit(0)};
}

}  // namespace

const std::vector<Dimension> &dimensions() {
    static const std::vector<Dimension> d = {
        {"nvfp4.tiles",
         {"one_tile", "row_tiles", "k_tiles", "both_tiles"},
         "accepted nvfp4 calls by swizzle tiles (128 rows x 64 values of K): one, two or more along N only, along K "
         "only, along both",
         nvfp4_tiles,
         {rule::block_scale_swizzle, rule::nvfp4_reconstruct, rule::block_scale_gather, criterion_rule(NINFER_CRITERION_forward_error_bound)},
         bit(0) | bit(3)},
        {"nvfp4.scale_nan",
         {"nan_7f", "nan_ff", "no_nan"},
         "nvfp4 calls by the E4M3 NaN scale words they offer (0x7F, 0xFF, none)",
         nvfp4_scale_nan,
         {rule::nvfp4_scale_validity, rule::linear_payload},
         bit(0)},
        weight_subnormals(linear_weight_subnormal<NINFER_FORMAT_fp32>, "fp32"),
        weight_subnormals(linear_weight_subnormal<NINFER_FORMAT_bf16>, "bf16"),
        weight_subnormals(linear_weight_subnormal<NINFER_FORMAT_fp16>, "fp16"),
        {"linear.output_midpoint",
         {"tie_in_binary32", "double_rounding_differs", "plain"},
         "correctly_rounded calls into bf16 or fp16 (up to 4096 products): an element whose binary32 result is an "
         "output midpoint, one whose rounding through binary32 gives another word, neither",
         linear_output_midpoint,
         {criterion_rule(NINFER_CRITERION_correctly_rounded)},
         bit(0) | bit(1)},
        {"gguf.min_signs",
         {"all_positive", "all_negative", "mixed"},
         "accepted GGUF quantizations with a min (q4_1, q5_1, q2_K, q4_K, q5_K) by the signs of each group sharing a "
         "min: all positive, all negative, mixed or holding a zero",
         gguf_min_signs,
         min_quantizer_rules(),
         bit(0) | bit(1) | bit(2)},
    };
    return d;
}

Table tabulate(const std::vector<Case> &cases) {
    Table t;
    add_to(t, cases);
    return t;
}

void add_to(Table &t, const std::vector<Case> &cases) {
    for (const auto &d : dimensions()) {
        const bool any_required = !d.required_rules.empty();
        for (const auto &c : cases) {
            const std::uint32_t m = d.classify(c);
            if (m == 0) continue;
            auto [it, fresh] = t.try_emplace(CellKey{d.name, c.rule, c.op});
            Cell &cell = it->second;
            if (fresh) {
                cell.counts.assign(d.paths.size(), 0);
                cell.required = any_required && std::any_of(d.required_rules.begin(), d.required_rules.end(),
                                                            [&](const std::string &p) { return matches(p, c.rule); });
            }
            ++cell.cases;
            for (std::size_t i = 0; i < d.paths.size(); ++i)
                if (m & bit(static_cast<unsigned>(i))) ++cell.counts[i];
        }
    }
}

std::vector<Gap> gaps(const Table &table, std::uint64_t min_cases_per_path) {
    std::vector<Gap> out;
    for (const auto &d : dimensions())
        for (const auto &[key, cell] : table) {
            if (std::get<0>(key) != d.name || !cell.required) continue;
            for (std::size_t i = 0; i < d.paths.size(); ++i)
                if ((d.required & bit(static_cast<unsigned>(i))) && cell.counts[i] < min_cases_per_path)
                    out.push_back({d.name, std::get<1>(key), d.paths[i], std::get<2>(key), cell.counts[i], min_cases_per_path});
        }
    return out;
}

std::string gap_line(const Gap &g) {
    return fmt::format("path gap: {} {} {}={}: {} cases, minimum {}", g.rule, abi::op_name(g.op), g.dimension, g.path, g.count,
                       g.minimum);
}

}  // namespace ninfer::suites::paths
