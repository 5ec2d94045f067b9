// SPDX-License-Identifier: Apache-2.0
// cuda_device's tensor ops (plugin.h ABI v2): quant_decode, quant_encode (grouped_absmax,
// fp8_row_maxabs) and linear (f32_accumulate). The host checks each call in the order the
// families' call semantics give (pair, shape, planes, sizes, payload validity: weight_view.cpp),
// then the device decodes, encodes or multiplies (tensor_kernels.cu).
#include "tensor_ops.hpp"

#include <cstring>

#include "device_memory.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "tensor_kernels.cuh"
#include "weight_view.hpp"
#include "word_plugin.hpp"

namespace ninfer::gpu {

namespace {

constexpr std::uint32_t kSources[] = {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};

std::int32_t fail(ninfer_result *r, const Refusal &x) {
    if (x.detail && NINFER_HAS_FIELD(r, ninfer_result, detail)) r->detail = x.detail;
    return refuse(r, x.status, x.message);
}

/// abi::format_label, except that id 0 keeps the "format#0" the cuda plugins' reports have always shown.
std::string format_label(std::uint32_t id) { return id == 0 ? std::string("format#0") : abi::format_label(id); }

std::string shape_text(const WeightView &v) { return "[" + std::to_string(v.n) + "," + std::to_string(v.k) + "]"; }

int source_width(std::uint32_t format) { return format == NINFER_FORMAT_fp32 ? 4 : 2; }
bool source_format(std::uint32_t format) {
    return format == NINFER_FORMAT_fp32 || format == NINFER_FORMAT_bf16 || format == NINFER_FORMAT_fp16;
}

/// Step 1 of every tensor call: the pair (E_LAYOUT before any plane is read), then whether the
/// device has a decoder of the format (else unsupported).
bool check_pair(const ninfer_call *c, ninfer_result *r, std::int32_t &status) {
    const std::uint32_t layout = weight_layout(c->format);
    if (layout == 0) {
        status = refuse(r, NINFER_E_UNSUPPORTED, format_label(c->format) + " is no weight format of cuda_device");
        return false;
    }
    if (c->layout != layout) {
        status = refuse(r, NINFER_E_LAYOUT, "format/layout pair " + format_label(c->format) + "/" +
                                                 std::string(abi::layout_name(c->layout)) + " is not registered");
        return false;
    }
    if (!device_weight_format(c->format)) {
        status = refuse(r, NINFER_E_UNSUPPORTED, "cuda_device has no device decoder of " + format_label(c->format));
        return false;
    }
    return true;
}

/// Copies `bytes` from device memory into an output plane and sets `written`.
std::int32_t download(ninfer_result *r, ninfer_output_plane *out, const void *d_src, std::uint64_t bytes) {
    if (bytes) {
        if (cudaError_t e = cudaMemcpy(out->data, d_src, bytes, cudaMemcpyDeviceToHost); e != cudaSuccess)
            return cuda_failed(r, "cudaMemcpy(out)", e);
    }
    out->written = bytes;
    return NINFER_OK;
}

/// Uploads an input plane's bytes into a fresh device buffer.
std::int32_t upload(ninfer_result *r, DeviceBuffer &d, const ninfer_input_plane *in, const char *what) {
    if (cudaError_t e = d.alloc(in->bytes); e != cudaSuccess) return cuda_failed(r, what, e);
    if (in->bytes) {
        if (cudaError_t e = cudaMemcpy(d.p, in->data, in->bytes, cudaMemcpyHostToDevice); e != cudaSuccess)
            return cuda_failed(r, what, e);
    }
    return NINFER_OK;
}

std::int32_t synchronize(ninfer_result *r, cudaError_t launch) {
    if (launch != cudaSuccess) return cuda_failed(r, "kernel launch", launch);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_failed(r, "kernel", e);
    return NINFER_OK;
}

const ninfer_input_plane *input(const ninfer_call *c, ninfer_result *r, std::uint32_t name, std::int32_t &status) {
    const ninfer_input_plane *p = ninfer_find_input(c, name);
    if (!p) status = refuse(r, NINFER_E_INVALID_ARGUMENT, "the call has no input plane `" + std::string(abi::plane_name(name)) + "`");
    else if (p->bytes && !p->data) {
        status = refuse(r, NINFER_E_INVALID_ARGUMENT, "input plane `" + std::string(abi::plane_name(name)) + "` is null");
        p = nullptr;
    }
    return p;
}

ninfer_output_plane *output(const ninfer_call *c, ninfer_result *r, std::uint32_t name, std::int32_t &status) {
    ninfer_output_plane *p = ninfer_find_output(c, name);
    if (!p) status = refuse(r, NINFER_E_INVALID_ARGUMENT, "the call has no output plane `" + std::string(abi::plane_name(name)) + "`");
    return p;
}

bool fits(const ninfer_output_plane *p, std::uint64_t bytes) { return p->capacity >= bytes && (bytes == 0 || p->data); }

std::int32_t too_small(ninfer_result *r, const ninfer_output_plane *p, std::uint64_t bytes) {
    return refuse(r, NINFER_E_BUFFER, "output plane `" + std::string(abi::plane_name(p->name)) + "` holds " +
                                          std::to_string(p->capacity) + " bytes, " + std::to_string(bytes) + " needed");
}

/// Copies host bytes into an output plane (checked to fit) and sets `written`.
void put(ninfer_output_plane *p, const std::vector<std::uint8_t> &bytes) {
    if (!bytes.empty()) std::memcpy(p->data, bytes.data(), bytes.size());
    p->written = bytes.size();
}

}  // namespace

std::vector<ninfer_capability> tensor_capabilities() {
    std::vector<ninfer_capability> caps;
    if (!cuda_device_unusable().empty()) return caps;
    for (const auto &f : abi::kAllFormats) {
        if (!device_weight_format(f.id)) continue;
        caps.push_back({NINFER_OP_quant_decode, f.id, 0, f.layout, 0, 0});
        caps.push_back({NINFER_OP_linear, f.id, 0, f.layout, 0, NINFER_PROFILE_f32_accumulate});
        if (f.family == abi::Family::gguf) caps.push_back({NINFER_OP_linear, f.id, 0, f.layout, 0, NINFER_PROFILE_gguf_q8_1_f32});
        std::uint32_t encoder = 0;
        if (const auto *g = abi::find_id(abi::kGroupedFormats, f.id); g && g->canonical_encoders) encoder = NINFER_ENCODER_grouped_absmax;
        if (const auto *s = abi::find_id(abi::kScaledFormats, f.id); s && s->encoder == NINFER_ENCODER_fp8_row_maxabs)
            encoder = NINFER_ENCODER_fp8_row_maxabs;
        if (encoder)
            for (const auto src : kSources) caps.push_back({NINFER_OP_quant_encode, f.id, src, f.layout, encoder, 0});
    }
    return caps;
}

std::int32_t op_quant_decode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    if (!cuda_device_unusable().empty()) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device " + cuda_device_unusable());
    std::int32_t status = NINFER_OK;
    if (!check_pair(c, r, status)) return status;
    const bool gguf = abi::find_id(abi::kGgufTypes, c->format) != nullptr;
    if (!gguf && c->rank != 2)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, format_label(c->format) + " needs a rank-two shape [N,K], not rank " + std::to_string(c->rank));
    WeightView v;
    if (const auto x = weight_geometry(c->format, c->shape, c->rank, v)) return fail(r, x);
    const ninfer_input_plane *payload = input(c, r, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    ninfer_output_plane *codes = nullptr, *scales = nullptr, *divisors = nullptr, *values = nullptr;
    if (!gguf && (!(codes = output(c, r, NINFER_PLANE_CODES, status)) || !(scales = output(c, r, NINFER_PLANE_SCALES, status))))
        return status;
    if (v.kind == WeightKind::nvfp4 && !(divisors = output(c, r, NINFER_PLANE_DIVISORS, status))) return status;
    if (!(values = output(c, r, NINFER_PLANE_VALUES, status))) return status;
    // The decode boundary on the host: size, then validity; nothing is decoded when refused.
    if (const auto x = weight_payload_size(v, payload->bytes)) return fail(r, x);
    const auto *bytes = static_cast<const std::uint8_t *>(payload->data);
    if (const auto x = weight_validate(v, bytes)) return fail(r, x);
    std::vector<std::uint8_t> code_bytes, scale_bytes, divisor_bytes;
    weight_unpack(v, bytes, code_bytes, scale_bytes, divisor_bytes);
    const std::uint64_t value_bytes = v.n * v.k * 4;
    if (codes && !fits(codes, code_bytes.size())) return too_small(r, codes, code_bytes.size());
    if (scales && !fits(scales, scale_bytes.size())) return too_small(r, scales, scale_bytes.size());
    if (divisors && !fits(divisors, divisor_bytes.size())) return too_small(r, divisors, divisor_bytes.size());
    if (!fits(values, value_bytes)) return too_small(r, values, value_bytes);
    // The values on the device.
    DeviceBuffer d_payload, d_values;
    if (const auto s = upload(r, d_payload, payload, "cudaMalloc/cudaMemcpy(payload)"); s != NINFER_OK) return s;
    if (cudaError_t e = d_values.alloc(value_bytes); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(values)", e);
    if (const auto s = synchronize(r, launch_weight_values(v, d_payload.bytes(), d_values.as<float>())); s != NINFER_OK) return s;
    if (const auto s = download(r, values, d_values.p, value_bytes); s != NINFER_OK) return s;
    if (codes) put(codes, code_bytes);
    if (scales) put(scales, scale_bytes);
    if (divisors) put(divisors, divisor_bytes);
    return NINFER_OK;
}

std::int32_t op_quant_encode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    if (!cuda_device_unusable().empty()) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device " + cuda_device_unusable());
    std::int32_t status = NINFER_OK;
    if (!check_pair(c, r, status)) return status;
    if (c->rank != 2)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, format_label(c->format) + " needs a rank-two shape [N,K], not rank " + std::to_string(c->rank));
    const auto *grouped = abi::find_id(abi::kGroupedFormats, c->format);
    const auto *scaled = abi::find_id(abi::kScaledFormats, c->format);
    if (!grouped && !scaled) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device has no device encoder of " + format_label(c->format));
    // The format's own encoder, and the one the device implements (nvfp4_two_level: none).
    const std::uint32_t encoder = grouped ? std::uint32_t{NINFER_ENCODER_grouped_absmax} : scaled ? scaled->encoder : 0u;
    const std::uint32_t on_device = scaled && scaled->encoder != NINFER_ENCODER_fp8_row_maxabs ? 0 : encoder;
    const auto *method = abi::find_id(abi::kEncoders, c->method);
    WeightView v;
    // Grouped formats judge the method first and refuse a zero dimension as a malformed call;
    // scaled formats judge the geometry first (E_SIZE), as the families' call semantics order them.
    const bool geometry_first = scaled != nullptr;
    auto geometry = [&]() -> std::int32_t {
        const auto x = weight_geometry(c->format, c->shape, c->rank, v);
        if (!x) return NINFER_OK;
        if (grouped && (c->shape[0] == 0 || c->shape[1] == 0))
            return refuse(r, NINFER_E_INVALID_ARGUMENT, "the encoder needs a positive rank-two [N,K]");
        return fail(r, x);
    };
    if (geometry_first)
        if (const auto s = geometry(); s != NINFER_OK) return s;
    if (!method) return refuse(r, NINFER_E_UNSUPPORTED, "unknown encoder method " + std::to_string(c->method));
    // q2 and t2 have no canonical encoder: every encoder method is the wrong one for them.
    if (method->family != (grouped ? abi::Family::grouped : abi::Family::scaled) || (scaled && method->id != encoder) ||
        (grouped && !grouped->canonical_encoders))
        return refuse(r, NINFER_E_METHOD, std::string(method->name) + " does not target " + format_label(c->format));
    if (method->id != on_device)
        return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device has no device encoder " + std::string(method->name) + " of " +
                                                   format_label(c->format));
    if (!geometry_first)
        if (const auto s = geometry(); s != NINFER_OK) return s;
    if (!source_format(c->format_in))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, std::string(method->name) + " takes fp32, bf16 or fp16 source words, not " +
                                                        format_label(c->format_in));
    const ninfer_input_plane *source = input(c, r, NINFER_PLANE_SOURCE, status);
    if (!source) return status;
    ninfer_output_plane *payload = output(c, r, NINFER_PLANE_PAYLOAD, status);
    if (!payload) return status;
    const std::uint64_t need = v.n * v.k * static_cast<std::uint64_t>(source_width(c->format_in));
    if (source->bytes != need)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "source holds " + std::to_string(source->bytes) + " bytes, " + shape_text(v) +
                                                        " " + format_label(c->format_in) + " words need " + std::to_string(need));
    const std::uint64_t units = grouped ? v.n * v.logical_groups : v.n;
    DeviceBuffer d_source, d_payload, d_status;
    if (const auto s = upload(r, d_source, source, "cudaMalloc/cudaMemcpy(source)"); s != NINFER_OK) return s;
    if (cudaError_t e = d_payload.alloc(v.payload_bytes); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(payload)", e);
    if (cudaError_t e = cudaMemset(d_payload.p, 0, v.payload_bytes); e != cudaSuccess) return cuda_failed(r, "cudaMemset(payload)", e);
    if (cudaError_t e = d_status.alloc(units); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(status)", e);
    const cudaError_t launch = grouped ? launch_grouped_absmax(v, c->format_in, d_source.bytes(), d_payload.bytes(), d_status.bytes())
                                       : launch_fp8_row_maxabs(v, c->format_in, d_source.bytes(), d_payload.bytes(), d_status.bytes());
    if (const auto s = synchronize(r, launch); s != NINFER_OK) return s;
    std::vector<std::uint8_t> unit_status(units);
    if (cudaError_t e = cudaMemcpy(unit_status.data(), d_status.p, units, cudaMemcpyDeviceToHost); e != cudaSuccess)
        return cuda_failed(r, "cudaMemcpy(status)", e);
    // grouped_absmax converts the whole source before any group (a non-finite value anywhere
    // refuses first); fp8_row_maxabs refuses with the first refused row.
    const char *unit = grouped ? "group" : "row";
    std::uint64_t first_nonfinite = units, first_overflow = units;
    for (std::uint64_t i = units; i-- > 0;) {
        if (unit_status[i] == 1) first_nonfinite = i;
        if (unit_status[i] == 2) first_overflow = i;
    }
    const bool nonfinite_first = grouped ? first_nonfinite < units : first_nonfinite < first_overflow;
    if (nonfinite_first)
        return refuse(r, NINFER_E_NONFINITE, std::string("a non-finite source value in ") + unit + " " + std::to_string(first_nonfinite));
    if (first_overflow < units)
        return refuse(r, NINFER_E_SCALE_OVERFLOW, std::string("the scale of ") + unit + " " + std::to_string(first_overflow) + " overflows");
    if (!fits(payload, v.payload_bytes)) return too_small(r, payload, v.payload_bytes);
    return download(r, payload, d_payload.p, v.payload_bytes);
}

std::int32_t op_linear(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    if (!cuda_device_unusable().empty()) return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device " + cuda_device_unusable());
    // 1. The weight format and its layout.
    std::int32_t status = NINFER_OK;
    if (!check_pair(c, r, status)) return status;
    // 2. The shape: rank two, positive N, K, M, the format's geometry, sizes within uint64.
    if (c->rank != 2) return refuse(r, NINFER_E_INVALID_ARGUMENT, "linear needs a rank-two weight shape {N, K}");
    WeightView v;
    if (const auto x = weight_geometry(c->format, c->shape, c->rank, v)) return fail(r, x);
    const std::uint64_t m = c->count;
    std::uint64_t mk = 0, mn = 0, act_need = 0, out_need = 0;
    if (m == 0) return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "M (count) is 0"});
    if (__builtin_mul_overflow(m, v.k, &mk) || __builtin_mul_overflow(m, v.n, &mn) ||
        __builtin_mul_overflow(mk, std::uint64_t{4}, &act_need) || __builtin_mul_overflow(mn, std::uint64_t{4}, &out_need))
        return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "M x K or M x N overflows uint64 sizes"});
    // 3. The profile: f32_accumulate (fp32 / bf16 / fp16 activations) or, for GGUF weights,
    //    gguf_q8_1_f32 (fp32 activations); fp32 output.
    const ninfer_input_plane *act = ninfer_find_input(c, NINFER_PLANE_ACTIVATION);
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_OUTPUT);
    const bool q8_1 = c->profile == NINFER_PROFILE_gguf_q8_1_f32;
    if (c->profile != NINFER_PROFILE_f32_accumulate && !q8_1)
        return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device computes linear under f32_accumulate and gguf_q8_1_f32 only, not profile " +
                                                   std::to_string(c->profile));
    if (q8_1 && v.kind != WeightKind::gguf)
        return refuse(r, NINFER_E_UNSUPPORTED, "gguf_q8_1_f32 takes GGUF weights, not " + format_label(c->format));
    if (act && (q8_1 ? act->format != NINFER_FORMAT_fp32 : !source_format(act->format)))
        return refuse(r, NINFER_E_UNSUPPORTED, std::string(q8_1 ? "gguf_q8_1_f32 takes fp32" : "f32_accumulate takes fp32, bf16 or fp16") +
                                                   " activations, not " + format_label(act->format));
    if (out && out->format != NINFER_FORMAT_fp32)
        return refuse(r, NINFER_E_UNSUPPORTED, "cuda_device's linear gives fp32 output, not " + format_label(out->format));
    // 4. Planes and their sizes.
    const ninfer_input_plane *payload = ninfer_find_input(c, NINFER_PLANE_PAYLOAD);
    if (!act || !payload || !out) return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "linear needs payload, activation and output planes"});
    if (source_width(act->format) == 2) act_need /= 2;
    if (act->bytes != act_need || (act_need && !act->data))
        return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "activation holds " + std::to_string(act->bytes) + " bytes, " +
                                                               std::to_string(act_need) + " needed"});
    if (out->capacity < out_need || !out->data)
        return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "output holds " + std::to_string(out->capacity) + " bytes, " +
                                                               std::to_string(out_need) + " needed"});
    if (payload->bytes && !payload->data) return fail(r, {NINFER_E_SIZE, NINFER_DETAIL_SIZE, "payload is null"});
    if (const auto x = weight_payload_size(v, payload->bytes)) return fail(r, x);
    // 5. The payload's decode boundary.
    if (const auto x = weight_validate(v, static_cast<const std::uint8_t *>(payload->data))) return fail(r, x);
    // 6. The product on the device.
    DeviceBuffer d_payload, d_act, d_out, d_scratch;
    if (const auto s = upload(r, d_payload, payload, "cudaMalloc/cudaMemcpy(payload)"); s != NINFER_OK) return s;
    if (const auto s = upload(r, d_act, act, "cudaMalloc/cudaMemcpy(activation)"); s != NINFER_OK) return s;
    if (cudaError_t e = d_out.alloc(out_need); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(output)", e);
    if (q8_1) {
        if (cudaError_t e = d_scratch.alloc(act_need); e != cudaSuccess) return cuda_failed(r, "cudaMalloc(q8_1 activation)", e);
    }
    const cudaError_t launch = q8_1 ? launch_linear_q8_1(v, d_payload.bytes(), d_act.bytes(), m, d_scratch.as<float>(), d_out.as<float>())
                                    : launch_linear_f32(v, d_payload.bytes(), act->format, d_act.bytes(), m, d_out.as<float>());
    if (const auto s = synchronize(r, launch); s != NINFER_OK) return s;
    return download(r, out, d_out.p, out_need);
}

}  // namespace ninfer::gpu
