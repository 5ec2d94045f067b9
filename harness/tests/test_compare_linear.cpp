// SPDX-License-Identifier: Apache-2.0
// Operator cases (op linear): the acceptance of one OUTPUT element (suites::Expect::accept,
// written by hand here) and the comparison of a reply under it (compare_reply), with the
// oracle's explanation of the first failing elements.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"

using namespace ninfer;
using namespace ninfer::harness;
using suites::kAcceptBits;
using suites::kAcceptNan;

namespace {

const oracle::WordFormat &F(std::uint32_t id) { return oracle::word_format(id); }

const auto &fp32 = F(NINFER_FORMAT_fp32);

std::string refused(const oracle::WordFormat &f, const Acceptance &a, std::uint64_t w) {
    REQUIRE_FALSE(accepts(f, a, w));
    return mismatch_class_name(classify_accept_mismatch(f, a, w));
}

constexpr std::uint64_t kOne = 0x3F800000, kPosZero = 0, kNegZero = 0x80000000, kInf = 0x7F800000,
                        kNegInf = 0xFF800000, kMax = 0x7F7FFFFF, kQnan = 0x7FC00000;

/// A linear case: fp32 weight [N=2, K=2] (rows {1, 1}, {1, -1}), one fp32 activation row
/// {x0, x1}, fp32 output, profile correctly_rounded; the expected words and, when `accept`,
/// the acceptance entries given.
suites::Case linear_case(float x0, float x1, std::vector<std::uint64_t> expected, std::vector<Acceptance> accept) {
    suites::Case c;
    c.id = "linear.correctly_rounded/test";
    c.rule = "linear.correctly_rounded";
    c.op = NINFER_OP_linear;
    c.format = NINFER_FORMAT_fp32;
    c.layout = NINFER_LAYOUT_contiguous_le_v1;
    c.profile = NINFER_PROFILE_correctly_rounded;
    c.shape = {2, 2};
    c.count = expected.size() / 2;
    for (float w : {1.0f, 1.0f, 1.0f, -1.0f}) suites::put_word(c.input(NINFER_PLANE_PAYLOAD), std::bit_cast<std::uint32_t>(w), 4);
    c.inputs.push_back({NINFER_PLANE_ACTIVATION, NINFER_FORMAT_fp32, {}});
    for (std::uint64_t m = 0; m < c.count; ++m)
        for (float x : {x0, x1}) suites::put_word(c.input(NINFER_PLANE_ACTIVATION), std::bit_cast<std::uint32_t>(x), 4);
    c.expect.outputs.push_back({NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, {}});
    for (auto w : expected) suites::put_word(c.expect.output(NINFER_PLANE_OUTPUT), w, 4);
    for (const auto &a : accept) {
        suites::put_word(c.expect.accept, a.lo, 4);
        suites::put_word(c.expect.accept, a.hi, 4);
        c.expect.accept.push_back(a.flags);
    }
    return c;
}

Reply reply_of(std::vector<std::uint64_t> words) {
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    r.outputs.push_back({NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, {}});
    for (auto w : words) suites::put_word(r.outputs.back().bytes, w, 4);
    return r;
}

}  // namespace

TEST_CASE("acceptance: an interval by value", "[compare][linear]") {
    const Acceptance a{0x3F7FFFFF, 0x3F800001, 0};
    CHECK(accepts(fp32, a, kOne));
    CHECK(accepts(fp32, a, 0x3F7FFFFF));
    CHECK(accepts(fp32, a, 0x3F800001));
    CHECK(refused(fp32, a, 0x3F800002) == "out_of_bound");
    CHECK(refused(fp32, a, 0x3F7FFFFE) == "out_of_bound");
    CHECK(refused(fp32, a, 0xBF800000) == "out_of_bound");
    CHECK(refused(fp32, a, kInf) == "inf_mismatch");
    // A negative interval: lo is the more negative word.
    const Acceptance neg{0xC0000001, 0xBFFFFFFF, 0};
    CHECK(accepts(fp32, neg, 0xC0000000));
    CHECK(refused(fp32, neg, 0xC0000002) == "out_of_bound");
    CHECK(refused(fp32, neg, 0xBFFFFFFE) == "out_of_bound");
    // A word wider than the format is never accepted.
    CHECK_FALSE(accepts(F(NINFER_FORMAT_bf16), {0x3F80, 0x3F80, 0}, 0x13F80));
}

