// SPDX-License-Identifier: Apache-2.0
// The suites' shared plumbing (plumbing.hpp).
#include "plumbing.hpp"

#include <memory>
#include <mutex>
#include <utility>

#include "ninfer/suites/rules.hpp"

namespace ninfer::suites {

std::vector<Case> mark_rule_readings(std::vector<Case> cases) {
    for (auto &c : cases) {
        const Rule *r = find_rule(c.rule);
        c.suite_reading = c.suite_reading || (r && r->suite_reading);
    }
    return cases;
}

std::function<std::vector<Case>(Level)> cached_golden_with(std::vector<Case> (*make)(), ReadingMarker mark) {
    auto cache = std::make_shared<std::pair<std::once_flag, std::vector<Case>>>();
    return [cache, make, mark](Level level) {
        std::call_once(cache->first, [&] { cache->second = mark ? mark(make()) : make(); });
        std::vector<Case> out;
        for (const auto &c : cache->second)
            if (c.level <= level) out.push_back(c);
        return out;
    };
}

std::function<std::vector<Case>(std::uint64_t, Level)> random_with(std::vector<Case> (*make)(std::uint64_t, Level),
                                                                   ReadingMarker mark) {
    return [make, mark](std::uint64_t seed, Level level) { return mark ? mark(make(seed, level)) : make(seed, level); };
}

}  // namespace ninfer::suites
