// SPDX-License-Identifier: Apache-2.0
// The GGUF block types in the CLI (families.hpp; tensor-formats.txt, the gguf_* table;
// storage-layouts.md Section 7; oracle/GGUF.md): their `list` columns, and `ninfer-conform oracle
// geometry / encode / decode` in ggml_blocks_v1. The payload is the blocks themselves, so pack
// and unpack are not defined for this layout.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "families.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli::tensor {

namespace {

namespace orc = ninfer::oracle;
namespace rule = suites::rule;

/// The ggml_blocks_v1 geometry of a shape; exit 2 naming the rule otherwise.
orc::GgmlBlocksGeometry blocks_geometry(const abi::GgufType &t, const std::vector<std::uint64_t> &shape) {
    const auto why = orc::ggml_blocks_shape_error(t, shape);
    const auto g = orc::ggml_blocks_geometry(t, shape);
    if (!why.empty() || !g)
        fail(kUsage, "error: " + std::string(t.name) + " " + shape_text(shape) + " has no ggml_blocks_v1 geometry (rule " +
                         std::string(rule::gguf_geometry.c_str()) + ": rank 1..16, no zero dimension, K % " +
                         std::to_string(t.block_values) + " == 0, sizes within uint64): " +
                         (why.empty() ? "a size overflows uint64" : why));
    return *g;
}

/// ggml's block_mxfp4 of one OCP MXFP4 block: the E8M0 byte e, then qs[16] with element j in the
/// low nibble of qs[j] and element j + 16 in its high nibble.
std::vector<std::uint8_t> mxfp4_block_bytes(const orc::Mxfp4Block &b) {
    std::vector<std::uint8_t> out(1 + orc::kMxfp4Block / 2);
    out[0] = b.scale;
    for (std::size_t j = 0; j < orc::kMxfp4Block / 2; ++j)
        out[1 + j] = static_cast<std::uint8_t>((b.codes[j] & 0xF) | (b.codes[j + 16] & 0xF) << 4);
    return out;
}

std::string ref_quantizer_types() {
    std::string s;
    for (const auto &t : orc::kGgufTypes)
        if (t.ref_quantizer) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

json gguf_geometry(const abi::GgufType &t, const std::vector<std::uint64_t> &shape) {
    const auto g = blocks_geometry(t, shape);
    return {{"op", "geometry"},
            {"format", t.name},
            {"family", "gguf"},
            {"layout", "ggml_blocks_v1"},
            {"shape", shape},
            {"ggml_type", t.ggml_type},
            {"in_ninfer_registry", t.in_ninfer_registry},
            {"ref_quantizer", t.ref_quantizer},
            {"block_values", t.block_values},
            {"block_bytes", t.block_bytes},
            {"rows", g.rows},
            {"blocks_per_row", g.blocks_per_row},
            {"row_bytes", g.row_bytes},
            {"planes",
             {{{"plane", "blocks"},
               {"offset", 0},
               {"bytes", g.payload_bytes},
               {"content", "rows in C order of the leading coordinates, each blocks_per_row ggml blocks of block_bytes"}}}},
            {"gaps", json::array()},
            {"payload_bytes", g.payload_bytes}};
}

void gguf_encode(const abi::GgufType &t, const EncodeOpts &o) {
    const std::string name(t.name);
    const bool mxfp4 = o.method == "mxfp4_ocp";
    if (mxfp4 && t.id != NINFER_FORMAT_gguf_mxfp4)
        fail(kUsage, "error: method 'mxfp4_ocp' encodes gguf_mxfp4 only, not " + name);
    if (!mxfp4 && o.method != "ggml_quantize_ref")
        fail(kUsage, "error: method '" + o.method + "' does not encode " + name +
                         "; GGUF methods: ggml_quantize_ref, mxfp4_ocp (gguf_mxfp4)");
    if (!mxfp4 && !orc::gguf_has_reference_quantizer(t))
        fail(kUsage, "error: " + name + " has no reference quantizer; ggml_quantize_ref encodes: " + ref_quantizer_types());
    if (!o.importance.empty() || o.negative_scales)
        fail(kUsage, "error: --importance and --negative-scales belong to --method grouped_search");
    if (o.source_type != "fp32") fail(kUsage, "error: " + o.method + " takes --source-type fp32, not " + o.source_type);
    const auto shape = parse_shape(o.shape);
    const auto g = blocks_geometry(t, shape);
    const std::uint64_t blocks = g.rows * g.blocks_per_row;
    const auto src = read_source(o.input, o.source_type, blocks * t.block_values);
    const std::vector<std::uint32_t> x(src.begin(), src.end());
    std::vector<std::uint8_t> payload;
    payload.reserve(g.payload_bytes);
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const auto in = std::span(x).subspan(b * t.block_values, t.block_values);
        const std::string where = "row " + std::to_string(b / g.blocks_per_row) + ", block " + std::to_string(b % g.blocks_per_row);
        if (mxfp4) {
            const auto r = orc::mxfp4_encode_block(in);
            if (r.status != NINFER_OK) refuse(r.status, 0, "rule " + std::string(rule::lesson_mxfp4.c_str()) + ": " + where + ": " + r.message);
            const auto bytes = mxfp4_block_bytes(r);
            payload.insert(payload.end(), bytes.begin(), bytes.end());
        } else {
            const auto r = orc::gguf_quantize_block_ref(t, in);
            if (r.status != NINFER_OK) refuse(r.status, 0, "rule " + rule::gguf_quantize(t) + ": " + where + ": " + r.message);
            payload.insert(payload.end(), r.block.begin(), r.block.end());
        }
    }
    write_atomically(o.output, payload.data(), payload.size());
    std::printf("%s %s %s -> %s: %zu bytes ggml_blocks_v1\n", name.c_str(), o.method.c_str(), shape_text(shape).c_str(),
                o.output.c_str(), payload.size());
}

void gguf_decode(const abi::GgufType &t, const DecodeOpts &o) {
    const auto shape = parse_shape(o.shape);
    const auto g = blocks_geometry(t, shape);
    const auto payload = read_file(o.input, "payload");
    if (payload.size() != g.payload_bytes)
        refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
               "rule " + std::string(rule::gguf_size.c_str()) + ": payload has " + std::to_string(payload.size()) + " bytes; " +
                   std::string(t.name) + " " + shape_text(shape) + " needs " + std::to_string(g.payload_bytes));
    const bool want_json = !o.json_out.empty() || o.values_out.empty();
    const std::uint64_t k = shape.back(), blocks = g.rows * g.blocks_per_row;
    std::vector<std::uint32_t> values;
    values.reserve(g.rows * k);
    json exact = json::array(), exact_row = json::array();
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const auto d = orc::gguf_dequantize_block(t, std::span(payload).subspan(b * t.block_bytes, t.block_bytes));
        values.insert(values.end(), d.ggml.begin(), d.ggml.end());
        if (!want_json) continue;
        for (const auto &e : d.exact) exact_row.push_back(e ? json(orc::rational_text(*e)) : json(nullptr));
        if ((b + 1) % g.blocks_per_row == 0) {
            exact.push_back(std::move(exact_row));
            exact_row = json::array();
        }
    }
    json j;
    if (want_json) {
        j = {{"format", t.name},
             {"layout", "ggml_blocks_v1"},
             {"shape", shape},
             {"rows", g.rows},
             {"reconstruction",
              "ggml's dequantize_row_* binary32 words (its evaluation order, each operation rounded once); "
              "exact_values: the block formula's real value (null where a non-finite scale makes it non-finite)"}};
        put_values(j, values, g.rows, k);
        j["exact_values"] = std::move(exact);
    }
    emit_decoded(o, values, j);
}

