// SPDX-License-Identifier: Apache-2.0
// Helpers of the GGUF mutants (mutant_gguf_*.cpp; tensor-formats.txt, the gguf_* table;
// storage-layouts.md Section 7): ABI v2 (mutant_common_v2.hpp). A mutant lets the reference serve
// the call, then redoes the one broken step for one type over the planes the reference wrote:
// re-decoding each block of that type's quant_decode with its own block decoder, or patching the
// blocks of that type's quant_encode. Built on the reference's own binary16 and nearest_int
// (gguf_blocks.hpp); every other call is the reference's.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

#include "mutant_common_v2.hpp"
#include "gguf_blocks.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/ggml_tables.hpp"

namespace ninfer::mutants::gguf {

namespace gn = reference::gguf_blocks;
namespace tables = oracle::ggml;

inline const abi::GgufType &type_of(std::uint32_t format) { return *abi::find_id(abi::kGgufTypes, format); }

inline std::uint16_t u16(const std::uint8_t *p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
inline std::uint32_t u32(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
           static_cast<std::uint32_t>(p[3]) << 24;
}
inline float half_at(const std::uint8_t *p) { return gn::fp16_to_f32(u16(p)); }

/// Element i of a values plane as the reference writes it (a NaN as 0x7FC00000).
inline void put(std::span<std::uint8_t> out, std::uint64_t i, float v) {
    const std::uint32_t w = v != v ? 0x7FC00000u : std::bit_cast<std::uint32_t>(v);
    std::memcpy(out.data() + 4 * i, &w, 4);
}

/// ggml's get_scale_min_k4: scale and min `j` (0..7) of a K-quant's 12 packed 6-bit scale bytes.
inline void scale_min_k4(const std::uint8_t *q, int j, int &sc, int &mn) {
    if (j < 4) {
        sc = q[j] & 63;
        mn = q[j + 4] & 63;
    } else {
        sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        mn = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

/// One q4_K block (d, dmin, scales[12], qs[128]) in ggml's order, with the two steps a mutant
/// may break as parameters: `scale_min(q, j, sc, mn)` unpacks sub-block j's scale and min, and
/// `element(d_sc, code, dmin_m)` is ggml's `d_sc * code - dmin_m`.
template <class ScaleMin, class Element>
void q4_k_block(const std::uint8_t *x, float *y, ScaleMin scale_min, Element element) {
    const float d = half_at(x), dmin = half_at(x + 2);
    const std::uint8_t *q = x + 16;
    for (int is = 0; is < 8; is += 2, q += 32) {
        int sc = 0, mn = 0;
        scale_min(x + 4, is, sc, mn);
        const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(mn);
        scale_min(x + 4, is + 1, sc, mn);
        const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(mn);
        for (int l = 0; l < 32; ++l) *y++ = element(d1, static_cast<float>(q[l] & 0xF), m1);
        for (int l = 0; l < 32; ++l) *y++ = element(d2, static_cast<float>(q[l] >> 4), m2);
    }
}

/// ggml's element of a K-quant with a min: d_sc * code - dmin_m, two binary32 roundings.
inline float kquant_element(float d_sc, float code, float dmin_m) { return d_sc * code - dmin_m; }

/// After the reference served quant_decode of `Format`: every block decoded again by
/// `block(bytes, y)` (y: the block's first element in the values plane, as a float array).
template <std::uint32_t Format, class Block>
void redecode(const ninfer_call_v2 *c, Block block) {
    if (c->op != NINFER_OP_quant_decode || c->format != Format) return;
    const auto &t = type_of(Format);
    const auto in = v2::input_bytes(c, NINFER_PLANE_PAYLOAD);
    const auto out = v2::output_bytes(c, NINFER_PLANE_VALUES);
    const std::uint64_t blocks = in.size() / t.block_bytes;
    if (out.size() < blocks * t.block_values * 4) return;
    float y[256];
    for (std::uint64_t i = 0; i < blocks; ++i) {
        block(in.data() + i * t.block_bytes, y);
        for (std::uint32_t j = 0; j < t.block_values; ++j) put(out, i * t.block_values + j, y[j]);
    }
}

/// After the reference served quant_encode of `Format`: each block of the payload with its
/// binary32 source values, patched by `patch(x, block)`.
template <std::uint32_t Format, class Patch>
void repatch_encoded(const ninfer_call_v2 *c, Patch patch) {
    if (c->op != NINFER_OP_quant_encode || c->format != Format) return;
    const auto &t = type_of(Format);
    const auto src = v2::input_bytes(c, NINFER_PLANE_SOURCE);
    const auto out = v2::output_bytes(c, NINFER_PLANE_PAYLOAD);
    const std::uint64_t blocks = out.size() / t.block_bytes;
    if (src.size() != blocks * t.block_values * 4) return;
    float x[256];
    for (std::uint64_t i = 0; i < blocks; ++i) {
        std::memcpy(x, src.data() + i * t.block_values * 4, t.block_values * 4);
        patch(static_cast<const float *>(x), out.data() + i * t.block_bytes);
    }
}

}  // namespace ninfer::mutants::gguf
