// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle encode` and `oracle decode` for the grouped family (tensor-formats.txt
// Sections 5-7, storage-layouts.md Section 3; oracle/GROUPED.md): raw little-endian source words
// to the canonical row_split_k128_v1 payload, and a payload back to codes, scales and values.
// Exit status: 0 ok, 1 refused by a rule (one line naming rule and location), 2 usage or input.
#include "oracle_grouped.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/vectors/bounded_input.hpp"

namespace ninfer::harness::cli {

namespace {

namespace orc = ninfer::oracle;

constexpr int kRefused = 1;
constexpr int kUsage = 2;
/// Largest input or payload file read (a 4096x4096 FP32 matrix is 64 MiB).
constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

[[noreturn]] void fail(int status, const std::string &line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    throw CLI::RuntimeError(status);
}

const orc::GroupedFormat &grouped_by_name(const std::string &name) {
    if (const auto *f = orc::find_name(orc::kGroupedFormats, name)) return *f;
    std::string names;
    for (const auto &f : orc::kGroupedFormats) names += (names.empty() ? "" : ", ") + std::string(f.name);
    fail(kUsage, "error: unknown grouped format '" + vectors::echo(name) + "'; expected one of: " + names);
}

/// "N,K" with two positive decimal integers.
std::pair<std::uint64_t, std::uint64_t> parse_shape(const std::string &text) {
    const auto comma = text.find(',');
    auto number = [&](const std::string &t) -> std::uint64_t {
        if (t.empty() || t.size() > 19 || t.find_first_not_of("0123456789") != std::string::npos)
            fail(kUsage, "error: --shape '" + vectors::echo(text) + "' is not N,K with two positive integers");
        const std::uint64_t v = std::stoull(t);
        if (v == 0) fail(kUsage, "error: --shape '" + vectors::echo(text) + "': N and K must be positive");
        return v;
    };
    if (comma == std::string::npos) fail(kUsage, "error: --shape '" + vectors::echo(text) + "' is not N,K with two positive integers");
    return {number(text.substr(0, comma)), number(text.substr(comma + 1))};
}

std::vector<std::uint8_t> read_file(const std::string &path, const char *what) {
    std::string text, error;
    if (!vectors::read_file_capped(path, kMaxInputBytes, text, error))
        fail(kUsage, std::string("error: cannot read ") + what + " file '" + vectors::echo(path) + "': " + error);
    return {text.begin(), text.end()};
}

/// Write to a temporary beside the target, then rename: readers never see a partial file.
void write_atomically(const std::string &path, const void *data, std::size_t size) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(kUsage, "error: cannot write '" + tmp + "'");
        out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
        out.flush();
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            fail(kUsage, "error: writing '" + tmp + "' failed");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        fail(kUsage, "error: cannot rename '" + tmp + "' to '" + path + "'");
    }
}

/// The rule id (suites/src/rules_grouped.cpp) of an encoder refusal.
const char *encode_rule(std::int32_t status) {
    switch (status) {
    case NINFER_E_NONFINITE: return suites::rule::grouped_absmax_nonfinite;
    case NINFER_E_SCALE_OVERFLOW: return suites::rule::grouped_absmax_scale_overflow;
    case NINFER_E_METHOD: return suites::rule::grouped_absmax_refuses_q2_t2;
    default: return suites::rule::grouped_search_importance;
    }
}

/// The rule id of a payload refusal.
const char *decode_rule(const orc::GroupedFormat &f, std::uint32_t detail) {
    switch (detail) {
    case NINFER_DETAIL_ILLEGAL_CODE:
        return suites::rule::illegal_word(f);
    case NINFER_DETAIL_INVALID_SCALE:
        return f.encoding == orc::CodeEncoding::OFFSET ? suites::rule::grouped_scale_q2 : suites::rule::grouped_scale_validity;
    case NINFER_DETAIL_ZERO_SCALE_CODES: return suites::rule::grouped_scale_zero_group_codes;
    case NINFER_DETAIL_NONZERO_PADDING: return suites::rule::row_split_padding;
    case NINFER_DETAIL_NONZERO_GAP: return suites::rule::row_split_gaps;
    default: return suites::rule::row_split_size;
    }
}

