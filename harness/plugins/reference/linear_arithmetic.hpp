// SPDX-License-Identifier: Apache-2.0
// The reference plugin's own arithmetic of the `linear` operator (the contract of issue 13,
// suites/LINEAR.md; tensor-formats.txt Sections 8-9): an exact sum of exact products in a wide
// fixed-point integer (a superaccumulator) rounded once to the output format, the binary32
// sequential dot product, and ggml's q8_1 quantization of an activation row. Plain host integer
// and IEEE binary32 arithmetic compiled without FMA contraction (linear.cmake); written
// independently of the oracle and checked against it (tests/test_linear_ops.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace ninfer::reference::linear_arithmetic {

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "the linear reference needs IEEE 754 binary32 and binary64");

/// An IEEE interchange output format of the op: fp32, bf16 or fp16.
struct OutputFormat {
    int precision = 0;  ///< significand bits, the implicit one included
    int exp_bits = 0;
    int bytes = 0;
    std::uint64_t nan_word = 0;  ///< the quiet NaN the reference writes
};
/// The output word format of an id (fp32, bf16, fp16), or nullopt.
std::optional<OutputFormat> output_format(std::uint32_t format_id);

/// The exact sum of products w * x, each exact in binary64 (the caller's weights have at most 29
/// significant bits and binary32 range, activations are binary32: a product has at most 53 bits
/// and lies in [2^-298, 2^266]). Finite products accumulate exactly in a two's complement integer
/// of 32-bit chunks with its lowest bit worth 2^-kLowBit; non-finite products are tracked by
/// class (the contract's non-finite rule).
class ExactSum {
public:
    static constexpr int kLowBit = 320;
    static constexpr int kChunks = 24;  ///< bits up to 2^(32*24-320) = 2^448: 2^182 products of 2^266

    /// Add the exact product w * x (NaN operand or 0 * inf: NaN; an infinite product: its infinity).
    void add_product(double w, double x);
    /// RN(sum / d) in `f` (d: the binary32 word of a finite positive divisor, 0 for none), the
    /// sign bit set for a negative result; an exact zero is +0; NaN when a product was NaN or both
    /// infinities occurred; the infinity of the infinite products otherwise.
    std::uint64_t round_to(const OutputFormat &f, std::uint32_t divisor_word = 0) const;

private:
    void add_finite(double p);
    std::array<std::int64_t, kChunks> chunks_{};
    std::uint32_t since_carry_ = 0;
    bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
};

/// The binary32 dot product of the defined evaluation (f32_sequential): s = 0, then for k in
/// order s = add(s, RN32(w_k * x_k)); `add` is the running-sum step (the reference: s + p).
float sequential_dot(const float *w, const float *x, std::uint64_t k, float (*add)(float, float));

/// ggml's quantize_row_q8_1_ref on one activation row (K a multiple of 32), returned as the exact
/// binary32 values d16 * q per element: per block amax, d = amax / 127 (binary32), id = 1 / d (0
/// for d = 0), q = round(x * id) by `round` (ggml: roundf, ties away from zero) stored as int8 the
/// way x86 truncates, d16 = binary16(d). A block holding an infinity or NaN gives 32 NaNs.
std::vector<float> q8_1_dequantized(std::span<const float> x, float (*round)(float));

}  // namespace ninfer::reference::linear_arithmetic
