// SPDX-License-Identifier: Apache-2.0
// The seeded-bug mutants (docs/ARCHITECTURE.md "Mutants"): each is the reference plugin's table
// (reference_plugin.hpp) with exactly one behaviour broken. A mutant is a struct M with
//   static constexpr const char *name, *breaks;   plugin name "mutant_<x>" and the rule id
// and any of these hooks (all optional; what a mutant leaves out is the reference's):
//   static std::optional<std::int32_t> before(const ninfer_call *, ninfer_result *);
//       serve the whole call instead of the reference (nullopt: let the reference serve it)
//   static std::uint64_t convert(std::uint32_t conversion, std::uint64_t src, std::uint64_t ref);
//   static std::uint64_t decode(std::uint32_t format, std::uint64_t word, std::uint64_t ref);
//   static std::uint8_t classify(std::uint32_t format, std::uint64_t word, std::uint8_t ref);
//   static std::uint8_t verdict(std::uint32_t role, std::uint64_t word, std::uint8_t ref);
//       per-word hooks: get the reference's output word `ref`, return the mutant's
//   static void after(const ninfer_call *, ninfer_result *);
//       patch the outputs of a call the reference served with NINFER_OK
// and its bound (mutant_bound.hpp: also_fails, within_top).
// NINFER_MUTANT(M) exports ninfer_plugin_entry, ninfer_mutant_breaks and the bound.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>

#include "mutant_bound.hpp"
#include "scalar_codec.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "reference_plugin.hpp"

namespace ninfer::mutants {

// The mutants compare and compute host floats and doubles bit for bit (std::bit_cast).
static_assert(std::numeric_limits<float>::is_iec559, "the mutants need IEEE 754 binary32 floats");
static_assert(std::numeric_limits<double>::is_iec559, "the mutants need IEEE 754 binary64 doubles");

/// The reference's function for the call's op.
inline std::int32_t reference_call(const ninfer_call *c, ninfer_result *r) {
    const auto &t = reference::reference_table();
    return t.ops[c->op - 1](t.self, c, r);
}

/// Byte width of a word format's packed word (0 for a non-word format).
inline int word_bytes(std::uint32_t format) {
    const auto *f = oracle::find_id(oracle::kWordFormats, format);
    return f ? f->bytes() : 0;
}

/// Word `i` of a buffer of `bytes`-wide little-endian words.
inline std::uint64_t load_word(const void *buf, std::uint64_t i, int bytes) {
    return abi::load_le(static_cast<const std::uint8_t *>(buf) + i * bytes, bytes);
}

inline void store_word(void *buf, std::uint64_t i, int bytes, std::uint64_t v) {
    abi::store_le(static_cast<std::uint8_t *>(buf) + i * bytes, v, bytes);
}

/// The value of a word as a host double (through the reference's exact decode).
inline double value_of(std::uint32_t format, std::uint64_t word) {
    return std::bit_cast<double>(reference::scalar_decode(format, word));
}

/// A word's sign bit within its format (0 for unsigned formats).
inline std::uint64_t sign_bit_of(std::uint32_t format) {
    const auto *f = oracle::find_id(oracle::kWordFormats, format);
    return f && f->has_sign ? 1ull << (f->bits - 1) : 0;
}

/// For a finite binary32 source whose reference result `ref` is finite: whether the source lies
/// exactly halfway between the results `lo` and `lo + 1` (magnitudes, same sign).
inline bool is_tie(std::uint32_t dst, std::uint64_t src, std::uint64_t lo_word) {
    const double x = std::bit_cast<float>(static_cast<std::uint32_t>(src));
    const double lo = value_of(dst, lo_word), hi = value_of(dst, lo_word + 1);
    const double ax = x < 0 ? -x : x, alo = lo < 0 ? -lo : lo, ahi = hi < 0 ? -hi : hi;
    return ahi == ahi && alo == alo && ax - alo == ahi - ax;  // NaN neighbours never tie
}

template <class M>
std::int32_t wrapped(void *, const ninfer_call *c, ninfer_result *r) {
    if constexpr (requires { M::before(c, r); }) {
        if (c && r)
            if (const std::optional<std::int32_t> s = M::before(c, r)) return *s;
    }
    const std::int32_t status = reference_call(c, r);
    if (status != NINFER_OK || !c || !r) return status;
    if (c->op == NINFER_OP_convert) {
        if constexpr (requires { M::convert(0u, 0ull, 0ull); }) {
            const auto *conv = oracle::find_id(oracle::kConversions, c->method);
            const int ib = word_bytes(conv->src), ob = word_bytes(conv->dst);
            for (std::uint64_t i = 0; i < c->count; ++i)
                store_word(c->out, i, ob, M::convert(c->method, load_word(c->in, i, ib), load_word(c->out, i, ob)));
        }
    } else if (c->op == NINFER_OP_decode) {
        if constexpr (requires { M::decode(0u, 0ull, 0ull); }) {
            const int ib = word_bytes(c->format);
            for (std::uint64_t i = 0; i < c->count; ++i)
                store_word(c->out, i, 8, M::decode(c->format, load_word(c->in, i, ib), load_word(c->out, i, 8)));
        }
    } else if (c->op == NINFER_OP_classify) {
        if constexpr (requires { M::classify(0u, 0ull, std::uint8_t{}); }) {
            const int ib = word_bytes(c->format);
            for (std::uint64_t i = 0; i < c->count; ++i)
                store_word(c->out, i, 1,
                           M::classify(c->format, load_word(c->in, i, ib), static_cast<std::uint8_t>(load_word(c->out, i, 1))));
        }
    } else if (c->op == NINFER_OP_validate) {
        if constexpr (requires { M::verdict(0u, 0ull, std::uint8_t{}); }) {
            const int ib = word_bytes(c->format);
            for (std::uint64_t i = 0; i < c->count; ++i)
                store_word(c->out, i, 1,
                           M::verdict(c->method, load_word(c->in, i, ib), static_cast<std::uint8_t>(load_word(c->out, i, 1))));
        }
    }
    if constexpr (requires { M::after(c, r); }) M::after(c, r);
    return status;
}

/// The mutant's table: the reference's, renamed, every op routed through wrapped<M>.
template <class M>
const ninfer_plugin *entry(std::uint32_t harness_abi) {
    if (harness_abi != NINFER_ABI_VERSION) return nullptr;
    static const ninfer_plugin table = [] {
        ninfer_plugin t = reference::reference_table();
        t.name = M::name;
        for (auto &op : t.ops)
            if (op) op = &wrapped<M>;
        return t;
    }();
    return &table;
}

}  // namespace ninfer::mutants

#define NINFER_MUTANT(M)                                                                           \
    extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) { \
        return ninfer::mutants::entry<M>(harness_abi);                                             \
    }                                                                                              \
    extern "C" NINFER_EXPORT const char *ninfer_mutant_breaks(void) { return M::breaks; }          \
    NINFER_MUTANT_BOUND(M)
