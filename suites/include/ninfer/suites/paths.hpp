// SPDX-License-Identifier: Apache-2.0
// Path coverage (issue 21, section 6: "a path never taken is untested"): the distinct paths a
// case takes through a family's code, computed from the case itself (its shape, input words and
// expected result; never its slug), counted per rule and op, and the minimum a required path
// must reach. `ninfer-conform coverage` prints the table and fails on a gap (docs/cli.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ninfer/suites/case.hpp"

namespace ninfer::suites::paths {

/// A dimension of paths: a family of mutually comparable paths (tile counts, sign patterns, ...),
/// the classifier that says which of them a case takes, and the (rule, op) cells that must take
/// some of them.
struct Dimension {
    std::string name;                ///< "nvfp4.tiles"
    std::vector<std::string> paths;  ///< path names, bit i of a classification is paths[i]
    std::string summary;             ///< one line: what the paths tell apart
    /// The paths a case takes (bit i: paths[i]); 0 when the dimension does not apply to it.
    std::uint32_t (*classify)(const Case &);
    /// Rule ids (a trailing '*' matches any rest) whose cells must take every path of `required`,
    /// wherever the dimension applies to at least one of the cell's cases.
    std::vector<std::string> required_rules;
    std::uint32_t required = 0;  ///< bit mask of the required paths
};

/// The dimensions, in report order (nvfp4 tiles and NaN scales, linear subnormal weights and
/// output midpoints, GGUF quantizers' block signs).
const std::vector<Dimension> &dimensions();

/// One cell of the table: a dimension, a rule and an op.
using CellKey = std::tuple<std::string, std::string, std::uint32_t>;  ///< dimension, rule, op
struct Cell {
    std::uint64_t cases = 0;            ///< cases of the rule and op the dimension applies to
    std::vector<std::uint64_t> counts;  ///< cases per path of the dimension
    bool required = false;              ///< the cell falls under the dimension's required rules
};
using Table = std::map<CellKey, Cell>;

/// The cases per path of every (dimension, rule, op) cell that at least one case applies to.
Table tabulate(const std::vector<Case> &cases);
/// Count more cases into a table (a suite at a time).
void add_to(Table &table, const std::vector<Case> &cases);

/// A required path of a required cell with fewer cases than the minimum.
struct Gap {
    std::string dimension, rule, path;
    std::uint32_t op = 0;
    std::uint64_t count = 0, minimum = 0;
};
/// The gaps of a table at a minimum of cases per required path (suites/README.md, "Path coverage").
std::vector<Gap> gaps(const Table &table, std::uint64_t min_cases_per_path);

/// The default of `coverage --min-cases-per-path`.
inline constexpr std::uint64_t kDefaultMinCasesPerPath = 1;

/// One line naming a gap: "path gap: <rule> <op> <dimension>=<path>: <count> cases, minimum <m>".
std::string gap_line(const Gap &g);

}  // namespace ninfer::suites::paths
