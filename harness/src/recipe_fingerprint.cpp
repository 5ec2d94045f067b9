// SPDX-License-Identifier: Apache-2.0
// Recipe fingerprints of block quantizers (issue 34 item 6; suites/RECIPES.md): the lattices,
// their probes, the subject's encodes and the verdict.
#include "ninfer/harness/recipe_fingerprint.hpp"

#include <bit>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/fingerprint.hpp"  // SubjectFailed
#include "ninfer/oracle/block_recipes.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::harness::recipes {

namespace {

namespace rc = oracle::recipes;

/// m * 2^e as a binary32 word, by integer fields (|m| < 2^24, a normal result).
std::uint32_t f32w(std::int64_t m, int e) {
    if (m == 0) return 0;
    const std::uint32_t sign = m < 0 ? 0x80000000u : 0u;
    std::uint64_t a = static_cast<std::uint64_t>(m < 0 ? -m : m);
    const int w = static_cast<int>(std::bit_width(a));
    a <<= 24 - w;  // 24 significant bits
    const int exp = e + w - 1 + 127;
    return sign | static_cast<std::uint32_t>(exp) << 23 | (static_cast<std::uint32_t>(a) & 0x7FFFFFu);
}

/// The index of a coordinate value on its axis (a point holds only names of its axes).
template <class Axis>
std::size_t index_of(const Axis &axis, const std::string &name) {
    std::size_t i = 0;
    while (axis[i].name != name) ++i;
    return i;
}

std::string hex_bytes(const std::vector<std::uint8_t> &b) {
    std::string s;
    for (const auto v : b) s += fmt::format("{:02x}", v);
    return s;
}

std::string hex_words(const std::vector<std::uint32_t> &x) {
    std::string s;
    for (const auto v : x) s += fmt::format("{:08x}", v);
    return s;
}

/// A 32-value block: `head` first, then zeros of alternating sign.
Probe block(std::string slug, std::vector<std::uint32_t> head) {
    head.resize(32, 0);
    for (std::size_t j = 1; j < 32; j += 2)
        if (head[j] == 0) head[j] = 0x80000000u;
    return {std::move(slug), {1, 32}, std::move(head)};
}

/// MXFP4 probes: every tie of the E2M1 grid at a scale all rules share (amax 4: 2^0), amax at
/// the mantissas where the scale rules part (1.25, 1.5, 1.625, 1.75, 1.875 times a power of
/// two; just below 2^8 and 2^-8, where log2f rounds up to the integer), and seeded blocks; no
/// all-zero block (its bytes are no coordinate: suites/RECIPES.md, "Probes").
std::vector<Probe> mxfp4_probes() {
    std::vector<Probe> p;
    std::vector<std::uint32_t> ties = {f32w(4, 0)};
    for (const std::int64_t m2 : {1, 3, 5, 7, 10, 14}) {  // (v_i + v_i+1) in units of 2^-2: .25, .75, ..., 3.5
        ties.push_back(f32w(m2, -2));
        ties.push_back(f32w(-m2, -2));
    }
    for (const std::uint32_t w : {0x3DCCCCCDu, 0xBDCCCCCDu, 0x3F4CCCCDu})  // +-0.1, 0.8: no tie
        ties.push_back(w);
    p.push_back(block("element_ties", ties));
    p.push_back(block("element_tie_5", {f32w(5, 0), f32w(5, -1), f32w(-5, -1), f32w(3, -1)}));  // amax 5: 2.5 at scale 2^0
    const std::pair<const char *, std::uint32_t> amaxes[] = {
        {"amax_1.25", f32w(5, -2)},  {"amax_1.5", f32w(3, -1)},  {"amax_1.625", f32w(13, -3)}, {"amax_1.75", f32w(7, -2)},
        {"amax_1.875", f32w(15, 7)}, {"amax_below_2^8", 0x437FFFFFu}, {"amax_below_2^-8", 0x3B7FFFFFu}, {"amax_negative_1.875", f32w(-15, -3)}};
    for (const auto &[slug, amax] : amaxes) {
        const int e = static_cast<int>((amax >> 23) & 0xFF) - 127;
        std::vector<std::uint32_t> x = {amax};
        for (std::int64_t m = 1; m < 16; ++m) x.push_back(f32w((m % 2 ? -1 : 1) * (m * 37 + 11), e - 9));
        p.push_back(block(slug, x));
    }
    std::mt19937_64 rng(0x7265636970ull);
    for (int i = 0; i < 6; ++i) {
        std::vector<std::uint32_t> x(32);
        for (auto &w : x) {
            const auto r = rng();
            w = f32w(static_cast<std::int64_t>(r & 0xFFFF) * ((r >> 16) & 1 ? -1 : 1), -20 + 6 * i + static_cast<int>((r >> 20) % 4));
        }
        p.push_back({fmt::format("seeded_{}", i), {1, 32}, x});
    }
    return p;
}

Lattice mxfp4_lattice(std::uint32_t method) {
    Lattice l;
    l.family = "mxfp4";
    l.probe_unit = "blocks";
    l.format = NINFER_FORMAT_gguf_mxfp4;
    l.layout = NINFER_LAYOUT_ggml_blocks_v1;
    l.method = method;
    l.axes = {"scale", "elements"};
    for (const auto &s : rc::kMxfp4Scales)
        for (const auto &e : rc::kFp4Elements) l.points.push_back({{std::string(s.name), std::string(e.name)}});
    // mxfp4_ocp is the lesson's floor/nearest_first, ggml_quantize_ref ggml's floor_log2f/nearest_first
    l.canonical = method == NINFER_ENCODER_ggml_quantize_ref ? rc::floor_log2f * rc::kFp4Elements.size() : 0;
    l.probes = mxfp4_probes();
    l.encode = [](const Point &p, const Probe &pr) {
        const auto s = static_cast<rc::Mxfp4Scale>(index_of(rc::kMxfp4Scales, p.coordinates[0]));
        const auto e = static_cast<rc::Fp4Elements>(index_of(rc::kFp4Elements, p.coordinates[1]));
        Encoded out;
        for (std::size_t at = 0; at < pr.x.size(); at += 32) {
            const auto b = rc::mxfp4_recipe_block(s, e, std::span<const std::uint32_t>(pr.x).subspan(at, 32));
            if (b.status != NINFER_OK) return Encoded{b.status, {}};
            out.payload.insert(out.payload.end(), b.bytes.begin(), b.bytes.end());
        }
        return out;
    };
    l.text = [](const Point &p) {
        const auto &s = rc::kMxfp4Scales[index_of(rc::kMxfp4Scales, p.coordinates[0])];
        const auto &e = rc::kFp4Elements[index_of(rc::kFp4Elements, p.coordinates[1])];
        return fmt::format("scale {}, elements {} ({}; {})", s.text, e.text, s.producers, e.producers);
    };
    return l;
}

/// Where division and the reciprocal multiply part under a code rounding: words near
/// (k + 0.5) * scale (rne, rna) or k * scale (rtz), for the group's scale.
std::vector<std::uint32_t> parting_words(const oracle::GroupedFormat &f, std::uint16_t s16, rc::GroupedCodes mode) {
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    const oracle::Real s = oracle::word_info(oracle::word_format(NINFER_FORMAT_fp16), s16).value;
    std::vector<std::uint32_t> out;
    // rtz: the integers 1..qmax-1 (qmax * scale could pass amax and move the scale)
    for (int k = 0; k < (mode == rc::code_rtz ? f.qmax - 1 : f.qmax) && out.size() < 8; ++k) {
        oracle::Real target = oracle::exact_zero();
        if (mode == rc::code_rtz) {
            target = s * (k + 1);
        } else {
            target = s * k;
            target += s / 2;
        }
        const auto w0 = static_cast<std::uint32_t>(oracle::round_real(target, f32, 1, 1));
        for (int j = -6; j <= 6 && out.size() < 8; ++j) {
            const std::uint32_t w = w0 + static_cast<std::uint32_t>(j);
            if (rc::grouped_recipe_code(rc::reciprocal, mode, w, s16) != rc::grouped_recipe_code(rc::division, mode, w, s16))
                out.push_back(w);
        }
    }
    return out;
}

/// Grouped probes of one group each: every tie of the integer rounding at scale 1 (amax =
/// qmax), then for scales that are not powers of two the words where x / scale and x * (1 /
/// scale) round to different codes, under each code rounding.
std::vector<Probe> grouped_probes(const oracle::GroupedFormat &f) {
    const auto g = static_cast<std::size_t>(f.group);
    std::vector<Probe> p;
    std::vector<std::uint32_t> ties(g, 0);
    ties[0] = f32w(f.qmax, 0);
    const std::int64_t halves[] = {1, -1, 3, -3, 5, -5};  // +-0.5, +-1.5, +-2.5 in units of 2^-1
    for (std::size_t i = 0; i < 6; ++i) ties[1 + i] = f32w(halves[i], -1);
    ties[7] = f32w(27, -4);   // 1.6875
    ties[8] = f32w(-27, -4);  // -1.6875
    p.push_back({"code_ties", {1, g}, ties});
    for (const std::uint32_t amax : {0x3F9D70A4u, 0x40490FDBu, 0x3DCCCCCDu, 0x42C80000u}) {  // 1.23, pi, 0.1, 100
        std::vector<std::uint32_t> x(g, 0);
        x[0] = amax;
        const auto t = oracle::grouped_absmax_group(f, x);
        for (const auto mode : {rc::code_rne, rc::code_rtz}) {
            auto words = parting_words(f, t.scale16, mode);
            std::vector<std::uint32_t> y(g, 0);
            y[0] = amax;
            for (std::size_t i = 0; i < words.size() && i + 1 < g; ++i) y[i + 1] = words[i];
            p.push_back({fmt::format("division_{}_amax_{:08x}", rc::kGroupedCodes[mode].name, amax), {1, g}, y});
        }
    }
    return p;
}

Lattice grouped_lattice(std::uint32_t format) {
    const auto &f = *abi::find_id(abi::kGroupedFormats, format);
    Lattice l;
    l.family = "grouped";
    l.probe_unit = "groups";
    l.format = format;
    l.layout = NINFER_LAYOUT_row_split_k128_v1;
    l.method = NINFER_ENCODER_grouped_absmax;
    l.axes = {"normalize", "codes"};
    for (const auto &n : rc::kGroupedNormalize)
        for (const auto &c : rc::kGroupedCodes) l.points.push_back({{std::string(n.name), std::string(c.name)}});
    l.canonical = 0;  // reciprocal/rne: Section 7.2
    l.probes = grouped_probes(f);
    l.encode = [&f](const Point &p, const Probe &pr) {
        const auto n = static_cast<rc::GroupedNormalize>(index_of(rc::kGroupedNormalize, p.coordinates[0]));
        const auto c = static_cast<rc::GroupedCodes>(index_of(rc::kGroupedCodes, p.coordinates[1]));
        const auto b = rc::grouped_recipe_payload(f, n, c, pr.shape[0], pr.shape[1], pr.x);
        return Encoded{b.status, b.bytes};
    };
    l.text = [](const Point &p) {
        const auto &n = rc::kGroupedNormalize[index_of(rc::kGroupedNormalize, p.coordinates[0])];
        const auto &c = rc::kGroupedCodes[index_of(rc::kGroupedCodes, p.coordinates[1])];
        return fmt::format("normalize {}, codes {} ({}; {})", n.text, c.text, n.producers, c.producers);
    };
    return l;
}

/// An nvfp4 point from its coordinate names (scale, rounding, normalize, elements).
rc::Nvfp4Point nvfp4_point(const Point &p) {
    return {static_cast<rc::Nvfp4Scale>(index_of(rc::kNvfp4Scales, p.coordinates[0])),
            static_cast<rc::Nvfp4ScaleRounding>(index_of(rc::kNvfp4ScaleRoundings, p.coordinates[1])),
            static_cast<rc::Nvfp4Normalize>(index_of(rc::kNvfp4Normalize, p.coordinates[2])),
            static_cast<rc::Fp4Elements>(index_of(rc::kFp4Elements, p.coordinates[3]))};
}

/// An nvfp4 probe: a [128, 64] tensor (the layout's smallest) whose first blocks of 16 are
/// `blocks` (each padded with zeros of alternating sign), +0 everywhere after them.
Probe nv_probe(std::string slug, std::vector<std::vector<std::uint32_t>> blocks) {
    std::vector<std::uint32_t> x(128 * 64, 0);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        blocks[b].resize(16, 0);
        for (std::size_t j = 1; j < 16; j += 2)
            if (blocks[b][j] == 0) blocks[b][j] = 0x80000000u;
        std::copy(blocks[b].begin(), blocks[b].end(), x.begin() + static_cast<std::ptrdiff_t>(16 * b));
    }
    return {std::move(slug), {128, 64}, std::move(x)};
}

