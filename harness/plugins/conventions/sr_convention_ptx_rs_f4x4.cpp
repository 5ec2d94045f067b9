// SPDX-License-Identifier: Apache-2.0
// PTX `cvt.rs.satfinite.e2m1x4.f32` (suites/SR.md "Conventions", [PTX]): 8 random bits added to
// the top 8 of the 22 discarded bits, the carry out rounds up, the rest dropped. Given the random
// plane, a lane takes the low 8 bits of its own value; drawing its own bits, one 32-bit rbits per
// 4 lanes: a, b (lanes 0, 1) the upper bytes of rbits' halves (rbits[31:24], rbits[15:8]), e, f
// (lanes 2, 3) the lower bytes (rbits[23:16], rbits[7:0]): which byte feeds which lane is our
// reading (PTX is silent), every lane its own byte.
#include "sr_convention_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_ptx_rs_f4x4";
    static constexpr std::uint32_t conversions[] = {NINFER_CONVERSION_fp32_to_e2m1_sr_satfinite};
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) {
        constexpr int k = 8;
        const cv::Cut c = cv::cut_at(x, x.q - k);
        const std::uint64_t kept = c.t >> k, discarded = c.t & 0xFFu;
        return {kept + ((discarded + cv::low_bits(R, k)) >> k), x.q};
    }
    static void draw(std::uint32_t *R, std::uint64_t n) {
        static constexpr int byte_of_lane[4] = {3, 1, 2, 0};
        std::uint32_t rbits = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i % 4 == 0) rbits = static_cast<std::uint32_t>(cv::own_generator()());
            R[i] = (rbits >> (8 * byte_of_lane[i % 4])) & 0xFFu;
        }
    }
};
}  // namespace

NINFER_SR_CONVENTION(C)
