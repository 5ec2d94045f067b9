// SPDX-License-Identifier: Apache-2.0
// `run --shard I/N` and `merge` (docs/cli.md): shard reports merge to the unsharded report,
// timings aside; the merge refuses what does not belong together with one line and writes nothing.
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

fs::path tmp_dir() {
    static const fs::path d = ninfer::harness::test::scratch("merge");
    return d;
}

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

std::string at(const std::string &name) { return (tmp_dir() / name).string(); }

json load(const std::string &name) { return json::parse(slurp(at(name))); }

void save(const std::string &name, const json &j) { std::ofstream(at(name), std::ios::binary) << j.dump(2) << "\n"; }

/// The report without what may differ between a sharded and an unsharded run.
json without_timings(json j) {
    for (const char *k : {"started_at", "finished_at", "duration_s"}) j.erase(k);
    return j;
}

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// Runs the subject unsharded and in `n` shards, merges the shards (given in reverse order) and
/// checks the merged report against the unsharded one.
void check_sharded_run(const std::string &args, int n, int expected_status) {
    const Out whole = cli("run " + args + " --report '" + at("whole.json") + "'");
    INFO(whole.err);
    REQUIRE(whole.status == expected_status);
    std::string shards;
    std::uint64_t cases = 0;
    const std::uint64_t total = load("whole.json")["cases"].size();
    for (int i = n - 1; i >= 0; --i) {
        const std::string name = fmt::format("shard{}.json", i);
        const Out o = cli(fmt::format("run {} --shard {}/{} --report '{}'", args, i, n, at(name)));
        INFO(o.err);
        REQUIRE((o.status == 0 || o.status == 1));
        const json j = load(name);
        CHECK(j["extra"]["shard"] == fmt::format("{}/{}", i, n));
        CHECK(j["extra"]["cases_total"] == std::to_string(total));
        CHECK(j["cases"].size() == total * (i + 1) / n - total * i / n);  // the contiguous slice
        cases += j["cases"].size();
        shards += " '" + at(name) + "'";
    }
    CHECK(cases == total);
    const Out m = cli("merge --out '" + at("merged.json") + "'" + shards);
    INFO(m.err);
    REQUIRE(m.status == expected_status);  // the merged verdict, as run's
    CHECK(m.out == fmt::format("merged {} shard reports into {}: {} ({} cases)\n", n, at("merged.json"),
                               expected_status == 0 ? "passed" : "failed", total));
    const json merged = load("merged.json"), unsharded = load("whole.json");
    CHECK(without_timings(merged) == without_timings(unsharded));
    CHECK(without_timings(merged).dump() == without_timings(unsharded).dump());  // key order too
}

/// The report's totals and verdict recomputed as a forger who knows the format would.
void recount(json &j) {
    for (auto &[k, v] : j["totals"].items()) v = 0;
    bool passed = true;
    for (const auto &c : j["cases"]) {
        j["totals"]["cases"] = j["totals"]["cases"].get<int>() + 1;
        const std::string st = c["status"];
        j["totals"][st] = j["totals"][st].get<int>() + 1;
        j["totals"]["mismatches"] = j["totals"]["mismatches"].get<std::uint64_t>() + c["mismatches"].get<std::uint64_t>();
        if (c["waived"] == true) j["totals"]["waived"] = j["totals"]["waived"].get<int>() + 1;
        passed = passed && (st == "pass" || st == "unsupported" || c["waived"] == true);
    }
    j["passed"] = passed;
}

/// A refused merge: exit 2, one line naming what was wrong, no output file.
void check_refused(const std::string &shards, const std::string &why) {
    fs::remove(at("refused.json"));
    const Out o = cli("merge --out '" + at("refused.json") + "' " + shards);
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(lines(o.err) == 1);
    CHECK_THAT(o.err, Catch::Contains(why));
    CHECK(!fs::exists(at("refused.json")));
}

}  // namespace

TEST_CASE("run --shard: the reference at quick in 3 shards merges to the unsharded report", "[cli][shard][merge]") {
    check_sharded_run("--plugin reference --level quick", 3, 0);
}

TEST_CASE("run --shard: a failing mutant in 4 shards merges to the unsharded report", "[cli][shard][merge]") {
    check_sharded_run("--plugin mutant_bf16_truncation --suite scalar.convert --suite scalar.decode", 4, 1);
}

