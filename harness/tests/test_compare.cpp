// SPDX-License-Identifier: Apache-2.0
// Comparison and mismatch classes (harness/compare.hpp). Expected classes and locations are
// worked by hand from the formats' bit layouts and storage-layouts.md Section 3.
#include <catch2/catch.hpp>

#include "ninfer/abi/word_classes.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"

using namespace ninfer;
using namespace ninfer::harness;
using suites::NanPolicy;

namespace {

const oracle::WordFormat &F(std::uint32_t id) { return oracle::word_format(id); }
const oracle::Conversion &C(std::uint32_t id) { return oracle::conversion(id); }

std::string cls(const oracle::WordFormat &f, std::uint64_t e, std::uint64_t a) {
    return mismatch_class_name(classify_word_mismatch(f, nullptr, 0, e, a));
}

suites::Case word_case(std::uint32_t conversion, std::vector<std::uint64_t> in, std::vector<std::uint64_t> out) {
    const auto &c = C(conversion);
    suites::Case k;
    k.id = "convert.test/x";
    k.rule = "convert.test";
    k.op = NINFER_OP_convert;
    k.format = c.dst;
    k.format_in = c.src;
    k.method = c.id;
    k.count = in.size();
    for (auto w : in) suites::put_word(k.input(NINFER_PLANE_WORDS), w, F(c.src).bytes());
    for (auto w : out) suites::put_word(k.expect.output(NINFER_PLANE_WORDS), w, F(c.dst).bytes());
    return k;
}

Reply returned(std::vector<std::uint64_t> words, int bytes, std::int32_t status = NINFER_OK,
               std::uint32_t plane = NINFER_PLANE_WORDS) {
    Reply r;
    r.outcome = Outcome::returned;
    r.status = status;
    r.outputs.push_back({plane, 0, {}});
    for (auto w : words) suites::put_word(r.outputs[0].bytes, w, bytes);
    return r;
}

}  // namespace

TEST_CASE("word geometry of IEEE, FN, E8M0 and binary64 words") {
    CHECK(word_is_nan(F(NINFER_FORMAT_bf16), 0x7fc1));
    CHECK_FALSE(word_is_nan(F(NINFER_FORMAT_bf16), 0x7f80));
    CHECK(word_is_inf(F(NINFER_FORMAT_bf16), 0xff80));
    CHECK(word_is_nan(F(NINFER_FORMAT_e4m3fn), 0xff));
    CHECK_FALSE(word_is_nan(F(NINFER_FORMAT_e4m3fn), 0x7e));
    CHECK(word_is_nan(F(NINFER_FORMAT_e8m0), 0xff));
    CHECK_FALSE(word_is_zero(F(NINFER_FORMAT_e8m0), 0x00));  // 2^-127, not zero
    CHECK(word_is_nan(oracle::kBinary64, 0x7ff8000000000000ull));
    CHECK(word_is_subnormal(F(NINFER_FORMAT_fp16), 0x8001));
    CHECK(largest_finite_like(F(NINFER_FORMAT_bf16), 0x8000) == 0xff7f);
    CHECK(largest_finite_like(F(NINFER_FORMAT_e4m3fn), 0x00) == 0x7e);    // 448
    CHECK(largest_finite_like(F(NINFER_FORMAT_e5m2), 0x80) == 0xfb);      // -57344
    CHECK(largest_finite_like(F(NINFER_FORMAT_e2m1), 0x0) == 0x7);        // 6
    CHECK(largest_finite_like(F(NINFER_FORMAT_ue4m3), 0x0) == 0x7e);
    CHECK(ulp_distance(F(NINFER_FORMAT_bf16), 0x0000, 0x8000) == 1);
    CHECK(ulp_distance(F(NINFER_FORMAT_bf16), 0x0001, 0x8001) == 3);
    CHECK(ulp_distance(F(NINFER_FORMAT_bf16), 0x3f80, 0x3f81) == 1);
}

