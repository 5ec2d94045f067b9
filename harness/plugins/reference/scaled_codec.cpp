// SPDX-License-Identifier: Apache-2.0
// nvfp4 in block_scale_k16_m128x4_v1 and the FP8 row formats in row_scale_v1 /
// row_interleaved_v1 (tensor-formats.txt Sections 3.3, 3.4 and the fp8_row_maxabs paragraph;
// storage-layouts.md Sections 4-6), the reference plugin's own way: host binary32 arithmetic
// and the plugin's own word conversions (scalar_codec.hpp), never the oracle.
#include "scaled_codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "scalar_codec.hpp"

namespace ninfer::reference {

static_assert(std::numeric_limits<float>::is_iec559, "the reference's scaled codecs rely on IEEE binary32");

namespace {

ScaledOutcome refuse(std::int32_t status, std::uint32_t detail, std::string message) {
    return {status, detail, std::move(message)};
}

float f32(std::uint32_t w) { return std::bit_cast<float>(w); }
std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
float word_value(std::uint32_t conversion, std::uint64_t w) { return f32(static_cast<std::uint32_t>(scalar_convert(conversion, w))); }

std::uint64_t align256(std::uint64_t x) { return (x + 255) / 256 * 256; }

struct Fp8Row {
    bool interleaved;
    std::uint32_t scale_role, scale_to_f32, f32_to_scale;
};
Fp8Row fp8_row(std::uint32_t format) {
    if (format == NINFER_FORMAT_fp8_e4m3fn_row_fp16)
        return {true, NINFER_ROLE_fp16_row_multiplier, NINFER_CONVERSION_fp16_to_fp32, NINFER_CONVERSION_fp32_to_fp16_rne};
    return {false, NINFER_ROLE_bf16_row_multiplier, NINFER_CONVERSION_bf16_to_fp32, NINFER_CONVERSION_fp32_to_bf16_rne};
}


// The reference's steps of fp8_row_maxabs.
float bf16_input_rne(float x) {
    return word_value(NINFER_CONVERSION_bf16_to_fp32, scalar_convert(NINFER_CONVERSION_fp32_to_bf16_rne, bits(x)));
}
std::uint16_t scale_word_rne(std::uint32_t to_scale, std::uint32_t, float raw32) {
    return static_cast<std::uint16_t>(scalar_convert(to_scale, bits(raw32)));
}
std::uint16_t rescue_smallest_subnormal(std::uint16_t scale) { return scale == 0 ? std::uint16_t{1} : scale; }
float reciprocal_product(float x, float, float inv32) { return x * inv32; }
float clamp_448(float q) { return std::fmin(std::fmax(q, -448.0f), 448.0f); }
std::uint8_t e4m3_rne(float q) {
    // The clamp (step 5) has brought q into range: the plain nearest-even conversion.
    return static_cast<std::uint8_t>(scalar_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, bits(q)));
}
std::uint8_t e4m3_rne_satfinite(float q) {
    return static_cast<std::uint8_t>(scalar_convert(NINFER_CONVERSION_fp32_to_e4m3fn_rne_satfinite, bits(q)));
}

unsigned low_nibble_first(std::uint64_t i) { return i % 2 ? 4u : 0u; }
bool nvfp4_scale_role(std::uint8_t s) { return scalar_verdict(NINFER_ROLE_nvfp4_e4m3_scale, s) == NINFER_VERDICT_VALID; }
bool fp8_code_role(std::uint8_t c) { return scalar_verdict(NINFER_ROLE_fp8_weight_code, c) == NINFER_VERDICT_VALID; }

}  // namespace

const Fp8RowMaxabsSteps kFp8RowMaxabsSteps = {bf16_input_rne, scale_word_rne, rescue_smallest_subnormal, reciprocal_product,
                                              clamp_448, e4m3_rne};
const ScaledRules kScaledRules = {nvfp4_swizzle, low_nibble_first, nvfp4_scale_role, nvfp4_divisor_of_row, nvfp4_weight,
                                  fp8_code_role, kFp8RowMaxabsSteps};