TEST_CASE("run --shard refuses what is not I/N", "[cli][shard]") {
    for (const char *bad : {"3/3", "1", "a/2", "0/0", "-1/2", "1/2/3"}) {
        INFO(bad);
        const Out o = cli(std::string("run --plugin reference --shard '") + bad + "'");
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("expected I/N with 0 <= I < N"));
    }
}

TEST_CASE("merge: sweep shards following the contract merge to the unsharded sweep", "[cli][merge][sweep]") {
    // Shard reports of `sweep --shard I/4` built from sweeps of the four slices (README.md,
    // "Shards and merge"): extras start/count of the whole range, shard, shard_start, shard_count,
    // max_mismatches; mismatch indices relative to the whole start; case.source the whole range.
    const std::uint64_t start = 0x3F000000, count = 1 << 20;
    const std::string subject = "--plugin mutant_bf16_truncation --conversion fp32_to_bf16_rne";
    REQUIRE(cli(fmt::format("sweep {} --start {:x} --count {} --report '{}'", subject, start, count, at("sweep.json"))).status == 1);
    json whole = load("sweep.json");
    whole["extra"]["max_mismatches"] = "8";
    REQUIRE(whole["cases"][0]["mismatches"].get<std::uint64_t>() > 8);
    std::string shards;
    for (std::uint64_t i = 0; i < 4; ++i) {
        const std::uint64_t first = count * i / 4, last = count * (i + 1) / 4;
        const std::string name = fmt::format("sweep{}.json", i);
        const Out o = cli(fmt::format("sweep {} --start {:x} --count {} --report '{}'", subject, start + first, last - first, at(name)));
        REQUIRE(o.status == 1);
        json j = load(name);
        j["extra"]["start"] = whole["extra"]["start"];
        j["extra"]["count"] = whole["extra"]["count"];
        j["extra"]["shard"] = fmt::format("{}/4", i);
        j["extra"]["shard_start"] = fmt::format("{:08x}", start + first);
        j["extra"]["shard_count"] = std::to_string(last - first);
        j["extra"]["max_mismatches"] = "8";
        j["cases"][0]["source"] = whole["cases"][0]["source"];
        for (auto &m : j["cases"][0]["first_mismatches"]) m["index"] = m["index"].get<std::uint64_t>() + first;
        save(name, j);
        shards += " '" + at(name) + "'";
    }
    const Out m = cli("merge --out '" + at("merged-sweep.json") + "'" + shards);
    INFO(m.err);
    REQUIRE(m.status == 1);  // the merged verdict: the mutant fails
    const json merged = load("merged-sweep.json");
    // Compared as unordered objects: the extra added to `whole` above went to the end of its keys.
    CHECK(nlohmann::json::parse(without_timings(merged).dump()) == nlohmann::json::parse(without_timings(whole).dump()));
    CHECK(merged["extra"]["mismatch_bins"] == whole["extra"]["mismatch_bins"]);
    CHECK(merged["cases"][0]["first_mismatches"] == whole["cases"][0]["first_mismatches"]);
}

TEST_CASE("merge refuses shards that do not make one run, with one line and nothing written", "[cli][merge][refusal]") {
    const std::string args = "--plugin reference --suite scalar.decode";
    for (int i = 0; i < 3; ++i)
        REQUIRE(cli(fmt::format("run {} --shard {}/3 --report '{}'", args, i, at(fmt::format("r{}.json", i)))).status == 0);
    REQUIRE(cli("run --plugin mutant_bf16_truncation --suite scalar.decode --shard 1/3 --report '" + at("mutant1.json") + "'").status <= 1);
    REQUIRE(cli("run " + args + " --report '" + at("unsharded.json") + "'").status == 0);
    const std::string r0 = " '" + at("r0.json") + "'", r1 = " '" + at("r1.json") + "'", r2 = " '" + at("r2.json") + "'";

    check_refused(r0 + r2, "shard 1/3 is missing");
    check_refused(r0 + r1 + r1 + r2, "r1.json: is shard 1/3 again (also " + at("r1.json") + ")");
    check_refused(r0 + " '" + at("mutant1.json") + "'" + r2, "mutant1.json: the subject is \"plugin mutant_bf16_truncation");
    json sweep = load("r1.json");
    sweep["kind"] = "sweep";
    save("kind.json", sweep);
    check_refused(r0 + " '" + at("kind.json") + "'" + r2, "kind.json: kind is \"sweep\" but \"run\" in");
    json other_n = load("r1.json");
    other_n["extra"]["shard"] = "1/4";
    save("n.json", other_n);
    check_refused(r0 + " '" + at("n.json") + "'" + r2, "n.json: is shard 1/4, but " + at("r0.json") + " is one of 3 shards");
    json short_shard = load("r1.json");
    short_shard["cases"].erase(0);
    recount(short_shard);
    save("short.json", short_shard);
    check_refused(r0 + " '" + at("short.json") + "'" + r2, "short.json: shard 1/3 holds");
    std::ofstream(at("garbage.json")) << "{\"schema\": \"ninfer-conform/report/v2\", ";
    check_refused(r0 + " '" + at("garbage.json") + "'" + r2, "garbage.json: not a JSON report");
    std::ofstream(at("array.json")) << "[1, 2, 3]\n";
    check_refused(r0 + " '" + at("array.json") + "'" + r2, "array.json: not JSON: expected '{' first");
    json no_cases = load("r1.json");
    no_cases.erase("cases");
    save("nocases.json", no_cases);
    check_refused(r0 + " '" + at("nocases.json") + "'" + r2, "nocases.json: not a valid report (report-v3.schema.json): /: required property \"cases\" is missing");
    check_refused(r0 + " '" + at("unsharded.json") + "'" + r2, "unsharded.json: not a shard report (no extra \"shard\"");
    check_refused(r0 + " '" + at("absent.json") + "'", "absent.json: cannot open for reading");
}