struct EncodeOpts {
    std::string format, method, source_type, shape, input, output, importance;
    bool negative_scales = false;
};

void run_encode(const EncodeOpts &o) {
    const auto &f = grouped_by_name(o.format);
    const auto [n, k] = parse_shape(o.shape);
    const std::uint32_t src = o.source_type == "fp32" ? NINFER_FORMAT_fp32
                              : o.source_type == "bf16" ? NINFER_FORMAT_bf16
                                                        : NINFER_FORMAT_fp16;
    const bool search = o.method == "grouped_search";
    if (!search && (!o.importance.empty() || o.negative_scales))
        fail(kUsage, "error: --importance and --negative-scales belong to --method grouped_search");
    const auto geometry = orc::row_split_geometry(f, n, k);
    if (!geometry) fail(kUsage, "error: shape [" + o.shape + "] overflows the row_split_k128_v1 geometry");
    const std::uint64_t width = src == NINFER_FORMAT_fp32 ? 4 : 2;
    const auto words = read_file(o.input, "input");
    if (words.size() / width / k < n || words.size() != n * k * width)
        fail(kUsage, "error: input '" + o.input + "' holds " + std::to_string(words.size()) + " bytes; [" +
                         std::to_string(n) + "," + std::to_string(k) + "] " + o.source_type + " words need " +
                         std::to_string(n * k * width));
    std::vector<std::uint32_t> importance;
    if (!o.importance.empty()) {
        const auto raw = read_file(o.importance, "importance");
        if (raw.size() != 4 * k)
            fail(kUsage, "error: importance '" + o.importance + "' holds " + std::to_string(raw.size()) +
                             " bytes; K = " + std::to_string(k) + " binary32 words need " + std::to_string(4 * k));
        for (std::uint64_t c = 0; c < k; ++c)
            importance.push_back(static_cast<std::uint32_t>(raw[4 * c]) | static_cast<std::uint32_t>(raw[4 * c + 1]) << 8 |
                                 static_cast<std::uint32_t>(raw[4 * c + 2]) << 16 |
                                 static_cast<std::uint32_t>(raw[4 * c + 3]) << 24);
    }
    const auto r = search ? orc::grouped_search(f, src, n, k, words, importance, o.negative_scales)
                          : orc::grouped_absmax(f, src, n, k, words);
    if (r.status == NINFER_E_INVALID_ARGUMENT) fail(kUsage, "error: " + r.message);
    if (r.status != NINFER_OK) fail(kRefused, std::string("refused: ") + encode_rule(r.status) + ": " + r.message);
    const auto payload = orc::row_split_encode(f, r.m);
    write_atomically(o.output, payload.data(), payload.size());
    std::size_t reading = 0;
    for (const bool b : r.suite_reading_groups) reading += b;
    std::printf("%s %s [%llu,%llu] -> %s: %zu bytes row_split_k128_v1", std::string(f.name).c_str(), o.method.c_str(),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), o.output.c_str(), payload.size());
    if (search) std::printf(", %zu group(s) resting on the suite reading (oracle/GROUPED.md R3)", reading);
    std::printf("\n");
}

struct DecodeOpts {
    std::string format, shape, input, json_out, values_out;
};

