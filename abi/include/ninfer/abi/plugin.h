/* SPDX-License-Identifier: Apache-2.0 */
/* The ninfer-conform plugin C ABI, version 1. harness/README.md documents it.
 *
 * A plugin is a shared library that exports one symbol, ninfer_plugin_entry. It returns a
 * table: identity, declared capabilities, and one function per operation. Every function works
 * over caller-owned buffers, returns NINFER_OK or a negative NINFER_E_* code, and may put a
 * one-line message in result->message. The harness calls plugins in a child process, one call
 * at a time; a plugin needs no thread safety.
 *
 * Buffers: words are packed little-endian at their byte width ((bits + 7) / 8: E2M1 and UE4M3
 * use one byte per word, low bits). decode writes binary64 words; classify and validate write
 * one byte per word. Sizes are bytes; shapes are uint64. */
#ifndef NINFER_ABI_PLUGIN_H
#define NINFER_ABI_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "ninfer/abi/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NINFER_ABI_VERSION 1u
#define NINFER_MAX_RANK 16u

#if defined(_WIN32)
#define NINFER_EXPORT __declspec(dllexport)
#else
#define NINFER_EXPORT __attribute__((visibility("default")))
#endif

/* Format ids: one space for word, grouped and other tensor formats. */
enum ninfer_format {
    NINFER_FORMAT_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_FORMAT_##name = id,
    NINFER_WORD_FORMATS(NINFER_X_) NINFER_GROUPED_FORMATS(NINFER_X_) NINFER_OTHER_FORMATS(NINFER_X_)
#undef NINFER_X_
};

enum ninfer_layout {
    NINFER_LAYOUT_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_LAYOUT_##name = id,
    NINFER_LAYOUTS(NINFER_X_)
#undef NINFER_X_
};

enum ninfer_op {
    NINFER_OP_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_OP_##name = id,
    NINFER_OPS(NINFER_X_)
#undef NINFER_X_
};

/* `method` of a call: a conversion id (convert), a role id (validate), an encoder id
 * (quant_encode), 0 otherwise. */
enum ninfer_conversion {
    NINFER_CONVERSION_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_CONVERSION_##name = id,
    NINFER_CONVERSIONS(NINFER_X_)
#undef NINFER_X_
};

enum ninfer_role {
    NINFER_ROLE_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_ROLE_##name = id,
    NINFER_ROLES(NINFER_X_)
#undef NINFER_X_
};

enum ninfer_encoder {
    NINFER_ENCODER_NONE = 0,
#define NINFER_X_(id, name) NINFER_ENCODER_##name = id, /* two columns: C11 needs no empty `...` */
    NINFER_ENCODERS(NINFER_X_)
#undef NINFER_X_
};

/* ---- Status codes, classes, verdicts and payload details as X-macros ----------------------
 * X(value, NAME, name, summary): NAME builds the C enumerator, name is the spelling the
 * vectors, reports and wire use (ninfer/abi/registry.hpp: status_name, detail_name, ...).
 * Use NAME only with ## (NAN is also a <math.h> macro); name and summary are safe with #. */

/* Status codes. Negative: the call refused or failed. */
#define NINFER_STATUSES(X)                                                                          \
    X(0, OK, ok, "success")                                                                         \
    X(-1, E_UNSUPPORTED, unsupported, "operation/format/layout/method not implemented")            \
    X(-2, E_INVALID_ARGUMENT, invalid_argument, "malformed call (bad rank, zero count where not allowed)") \
    X(-3, E_SIZE, size, "size rule broken or size arithmetic overflows uint64")                     \
    X(-4, E_BUFFER, buffer, "an output buffer is too small")                                        \
    X(-5, E_LAYOUT, layout, "format/layout pair not registered")                                    \
    X(-6, E_CONVERSION, conversion, "implicit cross-type encoding refused")                         \
    X(-7, E_NONFINITE, nonfinite, "encoder: non-finite source value")                               \
    X(-8, E_SCALE_OVERFLOW, scale_overflow, "encoder: scale not representable (binary16 infinity)") \
    X(-9, E_INVALID_PAYLOAD, invalid_payload, "payload_validate: refused, `detail` names the rule") \
    X(-10, E_METHOD, method, "encoder method refuses this target (q2, t2)")                         \
    X(-100, E_INTERNAL, internal, "the plugin failed internally")

enum ninfer_status {
#define NINFER_X_(value, NAME, name, summary) NINFER_##NAME = value,
    NINFER_STATUSES(NINFER_X_)
#undef NINFER_X_
};

/* classify: class in bits 0..3, sign in bit 7. */
#define NINFER_CLASSES(X)                                                                      \
    X(1, ZERO, zero, "zero")                                                                   \
    X(2, SUBNORMAL, subnormal, "subnormal")                                                    \
    X(3, NORMAL, normal, "normal")                                                             \
    X(4, INFINITE, infinite, "infinity")                                                       \
    X(5, QNAN, qnan, "IEEE NaN with the quiet bit set")                                        \
    X(6, SNAN, snan, "IEEE NaN with the quiet bit clear")                                      \
    X(7, NAN, nan, "NaN of a format without a quiet bit (E4M3FN, E8M0, UE4M3)")                \
    X(8, INTEGER, integer, "int32")                                                            \
    X(15, OUTSIDE, outside, "bit pattern wider than the format (UE4M3 with bit 7 set)")

