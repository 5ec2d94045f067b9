// SPDX-License-Identifier: Apache-2.0
// Golden vectors: the oracle's deterministic cases written as language-neutral files with a
// SHA-256 manifest (vectors/README.md), and read back with every check a consumer needs.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ninfer/suites/case.hpp"

namespace ninfer::vectors {

/// Version of the vector file format (vectors/README.md). Bump on any incompatible change.
/// Version 4 adds the optional expect.reading, expect.choice and expect.alternatives (a case's
/// documented outcomes of an open reading); a version 3 file, which has none, still reads.
inline constexpr int kFormatVersion = 4;
/// The oldest version this reader still reads (3: version 4 without alternatives).
inline constexpr int kOldestReadableVersion = 3;

/// A malformed, truncated or tampered vector set. what() is one line naming the file, the
/// line or field, and what was expected.
class VectorError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Write the golden cases of every suite (all levels) under `dir`, one file per suite, and the
/// manifest. Every file is written to a temporary name first; only when all are written are
/// they renamed, the manifest last; on failure no temporary file is left. A stale suite file
/// is removed only when the directory's previous manifest lists it; other files are kept and
/// returned, by name, so that the caller can warn (a reader refuses unlisted files).
std::vector<std::string> write_golden(const std::filesystem::path &dir);

struct Loaded {
    std::vector<suites::Case> cases;
    std::string manifest_sha256;  ///< digest of MANIFEST.sha256, recorded in reports
    std::string manifest;         ///< the text of MANIFEST.sha256 (the bytes of that digest)
    std::vector<std::string> suite_of;  ///< the suite of each case, parallel to `cases`
};

/// Read the cases of the named suites (all suites when empty) whose level is <= `level`,
/// after verifying every digest of the manifest. Each file is read once, capped in size, and
/// the bytes hashed are the bytes parsed; a case id may appear once across all files loaded.
/// Cases come in the order of `suites`. Throws VectorError.
Loaded load(const std::filesystem::path &dir, const std::vector<std::string> &suites, suites::Level level);

/// Serialize / parse one case as one line of the vector file format.
std::string case_to_line(const suites::Case &c);
suites::Case case_from_line(const std::string &line, const std::string &where);

/// The vectors directory of this build: the source tree's vectors/data, else the installed one.
std::filesystem::path default_vectors_dir();

/// SHA-256 of a file's bytes as lowercase hex (OpenSSL EVP).
std::string sha256_file(const std::filesystem::path &p);
/// SHA-256 of bytes in memory as lowercase hex.
std::string sha256_bytes(std::string_view bytes);

/// Largest vector file the reader accepts (the biggest committed file is about 5 MB).
inline constexpr std::size_t kMaxVectorFileBytes = std::size_t{256} << 20;
/// Largest MANIFEST.sha256 the reader accepts.
inline constexpr std::size_t kMaxManifestBytes = std::size_t{1} << 20;

/// The MANIFEST.sha256 text of the set that write_golden writes, computed in memory: the
/// build compiles it into the CLI, which thereby knows its own vectors (docs/cli.md).
std::string golden_manifest();

/// The files whose lines differ between two manifest texts ("a.jsonl, b.jsonl"), for messages.
std::string manifest_difference(const std::string &expected, const std::string &actual);

}  // namespace ninfer::vectors
