// SPDX-License-Identifier: Apache-2.0
// Shared by the NVIDIA surveys (test_cuda_host.cpp, test_cuda_device.cpp): why an
// implementation's word departs from the oracle's, tallied per rule with the first examples.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ninfer/abi/word_classes.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::gpu_tests {

/// An environment override of a figure (seed, input count), else the default.
inline std::uint64_t env_or(const char *name, std::uint64_t fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

enum Kind { kNanInput, kInfInput, kNegativeToUnsigned, kOverflow, kTie, kOutside, kOther, kKinds };
inline constexpr std::array<const char *, kKinds> kKindNames = {
    "nan_input", "inf_input", "negative_to_unsigned", "overflow", "tie", "outside", "other"};

/// Departures of one rule from the oracle, by kind, with the first examples of each.
struct Survey {
    Survey(std::string rule_id, std::string implementation) : rule(std::move(rule_id)), who(std::move(implementation)) {}
    std::string rule, who;
    std::uint64_t inputs = 0, departures = 0;
    std::array<std::uint64_t, kKinds> by_kind{};
    std::map<int, std::vector<std::array<std::uint64_t, 3>>> examples;

    void add(Kind k, std::uint64_t in, std::uint64_t expected, std::uint64_t actual) {
        ++departures;
        ++by_kind[k];
        if (examples[k].size() < 3) examples[k].push_back({in, expected, actual});
    }
    void print() const {
        std::printf("%-38s %9llu inputs %9llu departures", rule.c_str(), static_cast<unsigned long long>(inputs),
                    static_cast<unsigned long long>(departures));
        for (int k = 0; k < kKinds; ++k)
            if (by_kind[k]) std::printf("  %s=%llu", kKindNames[k], static_cast<unsigned long long>(by_kind[k]));
        std::printf("\n");
        for (const auto &[k, ex] : examples)
            for (const auto &e : ex)
                std::printf("    %-10s in 0x%llx expected 0x%llx %s 0x%llx\n", kKindNames[k],
                            static_cast<unsigned long long>(e[0]), static_cast<unsigned long long>(e[1]), who.c_str(),
                            static_cast<unsigned long long>(e[2]));
        std::fflush(stdout);
    }
};

/// Why an implementation's word departs from the oracle's `expected` for this source word.
inline Kind classify_departure(const oracle::Conversion &c, std::uint64_t src, std::uint64_t expected) {
    const auto &sf = oracle::word_format(c.src);
    const auto &df = oracle::word_format(c.dst);
    if (src > sf.mask()) return kOutside;
    const std::uint8_t cls = oracle::word_class_byte(sf, src);
    if (abi::class_is_nan(cls)) return kNanInput;
    if (!df.has_sign && sf.has_sign && (src >> (sf.bits - 1))) return kNegativeToUnsigned;
    if (abi::class_without_sign(cls) == NINFER_CLASS_INFINITE) return kInfInput;
    const std::uint8_t ecls = oracle::word_class_byte(df, expected);
    const std::uint64_t mag = df.has_sign ? expected & (df.mask() >> 1) : expected;
    if (abi::class_without_sign(ecls) == NINFER_CLASS_INFINITE || abi::class_is_nan(ecls) || mag == oracle::largest_finite_word(df))
        return kOverflow;
    if (oracle::conversion_is_tie(c, src)) return kTie;
    return kOther;
}

}  // namespace ninfer::gpu_tests
