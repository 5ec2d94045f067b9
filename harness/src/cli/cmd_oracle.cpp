// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle ...`: oracle questions from the command line, JSON out, words as hex
// strings (docs/cli.md, "oracle"). `oracle` alone reads JSON requests on stdin.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "oracle_io.hpp"
#include "oracle_requests.hpp"

namespace ninfer::harness::cli {

namespace {

using json = nlohmann::ordered_json;

/// A hex word (optional 0x) that fits the format's byte width; UsageError otherwise.
std::uint64_t parse_word(const std::string &text, const oracle::WordFormat &f) {
    std::string t = text;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
    if (t.empty() || t.size() > 16 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw UsageError(fmt::format("word '{}' is not a hex word (expected up to {} hex digits, e.g. {})", echo(text),
                                     2 * f.bytes(), oracle::word_hex(f, 0)));
    const std::uint64_t w = std::stoull(t, nullptr, 16);
    const std::uint64_t limit = f.bytes() >= 8 ? ~0ull : (1ull << (8 * f.bytes())) - 1;
    if (w > limit) throw UsageError(fmt::format("word '{}' is wider than {} ({} bytes)", text, f.name, f.bytes()));
    return w;
}

std::string class_name(std::uint8_t cls) {
    const std::string_view name = abi::class_name(cls & 0x0Fu);
    return name.empty() ? "?" : std::string(name);
}

/// Why a word is not valid: the verdict's summary in plugin.h; "" for a valid word.
std::string verdict_reason(std::uint8_t v) {
    if (v == NINFER_VERDICT_VALID) return "";
    const std::string_view summary = abi::code_summary(abi::kVerdicts, v);
    return summary.empty() ? "?" : std::string(summary);
}

std::vector<std::string> words_of(const json &req) {
    if (!req.contains("words") || !req.at("words").is_array())
        throw UsageError("request: field \"words\" must be an array of hex strings");
    std::vector<std::string> out;
    for (const auto &w : req.at("words")) {
        if (!w.is_string()) throw UsageError("request: field \"words\" must be an array of hex strings");
        out.push_back(w.get<std::string>());
    }
    return out;
}

std::string string_field(const json &req, const char *key) {
    if (!req.contains(key) || !req.at(key).is_string())
        throw UsageError(fmt::format("request: field \"{}\" must be a string", key));
    return req.at(key).get<std::string>();
}

json answer_convert(const std::string &name, const std::vector<std::string> &words) {
    const auto &c = require_name(oracle::kConversions, name, "conversion");
    const auto &src = oracle::word_format(c.src), &dst = oracle::word_format(c.dst);
    json j = {{"op", "convert"}, {"conversion", c.name}, {"source", src.name}, {"target", dst.name}};
    json in = json::array(), in_values = json::array(), out = json::array(), values = json::array(),
         ties = json::array();
    for (const auto &t : words) {
        const std::uint64_t w = parse_word(t, src);
        const std::uint64_t r = oracle::convert_word(c, w);
        in.push_back(oracle::word_hex(src, w));
        in_values.push_back(oracle::word_value_text(src, w));
        out.push_back(oracle::word_hex(dst, r));
        values.push_back(oracle::word_value_text(dst, r));
        ties.push_back(oracle::conversion_is_tie(c, w));
    }
    j["inputs"] = in;
    j["input_values"] = in_values;
    j["words"] = out;
    j["values"] = values;
    j["ties"] = ties;
    return j;
}

json classify_one(const oracle::WordFormat &f, std::uint64_t w) {
    const auto info = oracle::word_info(f, w);
    json r = {{"word", oracle::word_hex(f, w)},
              {"class", class_name(info.cls)},
              {"class_byte", fmt::format("{:02x}", oracle::word_class_byte(f, w))},
              {"sign", info.negative ? "-" : "+"},
              {"negative", info.negative}};
    const int k = info.cls & 0x0F;
    if (k == NINFER_CLASS_QNAN || k == NINFER_CLASS_SNAN || k == NINFER_CLASS_NAN) {
        r["quiet"] = info.quiet;
        r["payload"] = fmt::format("{:x}", info.payload);
    }
    r["value"] = oracle::word_value_text(f, w);
    return r;
}

json answer_classify(const std::string &name, const std::vector<std::string> &words) {
    const auto &f = require_name(oracle::kWordFormats, name, "word format");
    json j = {{"op", "classify"}, {"format", f.name}, {"results", json::array()}};
    for (const auto &t : words) j["results"].push_back(classify_one(f, parse_word(t, f)));
    return j;
}

json answer_validate(const std::string &name, const std::vector<std::string> &words) {
    const auto &r = require_name(oracle::kRoles, name, "role");
    const auto &f = oracle::word_format(r.format);
    json j = {{"op", "validate"}, {"role", r.name}, {"format", f.name}, {"rule", r.summary}, {"results", json::array()}};
    for (const auto &t : words) {
        const std::uint64_t w = parse_word(t, f);
        const std::uint8_t v = oracle::role_verdict(r, w);
        j["results"].push_back({{"word", oracle::word_hex(f, w)},
                                {"valid", v == NINFER_VERDICT_VALID},
                                {"verdict", verdict_text(v)},
                                {"reason", verdict_reason(v)},
                                {"value", oracle::word_value_text(f, w)}});
    }
    return j;
}

/// One result: its fields also at the top level, so that `--word X` reads as one answer.
json flatten_single(json j) {
    if (!j.contains("results") || j["results"].size() != 1) return j;
    const json one = j["results"][0];
    for (const auto &[k, v] : one.items()) j[k] = v;
    return j;
}

json answer_request(const json &req) {
    if (!req.is_object()) throw UsageError("request: expected a JSON object with \"op\"");
    const std::string op = req.contains("op") && req["op"].is_string() ? req["op"].get<std::string>() : "";
    if (op == "convert") return answer_convert(string_field(req, "conversion"), words_of(req));
    if (op == "classify") return flatten_single(answer_classify(string_field(req, "format"), words_of(req)));
    if (op == "validate") return flatten_single(answer_validate(string_field(req, "role"), words_of(req)));
    throw UsageError(fmt::format("request: unknown op '{}'; expected one of: convert, classify, validate", echo(op)));
}

void print(const json &j) { std::printf("%s\n", j.dump().c_str()); }

/// A request document within the nesting and number limits; UsageError naming `where`.
bool parse_request(std::string_view text, json &out, std::string &error) {
    return vectors::parse_json_bounded(text, out, error);
}

/// Requests on stdin, at most kMaxStdinBytes of them; stdin that is a directory, cannot be read
/// or holds no request is a UsageError (exit 2, one line).
void serve_stdin() {
    if (struct stat st {}; ::fstat(0, &st) == 0 && S_ISDIR(st.st_mode))
        throw UsageError("stdin: a directory (expected JSON requests, one per line or one array)");
    std::string text;
    char buf[1 << 16];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, stdin)) > 0;) {
        if (text.size() + got > kMaxStdinBytes)
            throw UsageError(fmt::format("stdin: larger than the limit of {} bytes of requests", kMaxStdinBytes));
        text.append(buf, got);
    }
    if (std::ferror(stdin)) throw UsageError(fmt::format("stdin: cannot read: {}", std::strerror(errno)));
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw UsageError("stdin: no request (expected JSON requests, one per line or one array)");
    answer_requests(text, [](const std::string &line) { std::printf("%s\n", line.c_str()); });
}

}  // namespace