std::uint64_t nvfp4_swizzle(std::uint64_t k, std::uint64_t n, std::uint64_t g) {
    // storage-layouts.md Section 4: 128x4 tiles of 512 bytes; inside, row n%128 = 32*b + a sits
    // at a*16 + b*4, its group g at + g%4.
    const std::uint64_t row_in_tile = n % 128;
    return ((n / 128) * (k / 64) + g / 4) * 512 + (row_in_tile % 32) * 16 + (row_in_tile / 32) * 4 + g % 4;
}

std::uint64_t nvfp4_divisor_of_row(std::uint64_t n, std::uint64_t rows, std::uint64_t divisors) { return n / (rows / divisors); }

std::uint32_t nvfp4_weight(std::uint8_t code, std::uint8_t scale, std::uint32_t divisor) {
    // e2m1 * e4m3 is exact in binary32; the one rounding is the division.
    return bits(word_value(NINFER_CONVERSION_e2m1_to_fp32, code) * word_value(NINFER_CONVERSION_e4m3fn_to_fp32, scale) /
                f32(divisor));
}

ScaledOutcome nvfp4_payload_bytes(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::uint64_t &bytes) {
    if (n == 0 || k == 0 || n % 128 != 0 || k % 64 != 0)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] needs N % 128 == 0 and K % 64 == 0", n, k));
    if (divisors == 0 || n % divisors != 0)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("{} divisors do not split {} rows evenly", divisors, n));
    std::uint64_t nk = 0, tail = 0;
    if (__builtin_mul_overflow(n, k, &nk) || __builtin_mul_overflow(divisors, std::uint64_t{4}, &tail) ||
        __builtin_add_overflow(nk / 2 + nk / 16, tail, &bytes))
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] overflows uint64 sizes", n, k));
    return {};  // N*K/2 is a multiple of 4096: the scale plane needs no alignment gap
}

ScaledOutcome nvfp4_payload_divisors(std::uint64_t n, std::uint64_t k, std::uint64_t bytes, std::uint64_t &divisors) {
    std::uint64_t one = 0;
    if (auto o = nvfp4_payload_bytes(n, k, 1, one); o.status != NINFER_OK) return o;
    const std::uint64_t divisors_at = one - 4;
    if (bytes < divisors_at + 4 || (bytes - divisors_at) % 4 != 0 || n % ((bytes - divisors_at) / 4) != 0)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
                      fmt::format("payload is {} bytes: after the {} code and scale bytes, no whole number of divisors dividing N={}",
                                  bytes, divisors_at, n));
    divisors = (bytes - divisors_at) / 4;
    return {};
}

ScaledOutcome nvfp4_unpack(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                           Nvfp4Planes &out, const ScaledRules &rules) {
    std::uint64_t bytes = 0;
    if (auto o = nvfp4_payload_bytes(n, k, divisors, bytes); o.status != NINFER_OK) return o;
    if (payload.size() != bytes)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("payload is {} bytes, not {}", payload.size(), bytes));
    const std::uint64_t scales_at = n * k / 2, divisors_at = scales_at + n * k / 16, groups = k / 16;
    out.codes.resize(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i) out.codes[i] = static_cast<std::uint8_t>(payload[i / 2] >> rules.code_shift(i) & 0xF);
    out.scales.resize(n * groups);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < groups; ++g) {
            const std::uint8_t s = payload[scales_at + rules.swizzle(k, r, g)];
            if (!rules.nvfp4_scale_valid(s))
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE,
                              fmt::format("scale 0x{:02x} at row {}, group {}", s, r, g));
            out.scales[r * groups + g] = s;
        }
    out.divisors.resize(divisors);
    for (std::uint64_t d = 0; d < divisors; ++d) {
        const std::uint32_t w = abi::load_le32(payload.data() + divisors_at + 4 * d);
        if (scalar_verdict(NINFER_ROLE_fp32_weight_divisor, w) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_DIVISOR, fmt::format("divisor {} is 0x{:08x}", d, w));
        out.divisors[d] = w;
    }
    return {};
}

