// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle geometry / pack / unpack / encode / decode` (docs/cli.md): the
// subcommands, their dispatch by format family, and the word formats in contiguous_le_v1
// (storage-layouts.md Section 2). The families' own files: oracle_grouped.cpp,
// oracle_scaled.cpp, oracle_gguf.cpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ninfer/oracle/contiguous.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "cmd_common.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli::tensor {

namespace {

namespace orc = ninfer::oracle;
namespace rule = suites::rule;

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

[[noreturn]] void gguf_no_pack(const abi::FormatView &v) {
    fail(kUsage, "error: " + std::string(v.name) +
                     ": oracle pack and unpack are not defined for ggml_blocks_v1 (the payload is the blocks themselves, "
                     "storage-layouts.md Section 7); use oracle geometry, encode or decode");
}

void print_json(const json &j) { std::printf("%s\n", j.dump().c_str()); }

void run_geometry(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    if (o.divisors_given && v.id != NINFER_FORMAT_nvfp4)
        fail(kUsage, "error: --divisors belongs to nvfp4 (its source-matrix count); " + std::string(v.name) + " has none");
    switch (v.family) {
    case abi::Family::word: {
        const auto &f = direct_format(v);
        const std::uint64_t bytes = contiguous_bytes(f, shape);
        print_json({{"op", "geometry"},
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
                    {"elements", bytes / static_cast<std::uint64_t>(f.bytes())}});
        return;
    }
    case abi::Family::grouped: {
        const auto [n, k] = rank2(shape, v.name);
        print_json(grouped_geometry(*orc::find_id(orc::kGroupedFormats, v.id), n, k));
        return;
    }
    case abi::Family::scaled: {
        const auto [n, k] = rank2(shape, v.name);
        print_json(scaled_geometry(*orc::find_id(orc::kScaledFormats, v.id), n, k, o.divisor_count));
        return;
    }
    case abi::Family::gguf: print_json(gguf_geometry(*orc::find_id(orc::kGgufTypes, v.id), shape)); return;
    }
}

void run_pack(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    std::vector<std::uint8_t> payload;
    std::string layout;
    switch (v.family) {
    case abi::Family::word: {
        const auto &f = direct_format(v);
        if (o.words.empty() || !o.codes.empty() || !o.scales.empty() || !o.divisors.empty())
            fail(kUsage, "error: oracle pack --format " + std::string(f.name) + " (contiguous_le_v1) takes --words only");
        const std::uint64_t bytes = contiguous_bytes(f, shape);
        const auto words = read_plane(o.words, "--words");
        require_bytes(words.size(), bytes, "--words",
                      std::string(f.name) + " " + shape_text(shape) + " words (" + std::to_string(f.bytes()) + " bytes each)");
        payload = orc::contiguous_encode(f.id, shape, le_words(words, static_cast<unsigned>(f.bytes())));
        layout = "contiguous_le_v1";
        break;
    }
    case abi::Family::grouped: {
        const auto [n, k] = rank2(shape, v.name);
        payload = grouped_pack(*orc::find_id(orc::kGroupedFormats, v.id), n, k, o);
        layout = "row_split_k128_v1";
        break;
    }
    case abi::Family::scaled: {
        const auto [n, k] = rank2(shape, v.name);
        const auto &f = *orc::find_id(orc::kScaledFormats, v.id);
        payload = scaled_pack(f, n, k, o);
        layout = orc::layout_name(f.layout);
        break;
    }
    case abi::Family::gguf: gguf_no_pack(v);
    }
    if (o.out.empty()) {
        std::printf("%s\n", hex_bytes(payload).c_str());
        return;
    }
    write_atomically(o.out, payload.data(), payload.size());
    std::printf("%s %s -> %s: %zu bytes %s\n", std::string(v.name).c_str(), shape_text(shape).c_str(), o.out.c_str(),
                payload.size(), layout.c_str());
}

void run_unpack(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    switch (v.family) {
    case abi::Family::word: {
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
        print_json({{"op", "unpack"},
                    {"format", f.name},
                    {"layout", "contiguous_le_v1"},
                    {"shape", shape},
                    {"words", hex_bytes(payload)},
                    {"word_list", std::move(list)}});
        return;
    }
    case abi::Family::grouped: {
        const auto [n, k] = rank2(shape, v.name);
        const auto &f = *orc::find_id(orc::kGroupedFormats, v.id);
        print_json(grouped_unpack(f, n, k, read_plane(o.payload, "--payload")));
        return;
    }
    case abi::Family::scaled: {
        const auto [n, k] = rank2(shape, v.name);
        const auto &f = *orc::find_id(orc::kScaledFormats, v.id);
        print_json(scaled_unpack(f, n, k, read_plane(o.payload, "--payload")));
        return;
    }
    case abi::Family::gguf: gguf_no_pack(v);
    }
}

[[noreturn]] void no_codec(const abi::FormatView &v, const char *what) {
    fail(kUsage, "error: oracle " + std::string(what) + " covers the grouped, scaled and GGUF formats; " +
                     std::string(v.name) + " is a word format (oracle convert converts words; oracle pack and unpack "
                                           "give a direct format's contiguous_le_v1 payload)");
}

void run_encode(const EncodeOpts &o) {
    const auto &v = format_by_name(o.format);
    switch (v.family) {
    case abi::Family::word: no_codec(v, "encode");
    case abi::Family::grouped: grouped_encode(*orc::find_id(orc::kGroupedFormats, v.id), o); return;
    case abi::Family::scaled: scaled_encode(*orc::find_id(orc::kScaledFormats, v.id), o); return;
    case abi::Family::gguf: gguf_encode(*orc::find_id(orc::kGgufTypes, v.id), o); return;
    }
}

void run_decode(const DecodeOpts &o) {
    const auto &v = format_by_name(o.format);
    switch (v.family) {
    case abi::Family::word: no_codec(v, "decode");
    case abi::Family::grouped: grouped_decode(*orc::find_id(orc::kGroupedFormats, v.id), o); return;
    case abi::Family::scaled: scaled_decode(*orc::find_id(orc::kScaledFormats, v.id), o); return;
    case abi::Family::gguf: gguf_decode(*orc::find_id(orc::kGgufTypes, v.id), o); return;
    }
}

}  // namespace

