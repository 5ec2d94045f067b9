// SPDX-License-Identifier: Apache-2.0
// The suites: named sets of cases. A suite's golden cases are deterministic (what `generate`
// writes to vectors/); its random cases come from a seed (level full and above).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/suites/case.hpp"
#include "ninfer/suites/rules.hpp"

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

/// What the catalog holds of one family (its descriptor): its rules table and its suites, each
/// suite carrying its case generators (golden, random). A family defines one (rules_<family>.cpp).
struct CatalogFamily {
    abi::Family family = {};
    std::vector<Rule> (*rules)() = nullptr;  ///< the family's rules table, in table order
    std::vector<Suite> (*suites)() = nullptr;///< the family's suites, in catalog order
};

/// The descriptors of the built-in families (rules_<family>.cpp).
extern const CatalogFamily kWordCatalog;     // rules_scalar.cpp
extern const CatalogFamily kGroupedCatalog;  // rules_grouped.cpp
extern const CatalogFamily kScaledCatalog;   // rules_scaled.cpp
extern const CatalogFamily kGgufCatalog;     // rules_gguf.cpp
extern const CatalogFamily kLinearCatalog;   // rules_linear.cpp

/// Every family of the catalog, in catalog order: the built-in ones (catalog.cpp, one line per
/// family), then those added by add_catalog_family.
std::span<const CatalogFamily *const> catalog_families();
/// Adds a family's descriptor (a family outside the built-in list, e.g. a test's toy family);
/// false, and nothing added, when its family has one. Must run before the first read of
/// rule_catalog() or suite_catalog(): throws std::logic_error afterwards, since both are built
/// once and handed out by reference. The descriptor must outlive the catalog.
bool add_catalog_family(const CatalogFamily &family);

/// Default seed of random cases; printed in every report ("include this in bug reports").
inline constexpr std::uint64_t kDefaultSeed = 20261129;

}  // namespace ninfer::suites
