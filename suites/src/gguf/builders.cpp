// SPDX-License-Identifier: Apache-2.0
// The GGUF family's shared case builders (see builders.hpp): block fields of ggml-common.h's
// block_* structs (tensor-formats.txt, the paragraph "A gguf_* weight is a row-major [N,K]
// matrix ..."; storage-layouts.md Section 7), coverage and seeded blocks, and one case builder
// per op, every expected output from the oracle.
#include "builders.hpp"

#include "../plumbing.hpp"

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/gguf_fields.hpp"

#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>

namespace ninfer::suites::gguf {

// ---- small helpers ------------------------------------------------------------------------

std::string name_of(const GgufType &t) { return std::string(t.name); }

std::string shape_slug(const Shape &shape) {
    if (shape.empty()) return "rank0";
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
    return s;
}

std::uint64_t elements(const Shape &shape) {
    std::uint64_t n = 1;
    for (const auto d : shape)
        if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<std::uint64_t>::max();
    return n;
}

Bytes le32(const U32 &w) {
    Bytes b;
    for (const auto x : w) abi::append_le(b, x, 4);
    return b;
}

Bytes le64(const std::vector<std::uint64_t> &w) {
    Bytes b;
    for (const auto x : w) abi::append_le(b, x, 8);
    return b;
}

void put16(Bytes &b, std::size_t at, std::uint16_t w) {
    if (at + 2 > b.size()) throw std::out_of_range("gguf builders: a 16-bit field past the block");
    abi::store_le16(&b[at], w);
}

void put32(Bytes &b, std::size_t at, std::uint32_t w) {
    if (at + 4 > b.size()) throw std::out_of_range("gguf builders: a 32-bit field past the block");
    abi::store_le32(&b[at], w);
}

Bytes concat(const std::vector<Bytes> &blocks) {
    Bytes out;
    for (const auto &b : blocks) out.insert(out.end(), b.begin(), b.end());
    return out;
}

// ---- block fields -------------------------------------------------------------------------

namespace {

/// A scale field of the block layout (ninfer/oracle/gguf_fields.hpp), or false for a field of
/// quants, high bits, signs or sub-scales; iq1_m's scale words are its field `d`, whose nibbles
/// ggml assembles. The names are the table's string literals, so data() ends in NUL.
bool scale_of(const oracle::BlockField &f, ScaleField &out) {
    using B = oracle::BlockFieldKind;
    switch (f.kind) {
    case B::fp16: out = {ScaleKind::fp16, f.offset, f.name.data()}; return true;
    case B::fp32: out = {ScaleKind::fp32, f.offset, f.name.data()}; return true;
    case B::e8m0: out = {ScaleKind::e8m0, f.offset, f.name.data()}; return true;
    case B::ue4m3: out = {ScaleKind::ue4m3, f.offset, f.name.data()}; return true;
    case B::iq1m_scales: out = {ScaleKind::iq1m_nibbles, f.offset, "d"}; return true;
    case B::u16:
    case B::i16:
    case B::bytes: return false;
    }
    return false;
}

}  // namespace

std::vector<ScaleField> scale_fields(const GgufType &t) {
    std::vector<ScaleField> out;
    for (const auto &f : oracle::block_fields_of(t.id))
        if (ScaleField s{}; scale_of(f, s)) out.push_back(s);
    if (out.empty()) throw std::logic_error("gguf builders: no block fields for ggml type " + std::to_string(t.ggml_type));
    return out;
}

void set_scale(Bytes &block, const ScaleField &f, std::uint32_t word) {
    switch (f.kind) {
    case ScaleKind::fp16: put16(block, f.offset, static_cast<std::uint16_t>(word)); break;
    case ScaleKind::fp32: put32(block, f.offset, word); break;
    case ScaleKind::e8m0:
    case ScaleKind::ue4m3: block.at(f.offset) = static_cast<std::uint8_t>(word); break;
    case ScaleKind::iq1m_nibbles:
        // ggml assembles d from the top nibble of each of the four uint16 scale words, low first.
        for (std::size_t k = 0; k < 4; ++k) {
            auto &hi = block.at(f.offset + 2 * k + 1);
            hi = static_cast<std::uint8_t>((hi & 0x0F) | (((word >> (4 * k)) & 0xF) << 4));
        }
        break;
    }
}

std::vector<std::pair<std::string, std::uint32_t>> extreme_scales(ScaleKind kind) {
    switch (kind) {
    case ScaleKind::fp16:
    case ScaleKind::iq1m_nibbles:
        return {{"zero", 0x0000}, {"neg_zero", 0x8000}, {"subnormal_min", 0x0001}, {"subnormal_max", 0x03FF},
                {"largest", 0x7BFF}, {"negative", 0xBC00}, {"neg_largest", 0xFBFF}, {"inf", 0x7C00},
                {"neg_inf", 0xFC00}, {"qnan", 0x7E00}, {"snan", 0x7C01}};
    case ScaleKind::fp32:
        return {{"zero", 0x00000000u}, {"neg_zero", 0x80000000u}, {"subnormal_min", 0x00000001u},
                {"subnormal_max", 0x007FFFFFu}, {"largest", 0x7F7FFFFFu}, {"negative", 0xBF800000u},
                {"neg_largest", 0xFF7FFFFFu}, {"inf", 0x7F800000u}, {"neg_inf", 0xFF800000u}, {"qnan", 0x7FC00000u},
                {"snan", 0x7F800001u}};
    case ScaleKind::e8m0:  // ggml_e8m0_to_fp32_half: e < 2 are binary32 subnormals; 0xFF is 2^127, not NaN
        return {{"e00", 0x00}, {"e01", 0x01}, {"e02", 0x02}, {"e7f", 0x7F}, {"e80", 0x80}, {"efe", 0xFE}, {"eff", 0xFF}};
    case ScaleKind::ue4m3:  // ggml_ue4m3_to_fp32: 0x00 and 0x7F are 0, bit 7 ignored, no NaN
        return {{"u00", 0x00}, {"u01", 0x01}, {"u07", 0x07}, {"u08", 0x08}, {"u7e", 0x7E}, {"u7f", 0x7F},
                {"u80", 0x80}, {"uff", 0xFF}};
    }
    return {};
}

std::uint32_t unit_scale(ScaleKind kind) {
    switch (kind) {
    case ScaleKind::fp16:
    case ScaleKind::iq1m_nibbles: return 0x3C00;
    case ScaleKind::fp32: return 0x3F800000u;
    case ScaleKind::e8m0: return 0x80;   // 2^(128 - 128) times ggml's doubled E2M1 values
    case ScaleKind::ue4m3: return 0x38;  // 1.0, halved by ggml: 0.5
    }
    return 0;
}

namespace {

/// A finite binary16 word of moderate magnitude (2^-10 .. 2^6), random sign and fraction.
std::uint16_t seeded_f16(std::mt19937_64 &rng) {
    const auto r = rng();
    const std::uint32_t exp = 5 + static_cast<std::uint32_t>(r % 16);
    return static_cast<std::uint16_t>(((r >> 8) & 1) << 15 | exp << 10 | ((r >> 16) & 0x3FF));
}

/// A block of zeros with every scale field at its unit word (a second binary16 field at 0.5).
Bytes base_block(const GgufType &t) {
    Bytes b(t.block_bytes, 0);
    bool first = true;
    for (const auto &f : scale_fields(t)) {
        set_scale(b, f, !first && f.kind == ScaleKind::fp16 ? 0x3800 : unit_scale(f.kind));
        first = false;
    }
    return b;
}

/// The byte offset of field `name` of registry row `row`'s block (ninfer/oracle/gguf_fields.hpp).
#define AT_(row, name) std::size_t{oracle::field_at(oracle::block_fields::row, name)}

/// A deterministic byte pattern that runs through all 256 values (odd multiplier).
std::uint8_t pattern(std::size_t seed, std::size_t i) { return static_cast<std::uint8_t>(seed * 29 + i * 53 + 7); }

/// Nibble codes low j, high 15 - j: every code in both halves, distinguishable halves.
void nibble_ramp(Bytes &b, std::size_t at, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) b[at + j] = static_cast<std::uint8_t>((j % 16) | (15 - j % 16) << 4);
}

/// The 12-byte packing of eight 6-bit scales and mins (q4_K, q5_K; ggml's get_scale_min_k4 inverted).
void pack_scale_min_k4(Bytes &b, std::size_t at, const int sc[8], const int mn[8]) {
    for (int j = 0; j < 4; ++j) {
        b[at + j] = static_cast<std::uint8_t>((sc[j] & 63) | ((sc[j + 4] >> 4) << 6));
        b[at + j + 4] = static_cast<std::uint8_t>((mn[j] & 63) | ((mn[j + 4] >> 4) << 6));
        b[at + j + 8] = static_cast<std::uint8_t>((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
    }
}

/// The 12-byte packing of sixteen 6-bit q3_K scales: low 4 bits of scale i in byte i % 8 (nibble
/// i / 8), high 2 bits in byte 8 + i % 4 at bits 2 * (i / 4).
void pack_q3k_scales(Bytes &b, std::size_t at, const int s[16]) {
    for (int i = 0; i < 12; ++i) b[at + static_cast<std::size_t>(i)] = 0;
    for (int i = 0; i < 16; ++i) {
        b[at + static_cast<std::size_t>(i % 8)] |= static_cast<std::uint8_t>((s[i] & 0xF) << (4 * (i / 8)));
        b[at + 8 + static_cast<std::size_t>(i % 4)] |= static_cast<std::uint8_t>(((s[i] >> 4) & 3) << (2 * (i / 4)));
    }
}

/// n blocks made by fill(block, index) from the base block.
std::vector<Bytes> blocks_of(const GgufType &t, int n, const std::function<void(Bytes &, int)> &fill) {
    std::vector<Bytes> out;
    for (int v = 0; v < n; ++v) {
        Bytes b = base_block(t);
        fill(b, v);
        out.push_back(std::move(b));
    }
    return out;
}

}  // namespace

Bytes seeded_block(const GgufType &t, std::mt19937_64 &rng) {
    Bytes b(t.block_bytes);
    for (auto &x : b) x = static_cast<std::uint8_t>(rng());
    for (const auto &f : scale_fields(t)) {
        switch (f.kind) {
        case ScaleKind::fp16:
        case ScaleKind::iq1m_nibbles: set_scale(b, f, seeded_f16(rng)); break;
        case ScaleKind::fp32: {
            const auto r = rng();
            set_scale(b, f, static_cast<std::uint32_t>(((r & 1) << 31) | (117 + (r >> 8) % 20) << 23 | ((r >> 32) & 0x7FFFFF)));
            break;
        }
        case ScaleKind::e8m0: set_scale(b, f, 118 + static_cast<std::uint32_t>(rng() % 20)); break;
        case ScaleKind::ue4m3: set_scale(b, f, static_cast<std::uint32_t>(rng() & 0xFF)); break;
        }
    }
    return b;
}

namespace {

/// Every nibble code in both halves of a block whose 16 code bytes start at `at` (split
/// halves, not interleaved): q4_0, q4_1, iq4_nl's code book, mxfp4.
std::vector<BlockGroup> nibble_codes(const GgufType &t, std::size_t at) {
    return {{"codes", blocks_of(t, 1, [at](Bytes &b, int) { nibble_ramp(b, at, 16); })}};
}

/// q5_0, q5_1 (qh and qs at their fields): every 5-bit word in both halves; high bits in bit order.
std::vector<BlockGroup> five_bit_codes(const GgufType &t, std::size_t qh, std::size_t qs) {
    static constexpr std::uint32_t kQh[] = {0x0000FFFFu, 0xFFFF0000u, 0x5A5AC3C3u, 0x00000001u, 0x80000000u};
    return {{"high_bits", blocks_of(t, 5, [&](Bytes &b, int v) {
                 nibble_ramp(b, qs, 16);
                 put32(b, qh, kQh[v]);
             })}};
}

/// q8_0, q8_1 (its s metadata varied): all 256 int8 codes over 8 blocks.
std::vector<BlockGroup> int8_codes(const GgufType &t, std::size_t qs, bool with_sum) {
    return {{"codes", blocks_of(t, 8, [&](Bytes &b, int v) {
                 for (std::size_t j = 0; j < 32; ++j) b[qs + j] = static_cast<std::uint8_t>(32 * v + static_cast<int>(j));
                 if (with_sum) put16(b, AT_(gguf_q8_1, "s"), static_cast<std::uint16_t>(0x1234 * (v + 1)));
             })}};
}

/// q4_K, q5_K: all 64 6-bit scales and mins at every sub-block position.
std::vector<BlockGroup> k4_scales_and_mins(const GgufType &t) {
    return {{"scales", blocks_of(t, 64, [&](Bytes &b, int v) {
                     int sc[8], mn[8];
                     for (int j = 0; j < 8; ++j) sc[j] = (v + 8 * j) % 64, mn[j] = (v + 8 * j + 37) % 64;
                     static_assert(AT_(gguf_q4_k, "scales") == AT_(gguf_q5_k, "scales") && AT_(gguf_q4_k, "qs") == AT_(gguf_q5_k, "qh"));
                     pack_scale_min_k4(b, AT_(gguf_q4_k, "scales"), sc, mn);
                     for (std::size_t m = AT_(gguf_q4_k, "qs"); m < b.size(); ++m) b[m] = pattern(static_cast<std::size_t>(v), m);  // qh, qs
                 })}};
}

/// The coverage blocks of each type, named by the registry's type name.
namespace coverage {

/// q4_0: every nibble in both halves (split halves, not interleaved)
std::vector<BlockGroup> gguf_q4_0(const GgufType &t) { return nibble_codes(t, AT_(gguf_q4_0, "qs")); }

/// iq4_nl: every code book entry in both halves
std::vector<BlockGroup> gguf_iq4_nl(const GgufType &t) { return nibble_codes(t, AT_(gguf_iq4_nl, "qs")); }

/// q4_1
std::vector<BlockGroup> gguf_q4_1(const GgufType &t) { return nibble_codes(t, AT_(gguf_q4_1, "qs")); }

/// q5_0: every 5-bit word in both halves; high bits in bit order
std::vector<BlockGroup> gguf_q5_0(const GgufType &t) { return five_bit_codes(t, AT_(gguf_q5_0, "qh"), AT_(gguf_q5_0, "qs")); }

/// q5_1
std::vector<BlockGroup> gguf_q5_1(const GgufType &t) { return five_bit_codes(t, AT_(gguf_q5_1, "qh"), AT_(gguf_q5_1, "qs")); }

/// q8_0: all 256 int8 codes over 8 blocks
std::vector<BlockGroup> gguf_q8_0(const GgufType &t) { return int8_codes(t, AT_(gguf_q8_0, "qs"), false); }

/// q8_1 (s: metadata, varied)
std::vector<BlockGroup> gguf_q8_1(const GgufType &t) { return int8_codes(t, AT_(gguf_q8_1, "qs"), true); }

/// q8_K: all 256 codes in one block, bsums consistent
std::vector<BlockGroup> gguf_q8_k(const GgufType &t) {
    return {{"codes", blocks_of(t, 1, [](Bytes &b, int) {
                     constexpr std::size_t qs = AT_(gguf_q8_k, "qs");
                     for (std::size_t j = 0; j < 256; ++j) b[qs + j] = static_cast<std::uint8_t>(j);
                     for (std::size_t i = 0; i < 16; ++i) {
                         int sum = 0;
                         for (std::size_t j = 0; j < 16; ++j) sum += static_cast<std::int8_t>(b[qs + 16 * i + j]);
                         put16(b, AT_(gguf_q8_k, "bsums") + 2 * i, static_cast<std::uint16_t>(static_cast<std::int16_t>(sum)));
                     }
                 })}};
}

/// q1_0: bit order LSB first
std::vector<BlockGroup> gguf_q1_0(const GgufType &t) {
    return {{"bits", blocks_of(t, 1, [](Bytes &b, int) {
                     static constexpr std::uint8_t kBits[16] = {0x00, 0xFF, 0x55, 0xAA, 0x01, 0x80, 0x0F, 0xF0,
                                                                0x33, 0xCC, 0x12, 0x48, 0xFE, 0x7F, 0x96, 0x69};
                     for (std::size_t j = 0; j < 16; ++j) b[AT_(gguf_q1_0, "qs") + j] = kBits[j];
                 })}};
}

/// q2_0: every 2-bit word at every position, u - 1
std::vector<BlockGroup> gguf_q2_0(const GgufType &t) {
    return {{"codes", blocks_of(t, 1, [](Bytes &b, int) {
                     for (std::size_t j = 0; j < 16; ++j) b[AT_(gguf_q2_0, "qs") + j] = j < 8 ? 0xE4 : static_cast<std::uint8_t>(0x1B ^ (j * 0x11));
                 })}};
}

/// mxfp4: every code in both halves
std::vector<BlockGroup> gguf_mxfp4(const GgufType &t) { return nibble_codes(t, AT_(gguf_mxfp4, "qs")); }

/// ggml's nvfp4: every code in both halves of each sub-block, distinct sub-block scales
std::vector<BlockGroup> gguf_nvfp4(const GgufType &t) {
    return {{"codes", blocks_of(t, 1, [](Bytes &b, int) {
                     nibble_ramp(b, AT_(gguf_nvfp4, "qs"), 32);
                     b[AT_(gguf_nvfp4, "d0")] = 0x38, b[AT_(gguf_nvfp4, "d1")] = 0x30, b[AT_(gguf_nvfp4, "d2")] = 0x41, b[AT_(gguf_nvfp4, "d3")] = 0x09;
                 })}};
}

/// tq1_0: every byte value in qs, varied qh: ggml's base-3 digits
std::vector<BlockGroup> gguf_tq1_0(const GgufType &t) {
    return {{"trits", blocks_of(t, 6, [](Bytes &b, int v) {
                     for (std::size_t m = 0; m < 48; ++m) b[AT_(gguf_tq1_0, "qs") + m] = static_cast<std::uint8_t>(48 * v + static_cast<int>(m));
                     for (std::size_t j = 0; j < 4; ++j) b[AT_(gguf_tq1_0, "qh") + j] = static_cast<std::uint8_t>(43 * (4 * v + static_cast<int>(j)) + 242);
                 })}};
}

/// tq2_0: every 2-bit field at every shift, offset 1
std::vector<BlockGroup> gguf_tq2_0(const GgufType &t) {
    return {{"offsets", blocks_of(t, 2, [](Bytes &b, int v) {
                     for (std::size_t m = 0; m < 64; ++m) b[AT_(gguf_tq2_0, "qs") + m] = v ? pattern(3, m) : (m % 2 ? 0x1B : 0xE4);
                 })}};
}

/// q2_K: all 16 scales and mins at every sub-block position
std::vector<BlockGroup> gguf_q2_k(const GgufType &t) {
    return {{"scales", blocks_of(t, 16, [](Bytes &b, int v) {
                     for (int i = 0; i < 16; ++i) b[AT_(gguf_q2_k, "scales") + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(((v + i) % 16) | ((v + i + 8) % 16) << 4);
                     for (std::size_t m = 0; m < 64; ++m) b[AT_(gguf_q2_k, "qs") + m] = pattern(static_cast<std::size_t>(v), m);
                 })}};
}

/// q3_K: all 64 6-bit scales at every sub-block position
std::vector<BlockGroup> gguf_q3_k(const GgufType &t) {
    return {{"scales", blocks_of(t, 64, [](Bytes &b, int v) {
                     int s[16];
                     for (int i = 0; i < 16; ++i) s[i] = (v + 4 * i) % 64;
                     pack_q3k_scales(b, AT_(gguf_q3_k, "scales"), s);
                     static_assert(AT_(gguf_q3_k, "hmask") == 0 && AT_(gguf_q3_k, "qs") + 64 == AT_(gguf_q3_k, "scales"));
                     for (std::size_t m = 0; m < AT_(gguf_q3_k, "scales"); ++m) b[m] = pattern(static_cast<std::size_t>(v), m);
                 })}};
}

/// q4_K, q5_K: all 64 6-bit scales and mins at every sub-block position
std::vector<BlockGroup> gguf_q4_k(const GgufType &t) { return k4_scales_and_mins(t); }

/// q4_K, q5_K: all 64 6-bit scales and mins at every sub-block position
std::vector<BlockGroup> gguf_q5_k(const GgufType &t) { return k4_scales_and_mins(t); }

/// q6_K: every int8 scale byte, every 6-bit code
std::vector<BlockGroup> gguf_q6_k(const GgufType &t) {
    return {{"scales", blocks_of(t, 16, [](Bytes &b, int v) {
                     for (std::size_t i = 0; i < 16; ++i) b[AT_(gguf_q6_k, "scales") + i] = static_cast<std::uint8_t>(16 * v + 17 * static_cast<int>(i));
                     static_assert(AT_(gguf_q6_k, "ql") == 0);  // ql, then qh: all bytes before the scales
                     for (std::size_t m = 0; m < AT_(gguf_q6_k, "scales"); ++m) b[m] = pattern(static_cast<std::size_t>(v), m);
                 })}};
}

/// iq2_xxs: 256 grid indices, 128 ksigns entries, 16 scales over 8 blocks
std::vector<BlockGroup> gguf_iq2_xxs(const GgufType &t) {
    return {{"grid", blocks_of(t, 8, [](Bytes &b, int v) {
                     for (int ib = 0; ib < 8; ++ib) {
                         std::uint32_t a1 = static_cast<std::uint32_t>((8 * v + ib) % 16) << 28;
                         for (int l = 0; l < 4; ++l) {
                             const int e = 32 * v + 4 * ib + l;
                             b[AT_(gguf_iq2_xxs, "qs") + 8 * static_cast<std::size_t>(ib) + static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(e);
                             a1 |= static_cast<std::uint32_t>((e + 64) % 128) << (7 * l);
                         }
                         put32(b, AT_(gguf_iq2_xxs, "qs") + 4 + 8 * static_cast<std::size_t>(ib), a1);
                     }
                 })}};
}

/// iq2_xs: 512 grid indices over 16 blocks, all ksigns, every 4-bit scale
std::vector<BlockGroup> gguf_iq2_xs(const GgufType &t) {
    return {{"grid", blocks_of(t, 16, [](Bytes &b, int v) {
                     for (int ib = 0; ib < 8; ++ib) {
                         for (int l = 0; l < 4; ++l) {
                             const int e = 32 * v + 4 * ib + l;
                             put16(b, AT_(gguf_iq2_xs, "qs") + 2 * static_cast<std::size_t>(4 * ib + l), static_cast<std::uint16_t>(e | ((e + 5) % 128) << 9));
                         }
                         b[AT_(gguf_iq2_xs, "scales") + static_cast<std::size_t>(ib)] = static_cast<std::uint8_t>((2 * ib + v) % 16 | ((2 * ib + v + 1) % 16) << 4);
                     }
                 })}};
}

/// iq2_s: 1024 grid indices over 32 blocks, every sign byte, every scale
std::vector<BlockGroup> gguf_iq2_s(const GgufType &t) {
    return {{"grid", blocks_of(t, 32, [](Bytes &b, int v) {
                     for (int ib = 0; ib < 8; ++ib) {
                         std::uint8_t qh = 0;
                         for (int l = 0; l < 4; ++l) {
                             const int e = 32 * v + 4 * ib + l;
                             b[AT_(gguf_iq2_s, "qs") + static_cast<std::size_t>(4 * ib + l)] = static_cast<std::uint8_t>(e);
                             b[AT_(gguf_iq2_s, "qs") + 32 + static_cast<std::size_t>(4 * ib + l)] = static_cast<std::uint8_t>(e * 7 + 3);  // the signs
                             qh = static_cast<std::uint8_t>(qh | ((e >> 8) & 3) << (2 * l));
                         }
                         b[AT_(gguf_iq2_s, "qh") + static_cast<std::size_t>(ib)] = qh;
                         b[AT_(gguf_iq2_s, "scales") + static_cast<std::size_t>(ib)] = static_cast<std::uint8_t>((2 * ib + v) % 16 | ((2 * ib + v + 1) % 16) << 4);
                     }
                 })}};
}

/// iq3_xxs: 256 grid indices over 4 blocks, all ksigns, every scale
std::vector<BlockGroup> gguf_iq3_xxs(const GgufType &t) {
    return {{"grid", blocks_of(t, 4, [](Bytes &b, int v) {
                     for (std::size_t m = 0; m < 64; ++m) b[AT_(gguf_iq3_xxs, "qs") + m] = static_cast<std::uint8_t>(64 * v + static_cast<int>(m));
                     for (int ib = 0; ib < 8; ++ib) {
                         std::uint32_t aux = static_cast<std::uint32_t>((4 * v + 2 * ib + v / 2) % 16) << 28;
                         for (int l = 0; l < 4; ++l) aux |= static_cast<std::uint32_t>((32 * v + 4 * ib + l) % 128) << (7 * l);
                         put32(b, AT_(gguf_iq3_xxs, "qs") + 64 + 4 * static_cast<std::size_t>(ib), aux);  // scales_and_signs
                     }
                 })}};
}

/// iq3_s: 512 grid indices over 8 blocks, every sign byte, every scale
std::vector<BlockGroup> gguf_iq3_s(const GgufType &t) {
    return {{"grid", blocks_of(t, 8, [](Bytes &b, int v) {
                     for (int k = 0; k < 8; ++k) {
                         std::uint8_t qh = 0;
                         for (int e = 0; e < 8; ++e) {
                             const int idx = 64 * v + 8 * k + e;
                             b[AT_(gguf_iq3_s, "qs") + static_cast<std::size_t>(8 * k + e)] = static_cast<std::uint8_t>(idx);
                             qh = static_cast<std::uint8_t>(qh | ((idx >> 8) & 1) << e);
                         }
                         b[AT_(gguf_iq3_s, "qh") + static_cast<std::size_t>(k)] = qh;
                         for (int l = 0; l < 4; ++l) b[AT_(gguf_iq3_s, "signs") + static_cast<std::size_t>(4 * k + l)] = static_cast<std::uint8_t>(32 * v + 4 * k + l);
                     }
                     for (int i = 0; i < 4; ++i) b[AT_(gguf_iq3_s, "scales") + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((2 * i + 8 * v) % 16 | ((2 * i + 8 * v + 1) % 16) << 4);
                 })}};
}

/// iq1_s: 2048 grid indices over 64 blocks, both delta signs, every 3-bit scale
std::vector<BlockGroup> gguf_iq1_s(const GgufType &t) {
    return {{"grid", blocks_of(t, 64, [](Bytes &b, int v) {
                     for (int ib = 0; ib < 8; ++ib) {
                         std::uint16_t qh = static_cast<std::uint16_t>(((v + ib) % 8) << 12 | ((v + ib) % 2) << 15);
                         for (int l = 0; l < 4; ++l) {
                             const int e = 32 * v + 4 * ib + l;
                             b[AT_(gguf_iq1_s, "qs") + static_cast<std::size_t>(4 * ib + l)] = static_cast<std::uint8_t>(e);
                             qh = static_cast<std::uint16_t>(qh | ((e >> 8) & 7) << (3 * l));
                         }
                         put16(b, AT_(gguf_iq1_s, "qh") + 2 * static_cast<std::size_t>(ib), qh);
                     }
                 })}};
}

/// iq1_m: 2048 grid indices over 64 blocks, every delta sign, every 3-bit scale
std::vector<BlockGroup> gguf_iq1_m(const GgufType &t) {
    return {{"grid", blocks_of(t, 64, [&](Bytes &b, int v) {
                     for (int ib = 0; ib < 8; ++ib) {
                         int idx[4];
                         for (int l = 0; l < 4; ++l) {
                             idx[l] = 32 * v + 4 * ib + l;
                             b[AT_(gguf_iq1_m, "qs") + static_cast<std::size_t>(4 * ib + l)] = static_cast<std::uint8_t>(idx[l]);
                         }
                         const int s = (v + ib) % 16;  // the delta signs of the four groups
                         b[AT_(gguf_iq1_m, "qh") + 2 * static_cast<std::size_t>(ib)] =
                             static_cast<std::uint8_t>(((idx[0] >> 8) & 7) | (s & 1) << 3 | ((idx[1] >> 8) & 7) << 4 | (s & 2) << 6);
                         b[AT_(gguf_iq1_m, "qh") + 1 + 2 * static_cast<std::size_t>(ib)] =
                             static_cast<std::uint8_t>(((idx[2] >> 8) & 7) | (s & 4) << 1 | ((idx[3] >> 8) & 7) << 4 | (s & 8) << 4);
                     }
                     // Sub-block scales: 3 bits each, 12 bits per uint16, its top nibble a part of d.
                     for (std::size_t k = 0; k < 4; ++k) {
                         const int s0 = (v + static_cast<int>(4 * k)) % 8, s1 = (v + static_cast<int>(4 * k) + 1) % 8,
                                   s2 = (v + static_cast<int>(4 * k) + 2) % 8, s3 = (v + static_cast<int>(4 * k) + 3) % 8;
                         const std::uint16_t lo = static_cast<std::uint16_t>(s0 | s1 << 3 | s2 << 6 | s3 << 9);
                         constexpr std::size_t sc = AT_(gguf_iq1_m, "scales");
                         b[sc + 2 * k] = static_cast<std::uint8_t>(lo);
                         b[sc + 1 + 2 * k] = static_cast<std::uint8_t>((b[sc + 1 + 2 * k] & 0xF0) | (lo >> 8));
                     }
                 })}};
}

/// iq4_xs: all 64 6-bit scales over 8 blocks, every code book entry
std::vector<BlockGroup> gguf_iq4_xs(const GgufType &t) {
    return {{"scales", blocks_of(t, 8, [](Bytes &b, int v) {
                     std::uint16_t sh = 0;
                     for (int ib = 0; ib < 8; ++ib) {
                         const int ls = (8 * v + 3 * ib) % 64;
                         b[AT_(gguf_iq4_xs, "scales_l") + static_cast<std::size_t>(ib / 2)] |= static_cast<std::uint8_t>((ls & 0xF) << (4 * (ib % 2)));
                         sh = static_cast<std::uint16_t>(sh | (ls >> 4) << (2 * ib));
                         nibble_ramp(b, AT_(gguf_iq4_xs, "qs") + 16 * static_cast<std::size_t>(ib), 16);
                     }
                     put16(b, AT_(gguf_iq4_xs, "scales_h"), sh);
                 })}};
}

}  // namespace coverage

#undef AT_

/// The coverage builders by registry row.
using CoverageOf = std::vector<BlockGroup> (*)(const GgufType &);
constexpr abi::GgufTable<CoverageOf> kCoverage = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) &coverage::name,
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

}  // namespace

std::vector<BlockGroup> coverage_blocks(const GgufType &t) {
    const CoverageOf of = abi::gguf_entry(kCoverage, t.id);
    if (!of) throw std::logic_error("gguf builders: no coverage blocks for ggml type " + std::to_string(t.ggml_type));
    return of(t);
}

// ---- cases of each op ---------------------------------------------------------------------

Case call_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
               std::uint32_t format, std::uint32_t layout, const Shape &shape) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.format = format;
    c.layout = layout;
    c.shape = shape;
    c.count = elements(shape);
    return c;
}

namespace {

bool is_nan32(std::uint32_t w) { return (w & 0x7F800000u) == 0x7F800000u && (w & 0x007FFFFFu) != 0; }

}  // namespace

Case decode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const GgufType &t, const Shape &shape, const Bytes &payload, std::uint32_t op) {
    Case c = call_case(rule, slug, level, source, op, t.id, kBlocks, shape);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    const auto g = ggml_blocks_geometry(t, shape);
    if (!g || payload.size() != g->payload_bytes) {
        c.expect.status = NINFER_E_SIZE;
        c.expect.detail = NINFER_DETAIL_SIZE;
        return c;
    }
    if (op != NINFER_OP_quant_decode) return c;
    auto &values = c.expect.output(NINFER_PLANE_VALUES);
    values.reserve(4 * g->rows * g->blocks_per_row * t.block_values);
    for (std::size_t at = 0; at < payload.size(); at += t.block_bytes) {
        const auto b = gguf_dequantize_block(t, std::span<const std::uint8_t>(payload).subspan(at, t.block_bytes));
        for (const auto w : b.ggml) {
            put_word(values, w, 4);
            if (is_nan32(w)) c.nan = NanPolicy::any;
        }
    }
    return c;
}

Case quantize_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                   const GgufType &t, const Shape &shape, const U32 &x) {
    Case c = call_case(rule, slug, level, source, NINFER_OP_quant_encode, t.id, kBlocks, shape);
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_ENCODER_ggml_quantize_ref;
    c.input(NINFER_PLANE_SOURCE) = le32(x);
    if (!t.ref_quantizer) {
        c.expect.status = NINFER_E_METHOD;
        return c;
    }
    const auto g = ggml_blocks_geometry(t, shape);
    if (!g) {
        c.expect.status = NINFER_E_SIZE;
        c.expect.detail = NINFER_DETAIL_SIZE;
        return c;
    }
    if (x.size() != c.count) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        return c;
    }
    // Each block's bytes; where ggml's block is partly undefined (GgufQuantized::partial), the
    // refusal is expected and ggml's own block, its defined bits alone, is the other outcome.
    Bytes out, mask;
    bool partial = false;
    for (std::size_t at = 0; at < x.size(); at += t.block_values) {
        const auto q = gguf_quantize_block_ref(t, std::span<const std::uint32_t>(x).subspan(at, t.block_values));
        if (q.status != NINFER_OK && q.partial.empty()) {
            c.expect.status = q.status;
            return c;
        }
        if (q.status != NINFER_OK) c.expect.status = q.status;
        partial |= !q.partial.empty();
        out.insert(out.end(), q.partial.empty() ? q.block.begin() : q.partial.begin(), q.partial.empty() ? q.block.end() : q.partial.end());
        if (q.partial.empty()) mask.insert(mask.end(), q.block.size(), 0xFF);
        else mask.insert(mask.end(), q.partial_mask.begin(), q.partial_mask.end());
    }
    if (!partial) {
        c.expect.output(NINFER_PLANE_PAYLOAD) = std::move(out);
        return c;
    }
    add_alternative(c, rule, "refuse",
                    {"zero_scale", NINFER_OK, 0, {{NINFER_PLANE_PAYLOAD, 0, std::move(out)}}, {{NINFER_PLANE_PAYLOAD, 0, std::move(mask)}}});
    return c;
}

