// SPDX-License-Identifier: Apache-2.0
// Golden vectors: the oracle's deterministic cases written as language-neutral files with a
// SHA-256 manifest (vectors/README.md), and read back with every check a consumer needs.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "ninfer/suites/case.hpp"

namespace ninfer::vectors {

/// Version of the vector file format (vectors/README.md). Bump on any incompatible change.
inline constexpr int kFormatVersion = 1;

/// A malformed, truncated or tampered vector set. what() is one line naming the file, the
/// line or field, and what was expected.
class VectorError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Write the golden cases of every suite (all levels) under `dir`, one file per suite, and the
/// manifest. Files are written to a temporary name and renamed; same oracle, same bytes.
void write_golden(const std::filesystem::path &dir);

struct Loaded {
    std::vector<suites::Case> cases;
    std::string manifest_sha256;  ///< digest of MANIFEST.sha256, recorded in reports
};

/// Read the cases of the named suites (all suites when empty) whose level is <= `level`,
/// after verifying every digest of the manifest. Throws VectorError.
Loaded load(const std::filesystem::path &dir, const std::vector<std::string> &suites, suites::Level level);

/// Serialize / parse one case as one line of the vector file format.
std::string case_to_line(const suites::Case &c);
suites::Case case_from_line(const std::string &line, const std::string &where);

/// The vectors directory of this build: the source tree's vectors/data, else the installed one.
std::filesystem::path default_vectors_dir();

/// SHA-256 of a file's bytes as lowercase hex (OpenSSL EVP).
std::string sha256_file(const std::filesystem::path &p);

}  // namespace ninfer::vectors
