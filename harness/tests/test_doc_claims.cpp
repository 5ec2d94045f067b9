// SPDX-License-Identifier: Apache-2.0
// What the documents state that the code can check (issue 23, "Docs that say what is not so"):
// counts and lists of mutants, mismatch classes, rules, readings, GGUF types, golden suites,
// statuses and CLI commands, the reference plugin's includes, and every relative link. Each
// claim is read from the document's own sentence, so a number that drifts fails here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/suites/rules.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = NINFER_SOURCE_DIR;

std::string read_text(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    INFO(path.string());
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A document of the source tree with every run of whitespace made one space, so that a
/// claim may wrap across lines.
std::string flat_doc(const std::string &rel) {
    return std::regex_replace(read_text(kSource / rel), std::regex(R"(\s+)"), " ");
}

/// The text of `doc` from `from` up to the next `to` (both must occur, in that order).
std::string between(const std::string &doc, const std::string &from, const std::string &to) {
    const auto a = doc.find(from);
    INFO("marker: " << from);
    REQUIRE(a != std::string::npos);
    const auto b = doc.find(to, a + from.size());
    INFO("end marker: " << to);
    REQUIRE(b != std::string::npos);
    return doc.substr(a, b - a);
}

/// The integer that the regex's first group captures in `text`; -1 when the pattern is absent.
long number_in(const std::string &text, const std::string &pattern) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(pattern))) return -1;
    return std::stol(m[1].str());
}

/// Every capture of the regex's first group in `text`, in order.
std::vector<std::string> captures(const std::string &text, const std::string &pattern) {
    std::vector<std::string> out;
    const std::regex re(pattern);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1].str());
    return out;
}

/// The small numbers the documents write as words (a sentence's first word capitalised).
long number_word(const std::string &word) {
    static const std::array<const char *, 21> words = {
        "zero",  "one",    "two",      "three",    "four",    "five",    "six",       "seven",    "eight",    "nine",   "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
    std::string w = word;
    if (!w.empty()) w[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(w[0])));
    for (std::size_t i = 0; i < words.size(); ++i)
        if (w == words[i]) return static_cast<long>(i);
    if (!w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; }))
        return std::stol(w);  // past twelve a document writes digits
    return -1;
}

/// The count the regex's first group writes in words or digits in `text`; -1 when absent.
long count_in(const std::string &text, const std::string &pattern) {
    const auto all = captures(text, pattern);
    return all.empty() ? -1 : number_word(all.front());
}

// ---- CMake: which library links which -------------------------------------------------------

/// Every CMake file of the source tree (build trees left out).
std::vector<fs::path> cmake_files() {
    std::vector<fs::path> out;
    for (auto it = fs::recursive_directory_iterator(kSource); it != fs::recursive_directory_iterator(); ++it) {
        const auto name = it->path().filename().string();
        if (it->is_directory() && (name == "build" || name.starts_with("."))) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && (name == "CMakeLists.txt" || it->path().extension() == ".cmake")) out.push_back(it->path());
    }
    return out;
}

/// What `target` links, over every target_link_libraries(target ...) of the tree, aliases
/// (ninfer::x) spelled as their targets (ninfer_x).
std::set<std::string> links_of(const std::string &target) {
    std::set<std::string> out;
    const std::regex call("target_link_libraries\\(\\s*" + target + "\\s+([^)]*)\\)");
    for (const auto &f : cmake_files()) {
        const auto text = read_text(f);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator(); ++it) {
            std::istringstream words((*it)[1].str());
            for (std::string w; words >> w;) out.insert(w.rfind("ninfer::", 0) == 0 ? "ninfer_" + w.substr(8) : w);
        }
    }
    return out;
}

// ---- The mutants (harness/plugins/mutants/CMakeLists.txt decides a mutant's ABI) ----------

struct MutantCounts {
    std::map<std::string, long> total, abi2;  ///< by family label of docs/RESULTS.md
    long all = 0, all_abi2 = 0;
};

/// The family label docs/RESULTS.md gives a mutant source, by its file name.
std::string mutant_family(const std::string &stem) {
    for (const auto &[prefix, label] : std::array<std::pair<const char *, const char *>, 4>{
             {{"mutant_grouped_", "Grouped"}, {"mutant_scaled_", "Scaled"}, {"mutant_gguf_", "GGUF"},
              {"mutant_linear_", "`linear`"}}})
        if (stem.rfind(prefix, 0) == 0) return label;
    return "Word and layout";
}

