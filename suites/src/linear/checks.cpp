// SPDX-License-Identifier: Apache-2.0
// Suite linear.checks: every refusal of `linear`'s check order (suites/LINEAR.md), under every
// profile: (1) a format that is no weight format, a format/layout pair the format does not take;
// (2) rank 1 and 3, N, K or M of 0, shapes the geometry refuses; (3) profile 0 or unknown,
// gguf_q8_1_f32 on a weight that is not GGUF, activation and output formats the profile does not
// list; (4) ACTIVATION sizes (M = 1 and 3), OUTPUT capacities below M*N words, PAYLOAD sizes;
// (5) each invalid payload detail. Expected statuses and details from the oracle (linear_expect;
// a short OUTPUT: the contract's step 4); nothing is written on a refusal.
#include <fmt/format.h>

#include <stdexcept>

#include "builders.hpp"
#include "ninfer/oracle/row_split.hpp"

namespace ninfer::suites::linear {

namespace {

using Shape = std::vector<std::uint64_t>;

/// The weight of a profile's refusal cases: fp32 [2, 4]; gguf_q8_1_f32: gguf_q8_0 [1, 32].
struct Base {
    std::uint32_t format;
    std::uint64_t n, k;
};
Base base_of(std::uint32_t p) { return p == NINFER_PROFILE_gguf_q8_1_f32 ? Base{NINFER_FORMAT_gguf_q8_0, 1, 32} : Base{NINFER_FORMAT_fp32, 2, 4}; }

void registry_cases(std::vector<Case> &out, std::uint32_t p, Rng &rng) {
    const auto x = random_activation(NINFER_FORMAT_fp32, 1, 4, rng);
    // Not a weight format: int32 words, a conversion-only word format.
    for (const auto f : {NINFER_FORMAT_int32, NINFER_FORMAT_e4m3fn, NINFER_FORMAT_e8m0}) {
        auto c = call_of(f, p, 2, 4, 1);
        out.push_back(linear_case(rule::linear_registry, "not_a_weight", Level::quick, "registry", c, Bytes(8 * 4, 0), x));
    }
    // Pairs the format does not take.
    struct Pair {
        std::uint32_t format, layout;
        const char *slug;
    };
    const Pair pairs[] = {{NINFER_FORMAT_fp32, NINFER_LAYOUT_row_split_k128_v1, "row_split"},
                          {NINFER_FORMAT_fp32, 0, "no_layout"},
                          {NINFER_FORMAT_q4_g64_fp16, NINFER_LAYOUT_contiguous_le_v1, "contiguous"},
                          {NINFER_FORMAT_nvfp4, NINFER_LAYOUT_row_scale_v1, "row_scale"},
                          {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_LAYOUT_row_interleaved_v1, "row_interleaved"},
                          {NINFER_FORMAT_gguf_q4_0, NINFER_LAYOUT_contiguous_le_v1, "contiguous"}};
    for (const auto &pr : pairs) {
        auto c = call_of(pr.format, p, 2, 4, 1);
        c.layout = pr.layout;
        out.push_back(linear_case(rule::linear_registry, std::string("wrong_pair.") + pr.slug, Level::quick, "registry", c,
                                  Bytes(32, 0), x));
    }
}

void shape_cases(std::vector<Case> &out, std::uint32_t p, Rng &rng) {
    const auto b = base_of(p);
    const auto w = weight_payload(b.format, b.n, b.k, rng);
    const auto x = random_activation(NINFER_FORMAT_fp32, 1, b.k, rng);
    // Rank 1 and 3.
    const Shape r1{b.k}, r3{1, b.n, b.k};
    out.push_back(linear_case(rule::linear_shape, "rank1", Level::quick, "shape", call_of(b.format, p, b.n, b.k, 1), w, x, &r1));
    out.push_back(linear_case(rule::linear_shape, "rank3", Level::quick, "shape", call_of(b.format, p, b.n, b.k, 1), w, x, &r3));
    // N, K, M of 0.
    out.push_back(linear_case(rule::linear_shape, "n0", Level::quick, "shape", call_of(b.format, p, 0, b.k, 1), {}, x));
    out.push_back(linear_case(rule::linear_shape, "k0", Level::quick, "shape", call_of(b.format, p, b.n, 0, 1), {}, {}));
    out.push_back(linear_case(rule::linear_shape, "m0", Level::quick, "shape", call_of(b.format, p, b.n, b.k, 0), w, {}));
    // Geometry: nvfp4 N % 128, K % 64; GGUF K % block values (before the profile: under any profile).
    out.push_back(linear_case(rule::linear_shape, "n64", Level::quick, "shape", call_of(NINFER_FORMAT_nvfp4, p, 64, 64, 1),
                              Bytes(64, 0), random_activation(NINFER_FORMAT_fp32, 1, 64, rng)));
    out.push_back(linear_case(rule::linear_shape, "k32", Level::quick, "shape", call_of(NINFER_FORMAT_nvfp4, p, 128, 32, 1),
                              Bytes(64, 0), random_activation(NINFER_FORMAT_fp32, 1, 32, rng)));
    out.push_back(linear_case(rule::linear_shape, "k128", Level::quick, "shape", call_of(NINFER_FORMAT_gguf_q4_k, p, 1, 128, 1),
                              Bytes(144, 0), random_activation(NINFER_FORMAT_fp32, 1, 128, rng)));
    out.push_back(linear_case(rule::linear_shape, "k48", Level::quick, "shape", call_of(NINFER_FORMAT_gguf_q4_0, p, 1, 48, 1),
                              Bytes(27, 0), random_activation(NINFER_FORMAT_fp32, 1, 48, rng)));
    // Step 4: plane sizes (after the profile checks pass).
    const auto c = call_of(b.format, p, b.n, b.k, 1);
    auto xs = x;
    xs.resize(x.size() - 4);
    out.push_back(linear_case(rule::linear_shape, "activation_short", Level::quick, "plane size", c, w, xs));
    auto xl = x;
    xl.resize(x.size() + 4, 0);
    out.push_back(linear_case(rule::linear_shape, "activation_long", Level::quick, "plane size", c, w, xl));
    out.push_back(linear_case(rule::linear_shape, "activation_missing", Level::quick, "plane size", c, w, {}));
    auto ws = w;
    ws.pop_back();
    out.push_back(linear_case(rule::linear_shape, "payload_short", Level::quick, "plane size", c, ws, x));
    auto wl = w;
    wl.push_back(0);
    out.push_back(linear_case(rule::linear_shape, "payload_long", Level::quick, "plane size", c, wl, x));
    if (p == NINFER_PROFILE_gguf_q8_1_f32) return;
    // nvfp4: three divisors do not divide N = 128; no divisor at all.
    const auto nv = weight_payload(NINFER_FORMAT_nvfp4, 128, 64, rng);
    const auto x64 = random_activation(NINFER_FORMAT_fp32, 1, 64, rng);
    auto nv3 = nv;
    nv3.insert(nv3.end(), {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0x3F});
    out.push_back(linear_case(rule::linear_shape, "divisors3", Level::quick, "plane size", call_of(NINFER_FORMAT_nvfp4, p, 128, 64, 1),
                              nv3, x64));
    auto nv0 = nv;
    nv0.resize(nv.size() - 4);
    out.push_back(linear_case(rule::linear_shape, "divisors0", Level::quick, "plane size", call_of(NINFER_FORMAT_nvfp4, p, 128, 64, 1),
                              nv0, x64));
}

/// Step 4 with M > 1 rows: an ACTIVATION one word short of M rows, of one row only (a plugin that
/// reads row 0 alone would take it), one row too long.
void batch_shape_cases(std::vector<Case> &out, std::uint32_t p, Rng &rng) {
    const auto b = base_of(p);
    const std::uint64_t m = 3;
    const auto w = weight_payload(b.format, b.n, b.k, rng);
    const auto x = random_activation(NINFER_FORMAT_fp32, m, b.k, rng);
    const auto c = call_of(b.format, p, b.n, b.k, m);
    auto xs = x;
    xs.resize(x.size() - 4);
    out.push_back(linear_case(rule::linear_shape, "activation_short.m3", Level::quick, "plane size", c, w, xs));
    const Bytes x1(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(b.k * 4));
    out.push_back(linear_case(rule::linear_shape, "activation_one_row.m3", Level::quick, "plane size", c, w, x1));
    auto xl = x;
    xl.insert(xl.end(), x1.begin(), x1.end());
    out.push_back(linear_case(rule::linear_shape, "activation_extra_row.m3", Level::quick, "plane size", c, w, xl));
}

/// A step-4 refusal of a short OUTPUT: the call of `c` (valid up to its OUTPUT) offered `bytes`
/// bytes of OUTPUT capacity, fewer than M*N words. The runner offers a refusal case exactly the
/// size of its expected OUTPUT plane when that plane is not empty (harness call_of), so the plane
/// holds `bytes` zero bytes; they are never compared. linear_expect has no capacity: its status
/// for the planes must be OK, and the refusal is the contract's step 4.
Case short_output_case(const std::string &slug, const LinearCall &c, const Bytes &w, const Bytes &x, std::uint64_t bytes) {
    auto out = linear_case(rule::linear_shape, slug, Level::quick, "plane size", c, w, x);
    if (out.expect.status != NINFER_OK || bytes == 0 || bytes >= c.m * c.n * word_format(c.output_format).bytes())
        throw std::logic_error("short_output_case " + out.id + ": the call must be valid and the capacity short and nonzero");
    out.expect.status = NINFER_E_SIZE;
    out.expect.detail = 0;
    out.expect.accept.clear();
    out.expect.outputs = {Plane{NINFER_PLANE_OUTPUT, c.output_format, Bytes(bytes, 0)}};
    out.nan = NanPolicy::exact;
    return out;
}

/// Step 4, OUTPUT capacity below M*N words, under every profile: M*N - 1 words (M = 1 where N > 1,
/// and M = 3), one row of N words for M = 3 (a plugin that writes row 0 only fits), one byte short
/// of M*N words; correctly_rounded also with a bf16 OUTPUT.
void output_cases(std::vector<Case> &out, std::uint32_t p, Rng &rng) {
    const auto b = base_of(p);
    const auto w = weight_payload(b.format, b.n, b.k, rng);
    for (const std::uint64_t m : {std::uint64_t{1}, std::uint64_t{3}}) {
        if (m * b.n < 2) continue;  // a capacity of 0 bytes is an empty plane: ample room
        const auto x = random_activation(NINFER_FORMAT_fp32, m, b.k, rng);
        const auto c = call_of(b.format, p, b.n, b.k, m);
        const std::string tag = ".m" + std::to_string(m);
        out.push_back(short_output_case("output_short" + tag, c, w, x, (m * b.n - 1) * 4));
        if (m == 1) continue;
        out.push_back(short_output_case("output_one_row" + tag, c, w, x, b.n * 4));
        out.push_back(short_output_case("output_short_byte" + tag, c, w, x, m * b.n * 4 - 1));
        if (p == NINFER_PROFILE_correctly_rounded)
            out.push_back(short_output_case("output_short_bf16" + tag, call_of(b.format, p, b.n, b.k, m, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16),
                                            w, x, (m * b.n - 1) * 2));
    }
}

/// Profile refusals: not per profile but of the profile itself.
void profile_cases(std::vector<Case> &out, Rng &rng) {
    const auto w = weight_payload(NINFER_FORMAT_fp32, 2, 4, rng);
    const auto x = random_activation(NINFER_FORMAT_fp32, 1, 4, rng);
    for (const std::uint32_t p : {0u, 99u})
        out.push_back(linear_case(rule::linear_profile, "unknown", Level::quick, "profile", call_of(NINFER_FORMAT_fp32, p, 2, 4, 1), w, x));
    // gguf_q8_1_f32 on weights that are not GGUF.
    for (const auto f : {NINFER_FORMAT_fp32, NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const std::uint64_t k = 64;
        out.push_back(linear_case(rule::linear_profile, "not_gguf", Level::quick, "profile",
                                  call_of(f, NINFER_PROFILE_gguf_q8_1_f32, 2, k, 1), weight_payload(f, 2, k, rng),
                                  random_activation(NINFER_FORMAT_fp32, 1, k, rng)));
    }
    for (const auto &pr : abi::kProfiles) {
        const auto b = base_of(pr.id);
        const auto wb = weight_payload(b.format, b.n, b.k, rng);
        // Activation formats the profile does not take.
        std::vector<std::uint32_t> acts{NINFER_FORMAT_e4m3fn, NINFER_FORMAT_int32};
        if (pr.id == NINFER_PROFILE_gguf_q8_1_f32) acts.insert(acts.end(), {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16});
        for (const auto a : acts)
            out.push_back(linear_case(rule::linear_profile, "activation_" + format_label(a), Level::quick, "profile",
                                      call_of(b.format, pr.id, b.n, b.k, 1, a), wb,
                                      Bytes(b.k * static_cast<std::uint64_t>(word_format(a).bytes()), 0)));
        // Output formats the profile does not give.
        std::vector<std::uint32_t> outs{NINFER_FORMAT_e4m3fn, NINFER_FORMAT_int32};
        if (pr.id != NINFER_PROFILE_correctly_rounded) outs.insert(outs.end(), {NINFER_FORMAT_bf16, NINFER_FORMAT_fp16});
        for (const auto o : outs)
            out.push_back(linear_case(rule::linear_profile, "output_" + format_label(o), Level::quick, "profile",
                                      call_of(b.format, pr.id, b.n, b.k, 1, NINFER_FORMAT_fp32, o), wb,
                                      random_activation(NINFER_FORMAT_fp32, 1, b.k, rng)));
    }
}

void payload_cases(std::vector<Case> &out, std::uint32_t p, Rng &rng) {
    if (p == NINFER_PROFILE_gguf_q8_1_f32) return;  // GGUF payloads have no invalid words
    auto add = [&](std::uint32_t f, std::uint64_t n, std::uint64_t k, const std::string &slug, const Bytes &w) {
        out.push_back(linear_case(rule::linear_payload, slug, Level::quick, "invalid payload", call_of(f, p, n, k, 1), w,
                                  random_activation(NINFER_FORMAT_fp32, 1, k, rng)));
    };
    // Grouped: illegal code words, invalid scales, a +0 scale over a nonzero code, padding, gaps.
    for (const auto fid : {NINFER_FORMAT_q8_g32_fp16, NINFER_FORMAT_t2_g128_fp16}) {
        const auto &f = grouped_format(fid);
        const std::uint64_t k = static_cast<std::uint64_t>(f.group);
        auto w = weight_payload(fid, 2, k, rng);
        const auto g = *row_split_geometry(f, 2, k);
        corrupt_code_word(f, g, w, 1, 0, 3, static_cast<std::uint32_t>(f.illegal_word));
        add(fid, 2, k, "illegal_code", w);
    }
    const auto &q4 = grouped_format(NINFER_FORMAT_q4_g64_fp16);
    const auto g4 = *row_split_geometry(q4, 2, 70);
    for (const auto &[slug, word] : std::vector<std::pair<std::string, std::uint16_t>>{
             {"scale_neg_zero", 0x8000}, {"scale_inf", 0x7C00}, {"scale_nan", 0x7E00}, {"scale_negative", 0xBC00}}) {
        auto w = weight_payload(NINFER_FORMAT_q4_g64_fp16, 2, 70, rng);
        corrupt_scale_word(g4, w, 0, 1, word);
        add(NINFER_FORMAT_q4_g64_fp16, 2, 70, slug, w);
    }
    {
        // A +0 scale over a group holding a nonzero code.
        const auto &q = grouped_format(NINFER_FORMAT_q4_g64_fp16);
        GroupedMatrix m = grouped_matrix(q, 2, 70, rng, {});
        m.scales[1] = 0;
        m.codes[0 * 70 + 64] = 3;
        add(NINFER_FORMAT_q4_g64_fp16, 2, 70, "zero_scale_codes", row_split_encode(q, m));
        auto w = weight_payload(NINFER_FORMAT_q4_g64_fp16, 2, 70, rng);
        corrupt_padding_lane(q4, g4, 70, w, 1, 1, 20, 0x5);  // column 64 + 20 = 84 >= K
        add(NINFER_FORMAT_q4_g64_fp16, 2, 70, "padding_lane", w);
    }
    {
        const auto &q5 = grouped_format(NINFER_FORMAT_q5_g64_fp16);
        const auto g5 = *row_split_geometry(q5, 1, 64);
        for (const auto &gap : row_split_gaps(g5))
            if (gap.end > gap.begin) {
                auto w = weight_payload(NINFER_FORMAT_q5_g64_fp16, 1, 64, rng);
                corrupt_gap_byte(g5, w, gap.begin, 0xA5);
                add(NINFER_FORMAT_q5_g64_fp16, 1, 64, "gap", w);
                break;
            }
    }
    // nvfp4: a negative and a NaN block scale; divisors 0, -1, inf, NaN.
    // (every nvfp4 payload holds 128 x 64 weights: the variants beyond one scale and one divisor
    // run under correctly_rounded only, to keep the golden vectors small)
    const bool all = p == NINFER_PROFILE_correctly_rounded;
    for (const auto &[slug, s] : std::vector<std::pair<std::string, std::uint8_t>>{{"scale_negative", 0xB8}, {"scale_nan", 0x7F}, {"scale_neg_zero", 0x80}}) {
        if (!all && slug != "scale_negative") continue;
        auto m = nvfp4_matrix(128, 64, rng, {}, 1);
        m.scales[37] = s;
        add(NINFER_FORMAT_nvfp4, 128, 64, slug, block_scale_encode(m));
    }
    for (const auto &[slug, d] : std::vector<std::pair<std::string, std::uint32_t>>{
             {"divisor_zero", 0x00000000}, {"divisor_negative", 0xBF800000}, {"divisor_inf", 0x7F800000}, {"divisor_nan", 0x7FC00000}}) {
        if (!all && slug != "divisor_zero") continue;
        auto m = nvfp4_matrix(128, 64, rng, {}, 1);
        m.divisors[0] = d;
        add(NINFER_FORMAT_nvfp4, 128, 64, slug, block_scale_encode(m));
    }
    // FP8 rows: codes 0x7F / 0xFF, -0 / negative / NaN multipliers, a +0 row with a nonzero code, the gap.
    for (const auto fid : {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const auto f = *fp8_row_format(fid);
        const auto nan = fid == NINFER_FORMAT_fp8_e4m3fn_row_bf16 ? std::uint16_t{0x7FC0} : std::uint16_t{0x7E00};
        for (const auto &[slug, code] : std::vector<std::pair<std::string, std::uint8_t>>{{"code_7f", 0x7F}, {"code_ff", 0xFF}}) {
            auto m = fp8_matrix(f, 3, 40, rng, {});
            m.codes[45] = code;
            add(fid, 3, 40, slug, fp8_row_encode(f, m));
        }
        for (const auto &[slug, s] : std::vector<std::pair<std::string, std::uint16_t>>{
                 {"scale_neg_zero", 0x8000}, {"scale_negative", 0xBC00}, {"scale_nan", nan}}) {
            auto m = fp8_matrix(f, 3, 40, rng, {});
            m.scales[2] = s;
            add(fid, 3, 40, slug, fp8_row_encode(f, m));
        }
        auto m = fp8_matrix(f, 3, 40, rng, {});
        m.scales[1] = 0;
        m.codes[40] = 0x38;
        add(fid, 3, 40, "zero_scale_codes", fp8_row_encode(f, m));
    }
    {
        const auto f = *fp8_row_format(NINFER_FORMAT_fp8_e4m3fn_row_bf16);
        auto w = fp8_row_encode(f, fp8_matrix(f, 3, 40, rng, {}));
        w[3 * 40 + 5] = 0x11;  // the gap between the code plane (120 bytes) and the scale plane at 256
        add(NINFER_FORMAT_fp8_e4m3fn_row_bf16, 3, 40, "gap", w);
    }
}

std::vector<Case> golden() {
    std::vector<Case> out;
    Rng rng(kGoldenSeed ^ 0xc4);
    for (const auto &p : abi::kProfiles) {
        registry_cases(out, p.id, rng);
        shape_cases(out, p.id, rng);
        payload_cases(out, p.id, rng);
    }
    profile_cases(out, rng);
    // M > 1 and short OUTPUT refusals from their own generator: the cases above keep their words.
    Rng more(kGoldenSeed ^ 0xc4b);
    for (const auto &p : abi::kProfiles) {
        batch_shape_cases(out, p.id, more);
        output_cases(out, p.id, more);
    }
    return out;
}

std::vector<Case> no_random(std::uint64_t, Level) { return {}; }

}  // namespace

Suite checks_suite() {
    return {"linear.checks",
            "every refusal of linear's check order under every profile: weight formats and pairs, rank and sizes, "
            "profiles and their activation and output formats, plane sizes, each invalid payload detail",
            cached(golden), seeded(no_random)};
}

}  // namespace ninfer::suites::linear