Bytes mxfp4_block_bytes(const Mxfp4Block &b) {
    Bytes out(17, 0);
    out[0] = b.scale;
    for (std::size_t j = 0; j < 16; ++j) out[1 + j] = static_cast<std::uint8_t>((b.codes.at(j) & 0xF) | (b.codes.at(j + 16) & 0xF) << 4);
    return out;
}

Case mxfp4_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, const Shape &shape,
                const U32 &x) {
    const GgufType &t = *find_gguf_type("gguf_mxfp4");
    Case c = call_case(rule, slug, level, source, NINFER_OP_quant_encode, t.id, kBlocks, shape);
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_ENCODER_mxfp4_ocp;
    c.input(NINFER_PLANE_SOURCE) = le32(x);
    if (!ggml_blocks_geometry(t, shape)) {
        c.expect.status = NINFER_E_SIZE;
        c.expect.detail = NINFER_DETAIL_SIZE;
        return c;
    }
    if (x.size() != c.count) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        return c;
    }
    Bytes out;
    for (std::size_t at = 0; at < x.size(); at += 32) {
        const auto b = mxfp4_encode_block(std::span<const std::uint32_t>(x).subspan(at, 32));
        if (b.status != NINFER_OK) {
            c.expect.status = b.status;
            return c;
        }
        const auto bytes = mxfp4_block_bytes(b);
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    c.expect.output(NINFER_PLANE_PAYLOAD) = std::move(out);
    return c;
}

