// SPDX-License-Identifier: Apache-2.0
// ecosystem_rust_half: the Rust `half` crate (Debian librust-half-dev 1.6.0, pinned in
// scripts/ecosystem/install.sh and rust_half/Cargo.lock), built by Debian's cargo into a static
// library (rust_half/): f16::from_f32 as fp32_to_fp16_rne, bf16::from_f32 as fp32_to_bf16_rne,
// their to_f32 as fp16_to_fp32, bf16_to_fp32 and the two decodes (docs/ECOSYSTEM.md).
#include "ecosystem_common.hpp"

extern "C" {
std::uint16_t ninfer_half_f32_to_f16(std::uint32_t);
std::uint32_t ninfer_half_f16_to_f32(std::uint16_t);
std::uint16_t ninfer_half_f32_to_bf16(std::uint32_t);
std::uint32_t ninfer_half_bf16_to_f32(std::uint16_t);
}

namespace {

namespace eco = ninfer::ecosystem;

std::uint64_t to_f16(std::uint64_t x) { return ninfer_half_f32_to_f16(static_cast<std::uint32_t>(x)); }
std::uint64_t to_bf16(std::uint64_t x) { return ninfer_half_f32_to_bf16(static_cast<std::uint32_t>(x)); }
std::uint64_t from_f16(std::uint64_t h) { return ninfer_half_f16_to_f32(static_cast<std::uint16_t>(h)); }
std::uint64_t from_bf16(std::uint64_t h) { return ninfer_half_bf16_to_f32(static_cast<std::uint16_t>(h)); }
std::uint64_t f16_value(std::uint64_t h) { return eco::word_of(static_cast<double>(eco::f32_of(static_cast<std::uint32_t>(from_f16(h))))); }
std::uint64_t bf16_value(std::uint64_t h) { return eco::word_of(static_cast<double>(eco::f32_of(static_cast<std::uint32_t>(from_bf16(h))))); }

constexpr eco::Word kWords[] = {
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rne, 4, 2, to_f16},
    {NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_bf16_rne, 4, 2, to_bf16},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_CONVERSION_fp16_to_fp32, 2, 4, from_f16},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_CONVERSION_bf16_to_fp32, 2, 4, from_bf16},
    {NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 2, 8, f16_value},
    {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 2, 8, bf16_value},
};

}  // namespace

NINFER_ECOSYSTEM_WORDS(kWords, "ecosystem_rust_half", "librust-half-dev 1.6.0-2 (rustc 1.63)")