const abi::GgufType &gguf_type(const abi::FormatView &v) { return *orc::find_id(orc::kGgufTypes, v.id); }

json gguf_json(const abi::FormatView &v) {
    const auto &t = gguf_type(v);
    return {{"id", t.id}, {"name", t.name}, {"ggml_type", t.ggml_type}, {"block_values", t.block_values},
            {"block_bytes", t.block_bytes}, {"layout", orc::layout_name(v.layout)},
            {"in_ninfer_registry", t.in_ninfer_registry}, {"ref_quantizer", t.ref_quantizer}};
}

std::string gguf_line(const abi::FormatView &v) {
    const auto &t = gguf_type(v);
    return fmt::format("  {:>3} {:<13} ggml type {:>2}, {:>3} values in {:>3} bytes{}{}\n", t.id, t.name, t.ggml_type,
                       t.block_values, t.block_bytes, t.in_ninfer_registry ? "" : " (outside the .ninfer registry)",
                       t.ref_quantizer ? ", ggml reference quantizer" : "");
}

json geometry_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t) {
    return gguf_geometry(gguf_type(v), shape);
}

[[noreturn]] void no_pack(const abi::FormatView &v) {
    fail(kUsage, "error: " + std::string(v.name) +
                     ": oracle pack and unpack are not defined for ggml_blocks_v1 (the payload is the blocks themselves, "
                     "storage-layouts.md Section 7); use oracle geometry, encode or decode");
}

Packed pack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &, const LayoutOpts &) { no_pack(v); }
json unpack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &, const LayoutOpts &) { no_pack(v); }

void encode_of_view(const abi::FormatView &v, const EncodeOpts &o) { gguf_encode(gguf_type(v), o); }
void decode_of_view(const abi::FormatView &v, const DecodeOpts &o) { gguf_decode(gguf_type(v), o); }

}  // namespace

}  // namespace ninfer::harness::cli::tensor

namespace ninfer::harness::cli {

const CliFamily kGgufCli = {
    .family = abi::Family::gguf,
    .heading = "GGUF block types in ggml_blocks_v1 (id name ggml type, block):\n",
    .format_json = tensor::gguf_json,
    .format_line = tensor::gguf_line,
    .geometry = tensor::geometry_of_view,
    .pack = tensor::pack_of_view,
    .unpack = tensor::unpack_of_view,
    .encode = tensor::encode_of_view,
    .decode = tensor::decode_of_view,
};

}  // namespace ninfer::harness::cli