TEST_CASE("NaN policies") {
    const auto &bf16 = F(NINFER_FORMAT_bf16);
    CHECK(words_match(bf16, NanPolicy::exact, 0x7fc1, 0x7fc1));
    CHECK_FALSE(words_match(bf16, NanPolicy::exact, 0x7fc1, 0x7fc0));
    CHECK(words_match(bf16, NanPolicy::same_sign, 0x7fc1, 0x7fc5));
    CHECK_FALSE(words_match(bf16, NanPolicy::same_sign, 0x7fc1, 0xffc1));
    // The NaN principle (oracle/README.md): a converted NaN is quiet. A signalling NaN of the
    // right sign is no substitute for a quiet one (numpy's fp32 -> fp16 0x7F800001 -> 0x7C01).
    CHECK_FALSE(words_match(bf16, NanPolicy::same_sign, 0x7fc1, 0x7f81));
    CHECK_FALSE(words_match(F(NINFER_FORMAT_fp16), NanPolicy::same_sign, 0x7e00, 0x7c01));
    CHECK_FALSE(words_match(bf16, NanPolicy::any, 0x7fc1, 0xff81));
    // ... unless it is the expected word itself (a widening that keeps every bit).
    CHECK(words_match(F(NINFER_FORMAT_fp32), NanPolicy::same_sign, 0x7f802000, 0x7f802000));
    // A widening that quiets a signalling NaN (torch, F16C, V8) matches: quiet, same sign.
    CHECK(words_match(F(NINFER_FORMAT_fp32), NanPolicy::same_sign, 0x7f802000, 0x7fc02000));
    // Formats without a quiet bit: every NaN counts as quiet.
    CHECK(words_match(F(NINFER_FORMAT_e4m3fn), NanPolicy::any, 0x7f, 0xff));
    CHECK_FALSE(words_match(F(NINFER_FORMAT_e4m3fn), NanPolicy::same_sign, 0x7f, 0xff));
    CHECK(words_match(bf16, NanPolicy::any, 0x7fc1, 0xffc1));
    CHECK_FALSE(words_match(bf16, NanPolicy::any, 0x7fc1, 0x7f80));  // infinity is no NaN
    CHECK_FALSE(words_match(bf16, NanPolicy::any, 0x3f80, 0x3f81));
}

TEST_CASE("one class per kind of wrong word") {
    const auto &bf16 = F(NINFER_FORMAT_bf16);
    CHECK(cls(bf16, 0x3f80, 0x3f81) == "off_by_one_ulp");
    CHECK(cls(bf16, 0x3f80, 0x4000) == "gross");
    CHECK(cls(bf16, 0x7fc0, 0x7f80) == "nan_vs_number");
    CHECK(cls(bf16, 0x3f80, 0x7fc0) == "nan_vs_number");
    CHECK(cls(bf16, 0x7fc1, 0x7fc0) == "nan_payload");
    // What actually happened to a NaN: sign, quiet bit, payload (in this order).
    CHECK(cls(bf16, 0x7fc1, 0xffc1) == "nan_sign");
    CHECK(cls(bf16, 0x7fc1, 0xff81) == "nan_sign");
    CHECK(cls(bf16, 0x7f81, 0x7fc1) == "nan_quieted");
    CHECK(cls(F(NINFER_FORMAT_fp16), 0x7e00, 0x7c01) == "nan_not_quieted");
    CHECK(cls(F(NINFER_FORMAT_e4m3fn), 0xff, 0x7f) == "nan_sign");
    CHECK(cls(bf16, 0x0000, 0x8000) == "zero_sign");
    CHECK(cls(bf16, 0x0001, 0x0000) == "flushed_subnormal");
    CHECK(cls(bf16, 0x8080, 0x8000) == "flushed_subnormal");  // smallest normal, rounded up from below
    CHECK(cls(bf16, 0x3f80, 0x0000) == "gross");
    CHECK(cls(bf16, 0x7f7f, 0x7f80) == "saturation_vs_infinity");
    CHECK(cls(bf16, 0xff80, 0xff7f) == "infinity_vs_saturation");
    CHECK(cls(F(NINFER_FORMAT_e5m2), 0x7b, 0x7c) == "saturation_vs_infinity");
    CHECK(cls(F(NINFER_FORMAT_e4m3fn), 0x7f, 0x7e) == "nan_vs_saturation");
    CHECK(cls(F(NINFER_FORMAT_e4m3fn), 0x7e, 0x7f) == "nan_vs_saturation");
    CHECK(cls(bf16, 0x3f80, 0x13f80) == "gross");  // wider than the format
}

TEST_CASE("a wrong tie side needs the oracle's tie") {
    const auto &c = C(NINFER_CONVERSION_fp32_to_bf16_rne);
    const auto &bf16 = F(NINFER_FORMAT_bf16);
    // 0x3f808000 = 1 + 2^-8, halfway between bf16 1 (3f80) and 1 + 2^-7 (3f81).
    CHECK(mismatch_class_name(classify_word_mismatch(bf16, &c, 0x3f808000, 0x3f80, 0x3f81)) ==
          std::string("wrong_tie_side"));
    // 0x3f818001 lies above the tie between 3f81 and 3f82: 3f81 is one ulp off, no tie.
    CHECK(mismatch_class_name(classify_word_mismatch(bf16, &c, 0x3f818001, 0x3f82, 0x3f81)) ==
          std::string("off_by_one_ulp"));
}

