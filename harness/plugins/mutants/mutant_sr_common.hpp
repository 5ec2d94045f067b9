// SPDX-License-Identifier: Apache-2.0
// The stochastic-rounding mutants (issue 24 item 3; suites/SR.md "Mutants"): each rewrites the
// lanes of one sr conversion from the lane's source word and random value: the call's random
// plane (ABI v1 `aux`) when offered, else the mutant's own draw, so that both the exact rule and
// the statistical rules can catch it.
#pragma once

#include <cstdlib>
#include <random>

#include "mutant_common.hpp"

namespace ninfer::mutants {

/// The seed of the mutant's own random values: NINFER_SR_SEED (as the reference; default 0xB1A5).
inline std::uint64_t own_seed() {
    const char *s = std::getenv("NINFER_SR_SEED");
    return s ? std::strtoull(s, nullptr, 0) : 0xB1A5ull;
}

/// The mutant's own random values: one std::mt19937_64 per process, seeded once, advancing across
/// calls; `restart` seeds it again (the bug of mutant_sr_same_stream: every call the same stream).
inline std::uint32_t own_draw(bool restart = false) {
    static std::mt19937_64 rng(own_seed());
    if (restart) rng.seed(own_seed());
    return static_cast<std::uint32_t>(rng());
}

/// The reference's SR word of one binary32 word with the random value `random`.
inline std::uint64_t sr_word(std::uint32_t conversion, std::uint64_t x, std::uint32_t random) {
    std::uint8_t in[4], rnd[4], out[4] = {};
    abi::store_le(in, x, 4);
    abi::store_le(rnd, random, 4);
    reference::scalar_convert_sr_batch(conversion, in, rnd, out, 1);
    return abi::load_le(out, word_bytes(oracle::find_id(oracle::kConversions, conversion)->dst));
}

/// r of the mutant's conversion and its mask.
template <class M>
constexpr int r_of() {
    return abi::sr_random_bits(M::conversion);
}

/// The `after` hook of an SR mutant M (M::conversion, M::sr(x, R)): every lane of a convert call
/// of M::conversion rewritten. With M::shared_random, every lane takes lane 0's random value.
template <class M>
void sr_after(const ninfer_call *c, ninfer_result *) {
    if (c->op != NINFER_OP_convert || c->method != M::conversion) return;
    const int ob = word_bytes(oracle::find_id(oracle::kConversions, c->method)->dst);
    const bool offered = c->aux != nullptr && c->aux_bytes == c->count * 4;
    [[maybe_unused]] std::uint32_t first = 0;
    for (std::uint64_t i = 0; i < c->count; ++i) {
        bool restart = false;
        if constexpr (requires { M::restart_stream; }) restart = i == 0;
        std::uint32_t random = offered ? static_cast<std::uint32_t>(load_word(c->aux, i, 4)) : own_draw(restart);
        if constexpr (requires { M::shared_random; }) {
            if (i == 0) first = random;
            random = first;
        }
        store_word(c->out, i, ob, M::sr(load_word(c->in, i, 4), random));
    }
}

}  // namespace ninfer::mutants