oracle::Real f32_value(std::uint32_t w) { return oracle::word_info(oracle::word_format(NINFER_FORMAT_fp32), w).value; }

/// Block amaxes (within 48 words of 6 * tensorScale times an E4M3 midpoint) whose scale code
/// the lesson's and Transformer Engine's formulas put on opposite sides of the midpoint: the
/// codes differ under either E4M3 rounding.
std::vector<std::uint32_t> scale_parting_amaxes(std::uint32_t tensor_amax) {
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    const auto &e4m3 = oracle::word_format(NINFER_FORMAT_e4m3fn);
    std::vector<std::uint32_t> out;
    for (std::uint8_t c = 0x20; c < 0x7E && out.size() < 4; c += 3) {
        oracle::Real mid = oracle::word_info(e4m3, c).value + oracle::word_info(e4m3, c + 1).value;
        mid *= f32_value(tensor_amax) * 3;  // (v_c + v_c+1) / 2 * 6 * tensorAmax / 2688
        mid /= 2688;
        const auto w0 = static_cast<std::uint32_t>(oracle::round_real(mid, f32, 1, 1));
        for (int j = -48; j <= 48; ++j) {
            const std::uint32_t w = w0 + static_cast<std::uint32_t>(j);
            if (w > tensor_amax) break;
            const auto code = [&](rc::Nvfp4Scale s, rc::Nvfp4ScaleRounding r) { return rc::nvfp4_recipe_scale({.scale = s, .rounding = r}, tensor_amax, w); };
            if (code(rc::scale_lesson, rc::e4m3_rne) != code(rc::scale_te, rc::e4m3_rne) &&
                code(rc::scale_lesson, rc::e4m3_rnu) != code(rc::scale_te, rc::e4m3_rnu)) {
                out.push_back(w);
                break;
            }
        }
    }
    return out;
}