TEST_CASE("verdict, class byte and status classes") {
    CHECK(classify_verdict_mismatch(NINFER_VERDICT_VALID, NINFER_VERDICT_NEGATIVE_ZERO) == MismatchClass::valid_refused);
    CHECK(classify_verdict_mismatch(NINFER_VERDICT_NEGATIVE_ZERO, NINFER_VERDICT_VALID) == MismatchClass::invalid_accepted);
    CHECK(classify_verdict_mismatch(NINFER_VERDICT_NEGATIVE_ZERO, NINFER_VERDICT_NEGATIVE) == MismatchClass::wrong_reason);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_QNAN, NINFER_CLASS_SNAN) == MismatchClass::nan_not_quieted);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_SNAN, NINFER_CLASS_QNAN) == MismatchClass::nan_quieted);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_QNAN, NINFER_CLASS_QNAN | NINFER_CLASS_SIGN) == MismatchClass::nan_sign);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_QNAN, NINFER_CLASS_INFINITE) == MismatchClass::nan_vs_number);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_ZERO, NINFER_CLASS_ZERO | NINFER_CLASS_SIGN) == MismatchClass::zero_sign);
    CHECK(classify_class_byte_mismatch(NINFER_CLASS_SUBNORMAL, NINFER_CLASS_ZERO) == MismatchClass::flushed_subnormal);
    CHECK(classify_status_mismatch(NINFER_OK, 0, NINFER_E_SIZE, 0) == MismatchClass::unexpected_error);
    CHECK(classify_status_mismatch(NINFER_E_SIZE, 0, NINFER_OK, 0) == MismatchClass::missing_error);
    CHECK(classify_status_mismatch(NINFER_E_SIZE, 0, NINFER_E_LAYOUT, 0) == MismatchClass::wrong_reason);
    CHECK(status_text(NINFER_E_CONVERSION) == "NINFER_E_CONVERSION");
}

TEST_CASE("compare_reply: outcomes, lies and statuses") {
    auto k = word_case(NINFER_CONVERSION_fp32_to_bf16_rne, {0x3f800000}, {0x3f80});
    Reply crash;
    crash.outcome = Outcome::crash;
    crash.message = "killed by SIGSEGV";
    CHECK(compare_reply(k, crash, true, 8).status == reports::Status::crash);
    Reply timeout;
    timeout.outcome = Outcome::timeout;
    CHECK(compare_reply(k, timeout, true, 8).status == reports::Status::timeout);
    const auto lie = compare_reply(k, returned({}, 2, NINFER_E_UNSUPPORTED), true, 8);
    CHECK(lie.status == reports::Status::error);
    CHECK(lie.message.find("declared capability but returned unsupported") == 0);
    const auto refused = compare_reply(k, returned({}, 2, NINFER_E_INTERNAL), true, 8);
    CHECK(refused.status == reports::Status::fail);
    CHECK(refused.classes.at("unexpected_error") == 1);
    CHECK(compare_reply(k, returned({0x3f80}, 2), true, 8).status == reports::Status::pass);

    auto err = k;
    err.expect.status = NINFER_E_INVALID_PAYLOAD;
    err.expect.detail = NINFER_DETAIL_NONZERO_GAP;
    err.expect.outputs.clear();
    Reply r = returned({}, 2, NINFER_E_INVALID_PAYLOAD);
    r.detail = NINFER_DETAIL_NONZERO_GAP;
    CHECK(compare_reply(err, r, true, 8).status == reports::Status::pass);
    r.detail = NINFER_DETAIL_NONZERO_PADDING;
    const auto wrong_detail = compare_reply(err, r, true, 8);
    CHECK(wrong_detail.status == reports::Status::fail);
    CHECK(wrong_detail.classes.at("wrong_reason") == 1);
    // Issue 35, item 2: the codes as fields beside the words.
    REQUIRE(wrong_detail.first.size() == 1);
    CHECK(wrong_detail.first[0].status_codes ==
          reports::StatusCodes{.expected = NINFER_E_INVALID_PAYLOAD, .expected_detail = NINFER_DETAIL_NONZERO_GAP,
                               .actual = NINFER_E_INVALID_PAYLOAD, .actual_detail = NINFER_DETAIL_NONZERO_PADDING});
    CHECK(compare_reply(err, returned({0x3f80}, 2), true, 8).classes.at("missing_error") == 1);
    err.expect.detail = 0;  // any detail
    CHECK(compare_reply(err, r, true, 8).status == reports::Status::pass);
}