ScaledOutcome nvfp4_pack(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes, std::vector<std::uint8_t> &payload,
                         const ScaledRules &rules) {
    std::uint64_t bytes = 0;
    if (auto o = nvfp4_payload_bytes(n, k, planes.divisors.size(), bytes); o.status != NINFER_OK) return o;
    if (planes.codes.size() != n * k || planes.scales.size() != n * k / 16)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, "codes or scales do not match the shape");
    // A payload holds only E2M1 words, valid scales and valid divisors: anything else is refused, never masked.
    for (std::uint64_t i = 0; i < n * k; ++i)
        if (planes.codes[i] > 0xF)
            return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("code 0x{:02x} at element {} is not an E2M1 word", planes.codes[i], i));
    for (std::uint64_t i = 0; i < planes.scales.size(); ++i)
        if (!rules.nvfp4_scale_valid(planes.scales[i]))
            return refuse(NINFER_E_INVALID_ARGUMENT, 0,
                          fmt::format("scale 0x{:02x} at row {}, group {} is invalid under nvfp4_e4m3_scale", planes.scales[i],
                                      i / (k / 16), i % (k / 16)));
    for (std::size_t d = 0; d < planes.divisors.size(); ++d)
        if (scalar_verdict(NINFER_ROLE_fp32_weight_divisor, planes.divisors[d]) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_ARGUMENT, 0,
                          fmt::format("divisor {} is 0x{:08x}, invalid under fp32_weight_divisor", d, planes.divisors[d]));
    payload.assign(bytes, 0);
    for (std::uint64_t i = 0; i < n * k; ++i) payload[i / 2] = static_cast<std::uint8_t>(payload[i / 2] | planes.codes[i] << rules.code_shift(i));
    const std::uint64_t scales_at = n * k / 2, divisors_at = scales_at + n * k / 16, groups = k / 16;
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < groups; ++g) payload[scales_at + rules.swizzle(k, r, g)] = planes.scales[r * groups + g];
    for (std::size_t d = 0; d < planes.divisors.size(); ++d)
        abi::store_le32(payload.data() + divisors_at + 4 * d, planes.divisors[d]);
    return {};
}

std::vector<std::uint32_t> nvfp4_values(std::uint64_t n, std::uint64_t k, const Nvfp4Planes &planes, const ScaledRules &rules) {
    std::vector<std::uint32_t> v(n * k);
    const std::uint64_t groups = k / 16;
    for (std::uint64_t r = 0; r < n; ++r) {
        const std::uint32_t d = planes.divisors[rules.divisor_of_row(r, n, planes.divisors.size())];
        for (std::uint64_t c = 0; c < k; ++c) v[r * k + c] = rules.nvfp4_weight(planes.codes[r * k + c], planes.scales[r * groups + c / 16], d);
    }
    return v;
}

ScaledOutcome nvfp4_select_rows(std::uint64_t n, std::uint64_t k, std::uint64_t divisors, std::span<const std::uint8_t> payload,
                                std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out, const ScaledRules &rules) {
    if (rows.empty()) return refuse(NINFER_E_INVALID_ARGUMENT, 0, "no rows selected");
    // 1. Runs: consecutive selected rows owned by one source matrix.
    std::vector<std::uint64_t> run_owner, run_rows;
    for (std::size_t j = 0; j < rows.size(); ++j) {
        if (rows[j] >= n) return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("selected row {} (index {}) is past N={}", rows[j], j, n));
        const std::uint64_t owner = rules.divisor_of_row(rows[j], n, divisors);
        if (run_owner.empty() || run_owner.back() != owner) {
            run_owner.push_back(owner);
            run_rows.push_back(0);
        }
        ++run_rows.back();
    }
    for (const auto len : run_rows)
        if (len != run_rows.front())
            return refuse(NINFER_E_INVALID_ARGUMENT, 0,
                          fmt::format("the selection's runs of one source matrix differ in length ({} and {} rows)", run_rows.front(), len));
    // 2. The result's own geometry: N' % 128 == 0, one divisor per run.
    const std::uint64_t m = rows.size(), out_divisors = run_owner.size();
    std::uint64_t bytes = 0;
    if (auto o = nvfp4_payload_bytes(m, k, out_divisors, bytes); o.status != NINFER_OK)
        return refuse(NINFER_E_INVALID_ARGUMENT, 0, "the selection has no block_scale_k16_m128x4_v1 geometry: " + o.message);
    out.assign(bytes, 0);
    const std::uint64_t row_bytes = k / 2, groups = k / 16, scales_at = n * k / 2, out_scales_at = m * k / 2;
    for (std::uint64_t j = 0; j < m; ++j) {
        std::copy_n(payload.data() + rows[j] * row_bytes, row_bytes, out.data() + j * row_bytes);
        for (std::uint64_t g = 0; g < groups; ++g)
            out[out_scales_at + rules.swizzle(k, j, g)] = payload[scales_at + rules.swizzle(k, rows[j], g)];
    }
    const std::uint64_t divisors_at = scales_at + n * k / 16, out_divisors_at = out_scales_at + m * k / 16;
    for (std::uint64_t d = 0; d < out_divisors; ++d)
        std::copy_n(payload.data() + divisors_at + 4 * run_owner[d], 4, out.data() + out_divisors_at + 4 * d);
    return {};
}