/// A block of amax `bamax` (on which every scale point agrees) with elements near the E2M1
/// midpoints times its block scale that division and the reciprocal multiply put on opposite
/// sides of the midpoint; empty when the scale points disagree.
std::vector<std::uint32_t> normalize_parting_block(std::uint32_t tensor_amax, std::uint32_t bamax) {
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    const std::uint8_t c = rc::nvfp4_recipe_scale({}, tensor_amax, bamax);
    for (const auto s : {rc::scale_lesson, rc::scale_te})
        for (const auto r : {rc::e4m3_rne, rc::e4m3_rnu})
            if (rc::nvfp4_recipe_scale({.scale = s, .rounding = r}, tensor_amax, bamax) != c) return {};
    std::vector<std::uint32_t> out = {bamax};
    const oracle::Real unit = oracle::word_info(oracle::word_format(NINFER_FORMAT_e4m3fn), c).value * f32_value(tensor_amax) / 2688;
    for (const int mid4 : {1, 3, 5, 7, 10, 14, 20}) {  // E2M1 midpoints 0.25 ... 5 in units of 1/4
        oracle::Real m = oracle::exact_zero();
        m = mid4;
        m /= 4;
        const auto w0 = static_cast<std::uint32_t>(oracle::round_real(oracle::Real(m * unit), f32, 1, 1));
        for (int j = -8; j <= 8; ++j) {
            const std::uint32_t w = w0 + static_cast<std::uint32_t>(j);
            const oracle::Real qd = f32_value(rc::nvfp4_recipe_normalized({.normalize = rc::nv_division}, tensor_amax, c, w));
            const oracle::Real qr = f32_value(rc::nvfp4_recipe_normalized({.normalize = rc::nv_reciprocal}, tensor_amax, c, w));
            if ((qd < m && qr > m) || (qd > m && qr < m)) {
                out.push_back(w);
                out.push_back(w | 0x80000000u);
                break;
            }
        }
    }
    return out;
}