TEST_CASE("compare_reply: every mismatch counted, the first N kept, sizes checked") {
    std::vector<std::uint64_t> in(20, 0x3f800000), out(20, 0x3f80), wrong(20, 0x3f81);
    const auto k = word_case(NINFER_CONVERSION_fp32_to_bf16_rne, in, out);
    const auto cmp = compare_reply(k, returned(wrong, 2), true, 3);
    CHECK(cmp.status == reports::Status::fail);
    CHECK(cmp.elements == 20);
    CHECK(cmp.mismatches == 20);
    REQUIRE(cmp.first.size() == 3);
    CHECK(cmp.first[2].index == 2);
    CHECK(cmp.first[2].location == "element 2");
    CHECK(cmp.first[0].inputs == std::vector<std::string>{"3f800000"});
    CHECK(cmp.first[0].expected == "3f80");
    CHECK(cmp.first[0].actual == "3f81");
    CHECK(cmp.classes.at("off_by_one_ulp") == 20);
    const auto short_reply = compare_reply(k, returned({0x3f80}, 2), true, 8);
    CHECK(short_reply.status == reports::Status::fail);
    CHECK(short_reply.classes.at("size_mismatch") == 1);
}

TEST_CASE("compare_reply: NaN policy of the case") {
    auto k = word_case(NINFER_CONVERSION_fp32_to_fp16_rne, {0x7fc00001}, {0x7e00});
    k.nan = NanPolicy::same_sign;
    const auto accepted = compare_reply(k, returned({0x7e01}, 2), true, 8);
    CHECK(accepted.status == reports::Status::pass);
    // The accepted NaN is recorded, with sign and kind.
    CHECK(accepted.nan_accepted == 1);
    REQUIRE(accepted.nan_accepted_first.size() == 1);
    CHECK(accepted.nan_accepted_first[0].expected == "7e00");
    CHECK(accepted.nan_accepted_first[0].actual == "7e01");
    CHECK(accepted.nan_accepted_first[0].expected_value == "+qnan");
    CHECK(accepted.nan_accepted_first[0].actual_value == "+qnan(0x1)");
    CHECK(compare_reply(k, returned({0x7e00}, 2), true, 8).nan_accepted == 0);
    CHECK(compare_reply(k, returned({0xfe00}, 2), true, 8).classes.at("nan_sign") == 1);
    CHECK(compare_reply(k, returned({0x7c01}, 2), true, 8).classes.at("nan_not_quieted") == 1);
    k.nan = NanPolicy::exact;
    const auto payload = compare_reply(k, returned({0x7e01}, 2), true, 8);
    CHECK(payload.classes.at("nan_payload") == 1);
    REQUIRE(payload.first.size() == 1);
    CHECK(payload.first[0].expected_value == "+qnan");
    CHECK(payload.first[0].actual_value == "+qnan(0x1)");
}

TEST_CASE("NaN words print with sign and kind") {
    CHECK(nan_text(F(NINFER_FORMAT_fp32), 0xffc00000) == "-qnan");
    CHECK(nan_text(F(NINFER_FORMAT_fp32), 0x7f800001) == "+snan(0x1)");
    CHECK(nan_text(F(NINFER_FORMAT_fp16), 0xfe05) == "-qnan(0x5)");
    CHECK(nan_text(F(NINFER_FORMAT_e4m3fn), 0xff) == "-nan");
    CHECK(nan_text(F(NINFER_FORMAT_e8m0), 0xff) == "nan");
    CHECK(nan_text(oracle::kBinary64, 0x7ff8000000000000ull) == "+qnan");
}