/// An ABI 2 source has a line that starts with NINFER_MUTANT_V2( (the CMake rule's test).
bool is_abi2_source(const fs::path &src) {
    std::istringstream lines(read_text(src));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("NINFER_MUTANT_V2(", 0) == 0) return true;
    return false;
}

MutantCounts count_mutants() {
    MutantCounts c;
    for (const auto &e : fs::directory_iterator(kSource / "harness/plugins/mutants")) {
        const auto name = e.path().filename().string();
        if (name.rfind("mutant_", 0) != 0 || e.path().extension() != ".cpp") continue;
        const auto family = mutant_family(e.path().stem().string());
        const bool v2 = is_abi2_source(e.path());
        ++c.all;
        ++c.total[family];
        c.all_abi2 += v2;
        c.abi2[family] += v2;
    }
    return c;
}

// ---- Markdown ------------------------------------------------------------------------------

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
std::string heading_anchor(const std::string &heading) {
    std::string a;
    for (unsigned char ch : heading) {
        if (std::isalnum(ch) || ch == '-' || ch == '_') a += static_cast<char>(std::tolower(ch));
        else if (ch == ' ') a += '-';
    }
    return a;
}

std::set<std::string> anchors_of(const fs::path &md) {
    std::set<std::string> out;
    std::istringstream lines(read_text(md));
    for (std::string line; std::getline(lines, line);) {
        const auto text = line.find_first_not_of('#');
        if (line.rfind("#", 0) == 0 && text != std::string::npos && line[text] == ' ')
            out.insert(heading_anchor(line.substr(text + 1)));
    }
    return out;
}

/// The link targets of a markdown file that are neither URLs nor mail addresses.
std::vector<std::string> relative_links(const fs::path &md) {
    std::vector<std::string> out;
    for (const auto &target : captures(read_text(md), R"(\]\(([^)\s]+)\))"))
        if (target.find("://") == std::string::npos && target.rfind("mailto:", 0) != 0) out.push_back(target);
    return out;
}

/// The standard output of `ninfer-conform ARGS`, which must exit 0.
std::string cli_output(const std::string &args) {
    FILE *p = popen((std::string(NINFER_CONFORM_EXE) + " " + args).c_str(), "r");
    REQUIRE(p != nullptr);
    std::string text;
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) text.append(buf.data(), n);
    REQUIRE(pclose(p) == 0);
    return text;
}

/// The subcommands `ninfer-conform --help` lists.
std::set<std::string> cli_subcommands() {
    std::set<std::string> out;
    const auto text = cli_output("--help");
    const auto at = text.find("Subcommands:");
    REQUIRE(at != std::string::npos);
    for (const auto &name : captures(text.substr(at), R"(\n  ([a-z]+) )")) out.insert(name);
    return out;
}

/// The `#include "..."` names of one source file.
std::vector<std::string> quoted_includes(const fs::path &src) {
    return captures(read_text(src), R"(#include\s+\"([^\"]+)\")");
}

/// Includes of the sources directly in `dir` (benchmarks named bench_* left out) that are
/// neither `ninfer/abi/...` nor a file of `dir` itself.
std::set<std::string> foreign_includes(const fs::path &dir) {
    std::set<std::string> out;
    for (const auto &e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        const auto ext = e.path().extension().string();
        if (!e.is_regular_file() || name.rfind("bench_", 0) == 0) continue;
        if (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh") continue;
        for (const auto &inc : quoted_includes(e.path()))
            if (inc.rfind("ninfer/abi/", 0) != 0 && !fs::exists(dir / inc)) out.insert(inc);
    }
    return out;
}

}  // namespace

