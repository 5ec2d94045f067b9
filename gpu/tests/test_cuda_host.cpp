// SPDX-License-Identifier: Apache-2.0
// NVIDIA's host conversions (cuda_host) against the MPFR oracle: every word of every 4-, 8- and
// 16-bit source domain, and for fp32 sources the boundary/tie/threshold set of the reference
// cross-check plus seeded random words (NINFER_SEED, NINFER_CUDA_HOST_INPUTS). Every departure is
// classified (NaN input, infinite input, negative input to an unsigned target, overflow, tie,
// word outside the format, other) and
// printed with examples: gpu/README.md "cuda-host: where it meets the spec and where it departs"
// records these figures. The test fails when a departure appears outside the documented classes.
#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_host_codecs.hpp"
#include "fp32_inputs.hpp"
#include "departure_survey.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace {

using namespace ninfer;
using namespace ninfer::gpu_tests;

Survey survey_conversion(const oracle::Conversion &c, std::uint64_t fp32_total) {
    Survey s("convert." + std::string(c.name), "nvidia");
    const auto &sf = oracle::word_format(c.src);
    std::vector<std::uint64_t> inputs;
    if (sf.bits <= 16) {
        for (std::uint64_t w = 0; w < (1ull << (8 * sf.bytes())); ++w) inputs.push_back(w);
    } else {
        std::uint64_t midpoints = 0;
        auto words = testing::boundary_inputs(oracle::word_format(c.dst), midpoints);
        testing::add_random(words, std::max<std::uint64_t>(fp32_total, words.size()), oracle::word_format(c.dst),
                            env_or("NINFER_SEED", 20261129) + c.id);
        inputs.assign(words.begin(), words.end());
    }
    for (std::uint64_t w : inputs) {
        ++s.inputs;
        const std::uint64_t expected = oracle::convert_word(c, w);
        const std::uint64_t actual = gpu::cuda_host_convert(c.id, w);
        if (!oracle::conversion_accepts(c, w, expected, actual)) s.add(classify_departure(c, w, expected), w, expected, actual);
    }
    return s;
}

}  // namespace

TEST_CASE("cuda_host conversions against the oracle: departures only where gpu/README.md documents them",
          "[cuda_host][survey]") {
    const std::uint64_t total = env_or("NINFER_CUDA_HOST_INPUTS", 1000000);
    std::printf("cuda_host survey: seed=%llu, %llu fp32 inputs per conversion (include this in bug reports)\n",
                static_cast<unsigned long long>(env_or("NINFER_SEED", 20261129)),
                static_cast<unsigned long long>(total));
    for (const auto &c : oracle::kConversions) {
        if (!gpu::cuda_host_has_conversion(c.id)) {
            std::printf("convert.%-30s not offered by NVIDIA's headers\n", std::string(c.name).c_str());
            continue;
        }
        const Survey s = survey_conversion(c, total);
        s.print();
        INFO(s.rule);
        // Finite, in-range inputs are rounded correctly: departures are only about specials,
        // thresholds and words outside the format (the classes gpu/README.md documents).
        CHECK(s.by_kind[kOther] == 0);
        CHECK(s.by_kind[kTie] == 0);
    }
}

TEST_CASE("cuda_host widenings decode every word exactly except NaN words", "[cuda_host][survey]") {
    for (const auto &f : oracle::kWordFormats) {
        if (!gpu::cuda_host_has_decode(f.id)) continue;
        Survey s("decode." + std::string(f.name), "nvidia");
        for (std::uint64_t w = 0; w < (1ull << (8 * f.bytes())); ++w) {
            ++s.inputs;
            const std::uint64_t expected = oracle::decode_to_binary64(f, w);
            const std::uint64_t actual = gpu::cuda_host_decode(f.id, w);
            if (expected == actual) continue;
            const std::uint8_t cls = oracle::word_class_byte(f, w) & 0x0F;
            const bool nan = cls == NINFER_CLASS_QNAN || cls == NINFER_CLASS_SNAN || cls == NINFER_CLASS_NAN;
            s.add(w > f.mask() ? kOutside : nan ? kNanInput : kOther, w, expected, actual);
        }
        s.print();
        INFO(s.rule);
        CHECK(s.by_kind[kOther] == 0);
    }
}