/// nvfp4 probes: at tensorScale 1 (tensor amax 2688) every E2M1 tie and an E4M3 tie (amax
/// 6.375: 1.0625 is halfway between 1 and 1.125 under both formulas); for tensor amaxes that
/// are no power of two, the block amaxes where the scale formulas part and the elements where
/// the normalizations part.
std::vector<Probe> nvfp4_probes() {
    std::vector<Probe> p;
    std::vector<std::uint32_t> ties = {f32w(6, 0)};
    for (const std::int64_t m4 : {1, 3, 5, 7, 10, 14, 20}) {  // 0.25 ... 5 in units of 1/4
        ties.push_back(f32w(m4, -2));
        ties.push_back(f32w(-m4, -2));
    }
    p.push_back(nv_probe("ties_tensor_scale_1",
                         {{f32w(2688, 0)}, ties, {f32w(51, -3), f32w(5, -1), f32w(-3, -2), 0x3DCCCCCDu, 0xBDCCCCCDu}}));
    for (const std::uint32_t tamax : {0x40490FDBu, 0x3F9D70A4u, 0x42C80000u}) {  // pi, 1.23, 100
        std::vector<std::vector<std::uint32_t>> blocks = {{tamax}};
        for (const auto w : scale_parting_amaxes(tamax)) blocks.push_back({w, w - 0x00800000u, w | 0x80000000u});
        std::uint32_t bamax = tamax - 0x00400000u;
        for (int tries = 0; tries < 64 && blocks.size() < 12; ++tries, bamax -= 0x00123457u)
            if (auto b = normalize_parting_block(tamax, bamax); b.size() > 1) blocks.push_back(std::move(b));
        p.push_back(nv_probe(fmt::format("parting_tensor_amax_{:08x}", tamax), std::move(blocks)));
    }
    return p;
}