namespace {

/// The E2M1 word nearest to r (a binary32 value), the first word of the lesson's table order
/// (0, 0.5, ..., 6, -0, ..., -6) winning a tie: a tie between magnitudes goes to the smaller,
/// and a negative r whose nearest magnitude is 0 takes +0 (word 0 precedes -0).
std::uint8_t e2m1_nearest_first(float r) {
    static constexpr float kMidpoints[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    const float m = std::fabs(r);
    std::uint8_t j = 7;
    for (std::uint8_t i = 0; i < 7; ++i)
        if (m <= kMidpoints[i]) {
            j = i;
            break;
        }
    return j != 0 && std::signbit(r) ? static_cast<std::uint8_t>(j | 8) : j;
}

}  // namespace

ScaledOutcome nvfp4_two_level_encode(std::uint64_t n, std::uint64_t k, std::span<const std::uint32_t> x, Nvfp4Planes &out) {
    if (k % 16 != 0 || x.size() != n * k) return refuse(NINFER_E_INVALID_ARGUMENT, 0, "source does not match [N, K] with K % 16 == 0");
    out.codes.assign(n * k, 0);
    out.scales.assign(n * k / 16, 0);
    float amax = 0.0f;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(f32(x[i]))) return refuse(NINFER_E_NONFINITE, 0, fmt::format("element {} is not finite", i));
        amax = std::fmax(amax, std::fabs(f32(x[i])));
    }
    // An all-zero tensor: +0 codes and scales, d_w = 1 (oracle/SCALED.md R5).
    if (amax == 0.0f) {
        out.divisors = {0x3F800000u};
        return {};
    }
    // 1. tensorScale = binary32(amax / (448 * 6)); the stored divisor d_w = binary32(448 * 6 / amax).
    const float tensor_scale = amax / 2688.0f, divisor = 2688.0f / amax;
    if (tensor_scale == 0.0f || std::isinf(divisor))
        return refuse(NINFER_E_SCALE_OVERFLOW, 0, fmt::format("tensor scale {} / divisor {} not representable", tensor_scale, divisor));
    out.divisors = {bits(divisor)};
    for (std::uint64_t b = 0; b < n * k / 16; ++b) {
        float bamax = 0.0f;
        for (std::uint64_t i = 0; i < 16; ++i) bamax = std::fmax(bamax, std::fabs(f32(x[b * 16 + i])));
        // 2. The block's E4M3 code of binary32(binary32(amax / 6) / tensorScale), nearest-even, at most 448.
        const std::uint8_t code = e4m3_rne_satfinite((bamax / 6.0f) / tensor_scale);
        out.scales[b] = code;
        // 3. blockScale = binary32(e4m3(code) * tensorScale); a zero block scale keeps +0 codes.
        const float block_scale = word_value(NINFER_CONVERSION_e4m3fn_to_fp32, code) * tensor_scale;
        if (block_scale == 0.0f) continue;
        // 4. Each element: the E2M1 word nearest to binary32(x / blockScale).
        for (std::uint64_t i = 0; i < 16; ++i) out.codes[b * 16 + i] = e2m1_nearest_first(f32(x[b * 16 + i]) / block_scale);
    }
    return {};
}

