// SPDX-License-Identifier: Apache-2.0
// ecosystem_fp16: Maratyszcza's FP16 library, the header PyTorch and XNNPACK use (Debian
// libfp16-dev, pinned in scripts/ecosystem/install.sh): fp16_ieee_from_fp32_value as
// fp32_to_fp16_rne, fp16_ieee_to_fp32_value as fp16_to_fp32 and as fp16's decode
// (docs/ECOSYSTEM.md). The library's own scalar functions, nothing else.
#include <fp16.h>

#include "ecosystem_common.hpp"

namespace {

namespace eco = ninfer::ecosystem;

std::uint64_t narrow(std::uint64_t x) { return fp16_ieee_from_fp32_value(eco::f32_of(static_cast<std::uint32_t>(x))); }
std::uint64_t widen(std::uint64_t h) { return eco::word_of(fp16_ieee_to_fp32_value(static_cast<std::uint16_t>(h))); }
std::uint64_t value(std::uint64_t h) { return eco::word_of(static_cast<double>(fp16_ieee_to_fp32_value(static_cast<std::uint16_t>(h)))); }

constexpr eco::Word kWords[] = {
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rne, 4, 2, narrow},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_CONVERSION_fp16_to_fp32, 2, 4, widen},
    {NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 2, 8, value},
};

}  // namespace

NINFER_ECOSYSTEM_WORDS(kWords, "ecosystem_fp16", "libfp16-dev 0.0~git20200514.4dfe081-3")
