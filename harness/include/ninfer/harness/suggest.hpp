// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: "did you mean ...?" for mistyped names, as git and cargo do. The one place
// that suggests: every name lookup of the CLI and the runner words its error line here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ninfer::harness {

/// Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions, no
/// substring edited twice): the edits that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// How far a candidate is from a typed name: its edit distance, or one more than the distance to
/// the candidate's prefix of the typed length (so that "fp32_to_bf16" finds "fp32_to_bf16_rne").
std::size_t name_distance(std::string_view typed, std::string_view candidate);

/// Up to `most` of the names nearest to `typed` (all at the smallest distance found, in the order
/// given); only names within max(1, |typed| / 3) of it, so that nonsense gets none. None for a
/// typed name of more than 64 characters.
std::vector<std::string> closest_names(std::string_view typed, const std::vector<std::string> &names,
                                       std::size_t most = 3);

/// "a", "a or b", "a, b or c".
std::string or_list(const std::vector<std::string> &names);

/// One error line about a name that is not among `names`: `head` (e.g. "unknown suite 'x'"), then
/// "; did you mean A, B or C?" with "(`lister` lists them)" when some are close; else every name
/// ("; expected one of: ...") for a list of at most 24, or "; expected one of the N that `lister`
/// names" for a longer one.
std::string unknown_name_line(std::string_view head, std::string_view typed, const std::vector<std::string> &names,
                              std::string_view lister = {});

}  // namespace ninfer::harness
