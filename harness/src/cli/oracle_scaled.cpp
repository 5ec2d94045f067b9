// SPDX-License-Identifier: Apache-2.0
// The scaled family in the CLI (families.hpp; tensor-formats.txt Sections 3.3, 3.4;
// storage-layouts.md Sections 4, 5, 6; oracle/SCALED.md): its `list` columns, and `ninfer-conform
// oracle geometry / pack / unpack / encode / decode` of nvfp4 in block_scale_k16_m128x4_v1,
// fp8_e4m3fn_row_bf16 in row_scale_v1 and fp8_e4m3fn_row_fp16 in row_interleaved_v1. Every byte
// and word comes from the oracle.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "families.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli::tensor {

namespace {

namespace orc = ninfer::oracle;
namespace rule = suites::rule;

bool is_nvfp4(const abi::ScaledFormat &f) { return f.id == NINFER_FORMAT_nvfp4; }
std::string layout_of(const abi::ScaledFormat &f) { return std::string(orc::layout_name(f.layout)); }

/// N*K, exit 2 when it overflows.
std::uint64_t elements(std::uint64_t n, std::uint64_t k) {
    std::uint64_t nk = 0;
    if (__builtin_mul_overflow(n, k, &nk)) fail(kUsage, "error: shape " + shape_text(std::array{n, k}) + " overflows uint64 sizes");
    return nk;
}

/// The block_scale_k16_m128x4_v1 geometry of [N, K] with D divisors; exit 2 naming the rule otherwise.
orc::BlockScaleGeometry nvfp4_geometry(std::uint64_t n, std::uint64_t k, std::uint64_t divisors) {
    const auto why = orc::block_scale_shape_error(n, k, divisors);
    const auto g = orc::block_scale_geometry(n, k, divisors);
    if (!why.empty() || !g)
        fail(kUsage, "error: nvfp4 " + shape_text(std::array{n, k}) + " with " + std::to_string(divisors) +
                         " divisor(s) has no block_scale_k16_m128x4_v1 geometry (rule " +
                         std::string(rule::block_scale_geometry.c_str()) + ": N % 128 == 0, K % 64 == 0, D >= 1 dividing N): " +
                         (why.empty() ? "a size overflows uint64" : why));
    return *g;
}

/// D of an nvfp4 payload: (payload bytes - weight_divisor_offset) / 4, a positive integer
/// dividing N (FAMILY_CONTRACT 3); refused with NINFER_E_SIZE otherwise.
std::uint64_t nvfp4_payload_divisors(std::uint64_t n, std::uint64_t k, std::uint64_t bytes) {
    const auto g1 = nvfp4_geometry(n, k, 1);
    const std::uint64_t tail = bytes >= g1.divisor_offset ? bytes - g1.divisor_offset : 0;
    const std::uint64_t d = tail / 4;
    if (bytes < g1.divisor_offset || tail % 4 != 0 || d == 0 || n % d != 0)
        refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
               "rule " + std::string(rule::block_scale_size.c_str()) + ": payload has " + std::to_string(bytes) + " bytes; nvfp4 " +
                   shape_text(std::array{n, k}) + " needs " + std::to_string(g1.divisor_offset) +
                   " + 4*D bytes with D >= 1 dividing N");
    return d;
}

/// The FP8 row format of a scaled format; exit 2 when its shape has no geometry.
std::pair<orc::Fp8RowFormat, orc::Fp8RowGeometry> fp8_geometry(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k) {
    const auto fp = orc::fp8_row_format(f.id);
    const auto g = fp ? orc::fp8_row_geometry(*fp, n, k) : std::nullopt;
    if (!g)
        fail(kUsage, "error: " + std::string(f.name) + " " + shape_text(std::array{n, k}) + " has no " + layout_of(f) +
                         " geometry (rule " + std::string(rule::fp8_row_size.c_str()) +
                         ": N and K positive, every size within uint64)");
    return {*fp, *g};
}

json plane(const char *name, std::uint64_t offset, std::uint64_t bytes, const char *content) {
    return {{"plane", name}, {"offset", offset}, {"bytes", bytes}, {"content", content}};
}

/// Refuse logical words that no valid payload holds: the validating decode of their packing
/// refuses them (FAMILY_CONTRACT 4: NINFER_E_INVALID_ARGUMENT).
template <class Decoded>
void refuse_unholdable(const Decoded &d) {
    if (d.status != NINFER_OK)
        refuse(NINFER_E_INVALID_ARGUMENT, 0,
               "no valid payload holds these words (" + std::string(abi::detail_name(d.detail)) + "): " + d.message);
}

