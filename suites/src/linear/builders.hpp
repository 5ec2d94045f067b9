// SPDX-License-Identifier: Apache-2.0
// The `linear` operator's shared case builders (suites/LINEAR.md): seeded weight payloads of
// every family (direct words, grouped row_split_k128_v1, nvfp4, the FP8 row formats, every GGUF
// type), seeded activations, and the case of one call with its expected OUTPUT words and
// acceptance from the operator oracle (ninfer/oracle/linear.hpp) only. The suites are one file
// per family in this folder: direct.cpp, grouped.cpp, scaled.cpp, gguf.cpp, checks.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/linear.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites::linear {

using namespace ninfer::oracle;
using Bytes = std::vector<std::uint8_t>;
using Rng = std::mt19937_64;

/// The fixed seed of golden (quick) cases: "lin" + 13.
inline constexpr std::uint64_t kGoldenSeed = 0x6c696e000000000dull;

/// Every weight format of `linear` (the contract's list): fp32, bf16, fp16, the grouped formats,
/// the scaled formats, every GGUF type.
std::vector<std::uint32_t> weight_formats();
/// The layout a weight format is read in (contiguous_le_v1 for the direct words).
std::uint32_t weight_layout(std::uint32_t format);
/// The registry name of a format or profile ("p<id>" for an unknown profile, "none" for 0).
std::string format_label(std::uint32_t format);
std::string profile_label(std::uint32_t profile);
/// The profiles that take a weight format (gguf_q8_1_f32: GGUF only), in registry order.
std::vector<std::uint32_t> profiles_for(std::uint32_t format);
/// The rule of a profile's criterion, "linear.<criterion>".
std::string criterion_rule(std::uint32_t profile);

/// A LinearCall with the layout of the format.
LinearCall call_of(std::uint32_t format, std::uint32_t profile, std::uint64_t n, std::uint64_t k, std::uint64_t m,
                   std::uint32_t activation = NINFER_FORMAT_fp32, std::uint32_t output = NINFER_FORMAT_fp32);

/// The case of one call: id "<rule>/<format>/<profile>/<slug>", op linear, shape [N, K]
/// (`shape` overrides it: a wrong rank), count M, planes PAYLOAD and ACTIVATION (the activation
/// word format), the expected OUTPUT plane (the output word format; empty on a refusal),
/// status, detail (invalid payloads; 0 otherwise) and acceptance from linear_expect.
Case linear_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, const LinearCall &c,
                 const Bytes &payload, const Bytes &activation, const std::vector<std::uint64_t> *shape = nullptr);

// ---- seeded words and payloads -----------------------------------------------------------

/// How the seeded weights are drawn.
struct WeightStyle {
    bool pair = false;        ///< columns 2j and 2j+1 hold the same weight (cancellation with a +x, -x activation)
    bool zero_groups = false; ///< grouped: some groups with a +0 scale and zero codes; nvfp4: zero blocks; fp8: a +0 row
    bool rescued = false;     ///< grouped / fp8: some scales the smallest positive subnormal (0x0001)
};
/// A finite word of an IEEE format with a random sign and fraction, exponent in [lo, hi] (unbiased).
std::uint64_t random_word(const WordFormat &f, Rng &rng, int lo, int hi);
/// M*K activation words of a format (fp32, bf16, fp16), exponents in [lo, hi].
Bytes random_activation(std::uint32_t format, std::uint64_t m, std::uint64_t k, Rng &rng, int lo = -4, int hi = 3);
/// Activation rows x, -x pairs: word 2j+1 is word 2j with the sign flipped.
Bytes paired_activation(std::uint32_t format, std::uint64_t m, std::uint64_t k, Rng &rng, int lo = -4, int hi = 3);
/// [N, K] of a small case.
using SmallShape = std::pair<std::uint64_t, std::uint64_t>;
/// What the builders need of a weight family (its descriptor): the small shape of its common
/// cases ([N, K] with the family's geometry; a partial last group for the grouped formats) and
/// a valid seeded payload of one of its formats for [N, K] (nvfp4: `divisors` divisors).
struct WeightFamily {
    Family family;
    SmallShape (*small_shape)(std::uint32_t format);
    Bytes (*payload)(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style,
                     std::uint64_t divisors);
};
/// The descriptor of a weight format's family; throws std::invalid_argument for an unknown format
/// or one of no weight family.
const WeightFamily &weight_family(std::uint32_t format);
/// A valid payload of any weight format for [N, K] (nvfp4: `divisors` divisors).
Bytes weight_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style = {},
                     std::uint64_t divisors = 1);
/// The nvfp4 and FP8 row payloads from their logical words (for corrupted or hand-made cases).
Nvfp4Matrix nvfp4_matrix(std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style, std::uint64_t divisors);
Fp8RowMatrix fp8_matrix(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style);
GroupedMatrix grouped_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style);

/// Little-endian words.
Bytes le_words(const std::vector<std::uint64_t> &words, int bytes);

/// A suite's golden cases made once per process and filtered by level; its seeded cases.
std::function<std::vector<Case>(Level)> cached(std::vector<Case> (*make)());
std::function<std::vector<Case>(std::uint64_t, Level)> seeded(std::vector<Case> (*make)(std::uint64_t, Level));

/// The family suites (one file each).
Suite direct_suite();
Suite grouped_suite();
Suite scaled_suite();
Suite gguf_suite();
Suite checks_suite();

/// Cases every family suite shares: for each of its weight formats and each profile that takes
/// it, a seeded small product (several output formats for correctly_rounded), a cancellation,
/// a wide dynamic range, and the non-finite activations (infinities, NaN, inf * 0).
void common_cases(std::vector<Case> &out, std::uint32_t format, Rng &rng);
/// Batches (M > 1) of a family's weight formats, drawn from their own `rng` (the other golden
/// cases keep their words): M in {2, 3, 5, 8, 13} in turn (at most 3 for nvfp4 and K > 128), every
/// profile of the direct, FP8 row, q4_0 and q4_K weights, one profile in turn for each grouped
/// format and each other 32-value GGUF type, nvfp4 under correctly_rounded;
/// distinct random activation rows, so that a plugin that computes row 0 only, repeats it, leaves
/// rows >= 1 unwritten or reads X with a wrong row stride fails. Case slug "batch_m<M>".
void batch_cases(std::vector<Case> &out, const std::vector<std::uint32_t> &formats, Rng &rng);
/// Seeded cases at full / exhaustive of a family: realistic shapes for `big` formats ([4096,
/// 4096] and [512, 8192]; family "gguf": [512, 4096] and [256, 8192]), moderate ones for every
/// format and profile, generated at run time.
std::vector<Case> random_cases(const std::vector<std::uint32_t> &formats, const std::vector<std::uint32_t> &big, std::uint64_t seed,
                               Level level, const std::string &family);

}  // namespace ninfer::suites::linear
