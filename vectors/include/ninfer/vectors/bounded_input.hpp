// SPDX-License-Identifier: Apache-2.0
// Untrusted input, read within bounds (README.md, "Bad input fails loudly"): regular files read once
// and never past a size cap, JSON parsed with a nesting limit and numbers that must fit, integers
// taken only when they fit the target type, and echoed text cut short. Header-only: the vectors
// reader, the baseline reader and the CLI share it; the includer links nlohmann_json.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ninfer::vectors {

/// Deepest JSON nesting any file or request of this project needs (vector lines nest 3 deep).
inline constexpr std::size_t kMaxJsonDepth = 64;
/// Most characters of an untrusted value that an error line repeats.
inline constexpr std::size_t kMaxEcho = 80;

/// `text` cut to at most `max` characters for an error line: control and non-ASCII bytes as
/// \xNN, and "... (N bytes)" when cut.
inline std::string echo(std::string_view text, std::size_t max = kMaxEcho) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (out.size() >= max) {
            out += "... (" + std::to_string(text.size()) + " bytes)";
            break;
        }
        if (c >= 0x20 && c < 0x7F) {
            out.push_back(static_cast<char>(c));
        } else {
            out += fmt::format("\\x{:02x}", c);
        }
    }
    return out;
}

/// A JSON value shown in an error line: its dump, cut by echo(). The value must come from
/// parse_json_bounded (bounded nesting), so that dumping it cannot exhaust the stack.
template <class Json>
std::string echo_json(const Json &v) {
    return echo(v.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
}

/// 1-based line of byte `offset` of `text`.
inline std::size_t line_of(std::string_view text, std::size_t offset) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return line;
}

/// Why JSON `text` cannot be parsed safely, or "": nesting deeper than `max_depth`, or a number
/// whose magnitude no double holds (such as 1e400). `offset` receives the byte of the problem.
/// Strings are skipped; the JSON syntax itself is left to the parser.
inline std::string json_hazard(std::string_view text, std::size_t &offset, std::size_t max_depth = kMaxJsonDepth) {
    std::size_t depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) {
                offset = i;
                return "nesting deeper than " + std::to_string(max_depth) + " levels";
            }
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t j = i;
            while (j < text.size() && (std::string_view("+-.eE0123456789").find(text[j]) != std::string_view::npos)) ++j;
            const std::string_view token = text.substr(i, j - i);
            if (token.find_first_of(".eE") != std::string_view::npos) {
                const std::string t(token);
                const double d = std::strtod(t.c_str(), nullptr);
                if (d == std::numeric_limits<double>::infinity() || d == -std::numeric_limits<double>::infinity()) {
                    offset = i;
                    return "number " + echo(token, 40) + " is out of the range of a double";
                }
            }
            i = j - 1;
        }
    }
    return {};
}

/// Parse JSON `text` within the limits of json_hazard. On failure returns false and sets
/// `error` to one bounded line ("line L: what") without any prefix.
template <class Json>
bool parse_json_bounded(std::string_view text, Json &out, std::string &error, std::size_t max_depth = kMaxJsonDepth) {
    std::size_t offset = 0;
    if (auto why = json_hazard(text, offset, max_depth); !why.empty()) {
        error = "line " + std::to_string(line_of(text, offset)) + ": " + why;
        return false;
    }
    try {
        out = Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error &e) {
        const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        error = "line " + std::to_string(line_of(text, at)) + ": not JSON: " + echo(e.what(), 160);
        return false;
    } catch (const nlohmann::json::exception &e) {
        error = "line 1: not JSON: " + echo(e.what(), 160);
        return false;
    }
    return true;
}

