// SPDX-License-Identifier: Apache-2.0
// The `linear` operator oracle (suites/LINEAR.md): small cases whose expected words are worked
// out by hand in the comments (never by the oracle), one per criterion and edge (a 1x1, a
// cancellation whose exact sum is 0 while S is large, a tie of the final rounding, an nvfp4
// result that is not dyadic, a q8_1 tie), every refusal of the check order, the non-finite
// rules, and the binary32 arithmetic of f32_sequential against MPFR.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "../src/linear_internal.hpp"
#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"

using namespace ninfer::oracle;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes le(std::initializer_list<std::uint64_t> words, int bytes) {
    Bytes b;
    for (const auto w : words)
        for (int i = 0; i < bytes; ++i) b.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    return b;
}

std::uint64_t word_at(const Bytes &b, std::size_t i, int bytes) {
    std::uint64_t w = 0;
    for (int j = 0; j < bytes; ++j) w |= std::uint64_t{b[i * bytes + j]} << (8 * j);
    return w;
}

struct Acc3 {
    std::uint64_t lo, hi;
    std::uint8_t flags;
};
Acc3 accept_at(const LinearExpect &e, std::size_t i, int bytes) {
    const std::size_t at = i * (2 * bytes + 1);
    Acc3 a{0, 0, e.accept[at + 2 * bytes]};
    for (int j = 0; j < bytes; ++j) {
        a.lo |= std::uint64_t{e.accept[at + j]} << (8 * j);
        a.hi |= std::uint64_t{e.accept[at + bytes + j]} << (8 * j);
    }
    return a;
}

LinearCall call(std::uint32_t format, std::uint32_t profile, std::uint64_t n, std::uint64_t k, std::uint64_t m,
                std::uint32_t act = NINFER_FORMAT_fp32, std::uint32_t out = NINFER_FORMAT_fp32) {
    LinearCall c;
    c.format = format;
    const auto *fv = ninfer::abi::find_format(format);
    if (fv->family == ninfer::abi::Family::word) c.layout = NINFER_LAYOUT_contiguous_le_v1;
    else if (fv->family == ninfer::abi::Family::gguf) c.layout = NINFER_LAYOUT_ggml_blocks_v1;
    else c.layout = fv->layout;
    c.profile = profile;
    c.n = n;
    c.k = k;
    c.m = m;
    c.activation_format = act;
    c.output_format = out;
    return c;
}

}  // namespace

TEST_CASE("linear 1x1: 2 * 3 under every fp32 criterion", "[linear]") {
    const Bytes w = le({0x40000000}, 4), x = le({0x40400000}, 4);
    // correctly_rounded: 6 = 0x40C00000 exactly.
    auto e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_correctly_rounded, 1, 1, 1), w, x);
    REQUIRE(e.status == NINFER_OK);
    CHECK(word_at(e.output, 0, 4) == 0x40C00000u);
    auto a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x40C00000u);
    CHECK(a.hi == 0x40C00000u);
    CHECK(a.flags == 0);
    // f32_accumulate: S = 6, B = (1 + 2) * 2^-24 * 6 = 18 * 2^-24 = 2.25 ulps of [4, 8) (ulp 2^-21):
    // [6 - 2.25 ulp, 6 + 2.25 ulp] holds the words 0x40C00000 -+ 2.
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_accumulate, 1, 1, 1), w, x);
    a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x40BFFFFEu);
    CHECK(a.hi == 0x40C00002u);
    CHECK(word_at(e.output, 0, 4) == 0x40C00000u);
    // f32_sequential: RN32(2 * 3) = 6, 0 + 6 = 6; the word bit for bit.
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_sequential, 1, 1, 1), w, x);
    a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x40C00000u);
    CHECK(a.flags == 0x2);
}

