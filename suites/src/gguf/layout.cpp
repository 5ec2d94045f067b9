// SPDX-License-Identifier: Apache-2.0
// Suite layout.ggml_blocks_v1: the ggml_blocks_v1 layout (storage-layouts.md Sections 1 and 7;
// tensor-formats.txt, the gguf_* paragraph): which format/layout pairs the GGUF ops accept, the
// geometry (rank 1..16, no zero dimension, K a multiple of the block values), the payload size,
// row slices and gathers as byte ranges.
#include "builders.hpp"

namespace ninfer::suites::gguf {

namespace {

/// A seeded payload of a shape's blocks.
Bytes seeded_payload(const GgufType &t, const Shape &shape, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Bytes> blocks;
    for (std::uint64_t i = 0; i < elements(shape) / t.block_values; ++i) blocks.push_back(seeded_block(t, rng));
    return concat(blocks);
}

/// A call refused before any plane is read (the pair, the shape): its status and detail.
Case refused(const std::string &rule, const std::string &slug, std::uint32_t op, std::uint32_t format, std::uint32_t layout,
             const Shape &shape, const Bytes &payload, std::int32_t status, std::uint32_t detail = 0) {
    Case c = call_case(rule, slug, Level::quick, "registry", op, format, layout, shape);
    if (op == NINFER_OP_quant_encode) {
        c.format_in = NINFER_FORMAT_fp32;
        c.method = NINFER_ENCODER_ggml_quantize_ref;
        c.input(NINFER_PLANE_SOURCE) = Bytes(4 * std::min<std::uint64_t>(c.count, 4096), 0);
    } else {
        c.input(NINFER_PLANE_PAYLOAD) = payload;
        if (op == NINFER_OP_rows_select) c.input(NINFER_PLANE_ROWS) = le64({0, 1});
    }
    c.expect.status = status;
    c.expect.detail = detail;
    return c;
}

const char *op_slug(std::uint32_t op) {
    switch (op) {
    case NINFER_OP_payload_validate: return "validate";
    case NINFER_OP_quant_decode: return "decode";
    case NINFER_OP_rows_select: return "select";
    case NINFER_OP_quant_encode: return "encode";
    default: return "op";
    }
}

void registry_cases(std::vector<Case> &out) {
    // Every GGUF type, .ninfer registry or not, is accepted in ggml_blocks_v1.
    for (const auto &t : kGgufTypes) {
        const Shape shape{1, t.block_values};
        out.push_back(decode_case(rule::gguf_registry, name_of(t) + ".accepted", Level::quick, "registry", t, shape,
                                  seeded_payload(t, shape, kGoldenSeed ^ t.id), NINFER_OP_payload_validate));
    }
    // A GGUF type in any other layout: refused by name, before any byte is read.
    for (const auto &t : kGgufTypes)
        for (const auto &l : abi::kLayouts) {
            if (l.id == kBlocks) continue;
            const std::vector<std::uint32_t> ops =
                l.id == NINFER_LAYOUT_contiguous_le_v1
                    ? std::vector<std::uint32_t>{NINFER_OP_payload_validate, NINFER_OP_quant_decode, NINFER_OP_rows_select}
                    : std::vector<std::uint32_t>{NINFER_OP_payload_validate};
            for (const auto op : ops)
                out.push_back(refused(rule::gguf_registry, name_of(t) + "." + std::string(l.name) + "." + op_slug(op), op, t.id,
                                      l.id, {1, t.block_values}, Bytes(t.block_bytes, 0), NINFER_E_LAYOUT));
        }
    // A GGUF type's encoder in another layout (the encoders of ggml_quantize_ref's types).
    for (const auto *t : quantizer_types())
        out.push_back(refused(rule::gguf_registry, name_of(*t) + ".contiguous_le_v1.encode", NINFER_OP_quant_encode, t->id,
                              NINFER_LAYOUT_contiguous_le_v1, {1, t->block_values}, {}, NINFER_E_LAYOUT));
    // Any other format in ggml_blocks_v1 (payload_validate; quant_decode for the block formats).
    for (const auto &f : abi::kAllFormats) {
        if (f.family == abi::Family::gguf) continue;
        for (const auto op : {NINFER_OP_payload_validate, NINFER_OP_quant_decode}) {
            if (op == NINFER_OP_quant_decode && f.family == abi::Family::word) continue;
            out.push_back(refused(rule::gguf_registry, std::string(f.name) + ".ggml_blocks_v1." + op_slug(op), op, f.id, kBlocks,
                                  {1, 256}, Bytes(16, 0), NINFER_E_LAYOUT));
        }
    }
}

/// A shape of rank r (1..16): K = one block, the first leading dimension 2, the others 1.
Shape rank_shape(const GgufType &t, std::size_t r) {
    Shape s;
    for (std::size_t i = 0; i + 1 < r; ++i) s.push_back(i == 0 ? 2 : 1);
    s.push_back(t.block_values);
    return s;
}

void geometry_cases(std::vector<Case> &out) {
    for (const auto &t : kGgufTypes) {
        const std::string nm = name_of(t);
        const std::uint64_t bv = t.block_values;
        // Accepted: ranks 1, 2, 3, 16 (every rank 1..16 for q4_0) by payload_validate.
        for (std::size_t r = 1; r <= 16; ++r) {
            if (t.id != NINFER_FORMAT_gguf_q4_0 && r > 3 && r < 16) continue;
            const Shape s = rank_shape(t, r);
            out.push_back(decode_case(rule::gguf_geometry, nm + ".rank" + std::to_string(r), Level::quick, "boundary", t, s,
                                      seeded_payload(t, s, kGoldenSeed ^ (t.id * 17 + r)), NINFER_OP_payload_validate));
        }
        Shape r16(15, 1);
        r16.push_back(bv);
        // The decode of a rank-16 tensor: an odd leading shape of gguf.decode.<type> (its values).
        out.push_back(decode_case(rule::gguf_decode(t), nm + ".rank16", Level::quick, "boundary", t, r16,
                                  seeded_payload(t, r16, kGoldenSeed ^ (t.id * 19)), NINFER_OP_quant_decode));
        // Refused: K not a multiple of the block values, rank 0, a zero dimension. (Rank 17 cannot
        // be offered: the ABI's shape holds NINFER_MAX_RANK = 16 dimensions, and vector files none more.)
        std::vector<std::pair<std::string, Shape>> bad = {{"k_plus_1", {1, bv + 1}}, {"rank0", {}}, {"zero_rows", {0, bv}},
                                                          {"zero_middle", {2, 0, bv}}, {"zero_k", {3, 0}}};
        if (bv > 1) bad.push_back({"k_half", {2, bv / 2}});
        // (quant_decode too for K; a refusal reads no plane, so 16 bytes stand for any payload.)
        for (const auto &[slug, shape] : bad)
            for (const auto op : {NINFER_OP_payload_validate, NINFER_OP_quant_decode}) {
                if (op == NINFER_OP_quant_decode && slug != "k_plus_1") continue;
                out.push_back(refused(rule::gguf_geometry, nm + "." + slug + "." + op_slug(op), op, t.id, kBlocks, shape,
                                      Bytes(16, 0), NINFER_E_SIZE, NINFER_DETAIL_SIZE));
            }
        if (t.ref_quantizer)
            out.push_back(refused(rule::gguf_geometry, nm + ".k_plus_1.encode", NINFER_OP_quant_encode, t.id, kBlocks, {1, bv + 1},
                                  {}, NINFER_E_SIZE, NINFER_DETAIL_SIZE));
    }
}

void size_cases(std::vector<Case> &out) {
    for (const auto &t : kGgufTypes) {
        const std::string nm = name_of(t);
        const Shape shape{1, t.block_values};
        const Bytes p = seeded_payload(t, shape, kGoldenSeed ^ (t.id * 23));
        for (const auto &[slug, delta] : std::vector<std::pair<std::string, long>>{{"short1", -1}, {"long1", 1}, {"empty", -1000000}}) {
            Bytes q = p;
            q.resize(static_cast<std::size_t>(std::max(0L, static_cast<long>(q.size()) + delta)), 0x5A);
            for (const auto op : {NINFER_OP_payload_validate, NINFER_OP_quant_decode})
                if (op == NINFER_OP_payload_validate || slug != "empty")
                    out.push_back(decode_case(rule::gguf_size, nm + "." + slug + "." + op_slug(op), Level::quick, "boundary", t, shape, q, op));
            if (slug == "short1") out.push_back(select_case(rule::gguf_size, nm + "." + slug + ".select", Level::quick, t, shape, q, {0, 1}, false));
        }
        // A shape whose payload size overflows uint64.
        out.push_back(refused(rule::gguf_size, nm + ".overflow.validate", NINFER_OP_payload_validate, t.id, kBlocks,
                              {1ull << 62, 4ull * t.block_values}, Bytes(64, 0), NINFER_E_SIZE, NINFER_DETAIL_SIZE));
    }
}

void rows_cases(std::vector<Case> &out) {
    for (const auto &t : kGgufTypes) {
        const std::string nm = name_of(t);
        const Shape shape{3, t.block_values};
        const Bytes p = seeded_payload(t, shape, kGoldenSeed ^ (t.id * 29));
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".rows1_2", Level::quick, t, shape, p, {1, 2}, false));
        out.push_back(select_case(rule::gguf_rows_gather, nm + ".rows2_0_0", Level::quick, t, shape, p, {2, 0, 0}, true));
        // Whole tensor, single rows, and the refusals, on three block shapes (32, 256 values, iq1_m's scales).
        if (t.id != NINFER_FORMAT_gguf_q4_0 && t.id != NINFER_FORMAT_gguf_q6_k && t.id != NINFER_FORMAT_gguf_iq1_m) continue;
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".all", Level::quick, t, shape, p, {0, 3}, false));
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".last", Level::quick, t, shape, p, {2, 1}, false));
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".past_end", Level::quick, t, shape, p, {2, 2}, false));
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".count0", Level::quick, t, shape, p, {0, 0}, false));
        out.push_back(select_case(rule::gguf_rows_slice, nm + ".first_past_end", Level::quick, t, shape, p, {3, 1}, false));
        out.push_back(select_case(rule::gguf_rows_gather, nm + ".one_row_nine_times", Level::quick, t, shape, p,
                                  std::vector<std::uint64_t>(9, 1), true));
        out.push_back(select_case(rule::gguf_rows_gather, nm + ".index_past_end", Level::quick, t, shape, p, {0, 3}, true));
        out.push_back(select_case(rule::gguf_rows_gather, nm + ".empty", Level::quick, t, shape, p, {}, true));
        const Shape six{6, t.block_values};
        out.push_back(select_case(rule::gguf_rows_gather, nm + ".six_rows", Level::quick, t, six,
                                  seeded_payload(t, six, kGoldenSeed ^ (t.id * 31)), {5, 0, 4}, true));
    }
}

std::vector<Case> golden() {
    std::vector<Case> out;
    registry_cases(out);
    geometry_cases(out);
    size_cases(out);
    rows_cases(out);
    return out;
}

}  // namespace

Suite layout_suite() {
    return {"layout.ggml_blocks_v1",
            "ggml_blocks_v1 (storage-layouts.md Sections 1, 7): the GGUF pairs accepted and every other pair refused, "
            "geometry of rank 1..16, payload size, row slices and gathers as byte ranges",
            cached_golden(&golden), {}};
}

}  // namespace ninfer::suites::gguf