/// The value of a JSON integer when it fits `Int` exactly: no truncation, no sign change, no
/// floating-point number. std::nullopt otherwise (also for 4294967297 read as a 32-bit int).
template <class Int, class Json>
std::optional<Int> checked_integer(const Json &v) {
    static_assert(std::is_integral_v<Int> && !std::is_same_v<Int, bool>);
    if (v.is_number_unsigned()) {
        const auto x = v.template get<std::uint64_t>();
        if (x > static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) return std::nullopt;
        return static_cast<Int>(x);
    }
    if (v.is_number_integer()) {
        const auto x = v.template get<std::int64_t>();
        if constexpr (std::is_unsigned_v<Int>) {
            if (x < 0 || static_cast<std::uint64_t>(x) > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
                return std::nullopt;
        } else {
            if (x < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
                x > static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
                return std::nullopt;
        }
        return static_cast<Int>(x);
    }
    return std::nullopt;
}

/// What a file of mode `mode` is, for an error line: "a directory", "a FIFO", "a character
/// device", "a block device", "a socket", "a regular file" or "not a regular file".
inline const char *file_kind(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/// What a file must begin with for read_fd_capped: anything, or a JSON object.
enum class Begins { anything, json_object };

/// Whether the first non-whitespace byte of `head` (up to 64 KiB of a file) opens a JSON object.
inline bool begins_as_json_object(std::string_view head) {
    const auto at = head.find_first_not_of(" \t\r\n");
    return at != std::string_view::npos && head[at] == '{';
}

/// The bytes of the open file `fd` (opened O_NONBLOCK; closed by the caller), read once, at most
/// `cap` of them; see read_file_capped. With Begins::json_object a file whose first 64 KiB do not
/// open a JSON object is refused after that first read ("not JSON: ..."), however large it is.
inline bool read_fd_capped(int fd, std::size_t cap, std::string &out, std::string &error,
                           Begins begins = Begins::anything) {
    out.clear();
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        error = std::string("cannot open for reading: ") + std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        error = std::string(file_kind(st.st_mode)) + " (expected a regular file)";
        return false;
    }
    const std::string too_large = "larger than the limit of " + std::to_string(cap) + " bytes (is it the right file?)";
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // Room for the size fstat saw, within the cap: a large file is not copied as the string grows.
    out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(st.st_size), cap)));
    // A file that grows while it is read still stops at the cap.
    char buf[1 << 16];
    while (true) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            error = std::string("read error: ") + std::strerror(errno);
            out.clear();
            return false;
        }
        if (begins == Begins::json_object && out.empty() && !begins_as_json_object({buf, static_cast<std::size_t>(got)})) {
            error = got == 0 ? "empty (expected a JSON object)"
                             : "not JSON: expected '{' first, found \"" +
                                   echo(std::string_view(buf, static_cast<std::size_t>(got)), 16) + "\"";
            return false;
        }
        if (got == 0) return true;
        if (static_cast<std::uint64_t>(st.st_size) > cap || out.size() + static_cast<std::size_t>(got) > cap) {
            error = too_large;
            out.clear();
            return false;
        }
        out.append(buf, static_cast<std::size_t>(got));
    }
}

/// The bytes of the regular file at `path`, read once, at most `cap` of them. On failure returns
/// false and sets `error` to what went wrong ("cannot open for reading: why", "a FIFO (expected a
/// regular file)", "larger than the limit of N bytes"). Anything but a regular file (a FIFO, a
/// device such as /dev/zero, a directory) is refused without reading a byte: it is opened
/// non-blocking, so that a FIFO without a writer cannot hang the reader, and judged by fstat.
/// With Begins::json_object, a file that does not open a JSON object is refused after its
/// first 64 KiB at most (reports, baselines, shards: issue 36).
inline bool read_file_capped(const std::string &path, std::size_t cap, std::string &out, std::string &error,
                             Begins begins = Begins::anything) {
    out.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        struct stat st {};
        error = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)
                    ? std::string(file_kind(st.st_mode)) + " (expected a regular file)"
                    : std::string("cannot open for reading: ") + std::strerror(errno);
        return false;
    }
    const bool ok = read_fd_capped(fd, cap, out, error, begins);
    ::close(fd);
    return ok;
}

}  // namespace ninfer::vectors