TEST_CASE("the mutant counts the documents state are those of harness/plugins/mutants", "[docs]") {
    const auto c = count_mutants();
    const auto results = flat_doc("docs/RESULTS.md");
    CHECK(number_in(results, R"((\d+) mutants in `harness/plugins/mutants/`)") == c.all);
    CHECK(number_in(results, R"((\d+) of them ABI 1 sources)") == c.all - c.all_abi2);
    CHECK(number_in(results, R"(ABI 1 sources and (\d+) ABI 2 sources)") == c.all_abi2);
    CHECK(number_in(results, R"(word, layout and grouped families \((\d+)\) are ABI 1)") == c.all - c.all_abi2);
    CHECK(number_in(results, R"(GGUF and `linear` mutants \((\d+)\) are ABI 2)") == c.all_abi2);
    for (const auto &[family, n] : c.total) {
        INFO("family " << family);
        std::smatch m;
        const std::regex re("\\*\\*" + family + " \\((\\d+) mutants, ABI (\\d) sources");
        REQUIRE(std::regex_search(results, m, re));
        CHECK(std::stol(m[1].str()) == n);
        // A family is of one ABI: all its sources, or none, use NINFER_MUTANT_V2.
        CHECK(c.abi2.at(family) == (m[2].str() == "2" ? n : 0));
    }
    const auto arch = flat_doc("docs/ARCHITECTURE.md");
    CHECK(number_in(arch, R"(breaks one behaviour: (\d+) mutants)") == c.all);
    CHECK(number_in(arch, R"(The (\d+) of the word, layout and grouped families are ABI 1)") == c.all - c.all_abi2);
    CHECK(number_in(arch, R"(The (\d+) of the scaled, GGUF and `linear` families are ABI 2)") == c.all_abi2);
    CHECK(number_in(arch, R"((\d+) seeded-bug plugins)") == c.all);
    CHECK(number_in(flat_doc("README.md"), R"((\d+) seeded-bug plugins)") == c.all);
    const auto harness = flat_doc("harness/README.md");
    CHECK(number_in(harness, R"(grouped families \((\d+) of the \d+\) are ABI 1)") == c.all - c.all_abi2);
    CHECK(number_in(harness, R"(grouped families \(\d+ of the (\d+)\) are ABI 1)") == c.all);
    CHECK(number_in(harness, R"(`linear` ones \((\d+)\) are ABI 2)") == c.all_abi2);
    // The main job runs reference, every mutant, every SR convention subject, every ecosystem adapter
    // plugin (docs/ECOSYSTEM.md), cuda_host and cuda_device.
    long conventions = 0, ecosystem = 0;
    for (const auto &e : fs::directory_iterator(kSource / "harness/plugins/conventions"))
        conventions += e.path().filename().string().rfind("sr_convention_", 0) == 0 && e.path().extension() == ".cpp";
    for (const auto &e : fs::directory_iterator(kSource / "harness/plugins/ecosystem"))
        ecosystem += e.path().filename().string().rfind("ecosystem_", 0) == 0 && e.path().extension() == ".cpp";
    CHECK(number_in(flat_doc("docs/cli.md"), R"(every bundled plugin, (\d+) in a build with CUDA)") == c.all + conventions + ecosystem + 3);
}

TEST_CASE("the mismatch classes reports/README.md and docs/ARCHITECTURE.md list are the code's", "[docs]") {
    std::set<std::string> code;
    for (int i = 0; i < 256; ++i) {
        const std::string name = ninfer::harness::mismatch_class_name(static_cast<ninfer::harness::MismatchClass>(i));
        if (name == "?") break;
        code.insert(name);
    }
    REQUIRE(code.size() > 20);

    const auto reports = read_text(kSource / "reports/README.md");
    const auto table = captures(between(reports, "## Mismatch classes", "classify outputs:"), R"(\n\| `([a-z_]+)` \|)");
    CHECK(table.size() == code.size());
    CHECK(std::set<std::string>(table.begin(), table.end()) == code);

    const auto arch = flat_doc("docs/ARCHITECTURE.md");
    const auto list = between(arch, "Each mismatch gets one of", "`reports/README.md` defines each");
    CHECK(number_in(list, R"(one of (\d+) classes)") == static_cast<long>(code.size()));
    const auto named = captures(list, R"(`([a-z_]+)`)");
    CHECK(named.size() == code.size());
    CHECK(std::set<std::string>(named.begin(), named.end()) == code);

    // Wherever a document counts the classes, it counts them all.
    for (const auto *doc : {"README.md", "docs/ARCHITECTURE.md", "docs/RESULTS.md", "docs/GUIDE.md", "docs/cli.md",
                            "reports/README.md", "harness/README.md"})
        for (const auto &n : captures(flat_doc(doc), R"((\d+) mismatch classes)")) {
            INFO(doc);
            CHECK(std::stol(n) == static_cast<long>(code.size()));
        }
}