TEST_CASE("linear cancellation: the exact sum is 0, S is 2^21", "[linear]") {
    // w = [2^20, 2^20], x = [1, -1]: y = 0, S = 2^21, k = 4, B = 4 * 2^-24 * 2^21 = 0.5.
    const Bytes w = le({0x49800000, 0x49800000}, 4), x = le({0x3F800000, 0xBF800000}, 4);
    auto e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_accumulate, 1, 2, 1), w, x);
    REQUIRE(e.status == NINFER_OK);
    const auto a = accept_at(e, 0, 4);
    CHECK(a.lo == 0xBF000000u);  // -0.5
    CHECK(a.hi == 0x3F000000u);  // +0.5
    CHECK(word_at(e.output, 0, 4) == 0u);
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_correctly_rounded, 1, 2, 1), w, x);
    CHECK(word_at(e.output, 0, 4) == 0u);
}

TEST_CASE("linear correctly_rounded: ties of the final rounding to bf16 go to even", "[linear]") {
    // w = [1, 1]; x = [1, 2^-8]: y = 1 + 2^-8, halfway between bf16 1.0 (0x3F80) and 1 + 2^-7
    // (0x3F81): even 0x3F80. x = [1, 3 * 2^-8]: y = 1 + 3 * 2^-8, halfway between 0x3F81 and
    // 0x3F82: even 0x3F82. Into fp16 (10 fraction bits) both are exact: 0x3C04 and 0x3C0C.
    const Bytes w = le({0x3F800000, 0x3F800000}, 4);
    const auto c = call(NINFER_FORMAT_fp32, NINFER_PROFILE_correctly_rounded, 1, 2, 1, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16);
    CHECK(word_at(linear_expect(c, w, le({0x3F800000, 0x3B800000}, 4)).output, 0, 2) == 0x3F80u);
    CHECK(word_at(linear_expect(c, w, le({0x3F800000, 0x3C400000}, 4)).output, 0, 2) == 0x3F82u);
    auto c16 = c;
    c16.output_format = NINFER_FORMAT_fp16;
    CHECK(word_at(linear_expect(c16, w, le({0x3F800000, 0x3B800000}, 4)).output, 0, 2) == 0x3C04u);
    CHECK(word_at(linear_expect(c16, w, le({0x3F800000, 0x3C400000}, 4)).output, 0, 2) == 0x3C0Cu);
}

TEST_CASE("linear f32_sequential: the defined word differs from the exact sum", "[linear]") {
    // w = [1, 1, 1], x = [2^24, 1, 1]: 2^24 + 1 ties to 2^24 (even), again: 0x4B800000, while the
    // exact 2^24 + 2 = 0x4B800001 is what correctly_rounded gives.
    const Bytes w = le({0x3F800000, 0x3F800000, 0x3F800000}, 4), x = le({0x4B800000, 0x3F800000, 0x3F800000}, 4);
    auto e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_sequential, 1, 3, 1), w, x);
    CHECK(word_at(e.output, 0, 4) == 0x4B800000u);
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_correctly_rounded, 1, 3, 1), w, x);
    CHECK(word_at(e.output, 0, 4) == 0x4B800001u);
    // An all -0 product row: 0 + (-0) = +0.
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_sequential, 1, 1, 1), le({0x80000000}, 4), le({0x3F800000}, 4));
    CHECK(word_at(e.output, 0, 4) == 0u);
}