void answer_requests(std::string_view text, const std::function<void(const std::string &)> &emit) {
    json whole;
    std::string error;
    if (parse_request(text, whole, error)) {
        if (whole.is_array())
            for (const auto &r : whole) emit(answer_request(r).dump());
        else emit(answer_request(whole).dump());
        return;
    }
    std::size_t n = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        const auto nl = text.find('\n', pos);
        const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        json req;
        if (!parse_request(line, req, error))
            throw UsageError(fmt::format("stdin line {}: {}", n, error.substr(error.find(": ") + 2)));
        emit(answer_request(req).dump());
    }
}

void add_oracle(CLI::App &app) {
    auto *cmd = app.add_subcommand("oracle", "Ask the oracle (JSON out; without a subcommand, JSON requests on stdin)");
    cmd->require_subcommand(0, 1);

    struct Opts {
        std::string conversion, format, role;
        std::vector<std::string> words;
    };
    auto o = std::make_shared<Opts>();

    auto *convert = cmd->add_subcommand("convert", "Convert source words by a named conversion (words, values, ties)");
    convert->add_option("--conversion", o->conversion, "conversion name (see `list`)")->required();
    convert->add_option("--word", o->words, "source word(s) as hex")->required();
    convert->callback([o] { print(answer_convert(o->conversion, o->words)); });

    auto *classify = cmd->add_subcommand("classify", "Class, sign, quiet bit, payload and exact value of words");
    classify->add_option("--format", o->format, "word format name")->required();
    classify->add_option("--word", o->words, "word(s) as hex")->required();
    classify->callback([o] { print(flatten_single(answer_classify(o->format, o->words))); });

    auto *validate = cmd->add_subcommand("validate", "Whether words are valid for a role, and why not");
    validate->add_option("--role", o->role, "role name (see `list`)")->required();
    validate->add_option("--word", o->words, "word(s) as hex")->required();
    validate->callback([o] { print(flatten_single(answer_validate(o->role, o->words))); });

    tensor::add_oracle_tensor_subcommands(*cmd);

    cmd->callback([cmd] {
        if (cmd->get_subcommands().empty()) serve_stdin();
    });
}

}  // namespace ninfer::harness::cli
