// SPDX-License-Identifier: Apache-2.0
// Capability matching: 0 is a wildcard, anything else must match.
#include <catch2/catch.hpp>

#include "ninfer/harness/subject.hpp"

using namespace ninfer::harness;

TEST_CASE("declared capabilities cover matching calls only", "[capabilities]") {
    std::vector<ninfer_capability_v2> caps{{NINFER_OP_convert, 0, 0, 0, NINFER_CONVERSION_fp32_to_bf16_rne, 0},
                                           {NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0, 0},
                                           {NINFER_OP_linear, 0, 0, 0, 0, 7}};
    CHECK(covers(caps, NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_bf16_rne));
    CHECK_FALSE(covers(caps, NINFER_OP_convert, NINFER_FORMAT_fp16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_fp16_rne));
    CHECK(covers(caps, NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0));
    CHECK_FALSE(covers(caps, NINFER_OP_decode, NINFER_FORMAT_fp16, 0, 0, 0));
    CHECK_FALSE(covers({}, NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, 0));
    // An operator's compute profile: a declared profile covers that profile only.
    CHECK(covers(caps, NINFER_OP_linear, NINFER_FORMAT_q8_g32_fp16, 0, 0, 0, 7));
    CHECK_FALSE(covers(caps, NINFER_OP_linear, NINFER_FORMAT_q8_g32_fp16, 0, 0, 0, 8));
}
