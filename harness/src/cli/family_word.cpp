// SPDX-License-Identifier: Apache-2.0
// The word formats in the CLI (families.hpp): their `list` columns, and `oracle geometry / pack /
// unpack` of the direct formats in contiguous_le_v1 (storage-layouts.md Section 2). A word has no
// tensor codec: oracle encode and decode refuse it (oracle convert converts words).
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "families.hpp"
#include "ninfer/oracle/contiguous.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::harness::cli {

namespace {

namespace orc = ninfer::oracle;
namespace rule = suites::rule;
using namespace tensor;

const char *special_name(orc::Special s) {
    switch (s) {
    case orc::Special::IEEE: return "ieee";
    case orc::Special::FN: return "fn";
    case orc::Special::NONE: return "none";
    case orc::Special::E8M0: return "e8m0";
    case orc::Special::INT: return "int";
    }
    return "?";
}

json word_json(const abi::FormatView &v) {
    const auto &f = *orc::find_id(orc::kWordFormats, v.id);
    return {{"id", f.id}, {"name", f.name}, {"bits", f.bits}, {"exp_bits", f.exp_bits}, {"man_bits", f.man_bits},
            {"bias", f.bias}, {"signed", f.has_sign}, {"special", special_name(f.special)}, {"direct", f.direct}};
}

std::string word_line(const abi::FormatView &v) {
    const auto &f = *orc::find_id(orc::kWordFormats, v.id);
    return fmt::format("  {:>2} {:<8} {:>2} bits  e{} m{} bias {:<3} {}{}{}\n", f.id, f.name, f.bits, f.exp_bits,
                       f.man_bits, f.bias, special_name(f.special), f.has_sign ? "" : " unsigned",
                       f.direct ? " direct" : "");
}

std::string direct_formats() {
    std::string s;
    for (const auto &f : abi::kAllFormats)
        if (f.family == abi::Family::word && f.layout != 0) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

/// A word format that contiguous_le_v1 stores; exit 2 for a scalar-only word format.
const abi::WordFormat &direct_format(const abi::FormatView &v) {
    if (v.layout == 0)
        fail(kUsage, "error: " + std::string(v.name) + " is a word format that no layout stores as a tensor; "
                                                       "the direct formats of contiguous_le_v1: " + direct_formats());
    return orc::word_format(v.id);
}

/// Payload bytes of a contiguous_le_v1 tensor; exit 2 naming the rule when they overflow.
std::uint64_t contiguous_bytes(const abi::WordFormat &f, const std::vector<std::uint64_t> &shape) {
    const auto bytes = orc::contiguous_payload_bytes(f.id, shape);
    if (!bytes)
        fail(kUsage, "error: " + std::string(f.name) + " " + shape_text(shape) + " has no contiguous_le_v1 geometry (rule " +
                         std::string(rule::layout_contiguous_le_v1_overflow.c_str()) + "): its size overflows uint64");
    return *bytes;
}

json word_geometry(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, std::uint64_t) {
    const auto &f = direct_format(v);
    const std::uint64_t bytes = contiguous_bytes(f, shape);
    return {{"op", "geometry"},
            {"format", f.name},
            {"family", "word"},
            {"layout", "contiguous_le_v1"},
            {"shape", shape},
            {"planes",
             {{{"plane", "words"},
               {"offset", 0},
               {"bytes", bytes},
               {"content", "one word per element in C order, little-endian at its byte width"}}}},
            {"gaps", json::array()},
            {"payload_bytes", bytes},
            {"word_bytes", f.bytes()},
            {"elements", bytes / static_cast<std::uint64_t>(f.bytes())}};
}

Packed word_pack(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto &f = direct_format(v);
    if (o.words.empty() || !o.codes.empty() || !o.scales.empty() || !o.divisors.empty())
        fail(kUsage, "error: oracle pack --format " + std::string(f.name) + " (contiguous_le_v1) takes --words only");
    const std::uint64_t bytes = contiguous_bytes(f, shape);
    const auto words = read_plane(o.words, "--words");
    require_bytes(words.size(), bytes, "--words",
                  std::string(f.name) + " " + shape_text(shape) + " words (" + std::to_string(f.bytes()) + " bytes each)");
    return {orc::contiguous_encode(f.id, shape, le_words(words, static_cast<unsigned>(f.bytes()))), "contiguous_le_v1"};
}

json word_unpack(const abi::FormatView &v, const std::vector<std::uint64_t> &shape, const LayoutOpts &o) {
    const auto &f = direct_format(v);
    const std::uint64_t bytes = contiguous_bytes(f, shape);
    const auto payload = read_plane(o.payload, "--payload");
    if (payload.size() != bytes)
        refuse(NINFER_E_SIZE, NINFER_DETAIL_SIZE,
               "rule " + std::string(rule::layout_contiguous_le_v1_size.c_str()) + ": payload has " +
                   std::to_string(payload.size()) + " bytes; " + std::string(f.name) + " " + shape_text(shape) + " needs " +
                   std::to_string(bytes));
    json list = json::array();
    for (const auto w : orc::contiguous_decode(f.id, shape, payload)) list.push_back(orc::word_hex(f, w));
    return {{"op", "unpack"},
            {"format", f.name},
            {"layout", "contiguous_le_v1"},
            {"shape", shape},
            {"words", abi::hex_bytes(payload)},
            {"word_list", std::move(list)}};
}

[[noreturn]] void no_codec(const abi::FormatView &v, const char *what) {
    fail(kUsage, "error: oracle " + std::string(what) + " covers the grouped, scaled and GGUF formats; " +
                     std::string(v.name) + " is a word format (oracle convert converts words; oracle pack and unpack "
                                           "give a direct format's contiguous_le_v1 payload)");
}

void word_encode(const abi::FormatView &v, const EncodeOpts &) { no_codec(v, "encode"); }
void word_decode(const abi::FormatView &v, const DecodeOpts &) { no_codec(v, "decode"); }

}  // namespace

const CliFamily kWordCli = {
    .family = abi::Family::word,
    .heading = "word formats (id name bits exp man bias special):\n",
    .format_json = word_json,
    .format_line = word_line,
    .geometry = word_geometry,
    .pack = word_pack,
    .unpack = word_unpack,
    .encode = word_encode,
    .decode = word_decode,
};

}  // namespace ninfer::harness::cli