Lattice nvfp4_lattice() {
    Lattice l;
    l.family = "nvfp4";
    l.probe_unit = "tensors";
    l.format = NINFER_FORMAT_nvfp4;
    l.layout = NINFER_LAYOUT_block_scale_k16_m128x4_v1;
    l.method = NINFER_ENCODER_nvfp4_two_level;
    l.axes = {"scale", "rounding", "normalize", "elements"};
    for (const auto &s : rc::kNvfp4Scales)
        for (const auto &r : rc::kNvfp4ScaleRoundings)
            for (const auto &n : rc::kNvfp4Normalize)
                for (const auto e : {rc::nearest_first, rc::rne})  // nearest_last: no producer (suites/RECIPES.md)
                    l.points.push_back({{std::string(s.name), std::string(r.name), std::string(n.name),
                                         std::string(rc::kFp4Elements[e].name)}});
    l.canonical = 0;  // lesson/rne/division/nearest_first: the lesson's Example 15 (nvfp4_two_level)
    l.probes = nvfp4_probes();
    l.encode = [](const Point &p, const Probe &pr) {
        const auto b = rc::nvfp4_recipe_payload(nvfp4_point(p), pr.shape[0], pr.shape[1], pr.x);
        return Encoded{b.status, b.bytes};
    };
    l.text = [](const Point &p) {
        const auto n = nvfp4_point(p);
        const auto &s = rc::kNvfp4Scales[n.scale];
        const auto &r = rc::kNvfp4ScaleRoundings[n.rounding];
        const auto &z = rc::kNvfp4Normalize[n.normalize];
        const auto &e = rc::kFp4Elements[n.elements];
        return fmt::format("block scale {}, {}; elements {}, {} ({}; {}; {}; {})", s.text, r.text, z.text, e.text, s.producers,
                           r.producers, z.producers, e.producers);
    };
    return l;
}

