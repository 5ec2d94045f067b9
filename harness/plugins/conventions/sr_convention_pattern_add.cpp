// SPDX-License-Identifier: Apache-2.0
// Noise added to the whole binary32 pattern (issue 34; suites/SR.md "Conventions", `pattern_add`):
// r = 23 - man_bits random bits added to the input's bit pattern as an integer, the sum then
// truncated to the target's grid. On a normal result it is the suite's own rule; on a subnormal
// result the random value spans only the input's last r places, so the higher dropped bits get
// no noise.
#include "sr_convention_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_pattern_add";
    static constexpr auto &conversions = cv::kEverySr;
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) {
        const std::uint64_t sum = x.magnitude + cv::low_bits(R, x.r());
        if (sum >= 0x7F800000u) return {1, 1024};  // past binary32's largest finite: saturates
        const cv::Lane y = cv::lane_of(static_cast<std::uint32_t>(sum), *x.t);
        return {cv::cut_at(y, y.q).t, y.q};  // truncated to the grid
    }
};
}  // namespace

NINFER_SR_CONVENTION(C)
