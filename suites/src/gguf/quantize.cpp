// SPDX-License-Identifier: Apache-2.0
// Suite gguf.quantize: ggml's reference quantizers quantize_row_<type>_ref byte for byte
// (quant_encode, method ggml_quantize_ref, fp32 source; tensor-formats.txt's gguf_* paragraph:
// the block is the byte image of ggml's block_* struct): zero blocks, ties for nearest_int (ties
// to even below 2^22) and for roundf (ties away), the signed maximum at negative and positive,
// tiny and huge magnitudes, q8_1 sums and q8_K bsums, seeded blocks, non-finite and short
// sources; the types without a reference quantizer and foreign methods are refused.
#include "builders.hpp"

#include <bit>
#include <cmath>

#include "ninfer/abi/gguf_table.hpp"

namespace ninfer::suites::gguf {

namespace {

/// The binary32 word of m * 2^e (input construction only; m and the result exactly representable).
std::uint32_t f32w(std::int64_t m, int e) { return std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(static_cast<double>(m), e))); }
/// The binary32 word of k + 1/2.
std::uint32_t half_int(std::int64_t k) { return f32w(2 * k + 1, -1); }

/// A seeded block of values m * 2^(e + emin) with 12-bit m, random sign, e in 0..7.
U32 seeded_values(std::size_t n, int emin, std::mt19937_64 &rng) {
    U32 x(n);
    for (auto &w : x) {
        const auto r = rng();
        const std::int64_t m = static_cast<std::int64_t>(r & 0xFFF) * ((r >> 12) & 1 ? -1 : 1);
        w = f32w(m, emin + static_cast<int>((r >> 16) % 8));
    }
    return x;
}

/// The midpoints of the E2M1 magnitudes times 0.5 (mxfp4 and ggml's nvfp4 with d = 0.5), in
/// quarters: 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5: best_index_mxfp4 keeps the first (smaller) code.
constexpr std::int64_t kFp4Midpoints[] = {1, 3, 5, 7, 10, 14, 20};

/// The K-quants and q8_K: fewer variants (their oracle is slow).
bool slow_oracle(const GgufType &t) {
    for (const std::uint32_t id : {NINFER_FORMAT_gguf_q2_k, NINFER_FORMAT_gguf_q3_k, NINFER_FORMAT_gguf_q4_k, NINFER_FORMAT_gguf_q5_k,
                                   NINFER_FORMAT_gguf_q6_k, NINFER_FORMAT_gguf_q8_k})
        if (t.id == id) return true;
    return false;
}

/// The tie values of a block: element j by `value_of(j)`.
void ramp(U32 &x, std::uint32_t (*value_of)(std::int64_t j)) {
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = value_of(static_cast<std::int64_t>(j));
}

/// Half-integers over the int8 range (q8_0, q8_1, q8_K): roundf / nearest_int ties at d = 1.
std::uint32_t int8_tie(std::int64_t j) { return half_int((j * 37) % 253 - 126); }
/// Half-integers over a signed 4-bit (q4_0) and 5-bit (q5_0) range.
std::uint32_t signed4_tie(std::int64_t j) { return half_int(j % 16 - 8); }
std::uint32_t signed5_tie(std::int64_t j) { return half_int(j % 32 - 16); }
/// Half-integers over an unsigned 4-bit (q4_1) and 5-bit (q5_1) range.
std::uint32_t unsigned4_tie(std::int64_t j) { return half_int(j % 15); }
std::uint32_t unsigned5_tie(std::int64_t j) { return half_int(j % 31); }
/// -2 .. 2 with d = 2: x * id = +-0.5 ties roundf / lroundf (q2_0, tq1_0, tq2_0).
std::uint32_t ternary_tie(std::int64_t j) { return f32w((j * 3) % 5 - 2, 0); }
/// The E2M1 midpoints, alternating sign (mxfp4, ggml's nvfp4 at d = 0.5).
std::uint32_t fp4_tie(std::int64_t j) { return f32w(kFp4Midpoints[j % 7] * (j % 2 ? -1 : 1), -2); }
/// Half-integers -8 .. 7 (the K-quants and i-quants: no anchor).
std::uint32_t nibble_tie(std::int64_t j) { return half_int((j * 7) % 16 - 8); }