bool fp8_row_known(std::uint32_t format) {
    return format == NINFER_FORMAT_fp8_e4m3fn_row_bf16 || format == NINFER_FORMAT_fp8_e4m3fn_row_fp16;
}

ScaledOutcome fp8_row_payload_bytes(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::uint64_t &bytes) {
    std::uint64_t nk = 0;
    if (n == 0 || k == 0 || __builtin_mul_overflow(n, k, &nk) || nk > (std::uint64_t{1} << 62) || n > (std::uint64_t{1} << 61))
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("[{},{}] has no FP8 row geometry", n, k));
    bytes = fp8_row(format).interleaved ? nk + 2 * n : align256(nk) + 2 * n;
    return {};
}

ScaledOutcome fp8_row_unpack(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                             Fp8RowPlanes &out, const ScaledRules &rules) {
    const Fp8Row f = fp8_row(format);
    std::uint64_t bytes = 0;
    if (auto o = fp8_row_payload_bytes(format, n, k, bytes); o.status != NINFER_OK) return o;
    if (payload.size() != bytes)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, fmt::format("payload is {} bytes, not {}", payload.size(), bytes));
    const std::uint64_t stride = f.interleaved ? k + 2 : k, scales_at = f.interleaved ? 0 : align256(n * k);
    if (!f.interleaved)
        for (std::uint64_t b = n * k; b < scales_at; ++b)
            if (payload[b] != 0) return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP, fmt::format("gap byte {} is not zero", b));
    out.codes.resize(n * k);
    out.scales.resize(n);
    for (std::uint64_t r = 0; r < n; ++r) {
        const std::uint64_t at = f.interleaved ? r * stride + k : scales_at + 2 * r;
        const auto s = abi::load_le16(payload.data() + at);
        if (scalar_verdict(f.scale_role, s) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE, fmt::format("row {} multiplier 0x{:04x}", r, s));
        out.scales[r] = s;
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint8_t w = payload[r * stride + c];
            if (!rules.fp8_code_valid(w))
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE, fmt::format("code 0x{:02x} at row {}, column {}", w, r, c));
            if (s == 0 && (w & 0x7F) != 0)
                return refuse(NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES,
                              fmt::format("row {} has a +0 multiplier and code 0x{:02x} at column {}", r, w, c));
            out.codes[r * k + c] = w;
        }
    }
    return {};
}

ScaledOutcome fp8_row_pack(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes,
                           std::vector<std::uint8_t> &payload, const ScaledRules &rules) {
    const Fp8Row f = fp8_row(format);
    std::uint64_t bytes = 0;
    if (auto o = fp8_row_payload_bytes(format, n, k, bytes); o.status != NINFER_OK) return o;
    if (planes.codes.size() != n * k || planes.scales.size() != n)
        return refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE, "codes or multipliers do not match the shape");
    // A payload holds only valid words: anything else is refused, never stored.
    for (std::uint64_t r = 0; r < n; ++r) {
        if (scalar_verdict(f.scale_role, planes.scales[r]) != NINFER_VERDICT_VALID)
            return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("row {} multiplier 0x{:04x} is invalid", r, planes.scales[r]));
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint8_t w = planes.codes[r * k + c];
            if (!rules.fp8_code_valid(w))
                return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("code 0x{:02x} at row {}, column {} is not a finite E4M3FN word", w, r, c));
            if (planes.scales[r] == 0 && (w & 0x7F) != 0)
                return refuse(NINFER_E_INVALID_ARGUMENT, 0,
                              fmt::format("row {} has a +0 multiplier and code 0x{:02x} at column {}", r, w, c));
        }
    }
    payload.assign(bytes, 0);
    const std::uint64_t stride = f.interleaved ? k + 2 : k, scales_at = f.interleaved ? 0 : align256(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        for (std::uint64_t c = 0; c < k; ++c) payload[r * stride + c] = planes.codes[r * k + c];
        const std::uint64_t at = f.interleaved ? r * stride + k : scales_at + 2 * r;
        payload[at] = static_cast<std::uint8_t>(planes.scales[r]);
        payload[at + 1] = static_cast<std::uint8_t>(planes.scales[r] >> 8);
    }
    return {};
}

