// SPDX-License-Identifier: Apache-2.0
// Build step (vectors/README.md, "This build's own vectors"): computes in memory the
// MANIFEST.sha256 that `generate` would write with this build's oracle and suites, and writes
// it as a C++ source file that the CLI compiles in, so that `run` can tell its own vector set
// from one that was edited and resealed.
#include <cstdio>
#include <exception>
#include <string>

#include "ninfer/vectors/vectors.hpp"

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT.cpp\n", argv[0]);
        return 2;
    }
    try {
        const std::string manifest = ninfer::vectors::golden_manifest();
        const std::string text =
            "// Generated at build time by ninfer_golden_manifest (vectors/tools/golden_manifest.cpp).\n"
            "namespace ninfer::harness::cli {\n"
            "extern const char *const kOwnManifest;\n"
            "const char *const kOwnManifest = R\"manifest(" + manifest + ")manifest\";\n"
            "}  // namespace ninfer::harness::cli\n";
        std::FILE *f = std::fopen(argv[1], "wb");
        if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0) {
            std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
            return 2;
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 2;
    }
    return 0;
}
