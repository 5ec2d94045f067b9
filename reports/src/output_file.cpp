// SPDX-License-Identifier: Apache-2.0
// Every file the suite writes (output_file.hpp; reports/README.md, "How files are written").
#include "ninfer/reports/output_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ninfer::reports {

namespace {

/// The temporaries alive now, guarded by output_mutex(): what remove_temporaries() unlinks.
struct Temporary {
    int dir;
    const std::string *name;
};
std::vector<Temporary> &temporaries() {
    static std::vector<Temporary> t;
    return t;
}

void forget(const std::string *name) {
    auto &t = temporaries();
    t.erase(std::remove_if(t.begin(), t.end(), [name](const Temporary &x) { return x.name == name; }), t.end());
}

/// ".<file name, cut to 200 bytes>.<12 random letters>": unpredictable, so that a planted name
/// costs the writer only another draw.
std::string temporary_name(const std::string &file) {
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char raw[12];
    std::size_t got = 0;
    while (got < sizeof raw) {
        const ssize_t n = ::getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0 && errno != EINTR) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
        if (n > 0) got += static_cast<std::size_t>(n);
    }
    std::string name = "." + file.substr(0, 200) + ".";
    for (unsigned char c : raw) name.push_back(kLetters[c % (sizeof kLetters - 1)]);
    return name;
}

}  // namespace

std::mutex &output_mutex() {
    static std::mutex m;
    return m;
}

void remove_temporaries() {
    for (const auto &t : temporaries()) ::unlinkat(t.dir, t.name->c_str(), 0);
    temporaries().clear();
}

void OutputFile::fail(int err) const {
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_.string(), std::strerror(err)));
}

OutputFile::OutputFile(std::filesystem::path path) : path_(std::move(path)) {
    const auto dir = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
    dir_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_ < 0) fail(errno);
    create_temporary();
}

OutputFile::OutputFile(int dir_fd, std::filesystem::path path) : path_(std::move(path)) {
    dir_ = ::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
    if (dir_ < 0) fail(errno);
    create_temporary();
}

void OutputFile::create_temporary() {
    const std::string file = path_.filename().string();
    if (file.empty() || file == "." || file == "..") {
        ::close(dir_);
        fail(EISDIR);
    }
    const std::lock_guard<std::mutex> creating(output_mutex());
    for (int attempt = 0; attempt < 64 && fd_ < 0; ++attempt) {
        std::string name = temporary_name(file);
        // O_EXCL: never opens what is there, a link included; O_NOFOLLOW says so twice.
        fd_ = ::openat(dir_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd_ >= 0) temp_ = std::move(name);
        else if (errno != EEXIST) break;
    }
    if (fd_ < 0) {
        const int err = errno;
        ::close(dir_);
        fail(err);
    }
    temporaries().push_back({dir_, &temp_});
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) {
        const std::lock_guard<std::mutex> removing(output_mutex());
        ::unlinkat(dir_, temp_.c_str(), 0);
        forget(&temp_);
    }
    ::close(dir_);
}

void OutputFile::write(std::string_view bytes) {
    if (fd_ < 0) fail(EBADF);
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail(n < 0 ? errno : EIO);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

void OutputFile::flush_and_close(mode_t mode) {
    if (fd_ < 0) fail(EBADF);
    // The file must survive a power cut between rename and the next sync.
    int err = ::fsync(fd_) == 0 ? 0 : errno;
    if (err == 0 && ::fchmod(fd_, mode) != 0) err = errno;
    if (::close(fd_) != 0 && err == 0) err = errno;
    fd_ = -1;
    if (err != 0) fail(err);
}

void OutputFile::rename_into_place() {
    // renameat replaces the name itself: a link there is replaced, never written through.
    if (::renameat(dir_, temp_.c_str(), dir_, path_.filename().c_str()) != 0) fail(errno);
    forget(&temp_);
    temp_.clear();
}

void OutputFile::sync_directory() const { ::fsync(dir_); }

void OutputFile::commit(mode_t mode) {
    flush_and_close(mode);
    {
        const std::lock_guard<std::mutex> renaming(output_mutex());
        rename_into_place();
    }
    sync_directory();
}

bool OutputFile::commit_new(mode_t mode) {
    flush_and_close(mode);
    const std::lock_guard<std::mutex> linking(output_mutex());
    // linkat never replaces (EEXIST), whatever is at the name, a dangling link included.
    const int err = ::linkat(dir_, temp_.c_str(), dir_, path_.filename().c_str(), 0) == 0 ? 0 : errno;
    ::unlinkat(dir_, temp_.c_str(), 0);
    forget(&temp_);
    temp_.clear();
    if (err == EEXIST) return false;
    if (err != 0) fail(err);
    sync_directory();
    return true;
}

void OutputFile::commit_all(const std::vector<std::unique_ptr<OutputFile>> &files, mode_t mode) {
    for (const auto &f : files) f->flush_and_close(mode);
    {
        const std::lock_guard<std::mutex> renaming(output_mutex());
        for (const auto &f : files) f->rename_into_place();
    }
    for (const auto &f : files) f->sync_directory();
}

void write_atomic(const std::filesystem::path &path, std::string_view bytes) {
    OutputFile out(path);
    out.write(bytes);
    out.commit(0644);
}

}  // namespace ninfer::reports
