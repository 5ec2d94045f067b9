// SPDX-License-Identifier: Apache-2.0
// The suites: named sets of cases. A suite's golden cases are deterministic (what `generate`
// writes to vectors/); its random cases come from a seed (level full and above).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ninfer/suites/case.hpp"

namespace ninfer::suites {

struct Suite {
    std::string name;         ///< "scalar.convert", "layout.contiguous_le_v1", "grouped.absmax", ...
    std::string description;
    /// Deterministic cases whose level is <= the given level; expected values from the oracle.
    std::function<std::vector<Case>(Level)> golden;
    /// Seeded random cases for the given level (empty for quick); expected values from the oracle.
    std::function<std::vector<Case>(std::uint64_t seed, Level)> random;
};

/// Every suite, in a fixed order; names unique.
const std::vector<Suite> &suite_catalog();
/// The suite with this name, or nullptr.
const Suite *find_suite(const std::string &name);

/// The suites of each family folder (src/scalar/, src/grouped/, src/scaled/, src/gguf/: one file per suite).
std::vector<Suite> scalar_suites();
std::vector<Suite> grouped_suites();
std::vector<Suite> scaled_suites();  ///< src/scaled/
std::vector<Suite> gguf_suites();    ///< src/gguf/
std::vector<Suite> linear_suites();  ///< src/linear/: the `linear` operator (suites/LINEAR.md)

/// Default seed of random cases; printed in every report ("include this in bug reports").
inline constexpr std::uint64_t kDefaultSeed = 20261129;

}  // namespace ninfer::suites
