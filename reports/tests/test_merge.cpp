// SPDX-License-Identifier: Apache-2.0
// Shard reports into one (merge.hpp; reports/README.md, "Shards and merge"): hand-built sweep
// shards following the contract (summed counts and bins, first mismatches by index, the worst
// status, the first message), run shards (cases in shard order, stale waivers stale
// everywhere), and the refusals. Expected values are counted by hand from the shards below.
#include <catch2/catch.hpp>

#include "ninfer/reports/merge.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;
using json = nlohmann::ordered_json;

namespace {

Mismatch word_mismatch(std::uint64_t index) {
    Mismatch m;
    m.index = index;
    m.plane = "words";
    m.cls = "off_by_one_ulp";
    m.expected = "3f81";
    m.actual = "3f80";
    return m;
}

/// Sweep shard `index` of 3 of [0, 300): its own mismatches at `at`, its bins, status and message.
ShardReport sweep_shard(int index, std::vector<std::uint64_t> at, const std::string &bins, Status status,
                        const std::string &message) {
    Report r;
    r.kind = "sweep";
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "alpha", "1.0", 2, "/p/alpha.so"};
    r.level = "sweep";
    r.host = "Linux 6 x86_64";
    r.started_at = "2026-11-30T10:0" + std::to_string(index) + ":00Z";
    r.finished_at = "2026-11-30T10:1" + std::to_string(index) + ":00Z";
    r.duration_s = 1.5;
    r.options = ReportOptions{.timeout_ms = 60000, .memory_limit_mib = 8192, .max_mismatches = 3, .batch = 131072,
                              .expected = "native", .nan_payload = false};
    r.extra = {{"sweep", "convert.fp32_to_bf16_rne"}, {"start", "00000000"}, {"count", "300"},
               {"shard", std::to_string(index) + "/3"}, {"shard_start", index == 0 ? "00000000" : index == 1 ? "00000064" : "000000c8"},
               {"shard_count", "100"}, {"max_mismatches", "3"}, {"binade", "exponent field"}, {"binades", "256"}};
    if (!bins.empty()) r.extra["mismatch_bins"] = bins;
    CaseResult c;
    c.id = "convert.fp32_to_bf16_rne/sweep";
    c.rule = "convert.fp32_to_bf16_rne";
    c.sentence = "S.";
    c.suite = "sweep";
    c.source = "exhaustive [00000000, +300)";
    c.status = status;
    c.elements = 100;
    c.mismatches = at.size() * 10;  // ten counted per kept one
    if (!at.empty()) c.classes["off_by_one_ulp"] = at.size() * 10;
    for (auto i : at) c.first.push_back(word_mismatch(i));
    c.message = message;
    r.cases.push_back(c);
    finalize(r);
    return {"shard" + std::to_string(index) + ".json", json::parse(render_json(r))};
}

/// Run shard `index` of 2 of four cases a, b, c, d (c fails with two mismatches), with a
/// baseline or none.
ShardReport run_shard(int index, std::vector<StaleWaiver> stale, bool baseline = true) {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"exec", "beta", "2", 2, "python3 b.py"};
    r.level = "quick";
    r.seed = 7;
    r.host = index == 0 ? "host-a" : "host-b";
    r.baseline = baseline ? "w.json" : "";
    r.options = ReportOptions{.timeout_ms = 10000, .memory_limit_mib = 8192, .max_mismatches = 8};
    if (baseline) r.options->baseline_sha256 = std::string(64, 'a');
    r.stale_waivers = std::move(stale);
    r.extra = {{"shard", std::to_string(index) + "/2"}, {"cases_total", "4"}};
    for (const char *name : index == 0 ? std::vector<const char *>{"a", "b"} : std::vector<const char *>{"c", "d"}) {
        CaseResult c;
        c.id = std::string("decode.bf16/") + name;
        c.rule = "decode.bf16";
        c.sentence = "S.";
        c.suite = "scalar.decode";
        c.source = "golden";
        c.status = std::string(name) == "c" ? Status::fail : Status::pass;
        c.elements = 4;
        if (c.status == Status::fail) {
            c.mismatches = 2;
            c.classes["off_by_one_ulp"] = 2;
            c.first.push_back(word_mismatch(1));
        }
        r.cases.push_back(c);
    }
    finalize(r);
    return {"run" + std::to_string(index) + ".json", json::parse(render_json(r))};
}

