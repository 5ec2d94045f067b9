// SPDX-License-Identifier: Apache-2.0
// gfloat RoundMode.StochasticOdd with srnumbits = 9 (sr_convention_gfloat_common.hpp).
#include "sr_convention_gfloat_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_gfloat_stochastic_odd";
    static constexpr auto &conversions = cv::kEverySr;
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) { return cv::gfloat_round<cv::Gfloat::odd, 9>(x, R); }
};
}  // namespace

NINFER_SR_CONVENTION(C)
