// SPDX-License-Identifier: Apache-2.0
// A C++ plugin of ABI v2 built against the installed package: decode of bf16 words to binary64
// words on named planes, from plugin.h alone (harness/README.md, "The plugin C ABI").
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

std::int32_t refuse(ninfer_result *result, std::int32_t status, const char *why) {
    if (NINFER_HAS_FIELD(result, ninfer_result, message)) std::snprintf(result->message, sizeof result->message, "%s", why);
    return status;
}

std::int32_t decode(void *, const ninfer_call *call, ninfer_result *result) {
    if (!NINFER_HAS_FIELD(call, ninfer_call, outputs)) return refuse(result, NINFER_E_INVALID_ARGUMENT, "call too short");
    if (call->format != NINFER_FORMAT_bf16) return refuse(result, NINFER_E_UNSUPPORTED, "decode: bf16 only");
    const ninfer_input_plane *words = ninfer_find_input(call, NINFER_PLANE_WORDS);
    ninfer_output_plane *values = ninfer_find_output(call, NINFER_PLANE_VALUES);
    if (!words || !values) return refuse(result, NINFER_E_INVALID_ARGUMENT, "decode needs planes `words` and `values`");
    if (call->count > UINT64_MAX / 8 || words->bytes < call->count * 2) return NINFER_E_SIZE;
    if (values->capacity < call->count * 8) return NINFER_E_BUFFER;
    const auto *in = static_cast<const std::uint8_t *>(words->data);
    auto *out = static_cast<std::uint8_t *>(values->data);
    for (std::uint64_t i = 0; i < call->count; ++i) {
        const auto w = static_cast<std::uint16_t>(in[2 * i] | in[2 * i + 1] << 8);
        const std::uint64_t v = bf16_to_binary64_bits(w);
        for (int b = 0; b < 8; ++b) out[8 * i + b] = static_cast<std::uint8_t>(v >> (8 * b));
    }
    values->written = call->count * 8;
    return NINFER_OK;
}

const std::array<ninfer_capability, 1> capabilities{{{NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0, 0}}};

ninfer_plugin make_table() {
    ninfer_plugin t{};
    t.abi_version = NINFER_ABI_VERSION;
    t.struct_size = sizeof(ninfer_plugin);
    t.name = "consumer-cxx";
    t.version = "1.0";
    t.capabilities = capabilities.data();
    t.capability_count = capabilities.size();
    t.capability_size = sizeof(ninfer_capability);
    t.ops[NINFER_OP_decode - 1] = decode;
    return t;
}

const ninfer_plugin table = make_table();

}  // namespace

// ABI 2 and later get this table; a v1 harness gets NULL.
extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    return harness_abi >= 2 ? &table : nullptr;
}
