// SPDX-License-Identifier: Apache-2.0
// ecosystem_ggml: real ggml as a subject (docs/ECOSYSTEM.md). libggml-base.so of the npm package
// @node-llama-cpp/linux-x64 (version and checksum pinned in scripts/ecosystem/package-lock.json)
// is loaded at run time ($NINFER_GGML_LIB, else the path scripts/ecosystem/install.sh fills), and
// every GGUF type of the registry whose number ggml's type traits name alike is served by ggml's
// own dequantize_row_<type> (quant_decode) and quantize_row_<type>_ref (quant_encode,
// ggml_quantize_ref). The adapter adds the plugin ABI's contract only: the format/layout pair,
// the shape (storage-layouts.md Section 7), the planes and their sizes, and the refusal of a
// non-finite source that tensor-formats.txt Section 8 asks of every encoder; also ggml's fp16 and
// bf16 rows (ggml_fp32_to_fp16_row, ggml_fp32_to_bf16_row_ref, and back).
#include <dlfcn.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "ecosystem_common.hpp"
#include "ninfer/abi/registry.hpp"

#ifndef NINFER_ECOSYSTEM_DIR
#define NINFER_ECOSYSTEM_DIR ""
#endif

namespace {

namespace eco = ninfer::ecosystem;
using ninfer::abi::GgufType;

using RowDecode = void (*)(const void *blocks, float *y, std::int64_t k);
using RowQuantize = void (*)(const float *x, void *blocks, std::int64_t k);
using TypeTraits = const char *const *(*)(int type);  // ggml_get_type_traits: its first member is type_name
using F32ToF16Row = void (*)(const float *x, std::uint16_t *y, std::int64_t n);
using F16ToF32Row = void (*)(const std::uint16_t *x, float *y, std::int64_t n);

struct Bound {
    const GgufType *type;
    RowDecode decode;      ///< nullptr: ggml exports no dequantize_row_ for the type (q8_1)
    RowQuantize quantize;  ///< nullptr: ggml exports no reference quantizer for the type
};

/// libggml-base.so and the functions found in it, resolved once per worker.
struct Ggml {
    std::string path, error;
    std::vector<Bound> types;
    F32ToF16Row fp32_to_fp16 = nullptr, fp32_to_bf16 = nullptr;
    F16ToF32Row fp16_to_fp32 = nullptr, bf16_to_fp32 = nullptr;
    std::vector<ninfer_capability_v2> caps;
};

std::string library_path() {
    if (const char *p = std::getenv("NINFER_GGML_LIB"); p && *p) return p;
    return std::string(NINFER_ECOSYSTEM_DIR) + "/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so";
}

/// "q4_K" from "gguf_q4_k": ggml's spelling is checked against its own type traits.
bool same_name(std::string_view ggml, std::string_view registry) {
    if (!registry.starts_with("gguf_") || ggml.size() != registry.size() - 5) return false;
    for (std::size_t i = 0; i < ggml.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(ggml[i])) != registry[5 + i]) return false;
    return true;
}

const Ggml &ggml() {
    static const Ggml g = [] {
        Ggml g;
        g.path = library_path();
        void *lib = ::dlopen(g.path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char *e = ::dlerror();
            g.error = "cannot load " + g.path + ": " + (e ? e : "?") + " (run scripts/ecosystem/install.sh)";
            return g;
        }
        const auto traits = reinterpret_cast<TypeTraits>(::dlsym(lib, "ggml_get_type_traits"));
        if (!traits) {
            g.error = g.path + " has no ggml_get_type_traits";
            return g;
        }
        for (const auto &t : ninfer::abi::kGgufTypes) {
            const char *const *tr = traits(static_cast<int>(t.ggml_type));
            if (!tr || !*tr || !same_name(*tr, t.name)) continue;  // another type under this number: not served
            const std::string name(*tr);
            Bound b{&t, reinterpret_cast<RowDecode>(::dlsym(lib, ("dequantize_row_" + name).c_str())),
                    reinterpret_cast<RowQuantize>(::dlsym(lib, ("quantize_row_" + name + "_ref").c_str()))};
            if (!b.decode && !b.quantize) continue;
            g.types.push_back(b);
            if (b.decode) g.caps.push_back({NINFER_OP_quant_decode, t.id, 0, NINFER_LAYOUT_ggml_blocks_v1, 0, 0});
            if (b.quantize)
                g.caps.push_back({NINFER_OP_quant_encode, t.id, NINFER_FORMAT_fp32, NINFER_LAYOUT_ggml_blocks_v1,
                                  NINFER_ENCODER_ggml_quantize_ref, 0});
        }
        g.fp32_to_fp16 = reinterpret_cast<F32ToF16Row>(::dlsym(lib, "ggml_fp32_to_fp16_row"));
        g.fp32_to_bf16 = reinterpret_cast<F32ToF16Row>(::dlsym(lib, "ggml_fp32_to_bf16_row_ref"));
        g.fp16_to_fp32 = reinterpret_cast<F16ToF32Row>(::dlsym(lib, "ggml_fp16_to_fp32_row"));
        g.bf16_to_fp32 = reinterpret_cast<F16ToF32Row>(::dlsym(lib, "ggml_bf16_to_fp32_row"));
        if (g.fp32_to_fp16) g.caps.push_back({NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_fp16_rne, 0});
        if (g.fp32_to_bf16) g.caps.push_back({NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_bf16_rne, 0});
        if (g.fp16_to_fp32) g.caps.push_back({NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_fp16, 0, NINFER_CONVERSION_fp16_to_fp32, 0});
        if (g.bf16_to_fp32) g.caps.push_back({NINFER_OP_convert, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, 0, NINFER_CONVERSION_bf16_to_fp32, 0});
        return g;
    }();
    return g;
}

