// SPDX-License-Identifier: Apache-2.0
// The case cache of `run --case-cache DIR` (docs/cli.md, "Case cache"): a suite's seeded random
// cases as the vector format's case lines (vectors/README.md, version 4) under one header line
// that holds what the cases depend on, the SHA-256 of those lines and an HMAC-SHA-256 of the
// whole file under a key kept outside the cache directory; written once per key, atomically.
#include "ninfer/harness/case_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/reports/report.hpp"
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

/// Everything that determines a suite's seeded cases: the build (its suite version and
/// executable digest), the suite, the level and the seed; and the formats of the file.
struct Key {
    std::string suite, level, suite_version, build;
    std::uint64_t seed = 0;
};

/// The header without its "hmac": the bytes the HMAC covers, with the case lines after them.
nlohmann::ordered_json header_of(const Key &k, std::size_t cases, const std::string &lines_sha256) {
    nlohmann::ordered_json h;
    h["format"] = kCacheFormat;
    h["version"] = kCaseCacheVersion;
    h["vectors_version"] = vectors::kFormatVersion;
    h["suite"] = k.suite;
    h["level"] = k.level;
    h["seed"] = k.seed;
    h["suite_version"] = k.suite_version;
    h["build"] = k.build;
    h["cases"] = cases;
    h["sha256"] = lines_sha256;
    return h;
}

/// What the HMAC of a file covers: its header line without "hmac", a newline, its case lines.
std::string mac_of(const CaseCacheKey &key, const nlohmann::ordered_json &header, std::string_view lines) {
    std::string covered = header.dump();
    covered.push_back('\n');
    covered.append(lines);
    return hmac_sha256_hex(key.bytes, covered);
}

/// Whether a header (format already checked) was written for this very key.
bool same_key(const nlohmann::ordered_json &h, const Key &k) {
    const auto is = [&h](const char *key, const auto &value) { return h.contains(key) && h[key] == value; };
    return is("version", kCaseCacheVersion) && is("vectors_version", vectors::kFormatVersion) && is("suite", k.suite) &&
           is("level", k.level) && is("seed", k.seed) && is("suite_version", k.suite_version) && is("build", k.build);
}

/// Whether the header's "hmac" is the HMAC of the file under `key` (compared in constant time).
bool authentic(nlohmann::ordered_json h, std::string_view lines, const CaseCacheKey &key) {
    const auto it = h.find("hmac");
    if (it == h.end() || !it->is_string()) return false;
    const std::string claimed = it->get<std::string>();
    h.erase("hmac");
    const std::string actual = mac_of(key, h, lines);
    return claimed.size() == actual.size() && CRYPTO_memcmp(claimed.data(), actual.data(), actual.size()) == 0;
}