/// The lattice rounding name of a point's element rounding (reports' policy.rounding).
std::string rounding_name(const std::string &elements) {
    if (elements == "nearest_first") return "rnz";
    if (elements == "nearest_last" || elements == "rna") return "rna";
    if (elements == "rtz") return "rtz";
    return "rne";
}

}  // namespace

std::string Point::name() const {
    std::string s;
    for (const auto &c : coordinates) s += (s.empty() ? "" : "/") + c;
    return s;
}

bool has_lattice(std::uint32_t format, std::uint32_t method) {
    if (format == NINFER_FORMAT_gguf_mxfp4) return method == NINFER_ENCODER_mxfp4_ocp || method == NINFER_ENCODER_ggml_quantize_ref;
    if (format == NINFER_FORMAT_nvfp4) return method == NINFER_ENCODER_nvfp4_two_level;
    const auto *g = abi::find_id(abi::kGroupedFormats, format);
    return g && g->canonical_encoders && method == NINFER_ENCODER_grouped_absmax;
}

Lattice lattice_of(std::uint32_t format, std::uint32_t method) {
    if (format == NINFER_FORMAT_gguf_mxfp4) return mxfp4_lattice(method);
    if (format == NINFER_FORMAT_nvfp4) return nvfp4_lattice();
    return grouped_lattice(format);
}

RecipeMatch match_recipe(const Lattice &l, const std::vector<Encoded> &answers) {
    RecipeMatch m;
    m.probes = l.probes.size();
    std::vector<std::size_t> matched(l.points.size(), 0);
    for (std::size_t i = 0; i < l.points.size(); ++i)
        for (std::size_t k = 0; k < l.probes.size(); ++k) matched[i] += l.encode(l.points[i], l.probes[k]) == answers[k] ? 1 : 0;
    // the canonical point first among equals, then the lattice's order
    std::vector<std::size_t> order = {l.canonical};
    for (std::size_t i = 0; i < l.points.size(); ++i)
        if (i != l.canonical) order.push_back(i);
    m.nearest = order[0];
    for (const auto i : order) {
        if (matched[i] == m.probes) m.consistent.push_back(i);
        if (matched[i] > matched[m.nearest]) m.nearest = i;
    }
    if (!m.consistent.empty()) m.nearest = m.consistent[0];
    m.nearest_matched = matched[m.nearest];
    for (std::size_t k = 0; k < l.probes.size() && m.consistent.empty(); ++k) {
        const auto want = l.encode(l.points[m.nearest], l.probes[k]);
        if (want == answers[k]) continue;
        m.first_slug = l.probes[k].slug;
        m.first_expected = want;
        m.first_subject = answers[k];
        m.first_input = l.probes[k].x;
        break;
    }
    return m;
}