const Bound *bound(std::uint32_t format) {
    for (const auto &b : ggml().types)
        if (b.type->id == format) return &b;
    return nullptr;
}

/// The shape's rows and values (storage-layouts.md Section 7), or false with the reason.
bool geometry(const GgufType &t, const ninfer_call_v2 *c, std::uint64_t &blocks, std::uint64_t &values, std::string &why) {
    if (c->rank < 1 || c->rank > 16 || c->rank > NINFER_MAX_RANK) return why = "rank outside 1..16", false;
    std::uint64_t rows = 1;
    for (std::uint32_t i = 0; i + 1 < c->rank; ++i)
        if (c->shape[i] == 0 || __builtin_mul_overflow(rows, c->shape[i], &rows)) return why = "a zero or overflowing leading dimension", false;
    const std::uint64_t k = c->shape[c->rank - 1];
    if (k == 0 || k % t.block_values) return why = "K is not a positive multiple of the block", false;
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(rows, k, &values) || values > (1ull << 40) ||
        __builtin_mul_overflow(values / t.block_values, std::uint64_t{t.block_bytes}, &bytes))
        return why = "the payload size overflows", false;
    blocks = values / t.block_values;
    return true;
}

std::int32_t block_call(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!ggml().error.empty()) return eco::refuse(r, NINFER_E_UNSUPPORTED, ggml().error.c_str());
    const Bound *b = bound(c->format);
    if (!b || c->layout != NINFER_LAYOUT_ggml_blocks_v1) return eco::refuse(r, NINFER_E_LAYOUT, "not a GGUF type ggml serves in ggml_blocks_v1");
    if (c->op == NINFER_OP_quant_encode) {
        if (c->method != NINFER_ENCODER_ggml_quantize_ref) return eco::refuse(r, NINFER_E_METHOD, "only ggml_quantize_ref");
        if (!b->quantize || !b->type->ref_quantizer)
            return eco::refuse(r, NINFER_E_METHOD, "no reference quantizer of ggml that the registry names for this type");
        if (c->format_in != NINFER_FORMAT_fp32) return eco::refuse(r, NINFER_E_CONVERSION, "the source must be fp32");
    }
    std::uint64_t blocks = 0, values = 0;
    std::string why;
    if (!geometry(*b->type, c, blocks, values, why)) return eco::refuse(r, NINFER_E_SIZE, why.c_str(), NINFER_DETAIL_SIZE);
    const std::uint64_t payload_bytes = blocks * b->type->block_bytes;
    if (c->op == NINFER_OP_quant_decode) {
        if (!b->decode) return eco::refuse(r, NINFER_E_UNSUPPORTED, "ggml exports no dequantize_row_ of this type");
        const ninfer_input_plane *in = ninfer_find_input(c, NINFER_PLANE_PAYLOAD);
        ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_VALUES);
        if (!in || !out) return eco::refuse(r, NINFER_E_INVALID_ARGUMENT, "payload in, values out");
        if (in->bytes != payload_bytes) return eco::refuse(r, NINFER_E_SIZE, "the payload is not the shape's size", NINFER_DETAIL_SIZE);
        if (out->capacity < values * 4) return eco::refuse(r, NINFER_E_BUFFER, "values is too small");
        std::vector<float> y(values);
        b->decode(in->data, y.data(), static_cast<std::int64_t>(values));
        std::memcpy(out->data, y.data(), values * 4);
        out->written = values * 4;
        return NINFER_OK;
    }
    const ninfer_input_plane *in = ninfer_find_input(c, NINFER_PLANE_SOURCE);
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_PAYLOAD);
    if (!in || !out) return eco::refuse(r, NINFER_E_INVALID_ARGUMENT, "source in, payload out");
    if (in->bytes != values * 4) return eco::refuse(r, NINFER_E_INVALID_ARGUMENT, "the source does not hold the shape's values");
    std::vector<float> x(values);
    std::memcpy(x.data(), in->data, values * 4);
    for (const float v : x)
        if ((eco::word_of(v) & 0x7F800000u) == 0x7F800000u) return eco::refuse(r, NINFER_E_NONFINITE, "a source value is not finite");
    if (out->capacity < payload_bytes) return eco::refuse(r, NINFER_E_BUFFER, "payload is too small");
    std::vector<std::uint8_t> y(payload_bytes);
    b->quantize(x.data(), y.data(), static_cast<std::int64_t>(values));
    std::memcpy(out->data, y.data(), payload_bytes);
    out->written = payload_bytes;
    return NINFER_OK;
}