TEST_CASE("the rule counts docs/RESULTS.md, README.md and suites/README.md state are the catalog's", "[docs]") {
    const auto &rules = ninfer::suites::rule_catalog();
    std::map<std::string, long> by_family;
    long readings = 0, forced = 0, open = 0, gguf_decode = 0, gguf_quantize = 0, payload = 0, sign = 0;
    for (const auto &r : rules) {
        ++by_family[r.group];
        readings += r.suite_reading;
        forced += r.reading_kind == ninfer::suites::ReadingKind::forced;
        open += r.reading_kind == ninfer::suites::ReadingKind::open;
        gguf_decode += r.id.rfind("gguf.decode.", 0) == 0;
        gguf_quantize += r.id.rfind("gguf.quantize.", 0) == 0;
        payload += r.group == "convert" && r.id.ends_with(".nan_payload");
        sign += r.group == "convert" && r.id.ends_with(".nan_sign");
    }
    const auto catalog = between(flat_doc("docs/RESULTS.md"), "The catalog (`ninfer-conform rules`", "path gaps");
    CHECK(number_in(catalog, R"((\d+) rules \(by the catalog's)") == static_cast<long>(rules.size()));
    for (const auto &[family, n] : by_family) {
        INFO("family " << family);
        CHECK(number_in(catalog, "[ (]" + family + " (\\d+)") == n);
    }
    CHECK(number_word(captures(catalog, R"((\w+) of them NaN payload profiles)").at(0)) == payload);
    CHECK(number_word(captures(catalog, R"(and (\w+) NaN sign profiles)").at(0)) == sign);
    CHECK(number_in(catalog, R"(for (\d+) block types)") == gguf_decode);
    CHECK(number_in(catalog, R"(`gguf\.quantize\.<type>` for (\d+))") == gguf_quantize);
    CHECK(number_in(catalog, R"((\d+) rest on a documented suite reading)") == readings);
    CHECK(number_in(catalog, R"((\d+) forced)") == forced);
    CHECK(number_in(catalog, R"((\d+) open)") == open);
    CHECK(number_in(catalog, R"((\d+) of \d+ rules have cases)") == static_cast<long>(rules.size()));

    CHECK(number_in(flat_doc("README.md"), R"(one of (\d+), with the spec's sentence)") == static_cast<long>(rules.size()));
    const auto suites = flat_doc("suites/README.md");
    CHECK(number_in(suites, R"(`gguf\.decode\.<type>` \((\d+)\))") == gguf_decode);
    CHECK(number_in(suites, R"(`gguf\.quantize\.<type>` \((\d+)\))") == gguf_quantize);
}

TEST_CASE("the GGUF counts the documents state are the registry's", "[docs]") {
    const auto &types = ninfer::abi::kGgufTypes;
    const long all = static_cast<long>(types.size());
    const long in_registry = std::count_if(types.begin(), types.end(), [](const auto &t) { return t.in_ninfer_registry; });
    const long quantizers = std::count_if(types.begin(), types.end(), [](const auto &t) { return t.ref_quantizer; });
    const auto readme = flat_doc("README.md");
    CHECK(number_in(readme, R"(the (\d+) of the registry and \d+ more)") == in_registry);
    CHECK(number_in(readme, R"(the \d+ of the registry and (\d+) more)") == all - in_registry);
    CHECK(number_in(readme, R"(ggml's (\d+) reference quantizers)") == quantizers);
    for (const auto *doc : {"README.md", "docs/RESULTS.md", "harness/README.md", "gpu/README.md", "suites/LINEAR.md",
                            "suites/GGUF.md", "oracle/GGUF.md"})
        for (const auto &n : captures(flat_doc(doc), R"((\d+) GGUF types)")) {
            INFO(doc);
            CHECK(std::stol(n) == all);
        }
    CHECK(number_in(flat_doc("suites/LINEAR.md"), R"(the (\d+) types outside the \.ninfer registry)") == all - in_registry);
    CHECK(number_in(flat_doc("suites/GGUF.md"), R"(each of the (\d+) types without a reference quantizer)") == all - quantizers);
}