std::vector<Encoded> encode_probes(Subject &s, const Lattice &l, std::string &error) {
    std::vector<Encoded> out;
    for (const auto &p : l.probes) {
        Call c;
        c.op = NINFER_OP_quant_encode;
        c.format = l.format;
        c.format_in = NINFER_FORMAT_fp32;
        c.layout = l.layout;
        c.method = l.method;
        c.shape = p.shape;
        c.count = p.x.size();
        std::vector<std::uint8_t> src(4 * p.x.size());
        for (std::size_t i = 0; i < p.x.size(); ++i)
            for (int b = 0; b < 4; ++b) src[4 * i + b] = static_cast<std::uint8_t>(p.x[i] >> (8 * b));
        c.inputs.push_back({NINFER_PLANE_SOURCE, 0, std::move(src)});
        const auto want = l.encode(l.points[l.canonical], p);
        c.outputs.push_back({NINFER_PLANE_PAYLOAD, 0, want.payload.empty() ? std::uint64_t{1} << 16 : want.payload.size()});
        const Reply r = s.call(c);
        if (r.outcome != Outcome::returned) {
            error = fmt::format("probe {}: {} ({})", p.slug, outcome_name(r.outcome), r.message);
            return {};
        }
        Encoded e{r.status, {}};
        if (r.status == NINFER_OK)
            if (const auto *plane = suites::find_plane(r.outputs, NINFER_PLANE_PAYLOAD)) e.payload = plane->bytes;
        out.push_back(std::move(e));
    }
    return out;
}

reports::Fingerprint recipe_fingerprint(Subject &s, std::uint32_t format, std::uint32_t method, std::string &error) {
    const Lattice l = lattice_of(format, method);
    const auto answers = encode_probes(s, l, error);
    reports::Fingerprint f;
    if (!error.empty()) return f;
    const auto m = match_recipe(l, answers);
    const auto &point = l.points[m.nearest];
    const std::string method_name(abi::find_id(abi::kEncoders, method)->name);
    f.op = "quant_encode";
    f.conversion = method_name;
    f.source = "fp32";
    f.target = std::string(abi::find_format(format)->name);
    f.domain = "recipe_probes";
    f.inputs = m.probes;
    f.matched = m.nearest_matched;
    f.rounding = rounding_name(point.coordinates.back());
    f.overflow = "satfinite";
    f.subnormals = "kept";
    f.nan = "refused";
    f.policy_text = l.text(point);
    reports::RecipeFingerprint r;
    r.family = l.family;
    for (std::size_t a = 0; a < l.axes.size(); ++a) r.coordinates.emplace_back(l.axes[a], point.coordinates[a]);
    for (const auto i : m.consistent) r.recipes.push_back(l.points[i].name());
    r.canonical = !m.consistent.empty() && m.nearest == l.canonical;
    const std::string head = fmt::format("quant_encode {} by {} (recipe probes: {} {})", f.target, method_name, m.probes,
                                         l.probe_unit);
    if (!m.consistent.empty()) {
        f.named = point.name();
        for (std::size_t i = 1; i < m.consistent.size(); ++i)
            f.equivalent.push_back(l.points[m.consistent[i]].name() + ": " + l.text(l.points[m.consistent[i]]));
        f.sentence = fmt::format("{}: matches recipe {}{}: {} on {} of {} probes", head, f.named,
                                 r.canonical ? " (canonical for " + method_name + ")" : "", f.policy_text, m.probes, m.probes);
    } else {
        reports::FingerprintResidue res;
        res.cls = "probe " + m.first_slug;
        res.inputs = 1;
        res.mismatches = 1;
        res.input = hex_words(m.first_input);
        res.expected = m.first_expected.status == NINFER_OK ? hex_bytes(m.first_expected.payload) : "";
        res.actual = m.first_subject.status == NINFER_OK ? hex_bytes(m.first_subject.payload) : "";
        f.residue.push_back(res);
        f.sentence = fmt::format("{}: no recipe of the lattice; nearest {}: {} on {} of {} probes; first distinguishing "
                                 "probe {}: subject {}, recipe {}",
                                 head, point.name(), f.policy_text, m.nearest_matched, m.probes, m.first_slug,
                                 m.first_subject.status == NINFER_OK ? hex_bytes(m.first_subject.payload)
                                                                     : fmt::format("status {}", m.first_subject.status),
                                 m.first_expected.status == NINFER_OK ? hex_bytes(m.first_expected.payload)
                                                                      : fmt::format("status {}", m.first_expected.status));
    }
    f.recipe = std::move(r);
    return f;
}

}  // namespace ninfer::harness::recipes
