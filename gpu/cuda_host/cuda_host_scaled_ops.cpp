// SPDX-License-Identifier: Apache-2.0
// cuda_host's scaled-format ops (plugin.h ABI v2; harness/README.md planes): quant_decode of nvfp4
// and the FP8 row formats, quant_encode fp8_row_maxabs. Payloads are unpacked and packed by the
// reference plugin's codecs (scaled_codec.hpp, validation included); every value and code comes
// from NVIDIA's conversions (cuda_host_scaled.hpp).
#include "cuda_host_scaled_ops.hpp"

#include <cstring>
#include <string>

#include "cuda_host_scaled.hpp"
#include "scaled_codec.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "word_plugin.hpp"

namespace ninfer::gpu {
namespace {

constexpr std::uint32_t kSources[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};

std::uint32_t load(std::span<const std::uint8_t> b, std::uint64_t i, int bytes) {
    return static_cast<std::uint32_t>(abi::load_le(&b[i * bytes], bytes));
}

/// Copy words of `bytes` bytes into an output plane; false when it does not fit.
template <class Word>
bool put(ninfer_output_plane *o, const std::vector<Word> &words, int bytes) {
    const std::uint64_t need = words.size() * static_cast<std::uint64_t>(bytes);
    if (!o || need > o->capacity || (need && !o->data)) return false;
    auto *p = static_cast<std::uint8_t *>(o->data);
    for (std::size_t i = 0; i < words.size(); ++i)
        abi::store_le(p + i * bytes, static_cast<std::uint64_t>(words[i]), bytes);
    o->written = need;
    return true;
}

std::span<const std::uint8_t> bytes_of(const ninfer_input_plane *p) {
    return p && p->data ? std::span<const std::uint8_t>(static_cast<const std::uint8_t *>(p->data), p->bytes)
                        : std::span<const std::uint8_t>{};
}

const abi::ScaledFormat *scaled_pair(const ninfer_call *c) {
    const auto *f = abi::find_id(abi::kScaledFormats, c->format);
    return f && f->layout == c->layout ? f : nullptr;
}

/// nvfp4's divisor count from the payload size (FAMILY_CONTRACT: D = (bytes - divisor offset) / 4).
std::int32_t nvfp4_divisors(std::uint64_t n, std::uint64_t k, std::uint64_t bytes, std::uint64_t &d) {
    std::uint64_t one = 0;
    if (reference::nvfp4_payload_bytes(n, k, 1, one).status != NINFER_OK) return NINFER_E_SIZE;
    const std::uint64_t divisor_offset = one - 4;
    if (bytes <= divisor_offset || (bytes - divisor_offset) % 4 != 0) return NINFER_E_SIZE;
    d = (bytes - divisor_offset) / 4;
    return n % d == 0 ? NINFER_OK : NINFER_E_SIZE;
}

}  // namespace

void append_scaled_capabilities(std::vector<ninfer_capability> &caps) {
    for (const auto &f : abi::kScaledFormats) {
        caps.push_back({NINFER_OP_quant_decode, f.id, 0, f.layout, 0, 0});
        if (f.encoder == NINFER_ENCODER_fp8_row_maxabs)
            for (auto src : kSources) caps.push_back({NINFER_OP_quant_encode, f.id, src, f.layout, f.encoder, 0});
    }
}

std::int32_t cuda_host_quant_decode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    const auto *f = scaled_pair(c);
    if (!f) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_host decodes nvfp4 and the FP8 row formats in their layouts only");
    if (c->rank != 2) return refuse(r, NINFER_E_INVALID_ARGUMENT, "a rank-two shape [N,K] is needed");
    const ninfer_input_plane *payload = ninfer_find_input(c, NINFER_PLANE_PAYLOAD);
    ninfer_output_plane *codes = ninfer_find_output(c, NINFER_PLANE_CODES), *scales = ninfer_find_output(c, NINFER_PLANE_SCALES),
                        *values = ninfer_find_output(c, NINFER_PLANE_VALUES);
    ninfer_output_plane *divisors = ninfer_find_output(c, NINFER_PLANE_DIVISORS);
    if (!payload || !codes || !scales || !values || (f->divisors && !divisors))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "quant_decode needs the payload plane and the op's output planes");
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    const auto in = bytes_of(payload);
    std::vector<std::uint32_t> v;
    if (f->divisors) {
        std::uint64_t d = 0;
        if (nvfp4_divisors(n, k, in.size(), d) != NINFER_OK) {
            if (NINFER_HAS_FIELD(r, ninfer_result, detail)) r->detail = NINFER_DETAIL_SIZE;
            return refuse(r, NINFER_E_SIZE, "payload size fits no block_scale_k16_m128x4_v1 geometry of this shape");
        }
        reference::Nvfp4Planes planes;
        const auto o = reference::nvfp4_unpack(n, k, d, in, planes);
        if (o.status != NINFER_OK) {
            if (NINFER_HAS_FIELD(r, ninfer_result, detail)) r->detail = o.detail;
            return refuse(r, o.status, o.message);
        }
        v = nvidia_nvfp4_values(n, k, planes.codes, planes.scales, planes.divisors);
        if (!put(codes, planes.codes, 1) || !put(scales, planes.scales, 1) || !put(divisors, planes.divisors, 4) ||
            !put(values, v, 4))
            return refuse(r, NINFER_E_BUFFER, "an output plane is too small");
        return NINFER_OK;
    }
    reference::Fp8RowPlanes planes;
    const auto o = reference::fp8_row_unpack(f->id, n, k, in, planes);
    if (o.status != NINFER_OK) {
        if (NINFER_HAS_FIELD(r, ninfer_result, detail)) r->detail = o.detail;
        return refuse(r, o.status, o.message);
    }
    v = nvidia_fp8_row_values(n, k, planes.codes, planes.scales, f->scale_format == NINFER_FORMAT_bf16);
    if (!put(codes, planes.codes, 1) || !put(scales, planes.scales, 2) || !put(values, v, 4))
        return refuse(r, NINFER_E_BUFFER, "an output plane is too small");
    return NINFER_OK;
}