TEST_CASE("the conversion and role counts the documents state are the registry's", "[docs]") {
    const auto fp32 = ninfer::abi::format_id("fp32");
    REQUIRE(fp32.has_value());
    const auto &conversions = ninfer::abi::kConversions;
    // the deterministic ones: an sr conversion has no native path, no sweep and no exhaustive proof
    const long from_fp32 = std::count_if(conversions.begin(), conversions.end(),
                                         [&](const auto &c) { return c.src == *fp32 && !ninfer::abi::is_stochastic(c); });
    const long widenings = std::count_if(conversions.begin(), conversions.end(), [&](const auto &c) { return c.dst == *fp32; });
    const auto results = flat_doc("docs/RESULTS.md");
    CHECK(number_in(results, R"(classify, (\d+) roles, \d+ widenings)") == static_cast<long>(ninfer::abi::kRoles.size()));
    CHECK(number_in(results, R"(classify, \d+ roles, (\d+) widenings)") == widenings);
    CHECK(number_in(results, R"(FP32-source conversion \((\d+) conversions;)") == from_fp32);
    for (const auto *doc : {"README.md", "docs/RESULTS.md", "docs/ARCHITECTURE.md", "oracle/README.md", "harness/README.md"})
        for (const auto &n : captures(flat_doc(doc), R"((\d+) (?:deterministic )?FP32-source conversions)")) {
            INFO(doc);
            CHECK(std::stol(n) == from_fp32);
        }
}

TEST_CASE("every document words nan_rule ANY_SIGNED as registry.h does", "[docs]") {
    // issue 34, item 4: one wording; the main rule's either-sign NaN policy is said beside it
    const std::string wording = "any NaN word of the input's sign";
    REQUIRE(read_text(kSource / "abi/include/ninfer/abi/registry.h").find("ANY_SIGNED  - " + wording) != std::string::npos);
    for (const auto *doc : {"suites/SR.md", "suites/README.md", "oracle/README.md", "docs/cli.md"}) {
        const std::string text = flat_doc(doc);
        std::size_t mentions = 0;
        for (std::size_t at = text.find("ANY_SIGNED"); at != std::string::npos; at = text.find("ANY_SIGNED", at + 1)) {
            ++mentions;
            INFO(doc << ": " << text.substr(at, 120));
            CHECK(text.substr(at, 200).find(wording) != std::string::npos);
        }
        if (std::string_view(doc) == "suites/README.md") CHECK(mentions > 0);
    }
}

TEST_CASE("the golden suites docs/RESULTS.md counts are the files of vectors/data", "[docs]") {
    long files = 0;
    for (const auto &e : fs::directory_iterator(kSource / "vectors/data")) files += e.path().extension() == ".jsonl";
    CHECK(number_in(flat_doc("docs/RESULTS.md"), R"(Golden vectors: (\d+) suites)") == files);
}

TEST_CASE("the statuses harness/README.md, vectors/README.md and plugin.h list are NINFER_STATUSES", "[docs]") {
    const auto &statuses = ninfer::abi::kStatusSpellings;
    // harness/README.md "Status codes": one row per status, code and C name, in plugin.h's order.
    const auto table = between(read_text(kSource / "harness/README.md"), "### Status codes", "Any other return value");
    std::vector<std::pair<long, std::string>> rows;
    const std::regex row(std::string("\n\\| (\xE2\x88\x92|-)?(\\d+) \\| `(NINFER_[A-Z_]+)` \\|"));
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it)
        rows.emplace_back(((*it)[1].matched ? -1 : 1) * std::stol((*it)[2].str()), (*it)[3].str());
    REQUIRE(rows.size() == statuses.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CHECK(rows[i].first == statuses[i].value);
        CHECK(rows[i].second == statuses[i].c_name);
    }
    // vectors/README.md: "ok" or the name without NINFER_, every error status listed.
    const auto field = between(read_text(kSource / "vectors/README.md"), "| `status` | string |", "\n");
    CHECK(field.find("`\"ok\"`") != std::string::npos);
    const auto listed = captures(field, R"(`(E_[A-Z_]+)`)");
    std::vector<std::string> vector_names;
    for (const auto &s : statuses)
        if (s.value != 0) vector_names.emplace_back(s.vector);
    CHECK(listed == vector_names);
    // plugin.h's comment on the X-macros names the three spellings of E_SIZE.
    const auto *size = ninfer::abi::find_status(NINFER_E_SIZE);
    REQUIRE(size != nullptr);
    const auto header = flat_doc("abi/include/ninfer/abi/plugin.h");
    CHECK(header.find("registry key (\"" + std::string(size->key) + "\")") != std::string::npos);
    CHECK(header.find("spelled \"" + std::string(size->vector) + "\" (\"" + std::string(statuses[0].vector) +
                      "\") in vector files, \"" + std::string(size->c_name) + "\" in messages") != std::string::npos);
}