void add_oracle_tensor_subcommands(CLI::App &oracle) {
    auto lo = std::make_shared<LayoutOpts>();
    auto *geo = oracle.add_subcommand("geometry", "Every plane's offset and size, gaps, padding and layout parameters (JSON)");
    geo->add_option("--format", lo->format, "format name (see `list`)")->required();
    geo->add_option("--shape", lo->shape, "dimensions, e.g. 256,128")->required();
    auto *div = geo->add_option("--divisors", lo->divisor_count, "nvfp4: number of source matrices D (default 1)")
                    ->check(digits())
                    ->check(CLI::Range(std::uint64_t{1}, ~std::uint64_t{0}));
    geo->callback([lo, div] {
        lo->divisors_given = div->count() > 0;
        run_geometry(*lo);
    });

    auto po = std::make_shared<LayoutOpts>();
    auto *pack = oracle.add_subcommand("pack", "The canonical payload of logical words (hex on stdout, or --out FILE)");
    pack->add_option("--format", po->format, "format name")->required();
    pack->add_option("--shape", po->shape, "dimensions, e.g. 256,128")->required();
    const auto plane = path_given("hex bytes or a file path");
    pack->add_option("--codes", po->codes, "codes plane: hex bytes or a file (one byte per element, row-major)")
        ->check(plane);
    pack->add_option("--scales", po->scales, "scales plane: hex bytes or a file (natural row-major words, little-endian)")
        ->check(plane);
    pack->add_option("--divisors", po->divisors, "nvfp4 divisors plane: hex bytes or a file (binary32 words, little-endian)")
        ->check(plane);
    pack->add_option("--words", po->words, "contiguous_le_v1 words plane: hex bytes or a file (little-endian words)")
        ->check(plane);
    pack->add_option("--out,--output", po->out, "write the payload (binary) to this file instead of hex on stdout")
        ->check(path_given());
    pack->callback([po] {
        CommandFiles files;
        files.inputs = {{"--codes", po->codes}, {"--scales", po->scales}, {"--divisors", po->divisors},
                        {"--words", po->words}};
        files.outputs = {{"--out", po->out}};
        check_files(files);
        run_pack(*po);
    });

    auto uo = std::make_shared<LayoutOpts>();
    auto *unpack = oracle.add_subcommand("unpack", "Validate a payload; its logical planes as hex (JSON)");
    unpack->add_option("--format", uo->format, "format name")->required();
    unpack->add_option("--shape", uo->shape, "dimensions, e.g. 256,128")->required();
    unpack->add_option("--payload,--input", uo->payload, "payload: hex bytes or a file")->required()->check(plane);
    unpack->callback([uo] { run_unpack(*uo); });

    std::vector<std::string> methods;
    for (const auto &e : orc::kEncoders) methods.emplace_back(e.name);
    auto eo = std::make_shared<EncodeOpts>();
    auto *enc = oracle.add_subcommand("encode", "Canonical payload of a raw source matrix by a named encoder");
    enc->add_option("--format", eo->format, "grouped, scaled or GGUF format")->required();
    enc->add_option("--method", eo->method, "encoder (see `list`)")->required()->check(CLI::IsMember(methods));
    enc->add_option("--source-type,--source-format", eo->source_type, "source word type")->required()->check(
        CLI::IsMember({"fp32", "bf16", "fp16"}));
    enc->add_option("--shape", eo->shape, "N,K (GGUF: any rank 1..16)")->required();
    enc->add_option("--input,--source", eo->input, "raw little-endian source words, row-major")->required()->check(
        path_given());
    enc->add_option("--output,--out", eo->output, "payload file to write")->required()->check(path_given());
    enc->add_option("--importance", eo->importance, "grouped_search: K little-endian binary32 weights")
        ->check(path_given());
    enc->add_flag("--negative-scales", eo->negative_scales, "grouped_search: negative candidates compete");
    enc->callback([eo] {
        CommandFiles files;
        files.inputs = {{"--input", eo->input}, {"--importance", eo->importance}};
        files.outputs = {{"--output", eo->output}};
        check_files(files);
        run_encode(*eo);
    });

    auto dopt = std::make_shared<DecodeOpts>();
    auto *dec = oracle.add_subcommand("decode", "Validate a payload; its logical words and values (binary32 and exact)");
    dec->add_option("--format", dopt->format, "grouped, scaled or GGUF format")->required();
    dec->add_option("--shape", dopt->shape, "N,K (GGUF: any rank 1..16)")->required();
    dec->add_option("--input,--payload", dopt->input, "payload file")->required()->check(path_given());
    dec->add_option("--json", dopt->json_out, "JSON out: a file, or - for stdout (the default without --values)")
        ->check(path_given("a file path or -"));
    dec->add_option("--values", dopt->values_out, "raw little-endian binary32 values out (one word per element)")
        ->check(path_given());
    dec->callback([dopt] {
        CommandFiles files;
        files.inputs = {{"--input", dopt->input}};
        files.outputs = {{"--json", dopt->json_out == "-" ? std::string() : dopt->json_out},
                         {"--values", dopt->values_out}};
        check_files(files);
        run_decode(*dopt);
    });
}

}  // namespace ninfer::harness::cli::tensor
