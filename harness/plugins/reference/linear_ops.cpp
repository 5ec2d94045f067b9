// SPDX-License-Identifier: Apache-2.0
// The reference plugin's `linear` calls (linear_ops.hpp; the contract of issue 13, suites/LINEAR.md
// "Call" and "Check order"): Y = W_hat X^T with W [N,K] (shape {N, K}, `format`, `layout`), X [M,K]
// (count = M, the ACTIVATION plane's words of its format), Y [M,N] (the OUTPUT plane's words of its
// format). Weights are decoded by the reference's family decoders (grouped_codec, scaled_codec,
// gguf_blocks, scalar_decode); the profiles are evaluated by linear_arithmetic.
#include "linear_ops.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "call_planes.hpp"
#include "scalar_codec.hpp"
#include "gguf_blocks.hpp"
#include "grouped_codec.hpp"
#include "linear_arithmetic.hpp"
#include "reference_family.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"

namespace ninfer::reference {

namespace {

namespace ln = linear_arithmetic;
namespace gn = gguf_blocks;

enum class Kind { none, direct, grouped, nvfp4, fp8_row, gguf };

/// The weight family of a format (tensor-formats.txt Section 1; the contract's "Weight formats").
Kind kind_of(std::uint32_t format) {
    // The direct float word formats, and fp16 (the contract names it; read as contiguous_le_v1 words).
    if (const auto *w = abi::find_id(abi::kWordFormats, format))
        return w->exp_bits > 0 && (w->direct || format == NINFER_FORMAT_fp16) ? Kind::direct : Kind::none;
    if (grouped_codec::find_grouped(format)) return Kind::grouped;
    if (format == NINFER_FORMAT_nvfp4) return Kind::nvfp4;
    if (fp8_row_known(format)) return Kind::fp8_row;
    if (abi::find_id(abi::kGgufTypes, format)) return Kind::gguf;
    return Kind::none;
}

double value_of(std::uint32_t format, std::uint64_t word) { return std::bit_cast<double>(scalar_decode(format, word)); }

using abi::format_label;
using abi::layout_label;
using abi::load_le;
using abi::store_le;

std::int32_t fail(ninfer_result_v2 *r, std::int32_t status, const std::string &message, std::uint32_t detail = 0) {
    return refuse_v2(r, status, "linear: " + message, detail);
}
std::int32_t fail_size(ninfer_result_v2 *r, const std::string &message) { return fail(r, NINFER_E_SIZE, message, NINFER_DETAIL_SIZE); }

/// Activation formats a profile takes (all: fp32, bf16, fp16; gguf_q8_1_f32: fp32).
bool activation_taken(std::uint32_t profile, std::uint32_t format) {
    if (profile == NINFER_PROFILE_gguf_q8_1_f32) return format == NINFER_FORMAT_fp32;
    return format == NINFER_FORMAT_fp32 || format == NINFER_FORMAT_bf16 || format == NINFER_FORMAT_fp16;
}

/// Output formats a profile gives (fp32; correctly_rounded: fp32, bf16, fp16).
bool output_given(std::uint32_t profile, std::uint32_t format) {
    if (profile == NINFER_PROFILE_correctly_rounded) return ln::output_format(format).has_value();
    return format == NINFER_FORMAT_fp32;
}

/// The decoded weight of a call: validated planes of its family, one row at a time.
struct Weights {
    Kind kind = Kind::none;
    std::uint32_t format = 0;
    std::uint64_t n = 0, k = 0;
    std::span<const std::uint8_t> payload;
    const LinearRules *rules = nullptr;
    const abi::GroupedFormat *grouped = nullptr;
    grouped_codec::Matrix matrix;
    Nvfp4Planes nvfp4;
    Fp8RowPlanes fp8;
    std::uint64_t gguf_row_bytes = 0, gguf_blocks = 0;
    std::vector<std::uint8_t> scratch;

