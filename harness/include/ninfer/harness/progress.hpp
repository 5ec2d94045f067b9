// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: long work shows progress on stderr, only on a terminal unless asked
// (--progress, --no-progress; docs/cli.md, "Progress"). Never on stdout; reports do not change.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ninfer::harness {

/// --progress (on), --no-progress (off), neither (automatic: when stderr is a terminal).
enum class ProgressMode : std::uint8_t { automatic, on, off };

/// Whether progress is shown under `mode`.
bool progress_shown(ProgressMode mode);

/// "1 h 02 min", "3 min 05 s", "42 s": a duration for an ETA or an elapsed time.
std::string duration_text(double seconds);

/// A progress line on stderr, written by its own thread at most once per `every`: on a terminal
/// rewritten in place (and ended with a newline when done), elsewhere one line per update. Its
/// text comes from set() (any thread) or, when given, from `describe`, polled at each write.
/// finish() writes the latest text if it was not written yet, so that a short job still shows
/// its last state. Nothing at all when not shown.
class ProgressLine {
public:
    explicit ProgressLine(bool shown, std::function<std::string()> describe = {},
                          std::chrono::milliseconds every = std::chrono::milliseconds(1000));
    ~ProgressLine();
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    void set(std::string text);
    void finish();

private:
    void run();
    void write_locked(const std::string &text);
    std::string current_locked();

    bool shown_, terminal_ = false;
    std::function<std::string()> describe_;
    std::chrono::milliseconds every_;
    std::mutex m_;
    std::condition_variable cv_;
    std::string text_, written_;
    bool done_ = false, in_place_ = false;
    std::thread thread_;
};

}  // namespace ninfer::harness
