// SPDX-License-Identifier: Apache-2.0
// The files a command reads and writes (docs/cli.md, "Input and output files"; cmd_common.hpp):
// an output never replaces anything but a regular file, never is one of the command's inputs or
// another of its outputs, and lies apart from the directories the command reads.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cmd_common.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness::cli {

void check_destination(const std::string &path, std::string_view option) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw UsageError(fmt::format("{} '{}' is a directory (expected the path of a file to write)", option, echo(path)));
    if (struct stat st {}; ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw UsageError(fmt::format("{} '{}' is {} (expected a regular file or a new path: an output replaces nothing "
                                     "else)", option, echo(path), vectors::file_kind(st.st_mode)));
    const fs::path p(path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        throw UsageError(fmt::format("{} '{}': directory '{}' does not exist (expected a writable directory)", option,
                                     echo(path), echo(dir.string())));
    // The report is written through a temporary file beside it: probe that very thing (the
    // writer's own, removed on every path, a signal's included).
    try {
        reports::OutputFile probe(p);
    } catch (const std::exception &e) {
        const std::string why = e.what();
        throw UsageError(fmt::format("{} '{}': cannot write in directory '{}': {}", option, echo(path),
                                     echo(dir.string()), why.substr(why.rfind(": ") + 2)));
    }
}

namespace {

/// Which file a path names: device and inode when it exists (links followed), else the path
/// resolved as far as it exists.
struct FileId {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    std::filesystem::path resolved;
};

/// `path` made absolute, its symbolic links and dot components resolved as far as it exists.
std::filesystem::path resolved_path(const std::string &path) {
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? std::filesystem::absolute(path, ec).lexically_normal() : p;
}

FileId file_id(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return {true, st.st_dev, st.st_ino, {}};
    return {false, 0, 0, resolved_path(path)};
}

bool same_file(const FileId &a, const FileId &b) {
    return a.exists == b.exists && (a.exists ? a.dev == b.dev && a.ino == b.ino : a.resolved == b.resolved);
}

/// Whether resolved path `inner` is `outer` or lies below it (component by component).
bool within(const std::filesystem::path &inner, const std::filesystem::path &outer) {
    const auto parts = [](const std::filesystem::path &p) {
        std::vector<std::filesystem::path> v;
        for (const auto &c : p)
            if (!c.empty()) v.push_back(c);
        return v;
    };
    const auto i = parts(inner), o = parts(outer);
    return o.size() <= i.size() && std::equal(o.begin(), o.end(), i.begin());
}

/// Where an output file is written: its directory resolved, then its own name (the name is
/// replaced, whatever it links to).
std::filesystem::path written_at(const std::string &path) {
    const std::filesystem::path p(path);
    return resolved_path(p.has_parent_path() ? p.parent_path().string() : ".") / p.filename();
}

/// UsageError("A 'a' <relation> B 'b' (expected <expected>)").
[[noreturn]] void refuse_pair(const NamedPath &a, const NamedPath &b, std::string_view relation,
                              std::string_view expected) {
    throw UsageError(fmt::format("{} '{}' {} {} '{}' (expected {})", a.name, echo(a.path), relation, b.name,
                                 echo(b.path), expected));
}

/// No output is an input or another output.
void check_outputs_apart(const CommandFiles &f) {
    constexpr std::string_view kApart = "an output apart from every input and every other output";
    for (std::size_t i = 0; i < f.outputs.size(); ++i) {
        const auto &out = f.outputs[i];
        if (out.path.empty()) continue;
        const FileId id = file_id(out.path);
        for (const auto &in : f.inputs)
            if (!in.path.empty() && same_file(id, file_id(in.path)))  // one the command creates included (a cache key)
                refuse_pair(out, in, "is the same file as", kApart);
        for (std::size_t j = 0; j < i; ++j)
            if (!f.outputs[j].path.empty() && same_file(id, file_id(f.outputs[j].path)))
                refuse_pair(out, f.outputs[j], "is the same file as", kApart);
        for (const auto &dir : f.input_dirs)
            if (!dir.path.empty() && within(written_at(out.path), resolved_path(dir.path)))
                refuse_pair(out, dir, "lies inside", "an output outside every directory the command reads");
        for (const auto &dir : f.output_dirs)  // a cache directory: its files are the command's own
            if (!dir.path.empty() && within(written_at(out.path), resolved_path(dir.path)))
                refuse_pair(out, dir, "lies inside", "an output outside every directory the command keeps");
    }
}

/// No output directory is, holds or lies inside an input directory.
void check_output_dirs_apart(const CommandFiles &f) {
    for (const auto &out : f.output_dirs)
        for (const auto &in : f.input_dirs) {
            if (out.path.empty() || in.path.empty()) continue;
            const auto o = resolved_path(out.path), i = resolved_path(in.path);
            if (within(o, i) || within(i, o))
                refuse_pair(out, in, "overlaps", "directories apart: neither inside the other");
        }
}

}  // namespace

void check_files(const CommandFiles &files) {
    for (const auto &out : files.outputs) check_destination(out.path, out.name);
    check_outputs_apart(files);
    check_output_dirs_apart(files);
}

}  // namespace ninfer::harness::cli
