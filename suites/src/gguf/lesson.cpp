// SPDX-License-Identifier: Apache-2.0
// Suite lesson.mxfp4: the lesson's MXFP4 recipe (number-formats-lesson.txt Example 14; oracle
// reading oracle/SCALED.md R4) as quant_encode method mxfp4_ocp on gguf_mxfp4, whose block is
// ggml's block_mxfp4, and the decode of the blocks it writes (quant_decode gguf_mxfp4).
#include "builders.hpp"

#include <bit>
#include <cmath>
#include <tuple>

namespace ninfer::suites::gguf {

namespace {

/// The lesson's 32 inputs (Java's new Random(3).nextGaussian() as float), as binary32 words; the
/// lesson prints amax = 3.8544, E8M0 byte = 126 and codes 19c30cdeab03402d00bc9c59d9e07acc.
constexpr std::uint32_t kLessonInputs[32] = {
    0x3E1BEF37u, 0xBE90C354u, 0xBF9554BFu, 0x3F2F9AE0u, 0x3DDB93D9u, 0xBF634343u, 0xBFAECEE0u, 0xC0068A14u,
    0xBF07C324u, 0xBF525357u, 0xBCA0BC3Eu, 0x3F317B04u, 0x3F7B32BCu, 0x3DB7F733u, 0x3EEA5F51u, 0xBFC904E2u,
    0x3D0408C3u, 0x3D9F98D8u, 0xBF55D6B7u, 0xBF9A60A6u, 0xBE5E4897u, 0xBF811A12u, 0x3FD38929u, 0xBE568FF1u,
    0xBFA0A717u, 0xBE3CBEBFu, 0xBFE9E51Eu, 0x3C194A33u, 0x4076ADDAu, 0xBF141801u, 0xBF9221A6u, 0xBF9FF8FEu};

std::uint32_t f32w(std::int64_t m, int e) { return std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(static_cast<double>(m), e))); }

/// A seeded block of values m * 2^e, 16-bit m, e in emin..emin+3.
U32 seeded_values(std::size_t n, int emin, std::mt19937_64 &rng) {
    U32 x(n);
    for (auto &w : x) {
        const auto r = rng();
        w = f32w(static_cast<std::int64_t>(r & 0xFFFF) * ((r >> 16) & 1 ? -1 : 1), emin + static_cast<int>((r >> 20) % 4));
    }
    return x;
}

/// The encode case, and (when it succeeds) the decode of the blocks it writes.
void encode_and_decode(const std::string &slug, Level level, const std::string &source, const Shape &shape, const U32 &x,
                       std::vector<Case> &out) {
    Case c = mxfp4_case(rule::lesson_mxfp4, slug, level, source, shape, x);
    const bool ok = c.expect.status == NINFER_OK;
    const Bytes payload = ok ? c.expect.output(NINFER_PLANE_PAYLOAD) : Bytes{};
    out.push_back(std::move(c));
    if (ok)
        out.push_back(decode_case(rule::lesson_mxfp4, slug + ".decode", level, source, *find_gguf_type("gguf_mxfp4"), shape, payload));
}