std::int32_t convert_call(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const Ggml &g = ggml();
    const bool narrow = c->format_in == NINFER_FORMAT_fp32;
    F32ToF16Row down = c->method == NINFER_CONVERSION_fp32_to_fp16_rne ? g.fp32_to_fp16 : c->method == NINFER_CONVERSION_fp32_to_bf16_rne ? g.fp32_to_bf16 : nullptr;
    F16ToF32Row up = c->method == NINFER_CONVERSION_fp16_to_fp32 ? g.fp16_to_fp32 : c->method == NINFER_CONVERSION_bf16_to_fp32 ? g.bf16_to_fp32 : nullptr;
    if (!(narrow ? down != nullptr : up != nullptr)) return eco::refuse(r, NINFER_E_UNSUPPORTED, "not a conversion ggml exports");
    const ninfer_input_plane *in = ninfer_find_input(c, NINFER_PLANE_WORDS);
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_WORDS);
    const std::uint64_t ib = narrow ? 4 : 2, ob = narrow ? 2 : 4;
    if (!in || !out) return eco::refuse(r, NINFER_E_INVALID_ARGUMENT, "words in and out");
    if (c->count > (1ull << 40) || in->bytes != c->count * ib) return eco::refuse(r, NINFER_E_SIZE, "words does not hold count words", NINFER_DETAIL_SIZE);
    if (out->capacity < c->count * ob) return eco::refuse(r, NINFER_E_BUFFER, "the output plane is too small");
    if (narrow) {
        std::vector<float> x(c->count);
        std::vector<std::uint16_t> y(c->count);
        std::memcpy(x.data(), in->data, c->count * 4);
        down(x.data(), y.data(), static_cast<std::int64_t>(c->count));
        std::memcpy(out->data, y.data(), c->count * 2);
    } else {
        std::vector<std::uint16_t> x(c->count);
        std::vector<float> y(c->count);
        std::memcpy(x.data(), in->data, c->count * 2);
        up(x.data(), y.data(), static_cast<std::int64_t>(c->count));
        std::memcpy(out->data, y.data(), c->count * 4);
    }
    out->written = c->count * ob;
    return NINFER_OK;
}

}  // namespace

extern "C" NINFER_EXPORT const ninfer_plugin_v2 *ninfer_plugin_entry(std::uint32_t harness_abi) {
    static const ninfer_plugin_v2 table = [] {
        ninfer_plugin_v2 p{};
        p.abi_version = 2;
        p.struct_size = sizeof(ninfer_plugin_v2);
        p.name = "ecosystem_ggml";
        p.version = "@node-llama-cpp/linux-x64 3.21.1";
        p.capabilities = ggml().caps.data();
        p.capability_count = static_cast<std::uint32_t>(ggml().caps.size());
        p.capability_size = sizeof(ninfer_capability_v2);
        p.ops[NINFER_OP_quant_decode - 1] = block_call;
        p.ops[NINFER_OP_quant_encode - 1] = block_call;
        p.ops[NINFER_OP_convert - 1] = convert_call;
        return p;
    }();
    return harness_abi >= 2 ? &table : nullptr;
}