TEST_CASE("linear nvfp4: y = 1/3 is not dyadic", "[linear][nvfp4]") {
    // [128, 64]: code 0x2 (1.0) at (0, 0), every other code +0, every scale 0x38 (E4M3 1.0),
    // divisor 3.0: W_hat[0,0] = 1/3 exactly. x = e_0: y = 1/3.
    Nvfp4Matrix m;
    m.rows = 128;
    m.cols = 64;
    m.codes.assign(128 * 64, 0);
    m.codes[0] = 0x2;
    m.scales.assign(128 * 4, 0x38);
    m.divisors = {0x40400000};
    const auto payload = block_scale_encode(m);
    std::vector<std::uint64_t> xs(64, 0);
    xs[0] = 0x3F800000;
    Bytes x;
    for (const auto v : xs)
        for (int i = 0; i < 4; ++i) x.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    // correctly_rounded: 1/3 = 0x3EAAAAAA + 2/3 ulp -> 0x3EAAAAAB.
    auto e = linear_expect(call(NINFER_FORMAT_nvfp4, NINFER_PROFILE_correctly_rounded, 128, 64, 1), payload, x);
    REQUIRE(e.status == NINFER_OK);
    CHECK(word_at(e.output, 0, 4) == 0x3EAAAAABu);
    CHECK(word_at(e.output, 1, 4) == 0u);
    // f32_accumulate: S = 1/3, B = 66 * 2^-24 / 3 = 22 * 2^-24 = 44 ulps of [1/4, 1/2) (ulp 2^-25):
    // lo = ceil(0x3EAAAAAA + 2/3 - 44) = 0x3EAAAAAA - 43, hi = floor(0x3EAAAAAA + 2/3 + 44).
    e = linear_expect(call(NINFER_FORMAT_nvfp4, NINFER_PROFILE_f32_accumulate, 128, 64, 1), payload, x);
    const auto a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x3EAAAAAAu - 43);
    CHECK(a.hi == 0x3EAAAAAAu + 44);
    const auto ex = linear_explain(call(NINFER_FORMAT_nvfp4, NINFER_PROFILE_f32_accumulate, 128, 64, 1), payload, x, 0, 0, 0x3EAAAAABu);
    CHECK(ex.exact.find("1/3") != std::string::npos);
    CHECK(ex.criterion.find("linear.forward_error_bound") == 0);
    CHECK(ex.error_ulps > 0.3);
    CHECK(ex.error_ulps < 0.34);
    // f32_sequential: RN32(1/3) * 1 = 0x3EAAAAAB.
    e = linear_expect(call(NINFER_FORMAT_nvfp4, NINFER_PROFILE_f32_sequential, 128, 64, 1), payload, x);
    CHECK(word_at(e.output, 0, 4) == 0x3EAAAAABu);
}

TEST_CASE("linear gguf_q8_1_f32: the activation's q8_1 rounding ties away from zero", "[linear][gguf]") {
    // Activation block [127, 0.5, 0, ...]: d = 127 / 127 = 1 (fp16 0x3C00), x * (1/d) = 0.5 and
    // ggml's roundf gives q = 1 (nearest-even would give 0): x_q = [127, 1, 0, ...].
    // Weight q8_0 block d = 1.0 (0x3C00), q = [0, 1, 0, ...]: w = [0, 1, 0, ...].
    // y_q = 1, S_q = 1, B = 34 * 2^-24: lo = 1 - 34 * 2^-24 (ulp 2^-24 below 1) = 0x3F800000 - 34,
    // hi = 1 + 17 * 2^-23 = 0x3F800011.
    Bytes w(34, 0);
    w[0] = 0x00;
    w[1] = 0x3C;
    w[2 + 1] = 1;
    Bytes x(32 * 4, 0);
    x[0] = 0x00; x[1] = 0x00; x[2] = 0xFE; x[3] = 0x42;  // 127.0f = 0x42FE0000
    x[4] = 0x00; x[5] = 0x00; x[6] = 0x00; x[7] = 0x3F;  // 0.5f = 0x3F000000
    auto e = linear_expect(call(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1), w, x);
    REQUIRE(e.status == NINFER_OK);
    CHECK(word_at(e.output, 0, 4) == 0x3F800000u);
    const auto a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x3F800000u - 34);
    CHECK(a.hi == 0x3F800011u);
    // The exact product without q8_1 is 0.5 (f32_accumulate).
    e = linear_expect(call(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_correctly_rounded, 1, 32, 1), w, x);
    CHECK(word_at(e.output, 0, 4) == 0x3F000000u);
}

