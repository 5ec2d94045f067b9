// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): the exec protocol's hello answer and call replies
// (harness/README.md, "The exec protocol") as the harness parses them. The subject is `cat` of
// the input: its first line answers the hello, the next ones reply to two calls.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "ninfer/harness/subject.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const fs::path file = fs::temp_directory_path() / ("ninfer-fuzz-exec." + std::to_string(::getpid()));
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char *>(data),
                                                                  static_cast<std::streamsize>(size));
    ninfer::harness::SubjectOptions so;
    so.call_timeout = std::chrono::milliseconds(500);
    so.memory_limit_bytes = 0;
    auto s = ninfer::harness::open_exec("exec cat '" + file.string() + "'", so);
    if (!s->open_error().empty()) return 0;
    ninfer::harness::Call c;
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    c.shape = {2};
    c.count = 2;
    c.inputs = {{NINFER_PLANE_WORDS, 0, {0x00, 0x00, 0x80, 0x3f, 0x00, 0x80, 0x80, 0x3f}}};
    c.outputs = {{NINFER_PLANE_WORDS, 0, 4}};
    (void)s->call(c);
    return 0;
}