std::string merge_shards_json(const std::vector<ShardReport> &shards) { return merge_shards(shards).json; }

/// The merge of `shards` is refused with a message containing `why`.
void refused(const std::vector<ShardReport> &shards, const std::string &why) {
    INFO(why);
    CHECK_THROWS_WITH(merge_shards(shards), Catch::Contains(why));
}

}  // namespace

TEST_CASE("merge: sweep shards sum their counts and bins and keep the first mismatches by index", "[merge]") {
    // Given out of order: shard 2, 0, 1.
    const json m = json::parse(merge_shards_json({sweep_shard(2, {250}, "+3:10", Status::crash, "batch at 250: killed"),
                                             sweep_shard(0, {5, 70}, "+1:10 -2:10", Status::fail, ""),
                                             sweep_shard(1, {101, 102, 150}, "+1:20 +3:10", Status::fail, "")}));
    const auto &c = m["cases"][0];
    CHECK(c["elements"] == 300);
    CHECK(c["mismatches"] == 60);
    CHECK(c["classes"]["off_by_one_ulp"] == 60);
    CHECK(c["first_mismatches"].size() == 3);  // max_mismatches
    CHECK(c["first_mismatches"][0]["index"] == 5);
    CHECK(c["first_mismatches"][1]["index"] == 70);
    CHECK(c["first_mismatches"][2]["index"] == 101);
    CHECK(c["status"] == "crash");  // the worst
    CHECK(c["message"] == "batch at 250: killed");
    CHECK(m["extra"]["mismatch_bins"] == "+1:30 +3:20 -2:10");
    CHECK(m["extra"]["count"] == "300");
    CHECK(!m["extra"].contains("shard"));
    CHECK(!m["extra"].contains("shard_start"));
    CHECK(!m["extra"].contains("shard_count"));
    CHECK(m["totals"]["crash"] == 1);
    CHECK(m["totals"]["mismatches"] == 60);
    CHECK(m["passed"] == false);
    CHECK(m["started_at"] == "2026-11-30T10:00:00Z");
    CHECK(m["finished_at"] == "2026-11-30T10:12:00Z");
    CHECK(m["duration_s"] == 4.5);
}

TEST_CASE("merge: run shards concatenate their cases in shard order", "[merge]") {
    const StaleWaiver everywhere{"decode.bf16", "x", "never used"}, once{"decode.bf16", "*/c", "used by shard 1"};
    const json m = json::parse(merge_shards_json({run_shard(1, {everywhere}), run_shard(0, {everywhere, once})}));
    REQUIRE(m["cases"].size() == 4);
    CHECK(m["cases"][0]["id"] == "decode.bf16/a");
    CHECK(m["cases"][3]["id"] == "decode.bf16/d");
    CHECK(m["totals"]["cases"] == 4);
    CHECK(m["totals"]["fail"] == 1);
    CHECK(m["rules"][0]["first_failure"] == "decode.bf16/c");
    CHECK(m["stale_waivers"].size() == 1);
    CHECK(m["stale_waivers"][0]["reason"] == "never used");
    CHECK(m["host"] == "host-a; host-b");
    CHECK(m["extra"].empty());
}

TEST_CASE("merge: refusals name the file and what was expected", "[merge]") {
    refused({}, "no shard reports to merge");
    refused({run_shard(0, {})}, "shard 1/2 is missing");
    refused({run_shard(0, {}), run_shard(0, {}), run_shard(1, {})}, "run0.json: is shard 0/2 again (also run0.json)");
    auto other = run_shard(1, {});
    other.doc["seed"] = 8;
    refused({run_shard(0, {}), other}, "run1.json: seed is \"8\" but \"7\" in run0.json");
    auto sweep = sweep_shard(1, {}, "", Status::pass, "");
    refused({sweep_shard(0, {}, "", Status::pass, ""), sweep, sweep_shard(2, {}, "+1:x", Status::pass, "")},
            "shard2.json: extra \"mismatch_bins\" holds \"+1:x\"");
    sweep.doc["extra"]["count"] = "301";
    refused({sweep_shard(0, {}, "", Status::pass, ""), sweep}, "shard1.json: extra \"count\" is \"301\" but \"300\"");
    refused({{"x.json", json::array()}}, "x.json: is a JSON array, expected a report object");
    refused({{"y.json", json{{"schema", "other"}}}}, "y.json: not a report of schema ninfer-conform/report/v3");
    auto bad_status = run_shard(1, {});
    bad_status.doc["cases"][0]["status"] = "great";
    refused({run_shard(0, {}), bad_status}, "run1.json: case 0 \"status\" is \"great\"");
}

