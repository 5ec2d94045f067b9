// SPDX-License-Identifier: Apache-2.0
// Golden vector sets (vectors/README.md): one JSON Lines file per suite plus MANIFEST.sha256,
// written atomically and deterministically, read back only after every digest checks out.
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <system_error>

#include "ninfer/reports/output_file.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::vectors {

namespace fs = std::filesystem;

namespace {

constexpr const char *kManifest = "MANIFEST.sha256";
constexpr const char *kFormatName = "ninfer-conform/vectors";
constexpr const char *kGenerator = "ninfer-conform oracle (MPFR, exact)";

[[noreturn]] void fail(const std::string &where, const std::string &what) { throw VectorError(where + ": " + what); }

/// The header line of a suite's file (fixed key order).
std::string header_line(const suites::Suite &s, std::size_t cases) {
    nlohmann::ordered_json h;
    h["format"] = kFormatName;
    h["version"] = kFormatVersion;
    h["suite"] = s.name;
    h["description"] = s.description;
    h["generator"] = kGenerator;
    h["exact"] = true;
    h["cases"] = cases;
    return h.dump();
}

/// `text` in a new temporary beside `path` (reports::OutputFile), not yet renamed into place.
std::unique_ptr<reports::OutputFile> staged(const fs::path &path, const std::string &text) {
    try {
        auto out = std::make_unique<reports::OutputFile>(path);
        out->write(text);
        return out;
    } catch (const std::runtime_error &e) {
        throw VectorError(e.what());
    }
}

/// The file of the manifest at `path` read within its cap (VectorError otherwise).
std::string read_capped(const fs::path &path, std::size_t cap) {
    std::string text, error;
    if (!read_file_capped(path.string(), cap, text, error)) fail(path.string(), error);
    return text;
}

bool is_hex64(const std::string &s) {
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_vector_file_name(const std::string &s) {
    if (s.size() <= 6 || s.substr(s.size() - 6) != ".jsonl") return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    });
}

/// The manifest's entries, file name -> digest, after checking its syntax and order.
std::map<std::string, std::string> parse_manifest(const std::string &text, const fs::path &mp) {
    if (!text.empty() && text.back() != '\n') fail(mp.string(), "truncated: last line has no newline");
    std::map<std::string, std::string> entries;
    std::istringstream lines(text);
    std::string line, previous;
    for (std::size_t n = 1; std::getline(lines, line); ++n) {
        const std::string where = mp.string() + ":" + std::to_string(n);
        if (line.size() < 67 || line.compare(64, 2, "  ") != 0 || !is_hex64(line.substr(0, 64)))
            fail(where, "expected \"<64 lowercase hex digits>  <file>\"");
        const std::string name = line.substr(66);
        if (!is_vector_file_name(name)) fail(where, "file \"" + echo(name) + "\": expected <suite>.jsonl in this directory");
        if (!previous.empty() && name <= previous) fail(where, "file \"" + echo(name) + "\": expected names sorted and unique");
        previous = name;
        entries[name] = line.substr(0, 64);
    }
    if (entries.empty()) fail(mp.string(), "empty manifest (expected one line per vector file)");
    return entries;
}

/// Read every file the manifest lists, once each, and check its digest on those very bytes;
/// refuse missing, altered and extra files. Returns the texts of the `wanted` files.
std::map<std::string, std::string> read_verified(const fs::path &dir, const std::map<std::string, std::string> &entries,
                                                 const std::set<std::string> &wanted) {
    std::map<std::string, std::string> texts;
    for (const auto &[name, digest] : entries) {
        const fs::path p = dir / name;
        if (!fs::is_regular_file(p)) fail(p.string(), std::string("missing file listed in ") + kManifest);
        std::string text = read_capped(p, kMaxVectorFileBytes);
        const auto actual = sha256_bytes(text);
        if (actual != digest)
            fail(p.string(), "SHA-256 mismatch (" + std::string(kManifest) + " says " + digest + ", file has " + actual + ")");
        if (wanted.count(name)) texts.emplace(name, std::move(text));
    }
    std::vector<std::string> extra;
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name != kManifest && !entries.count(name)) extra.push_back(name);
    }
    std::sort(extra.begin(), extra.end());
    if (!extra.empty())
        fail((dir / echo(extra.front())).string(), std::string("not listed in ") + kManifest + " (expected only listed files)");
    return texts;
}