/// nvfp4's planes, gaps and swizzle in block_scale_k16_m128x4_v1 (storage-layouts.md Section 4).
void put_nvfp4_geometry(json &j, std::uint64_t n, std::uint64_t k, std::uint64_t divisors) {
    const auto g = nvfp4_geometry(n, k, divisors);
    j["planes"] = {plane("codes", 0, g.code_plane_bytes, "N*K E2M1 words row-major, two per byte, low nibble = smaller k"),
                   plane("scales", g.scale_plane_offset, g.scale_plane_bytes,
                         "N*(K/16) E4M3FN block scales, swizzled (see swizzle)"),
                   plane("divisors", g.divisor_offset, 4 * divisors,
                         "D fp32_weight_divisor words, little-endian, one per source matrix")};
    j["gaps"] = json::array();
    if (g.scale_plane_offset > g.code_plane_bytes)
        j["gaps"].push_back({{"begin", g.code_plane_bytes}, {"end", g.scale_plane_offset}, {"content", "zero bytes"}});
    j["payload_bytes"] = g.payload_bytes;
    j["group"] = orc::kNvfp4Group;
    j["groups_per_row"] = g.groups_per_row;
    j["code_plane_bytes"] = g.code_plane_bytes;
    j["scale_plane_offset"] = g.scale_plane_offset;
    j["scale_plane_bytes"] = g.scale_plane_bytes;
    j["weight_divisor_offset"] = g.divisor_offset;
    j["divisors"] = divisors;
    j["rows_per_divisor"] = g.rows_per_divisor;
    j["swizzle"] = {{"tile_rows", orc::kNvfp4TileRows},
                    {"tile_groups", orc::kNvfp4TileGroups},
                    {"tile_bytes", orc::kNvfp4TileRows * orc::kNvfp4TileGroups},
                    {"tiles_per_row_band", g.groups_per_row / orc::kNvfp4TileGroups},
                    {"formula",
                     "offset(n, g) = (floor(n/128) * (K/64) + floor(g/4)) * 512 + (n%128 % 32) * 16 + "
                     "floor((n%128) / 32) * 4 + g % 4"}};
}

/// An FP8 row format's planes in row_scale_v1 or row_interleaved_v1 (storage-layouts.md Sections 5, 6).
void put_fp8_geometry(json &j, const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k) {
    const auto [fp, g] = fp8_geometry(f, n, k);
    const std::uint64_t nk = elements(n, k);
    j["planes"] = json::array();
    j["gaps"] = json::array();
    if (fp.layout == NINFER_LAYOUT_row_scale_v1) {
        j["planes"].push_back(plane("codes", 0, nk, "N*K E4M3FN codes row-major"));
        j["planes"].push_back(plane("scales", g.scale_plane_offset, 2 * n, "N row multipliers, little-endian"));
        if (g.scale_plane_offset > nk)
            j["gaps"].push_back({{"begin", nk}, {"end", g.scale_plane_offset}, {"content", "zero bytes"}});
    } else {
        j["planes"].push_back(plane("rows", 0, g.payload_bytes,
                                    "row n at n*(K+2): its K E4M3FN codes, then its multiplier (2 bytes, little-endian)"));
    }
    j["payload_bytes"] = g.payload_bytes;
    j["row_stride"] = g.row_stride;
    j["scale_plane_offset"] = g.scale_plane_offset;
    j["scale_format"] = orc::format_name(fp.scale_format);
}

json scaled_geometry(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t divisors) {
    json j = {{"op", "geometry"}, {"format", f.name}, {"family", "scaled"}, {"layout", layout_of(f)}, {"shape", {n, k}}};
    if (is_nvfp4(f))
        put_nvfp4_geometry(j, n, k, divisors);
    else
        put_fp8_geometry(j, f, n, k);
    return j;
}

/// Exit 2 unless `o` names exactly the planes of the format: codes, scales (and nvfp4's divisors).
void check_pack_planes(const abi::ScaledFormat &f, const LayoutOpts &o) {
    const std::string name(f.name);
    if (!o.words.empty()) fail(kUsage, "error: " + name + " takes --codes and --scales" + (is_nvfp4(f) ? " and --divisors" : "") + ", not --words");
    if (o.codes.empty() || o.scales.empty() || (is_nvfp4(f) && o.divisors.empty()))
        fail(kUsage, "error: oracle pack --format " + name + " needs --codes and --scales" +
                         (is_nvfp4(f) ? " and --divisors" : ""));
    if (!is_nvfp4(f) && !o.divisors.empty()) fail(kUsage, "error: " + name + " has no divisors; --divisors belongs to nvfp4");
}

