// SPDX-License-Identifier: Apache-2.0
// ecosystem_gcc_float16: GCC's _Float16 casts (docs/ECOSYSTEM.md), compiled without F16C so that
// libgcc's soft-fp __truncsfhf2 and __extendhfsf2 do the work: (_Float16) x as fp32_to_fp16_rne
// (the default rounding mode), (float) h as fp16_to_fp32 and fp16's decode.
#include "ecosystem_common.hpp"

namespace {

namespace eco = ninfer::ecosystem;

std::uint64_t narrow(std::uint64_t x) {
    const _Float16 h = static_cast<_Float16>(eco::f32_of(static_cast<std::uint32_t>(x)));
    std::uint16_t w;
    std::memcpy(&w, &h, 2);
    return w;
}
float value_of(std::uint64_t w) {
    const auto bits = static_cast<std::uint16_t>(w);
    _Float16 h;
    std::memcpy(&h, &bits, 2);
    return static_cast<float>(h);
}
std::uint64_t widen(std::uint64_t w) { return eco::word_of(value_of(w)); }
std::uint64_t decode(std::uint64_t w) { return eco::word_of(static_cast<double>(value_of(w))); }

constexpr eco::Word kWords[] = {
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rne, 4, 2, narrow},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_CONVERSION_fp16_to_fp32, 2, 4, widen},
    {NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 2, 8, decode},
};

}  // namespace

NINFER_ECOSYSTEM_WORDS(kWords, "ecosystem_gcc_float16", "GCC " __VERSION__ " libgcc soft-fp")
