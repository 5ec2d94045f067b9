// SPDX-License-Identifier: Apache-2.0
// The CLI's operator listings (issue 13): `list` / `list --json` show the compute profiles and
// the criteria; `plugins` shows the profiles a plugin's capabilities claim.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/abi/registry.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("operators");
    return d;
}

ninfer::harness::test::Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

}  // namespace

TEST_CASE("list shows the compute profiles with their criteria, and the criteria with their rules", "[cli][linear]") {
    const auto o = cli("list --json");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    REQUIRE(j.at("profiles").size() == ninfer::abi::kProfiles.size());
    REQUIRE(j.at("criteria").size() == ninfer::abi::kCriteria.size());
    CHECK(j.at("profiles").at(0) == json{{"id", 1}, {"name", "f32_sequential"}, {"criterion", "bit_exact"},
                                         {"summary", std::string(ninfer::abi::kProfiles[0].summary)}});
    CHECK(j.at("profiles").at(3).at("name") == "gguf_q8_1_f32");
    CHECK(j.at("profiles").at(3).at("criterion") == "gguf_q8_1_product");
    CHECK(j.at("criteria").at(2).at("name") == "forward_error_bound");
    CHECK(j.at("criteria").at(2).at("rule") == "linear.forward_error_bound");
    const auto t = cli("list");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("profiles (linear: id name -> criterion, summary):\n   1 f32_sequential    -> bit_exact ") !=
          std::string::npos);
    CHECK(t.out.find("   3 f32_accumulate    -> forward_error_bound binary32 accumulation in any order") != std::string::npos);
    CHECK(t.out.find("criteria (id name, rule, summary):\n   1 bit_exact           linear.bit_exact") != std::string::npos);
}

TEST_CASE("plugins shows the profiles a plugin claims, and its capabilities by name", "[cli][linear]") {
    const auto o = cli("plugins --json --capabilities");
    REQUIRE(o.status == 0);
    const auto j = json::parse(o.out);
    bool reference = false;
    for (const auto &p : j.at("plugins")) {
        if (p.contains("error")) continue;
        REQUIRE(p.at("profiles").is_array());
        for (const auto &name : p.at("profiles"))
            CHECK(ninfer::abi::find_name(ninfer::abi::kProfiles, name.get<std::string>()) != nullptr);
        if (p.at("name") != "reference") continue;
        reference = true;
        REQUIRE(!p.at("capabilities").empty());
        for (const auto &c : p.at("capabilities")) {
            CHECK(c.size() == 6);
            CHECK(c.contains("profile"));
            // Only an operator's capability may name a profile; any other op's reads "any". The
            // reference also declares linear per weight format under "any" profile (it meets every
            // profile, and so the refusal cases of linear.profile and linear.registry reach it).
            if (c.at("op") != "linear") CHECK(c.at("profile") == "any");
            else if (c.at("profile") != "any")
                CHECK(ninfer::abi::find_name(ninfer::abi::kProfiles, c.at("profile").get<std::string>()) != nullptr);
        }
    }
    CHECK(reference);
    const auto t = cli("plugins --capabilities");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("    decode format bf16 from any layout any method any profile any\n") != std::string::npos);
    CHECK(cli("plugins --json").out.find("\"capabilities\"") == std::string::npos);
}