/// nvfp4's payload of its codes, swizzled scales and divisors (refused when a code is not E2M1).
std::vector<std::uint8_t> nvfp4_pack(std::uint64_t n, std::uint64_t k, const LayoutOpts &o,
                                     const std::vector<std::uint8_t> &codes, const std::vector<std::uint8_t> &scales) {
    const std::uint64_t nk = elements(n, k);
    nvfp4_geometry(n, k, 1);
    const auto div = read_plane(o.divisors, "--divisors");
    if (div.size() % 4 != 0) fail(kUsage, "error: --divisors holds " + std::to_string(div.size()) + " bytes; expected binary32 words (a multiple of 4)");
    const auto g = nvfp4_geometry(n, k, div.size() / 4);
    require_bytes(codes.size(), nk, "--codes", "nvfp4 " + shape_text(std::array{n, k}) + " codes (one byte each)");
    require_bytes(scales.size(), g.scale_plane_bytes, "--scales", "N*(K/16) E4M3FN scale words");
    orc::Nvfp4Matrix m{n, k, codes, scales, {}};
    for (const auto w : le_words(div, 4)) m.divisors.push_back(static_cast<std::uint32_t>(w));
    for (std::uint64_t i = 0; i < nk; ++i)
        if (codes[i] > 0xF)
            refuse(NINFER_E_INVALID_ARGUMENT, 0,
                   "rule " + std::string(rule::nvfp4_code_e2m1.c_str()) + ": code byte " + hex_bytes(std::span(&codes[i], 1)) +
                       " at row " + std::to_string(i / k) + ", column " + std::to_string(i % k) +
                       " is not an E2M1 word (0x0..0xF)");
    auto p = orc::block_scale_encode(m);
    refuse_unholdable(orc::block_scale_decode(n, k, m.divisors.size(), p));
    return p;
}

/// An FP8 row format's payload of its codes and row multipliers.
std::vector<std::uint8_t> fp8_pack(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k,
                                   const std::vector<std::uint8_t> &codes, const std::vector<std::uint8_t> &scales) {
    const auto [fp, g] = fp8_geometry(f, n, k);
    require_bytes(codes.size(), elements(n, k), "--codes", std::string(f.name) + " " + shape_text(std::array{n, k}) + " codes (one byte each)");
    require_bytes(scales.size(), 2 * n, "--scales", "N row multipliers (2 bytes each)");
    orc::Fp8RowMatrix m{n, k, codes, {}};
    for (const auto w : le_words(scales, 2)) m.scales.push_back(static_cast<std::uint16_t>(w));
    auto p = orc::fp8_row_encode(fp, m);
    refuse_unholdable(orc::fp8_row_decode(fp, n, k, p));
    return p;
}

std::vector<std::uint8_t> scaled_pack(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k, const LayoutOpts &o) {
    check_pack_planes(f, o);
    elements(n, k);
    const auto codes = read_plane(o.codes, "--codes");
    const auto scales = read_plane(o.scales, "--scales");
    return is_nvfp4(f) ? nvfp4_pack(n, k, o, codes, scales) : fp8_pack(f, n, k, codes, scales);
}

/// nvfp4's validated planes (D from the payload's size) into `j`.
void put_nvfp4_unpacked(json &j, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload) {
    const std::uint64_t d = nvfp4_payload_divisors(n, k, payload.size());
    const auto dec = orc::block_scale_decode(n, k, d, payload);
    if (dec.status != NINFER_OK) refuse(dec.status, dec.detail, dec.message);
    std::vector<std::uint8_t> div;
    for (const auto w : dec.m.divisors) abi::append_le(div, w, 4);
    j["divisor_count"] = d;
    j["codes"] = hex_bytes(dec.m.codes);
    j["scales"] = hex_bytes(dec.m.scales);
    j["divisors"] = hex_bytes(div);
}

