// SPDX-License-Identifier: Apache-2.0
// ecosystem_f16c: x86's F16C instructions (docs/ECOSYSTEM.md): vcvtps2ph with its rounding
// immediate as fp32_to_fp16_rne, _rtz, _rup and _rdn, vcvtph2ps as fp16_to_fp32 and fp16's
// decode. Built with -mf16c; on a CPU without F16C the plugin declares nothing (cpuid checked).
#include <cpuid.h>
#include <immintrin.h>

#include "ecosystem_common.hpp"

namespace {

namespace eco = ninfer::ecosystem;

template <int kRounding>
std::uint64_t narrow(std::uint64_t x) {
    return static_cast<std::uint16_t>(_cvtss_sh(eco::f32_of(static_cast<std::uint32_t>(x)), kRounding));
}
float value_of(std::uint64_t w) { return _cvtsh_ss(static_cast<unsigned short>(w)); }
std::uint64_t widen(std::uint64_t w) { return eco::word_of(value_of(w)); }
std::uint64_t decode(std::uint64_t w) { return eco::word_of(static_cast<double>(value_of(w))); }

constexpr eco::Word kWords[] = {
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rne, 4, 2, narrow<_MM_FROUND_TO_NEAREST_INT>},
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rtz, 4, 2, narrow<_MM_FROUND_TO_ZERO>},
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rup, 4, 2, narrow<_MM_FROUND_TO_POS_INF>},
    {NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, NINFER_CONVERSION_fp32_to_fp16_rdn, 4, 2, narrow<_MM_FROUND_TO_NEG_INF>},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, NINFER_CONVERSION_fp16_to_fp32, 2, 4, widen},
    {NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 2, 8, decode},
};
bool has_f16c() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}

}  // namespace

extern "C" NINFER_EXPORT const ninfer_plugin_v2 *ninfer_plugin_entry(std::uint32_t harness_abi) {
    static const ninfer_plugin_v2 table = [] {
        auto p = ninfer::ecosystem::WordTable<kWords>::make("ecosystem_f16c", "x86 F16C (vcvtps2ph, vcvtph2ps)");
        if (!has_f16c()) {
            p.version = "no F16C on this CPU: nothing declared";
            p.capability_count = 0;
        }
        return p;
    }();
    return harness_abi >= 2 ? &table : nullptr;
}