std::int32_t cuda_host_quant_encode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    const auto *f = scaled_pair(c);
    if (!f || f->encoder != NINFER_ENCODER_fp8_row_maxabs)
        return refuse(r, NINFER_E_UNSUPPORTED, "cuda_host encodes the FP8 row formats only");
    if (c->method != NINFER_ENCODER_fp8_row_maxabs) return refuse(r, NINFER_E_METHOD, "the FP8 row formats take fp8_row_maxabs");
    if (c->rank != 2) return refuse(r, NINFER_E_INVALID_ARGUMENT, "a rank-two shape [N,K] is needed");
    const int width = c->format_in == NINFER_FORMAT_fp32 ? 4 : (c->format_in == NINFER_FORMAT_bf16 || c->format_in == NINFER_FORMAT_fp16) ? 2 : 0;
    if (!width) return refuse(r, NINFER_E_UNSUPPORTED, "sources are fp32, bf16 or fp16");
    const ninfer_input_plane *source = ninfer_find_input(c, NINFER_PLANE_SOURCE);
    ninfer_output_plane *payload = ninfer_find_output(c, NINFER_PLANE_PAYLOAD);
    if (!source || !payload) return refuse(r, NINFER_E_INVALID_ARGUMENT, "quant_encode needs `source` and `payload`");
    const std::uint64_t n = c->shape[0], k = c->shape[1];
    std::uint64_t elements = 0, need = 0;
    if (n == 0 || k == 0 || __builtin_mul_overflow(n, k, &elements) || __builtin_mul_overflow(elements, std::uint64_t(width), &need))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "the shape needs N, K > 0 within uint64 sizes");
    if (source->bytes != need) return refuse(r, NINFER_E_INVALID_ARGUMENT, "source must hold N*K words of format_in");
    const auto in = bytes_of(source);
    reference::Fp8RowPlanes planes;
    planes.codes.reserve(elements);
    std::vector<std::uint32_t> row(k);
    for (std::uint64_t i = 0; i < n; ++i) {
        for (std::uint64_t j = 0; j < k; ++j) row[j] = load(in, i * k + j, width);
        const auto out = nvidia_fp8_row_maxabs(c->format_in, row, f->scale_format == NINFER_FORMAT_bf16);
        if (out.status != NINFER_OK) return refuse(r, out.status, "row " + std::to_string(i) + " refused");
        planes.codes.insert(planes.codes.end(), out.codes.begin(), out.codes.end());
        planes.scales.push_back(out.scale);
    }
    std::vector<std::uint8_t> bytes;
    const auto o = reference::fp8_row_pack(f->id, n, k, planes, bytes);
    if (o.status != NINFER_OK) return refuse(r, o.status, o.message);
    if (!put(payload, bytes, 1)) return refuse(r, NINFER_E_BUFFER, "the payload plane is too small");
    return NINFER_OK;
}

}  // namespace ninfer::gpu