ScaledOutcome fp8_row_select_rows(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload,
                                  std::span<const std::uint64_t> rows, std::vector<std::uint8_t> &out) {
    const Fp8Row f = fp8_row(format);
    if (rows.empty()) return refuse(NINFER_E_INVALID_ARGUMENT, 0, "no rows selected");
    std::uint64_t bytes = 0;
    if (auto o = fp8_row_payload_bytes(format, rows.size(), k, bytes); o.status != NINFER_OK) return o;
    const std::uint64_t m = rows.size(), stride = f.interleaved ? k + 2 : k;
    const std::uint64_t scales_at = f.interleaved ? 0 : align256(n * k), out_scales_at = f.interleaved ? 0 : align256(m * k);
    out.assign(bytes, 0);
    for (std::uint64_t j = 0; j < m; ++j) {
        if (rows[j] >= n) return refuse(NINFER_E_INVALID_ARGUMENT, 0, fmt::format("selected row {} (index {}) is past N={}", rows[j], j, n));
        // row_interleaved_v1: the row's K codes and its multiplier travel together.
        std::copy_n(payload.data() + rows[j] * stride, stride, out.data() + j * stride);
        if (!f.interleaved) std::copy_n(payload.data() + scales_at + 2 * rows[j], 2, out.data() + out_scales_at + 2 * j);
    }
    return {};
}

std::vector<std::uint32_t> fp8_row_values(std::uint32_t format, std::uint64_t n, std::uint64_t k, const Fp8RowPlanes &planes) {
    const Fp8Row f = fp8_row(format);
    std::vector<std::uint32_t> v(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        const float s = word_value(f.scale_to_f32, planes.scales[r]);
        for (std::uint64_t c = 0; c < k; ++c)
            v[r * k + c] = bits(word_value(NINFER_CONVERSION_e4m3fn_to_fp32, planes.codes[r * k + c]) * s);
    }
    return v;
}

ScaledOutcome fp8_row_maxabs_encode(std::uint32_t format, std::uint32_t source_format, std::uint64_t n, std::uint64_t k,
                                    std::span<const std::uint32_t> source, Fp8RowPlanes &out, const Fp8RowMaxabsSteps &steps) {
    const Fp8Row f = fp8_row(format);
    if (source.size() != n * k) return refuse(NINFER_E_SIZE, 0, "source does not match the shape");
    out.codes.assign(n * k, 0);
    out.scales.assign(n, 0);
    std::vector<float> x(k);
    for (std::uint64_t r = 0; r < n; ++r) {
        float amax = 0.0f;
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint32_t w = source[r * k + c];
            // The input as binary32, exactly; then its BF16 representation (nearest-even).
            const float in = source_format == NINFER_FORMAT_fp32   ? f32(w)
                             : source_format == NINFER_FORMAT_bf16 ? f32(w << 16)
                                                                   : word_value(NINFER_CONVERSION_fp16_to_fp32, w);
            if (!std::isfinite(in)) return refuse(NINFER_E_NONFINITE, 0, fmt::format("row {} column {} is not finite", r, c));
            x[c] = steps.bf16_input(in);
            if (!std::isfinite(x[c])) return refuse(NINFER_E_NONFINITE, 0, fmt::format("row {} column {} is infinite in BF16", r, c));
            amax = std::fmax(amax, std::fabs(x[c]));
        }
        if (amax == 0.0f) continue;  // all-zero row: +0 codes and multiplier
        auto scale = steps.scale_word(f.f32_to_scale, f.scale_to_f32, amax / 448.0f);
        if (std::isinf(word_value(f.scale_to_f32, scale)))
            return refuse(NINFER_E_SCALE_OVERFLOW, 0, fmt::format("row {} multiplier overflows", r));
        scale = steps.rescue(scale);
        out.scales[r] = scale;
        const float s32 = word_value(f.scale_to_f32, scale), inv = 1.0f / s32;
        for (std::uint64_t c = 0; c < k; ++c) {
            float q = steps.normalized(x[c], s32, inv);
            if (std::isnan(q)) q = x[c];  // zero times an infinite reciprocal: the zero stays (suite reading)
            out.codes[r * k + c] = steps.e4m3_code(steps.clamp(q));
        }
    }
    return {};
}

}  // namespace ninfer::reference