enum ninfer_class {
#define NINFER_X_(value, NAME, name, summary) NINFER_CLASS_##NAME = value,
    NINFER_CLASSES(NINFER_X_)
#undef NINFER_X_
};
#define NINFER_CLASS_SIGN 0x80u

/* validate: one verdict byte per word. */
#define NINFER_VERDICTS(X)                                                                     \
    X(0, VALID, valid, "valid under the role")                                                 \
    X(1, NEGATIVE, negative, "negative value where the role needs sign zero")                  \
    X(2, NEGATIVE_ZERO, negative_zero, "-0 where the role refuses it")                         \
    X(3, ZERO, zero, "+0 where the role needs a strictly positive value")                      \
    X(4, INFINITE, infinite, "infinity")                                                       \
    X(5, NAN, nan, "NaN")                                                                      \
    X(6, OUTSIDE, outside, "not a word of the format")

enum ninfer_verdict {
#define NINFER_X_(value, NAME, name, summary) NINFER_VERDICT_##NAME = value,
    NINFER_VERDICTS(NINFER_X_)
#undef NINFER_X_
};

/* payload_validate: `detail` when NINFER_E_INVALID_PAYLOAD is returned. */
#define NINFER_PAYLOAD_DETAILS(X)                                                                      \
    X(0, NONE, none, "no detail")                                                                      \
    X(1, ILLEGAL_CODE, illegal_code, "Q8 0x80, T2 0b10")                                               \
    X(2, INVALID_SCALE, invalid_scale, "-0, Inf, NaN (Q2: Inf, NaN)")                                  \
    X(3, ZERO_SCALE_CODES, zero_scale_codes, "+0 scale with a nonzero code in the group")              \
    X(4, NONZERO_PADDING, nonzero_padding, "padding lane, padding group or padding scale not zero")    \
    X(5, NONZERO_GAP, nonzero_gap, "alignment gap between planes not zero")                            \
    X(6, SIZE, size, "payload size does not match the geometry")

enum ninfer_payload_detail {
#define NINFER_X_(value, NAME, name, summary) NINFER_DETAIL_##NAME = value,
    NINFER_PAYLOAD_DETAILS(NINFER_X_)
#undef NINFER_X_
};

/* call flags */
#define NINFER_FLAG_NEGATIVE_SCALES 0x1u /* quant_encode grouped_search: negative candidates */
#define NINFER_FLAG_GATHER 0x2u          /* rows_select: aux holds arbitrary row indices */

/* One call. The harness zero-fills it and sets struct_size; fields a call does not use are 0.
 *   format     - the format of the words produced or examined (convert: the target)
 *   format_in  - the format of the words offered in `in` (convert: the source; layout_encode:
 *                the words offered, which must equal `format`; quant_encode: fp32|bf16|fp16)
 *   method     - conversion id, role id or encoder id, as the op needs
 *   count      - number of words in `in` for word ops; number of rows for rows_select
 *   aux        - quant_encode grouped_search: K binary32 importance weights (empty: all 1);
 *                rows_select: row indices as uint64 (slice: two words, first row and count) */
typedef struct ninfer_call {
    uint32_t struct_size;
    uint32_t op;
    uint32_t format;
    uint32_t format_in;
    uint32_t layout;
    uint32_t method;
    uint32_t flags;
    uint32_t rank;
    uint64_t shape[NINFER_MAX_RANK];
    uint64_t count;
    const void *in;
    uint64_t in_bytes;
    const void *aux;
    uint64_t aux_bytes;
    void *out;
    uint64_t out_bytes; /* capacity */
    void *out2;
    uint64_t out2_bytes;
    void *out3;
    uint64_t out3_bytes;
} ninfer_call;

typedef struct ninfer_result {
    uint64_t out_written;
    uint64_t out2_written;
    uint64_t out3_written;
    uint32_t detail;
    uint32_t reserved;
    char message[256];
} ninfer_result;

/* A declared capability; 0 in a field means "any". */
typedef struct ninfer_capability {
    uint32_t op;
    uint32_t format;
    uint32_t format_in;
    uint32_t layout;
    uint32_t method;
} ninfer_capability;

typedef int32_t (*ninfer_fn)(void *self, const ninfer_call *call, ninfer_result *result);

typedef struct ninfer_plugin {
    uint32_t abi_version; /* NINFER_ABI_VERSION the plugin was built against */
    uint32_t struct_size; /* sizeof(ninfer_plugin) */
    const char *name;
    const char *version;
    const ninfer_capability *capabilities;
    uint32_t capability_count;
    uint32_t reserved;
    void *self; /* passed back as the first argument of every function */
    /* one entry per NINFER_OP_*, index = op id - 1; NULL: not implemented */
    ninfer_fn ops[16];
} ninfer_plugin;

/* The one exported symbol. `harness_abi` is the harness's NINFER_ABI_VERSION; a plugin that
 * cannot serve it returns NULL. */
typedef const ninfer_plugin *(*ninfer_plugin_entry_fn)(uint32_t harness_abi);
#define NINFER_PLUGIN_ENTRY_SYMBOL "ninfer_plugin_entry"

#ifdef __cplusplus
}
#endif

#endif /* NINFER_ABI_PLUGIN_H */
