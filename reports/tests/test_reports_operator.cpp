// SPDX-License-Identifier: Apache-2.0
// Reports of operator cases (op linear, issue 13): a mismatch with the acceptance interval, the
// exact value, the criterion, the error in ulps and as a fraction of the bound, rendered to
// JSON (approved baseline, validated against the schema by ctest), JUnit XML and HTML.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "ninfer/reports/html.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::reports;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void approve(const std::string &name, const std::string &actual) {
    const fs::path baseline = fs::path(NINFER_REPORTS_BASELINE_DIR) / name;
    if (const char *a = std::getenv("NINFER_APPROVE"); a && std::string(a) == "1") write_atomic(baseline, actual);
    const std::string expected = slurp(baseline);
    if (expected != actual) {
        const fs::path unapproved = fs::path(NINFER_REPORTS_OUT_DIR) / (name + ".unapproved");
        write_atomic(unapproved, actual);
        FAIL_CHECK("rendering differs from " << baseline.string() << "; see diff " << baseline.string() << " "
                                             << unapproved.string());
    }
    CHECK(expected == actual);
}

/// A run of one failing linear case: an element outside its forward error bound, a NaN where a
/// number is accepted, and a bit_exact word off by one.
Report operator_report() {
    Report r;
    r.tool_version = "0.1.0";
    r.subject = {"plugin", "mutant_linear_bf16_accumulate", "1.0.0", 2, "/opt/plugins/mutant_linear_bf16_accumulate.so"};
    r.vectors_dir = "vectors/data";
    r.vectors_manifest_sha256 = std::string(64, 'b');
    r.level = "quick";
    r.seed = 13;
    r.suites = {"linear.fp32"};
    r.host = "Linux 6.1.0 x86_64";
    r.started_at = "2026-11-30T19:00:00Z";
    r.finished_at = "2026-11-30T19:00:01Z";
    r.duration_s = 1.25;
    CaseResult c;
    c.id = "linear.forward_error_bound/fp32/f32_accumulate/cancellation";
    c.rule = "linear.forward_error_bound";
    c.sentence = "|y - y_exact| <= k * u * sum_k |w_k x_k|, k and u named by the profile";
    c.suite = "linear.fp32";
    c.source = "adversarial";
    c.status = Status::fail;
    c.elements = 6;
    c.mismatches = 3;
    c.classes = {{"out_of_bound", 1}, {"nan_mismatch", 1}, {"bits", 1}};
    Mismatch m;
    m.index = 4;
    m.plane = "output";
    m.location = "row 1, column 1";
    m.inputs = {"0000803f000080bf", "0080"};
    m.input_value = "weight fp32 row 1, activation bf16 row 1, K = 2";
    m.expected = "[3f7fffff, 3f800001]";
    m.expected_value = "[0.999999940395355224609375, 1.00000011920928955078125]";
    m.actual = "3f800004";
    m.actual_value = "1.000000476837158203125";
    m.cls = "out_of_bound";
    m.exact_value = "1";
    m.criterion = "linear.forward_error_bound (k = 4, u = 2^-24); bound 2.384185791015625e-07";
    m.error_ulps = 4;
    m.bound_fraction = 2;
    c.first.push_back(m);
    Mismatch nan = m;
    nan.index = 5;
    nan.location = "row 1, column 2";
    nan.actual = "7fc00000";
    nan.actual_value = "+qnan";
    nan.cls = "nan_mismatch";
    nan.error_ulps = std::numeric_limits<double>::infinity();
    nan.bound_fraction = std::numeric_limits<double>::infinity();
    c.first.push_back(nan);
    Mismatch bits = m;
    bits.index = 0;
    bits.location = "row 0, column 0";
    bits.expected = "3f800000";
    bits.expected_value = "1";
    bits.actual = "3f800001";
    bits.actual_value = "1.00000011920928955078125";
    bits.cls = "bits";
    bits.criterion = "linear.bit_exact (f32_sequential: binary32 products and sums in k order)";
    bits.error_ulps = 1;
    bits.bound_fraction.reset();
    c.first.push_back(bits);
    r.cases.push_back(c);
    finalize(r);
    return r;
}

}  // namespace

TEST_CASE("approval: an operator report (JSON)", "[reports][linear]") {
    approve("operator_report.json", render_json(operator_report()));
}

TEST_CASE("approval: an operator report (JUnit XML)", "[reports][linear]") {
    approve("operator_report.junit.xml", render_junit(operator_report()));
}

TEST_CASE("an operator mismatch carries error_ulps and bound_fraction, non-finite as strings", "[reports][linear]") {
    const auto j = to_json(operator_report());
    const auto &first = j.at("cases").at(0).at("first_mismatches");
    CHECK(first.at(0).at("error_ulps") == 4);
    CHECK(first.at(0).at("bound_fraction") == 2);
    CHECK(first.at(0).at("class") == "out_of_bound");
    CHECK(first.at(1).at("error_ulps") == "inf");
    CHECK(first.at(2).contains("error_ulps"));
    CHECK_FALSE(first.at(2).contains("bound_fraction"));
    CHECK(number_from_json(nlohmann::json("nan")).has_value());
    CHECK(std::isnan(*number_from_json(nlohmann::json("nan"))));
    CHECK(*number_from_json(nlohmann::json("inf")) == std::numeric_limits<double>::infinity());
    CHECK(*number_from_json(nlohmann::json(0.5)) == 0.5);
    CHECK_FALSE(number_from_json(nlohmann::json("many")).has_value());
    CHECK(number_text(0.25) == "0.25");
    CHECK(number_text(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("`report` renders an operator report: interval, exact value, criterion, error", "[reports][linear][html]") {
    const auto page = render_html({{"operator.json", nlohmann::json::parse(render_json(operator_report()))}});
    CHECK(page.find("row 1, column 1") != std::string::npos);
    CHECK(page.find("[3f7fffff, 3f800001]") != std::string::npos);
    CHECK(page.find("exact value 1") != std::string::npos);
    CHECK(page.find("requires linear.forward_error_bound (k = 4, u = 2^-24); bound 2.384185791015625e-07") !=
          std::string::npos);
    CHECK(page.find("error 4 ulps, 2 of the bound") != std::string::npos);
    CHECK(page.find("error inf ulps, inf of the bound") != std::string::npos);
    CHECK(page.find("out_of_bound") != std::string::npos);
}