TEST_CASE("merge: each sweep shard covers exactly its slice of the range, no gap, no overlap", "[merge][forgery]") {
    // Issue 36, item 4: shard I of N holds words start + count*I/N .. start + count*(I+1)/N.
    const auto honest = [] {
        return std::vector<ShardReport>{sweep_shard(0, {}, "", Status::pass, ""), sweep_shard(1, {}, "", Status::pass, ""),
                                        sweep_shard(2, {}, "", Status::pass, "")};
    };
    CHECK(merge_shards(honest()).passed);
    auto half = honest();  // half its elements judged, the totals consistent
    half[1].doc["cases"][0]["elements"] = 50;
    refused(half, "shard1.json: shard 1/3 judged 50 elements, expected 100");
    auto moved = honest();  // its start moved onto shard 0's slice: an overlap and a gap
    moved[1].doc["extra"]["shard_start"] = "00000032";
    refused(moved, "shard1.json: shard 1/3 covers \"100\" words from \"00000032\"");
    auto shorter = honest();  // a shorter slice with as few elements: a gap
    shorter[2].doc["extra"]["shard_count"] = "60";
    shorter[2].doc["cases"][0]["elements"] = 60;
    refused(shorter, "shard2.json: shard 2/3 covers \"60\" words from \"000000c8\" (extras \"shard_start\", "
                     "\"shard_count\"), expected 100 words from c8");
    auto no_start = honest();
    no_start[0].doc["extra"].erase("shard_start");
    refused(no_start, "shard0.json: shard 0/3 covers \"100\" words from \"(absent)\"");
}

// Issue 22, item 5: one-field edits of honest shard reports must not merge to a pass.

TEST_CASE("merge: the verdict is recomputed from the merged cases", "[merge]") {
    const auto failing = merge_shards({run_shard(0, {}), run_shard(1, {})});
    CHECK_FALSE(failing.passed);
    CHECK(failing.cases == 4);
    CHECK(json::parse(failing.json)["passed"] == false);
    auto fixed = run_shard(1, {});
    // an honest shard of a subject that passes c: its own status, mismatches and totals agree
    auto &c = fixed.doc["cases"][0];
    c["status"] = "pass";
    c["mismatches"] = 0;
    c["classes"] = json::object();
    c["first_mismatches"] = json::array();
    fixed.doc["totals"]["pass"] = 2;
    fixed.doc["totals"]["fail"] = 0;
    fixed.doc["totals"]["mismatches"] = 0;
    fixed.doc["passed"] = true;
    const auto passing = merge_shards({run_shard(0, {}), fixed});
    CHECK(passing.passed);
    CHECK(json::parse(passing.json)["passed"] == true);
}

TEST_CASE("merge refuses a shard relabelled as another: duplicate case ids", "[merge][forgery]") {
    auto relabelled = run_shard(0, {});
    relabelled.label = "run1.json";
    relabelled.doc["extra"]["shard"] = "1/2";
    refused({run_shard(0, {}), relabelled}, "case id \"decode.bf16/a\" occurs twice (also in run0.json)");
}

TEST_CASE("merge refuses case statuses its shard's totals or mismatches contradict", "[merge][forgery]") {
    auto flipped = run_shard(1, {});
    flipped.doc["cases"][0]["status"] = "pass";  // c; the shard's totals still say fail
    refused({run_shard(0, {}), flipped}, "run1.json: \"totals\" is {\"cases\":2,\"pass\":1,\"fail\":1");
    // totals and verdict edited too: the case still holds its mismatches
    flipped.doc["totals"]["pass"] = 2;
    flipped.doc["totals"]["fail"] = 0;
    flipped.doc["passed"] = true;
    refused({run_shard(0, {}), flipped}, "run1.json: case 0 \"decode.bf16/c\" says pass beside 2 mismatches");
}