TEST_CASE("attribution: a payload mismatch points at the rule of its plane and field") {
    // q4 [1,64] layout_encode: codes 0..7 repeated, scale 1.0.
    const auto &f = *oracle::find_id(oracle::kGroupedFormats, NINFER_FORMAT_q4_g64_fp16);
    oracle::GroupedMatrix m{1, 64, {}, {0x3C00}};
    for (int i = 0; i < 64; ++i) m.codes.push_back(static_cast<std::int8_t>(i % 8));
    suites::Case k;
    k.op = NINFER_OP_layout_encode;
    k.layout = NINFER_LAYOUT_row_split_k128_v1;
    k.format = k.format_in = f.id;
    k.shape = {1, 64};
    k.expect.output(NINFER_PLANE_PAYLOAD) = oracle::row_split_encode(f, m);
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    auto &out0 = suites::plane_bytes(r.outputs, NINFER_PLANE_PAYLOAD);
    // Swapped nibbles in every byte of the base plane.
    out0 = k.expect.output(NINFER_PLANE_PAYLOAD);
    for (std::size_t i = 0; i < 32; ++i) out0[i] = static_cast<std::uint8_t>(out0[i] << 4 | out0[i] >> 4);
    CHECK(blame_grouped_mismatch(k, r, 0, 0) == "row_split.nibble_order");
    auto cmp = compare_reply(k, r, true, 8);
    REQUIRE_FALSE(cmp.first.empty());
    CHECK(cmp.first[0].blame == "row_split.nibble_order");
    // A reply one byte short reads as zeros past its end: the size and the field are both named.
    out0.pop_back();
    CHECK(blame_grouped_mismatch(k, r, 0, 0) == "row_split.nibble_order");
    const auto short_cmp = compare_reply(k, r, true, 8);
    CHECK(short_cmp.classes.at("size_mismatch") == 1);
    REQUIRE(short_cmp.first.size() >= 2);
    CHECK(short_cmp.first[1].blame == "row_split.nibble_order");
    // A padding lane of the partial group (lanes 64..127 of group 1 in a 128-wide row).
    out0 = k.expect.output(NINFER_PLANE_PAYLOAD);
    out0[40] = 0x11;  // group 1 lanes 16, 17: padding (K = 64)
    CHECK(blame_grouped_mismatch(k, r, 0, 40) == "row_split.padding");
    // A gap byte, a scale word.
    const auto g = *oracle::row_split_geometry(f, 1, 64);
    out0 = k.expect.output(NINFER_PLANE_PAYLOAD);
    out0[g.base_bytes] = 1;
    CHECK(blame_grouped_mismatch(k, r, 0, g.base_bytes) == "row_split.gaps");
    CHECK(blame_grouped_mismatch(k, r, 0, g.scale_offset) == "row_split.scale_plane");
    // A different code value is the case's own rule.
    out0 = k.expect.output(NINFER_PLANE_PAYLOAD);
    out0[0] ^= 0x01;
    CHECK(blame_grouped_mismatch(k, r, 0, 0).empty());
}

TEST_CASE("attribution: the first failing grouped_absmax group is explained by the oracle's steps") {
    const auto &f = *oracle::find_id(oracle::kGroupedFormats, NINFER_FORMAT_q4_g64_fp16);
    suites::Case k;
    k.op = NINFER_OP_quant_encode;
    k.method = NINFER_ENCODER_grouped_absmax;
    k.layout = NINFER_LAYOUT_row_split_k128_v1;
    k.format = f.id;
    k.format_in = NINFER_FORMAT_fp32;
    k.shape = {1, 64};
    // Lane 0: 7 (amax, scale 1); lane 1: 2.5, a tie that rounds to even 2.
    std::vector<std::uint32_t> x(64, 0);
    x[0] = 0x40E00000u;
    x[1] = 0x40200000u;
    for (auto w : x) suites::put_word(k.input(NINFER_PLANE_SOURCE), w, 4);
    const auto res = oracle::grouped_absmax(f, NINFER_FORMAT_fp32, 1, 64, k.input(NINFER_PLANE_SOURCE));
    REQUIRE(res.status == NINFER_OK);
    k.expect.output(NINFER_PLANE_PAYLOAD) = oracle::row_split_encode(f, res.m);
    auto wrong = res.m;
    wrong.codes[1] = 3;  // ties away from zero
    const auto actual = oracle::row_split_encode(f, wrong);
    const std::string t = explain_encoder_group(k, actual, 0);
    INFO(t);
    CHECK(t.find("amax32 40e00000 (7)") != std::string::npos);
    CHECK(t.find("scale16 3c00 (1)") != std::string::npos);
    CHECK(t.find("inv32 3f800000 (1)") != std::string::npos);
    CHECK(t.find("lane 1") != std::string::npos);
    CHECK(t.find("a tie, ties to even gives 2") != std::string::npos);
    CHECK(t.find("actual code 3") != std::string::npos);
}