TEST_CASE("linear gguf_q8_1_f32: a q8_1 scale that overflows binary16 gives x_q = inf * q", "[linear][gguf]") {
    // Activation block of 32 words 2^24 (0x4B800000): d = 2^24 / 127 > 65504, so d16 = +inf, and
    // q = roundf(2^24 * (1 / d)) = 127 for each: x_q = +inf * 127 = +inf. Weight q8_0 block d = 1,
    // q = 1 everywhere: y = +inf (every product +inf).
    Bytes w(34, 1);
    w[0] = 0x00;
    w[1] = 0x3C;
    Bytes x;
    for (int i = 0; i < 32; ++i) x.insert(x.end(), {0x00, 0x00, 0x80, 0x4B});
    auto e = linear_expect(call(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1), w, x);
    REQUIRE(e.status == NINFER_OK);
    CHECK(word_at(e.output, 0, 4) == 0x7F800000u);
    CHECK((accept_at(e, 0, 4).flags & 0x1) == 0);  // kAcceptNan: not set, only +inf
    // One activation 0 in the block: its q is 0 and x_q = inf * 0 = NaN, so y is NaN.
    x[4] = x[5] = x[6] = x[7] = 0;
    e = linear_expect(call(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1), w, x);
    REQUIRE(e.status == NINFER_OK);
    CHECK((accept_at(e, 0, 4).flags & 0x1) != 0);
}

TEST_CASE("linear non-finite results: NaN, infinities, inf * 0", "[linear]") {
    const auto c = call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_accumulate, 1, 2, 1, NINFER_FORMAT_bf16);
    const Bytes w = le({0x3F800000, 0x00000000}, 4);
    // +inf * 1 + 1 * 0 (bf16 x = [inf, 1]) with w = [1, 0]: +inf.
    auto e = linear_expect(c, w, le({0x7F80, 0x3F80}, 2));
    auto a = accept_at(e, 0, 4);
    CHECK(a.lo == 0x7F800000u);
    CHECK(a.hi == 0x7F800000u);
    CHECK(a.flags == 0);
    // 0 * inf: x = [1, -inf]: NaN, any NaN.
    e = linear_expect(c, w, le({0x3F80, 0xFF80}, 2));
    a = accept_at(e, 0, 4);
    CHECK(a.flags == 0x1);
    // +inf and -inf products: w = [1, 1], x = [inf, -inf]: NaN.
    e = linear_expect(c, le({0x3F800000, 0x3F800000}, 4), le({0x7F80, 0xFF80}, 2));
    CHECK(accept_at(e, 0, 4).flags == 0x1);
    // A NaN activation: NaN.
    e = linear_expect(c, le({0x3F800000, 0x3F800000}, 4), le({0x7FC1, 0x3F80}, 2));
    CHECK(accept_at(e, 0, 4).flags == 0x1);
    // f32_sequential with a NaN: the defined word is NaN; any NaN (bits and NaN flags).
    auto cs = c;
    cs.profile = NINFER_PROFILE_f32_sequential;
    e = linear_expect(cs, le({0x3F800000, 0x3F800000}, 4), le({0x7FC1, 0x3F80}, 2));
    CHECK(accept_at(e, 0, 4).flags == 0x3);
    // Overflowing binary32 products: S >= 2^128 - 2^103 accepts every word (and NaN).
    e = linear_expect(call(NINFER_FORMAT_fp32, NINFER_PROFILE_f32_accumulate, 1, 2, 1),
                      le({0x7F7FFFFF, 0x7F7FFFFF}, 4), le({0x3F800000, 0xBF800000}, 4));
    a = accept_at(e, 0, 4);
    CHECK(a.lo == 0xFF800000u);
    CHECK(a.hi == 0x7F800000u);
    CHECK(a.flags == 0x1);
}

