// SPDX-License-Identifier: Apache-2.0
// Issue 25, item 1: a program of the oracle component compiled with no CMAKE_CXX_STANDARD set;
// formats.hpp holds `using enum`, which only C++20 accepts.
#include <cstdint>
#include <cstdio>

#include "ninfer/oracle/scalar.hpp"

int main() {
    // bf16 0x3F80 is 1.0 (sign 0, biased exponent 127, fraction 0): binary64 0x3FF0000000000000.
    const std::uint64_t one = ninfer::oracle::decode_to_binary64(ninfer::oracle::word_format(NINFER_FORMAT_bf16), 0x3F80);
    std::printf("decode bf16 0x3F80 = 0x%016llx\n", static_cast<unsigned long long>(one));
    return one == 0x3FF0000000000000ull ? 0 : 1;
}