/// The cases of a cache file written for `k` under `key`; std::nullopt when there is no file,
/// it was written for another key, or its HMAC does not verify (then said on stderr). A file
/// that is not a case cache file, or that verifies but does not check out, throws VectorError.
std::optional<std::vector<Case>> read_cached(const fs::path &file, const Key &k, const CaseCacheKey &key) {
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
    nlohmann::ordered_json h;
    if (!vectors::parse_json_bounded(std::string_view(text).substr(0, nl), h, error))
        fail(name + ":1", "malformed header: expected one JSON object (" + error.substr(error.find(": ") + 2) + ")");
    if (!h.is_object() || !h.contains("format") || h["format"] != kCacheFormat)
        fail(name + ":1", "expected a case cache header with \"format\":\"" + std::string(kCacheFormat) + "\"");
    if (!same_key(h, k)) return std::nullopt;
    // 2. the HMAC under this run's key: a file this key did not seal is never read
    const std::string_view lines = std::string_view(text).substr(nl + 1);
    if (!authentic(h, lines, key)) {
        std::fprintf(stderr, "case cache: %s is not sealed by key %s (another key's file, or altered): not read; generated again\n",
                     name.c_str(), key.id.c_str());
        return std::nullopt;
    }
    if (!h.contains("cases") || !h["cases"].is_number_unsigned() || !h.contains("sha256") || !h["sha256"].is_string())
        fail(name + ":1", "header: expected an unsigned integer \"cases\" and a string \"sha256\"");
    // 3. the case lines, checked whole before any is parsed
    const auto actual = vectors::sha256_bytes(lines);
    if (actual != h["sha256"].get<std::string>())
        fail(name, "SHA-256 mismatch of the case lines (the header says " + vectors::echo(h["sha256"].get<std::string>(), 64) +
                       ", the lines have " + actual + "): corrupt or truncated");
    if (!lines.empty() && lines.back() != '\n') fail(name, "truncated: the last case line has no newline");
    // 4. each case, with every check of the vectors reader
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
           a.expect.accept == b.expect.accept && a.expect.reading == b.expect.reading &&
           a.expect.choice == b.expect.choice && a.expect.alternatives == b.expect.alternatives && a.nan == b.nan;
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

/// Write `text` as `file` atomically (reports::write_atomic: a reader, another run included,
/// sees the old file or the whole new one). Throws VectorError naming the file and errno.
void write_atomically(const fs::path &file, const std::string &text) {
    try {
        reports::write_atomic(file, text);
    } catch (const std::exception &e) {
        throw VectorError(std::string("case cache: ") + e.what());
    }
}

/// Whether `file` lies in `dir` or below (both resolved as far as they exist).
bool key_inside(const fs::path &file, const fs::path &dir) {
    std::error_code ec;
    const fs::path rel = fs::weakly_canonical(fs::absolute(file), ec).lexically_relative(fs::weakly_canonical(fs::absolute(dir), ec));
    return !rel.empty() && *rel.begin() != "..";
}

/// Create the key file: 32 random bytes as hex digits, mode 0600, its missing directories 0700.
/// Written to a temporary file and linked into place, so that runs starting together agree on
/// one key (a run that loses the race reads the winner's).
void create_key_file(const fs::path &file) {
    const std::string name = vectors::echo(file.string());
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        fs::create_directories(dir, ec);
        if (!ec) fs::permissions(dir, fs::perms::owner_all, ec);
        if (ec) throw UsageError("--case-cache-key '" + name + "': cannot create its directory: " + ec.message());
    }
    unsigned char raw[32];
    if (RAND_bytes(raw, sizeof raw) != 1) throw std::runtime_error("no random bytes for a case cache key (OpenSSL RAND_bytes)");
    std::string hex = abi::hex_bytes(raw);
    hex.push_back('\n');
    static std::atomic<unsigned> serial{0};
    const fs::path tmp = dir / fmt::format(".{}.{}.{}.tmp", file.filename().string(), ::getpid(), serial++);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        if (::write(fd, hex.data(), hex.size()) != static_cast<ssize_t>(hex.size())) err = errno ? errno : EIO;
        if (err == 0 && ::fsync(fd) != 0) err = errno;
        if (::close(fd) != 0 && err == 0) err = errno;
        if (err == 0 && ::link(tmp.c_str(), file.c_str()) != 0 && errno != EEXIST) err = errno;
        ::unlink(tmp.c_str());
    }
    if (err != 0) throw UsageError("--case-cache-key '" + name + "': cannot create the key: " + std::strerror(err));
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
                               const fs::path &dir, const CaseCacheKey &key) {
    if (dir.empty()) return suite.random(seed, level);
    if (key.bytes.empty()) throw std::logic_error("case cache: no key to authenticate " + dir.string());
    const Key k{suite.name, suites::level_name(level), suite_version(), build_digest(), seed};
    const fs::path file = case_cache_file(dir, suite.name, level, seed);
    if (auto cached = read_cached(file, k, key)) return std::move(*cached);
    auto cases = suite.random(seed, level);
    const std::string lines = case_lines(cases, suite.name);
    auto header = header_of(k, cases.size(), vectors::sha256_bytes(lines));
    header["hmac"] = mac_of(key, header, lines);
    std::error_code ec;
    fs::create_directories(dir, ec);  // a failure shows as the write's
    write_atomically(file, header.dump() + "\n" + lines);
    return cases;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view bytes) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char *>(bytes.data()),
              bytes.size(), mac, &len))
        throw std::runtime_error("HMAC-SHA-256 failed (OpenSSL)");
    return abi::hex_bytes({mac, len});
}

fs::path case_cache_key_file(const std::string &explicit_file) {
    if (!explicit_file.empty()) return explicit_file;
    const auto env = [](const char *name) -> std::string {
        const char *v = std::getenv(name);
        return v ? v : "";
    };
    if (const auto named = env("NINFER_CASE_CACHE_KEY"); !named.empty()) return named;
    if (const auto state = env("XDG_STATE_HOME"); !state.empty()) return fs::path(state) / "ninfer-conform" / "case-cache.key";
    if (const auto home = env("HOME"); !home.empty())
        return fs::path(home) / ".local" / "state" / "ninfer-conform" / "case-cache.key";
    throw UsageError("--case-cache: no key file: name one with --case-cache-key FILE or NINFER_CASE_CACHE_KEY "
                     "(neither XDG_STATE_HOME nor HOME is set)");
}

CaseCacheKey load_case_cache_key(const fs::path &file, const fs::path &cache_dir) {
    const std::string name = vectors::echo(file.string());
    const auto refuse = [&name](const std::string &why) {
        throw UsageError("--case-cache-key '" + name + "': " + why);
    };
    if (key_inside(file, cache_dir))
        refuse("inside the cache directory; expected a key kept outside it (whoever writes the cache must not hold the key)");
    if (!fs::exists(file)) create_key_file(file);
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) refuse(std::string("cannot read: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse("not a regular file; expected a key file");
    if ((st.st_mode & 077) != 0)
        refuse(fmt::format("mode {:04o} lets group or others read or write the key; expected 0600 (chmod 600 the file)",
                           st.st_mode & 07777));
    std::string text, error;
    if (!vectors::read_file_capped(file.string(), 4096, text, error)) refuse(error);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::vector<std::uint8_t> raw;
    if (text.size() < 64 || text.size() > 1024 || !abi::parse_hex_bytes(text, raw).empty())
        refuse("expected 64 to 1024 hex digits (a key of 32 to 512 bytes) and at most a newline");
    CaseCacheKey key;
    key.bytes.assign(raw.begin(), raw.end());
    key.id = vectors::sha256_bytes(key.bytes).substr(0, 16);
    key.file = file;
    return key;
}

}  // namespace ninfer::harness
