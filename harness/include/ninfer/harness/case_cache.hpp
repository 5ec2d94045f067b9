// SPDX-License-Identifier: Apache-2.0
// The case cache of `run --case-cache DIR` (docs/cli.md, "Case cache"): a suite's seeded random
// cases for (build, level, seed), generated once and kept as a checksummed vector-format file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ninfer/suites/case.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::harness {

/// Version of the case cache file format (docs/cli.md, "Case cache"). Bump on any change of
/// what a file holds; a file of another version is a key mismatch (regenerated).
inline constexpr int kCaseCacheVersion = 1;

/// SHA-256 of this process's executable (/proc/self/exe), computed once: the build whose
/// oracle and suites generated a cache file.
const std::string &build_digest();

/// The file of a suite's seeded cases for (level, seed) in `dir`: `<suite>.<level>.<seed>.jsonl`.
std::filesystem::path case_cache_file(const std::filesystem::path &dir, const std::string &suite, suites::Level level,
                                      std::uint64_t seed);

/// The seeded random cases of `suite` for (seed, level): read from `dir` when its file was
/// written by this build for this key, else generated, checked to read back identically, and
/// written there atomically (unique temporary file, fsync, rename), replacing a file of another
/// key. An empty `dir` generates without a cache. Throws vectors::VectorError, one line naming
/// the file and what was expected, for a corrupt, truncated or tampered file or a failed write.
std::vector<suites::Case> seeded_cases(const suites::Suite &suite, std::uint64_t seed, suites::Level level,
                                       const std::filesystem::path &dir);

}  // namespace ninfer::harness