TEST_CASE("the case statuses of reports/README.md are the report model's, with whether each fails a run", "[docs]") {
    const auto section = between(read_text(kSource / "reports/README.md"), "## Statuses", "\n## ");
    std::vector<std::pair<std::string, bool>> documented;
    const std::regex row(R"(\n\| `([a-z]+)` \|[^\n]*\| (yes|no) \|)");
    for (auto it = std::sregex_iterator(section.begin(), section.end(), row); it != std::sregex_iterator(); ++it)
        documented.emplace_back((*it)[1].str(), (*it)[2].str() == "yes");
    std::vector<std::pair<std::string, bool>> code;
    for (int i = 0; i < 256; ++i) {
        const auto status = static_cast<ninfer::reports::Status>(i);
        const std::string name = ninfer::reports::status_name(status);
        if (name == "?") break;
        code.emplace_back(name, ninfer::reports::is_failure(status));
    }
    CHECK(documented == code);
}

TEST_CASE("docs/cli.md's commands are the subcommands of ninfer-conform --help", "[docs]") {
    const auto cli = read_text(kSource / "docs/cli.md");
    const auto table = captures(between(cli, "| command | what it does |", "\n\n"), R"(\n\| `([a-z]+)[ `])");
    std::set<std::string> listed(table.begin(), table.end());
    CHECK(listed.erase("worker") == 1);  // documented as internal: --help hides it
    const auto help = cli_subcommands();
    CHECK(listed == help);
    const auto sections = captures(cli, R"(\n## `([a-z]+)[ `])");
    CHECK(std::set<std::string>(sections.begin(), sections.end()) == help);
}

TEST_CASE("every option docs/cli.md gives a command in its table and heading is in the command's --help", "[docs]") {
    const auto cli = read_text(kSource / "docs/cli.md");
    auto lines = captures(between(cli, "| command | what it does |", "\n\n"), R"(\n(\| `[a-z]+[^\n]*))");
    for (const auto &heading : captures(cli, R"(\n(## `[a-z]+[^\n]*))")) lines.push_back(heading);
    for (const auto &line : lines) {
        const auto command = captures(line, R"(`([a-z]+))").at(0);
        if (command == "worker") continue;  // hidden: no --help of its own to compare with
        const auto help = cli_output(command + " --help");
        for (const auto &option : captures(line, R"((--[a-z][a-z-]*))")) {
            INFO(line);
            CHECK(help.find(option) != std::string::npos);
        }
    }
}

TEST_CASE("docs/cli.md names every key of `list --json`", "[docs]") {
    const auto listing = nlohmann::json::parse(cli_output("list --json"));
    const auto paragraph = between(flat_doc("docs/cli.md"), "`--json` prints one object with", "Text:");
    for (const auto &[key, value] : listing.items()) {
        INFO(key);
        CHECK(paragraph.find("`" + key + "`") != std::string::npos);
    }
    for (const auto &[family, rows] : listing.at("formats").items()) {
        INFO(family);
        CHECK(paragraph.find("`formats." + family + "`") != std::string::npos);
    }
}