// Issue 22, item 5: forgeries built from honest shard reports; each is refused (exit 2).

namespace {

/// Two honest shards of `args`, r0.json and r1.json, and the paths as merge arguments.
std::string two_shards(const std::string &args, const std::string &prefix) {
    std::string shards;
    for (int i = 0; i < 2; ++i) {
        const std::string name = fmt::format("{}{}.json", prefix, i);
        const Out o = cli(fmt::format("run {} --shard {}/2 --report '{}'", args, i, at(name)));
        INFO(o.err);
        REQUIRE((o.status == 0 || o.status == 1));
        shards += " '" + at(name) + "'";
    }
    return shards;
}

}  // namespace

TEST_CASE("merge exits 1 when the merged verdict fails, 0 when it passes", "[cli][merge][forgery]") {
    const std::string failing = two_shards("--plugin mutant_bf16_truncation --suite scalar.convert", "fail");
    const Out f = cli("merge --out '" + at("m-fail.json") + "'" + failing);
    INFO(f.err);
    CHECK(f.status == 1);
    CHECK(load("m-fail.json")["passed"] == false);
    CHECK_THAT(f.out, Catch::Contains(": failed ("));
    const std::string passing = two_shards("--plugin reference --suite scalar.convert", "pass");
    const Out p = cli("merge --out '" + at("m-pass.json") + "'" + passing);
    CHECK(p.status == 0);
    CHECK(load("m-pass.json")["passed"] == true);
}

