// SPDX-License-Identifier: Apache-2.0
// The ABI v2 mutants (docs/ARCHITECTURE.md "Mutants"): the reference plugin's v2 table with one
// behaviour broken, for the families whose calls need v2 planes (nvfp4: codes, scales, divisors,
// values; GGUF block payloads). A mutant is a struct M with
//   static constexpr const char *name, *breaks;   plugin name "mutant_<x>" and the rule id
// and any of these hooks (optional; what a mutant leaves out is the reference's):
//   static std::optional<std::int32_t> before(const ninfer_call_v2 *, ninfer_result_v2 *);
//       serve the whole call instead of the reference (nullopt: let the reference serve it)
//   static void after(const ninfer_call_v2 *, ninfer_result_v2 *);
//       patch the output planes of a call the reference served with NINFER_OK
// and its bound (mutant_bound.hpp: also_fails, within_top). NINFER_MUTANT_V2(M) exports
// ninfer_plugin_entry (ABI 2), ninfer_mutant_breaks and the bound; the mutants' CMakeLists builds
// a source that uses it with NINFER_PLUGIN_ABI=2.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "mutant_bound.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "reference_plugin.hpp"

namespace ninfer::mutants::v2 {

/// The reference's v2 function for the call's op.
inline std::int32_t reference_call(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    const auto &t = reference::reference_table_v2();
    return t.ops[c->op - 1](t.self, c, r);
}

/// The bytes of an input plane, or an empty span when the call has none.
inline std::span<const std::uint8_t> input_bytes(const ninfer_call_v2 *c, std::uint32_t name) {
    const ninfer_input_plane *p = ninfer_find_input(c, name);
    if (!p || !p->data) return {};
    return {static_cast<const std::uint8_t *>(p->data), static_cast<std::size_t>(p->bytes)};
}

/// The written bytes of an output plane (writable), or an empty span.
inline std::span<std::uint8_t> output_bytes(const ninfer_call_v2 *c, std::uint32_t name) {
    ninfer_output_plane *p = ninfer_find_output(c, name);
    if (!p || !p->data) return {};
    return {static_cast<std::uint8_t *>(p->data), static_cast<std::size_t>(p->written)};
}

/// Whether M breaks a rule of the `linear` operator. Every other mutant breaks one behaviour of
/// a format family's ops: its hooks were written for those calls, so its `linear` calls are the
/// reference's (a mutant breaks one thing, and the kill test names that one rule).
template <class M>
bool breaks_linear() {
    static const bool linear = std::string_view(M::breaks).rfind("linear.", 0) == 0;
    return linear;
}

template <class M>
std::int32_t wrapped(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (c && c->op == NINFER_OP_linear && !breaks_linear<M>()) return reference_call(c, r);
    if constexpr (requires { M::before(c, r); })
        if (c)
            if (const std::optional<std::int32_t> s = M::before(c, r)) return *s;
    const std::int32_t status = reference_call(c, r);
    if constexpr (requires { M::after(c, r); })
        if (status == NINFER_OK && c) M::after(c, r);
    return status;
}

/// The mutant's table: the reference's v2 table, renamed, every op routed through wrapped<M>.
template <class M>
const ninfer_plugin_v2 *entry(std::uint32_t harness_abi) {
    if (harness_abi < 2) return nullptr;
    static const ninfer_plugin_v2 table = [] {
        ninfer_plugin_v2 t = reference::reference_table_v2();
        t.name = M::name;
        for (auto &op : t.ops)
            if (op) op = &wrapped<M>;
        return t;
    }();
    return &table;
}

}  // namespace ninfer::mutants::v2

#define NINFER_MUTANT_V2(M)                                                                           \
    extern "C" NINFER_EXPORT const ninfer_plugin_v2 *ninfer_plugin_entry(std::uint32_t harness_abi) { \
        return ninfer::mutants::v2::entry<M>(harness_abi);                                            \
    }                                                                                                 \
    extern "C" NINFER_EXPORT const char *ninfer_mutant_breaks(void) { return M::breaks; }             \
    NINFER_MUTANT_BOUND(M)