TEST_CASE("linear refusals follow the check order", "[linear][refusal]") {
    const Bytes w = le({0x3F800000}, 4), x = le({0x3F800000}, 4);
    auto c = call(NINFER_FORMAT_fp32, NINFER_PROFILE_correctly_rounded, 1, 1, 1);
    auto st = [&](const LinearCall &cc, const Bytes &ww, const Bytes &xx) { return linear_expect(cc, ww, xx).status; };
    // 1. format / layout
    auto b = c;
    b.format = NINFER_FORMAT_int32;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b.format = NINFER_FORMAT_e4m3fn;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b.format = 9999;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b = c;
    b.layout = NINFER_LAYOUT_row_split_k128_v1;
    CHECK(st(b, w, x) == NINFER_E_LAYOUT);
    // 2. shape: rank, zeros, geometry (before the profile: profile 0 does not hide them)
    b = c;
    b.rank = 1;
    b.profile = 0;
    CHECK(st(b, w, x) == NINFER_E_INVALID_ARGUMENT);
    for (int z = 0; z < 3; ++z) {
        b = c;
        (z == 0 ? b.n : z == 1 ? b.k : b.m) = 0;
        b.profile = 0;
        const auto e = linear_expect(b, w, x);
        CHECK(e.status == NINFER_E_SIZE);
    }
    b = call(NINFER_FORMAT_nvfp4, 0, 64, 64, 1);
    CHECK(st(b, w, x) == NINFER_E_SIZE);
    b = call(NINFER_FORMAT_gguf_q4_0, 0, 1, 48, 1);
    CHECK(st(b, w, x) == NINFER_E_SIZE);
    // 3. profile
    b = c;
    b.profile = 0;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b.profile = 77;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b.profile = NINFER_PROFILE_gguf_q8_1_f32;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b = c;
    b.activation_format = NINFER_FORMAT_e4m3fn;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b = c;
    b.output_format = NINFER_FORMAT_int32;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b = c;
    b.profile = NINFER_PROFILE_f32_accumulate;
    b.output_format = NINFER_FORMAT_bf16;
    CHECK(st(b, w, x) == NINFER_E_UNSUPPORTED);
    b = call(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1, NINFER_FORMAT_bf16);
    CHECK(st(b, Bytes(34, 0), Bytes(64, 0)) == NINFER_E_UNSUPPORTED);
    // 4. sizes
    CHECK(st(c, w, Bytes{}) == NINFER_E_SIZE);
    CHECK(st(c, w, le({0x3F800000, 0}, 4)) == NINFER_E_SIZE);
    CHECK(st(c, Bytes(3, 0), x) == NINFER_E_SIZE);
    // 5. payload: an invalid divisor (nvfp4), an illegal code (q8_g32), a -0 row multiplier.
    Nvfp4Matrix m;
    m.rows = 128;
    m.cols = 64;
    m.codes.assign(128 * 64, 0);
    m.scales.assign(128 * 4, 0x38);
    m.divisors = {0x00000000};
    const auto nv = block_scale_encode(m);
    const auto e = linear_expect(call(NINFER_FORMAT_nvfp4, NINFER_PROFILE_correctly_rounded, 128, 64, 1), nv, Bytes(256, 0));
    CHECK(e.status == NINFER_E_INVALID_PAYLOAD);
    CHECK(e.detail == NINFER_DETAIL_INVALID_DIVISOR);
    CHECK(e.output.empty());
}

namespace {

/// An IEEE binary32 word as an MPFR value of its own precision: NaN, infinities and signed zeros
/// kept (mpfr_mul and mpfr_add then follow IEEE 754 for them, with one rounding to nearest).
void set_b32(mpfr_t v, std::uint32_t w) {
    const auto &f32 = word_format(NINFER_FORMAT_fp32);
    const int neg = (w >> 31) ? -1 : 1;
    if ((w & 0x7FFFFFFFu) > 0x7F800000u) mpfr_set_nan(v);
    else if ((w & 0x7FFFFFFFu) == 0x7F800000u) mpfr_set_inf(v, neg);
    else if ((w & 0x7FFFFFFFu) == 0) mpfr_set_zero(v, neg);
    else {
        const WordInfo info = word_info(f32, w);
        mpfr_set(v, info.value.backend().data(), MPFR_RNDN);
    }
}

/// The binary32 word of an MPFR result: NaN as the positive quiet NaN, the signs of infinities
/// and zeros kept, a finite nonzero value rounded once by the oracle.
std::uint32_t b32_of(mpfr_srcptr v) {
    if (mpfr_nan_p(v)) return 0x7FC00000u;
    const std::uint32_t sign = mpfr_signbit(v) ? 0x80000000u : 0;
    if (mpfr_inf_p(v)) return sign | 0x7F800000u;
    if (mpfr_zero_p(v)) return sign;
    Real r = exact_zero();
    mpfr_set_prec(r.backend().data(), mpfr_get_prec(v));
    mpfr_set(r.backend().data(), v, MPFR_RNDN);
    return static_cast<std::uint32_t>(round_real(r, word_format(NINFER_FORMAT_fp32), 1, 1));
}

}  // namespace

