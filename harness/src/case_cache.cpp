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
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <utility>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
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
    const std::string head = header.dump() + "\n";
    return hmac_sha256_hex(key.bytes, {head, lines});
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

/// A descriptor closed when it goes out of scope.
struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(Fd &&o) noexcept : fd(o.fd) { o.fd = -1; }
    Fd &operator=(Fd &&o) noexcept {
        std::swap(fd, o.fd);
        return *this;
    }
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

/// Whether a directory of the key's path may hold the key: owned by the user or root, and not
/// writable by group or others unless sticky (as /tmp).
bool private_directory(const struct stat &st) {
    const bool owner = st.st_uid == ::geteuid() || st.st_uid == 0;
    return owner && ((st.st_mode & (S_IWGRP | S_IWOTH)) == 0 || (st.st_mode & S_ISVTX) != 0);
}

/// `dir` opened by walking its components with O_NOFOLLOW from / (or from the working directory
/// for a relative path), so that no component is a symbolic link; with `private_dirs` every
/// component must also pass private_directory(). On refusal, fd -1 and `why` says which
/// component and what.
Fd open_dir_walked(const fs::path &dir, bool private_dirs, std::string &why) {
    Fd at(::open(dir.is_absolute() ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    fs::path walked = dir.is_absolute() ? fs::path("/") : fs::path();
    for (const auto &c : dir.relative_path()) {
        if (c.empty() || c == ".") continue;
        walked /= c;
        Fd next(::openat(at.fd, c.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.fd < 0) {
            struct stat st {};
            const bool link = ::fstatat(at.fd, c.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
            why = fmt::format("'{}' {}", vectors::echo(walked.string()),
                              link ? "is a symbolic link (expected every directory of the path itself, no link)"
                                   : std::string("cannot be opened: ") + std::strerror(errno));
            return Fd();
        }
        struct stat st {};
        if (private_dirs && (::fstat(next.fd, &st) != 0 || !private_directory(st))) {
            why = fmt::format("'{}' is owned by uid {} with mode {:04o} (expected a directory of yours or root's that "
                              "group and others cannot write, or a sticky one)",
                              vectors::echo(walked.string()), st.st_uid, st.st_mode & 07777);
            return Fd();
        }
        at = std::move(next);
    }
    return at;
}

/// The cache directory `dir` walked to without following a link; VectorError otherwise.
Fd open_cache_dir(const fs::path &dir) {
    std::string why;
    Fd d = open_dir_walked(dir, false, why);
    if (d.fd < 0) throw VectorError("case cache: " + vectors::echo(dir.string()) + ": " + why);
    return d;
}

/// The cases of a cache file written for `k` under `key`; std::nullopt when there is no file,
/// it was written for another key, or its HMAC does not verify (then said on stderr). A file
/// that is not a case cache file, or that verifies but does not check out, throws VectorError.
std::optional<std::vector<Case>> read_cached(int dir, const fs::path &file, const Key &k, const CaseCacheKey &key) {
    const std::string name = file.string();
    Fd fd(::openat(dir, file.filename().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.fd < 0 && errno == ENOENT) return std::nullopt;
    if (fd.fd < 0 && errno == ELOOP) fail(name, "a symbolic link (expected a regular file: a cache file is never read through a link)");
    if (fd.fd < 0) fail(name, std::string("cannot open for reading: ") + std::strerror(errno));
    std::string text, error;
    if (!vectors::read_fd_capped(fd.fd, vectors::kMaxVectorFileBytes, text, error)) fail(name, error);
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
           a.expect.choice == b.expect.choice && a.expect.alternatives == b.expect.alternatives &&
           a.expect.mask == b.expect.mask && a.nan == b.nan;
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

/// Write `text` as `file` in the directory open as `dir` atomically (reports::OutputFile: a reader, another run included,
/// sees the old file or the whole new one). Throws VectorError naming the file and errno.
void write_atomically(int dir, const fs::path &file, const std::string &text) {
    try {
        reports::OutputFile out(dir, file);
        out.write(text);
        out.commit(0644);
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

/// Create the key file `file` in the directory open as `dir`: 32 random bytes as hex digits,
/// mode 0600, written to a temporary (reports::OutputFile) and linked into place, never
/// replacing anything, so that runs starting together agree on one key (a run that loses the
/// race reads the winner's).
void create_key_file(int dir, const fs::path &file) {
    unsigned char raw[32];
    if (RAND_bytes(raw, sizeof raw) != 1) throw std::runtime_error("no random bytes for a case cache key (OpenSSL RAND_bytes)");
    std::string hex = abi::hex_bytes(raw);
    hex.push_back('\n');
    try {
        reports::OutputFile out(dir, file);
        out.write(hex);
        out.commit_new(0600);
    } catch (const std::runtime_error &e) {
        throw UsageError("--case-cache-key '" + vectors::echo(file.string()) + "': cannot create the key: " + e.what());
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
                               const fs::path &dir, const CaseCacheKey &key) {
    if (dir.empty()) return suite.random(seed, level);
    if (key.bytes.empty()) throw std::logic_error("case cache: no key to authenticate " + dir.string());
    const Key k{suite.name, suites::level_name(level), suite_version(), build_digest(), seed};
    const fs::path file = case_cache_file(dir, suite.name, level, seed);
    std::error_code ec;
    fs::create_directories(dir, ec);  // a failure shows as the walk's
    const Fd walked = open_cache_dir(dir);
    if (auto cached = read_cached(walked.fd, file, k, key)) return std::move(*cached);
    auto cases = suite.random(seed, level);
    const std::string lines = case_lines(cases, suite.name);
    auto header = header_of(k, cases.size(), vectors::sha256_bytes(lines));
    header["hmac"] = mac_of(key, header, lines);
    write_atomically(walked.fd, file, header.dump() + "\n" + lines);
    return cases;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view bytes) { return hmac_sha256_hex(key, {bytes}); }

std::string hmac_sha256_hex(std::string_view key, std::initializer_list<std::string_view> parts) {
    const auto fail_mac = [] { throw std::runtime_error("HMAC-SHA-256 failed (OpenSSL)"); };
    const std::unique_ptr<EVP_MAC, decltype(&EVP_MAC_free)> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr), &EVP_MAC_free);
    if (!mac) fail_mac();
    const std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> ctx(EVP_MAC_CTX_new(mac.get()), &EVP_MAC_CTX_free);
    char digest[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
    if (!ctx || !EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char *>(key.data()), key.size(), params)) fail_mac();
    for (const auto part : parts)
        if (!EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char *>(part.data()), part.size())) fail_mac();
    unsigned char out[EVP_MAX_MD_SIZE];
    std::size_t len = 0;
    if (!EVP_MAC_final(ctx.get(), out, &len, sizeof out)) fail_mac();
    return abi::hex_bytes({out, len});
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
    // 1. its directory, created 0700 when missing, walked to with no link and none that others may write
    const fs::path dir_path = file.has_parent_path() ? file.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::exists(dir_path, ec)) {
        fs::create_directories(dir_path, ec);
        if (!ec) fs::permissions(dir_path, fs::perms::owner_all, ec);
        if (ec) refuse("cannot create its directory: " + ec.message());
    }
    std::string why;
    const Fd dir = open_dir_walked(dir_path, true, why);
    if (dir.fd < 0) refuse("its directory " + why);
    // 2. the file itself, never through a link, created when missing
    const auto open_key = [&] {
        return Fd(::openat(dir.fd, file.filename().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    };
    Fd fd = open_key();
    if (fd.fd < 0 && errno == ENOENT) {
        create_key_file(dir.fd, file);
        fd = open_key();
    }
    if (fd.fd < 0 && errno == ELOOP)
        refuse("a symbolic link; expected the key file itself (whoever writes its directory could repoint a link)");
    if (fd.fd < 0) refuse(std::string("cannot read: ") + std::strerror(errno));
    // 3. a regular file of the user's that nobody else may read or write
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0) refuse(std::string("cannot read: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse("not a regular file; expected a key file");
    if (st.st_uid != ::geteuid())
        refuse(fmt::format("owned by uid {}, not by you (uid {}); expected a key file of your own", st.st_uid, ::geteuid()));
    if ((st.st_mode & 077) != 0)
        refuse(fmt::format("mode {:04o} lets group or others read or write the key; expected 0600 (chmod 600 the file)",
                           st.st_mode & 07777));
    std::string text, error;
    if (!vectors::read_fd_capped(fd.fd, 4096, text, error)) refuse(error);
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
