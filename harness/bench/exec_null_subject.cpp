// SPDX-License-Identifier: Apache-2.0
// Benchmark subject (not a test): an exec subject in C++ that declares fp32_to_bf16_rne and
// speaks the binary framing with iota (harness/README.md, "Binary framing"), to measure what
// the exec protocol itself costs.
//   exec_null_subject null    replies with count zero words, computing nothing
//   exec_null_subject bf16    converts (round to nearest even, NaNs quieted) so a sweep passes
//   exec_null_subject words   as null, without iota: the harness sends the input words
//   exec_null_subject lines   as null, in JSON lines with hex planes (the framing's baseline)
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

/// stdin through one buffer: lines and exact byte counts.
char g_buf[1 << 16];
std::size_t g_at = 0, g_end = 0;

bool fill() {
    const ssize_t r = ::read(0, g_buf, sizeof g_buf);
    if (r <= 0) return false;
    g_at = 0;
    g_end = static_cast<std::size_t>(r);
    return true;
}

bool read_full(void *buf, std::size_t n) {
    auto *p = static_cast<char *>(buf);
    while (n > 0) {
        if (g_at == g_end) {
            if (n >= sizeof g_buf) {  // large planes straight into place
                const ssize_t r = ::read(0, p, n);
                if (r <= 0) return false;
                p += r;
                n -= static_cast<std::size_t>(r);
                continue;
            }
            if (!fill()) return false;
        }
        const std::size_t k = std::min(n, g_end - g_at);
        std::memcpy(p, g_buf + g_at, k);
        g_at += k;
        p += k;
        n -= k;
    }
    return true;
}

bool write_full(const void *buf, std::size_t n) {
    const auto *p = static_cast<const char *>(buf);
    while (n > 0) {
        const ssize_t r = ::write(1, p, n);
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

std::string read_line() {
    std::string line;
    for (;;) {
        if (g_at == g_end && !fill()) return line;
        const char *nl = static_cast<const char *>(std::memchr(g_buf + g_at, '\n', g_end - g_at));
        const std::size_t k = nl ? static_cast<std::size_t>(nl - (g_buf + g_at)) : g_end - g_at;
        line.append(g_buf + g_at, k);
        g_at += k;
        if (nl) {
            ++g_at;
            return line;
        }
    }
}

std::uint16_t fp32_to_bf16_rne(std::uint32_t w) {
    if ((w & 0x7F800000u) == 0x7F800000u && (w & 0x007FFFFFu)) return static_cast<std::uint16_t>((w >> 16) | 0x40);
    return static_cast<std::uint16_t>((w + 0x7FFFu + ((w >> 16) & 1u)) >> 16);
}

int serve_binary(bool convert) {
    std::vector<std::uint8_t> in;
    std::vector<std::uint16_t> out;
    std::string header;
    for (;;) {
        std::uint8_t prefix[16];
        if (!read_full(prefix, sizeof prefix)) return 0;
        std::uint32_t header_len;
        std::uint64_t payload_len;
        std::memcpy(&header_len, prefix + 4, 4);  // little-endian host
        std::memcpy(&payload_len, prefix + 8, 8);
        header.resize(header_len);
        in.resize(payload_len);
        if (!read_full(header.data(), header.size()) || !read_full(in.data(), in.size())) return 1;
        const auto call = nlohmann::json::parse(header);
        const std::uint64_t count = call.at("count");
        out.resize(count);
        if (convert) {
            if (call.contains("iota")) {
                const std::uint64_t start = call["iota"].at("start");
                for (std::uint64_t i = 0; i < count; ++i) out[i] = fp32_to_bf16_rne(static_cast<std::uint32_t>(start + i));
            } else {
                for (std::uint64_t i = 0; i < count; ++i) {
                    std::uint32_t w;
                    std::memcpy(&w, &in[4 * i], 4);
                    out[i] = fp32_to_bf16_rne(w);
                }
            }
        }
        nlohmann::json reply_json = {{"status", 0}};
        reply_json["outputs"] = nlohmann::json::array({nlohmann::json::array({"words", 2 * count})});
        const std::string reply = reply_json.dump();
        std::uint8_t head[16] = {'N', 'F', 'B', '1'};
        const auto len = static_cast<std::uint32_t>(reply.size());
        const std::uint64_t bytes = 2 * count;
        std::memcpy(head + 4, &len, 4);
        std::memcpy(head + 8, &bytes, 8);
        if (!write_full(head, sizeof head) || !write_full(reply.data(), reply.size()) || !write_full(out.data(), bytes))
            return 1;
    }
}

int serve_lines() {
    for (;;) {
        const std::string line = read_line();
        if (line.empty()) return 0;
        const auto call = nlohmann::json::parse(line);
        const std::uint64_t count = call.at("count");
        std::string reply = R"({"status":0,"outputs":{"words":")" + std::string(4 * count, '0') + "\"}}\n";
        if (!write_full(reply.data(), reply.size())) return 1;
    }
}

}  // namespace

int main(int argc, char **argv) {
    const std::string_view mode = argc > 1 ? argv[1] : "null";
    if (mode != "null" && mode != "bf16" && mode != "words" && mode != "lines") {
        std::fprintf(stderr, "usage: exec_null_subject null|bf16|words|lines\n");
        return 2;
    }
    read_line();  // the harness's hello
    nlohmann::json hello = {{"name", "exec-null"},
                            {"version", std::string(mode)},
                            {"abi", 2},
                            {"capabilities",
                             {{{"op", "convert"}, {"format", "bf16"}, {"format_in", "fp32"}, {"method", "fp32_to_bf16_rne"}}}}};
    if (mode != "lines") hello["framing"] = "binary";
    if (mode == "null" || mode == "bf16") hello["iota"] = true;
    const std::string text = hello.dump() + "\n";
    if (!write_full(text.data(), text.size())) return 1;
    return mode == "lines" ? serve_lines() : serve_binary(mode == "bf16");
}
