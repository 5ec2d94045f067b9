/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal ninfer-conform plugin of ABI v2, written from plugin.h alone (harness/README.md, "The
 * plugin C ABI"): decode of bf16 words to binary64 words, and the exact conversion bf16_to_fp32.
 * Buffers are named planes: each op finds its input `words` and its output plane by name. */
#include <stdio.h>
#include <string.h>

#include "ninfer/abi/plugin.h"

static uint16_t load_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static void store_le(uint8_t *p, uint64_t w, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = (uint8_t)(w >> (8 * i));
}

/* The binary64 word of the value of a bf16 word: sign, 8-bit exponent (bias 127), 7-bit
 * fraction; subnormals are normalised, Inf keeps its sign, and a NaN decodes to a quiet NaN
 * of its sign that keeps its fraction bits (the NaN principle, oracle/README.md). */
static uint64_t bf16_to_binary64_bits(uint16_t w) {
    uint64_t sign = (uint64_t)(w >> 15) << 63;
    int exp = (w >> 7) & 0xFF;
    uint64_t frac = w & 0x7F;
    if (exp == 0xFF) return sign | 0x7FF0000000000000ull | (frac ? 0x0008000000000000ull : 0) | frac << 45;
    if (exp == 0) {
        if (frac == 0) return sign;
        int e = -133; /* value = frac * 2^-133 */
        while (!(frac & 0x80)) {
            frac <<= 1;
            --e;
        }
        return sign | (uint64_t)(e + 7 + 1023) << 52 | (frac & 0x7F) << 45;
    }
    return sign | (uint64_t)(exp - 127 + 1023) << 52 | frac << 45;
}

/* A one-line message, written only where the result's struct_size covers it (plugin.h). */
static int32_t refuse(ninfer_result *result, int32_t status, const char *why) {
    if (NINFER_HAS_FIELD(result, ninfer_result, message)) snprintf(result->message, sizeof result->message, "%s", why);
    return status;
}

/* The planes of a word op, found by name: words in, `out_name` out (decode: values, convert:
 * words); count words of in_width bytes in, out_width bytes each out. */
static int32_t word_planes(const ninfer_call *call, ninfer_result *result, uint32_t out_name, uint64_t in_width,
                           uint64_t out_width, const ninfer_input_plane **in, ninfer_output_plane **out) {
    if (!NINFER_HAS_FIELD(call, ninfer_call, outputs)) return refuse(result, NINFER_E_INVALID_ARGUMENT, "call too short");
    *in = ninfer_find_input(call, NINFER_PLANE_WORDS);
    *out = ninfer_find_output(call, out_name);
    if (!*in || !*out) return refuse(result, NINFER_E_INVALID_ARGUMENT, "the call lacks the words or the output plane");
    if (call->count > UINT64_MAX / 8) return refuse(result, NINFER_E_SIZE, "count overflows the byte size");
    if ((*in)->bytes < call->count * in_width) return refuse(result, NINFER_E_SIZE, "words holds fewer than count words");
    if ((*out)->capacity < call->count * out_width) return refuse(result, NINFER_E_BUFFER, "the output plane is too small");
    return NINFER_OK;
}

static int32_t decode(void *self, const ninfer_call *call, ninfer_result *result) {
    (void)self;
    if (call->format != NINFER_FORMAT_bf16) return refuse(result, NINFER_E_UNSUPPORTED, "decode: bf16 only");
    const ninfer_input_plane *words;
    ninfer_output_plane *values;
    int32_t st = word_planes(call, result, NINFER_PLANE_VALUES, 2, 8, &words, &values);
    if (st != NINFER_OK) return st;
    const uint8_t *in = words->data;
    uint8_t *out = values->data;
    for (uint64_t i = 0; i < call->count; ++i) store_le(out + 8 * i, bf16_to_binary64_bits(load_le16(in + 2 * i)), 8);
    values->written = call->count * 8;
    return NINFER_OK;
}

static int32_t convert(void *self, const ninfer_call *call, ninfer_result *result) {
    (void)self;
    if (call->method != NINFER_CONVERSION_bf16_to_fp32 || call->format_in != NINFER_FORMAT_bf16 ||
        call->format != NINFER_FORMAT_fp32)
        return refuse(result, NINFER_E_UNSUPPORTED, "convert: bf16_to_fp32 only");
    const ninfer_input_plane *words;
    ninfer_output_plane *target;
    int32_t st = word_planes(call, result, NINFER_PLANE_WORDS, 2, 4, &words, &target);
    if (st != NINFER_OK) return st;
    const uint8_t *in = words->data;
    uint8_t *out = target->data;
    /* bf16 is the upper half of a binary32 word: widening is exact, NaNs included. */
    for (uint64_t i = 0; i < call->count; ++i) store_le(out + 4 * i, (uint64_t)load_le16(in + 2 * i) << 16, 4);
    target->written = call->count * 4;
    return NINFER_OK;
}

static const ninfer_capability capabilities[] = {
    {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0, 0},
    {NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, 0, NINFER_CONVERSION_bf16_to_fp32, 0},
};

static const ninfer_plugin table = {
    .abi_version = NINFER_ABI_VERSION,
    .struct_size = sizeof(ninfer_plugin),
    .name = "minimal",
    .version = "1.0",
    .capabilities = capabilities,
    .capability_count = sizeof capabilities / sizeof capabilities[0],
    .capability_size = sizeof(ninfer_capability),
    .ops = {[NINFER_OP_decode - 1] = decode, [NINFER_OP_convert - 1] = convert},
};

/* ABI 2 and later get this table; a harness that only knows ABI 1 gets NULL. */
NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(uint32_t harness_abi) {
    return harness_abi >= 2 ? &table : NULL;
}
