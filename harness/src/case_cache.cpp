// SPDX-License-Identifier: Apache-2.0
// The case cache of `run --case-cache DIR` (docs/cli.md, "Case cache"): a suite's seeded random
// cases as the vector format's case lines (vectors/README.md, version 3) under one header line
// that holds the key and the SHA-256 of those lines; written once per key, atomically.
#include "ninfer/harness/case_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::harness {

namespace fs = std::filesystem;

namespace {

using suites::Case;
using vectors::VectorError;

constexpr const char *kCacheFormat = "ninfer-conform/case-cache";
/// What every refusal of a cache file adds: the way out.
constexpr const char *kRemedy = "delete the file to have it generated again";

[[noreturn]] void fail(const std::string &where, const std::string &what) {
    throw VectorError(where + ": " + what + "; " + kRemedy);
}

/// Everything that determines a suite's seeded cases: the build (its oracle and suites), the
/// suite, the level and the seed; and the formats of the file.
struct Key {
    std::string suite, level, build;
    std::uint64_t seed = 0;
};

std::string header_line(const Key &k, std::size_t cases, const std::string &lines_sha256) {
    nlohmann::ordered_json h;
    h["format"] = kCacheFormat;
    h["version"] = kCaseCacheVersion;
    h["vectors_version"] = vectors::kFormatVersion;
    h["suite"] = k.suite;
    h["level"] = k.level;
    h["seed"] = k.seed;
    h["build"] = k.build;
    h["cases"] = cases;
    h["sha256"] = lines_sha256;
    return h.dump();
}

/// Whether a header (format already checked) was written for this very key.
bool same_key(const nlohmann::json &h, const Key &k) {
    const auto is = [&h](const char *key, const auto &value) { return h.contains(key) && h[key] == value; };
    return is("version", kCaseCacheVersion) && is("vectors_version", vectors::kFormatVersion) && is("suite", k.suite) &&
           is("level", k.level) && is("seed", k.seed) && is("build", k.build);
}

/// The cases of a cache file written for `k`; std::nullopt when there is no file or it was
/// written for another key. A file of this key that does not check out throws VectorError.
std::optional<std::vector<Case>> read_cached(const fs::path &file, const Key &k) {
    std::error_code ec;
    if (!fs::exists(file, ec)) return std::nullopt;
    const std::string name = file.string();
    std::string text, error;
    if (!vectors::read_file_capped(name, vectors::kMaxVectorFileBytes, text, error)) fail(name, error);
    // 1. the header: a case cache file, and the key it was written for
    const auto nl = text.find('\n');
    if (nl == std::string::npos)
        fail(name + ":1", "truncated: expected a header line {\"format\":\"" + std::string(kCacheFormat) +
                              "\",...} ending in a newline");
    nlohmann::json h;
    if (!vectors::parse_json_bounded(std::string_view(text).substr(0, nl), h, error))
        fail(name + ":1", "malformed header: expected one JSON object (" + error.substr(error.find(": ") + 2) + ")");
    if (!h.is_object() || !h.contains("format") || h["format"] != kCacheFormat)
        fail(name + ":1", "expected a case cache header with \"format\":\"" + std::string(kCacheFormat) + "\"");
    if (!same_key(h, k)) return std::nullopt;
    if (!h.contains("cases") || !h["cases"].is_number_unsigned() || !h.contains("sha256") || !h["sha256"].is_string())
        fail(name + ":1", "header: expected an unsigned integer \"cases\" and a string \"sha256\"");
    // 2. the case lines, checked whole before any is parsed
    const std::string_view lines = std::string_view(text).substr(nl + 1);
    const auto actual = vectors::sha256_bytes(lines);
    if (actual != h["sha256"].get<std::string>())
        fail(name, "SHA-256 mismatch of the case lines (the header says " + vectors::echo(h["sha256"].get<std::string>(), 64) +
                       ", the lines have " + actual + "): corrupt or truncated");
    if (!lines.empty() && lines.back() != '\n') fail(name, "truncated: the last case line has no newline");
    // 3. each case, with every check of the vectors reader
    std::vector<Case> cases;
    std::size_t pos = 0, n = 1;
    while (pos < lines.size()) {
        const auto end = lines.find('\n', pos);
        const std::string where = name + ":" + std::to_string(++n);
        try {
            cases.push_back(vectors::case_from_line(std::string(lines.substr(pos, end - pos)), where));
        } catch (const VectorError &e) {
            throw VectorError(std::string(e.what()) + "; " + kRemedy);
        }
        pos = end + 1;
    }
    if (cases.size() != h["cases"].get<std::uint64_t>())
        fail(name, fmt::format("the header says {} cases, the file holds {}", h["cases"].get<std::uint64_t>(), cases.size()));
    return cases;
}

/// Whether two cases are the same call with the same expectation, field by field.
bool same_case(const Case &a, const Case &b) {
    return a.id == b.id && a.rule == b.rule && a.level == b.level && a.source == b.source &&
           a.suite_reading == b.suite_reading && a.op == b.op && a.format == b.format && a.format_in == b.format_in &&
           a.layout == b.layout && a.method == b.method && a.flags == b.flags && a.profile == b.profile &&
           a.shape == b.shape && a.count == b.count && a.inputs == b.inputs && a.expect.status == b.expect.status &&
           a.expect.detail == b.expect.detail && a.expect.outputs == b.expect.outputs &&
           a.expect.accept == b.expect.accept && a.nan == b.nan;
}

/// The case lines of `cases`, each read back and compared with its case: a run from the cache
/// must be the run without it, so a case the vector format cannot carry is a bug, never cached.
std::string case_lines(const std::vector<Case> &cases, const std::string &suite) {
    std::string lines;
    for (const auto &c : cases) {
        const std::string line = vectors::case_to_line(c);
        bool same = false;
        try {
            same = same_case(vectors::case_from_line(line, "case " + c.id), c);
        } catch (const VectorError &e) {
            throw std::logic_error("case cache: suite " + suite + ": " + e.what() +
                                   " (its vector line does not read back)");
        }
        if (!same)
            throw std::logic_error("case cache: suite " + suite + ": case " + c.id +
                                   " does not read back identically from its vector line");
        lines += line;
        lines.push_back('\n');
    }
    return lines;
}

/// Write `text` as `file`: a temporary file of this process in the same directory, flushed to the
/// disk, then renamed over `file`, so that a reader (another run included) sees the old file or
/// the whole new one. Throws VectorError naming the file and errno.
void write_atomically(const fs::path &file, const std::string &text) {
    static std::atomic<unsigned> serial{0};
    const fs::path tmp = file.parent_path() / fmt::format(".{}.{}.{}.tmp", file.filename().string(), ::getpid(), serial++);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw VectorError(file.string() + ": cannot write the case cache: " + std::strerror(errno));
    int err = 0;
    for (std::size_t done = 0; done < text.size() && err == 0;) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n > 0) done += static_cast<std::size_t>(n);
        else if (n == 0) err = EIO;
        else if (errno != EINTR) err = errno;
    }
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err == 0 && std::rename(tmp.c_str(), file.c_str()) != 0) err = errno;
    if (err != 0) {
        ::unlink(tmp.c_str());
        throw VectorError(file.string() + ": cannot write the case cache: " + std::strerror(err));
    }
}

}  // namespace

const std::string &build_digest() {
    static const std::string digest = vectors::sha256_file("/proc/self/exe");
    return digest;
}

fs::path case_cache_file(const fs::path &dir, const std::string &suite, suites::Level level, std::uint64_t seed) {
    return dir / fmt::format("{}.{}.{}.jsonl", suite, suites::level_name(level), seed);
}

std::vector<Case> seeded_cases(const suites::Suite &suite, std::uint64_t seed, suites::Level level,
                               const fs::path &dir) {
    if (dir.empty()) return suite.random(seed, level);
    const Key key{suite.name, suites::level_name(level), build_digest(), seed};
    const fs::path file = case_cache_file(dir, suite.name, level, seed);
    if (auto cached = read_cached(file, key)) return std::move(*cached);
    auto cases = suite.random(seed, level);
    const std::string lines = case_lines(cases, suite.name);
    std::error_code ec;
    fs::create_directories(dir, ec);  // a failure shows as the write's
    write_atomically(file, header_line(key, cases.size(), vectors::sha256_bytes(lines)) + "\n" + lines);
    return cases;
}

}  // namespace ninfer::harness
