// SPDX-License-Identifier: Apache-2.0
// The one way every side of the project registers its family descriptors (<Side>Family: the
// catalog, compare, the CLI, the reference plugin; docs/ARCHITECTURE.md, "A block-format
// family"): the built-in descriptors, one line per family in the order of NINFER_FAMILIES, then
// those a family outside that list adds from its own folder (the test-only toy family). One
// descriptor per family; none joins once the side has been read.
#pragma once

#include <atomic>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ninfer/abi/registry.hpp"

namespace ninfer::abi {

/// The descriptors of one side; `D` is that side's <Side>Family, with a member `Family family`.
template <class D>
class FamilyRegistry {
public:
    FamilyRegistry(std::string_view side, std::initializer_list<const D *> builtin) : side_(side), all_(builtin) {}

    /// Every descriptor: the built-in ones, then the added ones, in that order.
    std::span<const D *const> all() const { return all_; }

    /// The descriptor of family `f`, or nullptr.
    const D *find(Family f) const {
        for (const D *d : all_)
            if (d->family == f) return d;
        return nullptr;
    }

    /// Adds a descriptor that outlives the side; false, and nothing added, when its family has
    /// one already; throws std::logic_error once the side is sealed (its tables are built once).
    bool add(const D &d) {
        if (sealed_)
            throw std::logic_error(std::string(side_) + " family " + std::string(family_name(d.family)) +
                                   " added after the " + std::string(side_) + " was read");
        if (find(d.family)) return false;
        all_.push_back(&d);
        return true;
    }

    /// No family joins after this (the side has built what it reads from the descriptors).
    void seal() { sealed_ = true; }

private:
    std::string_view side_;
    std::vector<const D *> all_;
    std::atomic<bool> sealed_{false};
};

}  // namespace ninfer::abi