TEST_CASE("locations: contiguous coordinates and row_split planes") {
    suites::Case k;
    k.op = NINFER_OP_layout_encode;
    k.layout = NINFER_LAYOUT_contiguous_le_v1;
    k.format = k.format_in = NINFER_FORMAT_bf16;
    k.shape = {2, 3, 4};
    CHECK(locate(k, 0, 2 * 17) == "coordinate [1,1,1] (element 17)");
    k.shape = {};
    CHECK(locate(k, 0, 0) == "element 0 (rank 0)");

    // storage-layouts.md worked example: q5 [2,130]: 4 groups/row, base 256, high 64 at 256,
    // scales 16 at 512.
    suites::Case q;
    q.op = NINFER_OP_layout_encode;
    q.layout = NINFER_LAYOUT_row_split_k128_v1;
    q.format = NINFER_FORMAT_q5_g64_fp16;
    q.shape = {2, 130};
    CHECK(locate(q, 0, 40) == "base plane row 0 group 1 lane 16 (column 80, byte 40)");
    CHECK(locate(q, 0, 300) == "high plane row 1 group 1 lane 32 (column 96, byte 300)");
    CHECK(locate(q, 0, 400) == "gap after the high plane (byte 400)");
    CHECK(locate(q, 0, 520) == "scale plane row 1 group 0 (byte 520)");
    CHECK(locate(q, 0, 528) == "byte 528 past the payload of 528 bytes");
    // Issue 35, item 2: the same places as fields (report v3 "where"), from the same place.
    using reports::Where;
    CHECK(locate_at(q, 0, 300).where == Where{.plane = "high", .row = 1, .group = 1, .lane = 32, .column = 96});
    CHECK(locate_at(q, 0, 520).where == Where{.plane = "scale", .row = 1, .group = 0});
    CHECK(locate_at(q, 0, 400).where == Where{.plane = "gap"});
    CHECK(locate_at(q, 0, 528).where.empty());
    // q4 [1,1]: base 32 bytes, a gap up to 256, no high plane, scales at 256.
    q.format = NINFER_FORMAT_q4_g64_fp16;
    q.shape = {1, 1};
    CHECK(locate(q, 0, 0) == "base plane row 0 group 0 lane 0 (column 0, byte 0)");
    CHECK(locate(q, 0, 100) == "gap after the base plane (byte 100)");
    CHECK(locate(q, 0, 258) == "scale plane row 0 group 1 (byte 258)");
}

TEST_CASE("compare_reply: buffer ops byte by byte with locations") {
    suites::Case k;
    k.op = NINFER_OP_layout_encode;
    k.layout = NINFER_LAYOUT_contiguous_le_v1;
    k.format = k.format_in = NINFER_FORMAT_bf16;
    k.shape = {2, 2};
    for (std::uint64_t w : {0x3f80, 0x8000, 0x7fc1, 0x0001}) suites::put_word(k.input(NINFER_PLANE_WORDS), w, 2);
    k.expect.output(NINFER_PLANE_PAYLOAD) = k.input(NINFER_PLANE_WORDS);
    Reply r = returned({0x3f80, 0x0000, 0x7fc0, 0x0001}, 2, NINFER_OK, NINFER_PLANE_PAYLOAD);
    const auto cmp = compare_reply(k, r, true, 8);
    CHECK(cmp.status == reports::Status::fail);
    CHECK(cmp.mismatches == 2);
    CHECK(cmp.classes.at("zero_sign") == 1);
    CHECK(cmp.classes.at("nan_payload") == 1);  // 7fc1 -> 7fc0: same sign, both quiet
    REQUIRE(cmp.first.size() == 2);
    CHECK(cmp.first[0].location == "coordinate [0,1] (element 1)");
    CHECK(cmp.first[0].inputs == std::vector<std::string>{"8000"});
    CHECK(cmp.first[0].plane == "payload");
    r.outputs[0].bytes.push_back(0);
    CHECK(compare_reply(k, r, true, 8).classes.at("size_mismatch") == 1);
}

TEST_CASE("compare_reply: output planes are compared by name and a mismatch names its plane") {
    // quant_decode of q8 [1,2]: codes, scales, values; the reply lists its planes in another order.
    suites::Case k;
    k.op = NINFER_OP_quant_decode;
    k.layout = NINFER_LAYOUT_row_split_k128_v1;
    k.format = NINFER_FORMAT_q8_g32_fp16;
    k.shape = {1, 2};
    k.input(NINFER_PLANE_PAYLOAD) = std::vector<std::uint8_t>(256, 0);
    k.expect.output(NINFER_PLANE_CODES) = {0x01, 0x02};
    k.expect.output(NINFER_PLANE_SCALES) = {0x00, 0x3c};
    k.expect.output(NINFER_PLANE_VALUES) = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40};
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    r.outputs = {{NINFER_PLANE_VALUES, 0, k.expect.output(NINFER_PLANE_VALUES)},
                 {NINFER_PLANE_SCALES, 0, {0x00, 0x40}},
                 {NINFER_PLANE_CODES, 0, k.expect.output(NINFER_PLANE_CODES)}};
    const auto cmp = compare_reply(k, r, true, 8);
    CHECK(cmp.status == reports::Status::fail);
    CHECK(cmp.mismatches == 1);
    REQUIRE(cmp.first.size() == 1);
    CHECK(cmp.first[0].plane == "scales");
    CHECK(cmp.first[0].location == "scale row 0 group 0");
    // A plane the reply lacks is an output of 0 bytes: a size mismatch named by the plane.
    r.outputs.erase(r.outputs.begin());
    r.outputs[0].bytes = k.expect.output(NINFER_PLANE_SCALES);
    const auto missing = compare_reply(k, r, true, 8);
    REQUIRE(missing.first.size() >= 1);
    CHECK(missing.classes.at("size_mismatch") == 1);
    CHECK(missing.first[0].plane == "values");
}

