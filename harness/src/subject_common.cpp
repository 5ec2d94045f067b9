// SPDX-License-Identifier: Apache-2.0
// Pieces of the subject interface shared by every kind of subject (subject.hpp).
#include "ninfer/harness/subject.hpp"

namespace ninfer::harness {

bool covers(const std::vector<ninfer_capability_v2> &caps, std::uint32_t op, std::uint32_t format,
            std::uint32_t format_in, std::uint32_t layout, std::uint32_t method, std::uint32_t profile) {
    auto match = [](std::uint32_t declared, std::uint32_t wanted) { return declared == 0 || declared == wanted; };
    for (const auto &c : caps)
        if (c.op == op && match(c.format, format) && match(c.format_in, format_in) && match(c.layout, layout) &&
            match(c.method, method) && match(c.profile, profile))
            return true;
    return false;
}

const char *outcome_name(Outcome o) {
    switch (o) {
    case Outcome::returned: return "returned";
    case Outcome::crash: return "crash";
    case Outcome::timeout: return "timeout";
    case Outcome::error: return "error";
    }
    return "?";
}

}  // namespace ninfer::harness