TEST_CASE("acceptance: -0 == +0 in an interval, not under kAcceptBits", "[compare][linear]") {
    CHECK(accepts(fp32, {kPosZero, kPosZero, 0}, kNegZero));
    CHECK(accepts(fp32, {kNegZero, kNegZero, 0}, kPosZero));
    CHECK(accepts(fp32, {kNegZero, 0x00000001, 0}, kPosZero));
    CHECK(accepts(fp32, {0x80000001, kNegZero, 0}, kPosZero));  // [-min subnormal, -0] holds +0
    CHECK(refused(fp32, {kPosZero, kPosZero, 0}, 0x00000001) == "out_of_bound");
    CHECK(refused(fp32, {kPosZero, kPosZero, 0}, 0x80000001) == "out_of_bound");
    // bit_exact: an all-(-0) row gives +0, and -0 is another word.
    CHECK(accepts(fp32, {kPosZero, kPosZero, kAcceptBits}, kPosZero));
    CHECK(refused(fp32, {kPosZero, kPosZero, kAcceptBits}, kNegZero) == "bits");
}

TEST_CASE("acceptance: infinite bounds admit that infinity", "[compare][linear]") {
    const Acceptance up{kMax, kInf, 0};  // the correctly rounded result overflowed: [max, +inf]
    CHECK(accepts(fp32, up, kInf));
    CHECK(accepts(fp32, up, kMax));
    CHECK(refused(fp32, up, kNegInf) == "inf_mismatch");
    CHECK(refused(fp32, up, 0x7F7FFFFE) == "inf_mismatch");
    const Acceptance neg_inf{kNegInf, kNegInf, 0};  // exactly -inf expected
    CHECK(accepts(fp32, neg_inf, kNegInf));
    CHECK(refused(fp32, neg_inf, kInf) == "inf_mismatch");
    CHECK(refused(fp32, neg_inf, 0xFF7FFFFF) == "inf_mismatch");
    const Acceptance all{kNegInf, kInf, 0};
    CHECK(accepts(fp32, all, kOne));
    CHECK(accepts(fp32, all, kNegInf));
    CHECK(refused(fp32, all, kQnan) == "nan_mismatch");
}

TEST_CASE("acceptance: NaN", "[compare][linear]") {
    // A NaN against a finite interval: refused, unless kAcceptNan (a bound whose partial sums may overflow).
    const Acceptance finite{0x3F7FFFFF, 0x3F800001, 0};
    CHECK(refused(fp32, finite, kQnan) == "nan_mismatch");
    CHECK(refused(fp32, finite, 0xFF800001) == "nan_mismatch");  // a signalling NaN too
    const Acceptance finite_or_nan{0x3F7FFFFF, 0x3F800001, kAcceptNan};
    CHECK(accepts(fp32, finite_or_nan, kQnan));
    CHECK(accepts(fp32, finite_or_nan, 0xFFC00001));
    CHECK(accepts(fp32, finite_or_nan, kOne));
    CHECK(refused(fp32, finite_or_nan, 0x40000000) == "out_of_bound");
    // A NaN expected: any NaN, any sign and payload; a number is a nan_mismatch.
    const Acceptance nan{kQnan, kQnan, kAcceptNan};
    for (std::uint64_t w : {kQnan, std::uint64_t{0xFFC00000}, std::uint64_t{0x7F800001}, std::uint64_t{0xFFFFFFFF}})
        CHECK(accepts(fp32, nan, w));
    CHECK(refused(fp32, nan, kOne) == "nan_mismatch");
    CHECK(refused(fp32, nan, kInf) == "nan_mismatch");
    // bit_exact with a NaN word: any NaN.
    const Acceptance bits_nan{0x7FC00001, 0x7FC00001, kAcceptBits | kAcceptNan};
    CHECK(accepts(fp32, bits_nan, 0xFFC00000));
    CHECK(refused(fp32, bits_nan, kOne) == "nan_mismatch");
    // kAcceptBits without kAcceptNan refuses even its own NaN word's neighbours, and a number.
    CHECK(refused(fp32, {kOne, kOne, kAcceptBits}, kQnan) == "nan_mismatch");
}

TEST_CASE("acceptance: kAcceptBits is lo itself, bit for bit", "[compare][linear]") {
    const Acceptance b{kOne, kOne, kAcceptBits};
    CHECK(accepts(fp32, b, kOne));
    CHECK(refused(fp32, b, 0x3F800001) == "bits");
    CHECK(refused(fp32, b, kInf) == "bits");
    // lo only: hi is not an interval's end under kAcceptBits.
    CHECK(refused(fp32, {kOne, 0x3F800001, kAcceptBits}, 0x3F800001) == "bits");
}

