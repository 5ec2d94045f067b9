// SPDX-License-Identifier: Apache-2.0
// A C++ plugin built against the installed package: decode of bf16 words to binary64 words,
// from plugin.h alone (harness/README.md, "The plugin C ABI").
#include <array>
#include <cstdint>
#include <cstdio>

#include "ninfer/abi/plugin.h"

namespace {

/// The binary64 word of a bf16 word's value: subnormals normalised, Inf and NaN keep sign and fraction.
constexpr std::uint64_t bf16_to_binary64_bits(std::uint16_t w) {
    const std::uint64_t sign = std::uint64_t{w} >> 15 << 63, frac = w & 0x7Fu;
    const int exp = (w >> 7) & 0xFF;
    if (exp == 0xFF) return sign | 0x7FF0000000000000ull | (frac ? 0x0008000000000000ull : 0) | frac << 45;  // NaN: quiet
    if (exp != 0) return sign | std::uint64_t(exp - 127 + 1023) << 52 | frac << 45;
    if (frac == 0) return sign;
    int shift = 0;  // value = frac * 2^-133, normalised to 1.f * 2^(-133 + 6 - shift)
    while (!((frac << shift) & 0x40)) ++shift;
    return sign | std::uint64_t(-133 + 6 - shift + 1023) << 52 | ((frac << shift) & 0x3F) << 46;
}
static_assert(bf16_to_binary64_bits(0x3F80) == 0x3FF0000000000000ull);  // 1.0
static_assert(bf16_to_binary64_bits(0x0001) == 0x37A0000000000000ull);  // 2^-133

std::int32_t decode(void *, const ninfer_call *call, ninfer_result *result) {
    if (call->format != NINFER_FORMAT_bf16) {
        std::snprintf(result->message, sizeof result->message, "decode: bf16 only");
        return NINFER_E_UNSUPPORTED;
    }
    if (call->count > UINT64_MAX / 8 || call->in_bytes < call->count * 2) return NINFER_E_SIZE;
    if (call->out_bytes < call->count * 8) return NINFER_E_BUFFER;
    const auto *in = static_cast<const std::uint8_t *>(call->in);
    auto *out = static_cast<std::uint8_t *>(call->out);
    for (std::uint64_t i = 0; i < call->count; ++i) {
        const auto w = static_cast<std::uint16_t>(in[2 * i] | in[2 * i + 1] << 8);
        const std::uint64_t v = bf16_to_binary64_bits(w);
        for (int b = 0; b < 8; ++b) out[8 * i + b] = static_cast<std::uint8_t>(v >> (8 * b));
    }
    result->out_written = call->count * 8;
    return NINFER_OK;
}

const std::array<ninfer_capability, 1> capabilities{{{NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0}}};

ninfer_plugin make_table() {
    ninfer_plugin t{};
    t.abi_version = NINFER_ABI_VERSION;
    t.struct_size = sizeof(ninfer_plugin);
    t.name = "consumer-cxx";
    t.version = "1.0";
    t.capabilities = capabilities.data();
    t.capability_count = capabilities.size();
    t.ops[NINFER_OP_decode - 1] = decode;
    return t;
}

const ninfer_plugin table = make_table();

}  // namespace

extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    return harness_abi == NINFER_ABI_VERSION ? &table : nullptr;
}
