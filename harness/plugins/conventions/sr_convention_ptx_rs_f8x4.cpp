// SPDX-License-Identifier: Apache-2.0
// PTX `cvt.rs.satfinite.{e4m3x4,e5m2x4}.f32` (suites/SR.md "Conventions", [PTX]): 16 random bits
// added to the top 16 of the 20 (e4m3) or 21 (e5m2) discarded bits, the carry out rounds up, the
// discarded bits below them dropped. Given the random plane, a lane takes the low 16 bits of its
// own value; drawing its own bits, one 32-bit rbits per 4 lanes: lanes a, b (0, 1) share
// rbits[31:16], lanes e, f (2, 3) share rbits[15:0] (a pair of lanes correlated by design).
#include "sr_convention_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_ptx_rs_f8x4";
    static constexpr std::uint32_t conversions[] = {NINFER_CONVERSION_fp32_to_e4m3fn_sr_satfinite,
                                                    NINFER_CONVERSION_fp32_to_e5m2_sr_satfinite};
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) {
        constexpr int k = 16;
        const cv::Cut c = cv::cut_at(x, x.q - k);  // kept bits and the top 16 discarded ones
        const std::uint64_t kept = c.t >> k, discarded = c.t & 0xFFFFu;
        return {kept + ((discarded + cv::low_bits(R, k)) >> k), x.q};
    }
    static void draw(std::uint32_t *R, std::uint64_t n) {
        std::uint32_t rbits = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i % 4 == 0) rbits = static_cast<std::uint32_t>(cv::own_generator()());
            R[i] = i % 4 < 2 ? rbits >> 16 : rbits & 0xFFFFu;
        }
    }
};
}  // namespace

NINFER_SR_CONVENTION(C)
