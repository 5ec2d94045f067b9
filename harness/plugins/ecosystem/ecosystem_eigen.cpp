// SPDX-License-Identifier: Apache-2.0
// ecosystem_eigen: Eigen 3.4's Eigen::half and Eigen::bfloat16 (Debian libeigen3-dev, pinned in
// scripts/ecosystem/install.sh), built without F16C so that Eigen's own portable conversions run
// (docs/ECOSYSTEM.md): the constructors from float as fp32_to_fp16_rne and fp32_to_bf16_rne,
// the conversions to float as fp16_to_fp32, bf16_to_fp32 and the two decodes.
#include <Eigen/Core>

#include "ecosystem_common.hpp"

namespace {

namespace eco = ninfer::ecosystem;

std::uint64_t to_half(std::uint64_t x) { return Eigen::numext::bit_cast<std::uint16_t>(Eigen::half(eco::f32_of(static_cast<std::uint32_t>(x)))); }
std::uint64_t to_bf16(std::uint64_t x) { return Eigen::numext::bit_cast<std::uint16_t>(Eigen::bfloat16(eco::f32_of(static_cast<std::uint32_t>(x)))); }
float half_value(std::uint64_t h) { return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(static_cast<std::uint16_t>(h))); }
float bf16_value(std::uint64_t h) { return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(static_cast<std::uint16_t>(h))); }
std::uint64_t from_half(std::uint64_t h) { return eco::word_of(half_value(h)); }
std::uint64_t from_bf16(std::uint64_t h) { return eco::word_of(bf16_value(h)); }
std::uint64_t half_decode(std::uint64_t h) { return eco::word_of(static_cast<double>(half_value(h))); }
std::uint64_t bf16_decode(std::uint64_t h) { return eco::word_of(static_cast<double>(bf16_value(h))); }

constexpr eco::Word kWords[] = {
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rne, 4, 2, to_half},
    {NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_bf16_rne, 4, 2, to_bf16},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_CONVERSION_fp16_to_fp32, 2, 4, from_half},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_CONVERSION_bf16_to_fp32, 2, 4, from_bf16},
    {NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 2, 8, half_decode},
    {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 2, 8, bf16_decode},
};

}  // namespace

NINFER_ECOSYSTEM_WORDS(kWords, "ecosystem_eigen", "libeigen3-dev 3.4.0-4")