Case select_case(const std::string &rule, const std::string &slug, Level level, const GgufType &t, const Shape &shape,
                 const Bytes &payload, const std::vector<std::uint64_t> &rows_plane, bool gather) {
    Case c = call_case(rule, slug, level, "boundary", NINFER_OP_rows_select, t.id, kBlocks, shape);
    c.flags = gather ? NINFER_FLAG_GATHER : 0;
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    c.input(NINFER_PLANE_ROWS) = le64(rows_plane);
    const auto g = ggml_blocks_geometry(t, shape);
    if (!g || payload.size() != g->payload_bytes) {
        c.expect.status = NINFER_E_SIZE;
        c.expect.detail = NINFER_DETAIL_SIZE;
        return c;
    }
    std::vector<std::uint64_t> rows;
    if (gather) rows = rows_plane;
    else if (rows_plane.size() == 2 && rows_plane[1] <= g->rows)
        for (std::uint64_t r = 0; r < rows_plane[1]; ++r) rows.push_back(rows_plane[0] + r);
    else if (rows_plane.size() == 2) rows.push_back(g->rows);  // a count past N: out of range
    try {
        c.expect.output(NINFER_PLANE_PAYLOAD) = ggml_blocks_select_rows(t, shape, payload, rows);
    } catch (const std::invalid_argument &) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;  // no rows, or a row past N
    }
    return c;
}

std::vector<const GgufType *> quantizer_types() {
    std::vector<const GgufType *> out;
    for (const auto &t : kGgufTypes)
        if (t.ref_quantizer) out.push_back(&t);
    return out;
}

// ---- suites ---------------------------------------------------------------------------------

std::vector<Case> mark_readings(std::vector<Case> cases) { return mark_rule_readings(std::move(cases)); }

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return random_with(make, &mark_readings);
}

std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    return cached_golden_with(make, &mark_readings);
}

}  // namespace ninfer::suites::gguf