std::vector<Case> golden() {
    std::vector<Case> out;
    const U32 lesson(std::begin(kLessonInputs), std::end(kLessonInputs));
    encode_and_decode("lesson_block", Level::quick, "lesson Example 14", {1, 32}, lesson, out);
    // R4: an all-zero block stores e = 0 and +0 codes.
    encode_and_decode("zero", Level::quick, "special values", {1, 32}, U32(32, 0), out);
    U32 signed_zeros(32, 0);
    for (std::size_t j = 1; j < 32; j += 2) signed_zeros[j] = 0x80000000u;
    encode_and_decode("signed_zeros", Level::quick, "special values", {1, 32}, signed_zeros, out);
    // Ties: amax 1 gives the scale 2^-2; +-2^-4 is halfway between 0 and 2^-3 and takes word 0x0
    // (the first in the lesson's order); every midpoint of the E2M1 grid at that scale.
    U32 ties(32, 0);
    ties[0] = f32w(1, 0);
    const std::int64_t mids[] = {1, 3, 5, 7, 10, 14, 20};  // (v_i + v_i+1) / 2 in units of 2^-4 of the grid 0, .5, 1, ...
    for (std::size_t i = 0; i < 7; ++i) {
        ties[1 + 2 * i] = f32w(mids[i], -4);
        ties[2 + 2 * i] = f32w(-mids[i], -4);
    }
    encode_and_decode("ties", Level::quick, "ties", {1, 32}, ties, out);
    // The scale exponent floor(log2(amax)) - 2 at power-of-two boundaries, clipping above 6 * scale.
    // (The other values stay below amax / 2: 16-bit m times 2^(emin .. emin + 3).)
    for (const auto &[slug, amax, emin] : std::vector<std::tuple<std::string, std::uint32_t, int>>{
             {"amax_4", f32w(4, 0), -18}, {"amax_below_8", f32w(0xFFFFFF, -21), -18}, {"amax_8", f32w(8, 0), -18},
             {"amax_2p-125", f32w(1, -125), -145}, {"amax_largest", 0x7F7FFFFFu, 100}, {"amax_negative", f32w(-6, 0), -18}}) {
        std::mt19937_64 rng(kGoldenSeed ^ amax);
        U32 x = seeded_values(32, emin, rng);
        x[7] = amax;
        encode_and_decode(slug, Level::quick, "boundary", {1, 32}, x, out);
    }
    // Rows of several blocks.
    std::mt19937_64 rng(kGoldenSeed ^ 0x4d58);
    encode_and_decode("seeded.2x64", Level::quick, "random seed=golden", {2, 64}, seeded_values(128, -15, rng), out);
    // Refusals (R4): a scale exponent below E8M0's range, a non-finite input; a foreign method.
    U32 tiny(32, 0);
    tiny[4] = 0x00000001u;
    out.push_back(mxfp4_case(rule::lesson_mxfp4, "scale_underflow", Level::quick, "boundary", {1, 32}, tiny));
    U32 below(32, 0);
    below[9] = f32w(1, -126);
    out.push_back(mxfp4_case(rule::lesson_mxfp4, "amax_2p-126", Level::quick, "boundary", {1, 32}, below));
    for (const auto &[slug, word] : std::vector<std::pair<std::string, std::uint32_t>>{{"nan", 0x7FC00000u}, {"inf", 0xFF800000u}}) {
        U32 x = lesson;
        x[13] = word;
        out.push_back(mxfp4_case(rule::lesson_mxfp4, slug, Level::quick, "special values", {1, 32}, x));
    }
    Case foreign = mxfp4_case(rule::lesson_mxfp4, "gguf_q4_0.method_mxfp4_ocp", Level::quick, "registry", {1, 32}, lesson);
    foreign.format = find_gguf_type("gguf_q4_0")->id;
    foreign.expect = {};
    foreign.expect.status = NINFER_E_METHOD;
    out.push_back(foreign);
    return out;
}

std::vector<Case> seeded(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level == Level::quick) return out;
    std::mt19937_64 rng(seed ^ 0x6d78667034ull);
    const int n = level == Level::full ? 4 : 16;
    for (int i = 0; i < n; ++i)
        encode_and_decode("random" + std::to_string(i), level, "random seed=" + std::to_string(seed), {2, 64},
                          seeded_values(128, -20 + 5 * (i % 6), rng), out);
    return out;
}

}  // namespace

Suite lesson_suite() {
    return {"lesson.mxfp4",
            "the lesson's MXFP4 recipe (Example 14) as quant_encode mxfp4_ocp on gguf_mxfp4 blocks, and their decode",
            cached_golden(&golden), random_of(&seeded)};
}

}  // namespace ninfer::suites::gguf