    /// Row n as binary32 words (the VALUES plane of quant_decode) and exact values (nvfp4: the
    /// numerators e2m1 * e4m3); returns the row's divisor word (nvfp4) or 0.
    std::uint32_t row(std::uint64_t r, float *w32, double *exact);
};

/// The exact values of every word of a small format (e2m1: 16 words, e4m3fn: 256), decoded once.
template <std::uint32_t Format, std::size_t Words>
const std::array<double, Words> &value_table() {
    static const std::array<double, Words> t = [] {
        std::array<double, Words> v{};
        for (std::size_t i = 0; i < Words; ++i) v[i] = value_of(Format, i);
        return v;
    }();
    return t;
}

/// A direct weight word as binary32 (fp32, bf16, fp16 are exact in it; another direct format
/// through its exact value).
float direct_value(std::uint32_t format, std::uint64_t word) {
    switch (format) {
    case NINFER_FORMAT_fp32: return std::bit_cast<float>(static_cast<std::uint32_t>(word));
    case NINFER_FORMAT_bf16: return std::bit_cast<float>(static_cast<std::uint32_t>(word << 16));
    case NINFER_FORMAT_fp16: return gn::fp16_to_f32(static_cast<std::uint16_t>(word));
    default: return static_cast<float>(value_of(format, word));
    }
}

std::uint32_t Weights::row(std::uint64_t r, float *w32, double *exact) {
    switch (kind) {
    case Kind::direct: {
        const int width = abi::find_id(abi::kWordFormats, format)->bytes();
        if (format == NINFER_FORMAT_fp32) {  // binary32 LE words on a little-endian host
            std::memcpy(w32, payload.data() + r * k * 4, static_cast<std::size_t>(k) * 4);
            for (std::uint64_t i = 0; i < k; ++i) exact[i] = w32[i];
            return 0;
        }
        for (std::uint64_t i = 0; i < k; ++i) {
            w32[i] = direct_value(format, load_le(payload.data() + (r * k + i) * width, width));
            exact[i] = w32[i];
        }
        return 0;
    }
    case Kind::grouped: {
        const auto g = static_cast<std::uint64_t>(grouped->group), groups = (k + g - 1) / g;
        for (std::uint64_t j = 0; j < groups; ++j) {
            const double s = gn::fp16_to_f32(matrix.scales[r * groups + j]);
            for (std::uint64_t i = j * g; i < std::min(k, (j + 1) * g); ++i) {
                // Section 6.2: binary32(s32 * binary32(q)); s * q has at most 19 bits, exact anyway.
                w32[i] = static_cast<float>(rules->apply_scale(matrix.codes[r * k + i], s));
                exact[i] = w32[i];
            }
        }
        return 0;
    }
    case Kind::nvfp4: {
        const auto &e2m1 = value_table<NINFER_FORMAT_e2m1, 16>();
        const auto &e4m3 = value_table<NINFER_FORMAT_e4m3fn, 256>();
        const std::uint64_t groups = k / 16;
        const std::uint32_t d = rules->nvfp4_divisor(nvfp4.divisors[rules->scaled->divisor_of_row(r, n, nvfp4.divisors.size())]);
        for (std::uint64_t i = 0; i < k; ++i) {
            const std::uint8_t code = nvfp4.codes[r * k + i], scale = nvfp4.scales[r * groups + i / 16];
            exact[i] = e2m1[code & 0xF] * e4m3[scale];  // 2 x 4 significant bits: exact
            // The binary32 weight: exact[i] is exact in binary32, the one rounding is the division.
            w32[i] = static_cast<float>(exact[i]) / std::bit_cast<float>(d);
        }
        return d;
    }
    case Kind::fp8_row: {
        const auto &e4m3 = value_table<NINFER_FORMAT_e4m3fn, 256>();
        const double s = value_of(format == NINFER_FORMAT_fp8_e4m3fn_row_bf16 ? NINFER_FORMAT_bf16 : NINFER_FORMAT_fp16, fp8.scales[r]);
        for (std::uint64_t i = 0; i < k; ++i) {
            exact[i] = rules->apply_scale(e4m3[fp8.codes[r * k + i]], s);  // 4 x 11 bits: exact
            w32[i] = static_cast<float>(exact[i]);
        }
        return 0;
    }
    case Kind::gguf: {
        const auto *t = abi::find_id(abi::kGgufTypes, format);
        scratch.resize(static_cast<std::size_t>(k) * 4);
        gn::row_decoder(t->ggml_type)(payload.data() + r * gguf_row_bytes, gguf_blocks, scratch.data());
        std::memcpy(w32, scratch.data(), scratch.size());  // binary32 LE words on a little-endian host
        for (std::uint64_t i = 0; i < k; ++i) exact[i] = w32[i];
        return 0;
    }
    case Kind::none: break;
    }
    return 0;
}

/// Step 2: the format's geometry of [N, K] and the payload size it needs (nvfp4: without the
/// divisors, counted from the payload in step 4). Empty string when it has one.
std::string weight_geometry(Kind kind, std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t &payload_bytes,
                            Weights &w) {
    switch (kind) {
    case Kind::direct: {
        const auto width = static_cast<std::uint64_t>(abi::find_id(abi::kWordFormats, format)->bytes());
        std::uint64_t nk = 0;
        if (__builtin_mul_overflow(n, k, &nk) || __builtin_mul_overflow(nk, width, &payload_bytes))
            return fmt::format("[{}, {}] {} words overflow uint64", n, k, format_label(format));
        return {};
    }
    case Kind::grouped: {
        const auto g = grouped_codec::geometry(*w.grouped, n, k);
        if (!g) return fmt::format("[{}, {}] has no row_split_k128_v1 geometry (a size overflows uint64)", n, k);
        payload_bytes = g->payload_bytes;
        return {};
    }
    case Kind::nvfp4: {
        const auto o = nvfp4_payload_bytes(n, k, 1, payload_bytes);
        return o.status == NINFER_OK ? std::string() : o.message;
    }
    case Kind::fp8_row: {
        const auto o = fp8_row_payload_bytes(format, n, k, payload_bytes);
        return o.status == NINFER_OK ? std::string() : o.message;
    }
    case Kind::gguf: {
        const auto *t = abi::find_id(abi::kGgufTypes, format);
        if (k % t->block_values != 0) return fmt::format("K = {} is not a multiple of the {}-value block of {}", k, t->block_values, t->name);
        w.gguf_blocks = k / t->block_values;
        if (__builtin_mul_overflow(w.gguf_blocks, std::uint64_t{t->block_bytes}, &w.gguf_row_bytes) ||
            __builtin_mul_overflow(n, w.gguf_row_bytes, &payload_bytes))
            return fmt::format("[{}, {}] {} blocks overflow uint64", n, k, t->name);
        return {};
    }
    case Kind::none: break;
    }
    return "no weight format";
}

/// Step 5: decode and validate the payload (the detail quant_decode gives).
std::int32_t decode_weights(Weights &w, std::uint64_t divisors, ninfer_result_v2 *r) {
    switch (w.kind) {
    case Kind::grouped: {
        const auto o = grouped_codec::decode_payload(*w.grouped, w.n, w.k, w.payload, w.matrix);
        return o.status == NINFER_OK ? NINFER_OK : fail(r, o.status, o.message, o.detail);
    }
    case Kind::nvfp4: {
        const auto o = nvfp4_unpack(w.n, w.k, divisors, w.payload, w.nvfp4, *w.rules->scaled);
        return o.status == NINFER_OK ? NINFER_OK : fail(r, o.status, o.message, o.detail);
    }
    case Kind::fp8_row: {
        const auto o = fp8_row_unpack(w.format, w.n, w.k, w.payload, w.fp8, *w.rules->scaled);
        return o.status == NINFER_OK ? NINFER_OK : fail(r, o.status, o.message, o.detail);
    }
    default: return NINFER_OK;  // direct words and ggml blocks: every payload of the right size decodes
    }
}

/// An input plane's bytes, or an empty span; `broken` when it names bytes at NULL.
std::span<const std::uint8_t> input_span(const ninfer_input_plane *p, bool &broken) {
    broken = p && p->bytes && !p->data;
    if (!p || !p->data) return {};
    return {static_cast<const std::uint8_t *>(p->data), static_cast<std::size_t>(p->bytes)};
}

float add_f32(float s, float p) { return s + p; }
std::uint64_t all_columns(std::uint32_t, std::uint64_t k) { return k; }
double scale_once(double code, double scale) { return code * scale; }
std::uint32_t stored_divisor(std::uint32_t d) { return d; }
float round_half_away(float v) { return std::round(v); }

std::vector<ninfer_capability_v2> build_capabilities() {
    std::vector<ninfer_capability_v2> caps;
    for (const auto &f : abi::kAllFormats) {
        if (!linear_weight_format(f.id)) {
            caps.push_back({NINFER_OP_linear, f.id, 0, 0, 0, 0});  // refused: not a weight format (E_UNSUPPORTED)
            continue;
        }
        for (const auto &p : abi::kProfiles)
            if (linear_profile_met(f.id, p.id)) caps.push_back({NINFER_OP_linear, f.id, 0, linear_weight_layout(f.id), 0, p.id});
        // Any other layout (E_LAYOUT) and any other profile id, 0 and unknown ones included
        // (E_UNSUPPORTED), are refused in the contract's check order.
        caps.push_back({NINFER_OP_linear, f.id, 0, 0, 0, 0});
    }
    return caps;
}

}  // namespace

const LinearRules kLinearRules = {add_f32, all_columns, scale_once, stored_divisor, round_half_away, &kScaledRules};

bool linear_weight_format(std::uint32_t format) { return kind_of(format) != Kind::none; }

std::uint32_t linear_weight_layout(std::uint32_t format) {
    switch (kind_of(format)) {
    case Kind::direct: return NINFER_LAYOUT_contiguous_le_v1;
    case Kind::gguf: return NINFER_LAYOUT_ggml_blocks_v1;
    case Kind::none: return 0;
    default: return abi::find_format(format)->layout;
    }
}

bool linear_profile_met(std::uint32_t format, std::uint32_t profile) {
    if (!linear_weight_format(format) || !abi::find_id(abi::kProfiles, profile)) return false;
    return profile != NINFER_PROFILE_gguf_q8_1_f32 || kind_of(format) == Kind::gguf;
}

std::span<const ninfer_capability_v2> linear_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

std::int32_t linear_call(const ninfer_call_v2 *c, ninfer_result_v2 *r, const LinearRules &rules) {
    // 1. The weight format and its layout, before any plane is read.
    Weights w;
    w.kind = kind_of(c->format);
    w.format = c->format;
    w.rules = &rules;
    if (w.kind == Kind::none) return fail(r, NINFER_E_UNSUPPORTED, format_label(c->format) + " is not a weight format");
    if (c->layout != linear_weight_layout(c->format))
        return fail(r, NINFER_E_LAYOUT, fmt::format("{} weights are not read in layout {} (only {})", format_label(c->format),
                                                    layout_label(c->layout), layout_label(linear_weight_layout(c->format))));
    if (w.kind == Kind::grouped) w.grouped = grouped_codec::find_grouped(c->format);

    // 2. The shape: rank 2 {N, K}, M = count, the format's geometry, sizes within uint64.
    if (c->rank != 2) return fail(r, NINFER_E_INVALID_ARGUMENT, fmt::format("rank {}, the weight's shape is {{N, K}}", c->rank));
    w.n = c->shape[0];
    w.k = c->shape[1];
    const std::uint64_t m = c->count;
    if (w.n == 0 || w.k == 0 || m == 0) return fail_size(r, fmt::format("N = {}, K = {}, M = {}: none may be 0", w.n, w.k, m));
    std::uint64_t payload_bytes = 0;
    if (const std::string why = weight_geometry(w.kind, w.format, w.n, w.k, payload_bytes, w); !why.empty()) return fail_size(r, why);
    std::uint64_t mk = 0, mn = 0, nk = 0;
    if (__builtin_mul_overflow(m, w.k, &mk) || __builtin_mul_overflow(m, w.n, &mn) || __builtin_mul_overflow(w.n, w.k, &nk) ||
        mk > UINT64_MAX / 4 || mn > UINT64_MAX / 4)
        return fail_size(r, fmt::format("M = {}, N = {}, K = {} overflow uint64 sizes", m, w.n, w.k));

    // 3. The profile, the activation's and the output's word formats.
    const auto *profile = abi::find_id(abi::kProfiles, c->profile);
    if (!profile) return fail(r, NINFER_E_UNSUPPORTED, fmt::format("unknown compute profile {}", c->profile));
    if (!linear_profile_met(w.format, profile->id))
        return fail(r, NINFER_E_UNSUPPORTED, fmt::format("profile {} takes GGUF weights, not {}", profile->name, format_label(w.format)));
    const ninfer_input_plane *act = ninfer_find_input(c, NINFER_PLANE_ACTIVATION);
    ninfer_output_plane *out = ninfer_find_output(c, NINFER_PLANE_OUTPUT);
    if (act && !activation_taken(profile->id, act->format))
        return fail(r, NINFER_E_UNSUPPORTED, fmt::format("profile {} takes no {} activation", profile->name, format_label(act->format)));
    if (out && !output_given(profile->id, out->format))
        return fail(r, NINFER_E_UNSUPPORTED, fmt::format("profile {} gives no {} output", profile->name, format_label(out->format)));

    // 4. The planes and their sizes.
    if (!act) return fail_size(r, "the call has no ACTIVATION plane");
    if (!out) return fail_size(r, "the call has no OUTPUT plane");
    const auto aw = static_cast<std::uint64_t>(abi::find_id(abi::kWordFormats, act->format)->bytes());
    const auto of = *ln::output_format(out->format);
    if (act->bytes != mk * aw) return fail_size(r, fmt::format("ACTIVATION holds {} bytes, M x K = {} words need {}", act->bytes, mk, mk * aw));
    if (out->capacity < mn * of.bytes)
        return fail_size(r, fmt::format("OUTPUT holds {} bytes, M x N = {} words need {}", out->capacity, mn, mn * of.bytes));
    bool broken = false;
    const ninfer_input_plane *payload = ninfer_find_input(c, NINFER_PLANE_PAYLOAD);
    if (!payload) return fail_size(r, "the call has no PAYLOAD plane");
    w.payload = input_span(payload, broken);
    bool act_broken = false;
    const auto act_bytes = input_span(act, act_broken);
    if (broken || act_broken || (out->capacity && !out->data))
        return fail(r, NINFER_E_INVALID_ARGUMENT, "a plane names bytes at NULL");
    std::uint64_t divisors = 0;
    if (w.kind == Kind::nvfp4) {
        if (const auto o = nvfp4_payload_divisors(w.n, w.k, payload->bytes, divisors); o.status != NINFER_OK) return fail_size(r, o.message);
    } else if (payload->bytes != payload_bytes) {
        return fail_size(r, fmt::format("PAYLOAD holds {} bytes, {} [{}, {}] in {} needs {}", payload->bytes, format_label(w.format), w.n,
                                        w.k, layout_label(c->layout), payload_bytes));
    }

    // 5. The payload under the format's decode boundary; nothing is written on a refusal.
    if (const std::int32_t s = decode_weights(w, divisors, r); s != NINFER_OK) return s;

    // 6. Compute: activation rows as binary32 values (q8_1: dequantized), then each output element.
    std::vector<float> x(static_cast<std::size_t>(mk));
    for (std::uint64_t i = 0; i < mk; ++i)
        x[i] = static_cast<float>(value_of(act->format, load_le(act_bytes.data() + i * aw, static_cast<int>(aw))));
    if (profile->id == NINFER_PROFILE_gguf_q8_1_f32)
        for (std::uint64_t row = 0; row < m; ++row) {
            const auto q = ln::q8_1_dequantized(std::span<const float>(x.data() + row * w.k, w.k), rules.q8_1_round);
            std::copy(q.begin(), q.end(), x.begin() + static_cast<std::ptrdiff_t>(row * w.k));
        }
    const std::uint64_t cols = std::min(rules.summed_columns(w.format, w.k), w.k);
    auto finite_run = [cols](const float *v) { return std::all_of(v, v + cols, [](float e) { return std::isfinite(e); }); };
    std::vector<char> x_finite(static_cast<std::size_t>(m));
    for (std::uint64_t row = 0; row < m; ++row) x_finite[row] = finite_run(x.data() + row * w.k);
    // The bound profiles take the non-finite rule from the exact products' classes (a binary32
    // product that overflows must not turn an infinite result into NaN): such elements are
    // rounded from the exact sum, which every bound admits.
    const bool bound = profile->id != NINFER_PROFILE_f32_sequential;
    std::vector<float> w32(static_cast<std::size_t>(w.k));
    std::vector<double> exact(static_cast<std::size_t>(w.k));
    auto *y = static_cast<std::uint8_t *>(out->data);
    for (std::uint64_t n = 0; n < w.n; ++n) {
        const std::uint32_t divisor = w.row(n, w32.data(), exact.data());
        const bool w_finite = finite_run(w32.data());
        for (std::uint64_t row = 0; row < m; ++row) {
            const float *xr = x.data() + row * w.k;
            std::uint64_t word = 0;
            if (profile->id == NINFER_PROFILE_correctly_rounded || (bound && !(w_finite && x_finite[row]))) {
                ln::ExactSum sum;
                for (std::uint64_t i = 0; i < cols; ++i) sum.add_product(exact[i], xr[i]);
                word = sum.round_to(of, divisor);
            } else {
                word = std::bit_cast<std::uint32_t>(ln::sequential_dot(w32.data(), xr, cols, rules.accumulate));
            }
            store_le(y + (row * w.n + n) * of.bytes, word, of.bytes);
        }
    }
    out->written = mn * of.bytes;
    return NINFER_OK;
}

const ReferenceFamily kLinearReference = {.family = abi::Family::linear,
                                          .claims = [](const ninfer_call_v2 *c) { return !family_op(c); },
                                          .serve = [](const ninfer_call_v2 *c, ninfer_result_v2 *r) { return linear_call(c, r); },
                                          .capabilities = linear_capabilities};

}  // namespace ninfer::reference
