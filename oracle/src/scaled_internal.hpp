// SPDX-License-Identifier: Apache-2.0
// Private helpers of the scaled floating-point format files (nvfp4.cpp, fp8_rows.cpp;
// tensor-formats.txt Sections 3.3, 3.4): checked alignment, refusals and exact rationals.
#pragma once

#include <cstdint>
#include <string>

#include "ninfer/oracle/scaled.hpp"
#include "scalar_internal.hpp"

namespace ninfer::oracle::detail {

/// out = align_up(x, a); false when it overflows uint64.
inline bool align_up(std::uint64_t x, std::uint64_t a, std::uint64_t &out) {
    std::uint64_t t = 0;
    if (__builtin_add_overflow(x, a - 1, &t)) return false;
    out = t / a * a;
    return true;
}

/// A decode result that refuses with a status, a detail and where.
template <class Decoded>
Decoded refused(std::int32_t status, std::uint32_t detail, std::string message) {
    Decoded d;
    d.status = status;
    d.detail = detail;
    d.message = std::move(message);
    return d;
}

}  // namespace ninfer::oracle::detail