/// Read one suite file: header, then exactly `cases` case lines.
void read_suite_file(const fs::path &p, const std::string &text, const std::string &suite, suites::Level level,
                     Loaded &out, std::map<std::string, std::string> &seen) {
    const std::string file = p.string();
    if (text.empty()) fail(file + ":1", "empty file (expected a header line)");
    std::size_t pos = 0, n = 0;
    std::uint64_t declared = 0, found = 0;
    while (pos < text.size()) {
        ++n;
        const auto nl = text.find('\n', pos);
        const std::string where = file + ":" + std::to_string(n);
        if (nl == std::string::npos) fail(where, "truncated line: no newline at end of file");
        const std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (n == 1) {
            nlohmann::json h;
            std::string error;
            if (!parse_json_bounded(line, h, error))
                fail(where, "truncated or malformed header: expected one JSON object (" + error.substr(error.find(": ") + 2) + ")");
            if (!h.is_object() || !h.contains("format") || h["format"] != kFormatName)
                fail(where, std::string("expected a header with \"format\":\"") + kFormatName + "\"");
            if (!h.contains("version") || !h["version"].is_number_integer())
                fail(where, "header: expected an integer \"version\"");
            if (const auto v = checked_integer<int>(h["version"]); v && *v >= 1 && *v < kOldestReadableVersion)
                fail(where, "version " + std::to_string(*v) + " is an older vector format (this reader knows versions " +
                                std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + "; regenerate the set with ninfer-conform generate --out DIR)");
            if (const auto v = checked_integer<int>(h["version"]); !v || *v < kOldestReadableVersion || *v > kFormatVersion)
                fail(where, "unknown version " + echo_json(h["version"]) + " (this reader knows versions " +
                                std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + ")");
            for (const char *key : {"description", "generator"})
                if (!h.contains(key) || !h[key].is_string()) fail(where, std::string("header: expected a string \"") + key + "\"");
            if (!h.contains("exact") || h["exact"] != true) fail(where, "header: expected \"exact\":true");
            if (!h.contains("suite") || h["suite"] != suite)
                fail(where, "header: expected \"suite\":\"" + suite + "\" (the file's name)");
            if (!h.contains("cases") || !h["cases"].is_number_unsigned())
                fail(where, "header: expected an unsigned integer \"cases\"");
            if (h.size() != 7) fail(where, "header: expected exactly the keys format, version, suite, description, generator, exact, cases");
            declared = h["cases"].get<std::uint64_t>();
            continue;
        }
        ++found;
        if (found > declared) fail(where, "more case lines than the header's \"cases\":" + std::to_string(declared));
        suites::Case c = case_from_line(line, where);
        auto [it, fresh] = seen.emplace(c.id, where);
        if (!fresh) fail(where, "duplicate case id \"" + c.id + "\" (first at " + it->second + ")");
        if (c.level <= level) {
            out.cases.push_back(std::move(c));
            out.suite_of.push_back(suite);
        }
    }
    if (found != declared)
        fail(file + ":" + std::to_string(n), "truncated: header says " + std::to_string(declared) + " cases, file holds " +
                                                  std::to_string(found));
}


/// Every suite's file name and text, as write_golden writes them.
std::map<std::string, std::string> golden_files() {
    std::map<std::string, std::string> files;
    for (const auto &suite : suites::suite_catalog()) {
        const auto cases = suite.golden(suites::Level::exhaustive);
        std::set<std::string> ids;
        std::string text = header_line(suite, cases.size());
        text.push_back('\n');
        for (const auto &c : cases) {
            if (!ids.insert(c.id).second) throw std::logic_error("suite " + suite.name + ": duplicate case id " + c.id);
            text += case_to_line(c);
            text.push_back('\n');
        }
        const std::string name = suite.name + ".jsonl";
        if (!is_vector_file_name(name)) throw std::logic_error("suite name " + suite.name + " is not a file name");
        files.emplace(name, std::move(text));
    }
    return files;
}

std::string manifest_of(const std::map<std::string, std::string> &files) {
    std::string manifest;
    for (const auto &[name, text] : files) manifest += sha256_bytes(text) + "  " + name + "\n";
    return manifest;
}

}  // namespace

