// SPDX-License-Identifier: Apache-2.0
// Stochastic-rounding conventions of real implementations (issue 34 item 2; suites/SR.md
// "Conventions"): how many random bits enter, at which place, and what happens to the bits of |x|
// below the random value's lowest bit. The exact rule of an sr conversion is the convention
// `ninfer`; the others are named variants a subject may implement (sr_fingerprint.cpp names them).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ninfer/oracle/formats.hpp"

namespace ninfer::oracle {

/// What becomes of the bits of |x| below the random value's lowest place before R is added.
enum class SrReduce : std::uint8_t {
    truncate,      ///< dropped (r-bit hardware: PTX, AMD's software model, gfloat StochasticFastest)
    nearest_even,  ///< rounded to nearest, ties to even, at that place (gfloat Stochastic)
    odd,           ///< rounded to odd there (gfloat StochasticOdd)
    half_offset    ///< one more bit kept and 2R + 1 added at it (gfloat StochasticFast)
};

/// Where the random value's lowest bit sits.
enum class SrPlace : std::uint8_t {
    result_quantum,  ///< at 2^(q - k), q the result's last place at |x| (k bits span the last place)
    input_lsb,       ///< at the binary32 input's last place, over every dropped bit (k grows below the
                     ///< normal range, at most 32)
    input_lsb_r      ///< at the binary32 input's last place, r bits only (noise added to the bit pattern)
};

/// A convention: k random bits (0: r of the conversion, or the pin's k), their place, the reduction.
struct SrConvention {
    std::string_view name;
    int k;
    SrPlace place;
    SrReduce reduce;
    std::string_view lanes;   ///< how a packed instruction shares one random word between lanes
    std::string_view source;  ///< where it is documented (suites/SR.md cites each)
    std::string_view targets = "";  ///< the target formats it is documented for ("": any)
    /// Lanes that read one random value when a subject draws its own bits (the lanes of a packed
    /// instruction that share rbits: 2 for ptx_rs_f8x4's pairs a, b and e, f), 1: none shared.
    int shared_lanes = 1;
};

/// The conventions, the suite's own first (suites/SR.md, "Conventions", cites each source).
inline constexpr SrConvention kSrConventions[] = {
    {"ninfer", 0, SrPlace::result_quantum, SrReduce::truncate, "one random value per lane",
     "suites/SR.md; PTX cvt.rs .f16x2 (13 bits per lane) and .bf16x2 (16) for normal results"},
    {"ptx_rs_f8x4", 16, SrPlace::result_quantum, SrReduce::truncate,
     "a, b share rbits[31:16]; e, f share rbits[15:0]", "PTX ISA, cvt: rbits for .e4m3x4/.e5m2x4",
     "e4m3fn e5m2", 2},
    {"ptx_rs_f4x4", 8, SrPlace::result_quantum, SrReduce::truncate,
     "a, b: the upper bytes of rbits' halves; e, f: the lower bytes", "PTX ISA, cvt: rbits for .e2m1x4", "e2m1"},
    {"amd_input_lsb", 0, SrPlace::input_lsb, SrReduce::truncate, "one 32-bit value per conversion",
     "ROCm composable_kernel f8_utils.hpp run_cast_to_f8 (stoch); MIOpen hip_f8_impl cast_to_f8"},
    {"pattern_add", 0, SrPlace::input_lsb_r, SrReduce::truncate, "one random value per lane",
     "r random bits added to the binary32 bit pattern, then truncated (issue 34)"},
    {"gfloat_stochastic", 0, SrPlace::result_quantum, SrReduce::nearest_even, "srbits per element",
     "graphcore-research/gfloat round_float, RoundMode.Stochastic (srnumbits = k)"},
    {"gfloat_stochastic_fast", 0, SrPlace::result_quantum, SrReduce::half_offset, "srbits per element",
     "gfloat RoundMode.StochasticFast"},
    {"gfloat_stochastic_fastest", 0, SrPlace::result_quantum, SrReduce::truncate, "srbits per element",
     "gfloat RoundMode.StochasticFastest"},
    {"gfloat_stochastic_odd", 0, SrPlace::result_quantum, SrReduce::odd, "srbits per element",
     "gfloat RoundMode.StochasticOdd"},
};

/// The convention of that name, or nothing.
std::optional<SrConvention> find_sr_convention(std::string_view name);

/// convert_word_sr under a convention: k = `k` when nonzero, else the convention's k, else r of the
/// conversion (k <= 32). Exact integer arithmetic; NaN, infinities and zero as convert_word_sr.
std::uint64_t convert_word_sr_as(const Conversion &c, std::uint64_t src_word, std::uint32_t random,
                                 const SrConvention &v, int k = 0);

/// P(up) of convert_word_sr_as on one source word for a uniform random value: num / 2^bits, the
/// fraction of the `bits` low random bits the rule reads that give the larger magnitude (the
/// result grows with them: the first one found by bisection). {0, 0} for zero, infinities, NaN.
struct SrFraction {
    std::uint64_t num = 0;
    int bits = 0;
};
SrFraction sr_up_fraction_as(const Conversion &c, std::uint64_t src_word, const SrConvention &v, int k = 0);

}  // namespace ninfer::oracle
