// SPDX-License-Identifier: Apache-2.0
// Issue 25, section 5: suggestions for mistyped names (suggest.hpp).
#include "ninfer/harness/suggest.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ninfer::harness {

namespace {

/// Longest typed name compared: longer input is no typo (and costs no quadratic time).
constexpr std::size_t kMaxTyped = 64;
/// More names than this are not listed in full when none is close.
constexpr std::size_t kMaxListed = 24;

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows of the dynamic programme: i-2, i-1 and i.
    std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    std::iota(prev.begin(), prev.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
        }
        before = prev;
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::size_t name_distance(std::string_view typed, std::string_view candidate) {
    const std::size_t whole = edit_distance(typed, candidate);
    if (candidate.size() <= typed.size()) return whole;
    return std::min(whole, edit_distance(typed, candidate.substr(0, typed.size())) + 1);
}

std::vector<std::string> closest_names(std::string_view typed, const std::vector<std::string> &names, std::size_t most) {
    if (typed.empty() || typed.size() > kMaxTyped) return {};
    const std::size_t limit = std::max<std::size_t>(1, typed.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const auto &n : names)
        if (const std::size_t d = name_distance(typed, n); d <= limit && n != typed) near.emplace_back(d, n);
    std::size_t best = limit;
    for (const auto &x : near) best = std::min(best, x.first);
    // Only the nearest, as git does: "--suit" suggests --suite, not --junit one edit further.
    std::vector<std::string> out;
    for (auto &[d, n] : near)
        if (d == best && out.size() < most && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
    return out;
}

std::string or_list(const std::vector<std::string> &names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
}

std::string unknown_name_line(std::string_view head, std::string_view typed, const std::vector<std::string> &names,
                              std::string_view lister) {
    std::string line(head);
    if (const auto close = closest_names(typed, names); !close.empty()) {
        line += "; did you mean " + or_list(close) + "?";
        if (!lister.empty()) line += " (`" + std::string(lister) + "` lists them)";
        return line;
    }
    if (names.empty()) return line + "; there are none";  // e.g. an install without bundled plugins
    if (names.size() <= kMaxListed || lister.empty()) {
        std::string all;
        for (const auto &n : names) all += (all.empty() ? "" : ", ") + n;
        return line + "; expected one of: " + all;
    }
    return line + "; expected one of the " + std::to_string(names.size()) + " that `" + std::string(lister) + "` names";
}

}  // namespace ninfer::harness
