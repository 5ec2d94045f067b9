// SPDX-License-Identifier: Apache-2.0
// The reference's own GGUF reference quantizers (the gguf_* paragraph of tensor-formats.txt;
// ggml-quants.c quantize_row_<type>_ref, read for its order of operations): q8_0, q4_0, q4_1,
// q5_0, q5_1, q8_1 (with its sum s), q8_K (with its bsums), and the MXFP4 recipe for gguf_mxfp4
// (lesson Example 14 = quantize_row_mxfp4_ref with an exact floor(log2(amax))). Host binary32
// arithmetic in ggml's order, compiled with -ffp-contract=off; roundf ties away from zero,
// nearest_int by ggml's 12582912.f addition, float-to-integer conversions truncating.
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <string>

#include "gguf_block_structs.hpp"
#include "gguf_blocks.hpp"
#include "gguf_quantize_iq4.hpp"
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/abi/plugin.h"
#include "ninfer/oracle/ggml_tables.hpp"

namespace ninfer::reference::gguf_blocks {

using namespace ggml_struct;  // the block structs (gguf_block_structs.hpp): offsets by member

namespace {

/// d ? 1.0f / d : 0.0f
inline float inverse_or_zero(float d) { return d != 0.0f ? 1.0f / d : 0.0f; }

/// The value of largest magnitude of a block, the first on ties (q4_0, q5_0, q8_K).
inline float signed_extreme(const float *x, int n, float &amax) {
    float max = 0.0f;
    amax = 0.0f;
    for (int j = 0; j < n; ++j)
        if (amax < std::fabs(x[j])) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    return max;
}

/// q4_0 (bits 4) and q5_0 (bits 5): d = max / -2^(bits-1), codes MIN(qmax, (int8_t)(x*id + 2^(bits-1) + 0.5)).
void symmetric_block(const float *x, int bits, std::uint8_t *b) {
    const int half = 1 << (bits - 1), qmax = (1 << bits) - 1;
    float amax = 0.0f;
    const float max = signed_extreme(x, 32, amax);
    const float d = max / static_cast<float>(-half);
    const float id = inverse_or_zero(d);
    static_assert(offsetof(block_q4_0, d) == offsetof(block_q5_0, d));
    abi::store_le16(b + offsetof(block_q4_0, d), f32_to_fp16(d));
    const float offset = static_cast<float>(half) + 0.5f;
    std::uint32_t qh = 0;
    std::uint8_t *qs = b + (bits == 4 ? offsetof(block_q4_0, qs) : offsetof(block_q5_0, qs));
    for (int j = 0; j < 16; ++j) {
        const int xi0 = std::min(qmax, static_cast<int>(static_cast<std::int8_t>(trunc_int(x[j] * id + offset))));
        const int xi1 = std::min(qmax, static_cast<int>(static_cast<std::int8_t>(trunc_int(x[j + 16] * id + offset))));
        qs[j] = static_cast<std::uint8_t>((xi0 & 0xF) | (xi1 & 0xF) << 4);
        qh |= static_cast<std::uint32_t>((xi0 & 0x10) >> 4) << j;
        qh |= static_cast<std::uint32_t>((xi1 & 0x10) >> 4) << (j + 16);
    }
    if (bits == 5)
        abi::store_le32(b + offsetof(block_q5_0, qh), qh);
}

/// q4_1 (bits 4) and q5_1 (bits 5): d = (max - min) / (2^bits - 1), m = min, codes (x - min)*id + 0.5 truncated.
void affine_block(const float *x, int bits, std::uint8_t *b) {
    float min = FLT_MAX, max = -FLT_MAX;
    for (int j = 0; j < 32; ++j) {
        if (x[j] < min) min = x[j];
        if (x[j] > max) max = x[j];
    }
    const float d = (max - min) / static_cast<float>((1 << bits) - 1);
    const float id = inverse_or_zero(d);
    static_assert(offsetof(block_q4_1, d) == offsetof(block_q5_1, d) && offsetof(block_q4_1, m) == offsetof(block_q5_1, m));
    abi::store_le16(b + offsetof(block_q4_1, d), f32_to_fp16(d));
    abi::store_le16(b + offsetof(block_q4_1, m), f32_to_fp16(min));
    std::uint32_t qh = 0;
    std::uint8_t *qs = b + (bits == 4 ? offsetof(block_q4_1, qs) : offsetof(block_q5_1, qs));
    for (int j = 0; j < 16; ++j) {
        int xi0 = trunc_int((x[j] - min) * id + 0.5f), xi1 = trunc_int((x[j + 16] - min) * id + 0.5f);
        if (bits == 4) {  // MIN(15, (int8_t)...); q5_1 stores (uint8_t) unclamped
            xi0 = std::min(15, static_cast<int>(static_cast<std::int8_t>(xi0)));
            xi1 = std::min(15, static_cast<int>(static_cast<std::int8_t>(xi1)));
        } else {
            xi0 = static_cast<std::uint8_t>(xi0);
            xi1 = static_cast<std::uint8_t>(xi1);
        }
        qs[j] = static_cast<std::uint8_t>((xi0 & 0xF) | (xi1 & 0xF) << 4);
        qh |= static_cast<std::uint32_t>((xi0 & 0x10) >> 4) << j;
        qh |= static_cast<std::uint32_t>((xi1 & 0x10) >> 4) << (j + 16);
    }
    if (bits == 5)
        abi::store_le32(b + offsetof(block_q5_1, qh), qh);
}

/// q8_0 and q8_1: d = amax / 127, codes roundf(x * id) stored as int8 (wrapped as x86 stores
/// them); q8_1 also s = binary16(sum * d).
void q8_block(const float *x, bool with_sum, std::uint8_t *b) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / 127.0f;
    const float id = inverse_or_zero(d);
    static_assert(offsetof(block_q8_0, d) == offsetof(block_q8_1, d));
    abi::store_le16(b + offsetof(block_q8_0, d), f32_to_fp16(d));
    std::uint8_t *qs = b + (with_sum ? offsetof(block_q8_1, qs) : offsetof(block_q8_0, qs));
    int sum = 0;
    for (int j = 0; j < 32; ++j) {
        const auto q = static_cast<std::int8_t>(static_cast<std::uint8_t>(trunc_int(std::round(x[j] * id)) & 0xFF));
        qs[j] = static_cast<std::uint8_t>(q);
        sum += q;
    }
    if (with_sum) abi::store_le16(b + offsetof(block_q8_1, s), f32_to_fp16(static_cast<float>(sum) * d));
}

/// q8_K: iscale = -127 / max, codes MIN(127, nearest_int(iscale * x)), bsums per 16 values,
/// d = 1 / iscale. An all-zero block stores d = 0, codes 0 and bsums 0.
void q8_k_block(const float *x, std::uint8_t *b) {
    std::fill(b, b + sizeof(block_q8_K), std::uint8_t{0});
    std::uint8_t *qs = b + offsetof(block_q8_K, qs);
    float amax = 0.0f;
    const float max = signed_extreme(x, 256, amax);
    if (amax == 0.0f) return;
    const float iscale = -127.0f / max;
    for (int j = 0; j < 256; ++j) qs[j] = static_cast<std::uint8_t>(std::min(127, nearest_int(iscale * x[j])));
    for (int g = 0; g < 16; ++g) {
        int sum = 0;
        for (int i = 0; i < 16; ++i) sum += static_cast<std::int8_t>(qs[16 * g + i]);
        abi::store_le16(b + offsetof(block_q8_K, bsums) + 2 * g, static_cast<std::uint16_t>(sum));
    }
    const std::uint32_t d = std::bit_cast<std::uint32_t>(1.0f / iscale);
    abi::store_le32(b + offsetof(block_q8_K, d), d);
}

EncodeOutcome refuse(std::int32_t status, std::string message) { return {status, std::move(message)}; }

EncodeOutcome check_finite(std::span<const float> x) {
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isfinite(x[i])) return refuse(NINFER_E_NONFINITE, "source element " + std::to_string(i) + " is not finite");
    return {};
}

}  // namespace

