// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: progress lines on stderr (progress.hpp).
#include "ninfer/harness/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace ninfer::harness {

bool progress_shown(ProgressMode mode) {
    return mode == ProgressMode::on || (mode == ProgressMode::automatic && ::isatty(STDERR_FILENO) == 1);
}

std::string duration_text(double seconds) {
    const auto s = static_cast<std::uint64_t>(std::llround(std::max(0.0, seconds)));
    if (s >= 3600) return fmt::format("{} h {:02} min", s / 3600, s / 60 % 60);
    if (s >= 60) return fmt::format("{} min {:02} s", s / 60, s % 60);
    return fmt::format("{} s", s);
}

ProgressLine::ProgressLine(bool shown, std::function<std::string()> describe, std::chrono::milliseconds every)
    : shown_(shown), describe_(std::move(describe)), every_(every) {
    if (!shown_) return;
    terminal_ = ::isatty(STDERR_FILENO) == 1;
    thread_ = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::set(std::string text) {
    if (!shown_) return;
    std::lock_guard lock(m_);
    text_ = std::move(text);
}

std::string ProgressLine::current_locked() { return describe_ ? describe_() : text_; }

void ProgressLine::write_locked(const std::string &text) {
    if (text.empty() || text == written_) return;
    // In place on a terminal: back to the line's start, the text, the rest of the line cleared.
    if (terminal_) std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
    else std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
    written_ = text;
    in_place_ = terminal_;
}

void ProgressLine::run() {
    std::unique_lock lock(m_);
    while (!cv_.wait_for(lock, every_, [this] { return done_; })) write_locked(current_locked());
}

void ProgressLine::finish() {
    if (!shown_) return;
    {
        std::lock_guard lock(m_);
        if (done_) return;
        done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::lock_guard lock(m_);
    write_locked(current_locked());
    if (in_place_) std::fputc('\n', stderr);
    std::fflush(stderr);
}

}  // namespace ninfer::harness