// The GGUF oracle's binary32 (gguf_binary32.cpp) multiplies and adds with these functions: every
// pair of specials and edge words, signs included, against MPFR's IEEE operations.
TEST_CASE("linear binary32 arithmetic equals MPFR's on every pair of specials and edge words", "[linear]") {
    using namespace linear_detail;
    const std::uint32_t edges[] = {0x00000000u, 0x00000001u, 0x007FFFFFu, 0x00800000u, 0x3F800000u, 0x3F800001u,
                                   0x4B400000u, 0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u, 0x7F800001u, 0x34000000u};
    mpfr_t a, b, p, s;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    mpfr_inits2(400, p, s, (mpfr_ptr)0);  // exact: products need 48 bits, sums at most 24 + 277
    std::size_t pairs = 0;
    for (const auto ea : edges)
        for (const auto eb : edges)
            for (const std::uint32_t sa : {0u, 0x80000000u})
                for (const std::uint32_t sb : {0u, 0x80000000u}) {
                    const std::uint32_t x = ea | sa, y = eb | sb;
                    set_b32(a, x);
                    set_b32(b, y);
                    mpfr_mul(p, a, b, MPFR_RNDN);
                    mpfr_add(s, a, b, MPFR_RNDN);
                    INFO(std::hex << "a " << x << " b " << y);
                    CHECK(mul_b32(x, y) == b32_of(p));
                    CHECK(add_b32(x, y) == b32_of(s));
                    ++pairs;
                }
    mpfr_clears(a, b, p, s, (mpfr_ptr)0);
    CHECK(pairs == 12 * 12 * 4);
}

TEST_CASE("linear binary32 arithmetic by integer rounding equals MPFR's", "[linear]") {
    using namespace linear_detail;
    std::mt19937_64 rng(13);
    const auto &f32 = word_format(NINFER_FORMAT_fp32);
    auto pick = [&]() -> std::uint32_t {
        switch (rng() % 4) {
        case 0: return static_cast<std::uint32_t>(rng());                                    // anything
        case 1: return static_cast<std::uint32_t>(rng() & 0x807FFFFFu);                       // subnormal
        case 2: return static_cast<std::uint32_t>((rng() & 0x80FFFFFFu) | 0x3F000000u);       // near 1
        default: return static_cast<std::uint32_t>((rng() & 0x83FFFFFFu) | 0x0C000000u);      // small normal
        }
    };
    for (int i = 0; i < 20000; ++i) {
        const auto a = pick(), b = pick();
        const auto ia = word_info(f32, a), ib = word_info(f32, b);
        const bool fin = ia.cls == NINFER_CLASS_ZERO || ia.cls == NINFER_CLASS_SUBNORMAL || ia.cls == NINFER_CLASS_NORMAL;
        const bool finb = ib.cls == NINFER_CLASS_ZERO || ib.cls == NINFER_CLASS_SUBNORMAL || ib.cls == NINFER_CLASS_NORMAL;
        if (!fin || !finb) continue;
        Real p = exact_zero(), s = exact_zero();
        p = ia.value * ib.value;
        s = ia.value + ib.value;
        const auto pw = mul_b32(a, b), sw = add_b32(a, b);
        if ((pw & 0x7FFFFFFFu) != 0) CHECK(pw == round_real(p, f32, 1, 1));
        else CHECK((pw & 0x80000000u) == ((a ^ b) & 0x80000000u));
        if ((sw & 0x7FFFFFFFu) != 0) CHECK(sw == round_real(s, f32, 1, 1));
    }
}
