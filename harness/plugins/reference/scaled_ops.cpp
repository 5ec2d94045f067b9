// SPDX-License-Identifier: Apache-2.0
// The scaled-family half of the reference plugin (tensor-formats.txt Sections 3.3, 3.4 and the
// fp8_row_maxabs paragraph; storage-layouts.md Sections 4-6; oracle/SCALED.md R1-R5): ABI v2
// calls on nvfp4 in block_scale_k16_m128x4_v1, fp8_e4m3fn_row_bf16 in row_scale_v1 and
// fp8_e4m3fn_row_fp16 in row_interleaved_v1, served by the codecs of scaled_codec.cpp.
// Planes as harness/README.md gives them: codes one byte per element, scales at their width LE
// (nvfp4 [N, K/16] bytes, FP8 rows N words of 2 bytes), divisors binary32 LE, values binary32
// LE, rows uint64 LE, payload bytes.
#include "scaled_ops.hpp"

#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "call_planes.hpp"
#include "reference_family.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"

namespace ninfer::reference {

namespace {

using abi::ScaledFormat;

constexpr std::uint32_t kScaledLayouts[] = {NINFER_LAYOUT_block_scale_k16_m128x4_v1, NINFER_LAYOUT_row_scale_v1,
                                            NINFER_LAYOUT_row_interleaved_v1};
constexpr std::uint32_t kSources[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};
/// The ops the family defines besides quant_encode (which is declared per source and encoder).
constexpr std::uint32_t kPayloadOps[] = {NINFER_OP_layout_encode, NINFER_OP_layout_decode, NINFER_OP_quant_decode,
                                         NINFER_OP_payload_validate, NINFER_OP_rows_select};

const ScaledFormat *find_scaled(std::uint32_t id) { return abi::find_id(abi::kScaledFormats, id); }

bool scaled_layout(std::uint32_t layout) {
    for (const auto l : kScaledLayouts)
        if (l == layout) return true;
    return false;
}

std::vector<ninfer_capability_v2> build_capabilities() {
    std::vector<ninfer_capability_v2> caps;
    for (const auto &f : abi::kScaledFormats) {
        // Any layout: the format's own is served, every other refused by name (E_LAYOUT).
        for (const auto op : kPayloadOps) caps.push_back({op, f.id, 0, 0, 0, 0});
        for (const auto &e : abi::kEncoders) {
            if (e.id != f.encoder) {
                caps.push_back({NINFER_OP_quant_encode, f.id, 0, 0, e.id, 0});  // served by E_METHOD
                continue;
            }
            for (const auto src : kSources)
                if (f.encoder == NINFER_ENCODER_fp8_row_maxabs || src == NINFER_FORMAT_fp32)
                    caps.push_back({NINFER_OP_quant_encode, f.id, src, 0, e.id, 0});
        }
    }
    // A scaled format's encoder offered with another layout: refused by name, any source and method.
    for (const auto &f : abi::kScaledFormats)
        for (const auto &l : abi::kLayouts)
            if (l.id != f.layout) caps.push_back({NINFER_OP_quant_encode, f.id, 0, l.id, 0, 0});
    // Every other format offered with a scaled layout reaches this half and is refused by name
    // (named one by one: a layout wildcard would also claim the scaled formats' own undeclared calls).
    for (const auto &f : abi::kAllFormats) {
        if (find_scaled(f.id)) continue;
        for (const auto l : kScaledLayouts) {
            for (const auto op : kPayloadOps) caps.push_back({op, f.id, 0, l, 0, 0});
            caps.push_back({NINFER_OP_quant_encode, f.id, 0, l, 0, 0});
        }
    }
    return caps;
}

std::int32_t fail(ninfer_result_v2 *r, std::int32_t status, const std::string &message, std::uint32_t detail = 0) {
    return refuse_v2(r, status, message, detail);
}
std::int32_t fail(ninfer_result_v2 *r, const ScaledOutcome &o) { return refuse_v2(r, o.status, o.message, o.detail); }
/// E_SIZE always names the size rule (detail size).
std::int32_t fail_size(ninfer_result_v2 *r, const std::string &message) { return fail(r, NINFER_E_SIZE, message, NINFER_DETAIL_SIZE); }

using abi::format_label;
using abi::layout_label;

/// Copy `bytes` into an output plane and set its `written`; false when it does not fit.
bool put(ninfer_output_plane *dst, const void *src, std::uint64_t bytes) {
    if (bytes > dst->capacity || (bytes && !dst->data)) return false;
    if (bytes) std::memcpy(dst->data, src, bytes);
    dst->written = bytes;
    return true;
}

template <class Word>
std::vector<std::uint8_t> le_bytes(const std::vector<Word> &words) {
    std::vector<std::uint8_t> out(words.size() * sizeof(Word));
    for (std::size_t i = 0; i < words.size(); ++i) abi::store_le(out.data() + i * sizeof(Word), words[i], sizeof(Word));
    return out;
}

template <class Word>
std::vector<Word> le_words(std::span<const std::uint8_t> bytes) {
    std::vector<Word> out(bytes.size() / sizeof(Word));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<Word>(abi::load_le(bytes.data() + i * sizeof(Word), sizeof(Word)));
    return out;
}

/// One call of the family: the format, [N, K], the rules.
struct Call {
    const ScaledFormat &f;
    const ninfer_call_v2 *c;
    ninfer_result_v2 *r;
    const ScaledRules &rules;
    std::uint64_t n, k;
    bool nvfp4() const { return f.divisors; }
};

/// The output planes of a decode and what fills them.
struct Decoded {
    std::vector<std::uint8_t> codes, scales, divisors, values;
};

std::int32_t emit(const Call &x, const Decoded &d) {
    std::int32_t status = NINFER_OK;
    if (x.c->op == NINFER_OP_payload_validate) return NINFER_OK;
    std::vector<std::pair<std::uint32_t, const std::vector<std::uint8_t> *>> planes = {{NINFER_PLANE_CODES, &d.codes},
                                                                                        {NINFER_PLANE_SCALES, &d.scales}};
    if (x.nvfp4()) planes.push_back({NINFER_PLANE_DIVISORS, &d.divisors});
    if (x.c->op == NINFER_OP_quant_decode) planes.push_back({NINFER_PLANE_VALUES, &d.values});
    for (const auto &[name, bytes] : planes) {
        ninfer_output_plane *out = require_output(x.c, x.r, name, status);
        if (!out) return status;
        if (!put(out, bytes->data(), bytes->size()))
            return fail(x.r, NINFER_E_BUFFER, fmt::format("output plane `{}` holds {} bytes, {} needed", abi::plane_name(name),
                                                          out->capacity, bytes->size()));
    }
    return NINFER_OK;
}

/// layout_decode, quant_decode, payload_validate: the decode boundary (validate, then decode).
std::int32_t do_decode(const Call &x) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *payload = require_input(x.c, x.r, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    // Every output plane is present before a byte is decoded.
    if (x.c->op != NINFER_OP_payload_validate) {
        std::vector<std::uint32_t> names = {NINFER_PLANE_CODES, NINFER_PLANE_SCALES};
        if (x.nvfp4()) names.push_back(NINFER_PLANE_DIVISORS);
        if (x.c->op == NINFER_OP_quant_decode) names.push_back(NINFER_PLANE_VALUES);
        for (const auto name : names)
            if (!require_output(x.c, x.r, name, status)) return status;
    }
    const auto bytes = plane_bytes(payload);
    Decoded d;
    if (x.nvfp4()) {
        std::uint64_t divisors = 0;
        if (auto o = nvfp4_payload_divisors(x.n, x.k, bytes.size(), divisors); o.status != NINFER_OK) return fail(x.r, o);
        Nvfp4Planes p;
        if (auto o = nvfp4_unpack(x.n, x.k, divisors, bytes, p, x.rules); o.status != NINFER_OK) return fail(x.r, o);
        if (x.c->op == NINFER_OP_quant_decode) d.values = le_bytes(nvfp4_values(x.n, x.k, p, x.rules));
        d.codes = std::move(p.codes);
        d.scales = std::move(p.scales);
        d.divisors = le_bytes(p.divisors);
    } else {
        Fp8RowPlanes p;
        if (auto o = fp8_row_unpack(x.f.id, x.n, x.k, bytes, p, x.rules); o.status != NINFER_OK) return fail(x.r, o);
        if (x.c->op == NINFER_OP_quant_decode) d.values = le_bytes(fp8_row_values(x.f.id, x.n, x.k, p));
        d.codes = std::move(p.codes);
        d.scales = le_bytes(p.scales);
    }
    return emit(x, d);
}

std::int32_t do_layout_encode(const Call &x) {
    if (x.c->format_in != 0 && x.c->format_in != x.f.id)
        return fail(x.r, NINFER_E_CONVERSION,
                    fmt::format("layout_encode offers {} words for a {} tensor", format_label(x.c->format_in), x.f.name));
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *codes = nullptr, *scales = nullptr, *divisors = nullptr;
    ninfer_output_plane *payload = nullptr;
    if (!(codes = require_input(x.c, x.r, NINFER_PLANE_CODES, status)) ||
        !(scales = require_input(x.c, x.r, NINFER_PLANE_SCALES, status)) ||
        (x.nvfp4() && !(divisors = require_input(x.c, x.r, NINFER_PLANE_DIVISORS, status))) ||
        !(payload = require_output(x.c, x.r, NINFER_PLANE_PAYLOAD, status)))
        return status;
    const std::uint64_t nk = x.n * x.k;  // no overflow: the shape's geometry was checked
    std::vector<std::uint8_t> out;
    if (x.nvfp4()) {
        const std::uint64_t d = divisors->bytes / 4;
        if (divisors->bytes % 4 != 0 || d == 0 || x.n % d != 0)
            return fail_size(x.r, fmt::format("divisors holds {} bytes: not a whole number of binary32 words dividing N={}",
                                              divisors->bytes, x.n));
        if (codes->bytes != nk || scales->bytes != nk / 16)
            return fail_size(x.r, fmt::format("codes ({} bytes) or scales ({} bytes) do not match [{},{}]: {} and {} needed",
                                              codes->bytes, scales->bytes, x.n, x.k, nk, nk / 16));
        const auto c = plane_bytes(codes), s = plane_bytes(scales);
        const Nvfp4Planes p{{c.begin(), c.end()}, {s.begin(), s.end()}, le_words<std::uint32_t>(plane_bytes(divisors))};
        if (auto o = nvfp4_pack(x.n, x.k, p, out, x.rules); o.status != NINFER_OK) return fail(x.r, o);
    } else {
        if (codes->bytes != nk || scales->bytes != 2 * x.n)
            return fail_size(x.r, fmt::format("codes ({} bytes) or scales ({} bytes) do not match [{},{}]: {} and {} needed",
                                              codes->bytes, scales->bytes, x.n, x.k, nk, 2 * x.n));
        const auto c = plane_bytes(codes);
        const Fp8RowPlanes p{{c.begin(), c.end()}, le_words<std::uint16_t>(plane_bytes(scales))};
        if (auto o = fp8_row_pack(x.f.id, x.n, x.k, p, out, x.rules); o.status != NINFER_OK) return fail(x.r, o);
    }
    if (!put(payload, out.data(), out.size()))
        return fail(x.r, NINFER_E_BUFFER, fmt::format("payload holds {} bytes, {} needed", payload->capacity, out.size()));
    return NINFER_OK;
}

std::int32_t do_quant_encode(const Call &x) {
    const auto *e = abi::find_id(abi::kEncoders, x.c->method);
    if (!e) return fail(x.r, NINFER_E_UNSUPPORTED, fmt::format("unknown encoder method {}", x.c->method));
    if (e->id != x.f.encoder) return fail(x.r, NINFER_E_METHOD, fmt::format("encoder {} does not target {}", e->name, x.f.name));
    const std::uint32_t src = x.c->format_in;
    if (src != NINFER_FORMAT_fp32 && (x.nvfp4() || (src != NINFER_FORMAT_bf16 && src != NINFER_FORMAT_fp16)))
        return fail(x.r, NINFER_E_INVALID_ARGUMENT,
                    fmt::format("{} takes {} source words, not {}", e->name, x.nvfp4() ? "fp32" : "fp32, bf16 or fp16", format_label(src)));
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *source = require_input(x.c, x.r, NINFER_PLANE_SOURCE, status);
    if (!source) return status;
    ninfer_output_plane *payload = require_output(x.c, x.r, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    const std::uint64_t width = src == NINFER_FORMAT_fp32 ? 4 : 2;
    std::uint64_t need = 0;
    if (__builtin_mul_overflow(x.n * x.k, width, &need)) return fail_size(x.r, fmt::format("[{},{}] overflows uint64 sizes", x.n, x.k));
    if (source->bytes != need)
        return fail(x.r, NINFER_E_INVALID_ARGUMENT, fmt::format("source holds {} bytes, [{},{}] {} words need {}", source->bytes,
                                                                x.n, x.k, format_label(src), need));
    const auto bytes = plane_bytes(source);
    const std::vector<std::uint32_t> words = width == 4 ? le_words<std::uint32_t>(bytes) : [&] {
        const auto h = le_words<std::uint16_t>(bytes);
        return std::vector<std::uint32_t>(h.begin(), h.end());
    }();
    std::vector<std::uint8_t> out;
    if (x.nvfp4()) {
        Nvfp4Planes p;
        if (auto o = nvfp4_two_level_encode(x.n, x.k, words, p); o.status != NINFER_OK) return fail(x.r, o);
        if (auto o = nvfp4_pack(x.n, x.k, p, out, x.rules); o.status != NINFER_OK) return fail(x.r, o);
    } else {
        Fp8RowPlanes p;
        if (auto o = fp8_row_maxabs_encode(x.f.id, src, x.n, x.k, words, p, x.rules.fp8_row_maxabs); o.status != NINFER_OK)
            return fail(x.r, o);
        if (auto o = fp8_row_pack(x.f.id, x.n, x.k, p, out, x.rules); o.status != NINFER_OK) return fail(x.r, o);
    }
    if (!put(payload, out.data(), out.size()))
        return fail(x.r, NINFER_E_BUFFER, fmt::format("payload holds {} bytes, {} needed", payload->capacity, out.size()));
    return NINFER_OK;
}

std::int32_t do_rows_select(const Call &x) {
    std::int32_t status = NINFER_OK;
    const ninfer_input_plane *parent = nullptr, *rows_in = nullptr;
    ninfer_output_plane *payload = nullptr;
    if (!(parent = require_input(x.c, x.r, NINFER_PLANE_PAYLOAD, status)) ||
        !(rows_in = require_input(x.c, x.r, NINFER_PLANE_ROWS, status)) ||
        !(payload = require_output(x.c, x.r, NINFER_PLANE_PAYLOAD, status)))
        return status;
    // The parent's size first: nothing the caller counted is trusted before it.
    std::uint64_t divisors = 0;
    if (x.nvfp4()) {
        if (auto o = nvfp4_payload_divisors(x.n, x.k, parent->bytes, divisors); o.status != NINFER_OK) return fail(x.r, o);
    } else {
        std::uint64_t bytes = 0;
        if (auto o = fp8_row_payload_bytes(x.f.id, x.n, x.k, bytes); o.status != NINFER_OK) return fail(x.r, o);
        if (parent->bytes != bytes) return fail_size(x.r, fmt::format("parent payload is {} bytes, the geometry needs {}", parent->bytes, bytes));
    }
    if (rows_in->bytes % 8 != 0) return fail(x.r, NINFER_E_INVALID_ARGUMENT, "row indices must be uint64 words");
    const auto index = le_words<std::uint64_t>(plane_bytes(rows_in));
    std::vector<std::uint64_t> rows;
    if (x.c->flags & NINFER_FLAG_GATHER) {
        if (index.empty()) return fail(x.r, NINFER_E_INVALID_ARGUMENT, "an empty gather selects no rows");
        rows = index;
    } else {
        if (index.size() != 2) return fail(x.r, NINFER_E_INVALID_ARGUMENT, "a slice needs {first_row, row_count}");
        const std::uint64_t first = index[0], count = index[1];
        if (count == 0) return fail(x.r, NINFER_E_INVALID_ARGUMENT, "a slice of zero rows selects nothing");
        if (count > x.n || first > x.n - count)
            return fail(x.r, NINFER_E_INVALID_ARGUMENT, fmt::format("slice [{}, +{}) is past N={}", first, count, x.n));
        for (std::uint64_t i = 0; i < count; ++i) rows.push_back(first + i);
    }
    std::vector<std::uint8_t> out;
    const auto o = x.nvfp4() ? nvfp4_select_rows(x.n, x.k, divisors, plane_bytes(parent), rows, out, x.rules)
                             : fp8_row_select_rows(x.f.id, x.n, x.k, plane_bytes(parent), rows, out);
    if (o.status != NINFER_OK) return fail(x.r, o);
    if (!put(payload, out.data(), out.size()))
        return fail(x.r, NINFER_E_BUFFER, fmt::format("payload holds {} bytes, the selection needs {}", payload->capacity, out.size()));
    return NINFER_OK;
}

}  // namespace

std::span<const ninfer_capability_v2> scaled_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

bool is_scaled_call(const ninfer_call_v2 *call) { return call && (find_scaled(call->format) || scaled_layout(call->layout)); }

std::int32_t scaled_call(const ninfer_call_v2 *c, ninfer_result_v2 *r, const ScaledRules &rules) {
    if (!c || !r) return NINFER_E_INVALID_ARGUMENT;
    const auto *op = abi::find_id(abi::kOps, c->op);
    const std::string op_name = op ? std::string(op->name) : fmt::format("op#{}", c->op);
    bool defined = c->op == NINFER_OP_quant_encode;
    for (const auto o : kPayloadOps) defined = defined || o == c->op;
    if (!defined) return fail(r, NINFER_E_UNSUPPORTED, fmt::format("{} is not defined for {}", op_name, format_label(c->format)));
    // 1. storage-layouts.md Section 1: the pair is resolved by name before any plane is read.
    const ScaledFormat *f = find_scaled(c->format);
    if (!f || c->layout != f->layout)
        return fail(r, NINFER_E_LAYOUT,
                    fmt::format("format/layout pair {}/{} is not registered", format_label(c->format), layout_label(c->layout)));
    // 2. The shape: rank two, then the geometry.
    if (c->rank != 2) return fail(r, NINFER_E_INVALID_ARGUMENT, fmt::format("{} needs a rank-two shape [N,K], not rank {}", f->name, c->rank));
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    std::uint64_t bytes = 0;
    const auto shape = f->divisors ? nvfp4_payload_bytes(n, k, 1, bytes) : fp8_row_payload_bytes(f->id, n, k, bytes);
    if (shape.status != NINFER_OK) return fail(r, shape);
    const Call x{*f, c, r, rules, n, k};
    switch (c->op) {
    case NINFER_OP_layout_encode: return do_layout_encode(x);
    case NINFER_OP_quant_encode: return do_quant_encode(x);
    case NINFER_OP_rows_select: return do_rows_select(x);
    default: return do_decode(x);
    }
}

const ReferenceFamily kScaledReference = {.family = abi::Family::scaled,
                                          .claims = [](const ninfer_call_v2 *c) { return family_op(c) && is_scaled_call(c); },
                                          .serve = [](const ninfer_call_v2 *c, ninfer_result_v2 *r) { return scaled_call(c, r); },
                                          .capabilities = scaled_capabilities};

}  // namespace ninfer::reference