TEST_CASE("acceptance entries read at the output width, and their text", "[compare][linear]") {
    std::vector<std::uint8_t> acc;
    for (std::uint64_t w : {0x3F7Full, 0x3F81ull}) suites::put_word(acc, w, 2);
    acc.push_back(kAcceptNan);
    for (std::uint64_t w : {0xBC00ull, 0xBC00ull}) suites::put_word(acc, w, 2);
    acc.push_back(kAcceptBits);
    const auto a0 = acceptance_at(acc, 0, 2), a1 = acceptance_at(acc, 1, 2);
    CHECK((a0.lo == 0x3F7F && a0.hi == 0x3F81 && a0.flags == kAcceptNan));
    CHECK((a1.lo == 0xBC00 && a1.hi == 0xBC00 && a1.flags == kAcceptBits));
    CHECK_THROWS_AS(acceptance_at(acc, 2, 2), std::out_of_range);
    const auto &bf16 = F(NINFER_FORMAT_bf16), &fp16 = F(NINFER_FORMAT_fp16);
    CHECK(acceptance_words(bf16, a0) == "[3f7f, 3f81]");
    CHECK(acceptance_values(bf16, a0) == "[0.99609375, 1.0078125] or any NaN");
    CHECK(acceptance_words(fp16, a1) == "bc00");
    CHECK(acceptance_values(fp16, a1) == "-1");
    CHECK(acceptance_values(fp32, {kQnan, kQnan, kAcceptNan}) == "any NaN");
}

TEST_CASE("compare a linear reply under its acceptance", "[compare][linear]") {
    // x = {1, 2^-30}: y0 = 1 + 2^-30 (correctly rounded: 1), y1 = 1 - 2^-30 (correctly rounded: 1).
    const float x1 = std::ldexp(1.0f, -30);
    const std::vector<Acceptance> acc = {{kOne, 0x3F800001, 0}, {0x3F7FFFFF, kOne, 0}};
    const auto c = linear_case(1.0f, x1, {kOne, kOne}, acc);

    SECTION("the expected words: the fast path") {
        const auto cmp = compare_reply(c, reply_of({kOne, kOne}), true, 8);
        CHECK(cmp.status == reports::Status::pass);
        CHECK(cmp.elements == 2);
        CHECK(cmp.mismatches == 0);
    }
    SECTION("other words inside the intervals pass") {
        const auto cmp = compare_reply(c, reply_of({0x3F800001, 0x3F7FFFFF}), true, 8);
        CHECK(cmp.status == reports::Status::pass);
        CHECK(cmp.mismatches == 0);
    }
    SECTION("-0 for +0 passes an interval") {
        const auto z = linear_case(0.0f, 0.0f, {kPosZero, kPosZero}, {{kPosZero, kPosZero, 0}, {kPosZero, kPosZero, 0}});
        CHECK(compare_reply(z, reply_of({kNegZero, kNegZero}), true, 8).status == reports::Status::pass);
    }
    SECTION("a word outside: the element, its interval, the oracle's explanation") {
        const auto cmp = compare_reply(c, reply_of({kOne, 0x3F800001}), true, 8);
        CHECK(cmp.status == reports::Status::fail);
        CHECK(cmp.mismatches == 1);
        CHECK(cmp.classes.at("out_of_bound") == 1);
        REQUIRE(cmp.first.size() == 1);
        const auto &m = cmp.first[0];
        CHECK(m.index == 1);
        CHECK(m.plane == "output");
        CHECK(m.location == "row 0, column 1");
        CHECK(m.expected == "[3f7fffff, 3f800000]");
        CHECK(m.expected_value == "[0.999999940395355224609375, 1]");
        CHECK(m.actual == "3f800001");
        CHECK(m.actual_value == "1.00000011920928955078125");
        CHECK(m.cls == "out_of_bound");
        CHECK(m.inputs == std::vector<std::string>{"0000803f000080bf", "0000803f00008030"});
        CHECK(m.input_value == "weight fp32 row 1, activation fp32 row 0, K = 2");
        // linear_explain: the exact value 1 - 2^-30 and its error.
        CHECK_FALSE(m.exact_value.empty());
        CHECK(m.criterion.find("linear.correctly_rounded") != std::string::npos);
        REQUIRE(m.error_ulps.has_value());
        CHECK(*m.error_ulps > 1.0);
        CHECK(*m.error_ulps < 2.1);  // (2^-23 + 2^-30) / 2^-24 at y_exact = 1 - 2^-30
        CHECK_FALSE(m.bound_fraction.has_value());  // correctly_rounded has no bound
    }
    SECTION("a NaN where numbers are accepted") {
        const auto cmp = compare_reply(c, reply_of({kQnan, kOne}), true, 8);
        CHECK(cmp.classes.at("nan_mismatch") == 1);
        CHECK(cmp.first.at(0).location == "row 0, column 0");
    }
    SECTION("a short reply is a size mismatch, its words still compared") {
        const auto cmp = compare_reply(c, reply_of({0x40000000}), true, 8);
        CHECK(cmp.status == reports::Status::fail);
        CHECK(cmp.classes.at("size_mismatch") == 1);
        CHECK(cmp.classes.at("out_of_bound") == 1);
        CHECK(cmp.first.at(0).expected == "8 bytes");
    }
    SECTION("without acceptance entries: the expected words bit for bit") {
        auto bits = c;
        bits.expect.accept.clear();
        const auto cmp = compare_reply(bits, reply_of({0x3F800001, kOne}), true, 8);
        CHECK(cmp.classes.at("bits") == 1);
        CHECK(cmp.first.at(0).expected == "3f800000");
    }
    SECTION("a refusal where a result is expected is a status mismatch, as for every op") {
        Reply r;
        r.outcome = Outcome::returned;
        r.status = NINFER_E_UNSUPPORTED;
        const auto cmp = compare_reply(c, r, false, 8);
        CHECK(cmp.status == reports::Status::fail);
        CHECK(cmp.classes.at("unexpected_error") == 1);
    }
}