/// An FP8 row format's validated planes into `j`.
void put_fp8_unpacked(json &j, const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload) {
    const auto [fp, g] = fp8_geometry(f, n, k);
    const auto dec = orc::fp8_row_decode(fp, n, k, payload);
    if (dec.status != NINFER_OK) refuse(dec.status, dec.detail, dec.message);
    std::vector<std::uint8_t> sc;
    for (const auto w : dec.m.scales) abi::append_le(sc, w, 2);
    j["codes"] = hex_bytes(dec.m.codes);
    j["scales"] = hex_bytes(sc);
}

json scaled_unpack(const abi::ScaledFormat &f, std::uint64_t n, std::uint64_t k, std::span<const std::uint8_t> payload) {
    json j = {{"op", "unpack"}, {"format", f.name}, {"layout", layout_of(f)}, {"shape", {n, k}}};
    if (is_nvfp4(f))
        put_nvfp4_unpacked(j, n, k, payload);
    else
        put_fp8_unpacked(j, f, n, k, payload);
    return j;
}

/// An encoded payload and what the encode line adds after the layout.
struct Encoded {
    std::vector<std::uint8_t> payload;
    std::string detail;
};

/// nvfp4_two_level (tensor-formats Section 3.3): the payload, its tensor scale and divisor.
Encoded nvfp4_encode(const EncodeOpts &o, std::uint64_t n, std::uint64_t k) {
    if (o.source_type != "fp32") fail(kUsage, "error: nvfp4_two_level takes --source-type fp32, not " + o.source_type);
    nvfp4_geometry(n, k, 1);
    const auto src = read_source(o.input, o.source_type, elements(n, k));
    const std::vector<std::uint32_t> x(src.begin(), src.end());
    const auto r = orc::nvfp4_two_level_encode(n, k, x);
    if (r.status != NINFER_OK) refuse(r.status, 0, "rule " + std::string(rule::lesson_nvfp4_two_level.c_str()) + ": " + r.message);
    const auto &f32 = orc::word_format(NINFER_FORMAT_fp32);
    return {orc::block_scale_encode(r.m),
            ", tensor scale " + orc::word_hex(f32, r.tensor_scale) + ", divisor " + orc::word_hex(f32, r.divisor)};
}

/// fp8_row_maxabs row by row (tensor-formats Section 3.4): the payload, and how many rows rest on a reading.
Encoded fp8_encode(const abi::ScaledFormat &f, const EncodeOpts &o, std::uint64_t n, std::uint64_t k) {
    const auto [fp, g] = fp8_geometry(f, n, k);
    const std::uint32_t src_format = o.source_type == "fp32" ? NINFER_FORMAT_fp32
                                     : o.source_type == "bf16" ? NINFER_FORMAT_bf16
                                                               : NINFER_FORMAT_fp16;
    const auto src = read_source(o.input, o.source_type, elements(n, k));
    orc::Fp8RowMatrix m{n, k, {}, {}};
    std::size_t reading = 0;
    for (std::uint64_t r = 0; r < n; ++r) {
        const auto e = orc::fp8_row_maxabs(fp, src_format, std::span(src).subspan(r * k, k));
        if (e.status != NINFER_OK)
            refuse(e.status, 0,
                   "rule " +
                       std::string(e.status == NINFER_E_NONFINITE ? rule::fp8_row_maxabs_nonfinite.c_str()
                                                                  : rule::fp8_row_maxabs_scale_overflow.c_str()) +
                       ": row " + std::to_string(r) + ": " + e.message);
        m.codes.insert(m.codes.end(), e.codes.begin(), e.codes.end());
        m.scales.push_back(e.scale);
        reading += e.suite_reading;
    }
    return {orc::fp8_row_encode(fp, m), ", " + std::to_string(reading) + " row(s) resting on a suite reading (oracle/SCALED.md)"};
}

void scaled_encode(const abi::ScaledFormat &f, const EncodeOpts &o) {
    const std::string name(f.name);
    const auto *enc = orc::find_id(orc::kEncoders, f.encoder);
    if (!enc || enc->name != o.method)
        fail(kUsage, "error: method '" + o.method + "' does not encode " + name + "; its method is " +
                         (enc ? std::string(enc->name) : std::string("none")));
    if (!o.importance.empty() || o.negative_scales)
        fail(kUsage, "error: --importance and --negative-scales belong to --method grouped_search");
    const auto [n, k] = rank2(parse_shape(o.shape), name);
    elements(n, k);
    const auto e = is_nvfp4(f) ? nvfp4_encode(o, n, k) : fp8_encode(f, o, n, k);
    write_atomically(o.output, e.payload.data(), e.payload.size());
    std::printf("%s %s [%llu,%llu] -> %s: %zu bytes %s%s\n", name.c_str(), o.method.c_str(),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), o.output.c_str(), e.payload.size(),
                layout_of(f).c_str(), e.detail.c_str());
}