TEST_CASE("merge refuses forged shards: relabelled, flipped, waived without baseline, emptied, other options",
          "[cli][merge][forgery]") {
    const std::string args = "--plugin mutant_bf16_truncation --suite scalar.convert";
    two_shards(args, "h");
    const json h0 = load("h0.json");
    // the shard holding failures is forged; the other is given as it is
    const bool first_fails = h0["passed"] == false;
    const json h1 = load(first_fails ? "h0.json" : "h1.json");
    REQUIRE(h1["passed"] == false);
    const std::string s0 = " '" + at(first_fails ? "h1.json" : "h0.json") + "'";

    SECTION("a shard relabelled as the other") {
        json forged = h0;
        forged["extra"]["shard"] = "1/2";
        forged["extra"]["cases_total"] = std::to_string(2 * h0["cases"].size());
        json first = h0;
        first["extra"]["cases_total"] = forged["extra"]["cases_total"];
        save("relabel0.json", first);
        save("relabel1.json", forged);
        check_refused(" '" + at("relabel0.json") + "' '" + at("relabel1.json") + "'", "occurs twice (also in");
    }
    SECTION("failing statuses flipped to pass, the shard's totals left") {
        json forged = h1;
        for (auto &c : forged["cases"])
            if (c["status"] == "fail") c["status"] = "pass";
        save("flip.json", forged);
        check_refused(s0 + " '" + at("flip.json") + "'", "flip.json: \"totals\" is");
    }
    SECTION("failing statuses flipped to pass, totals recomputed: the mismatches remain") {
        json forged = h1;
        for (auto &c : forged["cases"])
            if (c["status"] == "fail") c["status"] = "pass";
        recount(forged);
        save("flip2.json", forged);
        check_refused(s0 + " '" + at("flip2.json") + "'", "says pass beside");
    }
    SECTION("failures waived in a run without a baseline") {
        json forged = h1;
        for (auto &c : forged["cases"])
            if (c["status"] == "fail") {
                c["waived"] = true;
                c["waiver_reason"] = "accepted";
            }
        recount(forged);
        REQUIRE(forged["passed"] == true);
        save("waived.json", forged);
        check_refused(s0 + " '" + at("waived.json") + "'", "is waived, but the shard records no baseline");
    }
    SECTION("both shards emptied, cases_total 0") {
        for (int i = 0; i < 2; ++i) {
            json forged = load(fmt::format("h{}.json", i));
            forged["cases"] = json::array();
            forged["rules"] = json::array();
            forged["extra"]["cases_total"] = "0";
            recount(forged);
            save(fmt::format("empty{}.json", i), forged);
        }
        check_refused(" '" + at("empty0.json") + "' '" + at("empty1.json") + "'", "extra \"cases_total\" is 0");
    }
    SECTION("a failing case reported under another case's id, the count kept") {
        json forged = h1;
        for (auto &c : forged["cases"])
            if (c["status"] == "fail") {
                c["id"] = c["id"].get<std::string>() + "_elsewhere";
                c["status"] = "pass";
                c["mismatches"] = 0;
                c["classes"] = json::object();
                c["first_mismatches"] = json::array();
                c["message"] = "";
            }
        recount(forged);
        REQUIRE(forged["passed"] == true);
        save("renamed.json", forged);
        check_refused(s0 + " '" + at("renamed.json") + "'", "a shard's range holds cases it does not report");
    }
    SECTION("the failing cases dropped and cases_total lowered to match, in both shards") {
        json forged = h1, other = load(first_fails ? "h1.json" : "h0.json");
        json kept = json::array();
        for (const auto &c : forged["cases"])
            if (c["status"] != "fail") kept.push_back(c);
        REQUIRE(kept.size() < forged["cases"].size());
        forged["cases"] = kept;
        recount(forged);
        REQUIRE(forged["passed"] == true);
        // Shards cut T cases as [floor(T*I/N), floor(T*(I+1)/N)): with N = 2 the slices stay
        // consistent when T is the sum of both.
        const auto total = std::to_string(forged["cases"].size() + other["cases"].size());
        forged["extra"]["cases_total"] = total;
        other["extra"]["cases_total"] = total;
        save("dropped.json", forged);
        save("dropped_other.json", other);
        fs::remove(at("refused.json"));
        const Out o = cli("merge --out '" + at("refused.json") + "' '" + at("dropped_other.json") + "' '" + at("dropped.json") + "'");
        INFO(o.err);
        CHECK(o.status == 2);
        CHECK(!fs::exists(at("refused.json")));
        // Refused by the slice arithmetic, or by the case list this build collects.
        CHECK((o.err.find("a shard's range holds cases it does not report") != std::string::npos ||
               o.err.find("cases_total") != std::string::npos));
    }
    SECTION("a shard run with another --timeout-ms or --max-mismatches") {
        for (const char *opt : {"--timeout-ms 5000", "--max-mismatches 2"}) {
            INFO(opt);
            REQUIRE(cli(fmt::format("run {} {} --shard 1/2 --report '{}'", args, opt, at("other.json"))).status <= 1);
            check_refused(" '" + at("h0.json") + "' '" + at("other.json") + "'", "other.json: options.");
        }
    }
}

TEST_CASE("run records every option that can change its verdict", "[cli][merge][options]") {
    std::ofstream(at("waivers.json")) << R"({"version": 1, "waivers": []})" << "\n";
    const Out o = cli("run --plugin reference --suite scalar.decode --timeout-ms 4321 --memory-limit-mib 4096 "
                      "--max-mismatches 3 --baseline '" + at("waivers.json") + "' --report '" + at("opts.json") + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    const json opts = load("opts.json")["options"];
    CHECK(opts["timeout_ms"] == 4321);
    CHECK(opts["memory_limit_mib"] == 4096);
    CHECK(opts["max_mismatches"] == 3);
    CHECK(opts["baseline_sha256"].get<std::string>().size() == 64);
    CHECK(opts["case_cache"].is_null());
    const Out plain = cli("run --plugin reference --suite scalar.decode --report '" + at("plain.json") + "'");
    REQUIRE(plain.status == 0);
    CHECK(load("plain.json")["options"]["baseline_sha256"].is_null());
    CHECK(load("plain.json")["options"]["timeout_ms"] == 10000);
}
