// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): the vector reader (vectors/README.md) on one line as a
// case, and on the whole input as a suite file with a matching manifest, read by load().
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "ninfer/vectors/vectors.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        (void)ninfer::vectors::case_from_line(text.substr(0, text.find('\n')), "fuzz:1");
    } catch (const ninfer::vectors::VectorError &) {
    }
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("ninfer-fuzz-vectors." + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    std::ofstream(dir / "scalar.convert.jsonl", std::ios::binary | std::ios::trunc) << text;
    std::ofstream(dir / "MANIFEST.sha256", std::ios::binary | std::ios::trunc)
        << ninfer::vectors::sha256_bytes(text) << "  scalar.convert.jsonl\n";
    try {
        (void)ninfer::vectors::load(dir, {}, ninfer::suites::Level::exhaustive);
    } catch (const ninfer::vectors::VectorError &) {
    }
    return 0;
}