/// The index of the nearest of kvalues_mxfp4 * e to x, the first on ties (ggml's best_index_mxfp4).
int best_index_mxfp4(float x, float e) {
    int best = 0;
    float best_err = std::fabs(static_cast<float>(ninfer::oracle::ggml::kvalues_fp4[0]) * e - x);
    for (int i = 1; i < 16; ++i) {
        const float err = std::fabs(static_cast<float>(ninfer::oracle::ggml::kvalues_fp4[i]) * e - x);
        if (err < best_err) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

bool quantize_block::gguf_q4_0(const float *x, std::uint8_t *b) {
    symmetric_block(x, 4, b);
    return true;
}
bool quantize_block::gguf_q5_0(const float *x, std::uint8_t *b) {
    symmetric_block(x, 5, b);
    return true;
}
bool quantize_block::gguf_q4_1(const float *x, std::uint8_t *b) {
    affine_block(x, 4, b);
    return true;
}
bool quantize_block::gguf_q5_1(const float *x, std::uint8_t *b) {
    affine_block(x, 5, b);
    return true;
}
bool quantize_block::gguf_q8_0(const float *x, std::uint8_t *b) {
    q8_block(x, false, b);
    return true;
}
bool quantize_block::gguf_q8_1(const float *x, std::uint8_t *b) {
    q8_block(x, true, b);
    return true;
}
bool quantize_block::gguf_q8_k(const float *x, std::uint8_t *b) {
    q8_k_block(x, b);
    return true;
}
// quantize_row_iq4_nl_ref passes ntry -1 (one least-squares scale, no search); quantize_row_iq4_xs_ref
// goes through quantize_iq4_xs, ntry 7.
bool quantize_block::gguf_iq4_nl(const float *x, std::uint8_t *b) { return iq4_block(32, -1, x, b); }
bool quantize_block::gguf_iq4_xs(const float *x, std::uint8_t *b) { return iq4_block(256, 7, x, b); }

namespace {

/// The block quantizers by registry row: the registry's ref_quantizer column decides which
/// types have one (nullptr elsewhere).
constexpr abi::GgufTable<BlockQuantizer> kBlockQuantizers = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) NINFER_GGUF_IF_REFQ(refq, &quantize_block::name),
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

}  // namespace

bool has_reference_quantizer(std::uint32_t ggml_type) { return abi::gguf_entry_of_ggml_type(kBlockQuantizers, ggml_type) != nullptr; }

EncodeOutcome quantize_row_ref(std::uint32_t ggml_type, std::span<const float> x, std::uint8_t *out) {
    if (auto o = check_finite(x); o.status != NINFER_OK) return o;
    const BlockQuantizer quantize = abi::gguf_entry_of_ggml_type(kBlockQuantizers, ggml_type);
    if (!quantize) return refuse(NINFER_E_METHOD, "no reference quantizer for ggml type " + std::to_string(ggml_type));
    const auto &t = abi::kGgufTypes[abi::gguf_row_of_ggml_type(ggml_type)];
    for (std::size_t i = 0; i + t.block_values <= x.size(); i += t.block_values) {
        std::uint8_t *b = out + (i / t.block_values) * t.block_bytes;
        std::fill(b, b + t.block_bytes, std::uint8_t{0});
        if (!quantize(x.data() + i, b))
            return refuse(NINFER_E_METHOD, "block " + std::to_string(i / t.block_values) +
                                               ": every |x| is below GROUP_MAX_EPS (1e-15f); ggml's iq4_nl quantizer stores codes it never computed");
    }
    return {};
}

EncodeOutcome mxfp4_encode_row(std::span<const float> x, std::uint8_t *out) {
    if (auto o = check_finite(x); o.status != NINFER_OK) return o;
    for (std::size_t i = 0; i + 32 <= x.size(); i += 32) {
        const float *xb = x.data() + i;
        std::uint8_t *b = out + (i / 32) * sizeof(block_mxfp4);
        float amax = 0.0f;
        for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(xb[j]));
        std::fill(b, b + sizeof(block_mxfp4), std::uint8_t{0});
        if (amax == 0.0f) continue;  // scale byte 0 and +0 codes
        // 1. floor(log2(amax)) exactly: the binary exponent of amax (subnormals included).
        int exp2 = 0;
        (void)std::frexp(amax, &exp2);
        const int e = exp2 - 1 - 2 + 127;
        if (e < 0 || e > 254)
            return refuse(NINFER_E_SCALE_OVERFLOW, "block " + std::to_string(i / 32) + ": scale exponent " + std::to_string(e - 127) +
                                                       " is outside E8M0");
        b[offsetof(block_mxfp4, e)] = static_cast<std::uint8_t>(e);
        // 2. The nearest E2M1 value times the scale (kvalues_fp4 are doubled, the scale halved).
        const float d = e < 2 ? std::bit_cast<float>(0x00200000u << e) : std::bit_cast<float>(static_cast<std::uint32_t>(e - 1) << 23);
        for (int j = 0; j < 16; ++j)
            b[offsetof(block_mxfp4, qs) + j] = static_cast<std::uint8_t>(best_index_mxfp4(xb[j], d) | best_index_mxfp4(xb[j + 16], d) << 4);
    }
    return {};
}

}  // namespace ninfer::reference::gguf_blocks
