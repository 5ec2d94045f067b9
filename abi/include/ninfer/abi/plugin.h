/* SPDX-License-Identifier: Apache-2.0 */
/* The ninfer-conform plugin C ABI, versions 2 (current) and 1 (frozen, still loaded).
 * harness/README.md documents it.
 *
 * A plugin is a shared library that exports one symbol, ninfer_plugin_entry. It returns a
 * table: identity, declared capabilities, and one function per operation. Every function works
 * over caller-owned buffers (named planes in v2), returns NINFER_OK or a negative NINFER_E_*
 * code, and may put a one-line message in result->message. The harness calls plugins in a child
 * process, one call at a time; a plugin needs no thread safety.
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
    NINFER_WORD_FORMATS(NINFER_X_) NINFER_GROUPED_FORMATS(NINFER_X_) NINFER_SCALED_FORMATS(NINFER_X_)
    NINFER_GGUF_TYPES(NINFER_X_)
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

enum ninfer_profile {
    NINFER_PROFILE_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_PROFILE_##name = id,
    NINFER_PROFILES(NINFER_X_)
#undef NINFER_X_
};

enum ninfer_criterion {
    NINFER_CRITERION_NONE = 0,
#define NINFER_X_(id, name, ...) NINFER_CRITERION_##name = id,
    NINFER_CRITERIA(NINFER_X_)
#undef NINFER_X_
};

/* ---- Status codes, classes, verdicts and payload details as X-macros ----------------------
 * X(value, NAME, name, summary): NAME builds the C enumerator, name is the registry key ("size");
 * a status is also spelled "E_SIZE" ("ok") in vector files, "NINFER_E_SIZE" in messages: text.hpp.
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
    X(6, SIZE, size, "payload size does not match the geometry")                                      \
    X(7, INVALID_DIVISOR, invalid_divisor, "nvfp4 weight divisor not finite and strictly positive")

enum ninfer_payload_detail {
#define NINFER_X_(value, NAME, name, summary) NINFER_DETAIL_##NAME = value,
    NINFER_PAYLOAD_DETAILS(NINFER_X_)
#undef NINFER_X_
};

/* The convert capability's `profile` for an `sr` conversion (issue 24 item 3; harness/README.md):
 * 0 - the plugin reads the random plane when offered and draws its own bits when not;
 * NINFER_SR_SELF_DRAWN - the plugin always draws its own bits (only the statistical rules apply). */
#define NINFER_SR_SELF_DRAWN 1u

/* call flags */
#define NINFER_FLAG_NEGATIVE_SCALES 0x1u /* quant_encode grouped_search: negative candidates */
#define NINFER_FLAG_GATHER 0x2u          /* rows_select: the rows plane holds arbitrary row indices */

/* ---- Planes (ABI v2) --------------------------------------------------------------------------
 * A v2 call carries its buffers as counted arrays of named planes, inputs and outputs apart,
 * so that a format with any number of planes (nvfp4: codes, scales, divisors, values; a GGUF
 * block payload: one plane) and an operator (weight payload + activation -> output) fit the
 * same call. X(id, NAME, name, summary); ids are ABI (only appended). harness/README.md gives,
 * per op, the planes the harness offers and expects, in their order. */
#define NINFER_PLANES(X)                                                                                  \
    X(1, WORDS, words, "packed words of a word format at their byte width, little-endian")               \
    X(2, VALUES, values, "decoded values: binary64 words (decode), binary32 words (quant_decode)")        \
    X(3, CLASSES, classes, "one class byte per word (NINFER_CLASS_*, sign in bit 7)")                    \
    X(4, VERDICTS, verdicts, "one verdict byte per word (NINFER_VERDICT_*)")                              \
    X(5, CODES, codes, "logical codes of a block or grouped tensor, row-major, one byte per element")     \
    X(6, SCALES, scales, "scale words in natural row-major order, at their byte width")                  \
    X(7, DIVISORS, divisors, "binary32 weight divisors, one per stacked source matrix")                   \
    X(8, PAYLOAD, payload, "the bytes of one tensor in `layout`")                                         \
    X(9, SOURCE, source, "source words of an encoder (format `format_in`)")                               \
    X(10, IMPORTANCE, importance, "binary32 importance weights of an encoder (grouped_search: K)")       \
    X(11, ROWS, rows, "row indices as uint64 (rows_select: first row and count, or a gather)")            \
    X(12, ACTIVATION, activation, "an operator's activation, row-major, words of the plane's format")     \
    X(13, OUTPUT, output, "an operator's output, row-major, words of the plane's format")                \
    X(14, RANDOM, random, "random bits as uint32 per word (convert of an `sr` conversion)")