/// The tie block of each type, named by the registry's type name: the ramp, then the anchors
/// that make d exactly 1 (q8: amax 127; q4_0: max -8; q5_0: -16; q8_K: -127), 2 or 0.5.
namespace ties_of {
void gguf_q8_0(U32 &x) { ramp(x, int8_tie), x[0] = f32w(127, 0); }
void gguf_q8_1(U32 &x) { ramp(x, int8_tie), x[0] = f32w(127, 0); }
void gguf_q8_k(U32 &x) { ramp(x, int8_tie), x[0] = f32w(-127, 0); }
void gguf_q4_0(U32 &x) { ramp(x, signed4_tie), x[0] = f32w(-8, 0); }
void gguf_q5_0(U32 &x) { ramp(x, signed5_tie), x[0] = f32w(-16, 0); }
void gguf_q4_1(U32 &x) { ramp(x, unsigned4_tie), x[0] = f32w(0, 0), x[1] = f32w(15, 0); }
void gguf_q5_1(U32 &x) { ramp(x, unsigned5_tie), x[0] = f32w(0, 0), x[1] = f32w(31, 0); }
void gguf_q2_0(U32 &x) { ramp(x, ternary_tie), x[0] = f32w(2, 0); }
void gguf_tq1_0(U32 &x) { ramp(x, ternary_tie), x[0] = f32w(2, 0); }
void gguf_tq2_0(U32 &x) { ramp(x, ternary_tie), x[0] = f32w(2, 0); }
void gguf_mxfp4(U32 &x) { ramp(x, fp4_tie), x[0] = f32w(6, 0); }  // floor(log2(6)) = 2: e = 127, d = 0.5
/// Each sub-block: ue4m3(6 / 6) = 0x38, d = 0.5; sub-blocks 1 and 2: amax / 6 a UE4M3 tie
/// (1.0625, 1.3125), which ggml_fp32_to_ue4m3 rounds half up (0x39, 0x3b).
void gguf_nvfp4(U32 &x) {
    ramp(x, fp4_tie);
    for (std::size_t s = 0; s < x.size(); s += 16) x[s] = f32w(6, 0);
    x[16] = f32w(51, -3), x[32] = f32w(63, -3);  // 6.375, 7.875
}
void nibbles(U32 &x) { ramp(x, nibble_tie); }
constexpr auto gguf_q2_k = nibbles, gguf_q3_k = nibbles, gguf_q4_k = nibbles, gguf_q5_k = nibbles, gguf_q6_k = nibbles;
constexpr auto gguf_iq2_xxs = nibbles, gguf_iq2_xs = nibbles, gguf_iq3_xxs = nibbles, gguf_iq1_s = nibbles, gguf_iq4_nl = nibbles,
               gguf_iq3_s = nibbles, gguf_iq2_s = nibbles, gguf_iq4_xs = nibbles, gguf_iq1_m = nibbles, gguf_q1_0 = nibbles;
}  // namespace ties_of

/// The tie builders by registry row.
using TieFill = void (*)(U32 &x);
constexpr abi::GgufTable<TieFill> kTies = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) TieFill(ties_of::name),
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

/// A block of half-integers whose scale is exactly 1 for the type (anchored extremes), so that
/// every x * id is a tie of the quantizer's rounding (roundf for q8_0/q8_1, nearest_int else; q2_0,
/// tq1_0, tq2_0: d = 2, so +-1 are ties of roundf and lroundf; mxfp4, ggml's nvfp4: E2M1 midpoints).
U32 tie_block(const GgufType &t) {
    U32 x(t.block_values);
    abi::gguf_entry(kTies, t.id)(x);
    return x;
}

/// iq4_nl and iq4_xs (oracle/GGUF.md, "iq4_nl and iq4_xs"): both sides of GROUP_MAX_EPS = 1e-15f
/// (iq4_nl refuses below it with NINFER_E_METHOD, a reading: ggml packs codes it never wrote;
/// iq4_xs encodes it), squares that overflow (x*x infinite: infinite or NaN scales), and a row
/// whose second block alone is below the threshold.
template <class Add>
void iq4_cases(const GgufType &t, std::mt19937_64 &rng, Add add) {
    const std::size_t n = t.block_values;
    constexpr std::uint32_t kEps = 0x26901D7Du;  // 1e-15f
    U32 at_eps(n, 0);
    for (std::size_t j = 0; j < n; j += 3) at_eps[j] = kEps | (j % 2 ? 0u : 0x80000000u);
    add("at_group_max_eps", "boundary", Shape{n}, at_eps);
    U32 below = at_eps;
    for (auto &w : below) w = w ? w - 1 : 0;  // one step below 1e-15f
    add("below_group_max_eps", "boundary", Shape{n}, below);
    U32 squares = seeded_values(n, 50, rng);  // |x| up to 2^69: x*x overflows binary32
    add("square_overflow", "boundary", Shape{n}, squares);
    U32 row = seeded_values(n, -6, rng);
    row.insert(row.end(), below.begin(), below.end());
    add("row_second_below_eps", "boundary", Shape{1, 2 * n}, row);
}