TEST_CASE("the reference and gpu plugins include what docs/ARCHITECTURE.md says they do", "[docs]") {
    const auto arch = flat_doc("docs/ARCHITECTURE.md");
    const auto named = captures(between(arch, "exactly these headers of `oracle/`:", "The gpu plugins:"),
                                R"(`(ninfer/oracle/[a-z_]+\.hpp)`)");
    CHECK(foreign_includes(kSource / "harness/plugins/reference") == std::set<std::string>(named.begin(), named.end()));

    const auto gpu = between(arch, "The gpu plugins:", "`ninfer/oracle/formats.hpp` only");
    const auto gpu_named = captures(gpu, R"(`cuda_device` includes `(ninfer/oracle/[a-z_]+\.hpp)`)");
    REQUIRE(gpu_named.size() == 1);
    const std::set<std::string> device_includes{gpu_named[0], "word_plugin.hpp", "gguf_block_structs.hpp"};
    CHECK(foreign_includes(kSource / "gpu/cuda_device") == device_includes);
    CHECK(gpu.find("the reference's view of ggml's blocks, `gguf_block_structs.hpp`") != std::string::npos);
    CHECK(foreign_includes(kSource / "gpu/cuda_host") == std::set<std::string>{"scaled_codec.hpp", "word_plugin.hpp"});
    CHECK(gpu.find("`cuda_host` links `ninfer::reference`") != std::string::npos);
    const auto cmake = read_text(kSource / "gpu/CMakeLists.txt");
    CHECK(std::regex_search(cmake, std::regex(R"(target_link_libraries\(cuda_host PRIVATE [^)]*ninfer::reference)")));
}

TEST_CASE("every relative link of README.md and docs/*.md resolves, anchors included", "[docs]") {
    std::vector<fs::path> docs = {kSource / "README.md"};
    for (const auto &e : fs::directory_iterator(kSource / "docs"))
        if (e.path().extension() == ".md") docs.push_back(e.path());
    for (const auto &doc : docs)
        for (const auto &link : relative_links(doc)) {
            INFO(doc.filename().string() << ": " << link);
            const auto hash = link.find('#');
            const auto file = link.substr(0, hash);
            const auto target = file.empty() ? doc : doc.parent_path() / file;
            CHECK(fs::exists(target));
            if (hash != std::string::npos && fs::exists(target) && target.extension() == ".md")
                CHECK(anchors_of(target).count(link.substr(hash + 1)) == 1);
        }
}

TEST_CASE("the README stays a front door: under 150 lines, the two commands as .ci/run runs one", "[docs]") {
    const auto readme = read_text(kSource / "README.md");
    CHECK(std::count(readme.begin(), readme.end(), '\n') < 150);
    CHECK(readme.find("\nbash scripts/main.sh ") != std::string::npos);
    CHECK(readme.find("\nbash scripts/test.sh ") != std::string::npos);
    CHECK(read_text(kSource / ".ci/run").find("\nbash scripts/test.sh") != std::string::npos);
}

TEST_CASE("the counts the documents write in words are the registry's and the catalog's", "[docs]") {
    long payload = 0;
    for (const auto &r : ninfer::suites::rule_catalog()) payload += r.group == "convert" && r.id.ends_with(".nan_payload");
    const auto suites = flat_doc("suites/README.md");
    CHECK(count_in(suites, R"((\w+) conversions have a payload profile)") == payload);
    CHECK(count_in(suites, R"(payload profile \((\w+), and the \w+ opt-in)") + count_in(suites, R"(, and the (\w+) opt-in BF16)") == payload);
    const auto &types = ninfer::abi::kGgufTypes;
    const long outside = std::count_if(types.begin(), types.end(), [](const auto &t) { return !t.in_ninfer_registry; });
    CHECK(count_in(flat_doc("harness/README.md"), R"(the (\w+) GGUF types outside it)") == outside);
    const long grouped = static_cast<long>(ninfer::abi::kGroupedFormats.size());
    for (const auto &n : captures(flat_doc("suites/GROUPED.md"), R"(all (\w+) formats)")) CHECK(number_word(n) == grouped);
    CHECK(count_in(flat_doc("suites/LINEAR.md"), R"(the (\w+) grouped formats under every profile)") == grouped);
    CHECK(count_in(flat_doc("suites/SR.md"), R"(at level full for the (\w+) conversions)") ==
          static_cast<long>(ninfer::abi::kStochastic.size()));
}