enum ninfer_plane_name {
    NINFER_PLANE_NONE = 0,
#define NINFER_X_(id, NAME, name, summary) NINFER_PLANE_##NAME = id,
    NINFER_PLANES(NINFER_X_)
#undef NINFER_X_
};

/* An input plane: `bytes` bytes at `data`, read-only for the plugin. `format`: the word format
 * of its elements where the op leaves it open (an operator's activation: fp32, bf16 or fp16),
 * else 0. */
typedef struct ninfer_input_plane {
    uint32_t name;   /* NINFER_PLANE_* */
    uint32_t format; /* NINFER_FORMAT_* or 0 */
    const void *data;
    uint64_t bytes;
} ninfer_input_plane;

/* An output plane: the plugin writes at most `capacity` bytes at `data` and sets `written`. */
typedef struct ninfer_output_plane {
    uint32_t name;   /* NINFER_PLANE_* */
    uint32_t format; /* NINFER_FORMAT_* or 0 (an operator's output: the word format expected) */
    void *data;
    uint64_t capacity;
    uint64_t written; /* set by the plugin; 0 on entry */
} ninfer_output_plane;

/* ---- ABI version 2 ------------------------------------------------------------------------------
 * One call. The harness zero-fills it, sets struct_size to sizeof(ninfer_call_v2) as IT knows it
 * (a plugin reads a field only when struct_size covers it: NINFER_HAS_FIELD), and fills:
 *   format     - the format of the words or tensor produced or examined (convert: the target;
 *                an operator: the weight format)
 *   format_in  - the format of the words offered (convert: the source; quant_encode: the source
 *                words, fp32|bf16|fp16; layout_encode of a word format: equal to `format`)
 *   method     - conversion id, role id or encoder id, as the op needs; 0 otherwise
 *   count      - number of words for word ops; number of rows for rows_select
 *   profile    - an operator's compute profile id (0: none)
 *   inputs     - input_count input planes, each name at most once, in the op's order
 *   outputs    - output_count output planes, each name at most once, in the op's order */
typedef struct ninfer_call_v2 {
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
    uint32_t profile;
    uint32_t input_count;
    const ninfer_input_plane *inputs;
    uint32_t output_count;
    uint32_t reserved;
    ninfer_output_plane *outputs;
} ninfer_call_v2;

/* The result. The harness zero-fills it and sets struct_size to sizeof(ninfer_result_v2) as it
 * knows it; a plugin writes no field that struct_size does not cover. Outputs report their own
 * `written`. */
typedef struct ninfer_result_v2 {
    uint32_t struct_size;
    uint32_t detail;     /* NINFER_DETAIL_* when NINFER_E_INVALID_PAYLOAD is returned */
    char message[256];   /* one line, NUL-terminated; optional */
} ninfer_result_v2;

/* A declared capability; 0 in a field means "any". */
typedef struct ninfer_capability_v2 {
    uint32_t op;
    uint32_t format;
    uint32_t format_in;
    uint32_t layout;
    uint32_t method;
    uint32_t profile; /* operators: a compute profile the plugin claims; 0: any / not an operator */
} ninfer_capability_v2;

typedef int32_t (*ninfer_fn_v2)(void *self, const ninfer_call_v2 *call, ninfer_result_v2 *result);

#define NINFER_MAX_OPS 32u

/* The plugin's table. Its first fields are laid out as in version 1. struct_size is
 * sizeof(ninfer_plugin_v2) as the plugin knows it: the harness reads only the `ops` entries it
 * covers, and capability_size (sizeof(ninfer_capability_v2)) tells the stride of `capabilities`. */
typedef struct ninfer_plugin_v2 {
    uint32_t abi_version; /* 2 */
    uint32_t struct_size;
    const char *name;
    const char *version;
    const ninfer_capability_v2 *capabilities;
    uint32_t capability_count;
    uint32_t capability_size;
    void *self; /* passed back as the first argument of every function */
    /* one entry per NINFER_OP_*, index = op id - 1; NULL: not implemented */
    ninfer_fn_v2 ops[NINFER_MAX_OPS];
} ninfer_plugin_v2;

