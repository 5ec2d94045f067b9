// SPDX-License-Identifier: Apache-2.0
// The case cache of `run --case-cache DIR` (docs/cli.md, "Case cache"): a suite's seeded random
// cases for (build, level, seed), generated once and kept as a vector-format file authenticated
// with HMAC-SHA-256 under a key held outside the cache directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "ninfer/suites/case.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::harness {

/// Version of the case cache file format (docs/cli.md, "Case cache"). Bump on any change of
/// what a file holds; a file of another version is a key mismatch (regenerated).
inline constexpr int kCaseCacheVersion = 2;

/// The key that authenticates case cache files (docs/cli.md, "Case cache"). The bytes are the
/// secret and never leave the process; reports name the id.
struct CaseCacheKey {
    std::string bytes;           ///< the secret: the key file's hex digits, decoded
    std::string id;              ///< the first 16 hex digits of the SHA-256 of `bytes`
    std::filesystem::path file;  ///< where it was read
};

/// The key file: `explicit_file` (--case-cache-key) when not empty, else $NINFER_CASE_CACHE_KEY,
/// else $XDG_STATE_HOME/ninfer-conform/case-cache.key, else
/// $HOME/.local/state/ninfer-conform/case-cache.key. Throws UsageError when none can be named.
std::filesystem::path case_cache_key_file(const std::string &explicit_file);

/// The key in `file`, created (32 random bytes as 64 hex digits and a newline, mode 0600; a
/// missing directory 0700) when absent. Throws UsageError, one line naming the file, for a key
/// file inside `cache_dir`, one that group or others may read or write, or one that is not 64 to
/// 1024 hex digits (a trailing newline allowed).
CaseCacheKey load_case_cache_key(const std::filesystem::path &file, const std::filesystem::path &cache_dir);

/// HMAC-SHA-256 (RFC 2104) of `bytes` under `key`, as 64 lowercase hex digits.
std::string hmac_sha256_hex(std::string_view key, std::string_view bytes);
/// The same of the concatenation of `parts`, without building it (a cache file's lines are large).
std::string hmac_sha256_hex(std::string_view key, std::initializer_list<std::string_view> parts);

/// SHA-256 of this process's executable (/proc/self/exe), computed once: the build whose
/// oracle and suites generated a cache file.
const std::string &build_digest();

/// The file of a suite's seeded cases for (level, seed) in `dir`: `<suite>.<level>.<seed>.jsonl`.
std::filesystem::path case_cache_file(const std::filesystem::path &dir, const std::string &suite, suites::Level level,
                                      std::uint64_t seed);

/// The seeded random cases of `suite` for (seed, level): read from `dir` when its file was
/// written by this build (suite version and executable digest) for this suite, level and seed
/// and its HMAC verifies under `key`, else generated, checked to read back identically, and
/// written there atomically (unique temporary file, fsync, rename), replacing the other file. A
/// file that does not verify under `key` (another key's, or altered) is never read: it is
/// replaced, with one line on stderr. An empty `dir` generates without a cache. Throws
/// vectors::VectorError, one line naming the file and what was expected, for a file that is not
/// a case cache file, one that verifies but does not check out (checksum, case lines, count), or
/// a failed write.
std::vector<suites::Case> seeded_cases(const suites::Suite &suite, std::uint64_t seed, suites::Level level,
                                       const std::filesystem::path &dir, const CaseCacheKey &key);

}  // namespace ninfer::harness