TEST_CASE("which library links which, as docs/ARCHITECTURE.md states it, is what CMake links", "[docs]") {
    const auto arch = flat_doc("docs/ARCHITECTURE.md");
    // "`abi/` depends on nothing": the interface library links no library of the project.
    REQUIRE(arch.find("`abi/` depends on nothing") != std::string::npos);
    for (const auto &l : links_of("ninfer_abi")) CHECK(l.rfind("ninfer_", 0) != 0);
    // "The reference plugin (`ninfer::reference`) links neither `ninfer::oracle` nor `ninfer::native`"
    // and the Principles' "The reference plugin links neither the oracle nor `ninfer::native`".
    std::smatch m;
    const std::string neither = R"(\(`ninfer::(\w+)`\) links neither `ninfer::(\w+)` nor `ninfer::(\w+)`)";
    REQUIRE(std::regex_search(arch, m, std::regex(neither)));
    REQUIRE(arch.find("The reference plugin links neither the oracle nor `ninfer::native`") != std::string::npos);
    for (const auto *t : {"ninfer_reference", "reference"}) {
        INFO(t);
        const auto links = links_of(t);
        CHECK(links.count("ninfer_" + m[2].str()) == 0);
        CHECK(links.count("ninfer_" + m[3].str()) == 0);
    }
    CHECK(m[1].str() == "reference");
    // "The harness never links the reference plugin".
    REQUIRE(arch.find("The harness never links the reference plugin") != std::string::npos);
    for (const auto *t : {"ninfer_harness", "ninfer_cli_families", "ninfer-conform", "ninfer_cli"}) {
        INFO(t);
        CHECK(links_of(t).count("ninfer_reference") == 0);
    }
}

namespace {

/// A family's name as it stands in a descriptor's constant: "gguf" -> "Gguf".
std::string camel(std::string_view name) {
    std::string s(name);
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

/// The source file under `dirs` that defines `const <type> <constant>` (at namespace scope), or "".
std::string definer(const std::vector<std::string> &dirs, const std::string &type, const std::string &constant) {
    const std::regex def("\\nconst (?:\\w+::)*" + type + " " + constant + " = ");
    for (const auto &dir : dirs)
        for (const auto &e : fs::recursive_directory_iterator(kSource / dir))
            if (e.is_regular_file() && e.path().extension() == ".cpp" && std::regex_search(read_text(e.path()), def))
                return fs::relative(e.path(), kSource).string();
    return "";
}

}  // namespace

TEST_CASE("each family descriptor lives where docs/ARCHITECTURE.md's recipe table says", "[docs]") {
    const auto arch = flat_doc("docs/ARCHITECTURE.md");
    const auto table = between(arch, "| side | descriptor (header) | defined in |", "An operator family");
    struct Side {
        const char *row;                ///< the start of the table row
        std::vector<std::string> dirs;  ///< where its family files lie
        bool op_family;                 ///< `linear` has one
    };
    const Side sides[] = {{"| catalog:", {"suites/src"}, true},
                          {"| compare:", {"harness/src"}, false},
                          {"| CLI:", {"harness/src/cli"}, false},
                          {"| reference plugin:", {"harness/plugins/reference"}, true}};
    for (const auto &side : sides) {
        INFO(side.row);
        const auto row = between(table, side.row, " | |");
        const auto cells = captures(row + " |", R"(\|([^|]*))");
        REQUIRE(cells.size() >= 4);
        // the descriptor type and its header, the constant's pattern, the registering file
        const auto type_full = captures(cells[1], R"(`([\w:]+)`)").at(0);
        const auto type = type_full.substr(type_full.rfind(':') == std::string::npos ? 0 : type_full.rfind(':') + 1);
        const auto suffix = captures(cells[2], R"(`k<Family>(\w+)`)").at(0);
        const auto registrar = captures(cells[3], R"(`([\w/]+\.cpp)`)").at(0);
        const auto registrar_text = read_text(kSource / registrar);
        const auto named_files = captures(cells[2], R"(`([\w/<>]+\.cpp)`)");
        for (const auto &f : ninfer::abi::kFamilyRows) {
            if (f.kind == ninfer::abi::FamilyKind::test || (f.kind == ninfer::abi::FamilyKind::op && !side.op_family)) continue;
            const auto constant = "k" + camel(f.name) + suffix;
            INFO(constant);
            const auto file = definer(side.dirs, type, constant);
            REQUIRE(!file.empty());
            // its file is named in the table, literally or by the `<family>` pattern
            const auto stem = fs::path(file).filename().string();
            CHECK(std::any_of(named_files.begin(), named_files.end(), [&](std::string n) {
                if (const auto at = n.find("<family>"); at != std::string::npos) n.replace(at, 8, std::string(f.name));
                return fs::path(n).filename().string() == stem;
            }));
            CHECK(registrar_text.find("&" + constant + ",") != std::string::npos);
        }
    }
}