/* Whether a struct whose first member is `uint32_t struct_size` covers `field`. */
#define NINFER_HAS_FIELD(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* The input / output plane of a name in a v2 call, or NULL when the call has none. */
static inline const ninfer_input_plane *ninfer_find_input(const ninfer_call_v2 *call, uint32_t name) {
    for (uint32_t i = 0; i < call->input_count; ++i)
        if (call->inputs[i].name == name) return &call->inputs[i];
    return NULL;
}
static inline ninfer_output_plane *ninfer_find_output(const ninfer_call_v2 *call, uint32_t name) {
    for (uint32_t i = 0; i < call->output_count; ++i)
        if (call->outputs[i].name == name) return &call->outputs[i];
    return NULL;
}

/* ---- ABI version 1 (frozen) ------------------------------------------------------------------
 * Three fixed output buffers and a result without struct_size. The harness still loads a v1
 * plugin and adapts every call: input planes 0 and 1 become `in` and `aux`, output planes 0..2
 * become `out`, `out2`, `out3`, in the op's plane order (harness/README.md); a call with more
 * planes than that is unsupported for a v1 plugin. */
typedef struct ninfer_call_v1 {
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
} ninfer_call_v1;

typedef struct ninfer_result_v1 {
    uint64_t out_written;
    uint64_t out2_written;
    uint64_t out3_written;
    uint32_t detail;
    uint32_t reserved;
    char message[256];
} ninfer_result_v1;

typedef struct ninfer_capability_v1 {
    uint32_t op;
    uint32_t format;
    uint32_t format_in;
    uint32_t layout;
    uint32_t method;
} ninfer_capability_v1;

typedef int32_t (*ninfer_fn_v1)(void *self, const ninfer_call_v1 *call, ninfer_result_v1 *result);

typedef struct ninfer_plugin_v1 {
    uint32_t abi_version; /* 1 */
    uint32_t struct_size;
    const char *name;
    const char *version;
    const ninfer_capability_v1 *capabilities;
    uint32_t capability_count;
    uint32_t reserved;
    void *self;
    ninfer_fn_v1 ops[16];
} ninfer_plugin_v1;

/* ---- Versions and the unsuffixed names ----------------------------------------------------------
 * NINFER_ABI_LATEST is the newest version this header describes; a harness built from it loads
 * plugins of NINFER_ABI_OLDEST..NINFER_ABI_LATEST. A plugin source picks the version it is
 * written against with NINFER_PLUGIN_ABI (default: the latest); the unsuffixed names
 * (ninfer_call, ninfer_result, ninfer_capability, ninfer_fn, ninfer_plugin, NINFER_ABI_VERSION)
 * then mean that version, so that a v1 source builds unchanged with -DNINFER_PLUGIN_ABI=1. */
#define NINFER_ABI_OLDEST 1u
#define NINFER_ABI_LATEST 2u
#ifndef NINFER_PLUGIN_ABI
#define NINFER_PLUGIN_ABI 2
#endif
#if NINFER_PLUGIN_ABI == 1
#define NINFER_ABI_VERSION 1u
typedef ninfer_call_v1 ninfer_call;
typedef ninfer_result_v1 ninfer_result;
typedef ninfer_capability_v1 ninfer_capability;
typedef ninfer_fn_v1 ninfer_fn;
typedef ninfer_plugin_v1 ninfer_plugin;
#elif NINFER_PLUGIN_ABI == 2
#define NINFER_ABI_VERSION 2u
typedef ninfer_call_v2 ninfer_call;
typedef ninfer_result_v2 ninfer_result;
typedef ninfer_capability_v2 ninfer_capability;
typedef ninfer_fn_v2 ninfer_fn;
typedef ninfer_plugin_v2 ninfer_plugin;
#else
#error "NINFER_PLUGIN_ABI must be 1 or 2"
#endif

/* The one exported symbol. The harness calls it with NINFER_ABI_LATEST first; a plugin returns
 * a table of that version, or NULL when it cannot serve it, and then the harness calls it again
 * with each older version down to NINFER_ABI_OLDEST (a v1 plugin answers 1). The table's
 * abi_version says which layout it has; a version outside OLDEST..LATEST is refused by name. */
typedef const void *(*ninfer_plugin_entry_any_fn)(uint32_t harness_abi);
typedef const ninfer_plugin *(*ninfer_plugin_entry_fn)(uint32_t harness_abi);
#define NINFER_PLUGIN_ENTRY_SYMBOL "ninfer_plugin_entry"

#ifdef __cplusplus
}
#endif

#endif /* NINFER_ABI_PLUGIN_H */