/// nvfp4's codes, scales and divisors, row by row, into `j` (decode's JSON); returns the exact
/// values, which decode writes after the binary32 values.
json put_nvfp4_planes(json &j, std::uint64_t n, std::uint64_t k, const orc::Nvfp4Matrix &m, const orc::BlockScaleGeometry &g,
                      const abi::WordFormat &scale_words) {
    const auto &f32 = orc::word_format(NINFER_FORMAT_fp32);
    json codes = json::array(), scales = json::array(), svals = json::array(), exact = json::array();
    for (std::uint64_t r = 0; r < n; ++r) {
        json cr = json::array(), sr = json::array(), svr = json::array(), er = json::array();
        const std::uint32_t dw = m.divisors[orc::nvfp4_divisor_of_row(g, r)];
        for (std::uint64_t c = 0; c < k; ++c) {
            const std::uint8_t code = m.codes[r * k + c], s = m.scales[r * g.groups_per_row + c / 16];
            cr.push_back(code);
            er.push_back(orc::rational_text(orc::nvfp4_exact_weight(code, s, dw)));
        }
        for (std::uint64_t gi = 0; gi < g.groups_per_row; ++gi) {
            sr.push_back(orc::word_hex(scale_words, m.scales[r * g.groups_per_row + gi]));
            svr.push_back(orc::word_value_text(scale_words, m.scales[r * g.groups_per_row + gi]));
        }
        codes.push_back(std::move(cr));
        scales.push_back(std::move(sr));
        svals.push_back(std::move(svr));
        exact.push_back(std::move(er));
    }
    json divs = json::array(), dvals = json::array();
    for (const auto w : m.divisors) {
        divs.push_back(orc::word_hex(f32, w));
        dvals.push_back(orc::word_value_text(f32, w));
    }
    j["codes"] = std::move(codes);
    j["scales"] = std::move(scales);
    j["scale_values"] = std::move(svals);
    j["divisors"] = std::move(divs);
    j["divisor_values"] = std::move(dvals);
    return exact;
}

/// nvfp4's payload (D from its size) to binary32 values; its planes into `j` when wanted.
std::vector<std::uint32_t> nvfp4_decode(const abi::ScaledFormat &f, const DecodeOpts &o, std::uint64_t n, std::uint64_t k,
                                        bool want_json, json &j) {
    const std::uint64_t nk = elements(n, k);
    nvfp4_geometry(n, k, 1);
    const auto payload = read_file(o.input, "payload");
    const std::uint64_t d = nvfp4_payload_divisors(n, k, payload.size());
    const auto dec = orc::block_scale_decode(n, k, d, payload);
    if (dec.status != NINFER_OK) refuse(dec.status, dec.detail, dec.message);
    const auto g = *orc::block_scale_geometry(n, k, d);
    std::vector<std::uint32_t> values(nk);
    for (std::uint64_t i = 0; i < nk; ++i)
        values[i] = orc::nvfp4_weight_binary32(dec.m.codes[i], dec.m.scales[(i / k) * g.groups_per_row + (i % k) / 16],
                                               dec.m.divisors[orc::nvfp4_divisor_of_row(g, i / k)]);
    if (want_json) {
        j["reconstruction"] = "binary32(decode_e2m1(c) * decode_e4m3fn(s) / d_w), nearest-even; tensor-formats Section 3.3";
        auto exact = put_nvfp4_planes(j, n, k, dec.m, g, orc::word_format(f.scale_format));
        put_values(j, values, n, k);
        j["exact_values"] = std::move(exact);
    }
    return values;
}