TEST_CASE("a subnormal input decoded or widened to zero is a flushed subnormal") {
    // bf16 0x0001 = 2^-133: a normal binary64 (0x37a0...), flushed to +0 by the subject.
    const auto &bf16 = F(NINFER_FORMAT_bf16);
    CHECK(classify_word_mismatch(oracle::kBinary64, nullptr, 0x0001, 0x37a0000000000000ull, 0, &bf16) ==
          MismatchClass::flushed_subnormal);
    CHECK(classify_word_mismatch(oracle::kBinary64, nullptr, 0x3f80, 0x3ff0000000000000ull, 0, &bf16) ==
          MismatchClass::gross);
}

TEST_CASE("block families: locations in nvfp4, FP8-row and GGUF planes, worked by hand") {
    // nvfp4 [256, 128]: code plane 16384 bytes, scales at 16384; word (n=130, g=5) lies at
    // (floor(130/128) * (128/64) + floor(5/4)) * 512 + (130%128 % 32) * 16 + floor(2/32) * 4 + 5 % 4 = 1569.
    suites::Case k;
    k.op = NINFER_OP_layout_encode;
    k.format = NINFER_FORMAT_nvfp4;
    k.layout = NINFER_LAYOUT_block_scale_k16_m128x4_v1;
    k.shape = {256, 128};
    CHECK(locate(k, 0, 16384 + 1569) == "scale plane word (row 130, group 5) (byte 17953)");
    CHECK(locate(k, 0, 70) == "code plane row 1 columns 12 (low nibble) and 13 (byte 70)");
    CHECK(locate(k, 0, 16384 + 2048 + 4) == "divisor 1 (byte 18436)");
    CHECK(locate_at(k, 0, 16384 + 1569).where == reports::Where{.plane = "scale", .row = 130, .group = 5});
    CHECK(locate_at(k, 0, 70).where == reports::Where{.plane = "code", .row = 1, .column = 12});
    CHECK(locate_at(k, 0, 16384 + 2048 + 4).where == reports::Where{.plane = "divisor", .element = 1});
    // row_interleaved_v1 [3, 4]: stride 6, bytes 4 and 5 of a row hold its multiplier.
    k.format = NINFER_FORMAT_fp8_e4m3fn_row_fp16;
    k.layout = NINFER_LAYOUT_row_interleaved_v1;
    k.shape = {3, 4};
    CHECK(locate(k, 0, 7) == "row 1 code column 1 (byte 7)");
    CHECK(locate(k, 0, 11) == "row 1 multiplier (byte 11)");
    // ggml_blocks_v1 q4_0 [2, 64]: rows of two 18-byte blocks.
    k.format = NINFER_FORMAT_gguf_q4_0;
    k.layout = NINFER_LAYOUT_ggml_blocks_v1;
    k.op = NINFER_OP_rows_select;
    k.shape = {2, 64};
    k.input(NINFER_PLANE_ROWS) = {};
    suites::put_word(k.input(NINFER_PLANE_ROWS), 0, 8);
    suites::put_word(k.input(NINFER_PLANE_ROWS), 2, 8);
    CHECK(locate(k, 0, 36 + 18 + 3) == "row 1 block 1 byte 3 (payload byte 57)");
}

