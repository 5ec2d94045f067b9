// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle geometry / pack / unpack / encode / decode` (docs/cli.md): the
// subcommands and their options. Each runs the format's family descriptor (families.hpp); the
// families' own files: family_word.cpp, oracle_grouped.cpp, oracle_scaled.cpp, oracle_gguf.cpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cmd_common.hpp"
#include "families.hpp"
#include "oracle_io.hpp"

namespace ninfer::harness::cli::tensor {

namespace {

namespace orc = ninfer::oracle;

void print_json(const json &j) { std::printf("%s\n", j.dump().c_str()); }

void run_geometry(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    if (o.divisors_given && v.id != NINFER_FORMAT_nvfp4)
        fail(kUsage, "error: --divisors belongs to nvfp4 (its source-matrix count); " + std::string(v.name) + " has none");
    print_json(cli_family(v.family).geometry(v, shape, o.divisor_count));
}

void run_pack(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    const auto packed = cli_family(v.family).pack(v, shape, o);
    if (o.out.empty()) {
        std::printf("%s\n", hex_bytes(packed.payload).c_str());
        return;
    }
    write_atomically(o.out, packed.payload.data(), packed.payload.size());
    std::printf("%s %s -> %s: %zu bytes %s\n", std::string(v.name).c_str(), shape_text(shape).c_str(), o.out.c_str(),
                packed.payload.size(), packed.layout.c_str());
}

void run_unpack(const LayoutOpts &o) {
    const auto &v = format_by_name(o.format);
    const auto shape = parse_shape(o.shape);
    print_json(cli_family(v.family).unpack(v, shape, o));
}

void run_encode(const EncodeOpts &o) {
    const auto &v = format_by_name(o.format);
    cli_family(v.family).encode(v, o);
}

void run_decode(const DecodeOpts &o) {
    const auto &v = format_by_name(o.format);
    cli_family(v.family).decode(v, o);
}

void add_geometry(CLI::App &oracle) {
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
}

void add_pack(CLI::App &oracle) {
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
}

void add_unpack(CLI::App &oracle) {
    auto uo = std::make_shared<LayoutOpts>();
    auto *unpack = oracle.add_subcommand("unpack", "Validate a payload; its logical planes as hex (JSON)");
    unpack->add_option("--format", uo->format, "format name")->required();
    unpack->add_option("--shape", uo->shape, "dimensions, e.g. 256,128")->required();
    unpack->add_option("--payload,--input", uo->payload, "payload: hex bytes or a file")->required()->check(
        path_given("hex bytes or a file path"));
    unpack->callback([uo] { run_unpack(*uo); });
}

void add_encode(CLI::App &oracle) {
    std::vector<std::string> methods;
    for (const auto &e : orc::kEncoders) methods.emplace_back(e.name);
    auto eo = std::make_shared<EncodeOpts>();
    auto *enc = oracle.add_subcommand("encode", "Canonical payload of a raw source matrix by a named encoder");
    enc->add_option("--format", eo->format, "grouped, scaled or GGUF format")->required();
    enc->add_option("--method", eo->method, "encoder (see `list`)")->required()->check(CLI::IsMember(methods).description(""));
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
}

void add_decode(CLI::App &oracle) {
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

}  // namespace

void add_oracle_tensor_subcommands(CLI::App &oracle) {
    add_geometry(oracle);
    add_pack(oracle);
    add_unpack(oracle);
    add_encode(oracle);
    add_decode(oracle);
}

}  // namespace ninfer::harness::cli::tensor
