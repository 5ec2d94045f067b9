// SPDX-License-Identifier: Apache-2.0
// Sweeps in shared-memory batches (issue 11, docs/cli.md "sweep"): pipelined batches survive a
// crash, hang or overrun of the plugin as a reported result; --jobs N gives the report of
// --jobs 1; the shards of --shard I/N cover the unsharded sweep's mismatches exactly and carry
// the contract's extras; --expected oracle finds what native finds.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/conversions.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ninfer;
using namespace ninfer::harness;

namespace {

fs::path scratch() {
    static const fs::path d = test::scratch("sweep");
    return d;
}

test::Out conform(const std::string &args) { return test::run_cli(scratch(), args); }

/// The report of a sweep run by the CLI (exit status 0 or 1 expected).
json sweep_report(const std::string &name, const std::string &args) {
    const fs::path report = scratch() / (name + ".json");
    const auto o = conform("sweep " + args + " --report '" + report.string() + "'");
    INFO(args << "\n" << o.out << o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    return json::parse(test::slurp(report));
}

/// A report without what may differ between equal sweeps: timestamps and timings.
json without_timings(json r) {
    for (const char *k : {"started_at", "finished_at", "duration_s"}) r.erase(k);
    for (auto &c : r["cases"]) c.erase("seconds");
    return r;
}

/// A plugin subject of a fixture or bundled plugin, its worker the CLI binary.
std::unique_ptr<Subject> open_fixture(const std::string &path, int timeout_ms = 10000) {
    SubjectOptions so;
    so.worker_executable = NINFER_CONFORM_EXE;
    so.call_timeout = std::chrono::milliseconds(timeout_ms);
    return open_plugin(path, so);
}

/// A decode sweep of bf16 words (the fixtures decode normal bf16 numbers correctly).
SweepOptions bf16_decode(std::uint64_t start, std::uint64_t count, std::uint64_t batch) {
    SweepOptions o;
    o.op = NINFER_OP_decode;
    o.format = NINFER_FORMAT_bf16;
    o.start = start;
    o.count = count;
    o.batch = batch;
    o.max_mismatches = 4;
    return o;
}

std::string fmt_hex(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%08llx", static_cast<unsigned long long>(v));
    return buf;
}

const std::string kMutant = "mutant_bf16_truncation";  // fp32_to_bf16_rne truncates: many mismatches

}  // namespace

TEST_CASE("a crash, hang or overrun in a pipelined sweep batch is that batch's result, the next batch runs on a "
          "fresh worker", "[sweep][isolation]") {
    const std::string dir = NINFER_TEST_PLUGIN_DIR;
    // Batches of 173 words from 0xDE00: the second starts at the fixtures' trigger word 0xDEAD,
    // the third was already sent to the worker that dies and must be sent again.
    const auto o = bf16_decode(0xDE00, 3 * 173, 173);
    SECTION("crash") {
        auto s = open_fixture(dir + "/fixture_crash.so");
        REQUIRE(s->open_error().empty());
        CHECK(s->pipeline_depth() >= 2);
        const auto res = run_sweep(*s, o, identity_of(*s, "plugin", "crash"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::crash);
        CHECK(c.mismatches == 173);  // the dead batch only: the first and third pass
        CHECK_THAT(c.message, Catch::StartsWith("batch at dead: worker killed by SIGSEGV"));
        CHECK_THAT(c.message, Catch::Contains("about to dereference NULL"));
    }
    SECTION("hang") {
        auto s = open_fixture(dir + "/fixture_hang.so", 1000);
        const auto res = run_sweep(*s, o, identity_of(*s, "plugin", "hang"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::timeout);
        CHECK(c.mismatches == 173);
        CHECK_THAT(c.message, Catch::StartsWith("batch at dead: no reply within 1000 ms; worker killed"));
    }
    SECTION("a write past the end of the shared output slot faults on its guard page") {
        auto s = open_fixture(dir + "/fixture_overrun.so");
        const auto res = run_sweep(*s, o, identity_of(*s, "plugin", "overrun"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::crash);
        CHECK(c.mismatches == 173);
        CHECK_THAT(c.message, Catch::Contains("the plugin wrote past the end of output plane 1 (values, capacity 1384 bytes)"));
    }
    SECTION("a write before the start of the shared output slot is caught by the canaries") {
        auto s = open_fixture(dir + "/fixture_overrun.so");
        const auto res = run_sweep(*s, bf16_decode(0xF000, 3 * 13, 13), identity_of(*s, "plugin", "overrun"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::error);
        CHECK(c.mismatches == 13);
        CHECK_THAT(c.message, Catch::Contains("batch at f00d: wrote before the start of output plane 1 (values, capacity 104 bytes)"));
    }
    SECTION("a write far past the end faults on the guard page") {
        auto s = open_fixture(dir + "/fixture_overrun.so");
        const auto res = run_sweep(*s, bf16_decode(0xFD13, 3 * 0xED, 0xED), identity_of(*s, "plugin", "overrun"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::crash);
        CHECK(c.mismatches == 0xED);
        CHECK_THAT(c.message, Catch::Contains("batch at feed: worker killed by SIGSEGV"));
    }
    SECTION("a written size past the capacity is an error") {
        auto s = open_fixture(dir + "/fixture_overrun.so");
        const auto res = run_sweep(*s, bf16_decode(0xBE00, 3 * 0xEF, 0xEF), identity_of(*s, "plugin", "overrun"));
        const auto &c = res.report.cases.at(0);
        CHECK(c.status == reports::Status::error);
        CHECK(c.mismatches == 0xEF);
        CHECK_THAT(c.message, Catch::Contains("batch at beef: reported out_written 1913 > capacity 1912"));
    }
}

TEST_CASE("a sweep in several jobs reports what one job reports", "[sweep][jobs]") {
    // Batches of an odd size, so that jobs split inside the mismatching binades.
    const std::string args = "--plugin " + kMutant + " --conversion fp32_to_bf16_rne --start 3f000000 --count 3000000 "
                             "--batch 70001 --max-mismatches 40";
    const json one = sweep_report("jobs1", args + " --jobs 1");
    REQUIRE(one["cases"][0]["mismatches"].get<std::uint64_t>() > 1000000);
    REQUIRE(one["cases"][0]["first_mismatches"].size() == 40);
    for (const char *jobs : {"2", "5"}) {
        INFO("--jobs " << jobs);
        CHECK(without_timings(sweep_report(std::string("jobs") + jobs, args + " --jobs " + jobs)) == without_timings(one));
    }
    // A crash is the same result in any number of jobs too (batches are cut the same way).
    // A generous call limit: a crash ends the call at once, and a loaded machine must not turn it into a timeout.
    auto s = open_fixture(std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_crash.so", 120000);
    auto o = bf16_decode(0xDE00, 3 * 173, 173);
    const auto id = identity_of(*s, "plugin", "crash");
    const auto one_job = run_sweep(*s, o, id).report.cases.at(0);
    o.jobs = 3;
    const auto three = run_sweep(*s, o, id, [] { return open_fixture(std::string(NINFER_TEST_PLUGIN_DIR) + "/fixture_crash.so", 120000); })
                           .report.cases.at(0);
    CHECK(three.status == one_job.status);
    CHECK(three.mismatches == one_job.mismatches);
    CHECK(three.message.substr(0, 40) == one_job.message.substr(0, 40));
}

TEST_CASE("sweep shards carry the contract's extras and together hold the unsharded mismatches", "[sweep][shard]") {
    const std::string args = "--plugin " + kMutant + " --conversion fp32_to_bf16_rne --start 3f7fff00 --count 1000 "
                             "--batch 97 --max-mismatches 1000";
    const json whole = sweep_report("whole", args);
    const auto &wc = whole["cases"][0];
    REQUIRE(wc["mismatches"].get<std::uint64_t>() > 100);
    REQUIRE(wc["mismatches"].get<std::uint64_t>() == wc["first_mismatches"].size());
    CHECK(whole["extra"]["max_mismatches"] == "1000");
    CHECK(whole["extra"]["expected"] == "native");
    CHECK_FALSE(whole["extra"].contains("shard"));
    std::set<std::uint64_t> indices;
    std::vector<json> firsts;
    std::uint64_t mismatches = 0, elements = 0;
    const std::uint64_t bounds[] = {0, 333, 666, 1000};  // floor(1000 * I / 3)
    for (int i = 0; i < 3; ++i) {
        const json r = sweep_report("shard" + std::to_string(i), args + " --shard " + std::to_string(i) + "/3");
        const auto &c = r["cases"][0];
        CHECK(r["extra"]["shard"] == std::to_string(i) + "/3");
        CHECK(r["extra"]["start"] == "3f7fff00");  // the whole range's
        CHECK(r["extra"]["count"] == "1000");
        CHECK(r["extra"]["shard_start"] == fmt_hex(0x3f7fff00 + bounds[i]));
        CHECK(r["extra"]["shard_count"] == std::to_string(bounds[i + 1] - bounds[i]));
        CHECK(r["extra"]["max_mismatches"] == "1000");
        CHECK(c["source"] == wc["source"]);
        CHECK(c["elements"].get<std::uint64_t>() == bounds[i + 1] - bounds[i]);
        for (const auto &m : c["first_mismatches"]) {
            // Indices stay relative to the whole range's start.
            CHECK(m["index"].get<std::uint64_t>() >= bounds[i]);
            CHECK(m["index"].get<std::uint64_t>() < bounds[i + 1]);
            indices.insert(m["index"].get<std::uint64_t>());
            firsts.push_back(m);
        }
        mismatches += c["mismatches"].get<std::uint64_t>();
        elements += c["elements"].get<std::uint64_t>();
    }
    CHECK(mismatches == wc["mismatches"].get<std::uint64_t>());
    CHECK(elements == 1000);
    CHECK(firsts == std::vector<json>(wc["first_mismatches"].begin(), wc["first_mismatches"].end()));
    CHECK(indices.size() == firsts.size());
}

TEST_CASE("sweep --shard, --jobs and --expected refuse what they do not take", "[sweep][cli]") {
    for (const char *bad : {"3/3", "1", "a/2", "1/0", "-1/2", "1/2/3", "0/65537"}) {
        INFO(bad);
        const auto o = conform(std::string("sweep --plugin reference --conversion fp32_to_bf16_rne --count 10 --shard '") + bad + "'");
        CHECK(o.status == 2);
        CHECK_THAT(o.err, Catch::Contains("--shard"));
    }
    CHECK(conform("sweep --plugin reference --conversion fp32_to_bf16_rne --count 10 --jobs 0").status == 2);
    CHECK(conform("sweep --plugin reference --conversion fp32_to_bf16_rne --count 10 --expected mpfr").status == 2);
}

TEST_CASE("sweep --expected oracle finds what the native expected words find", "[sweep][oracle]") {
    const std::string args = "--conversion fp32_to_bf16_rne --start 7f7ff000 --count 20000 --max-mismatches 30";
    const json ref = sweep_report("oracle-ref", "--plugin reference --expected oracle " + args);
    CHECK(ref["extra"]["expected"] == "oracle");
    CHECK(ref["cases"][0]["status"] == "pass");
    const json by_oracle = sweep_report("oracle-mutant", "--plugin " + kMutant + " --expected oracle " + args);
    json by_native = sweep_report("native-mutant", "--plugin " + kMutant + " " + args);
    REQUIRE(by_native["cases"][0]["mismatches"].get<std::uint64_t>() > 0);
    by_native["extra"]["expected"] = "oracle";
    by_native["options"]["expected"] = "oracle";
    CHECK(without_timings(by_oracle) == without_timings(by_native));
}

TEST_CASE("sweep --nan-sign judges NaN words under the sign profile a main-rule sweep waives", "[sweep][nan]") {
    // 0xFF800001 on: negative NaNs first. mutant_e4m3fn_positive_nan writes 0x7F for every NaN.
    const std::string args = "--conversion fp32_to_e4m3fn_rne_satfinite --start ff800001 --count 5000";
    const json main_rule = sweep_report("nan-sign-main", "--plugin mutant_e4m3fn_positive_nan " + args);
    CHECK(main_rule["cases"][0]["rule"] == "convert.fp32_to_e4m3fn_rne_satfinite");
    CHECK(main_rule["cases"][0]["status"] == "pass");  // IEEE 754-2019 6.3: the sign is unspecified
    const json profile = sweep_report("nan-sign-profile", "--plugin mutant_e4m3fn_positive_nan --nan-sign " + args);
    CHECK(profile["cases"][0]["rule"] == "convert.fp32_to_e4m3fn_rne_satfinite.nan_sign");
    CHECK(profile["cases"][0]["status"] == "fail");
    CHECK(profile["cases"][0]["mismatches"] == 5000);
    CHECK(profile["options"]["nan_sign"] == true);
    CHECK(sweep_report("nan-sign-reference", "--plugin reference --nan-sign " + args)["cases"][0]["status"] == "pass");
    // Only a conversion with a sign profile, and one profile at a time.
    CHECK(conform("sweep --plugin reference --conversion fp32_to_bf16_rne --count 10 --nan-sign").status == 2);
    CHECK(conform("sweep --plugin reference " + args + " --nan-sign --nan-payload").status == 2);
}

TEST_CASE("a failing sweep counts every mismatch by class and binade; --max-failures stops at the same batch in any "
          "number of jobs (issue 32, item 5)", "[sweep][max-failures]") {
    const std::string args = "--plugin " + kMutant + " --conversion fp32_to_bf16_rne --start 3f000000 --count 3000000 "
                             "--batch 70001 --max-mismatches 40";
    const json whole = sweep_report("whole", args + " --jobs 2");
    const auto &c = whole["cases"][0];
    std::uint64_t by_class = 0, by_bin = 0;
    for (const auto &[k, v] : c["classes"].items()) by_class += v.get<std::uint64_t>();
    const std::string bins = whole["extra"]["mismatch_bins"];
    for (std::size_t at = bins.find(':'); at != std::string::npos; at = bins.find(':', at + 1)) by_bin += std::stoull(bins.substr(at + 1));
    CHECK(by_class == c["mismatches"].get<std::uint64_t>());
    CHECK(by_bin == c["mismatches"].get<std::uint64_t>());
    CHECK_FALSE(whole["extra"].contains("stopped"));
    // The 100 000th mismatch falls in the second batch or later: the report ends with its batch.
    const json one = sweep_report("stop1", args + " --jobs 1 --max-failures 100000");
    const auto &s = one["cases"][0];
    CHECK(s["status"] == "fail");
    CHECK(s["mismatches"].get<std::uint64_t>() >= 100000);
    CHECK(s["elements"].get<std::uint64_t>() % 70001 == 0);
    CHECK(s["elements"].get<std::uint64_t>() < 3000000);
    CHECK(one["extra"]["stopped"].get<std::string>().find("--max-failures 100000: stopped after the batch ending at word") == 0);
    CHECK(s["first_mismatches"] == c["first_mismatches"]);  // the same first words as the whole sweep
    for (const char *jobs : {"2", "5"}) {
        INFO("--jobs " << jobs);
        CHECK(without_timings(sweep_report(std::string("stop") + jobs, args + " --jobs " + jobs + " --max-failures 100000")) ==
              without_timings(one));
    }
    // --fail-fast is --max-failures 1: the first batch alone.
    const json fast = sweep_report("fast", args + " --jobs 3 --fail-fast");
    CHECK(fast["cases"][0]["elements"] == 70001);
    CHECK(fast["extra"]["stopped"].get<std::string>().find("--max-failures 1:") == 0);
    // The summary on stdout is for people: no raw report fields, the stop named.
    const auto o = conform("sweep " + args + " --fail-fast");
    CHECK(o.status == 1);
    CHECK(o.out.find("mismatch_bins") == std::string::npos);
    CHECK(o.out.find("stopped: --max-failures 1:") != std::string::npos);
    CHECK(o.out.find("70001 words judged: ") != std::string::npos);
    CHECK(o.out.find("result: FAIL") != std::string::npos);
    CHECK(conform("sweep " + args + " --fail-fast --max-failures 2").status == 2);
    CHECK(conform("sweep " + args + " --max-failures 0").status == 2);
}

TEST_CASE("the sweep's domain bit test is the oracle's domain of every conversion (issue 32, item 5)", "[sweep][domain]") {
    // Every word of a source of up to 16 bits; of a wider one, every exponent with the fraction's
    // edges and a spread of fractions, both signs.
    std::size_t partial = 0;
    for (const auto &cv : oracle::kConversions) {
        const auto &src = oracle::word_format(cv.src);
        partial += suites::conversion_domain_is_partial(cv);
        std::vector<std::uint64_t> words;
        if (src.bits <= 16) {
            for (std::uint64_t w = 0; w <= src.mask() + 1; ++w) words.push_back(w);
        } else {
            const std::uint64_t frac = (std::uint64_t{1} << src.man_bits) - 1;
            for (std::uint64_t e = 0; e < (std::uint64_t{1} << src.exp_bits); ++e)
                for (std::uint64_t m : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, frac >> 1, (frac >> 1) + 1, frac - 1, frac,
                                        frac / 3, frac / 7})
                    for (std::uint64_t sign : {std::uint64_t{0}, std::uint64_t{1}})
                        words.push_back((sign << (src.bits - 1)) | (e << src.man_bits) | (m & frac));
            words.push_back(src.mask() + 1);
        }
        for (const auto w : words) {
            INFO(cv.name << " word " << fmt_hex(w));
            REQUIRE(sweep_in_domain(cv, w) == suites::conversion_in_domain(cv, w));
        }
    }
    CHECK(partial > 0);  // the E2M1 conversions leave NaN inputs undefined
}

TEST_CASE("the block fast path counts the words outside the domain as the word-by-word test does (issue 32, item 5)",
          "[sweep][domain]") {
    // Ranges of every source: a small source's whole domain in blocks of every phase, and past
    // it; binary32 ranges across zero, infinity and the NaNs of both signs, and the domain's end.
    std::size_t nan_words = 0;
    for (const auto &cv : oracle::kConversions) {
        const auto &src = oracle::word_format(cv.src);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;  // (first, n)
        if (src.bits <= 16) {
            for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{100}})
                for (std::uint64_t first = 0; first <= src.mask() + 2; first += (src.bits <= 8 ? 1 : 97)) ranges.emplace_back(first, n);
        } else {
            for (const std::uint64_t at : {0x00000000ull, 0x7F800000ull, 0x7FFFF000ull, 0x80000000ull, 0xFF800000ull, 0xFFFFF000ull})
                for (const std::uint64_t back : {0ull, 1ull, 4096ull})
                    for (const std::uint64_t n : {1ull, 2ull, 4096ull, 9000ull})
                        if (at >= back) ranges.emplace_back(at - back, n);
        }
        for (const auto &[first, n] : ranges) {
            std::uint64_t outside = 0;
            for (std::uint64_t w = first; w < first + n; ++w) outside += !sweep_in_domain(cv, w);
            INFO(cv.name << " from " << fmt_hex(first) << " +" << n);
            REQUIRE(sweep_words_outside_domain(cv, first, n) == outside);
            nan_words += outside;
        }
    }
    CHECK(nan_words > 0);
}

TEST_CASE("a partial-domain sweep counts the words outside its domain on the block fast path (issue 32, item 5)",
          "[sweep][domain]") {
    // fp32 -> e2m1 from 7f000000: 2^23 numbers and infinity, then 2^23 - 1 NaN words (not judged).
    const json r = sweep_report("e2m1", "--plugin reference --conversion fp32_to_e2m1_rne_satfinite --start 7f000000 "
                                         "--count 16777216 --jobs 2");
    const auto &c = r["cases"][0];
    CHECK(c["status"] == "pass");
    CHECK(c["not_judged"]["count"] == 8388607);
    CHECK(c["mismatches"] == 0);
}
