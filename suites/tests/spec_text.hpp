// SPDX-License-Identifier: Apache-2.0
// The spec the rules quote, for the suites tests tagged [reads-spec]. CTest runs those through
// run_spec_tests.sh, which reports them skipped, naming the place it looked, where the spec is
// absent (suites/README.md, "The spec the rules quote").
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ninfer::suites::testing {

/// The spec directory: $NINFER_SPEC_DIR, else the CMake cache variable NINFER_SPEC_DIR (default
/// ../shared/spec beside the source tree when that exists at configure time).
inline std::string spec_dir() {
    if (const char *env = std::getenv("NINFER_SPEC_DIR"); env && *env) return env;
    return NINFER_SPEC_DIR;
}

/// The text of one spec file (tensor-formats.txt, ...); fails the test naming the path it read.
inline std::string spec_file(const std::string &name) {
    const std::string path = spec_dir() + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) FAIL("cannot read the spec file " << path << " (set NINFER_SPEC_DIR to the spec directory)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A text with every run of whitespace made one space (the only normalisation a quote may need).
inline std::string normalised(const std::string &text) {
    std::string out;
    bool space = false;
    for (const char ch : text) {
        if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += ch;
    }
    return out;
}

}  // namespace ninfer::suites::testing