/// An FP8 row format's payload to binary32 values; its codes and multipliers into `j` when wanted.
std::vector<std::uint32_t> fp8_decode(const abi::ScaledFormat &f, const DecodeOpts &o, std::uint64_t n, std::uint64_t k,
                                      bool want_json, json &j) {
    const std::uint64_t nk = elements(n, k);
    const auto &scale_words = orc::word_format(f.scale_format);
    const auto [fp, g] = fp8_geometry(f, n, k);
    const auto payload = read_file(o.input, "payload");
    const auto dec = orc::fp8_row_decode(fp, n, k, payload);
    if (dec.status != NINFER_OK) refuse(dec.status, dec.detail, dec.message);
    std::vector<std::uint32_t> values(nk);
    for (std::uint64_t i = 0; i < nk; ++i) values[i] = orc::fp8_row_weight_binary32(fp, dec.m.codes[i], dec.m.scales[i / k]);
    if (!want_json) return values;
    j["reconstruction"] = "binary32(decode_e4m3fn(c) * s), nearest-even; tensor-formats Section 3.4";
    const auto &e4m3 = orc::word_format(f.code_format);
    json codes = json::array(), scales = json::array(), svals = json::array();
    for (std::uint64_t r = 0; r < n; ++r) {
        json cr = json::array();
        for (std::uint64_t c = 0; c < k; ++c) cr.push_back(orc::word_hex(e4m3, dec.m.codes[r * k + c]));
        codes.push_back(std::move(cr));
        scales.push_back(orc::word_hex(scale_words, dec.m.scales[r]));
        svals.push_back(orc::word_value_text(scale_words, dec.m.scales[r]));
    }
    j["codes"] = std::move(codes);
    j["scales"] = std::move(scales);
    j["scale_values"] = std::move(svals);
    put_values(j, values, n, k);
    return values;
}

void scaled_decode(const abi::ScaledFormat &f, const DecodeOpts &o) {
    const auto [n, k] = rank2(parse_shape(o.shape), f.name);
    elements(n, k);
    const bool want_json = !o.json_out.empty() || o.values_out.empty();
    json j = {{"format", f.name}, {"layout", layout_of(f)}, {"shape", {n, k}}};
    const auto values = is_nvfp4(f) ? nvfp4_decode(f, o, n, k, want_json, j) : fp8_decode(f, o, n, k, want_json, j);
    emit_decoded(o, values, j);
}

const abi::ScaledFormat &scaled_format(const abi::FormatView &v) { return *orc::find_id(orc::kScaledFormats, v.id); }

json scaled_json(const abi::FormatView &v) {
    const auto &f = scaled_format(v);
    return {{"id", f.id}, {"name", f.name}, {"code_format", orc::format_name(f.code_format)},
            {"scale_format", orc::format_name(f.scale_format)}, {"group", f.group}, {"divisors", f.divisors},
            {"layout", orc::layout_name(f.layout)},
            {"code_role", f.code_role ? name_of(orc::kRoles, f.code_role) : std::string_view{}},
            {"scale_role", name_of(orc::kRoles, f.scale_role)},
            {"encoder", f.encoder ? name_of(orc::kEncoders, f.encoder) : std::string_view{}}};
}

std::string scaled_line(const abi::FormatView &v) {
    const auto &f = scaled_format(v);
    return fmt::format("  {:>2} {:<20} {} codes, {} scales per {}{}, {}\n", f.id, f.name, orc::format_name(f.code_format),
                       orc::format_name(f.scale_format), f.group ? fmt::format("{} values", f.group) : std::string("row"),
                       f.divisors ? ", fp32 divisors" : "", orc::layout_name(f.layout));
}

json geometry_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t divisors) {
    const auto [n, k] = rank2(shape, v.name);
    return scaled_geometry(scaled_format(v), n, k, divisors);
}

Packed pack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto [n, k] = rank2(shape, v.name);
    const auto &f = scaled_format(v);
    return {scaled_pack(f, n, k, o), layout_of(f)};
}

json unpack_of_view(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto [n, k] = rank2(shape, v.name);
    return scaled_unpack(scaled_format(v), n, k, read_plane(o.payload, "--payload"));
}

void encode_of_view(const abi::FormatView &v, const EncodeOpts &o) { scaled_encode(scaled_format(v), o); }
void decode_of_view(const abi::FormatView &v, const DecodeOpts &o) { scaled_decode(scaled_format(v), o); }

}  // namespace

}  // namespace ninfer::harness::cli::tensor

namespace ninfer::harness::cli {

const CliFamily kScaledCli = {
    .family = abi::Family::scaled,
    .heading = "scaled formats (id name codes, scales, reach, layout):\n",
    .format_json = tensor::scaled_json,
    .format_line = tensor::scaled_line,
    .geometry = tensor::geometry_of_view,
    .pack = tensor::pack_of_view,
    .unpack = tensor::unpack_of_view,
    .encode = tensor::encode_of_view,
    .decode = tensor::decode_of_view,
};

}  // namespace ninfer::harness::cli
