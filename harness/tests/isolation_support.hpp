// SPDX-License-Identifier: Apache-2.0
// Shared by the isolation tests: what a sanitized text may hold, and the processes a hostile
// fixture leaves behind.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

namespace ninfer::harness::test {

/// Whether `s` is safe to print and to put in a report: valid UTF-8 (no overlong form, no
/// surrogate), without C0 or C1 control characters (NUL, ESC, CSI, ...) or DEL; newlines only
/// when `allow_newlines` (a whole terminal output rather than one message).
inline bool safe_text(const std::string &s, bool allow_newlines = false) {
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        if ((b < 0x20 && !(allow_newlines && b == '\n')) || b == 0x7F) return false;
        if (b < 0x80) {
            ++i;
            continue;
        }
        const int len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
        if (len == 0 || i + len > s.size()) return false;
        std::uint32_t cp = b & (0x7F >> len);
        for (int k = 1; k < len; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            cp = cp << 6 | (c & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        if (cp >= 0x80 && cp <= 0x9F) return false;  // C1 controls, CSI among them
        i += len;
    }
    return true;
}

/// A process id named in a message ("grandchild 1234"), or -1.
inline pid_t pid_in(const std::string &message) {
    const auto at = message.find("grandchild ");
    if (at == std::string::npos) return -1;
    return static_cast<pid_t>(std::stol(message.substr(at + 11)));
}

/// Whether a process is gone (not even a zombie), waiting up to a second for the kill to land.
inline bool process_gone(pid_t pid) {
    for (int i = 0; i < 100; ++i) {
        if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

}  // namespace ninfer::harness::test
