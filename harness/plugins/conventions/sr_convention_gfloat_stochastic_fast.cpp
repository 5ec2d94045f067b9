// SPDX-License-Identifier: Apache-2.0
// gfloat RoundMode.StochasticFast with srnumbits = 12 (sr_convention_gfloat_common.hpp).
#include "sr_convention_gfloat_common.hpp"

namespace {
namespace cv = ninfer::conventions;
struct C {
    static constexpr const char *name = "sr_convention_gfloat_stochastic_fast";
    static constexpr auto &conversions = cv::kEverySr;
    static cv::Grid round(const cv::Lane &x, std::uint32_t R) { return cv::gfloat_round<cv::Gfloat::fast, 12>(x, R); }
};
}  // namespace

NINFER_SR_CONVENTION(C)