std::string golden_manifest() { return manifest_of(golden_files()); }

std::string manifest_difference(const std::string &expected, const std::string &actual) {
    const auto lines_of = [](const std::string &text) {
        std::map<std::string, std::string> m;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.size() > 66) m[line.substr(66)] = line.substr(0, 64);
        return m;
    };
    const auto a = lines_of(expected), b = lines_of(actual);
    std::set<std::string> names;
    for (const auto &[n, d] : a) names.insert(n);
    for (const auto &[n, d] : b) names.insert(n);
    std::string out;
    std::size_t listed = 0;
    for (const auto &n : names) {
        const auto ia = a.find(n), ib = b.find(n);
        if (ia != a.end() && ib != b.end() && ia->second == ib->second) continue;
        if (++listed > 12) {
            out += ", ...";
            break;
        }
        out += (out.empty() ? "" : ", ") + echo(n) + (ib == b.end() ? " (missing)" : ia == a.end() ? " (extra)" : "");
    }
    return out;
}

std::vector<std::string> write_golden(const fs::path &dir) {
    fs::create_directories(dir);
    const auto files = golden_files();
    const std::string manifest = manifest_of(files);
    // What this directory's previous manifest listed: only those files are ours to remove.
    std::set<std::string> previous;
    if (fs::is_regular_file(dir / kManifest)) {
        std::string text, error;
        if (read_file_capped((dir / kManifest).string(), kMaxManifestBytes, text, error)) {
            std::istringstream in(text);
            for (std::string line; std::getline(in, line);)
                if (line.size() > 66 && is_vector_file_name(line.substr(66))) previous.insert(line.substr(66));
        }
    }
    // 1. every file to a temporary of its own (the writer removes them on any failure or
    // signal); 2. all renamed under one hold of the output lock, the manifest last.
    std::vector<std::unique_ptr<reports::OutputFile>> staged_files;
    for (const auto &[name, text] : files) staged_files.push_back(staged(dir / name, text));
    staged_files.push_back(staged(dir / kManifest, manifest));
    try {
        reports::OutputFile::commit_all(staged_files);
    } catch (const std::runtime_error &e) {
        throw VectorError(e.what());
    }
    // A suite that no longer exists leaves no stale file of ours behind; anything else stays.
    std::vector<std::string> unrelated;
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name == kManifest || files.count(name)) continue;
        if (e.is_regular_file() && previous.count(name)) fs::remove(e.path());
        else unrelated.push_back(name);
    }
    std::sort(unrelated.begin(), unrelated.end());
    return unrelated;
}

Loaded load(const fs::path &dir, const std::vector<std::string> &names, suites::Level level) {
    if (!fs::is_directory(dir)) fail(dir.string(), "not a directory (expected a vectors directory with MANIFEST.sha256)");
    const fs::path mp = dir / kManifest;
    if (!fs::is_regular_file(mp))
        fail(mp.string(), "missing manifest (expected sha256sum lines \"<64 hex digits>  <suite>.jsonl\")");
    Loaded loaded;
    loaded.manifest = read_capped(mp, kMaxManifestBytes);
    const auto entries = parse_manifest(loaded.manifest, mp);
    std::vector<std::string> wanted = names;
    if (wanted.empty())
        for (const auto &[name, digest] : entries) wanted.push_back(name.substr(0, name.size() - 6));
    std::set<std::string> wanted_files;
    for (const auto &suite : wanted) {
        const std::string name = suite + ".jsonl";
        if (!entries.count(name)) fail(mp.string(), "no vector file for suite \"" + echo(suite) + "\"");
        wanted_files.insert(name);
    }
    const auto texts = read_verified(dir, entries, wanted_files);
    std::map<std::string, std::string> seen;
    for (const auto &suite : wanted) {
        const std::string name = suite + ".jsonl";
        read_suite_file(dir / name, texts.at(name), suite, level, loaded, seen);
    }
    loaded.manifest_sha256 = sha256_bytes(loaded.manifest);
    return loaded;
}

fs::path default_vectors_dir() {
    const fs::path source = NINFER_VECTORS_SOURCE_DIR;
    if (fs::exists(source / kManifest)) return source;
    return fs::path(NINFER_VECTORS_INSTALL_DIR);
}

}  // namespace ninfer::vectors
