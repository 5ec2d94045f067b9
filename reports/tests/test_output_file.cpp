// SPDX-License-Identifier: Apache-2.0
// The one writer of every file (output_file.hpp; issue 36, item 1): a temporary of its own in
// the target's directory, never a link followed, nothing left behind on any path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ninfer/reports/output_file.hpp"

namespace fs = std::filesystem;
using ninfer::reports::OutputFile;

namespace {

fs::path scratch(const std::string &name) {
    const fs::path d = fs::path(NINFER_REPORTS_OUT_DIR) / "output-file-tests" / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string slurp(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::size_t entries(const fs::path &dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("output file: a link at the target is replaced, its target untouched", "[output-file]") {
    const fs::path d = scratch("link");
    std::ofstream(d / "victim") << "victim";
    fs::create_symlink(d / "victim", d / "out.json");
    ninfer::reports::write_atomic(d / "out.json", "new");
    CHECK(fs::is_regular_file(fs::symlink_status(d / "out.json")));
    CHECK(slurp(d / "out.json") == "new");
    CHECK(slurp(d / "victim") == "victim");
    CHECK(entries(d) == 2);
    CHECK((fs::status(d / "out.json").permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
}

TEST_CASE("output file: nothing is left by a file never committed, or by remove_temporaries", "[output-file]") {
    const fs::path d = scratch("uncommitted");
    {
        OutputFile f(d / "a.json");
        f.write("half");
        CHECK(entries(d) == 1);  // the temporary, under a name of its own
        for (const auto &e : fs::directory_iterator(d)) CHECK(e.path().filename().string().rfind(".a.json.", 0) == 0);
    }
    CHECK(entries(d) == 0);
    OutputFile g(d / "b.json");
    {
        const std::lock_guard<std::mutex> held(ninfer::reports::output_mutex());
        ninfer::reports::remove_temporaries();
    }
    CHECK(entries(d) == 0);
}

TEST_CASE("output file: commit_new never replaces a file or a link", "[output-file]") {
    const fs::path d = scratch("new");
    std::ofstream(d / "victim") << "victim";
    fs::create_symlink(d / "victim", d / "key");
    OutputFile f(d / "key");
    f.write("secret");
    CHECK_FALSE(f.commit_new(0600));
    CHECK(slurp(d / "victim") == "victim");
    CHECK(entries(d) == 2);
    OutputFile g(d / "fresh");
    g.write("secret");
    CHECK(g.commit_new(0600));
    CHECK(slurp(d / "fresh") == "secret");
    CHECK((fs::status(d / "fresh").permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("output file: a missing directory is an error naming the path", "[output-file]") {
    const fs::path d = scratch("missing");
    CHECK_THROWS_WITH(ninfer::reports::write_atomic(d / "no" / "x.json", "x"),
                      Catch::Contains("cannot write " + (d / "no" / "x.json").string()));
    CHECK(entries(d) == 0);
}