TEST_CASE("every failing element counts, only the first max_mismatches are kept and explained", "[compare][linear]") {
    // 6 activation rows, every output element off by 2^20 ulps.
    std::vector<std::uint64_t> expected(12, kOne);
    std::vector<Acceptance> acc(12, Acceptance{kOne, kOne, 0});
    const auto c = linear_case(1.0f, 0.0f, expected, acc);
    const auto cmp = compare_reply(c, reply_of(std::vector<std::uint64_t>(12, 0x3F900000)), true, 3);
    CHECK(cmp.mismatches == 12);
    CHECK(cmp.classes.at("out_of_bound") == 12);
    REQUIRE(cmp.first.size() == 3);
    CHECK(cmp.first[2].location == "row 1, column 0");
    for (const auto &m : cmp.first) CHECK(m.error_ulps.has_value());
}

TEST_CASE("a GGUF weight row is shown as its blocks' bytes", "[compare][linear]") {
    // q4_0, N = 1, K = 32: one block, d = 1.0 (fp16 3c00), every nibble 8 (value 0): y = 0.
    suites::Case c;
    c.id = "linear.forward_error_bound/q4_0";
    c.rule = "linear.forward_error_bound";
    c.op = NINFER_OP_linear;
    c.format = NINFER_FORMAT_gguf_q4_0;
    c.layout = NINFER_LAYOUT_ggml_blocks_v1;
    c.profile = NINFER_PROFILE_f32_accumulate;
    c.shape = {1, 32};
    c.count = 1;
    auto &w = c.input(NINFER_PLANE_PAYLOAD);
    w = {0x00, 0x3c};
    w.resize(18, 0x88);
    c.inputs.push_back({NINFER_PLANE_ACTIVATION, NINFER_FORMAT_fp32, {}});
    for (int i = 0; i < 32; ++i) suites::put_word(c.input(NINFER_PLANE_ACTIVATION), kOne, 4);
    c.expect.outputs.push_back({NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, {}});
    suites::put_word(c.expect.output(NINFER_PLANE_OUTPUT), kPosZero, 4);
    for (std::uint64_t x : {kPosZero, kPosZero}) suites::put_word(c.expect.accept, x, 4);
    c.expect.accept.push_back(0);
    const auto cmp = compare_reply(c, reply_of({kOne}), true, 8);
    REQUIRE(cmp.first.size() == 1);
    const auto &m = cmp.first[0];
    CHECK(m.cls == "out_of_bound");
    CHECK(m.inputs.at(0) == "003c" + std::string(32, '8'));
    CHECK(m.input_value == "weight gguf_q4_0 row 0, activation fp32 row 0, K = 32");
    CHECK(m.exact_value == "0");
    CHECK(m.error_ulps == std::ldexp(1.0, 149));  // ulps of the smallest subnormal at y_exact = 0
    CHECK(m.bound_fraction == std::numeric_limits<double>::infinity());  // S = 0: the bound is 0
}