void type_cases(const GgufType &t, std::vector<Case> &out) {
    const std::string rule = rule::gguf_quantize(t), nm = name_of(t);
    const std::size_t n = t.block_values;
    const Shape one{t.block_values};
    std::mt19937_64 rng(kGoldenSeed ^ (t.id << 8));
    auto add = [&](const std::string &slug, const std::string &source, const Shape &shape, const U32 &x) {
        out.push_back(quantize_case(rule, nm + "." + slug, Level::quick, source, t, shape, x));
        if (out.back().expect.status == NINFER_E_METHOD) out.back().suite_reading = true;  // iq4_nl below GROUP_MAX_EPS
    };
    // 1. Zero blocks.
    add("zero", "special values", one, U32(n, 0));
    U32 mixed(n, 0);
    for (std::size_t j = 0; j < n; j += 3) mixed[j] = 0x80000000u;
    add("signed_zeros", "special values", one, mixed);
    // 2. Ties of the quantizer's rounding.
    add("ties", "ties", one, tie_block(t));
    const bool big = slow_oracle(t);
    if (!big) {
        U32 ties_neg = tie_block(t);
        for (auto &w : ties_neg) w ^= 0x80000000u;
        add("ties.negated", "ties", one, ties_neg);
    }
    // 3. The signed maximum: largest magnitude negative, positive, equal magnitudes both orders.
    const U32 small = seeded_values(n, -12, rng);
    for (const auto &[slug, at, word, at2, word2] :
         std::vector<std::tuple<std::string, std::size_t, std::uint32_t, std::size_t, std::uint32_t>>{
             {"max_negative", 5, f32w(-3, 0), 5, f32w(-3, 0)},
             {"max_positive", 5, f32w(3, 0), 5, f32w(3, 0)},
             {"max_equal.pos_first", 3, f32w(3, 0), 9, f32w(-3, 0)},
             {"max_equal.neg_first", 3, f32w(-3, 0), 9, f32w(3, 0)}}) {
        if (big && t.id != NINFER_FORMAT_gguf_q8_k && slug.rfind("max_equal", 0) == 0) continue;
        U32 x = small;
        x[at] = word;
        x[at2] = word2;
        add(slug, "boundary", one, x);
    }
    // 3b. A maximum one ulp below a power of two: log2f rounds it up to the integer (mxfp4's
    // floorf(log2f(amax)) is one more than the binary exponent).
    if (!big) {
        std::mt19937_64 rng3(kGoldenSeed ^ (t.id << 8) ^ 0x1F);  // the other cases' draws stay as they were
        U32 below = seeded_values(n, -20, rng3);                // magnitudes below 0.5
        below[7] = 0x40FFFFFFu;                                 // 8 * (1 - 2^-24)
        add("max_below_power_of_two", "boundary", one, below);
    }
    // 4. Tiny and huge magnitudes: binary32 subnormals beside a normal maximum, binary16 scale
    // underflow and overflow.
    U32 subnormal = seeded_values(n, -160, rng);
    subnormal[3] = f32w(-3, -100);
    add("subnormal", "boundary", one, subnormal);
    for (const auto &[slug, emin] : std::vector<std::pair<std::string, int>>{
             {"tiny", -40}, {"fp16_underflow", -30}, {"huge", 60}, {"fp16_overflow", 8}}) {
        if (big && (slug == "tiny" || slug == "huge")) continue;
        add(slug, "boundary", one, seeded_values(n, emin, rng));
    }
    U32 extreme = seeded_values(n, -12, rng);
    extreme[1] = 0x7F7FFFFFu;  // the largest binary32
    add("largest_f32", "boundary", one, extreme);
    // 4b. Blocks whose 1/d overflows binary32 (oracle/GGUF.md, "Blocks whose inverse scale
    // overflows"): products with an infinite inverse, and 0 * inf a NaN, become codes as ggml's
    // x86-64 release build converts them (cvttss2si: 0x80000000, low byte 0): a reading.
    std::mt19937_64 rng2(kGoldenSeed ^ (t.id << 8) ^ 0x4B);  // the earlier cases' draws stay as they were
    U32 tiny_zero = seeded_values(n, -160, rng2);  // all subnormal (or zero)
    tiny_zero[n / 2] = 0;
    add("inverse_overflow.subnormal_zero", "boundary", one, tiny_zero);
    out.back().suite_reading = true;
    U32 normal_max = seeded_values(n, -160, rng2);
    normal_max[5] = f32w(3, -127);  // 1.5 * 2^-126: a normal maximum, 1/d still overflows
    normal_max[n / 2] = 0;
    add("inverse_overflow.normal_max_zero", "boundary", one, normal_max);
    out.back().suite_reading = true;
    U32 alternating(n);
    for (std::size_t j = 0; j < n; ++j) alternating[j] = j % 2 ? 0x7F7FFFFFu : 0xFF7FFFFFu;  // +-FLT_MAX: max - min overflows
    add("flt_max_alternating", "boundary", one, alternating);
    out.back().suite_reading = true;
    // All of one sign: a quantizer's minimum (q4_1, q5_1, the K-quants' mins) is not 0.
    U32 positive = seeded_values(n, -6, rng2), negative = seeded_values(n, -6, rng2);
    for (auto &w : positive) w = (w & 0x7FFFFFFFu) ? w & 0x7FFFFFFFu : f32w(1, -2);  // no zero: a nonzero minimum
    for (auto &w : negative) w = (w & 0x7FFFFFFFu) ? w | 0x80000000u : f32w(-1, -2);
    add("all_positive", "boundary", one, positive);
    add("all_negative", "boundary", one, negative);
    if (t.id == NINFER_FORMAT_gguf_iq4_nl || t.id == NINFER_FORMAT_gguf_iq4_xs) iq4_cases(t, rng2, add);
    // 5. Seeded blocks (q8_1: its sums; q8_K: its bsums), rows of several blocks, rank 3.
    add(t.id == NINFER_FORMAT_gguf_q8_1 ? "sums" : t.id == NINFER_FORMAT_gguf_q8_k ? "bsums" : "seeded", "random seed=golden", one, seeded_values(n, -6, rng));
    if (!big) add("seeded.2x" + std::to_string(2 * n), "random seed=golden", {2, 2 * n}, seeded_values(4 * n, -4, rng));
    add("seeded.2x1x" + std::to_string(n), "random seed=golden", {2, 1, n}, seeded_values(2 * n, -8, rng));
    // 6. Refusals: a non-finite input (NINFER_E_NONFINITE), a source one word short.
    for (const auto &[slug, at, word] : std::vector<std::tuple<std::string, std::size_t, std::uint32_t>>{
             {"nan_first", 0, 0x7FC00000u}, {"inf_last", n - 1, 0x7F800000u}, {"neg_inf", n / 2, 0xFF800000u}, {"snan", 7, 0xFF800001u}}) {
        if (big && (slug == "neg_inf" || slug == "snan")) continue;
        U32 x = seeded_values(n, -6, rng);
        x[at] = word;
        add(slug, "special values", one, x);
    }
    U32 short_src = seeded_values(n - 1, -6, rng);
    add("source_short", "boundary", one, short_src);
}

