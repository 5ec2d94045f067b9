// SPDX-License-Identifier: Apache-2.0
// The pieces the tensor subcommands of `ninfer-conform oracle` share (oracle_io.hpp).
#include "oracle_io.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "ninfer/abi/text.hpp"
#include "ninfer/harness/suggest.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/vectors/bounded_input.hpp"

namespace ninfer::harness::cli::tensor {

void fail(int status, const std::string &line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    throw CLI::RuntimeError(status);
}

const abi::FormatView &format_by_name(const std::string &name) {
    if (const auto *f = abi::find_format(name)) return *f;
    std::vector<std::string> names;
    for (const auto &f : abi::kAllFormats) names.emplace_back(f.name);
    fail(kUsage, unknown_name_line("error: unknown format '" + vectors::echo(name) + "'", name, names, "ninfer-conform list"));
}

std::vector<std::uint64_t> parse_shape(const std::string &text) {
    std::vector<std::uint64_t> dims;
    if (text.empty()) return dims;
    const std::string bad = "error: --shape '" + vectors::echo(text) +
                            "' is not a shape; expected 1 to 16 decimal dimensions separated by commas (e.g. 256,128)";
    std::size_t pos = 0;
    while (true) {
        const auto comma = text.find(',', pos);
        const std::string t = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (t.empty() || t.size() > 19 || t.find_first_not_of("0123456789") != std::string::npos) fail(kUsage, bad);
        dims.push_back(std::stoull(t));
        if (dims.size() > 16) fail(kUsage, bad);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return dims;
}

std::string shape_text(std::span<const std::uint64_t> shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "]";
}

std::pair<std::uint64_t, std::uint64_t> rank2(const std::vector<std::uint64_t> &shape, std::string_view format) {
    if (shape.size() != 2)
        fail(kUsage, "error: " + std::string(format) + " tensors are rank 2 [N,K]; --shape " + shape_text(shape) +
                         " has rank " + std::to_string(shape.size()));
    return {shape[0], shape[1]};
}

std::vector<std::uint8_t> read_file(const std::string &path, const char *what) {
    std::string text, error;
    if (!vectors::read_file_capped(path, kMaxInputBytes, text, error))
        fail(kUsage, std::string("error: cannot read ") + what + " file '" + vectors::echo(path) + "': " + error);
    return {text.begin(), text.end()};
}

std::vector<std::uint8_t> read_plane(const std::string &arg, const char *what) {
    std::string t = arg;
    if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
    const bool hex = !t.empty() && t.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (!hex) return read_file(arg, what);
    if (t.size() % 2 != 0)
        fail(kUsage, std::string("error: ") + what + " '" + vectors::echo(arg) +
                         "' has an odd number of hex digits; expected hex bytes (two digits each) or a file");
    std::vector<std::uint8_t> out;
    abi::parse_hex_bytes(t, out);  // cannot fail: only hex digits, an even count
    return out;
}

void write_atomically(const std::string &path, const void *data, std::size_t size) {
    try {
        reports::write_atomic(path, std::string_view(static_cast<const char *>(data), size));
    } catch (const std::exception &e) {
        fail(kUsage, std::string("error: ") + vectors::echo(e.what(), 400));
    }
}

std::vector<std::uint64_t> le_words(std::span<const std::uint8_t> bytes, unsigned width) {
    std::vector<std::uint64_t> out(bytes.size() / width);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = abi::load_le(&bytes[width * i], static_cast<int>(width));
    return out;
}

void require_bytes(std::uint64_t got, std::uint64_t want, const std::string &what, const std::string &why) {
    if (got != want)
        fail(kUsage, "error: " + what + " holds " + std::to_string(got) + " bytes; " + why + " need " + std::to_string(want));
}

std::vector<std::uint64_t> read_source(const std::string &path, const std::string &source_type, std::uint64_t elements) {
    const unsigned width = source_type == "fp32" ? 4 : 2;
    const auto raw = read_file(path, "input");
    std::uint64_t want = 0;
    if (__builtin_mul_overflow(elements, std::uint64_t{width}, &want)) want = ~std::uint64_t{0};
    require_bytes(raw.size(), want, "input '" + vectors::echo(path) + "'",
                  std::to_string(elements) + " " + source_type + " words");
    return le_words(raw, width);
}

void refuse(std::int32_t status, std::uint32_t detail, const std::string &message) {
    std::string line = "refused: " + abi::status_c_name(status);
    if (detail != 0) line += " (detail " + std::string(abi::detail_name(detail)) + ")";
    fail(kRefused, line + ": " + message);
}

void put_values(json &j, std::span<const std::uint32_t> values, std::uint64_t rows, std::uint64_t cols) {
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    json vals = json::array(), texts = json::array();
    for (std::uint64_t r = 0; r < rows; ++r) {
        json vr = json::array(), tr = json::array();
        for (std::uint64_t c = 0; c < cols; ++c) {
            vr.push_back(oracle::word_hex(f32, values[r * cols + c]));
            tr.push_back(oracle::word_value_text(f32, values[r * cols + c]));
        }
        vals.push_back(std::move(vr));
        texts.push_back(std::move(tr));
    }
    j["values"] = std::move(vals);
    j["value_texts"] = std::move(texts);
}

void emit_decoded(const DecodeOpts &o, std::span<const std::uint32_t> values, const json &j) {
    if (!o.values_out.empty()) {
        std::vector<std::uint8_t> raw;
        raw.reserve(4 * values.size());
        for (const auto v : values) abi::append_le(raw, v, 4);
        write_atomically(o.values_out, raw.data(), raw.size());
    }
    if (o.json_out.empty() && !o.values_out.empty()) return;
    const std::string text = j.dump() + "\n";
    if (o.json_out.empty() || o.json_out == "-")
        std::fwrite(text.data(), 1, text.size(), stdout);
    else
        write_atomically(o.json_out, text.data(), text.size());
}

}  // namespace ninfer::harness::cli::tensor
