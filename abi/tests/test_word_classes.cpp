// SPDX-License-Identifier: Apache-2.0
// word_classes.hpp: the NaN and finite class bytes (plugin.h NINFER_CLASSES) and the largest
// finite word of every word format (tensor-formats.txt Section 1), against the spec's numbers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <string_view>

#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/word_classes.hpp"

using namespace ninfer::abi;

static_assert(largest_finite_word(*find_id(kWordFormats, NINFER_FORMAT_fp16)) == 0x7BFF);
static_assert(class_is_nan(NINFER_CLASS_QNAN | NINFER_CLASS_SIGN));

TEST_CASE("class_is_nan holds for QNAN, SNAN and NAN only, with or without the sign bit") {
    const std::map<std::uint8_t, bool> nan = {
        {NINFER_CLASS_ZERO, false},     {NINFER_CLASS_SUBNORMAL, false}, {NINFER_CLASS_NORMAL, false},
        {NINFER_CLASS_INFINITE, false}, {NINFER_CLASS_QNAN, true},       {NINFER_CLASS_SNAN, true},
        {NINFER_CLASS_NAN, true},       {NINFER_CLASS_INTEGER, false},   {NINFER_CLASS_OUTSIDE, false}};
    for (const auto &[cls, want] : nan) {
        CAPTURE(int{cls});
        CHECK(class_is_nan(cls) == want);
        CHECK(class_is_nan(static_cast<std::uint8_t>(cls | NINFER_CLASS_SIGN)) == want);
    }
}

TEST_CASE("class_is_finite holds for zero, subnormal and normal only, with or without the sign bit") {
    const std::map<std::uint8_t, bool> finite = {
        {NINFER_CLASS_ZERO, true},      {NINFER_CLASS_SUBNORMAL, true}, {NINFER_CLASS_NORMAL, true},
        {NINFER_CLASS_INFINITE, false}, {NINFER_CLASS_QNAN, false},     {NINFER_CLASS_SNAN, false},
        {NINFER_CLASS_NAN, false},      {NINFER_CLASS_INTEGER, false},  {NINFER_CLASS_OUTSIDE, false}};
    for (const auto &[cls, want] : finite) {
        CAPTURE(int{cls});
        CHECK(class_is_finite(cls) == want);
        CHECK(class_is_finite(static_cast<std::uint8_t>(cls | NINFER_CLASS_SIGN)) == want);
    }
    CHECK(class_without_sign(NINFER_CLASS_NORMAL | NINFER_CLASS_SIGN) == NINFER_CLASS_NORMAL);
}

TEST_CASE("largest_finite_word is the spec's largest finite word of every word format") {
    // tensor-formats.txt Section 1: the largest finite value of each format, as its word.
    const std::map<std::string_view, std::uint64_t> largest = {
        {"fp32", 0x7F7FFFFF}, {"bf16", 0x7F7F},  {"fp16", 0x7BFF}, {"int32", 0x7FFFFFFF}, {"e4m3fn", 0x7E},
        {"e5m2", 0x7B},       {"e2m1", 0x7},     {"e8m0", 0xFE},   {"ue4m3", 0x7E}};
    REQUIRE(largest.size() == kWordFormats.size());
    for (const auto &f : kWordFormats) {
        CAPTURE(f.name);
        REQUIRE(largest.count(f.name) == 1);
        CHECK(largest_finite_word(f) == largest.at(f.name));
    }
}
