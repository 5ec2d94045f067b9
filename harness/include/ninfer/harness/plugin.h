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
#ifndef NINFER_HARNESS_PLUGIN_H
#define NINFER_HARNESS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "ninfer/oracle/registry.h"

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
#define NINFER_X_(id, name, ...) NINFER_ENCODER_##name = id,
    NINFER_ENCODERS(NINFER_X_)
#undef NINFER_X_
};

/* Status codes. Negative: the call refused or failed. */
enum ninfer_status {
    NINFER_OK = 0,
    NINFER_E_UNSUPPORTED = -1,      /* operation/format/layout/method not implemented */
    NINFER_E_INVALID_ARGUMENT = -2, /* malformed call (bad rank, zero count where not allowed) */
    NINFER_E_SIZE = -3,             /* size rule broken or size arithmetic overflows uint64 */
    NINFER_E_BUFFER = -4,           /* an output buffer is too small */
    NINFER_E_LAYOUT = -5,           /* format/layout pair not registered */
    NINFER_E_CONVERSION = -6,       /* implicit cross-type encoding refused */
    NINFER_E_NONFINITE = -7,        /* encoder: non-finite source value */
    NINFER_E_SCALE_OVERFLOW = -8,   /* encoder: scale not representable (binary16 infinity) */
    NINFER_E_INVALID_PAYLOAD = -9,  /* payload_validate: refused, `detail` names the rule */
    NINFER_E_METHOD = -10,          /* encoder method refuses this target (q2, t2) */
    NINFER_E_INTERNAL = -100
};

/* classify: class in bits 0..3, sign in bit 7. */
enum ninfer_class {
    NINFER_CLASS_ZERO = 1,
    NINFER_CLASS_SUBNORMAL = 2,
    NINFER_CLASS_NORMAL = 3,
    NINFER_CLASS_INFINITE = 4,
    NINFER_CLASS_QNAN = 5,    /* IEEE NaN with the quiet bit set */
    NINFER_CLASS_SNAN = 6,    /* IEEE NaN with the quiet bit clear */
    NINFER_CLASS_NAN = 7,     /* NaN of a format without a quiet bit (E4M3FN, E8M0, UE4M3) */
    NINFER_CLASS_INTEGER = 8, /* int32 */
    NINFER_CLASS_OUTSIDE = 15 /* bit pattern wider than the format (UE4M3 with bit 7 set) */
};
#define NINFER_CLASS_SIGN 0x80u

/* validate: one verdict byte per word. */
enum ninfer_verdict {
    NINFER_VERDICT_VALID = 0,
    NINFER_VERDICT_NEGATIVE = 1,      /* negative value where the role needs sign zero */
    NINFER_VERDICT_NEGATIVE_ZERO = 2, /* -0 where the role refuses it */
    NINFER_VERDICT_ZERO = 3,          /* +0 where the role needs a strictly positive value */
    NINFER_VERDICT_INFINITE = 4,
    NINFER_VERDICT_NAN = 5,
    NINFER_VERDICT_OUTSIDE = 6        /* not a word of the format */
};

/* payload_validate: `detail` when NINFER_E_INVALID_PAYLOAD is returned. */
enum ninfer_payload_detail {
    NINFER_DETAIL_NONE = 0,
    NINFER_DETAIL_ILLEGAL_CODE = 1,      /* Q8 0x80, T2 0b10 */
    NINFER_DETAIL_INVALID_SCALE = 2,     /* -0, Inf, NaN (Q2: Inf, NaN) */
    NINFER_DETAIL_ZERO_SCALE_CODES = 3,  /* +0 scale with a nonzero code in the group */
    NINFER_DETAIL_NONZERO_PADDING = 4,   /* padding lane, padding group or padding scale not zero */
    NINFER_DETAIL_NONZERO_GAP = 5,       /* alignment gap between planes not zero */
    NINFER_DETAIL_SIZE = 6               /* payload size does not match the geometry */
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

#endif /* NINFER_HARNESS_PLUGIN_H */
