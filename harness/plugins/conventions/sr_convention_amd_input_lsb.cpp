// SPDX-License-Identifier: Apache-2.0
// AMD's software model of stochastic FP8 conversion (suites/SR.md "Conventions", [CK], [MIOpen]):
// `mantissa += rng & drop_mask`, then the dropped bits shifted out: the 32-bit random value's low
// bits added at the binary32 input's last place over every bit the result drops (more below the
// normal range; at most 32, the input's bits below them dropped). One 32-bit value per lane.
#include "sr_convention_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_amd_input_lsb";
    static constexpr auto &conversions = cv::kEverySr;
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) {
        const int drop = x.q - x.e;  // the bits of the mantissa the result drops
        if (drop <= 0) return {x.m << -drop, x.q};
        if (drop <= 32) return {(x.m + cv::low_bits(R, drop)) >> drop, x.q};
        const cv::Cut c = cv::cut_at(x, x.q - 32);  // a 32-bit mask: the input's bits below it dropped
        return {(c.t + R) >> 32, x.q};
    }
};
}  // namespace

NINFER_SR_CONVENTION(C)