TEST_CASE("merge refuses a waiver that no recorded baseline grants", "[merge][forgery]") {
    const auto waive_c = [](ShardReport s) {
        s.doc["cases"][0]["waived"] = true;
        s.doc["cases"][0]["waiver_reason"] = "known";
        s.doc["totals"]["waived"] = 1;
        s.doc["passed"] = true;
        return s;
    };
    refused({run_shard(0, {}, false), waive_c(run_shard(1, {}, false))},
            "run1.json: case 0 \"decode.bf16/c\" is waived, but the shard records no baseline");
    // with the baseline's digest recorded by both shards, the waiver stands
    CHECK(merge_shards({run_shard(0, {}), waive_c(run_shard(1, {}))}).passed);
    // a waived pass is no waiver
    auto waived_pass = run_shard(1, {});
    waived_pass.doc["cases"][1]["waived"] = true;
    waived_pass.doc["totals"]["waived"] = 1;
    refused({run_shard(0, {}), waived_pass}, "case 1 \"decode.bf16/d\" is waived but its status is pass");
}

TEST_CASE("merge refuses empty shards of a run of no cases", "[merge][forgery]") {
    const auto emptied = [](ShardReport s) {
        s.doc["cases"] = json::array();
        s.doc["rules"] = json::array();
        s.doc["extra"]["cases_total"] = "0";
        for (auto &[k, v] : s.doc["totals"].items()) v = 0;
        s.doc["passed"] = true;
        return s;
    };
    refused({emptied(run_shard(0, {})), emptied(run_shard(1, {}))}, "run0.json: extra \"cases_total\" is 0");
    // a shard that claims cases but holds none of them
    auto hollow = run_shard(1, {});
    hollow.doc["cases"] = json::array();
    for (auto &[k, v] : hollow.doc["totals"].items()) v = 0;
    hollow.doc["passed"] = true;
    refused({run_shard(0, {}), hollow}, "run1.json: shard 1/2 holds 0 cases, expected 2 of cases_total 4");
}

TEST_CASE("merge refuses shards whose recorded options differ or are missing", "[merge][forgery]") {
    auto other = run_shard(1, {});
    other.doc["options"]["timeout_ms"] = 500;
    refused({run_shard(0, {}), other}, "run1.json: options.timeout_ms is \"500\" but \"10000\" in run0.json");
    auto cap = run_shard(1, {});
    cap.doc["options"]["max_mismatches"] = 1;
    refused({run_shard(0, {}), cap}, "run1.json: options.max_mismatches is \"1\" but \"8\"");
    auto digest = run_shard(1, {});
    digest.doc["options"]["baseline_sha256"] = std::string(64, 'b');
    refused({run_shard(0, {}), digest}, "run1.json: options.baseline_sha256 is");
    auto old = run_shard(1, {});
    old.doc.erase("options");
    refused({run_shard(0, {}), old}, "run1.json: records no \"options\"");
    auto bad = run_shard(1, {});
    bad.doc["options"]["timeout_ms"] = "soon";
    refused({run_shard(0, {}), bad}, "run1.json: options \"timeout_ms\" is string, expected a non-negative integer");
}

TEST_CASE("merge: the choices of open readings survive, and pinned shards must agree (issue 21)", "[merge][readings]") {
    // Shard 0's case a took "refuse", shard 1's case d took "encode": the merged rule counts both.
    auto mark = [](ShardReport s, const char *id, const char *choice) {
        for (auto &c : s.doc["cases"])
            if (c["id"] == id) {
                c["reading_kind"] = "open";
                c["reading"] = "fp8_row_maxabs.rescue";
                c["choice"] = choice;
            }
        return s;
    };
    const json m = json::parse(merge_shards_json({mark(run_shard(0, {}), "decode.bf16/a", "refuse"),
                                                  mark(run_shard(1, {}), "decode.bf16/d", "encode")}));
    CHECK(m["cases"][0]["choice"] == "refuse");
    CHECK(m["cases"][3]["choice"] == "encode");
    CHECK(m["rules"][0]["reading_kind"] == "open");
    CHECK(m["rules"][0]["choices"] == json{{"reading", "fp8_row_maxabs.rescue"}, {"taken", {{"encode", 1}, {"refuse", 1}}}});
    auto pinned = run_shard(1, {});
    pinned.doc["options"]["pins"] = {{"fp8_row_maxabs.rescue", "refuse"}};
    refused({run_shard(0, {}), pinned}, "run1.json: options.pins is");
}
