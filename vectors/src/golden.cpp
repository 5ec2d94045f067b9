// SPDX-License-Identifier: Apache-2.0
// Golden vector sets (vectors/README.md): one JSON Lines file per suite plus MANIFEST.sha256,
// written atomically and deterministically, read back only after every digest checks out.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

#include "ninfer/suites/suites.hpp"
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

/// Write `text` to `path` through a temporary sibling and a rename: nothing half-written.
void write_atomically(const fs::path &path, const std::string &text) {
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(tmp.string(), "cannot open for writing");
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.flush();
        if (!out) fail(tmp.string(), "write failed");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) fail(path.string(), "rename from " + tmp.filename().string() + " failed: " + ec.message());
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
std::map<std::string, std::string> read_manifest(const fs::path &dir) {
    const fs::path mp = dir / kManifest;
    if (!fs::is_regular_file(mp))
        fail(mp.string(), "missing manifest (expected sha256sum lines \"<64 hex digits>  <suite>.jsonl\")");
    std::ifstream in(mp, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.empty() && text.back() != '\n') fail(mp.string(), "truncated: last line has no newline");
    std::map<std::string, std::string> entries;
    std::istringstream lines(text);
    std::string line, previous;
    for (std::size_t n = 1; std::getline(lines, line); ++n) {
        const std::string where = mp.string() + ":" + std::to_string(n);
        if (line.size() < 67 || line.compare(64, 2, "  ") != 0 || !is_hex64(line.substr(0, 64)))
            fail(where, "expected \"<64 lowercase hex digits>  <file>\"");
        const std::string name = line.substr(66);
        if (!is_vector_file_name(name)) fail(where, "file \"" + name + "\": expected <suite>.jsonl in this directory");
        if (!previous.empty() && name <= previous) fail(where, "file \"" + name + "\": expected names sorted and unique");
        previous = name;
        entries[name] = line.substr(0, 64);
    }
    if (entries.empty()) fail(mp.string(), "empty manifest (expected one line per vector file)");
    return entries;
}

/// Check every file of the directory against the manifest; refuse missing, altered and extra files.
void verify_manifest(const fs::path &dir, const std::map<std::string, std::string> &entries) {
    for (const auto &[name, digest] : entries) {
        const fs::path p = dir / name;
        if (!fs::is_regular_file(p)) fail(p.string(), std::string("missing file listed in ") + kManifest);
        const auto actual = sha256_file(p);
        if (actual != digest)
            fail(p.string(), "SHA-256 mismatch (" + std::string(kManifest) + " says " + digest + ", file has " + actual + ")");
    }
    std::vector<std::string> extra;
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name != kManifest && !entries.count(name)) extra.push_back(name);
    }
    std::sort(extra.begin(), extra.end());
    if (!extra.empty()) fail((dir / extra.front()).string(), std::string("not listed in ") + kManifest + " (expected only listed files)");
}

/// Read one suite file: header, then exactly `cases` case lines.
void read_suite_file(const fs::path &p, const std::string &suite, suites::Level level, std::vector<suites::Case> &out,
                     std::map<std::string, std::string> &seen) {
    std::ifstream in(p, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
            try {
                h = nlohmann::json::parse(line);
            } catch (const nlohmann::json::parse_error &e) {
                fail(where, std::string("truncated or malformed header: expected one JSON object (") + e.what() + ")");
            }
            if (!h.is_object() || !h.contains("format") || h["format"] != kFormatName)
                fail(where, std::string("expected a header with \"format\":\"") + kFormatName + "\"");
            if (!h.contains("version") || !h["version"].is_number_integer())
                fail(where, "header: expected an integer \"version\"");
            if (h["version"].get<std::int64_t>() != kFormatVersion)
                fail(where, "unknown version " + h["version"].dump() + " (this reader knows version " +
                                std::to_string(kFormatVersion) + ")");
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
        if (c.level <= level) out.push_back(std::move(c));
    }
    if (found != declared)
        fail(file + ":" + std::to_string(n), "truncated: header says " + std::to_string(declared) + " cases, file holds " +
                                                  std::to_string(found));
}

}  // namespace

void write_golden(const fs::path &dir) {
    fs::create_directories(dir);
    std::set<std::string> written;
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
        write_atomically(dir / name, text);
        written.insert(name);
    }
    // A suite that no longer exists leaves no stale file behind for load to refuse.
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (e.is_regular_file() && is_vector_file_name(name) && !written.count(name)) fs::remove(e.path());
    }
    std::string manifest;
    for (const auto &name : written) manifest += sha256_file(dir / name) + "  " + name + "\n";
    write_atomically(dir / kManifest, manifest);
}

Loaded load(const fs::path &dir, const std::vector<std::string> &names, suites::Level level) {
    if (!fs::is_directory(dir)) fail(dir.string(), "not a directory (expected a vectors directory with MANIFEST.sha256)");
    const auto entries = read_manifest(dir);
    verify_manifest(dir, entries);
    std::vector<std::string> wanted = names;
    if (wanted.empty())
        for (const auto &[name, digest] : entries) wanted.push_back(name.substr(0, name.size() - 6));
    Loaded loaded;
    std::map<std::string, std::string> seen;
    for (const auto &suite : wanted) {
        const std::string name = suite + ".jsonl";
        if (!entries.count(name)) fail((dir / kManifest).string(), "no vector file for suite \"" + suite + "\"");
        read_suite_file(dir / name, suite, level, loaded.cases, seen);
    }
    loaded.manifest_sha256 = sha256_file(dir / kManifest);
    return loaded;
}

fs::path default_vectors_dir() {
    const fs::path source = NINFER_VECTORS_SOURCE_DIR;
    if (fs::exists(source / kManifest)) return source;
    return fs::path(NINFER_VECTORS_INSTALL_DIR);
}

}  // namespace ninfer::vectors
