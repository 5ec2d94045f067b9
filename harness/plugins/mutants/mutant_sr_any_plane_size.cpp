// SPDX-License-Identifier: Apache-2.0
// Seeded bug (issue 24 item 3; suites/SR.md "Mutants"): an sr conversion that serves a random plane
// of any size: the values it holds are read, the missing ones are zero, the extra ones ignored,
// where a plane that is not count x 4 bytes must be refused (convert.sr.random_plane_size).
#include <algorithm>
#include <cstring>
#include <vector>

#include "mutant_common.hpp"

namespace {
struct M {
    static constexpr const char *name = "mutant_sr_any_plane_size";
    static constexpr const char *breaks = ninfer::suites::rule::convert_sr_random_plane_size;
    static std::optional<std::int32_t> before(const ninfer_call *c, ninfer_result *r) {
        if (c->op != NINFER_OP_convert || c->aux == nullptr || c->aux_bytes == c->count * 4) return std::nullopt;
        const auto *conv = ninfer::abi::find_id(ninfer::abi::kConversions, c->method);
        if (!conv || !ninfer::abi::is_stochastic(*conv)) return std::nullopt;
        // The bug: the plane cut or padded with zeros to count x 4 bytes, then served.
        std::vector<std::uint8_t> random(c->count * 4, 0);
        std::memcpy(random.data(), c->aux, std::min<std::uint64_t>(c->aux_bytes, random.size()));
        ninfer_call fitted = *c;
        fitted.aux = random.data();
        fitted.aux_bytes = random.size();
        return ninfer::mutants::reference_call(&fitted, r);
    }
};
}  // namespace

NINFER_MUTANT(M)