void run_decode(const DecodeOpts &o) {
    const auto &f = grouped_by_name(o.format);
    const auto [n, k] = parse_shape(o.shape);
    const auto payload = read_file(o.input, "payload");
    const auto d = orc::row_split_decode(f, n, k, payload);
    if (d.status != NINFER_OK) fail(kRefused, std::string("refused: ") + decode_rule(f, d.detail) + ": " + d.message);
    const std::uint64_t gpr = orc::grouped_groups_per_row(f, k);
    std::vector<std::uint32_t> values(n * k);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < k; ++c)
            values[r * k + c] = orc::grouped_reconstruct(d.m.scales[r * gpr + c / f.group], d.m.codes[r * k + c]);
    if (!o.values_out.empty()) {
        std::vector<std::uint8_t> raw;
        raw.reserve(4 * values.size());
        for (const auto v : values)
            for (int b = 0; b < 4; ++b) raw.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
        write_atomically(o.values_out, raw.data(), raw.size());
    }
    if (o.json_out.empty() && !o.values_out.empty()) return;
    using json = nlohmann::ordered_json;
    const auto &f16 = orc::word_format(NINFER_FORMAT_fp16);
    const auto &f32 = orc::word_format(NINFER_FORMAT_fp32);
    json j = {{"format", f.name},
              {"layout", "row_split_k128_v1"},
              {"shape", {n, k}},
              {"group", f.group},
              {"reconstruction", "binary32(s32 * binary32(q)), tensor-formats Section 6.2"}};
    json codes = json::array(), scales = json::array(), scale_values = json::array(), vals = json::array(),
         texts = json::array();
    for (std::uint64_t r = 0; r < n; ++r) {
        json cr = json::array(), sr = json::array(), svr = json::array(), vr = json::array(), tr = json::array();
        for (std::uint64_t c = 0; c < k; ++c) {
            cr.push_back(static_cast<int>(d.m.codes[r * k + c]));
            vr.push_back(orc::word_hex(f32, values[r * k + c]));
            tr.push_back(orc::word_value_text(f32, values[r * k + c]));
        }
        for (std::uint64_t g = 0; g < gpr; ++g) {
            sr.push_back(orc::word_hex(f16, d.m.scales[r * gpr + g]));
            svr.push_back(orc::word_value_text(f16, d.m.scales[r * gpr + g]));
        }
        codes.push_back(cr);
        scales.push_back(sr);
        scale_values.push_back(svr);
        vals.push_back(vr);
        texts.push_back(tr);
    }
    j["codes"] = codes;
    j["scales"] = scales;
    j["scale_values"] = scale_values;
    j["values"] = vals;
    j["value_texts"] = texts;
    const std::string text = j.dump() + "\n";
    if (o.json_out.empty() || o.json_out == "-")
        std::fwrite(text.data(), 1, text.size(), stdout);
    else
        write_atomically(o.json_out, text.data(), text.size());
}

}  // namespace

void add_oracle_grouped_subcommands(CLI::App &oracle) {
    auto eo = std::make_shared<EncodeOpts>();
    auto *enc = oracle.add_subcommand(
        "encode", "Canonical row_split_k128_v1 payload of a raw source matrix (grouped_absmax / grouped_search)");
    enc->add_option("--format", eo->format, "grouped format (q4_g64_fp16, q5_g64_fp16, q6_g64_fp16, q8_g32_fp16)")
        ->required();
    enc->add_option("--method", eo->method, "encoder")->required()->check(
        CLI::IsMember({"grouped_absmax", "grouped_search"}));
    enc->add_option("--source-type", eo->source_type, "source word type")->required()->check(
        CLI::IsMember({"fp32", "bf16", "fp16"}));
    enc->add_option("--shape", eo->shape, "N,K")->required();
    enc->add_option("--input", eo->input, "raw little-endian source words, row-major")->required();
    enc->add_option("--output", eo->output, "payload file to write")->required();
    enc->add_option("--importance", eo->importance, "grouped_search: K little-endian binary32 weights");
    enc->add_flag("--negative-scales", eo->negative_scales, "grouped_search: negative candidates compete");
    enc->callback([eo] { run_encode(*eo); });

    auto dopt = std::make_shared<DecodeOpts>();
    auto *dec = oracle.add_subcommand("decode", "Validate a row_split_k128_v1 payload; codes, scales and values");
    dec->add_option("--format", dopt->format, "grouped format")->required();
    dec->add_option("--shape", dopt->shape, "N,K")->required();
    dec->add_option("--input", dopt->input, "payload file")->required();
    dec->add_option("--json", dopt->json_out, "JSON out: a file, or - for stdout (the default without --values)");
    dec->add_option("--values", dopt->values_out, "raw little-endian binary32 values out (N*K words)");
    dec->callback([dopt] { run_decode(*dopt); });
}

}  // namespace ninfer::harness::cli