std::vector<Case> golden() {
    std::vector<Case> out;
    for (const auto *t : quantizer_types()) type_cases(*t, out);
    // The encoder of the family serves only the types with a reference quantizer; a method of
    // another family is refused (rule gguf.registry). (An unknown method id, NINFER_E_UNSUPPORTED,
    // has no name that a vector file could hold.)
    for (const auto &t : kGgufTypes) {
        if (t.ref_quantizer) continue;
        std::mt19937_64 rng(kGoldenSeed ^ t.id);
        U32 x(t.block_values);
        for (auto &w : x) w = static_cast<std::uint32_t>(0x3C000000u + (rng() & 0xFFFFFF));
        out.push_back(quantize_case(rule::gguf_registry, name_of(t) + ".no_reference_quantizer", Level::quick, "registry", t,
                                    {t.block_values}, x));
    }
    const GgufType &q8 = *find_gguf_type("gguf_q8_0");
    const U32 ones(32, 0x3F800000u);
    Case foreign = quantize_case(rule::gguf_registry, "gguf_q8_0.method_grouped_absmax", Level::quick, "registry", q8, {32}, ones);
    foreign.method = NINFER_ENCODER_grouped_absmax;
    foreign.expect = {};
    foreign.expect.status = NINFER_E_METHOD;
    out.push_back(foreign);
    return out;
}

std::vector<Case> seeded(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level == Level::quick) return out;
    const int n = level == Level::full ? 3 : 10;
    for (const auto *t : quantizer_types()) {
        std::mt19937_64 rng(seed ^ (t->id * 0x9E3779B97F4A7C15ull));
        for (int i = 0; i < n; ++i) {
            const std::uint64_t k = t->block_values * (1 + static_cast<std::uint64_t>(i % 2));
            out.push_back(quantize_case(rule::gguf_quantize(*t), name_of(*t) + ".random" + std::to_string(i), level,
                                        "random seed=" + std::to_string(seed), *t, {2, k},
                                        seeded_values(2 * k, -14 + 3 * (i % 5), rng)));
        }
    }
    return out;
}

}  // namespace

Suite quantize_suite() {
    return {"gguf.quantize",
            "ggml's reference quantizers quantize_row_<type>_ref byte for byte (quant_encode ggml_quantize_ref): zero "
            "blocks, nearest_int and roundf ties, signed maxima, tiny and huge magnitudes, sums and bsums, refusals",
            cached_golden(&golden), random_of(&seeded)};
}

}  // namespace ninfer::suites::gguf
