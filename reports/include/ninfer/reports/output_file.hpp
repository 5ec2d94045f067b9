// SPDX-License-Identifier: Apache-2.0
// Every file the suite writes (reports/README.md, "How files are written"): a temporary created
// with O_CREAT|O_EXCL|O_NOFOLLOW beside the target, through one descriptor of the target's
// directory; removed on every error path and by an interrupting signal; renamed into place.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ninfer::reports {

/// One file being written in place of `path`. The directory of `path` is opened once (the links
/// the user named in it are followed there, once); every later name is resolved in that
/// descriptor, so a directory swapped afterwards is not written. The temporary's name is random
/// and created exclusively (a link or file planted under it is never opened: another name is
/// drawn); a link planted at `path` itself is replaced, its target untouched.
class OutputFile {
public:
    /// Open `path`'s directory and create the temporary there (mode 0600). Throws
    /// std::runtime_error("cannot write PATH: why").
    explicit OutputFile(std::filesystem::path path);
    /// The same in the directory open as `dir_fd` (duplicated: the caller keeps its own), for a
    /// caller that walked to the directory itself; `path` is the name errors show.
    OutputFile(int dir_fd, std::filesystem::path path);
    /// Removes the temporary unless committed.
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    /// Append bytes; throws std::runtime_error naming the path.
    void write(std::string_view bytes);
    /// fsync, chmod `mode`, rename over `path`, fsync the directory. Throws std::runtime_error.
    void commit(mode_t mode = 0644);
    /// Like commit() but never replaces anything: false (the temporary removed) when `path`
    /// exists, a link included.
    bool commit_new(mode_t mode);
    /// Commit each of `files` in order under one hold of the output lock: an interrupting
    /// signal sees every temporary removed or every file renamed, never a part of the set.
    static void commit_all(const std::vector<std::unique_ptr<OutputFile>> &files, mode_t mode = 0644);

    const std::filesystem::path &path() const { return path_; }

private:
    void create_temporary();
    void flush_and_close(mode_t mode);
    void rename_into_place();
    void sync_directory() const;
    [[noreturn]] void fail(int err) const;

    std::filesystem::path path_;
    int dir_ = -1, fd_ = -1;
    std::string temp_;  ///< the temporary's name in dir_; empty once renamed or removed
};

/// Write bytes to `path` through an OutputFile (temporary, fsync, rename), mode 0644. Throws
/// std::runtime_error naming the path on failure.
void write_atomic(const std::filesystem::path &path, std::string_view bytes);

/// Held while a temporary is created, renamed or removed. A command ending on a signal takes it
/// first, calls remove_temporaries() and never gives it back: no temporary is left behind, and
/// no output is half-written (interrupt.cpp).
std::mutex &output_mutex();

/// Remove the temporary of every OutputFile alive now. The caller holds output_mutex().
/// Async-signal-safe apart from the lock (unlinkat only).
void remove_temporaries();

}  // namespace ninfer::reports