TEST_CASE("block families: a VALUES mismatch shows the exact value and whether the word is within its rounding") {
    // nvfp4 [128, 64], one divisor 3.0f: element 0 is E2M1 0x2 (1.0) x E4M3 0x38 (1.0) / 3 = 1/3;
    // its binary32 rounding is 0x3eaaaaab, the word below (0x3eaaaaaa) is within rounding.
    suites::Case k;
    k.op = NINFER_OP_quant_decode;
    k.format = NINFER_FORMAT_nvfp4;
    k.layout = NINFER_LAYOUT_block_scale_k16_m128x4_v1;
    k.shape = {128, 64};
    k.expect.output(NINFER_PLANE_CODES) = std::vector<std::uint8_t>(128 * 64, 0);
    k.expect.output(NINFER_PLANE_CODES)[0] = 0x2;
    k.expect.output(NINFER_PLANE_SCALES) = std::vector<std::uint8_t>(128 * 4, 0);
    k.expect.output(NINFER_PLANE_SCALES)[0] = 0x38;
    k.expect.output(NINFER_PLANE_DIVISORS) = {0x00, 0x00, 0x40, 0x40};
    auto &values = k.expect.output(NINFER_PLANE_VALUES);
    values.assign(128 * 64 * 4, 0);
    values[0] = 0xab, values[1] = 0xaa, values[2] = 0xaa, values[3] = 0x3e;
    Reply r;
    r.outcome = Outcome::returned;
    r.status = NINFER_OK;
    for (auto name : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS, NINFER_PLANE_VALUES})
        r.outputs.push_back({static_cast<std::uint32_t>(name), 0, k.expect.output(name)});
    r.outputs[3].bytes[0] = 0xaa;
    auto cmp = compare_reply(k, r, true, 8);
    REQUIRE(cmp.first.size() == 1);
    CHECK(cmp.first[0].location == "value row 0 column 0");
    CHECK(cmp.first[0].exact_value == "1/3");
    CHECK_THAT(cmp.first[0].criterion, Catch::Contains("nearest-even") && Catch::Contains("is within rounding"));
    r.outputs[3].bytes[0] = 0xac;  // two steps from 1/3's rounding: outside
    cmp = compare_reply(k, r, true, 8);
    REQUIRE(cmp.first.size() == 1);
    CHECK_THAT(cmp.first[0].criterion, Catch::Contains("is not within rounding"));

    // gguf_q4_0, one block: d = 0x3800 (0.5), nibble 0x9 at element 0 -> (9 - 8) * 0.5 = 0.5 exactly.
    suites::Case g;
    g.op = NINFER_OP_quant_decode;
    g.format = NINFER_FORMAT_gguf_q4_0;
    g.layout = NINFER_LAYOUT_ggml_blocks_v1;
    g.shape = {32};
    auto &blk = g.input(NINFER_PLANE_PAYLOAD);
    blk.assign(18, 0x88);
    blk[0] = 0x00, blk[1] = 0x38, blk[2] = 0x89;
    auto &gv = g.expect.output(NINFER_PLANE_VALUES);
    gv.assign(32 * 4, 0);
    gv[3] = 0x3f;  // 0x3f000000 = 0.5
    Reply gr;
    gr.outcome = Outcome::returned;
    gr.status = NINFER_OK;
    gr.outputs.push_back({NINFER_PLANE_VALUES, 0, gv});
    gr.outputs[0].bytes[0] = 0x01;
    cmp = compare_reply(g, gr, true, 8);
    REQUIRE(cmp.first.size() == 1);
    CHECK(cmp.first[0].exact_value == "0.5");
    CHECK_THAT(cmp.first[0].criterion, Catch::Contains("ggml") && Catch::Contains("not within rounding"));
}

TEST_CASE("abi's word predicates read from the bits agree with the oracle's classes on every word of <= 16 bits") {
    // The one fast copy of the class of a word (abi/word_classes.hpp) that compare and sweep use,
    // held to the oracle's class bytes (tensor-formats.txt Section 1).
    for (const auto &f : oracle::kWordFormats) {
        if (f.bits > 16) continue;
        for (std::uint64_t w = 0; w <= f.mask(); ++w) {
            const std::uint8_t byte = oracle::word_class_byte(f, w);
            const std::uint8_t cls = abi::class_without_sign(byte);
            INFO(f.name << " word " << w);
            REQUIRE(abi::word_is_nan(f, w) == abi::class_is_nan(cls));
            REQUIRE(abi::word_is_inf(f, w) == (cls == NINFER_CLASS_INFINITE));
            REQUIRE(abi::word_is_zero(f, w) == (cls == NINFER_CLASS_ZERO || (f.special == abi::Special::INT && w == 0)));
            REQUIRE(abi::word_is_subnormal(f, w) == (cls == NINFER_CLASS_SUBNORMAL));
            if (f.has_sign && cls != NINFER_CLASS_INTEGER) REQUIRE(abi::word_is_negative(f, w) == ((byte & NINFER_CLASS_SIGN) != 0));
        }
    }
}
