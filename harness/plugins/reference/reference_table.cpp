// SPDX-License-Identifier: Apache-2.0
// The reference plugin table (plugin.h ABI v2, harness/README.md): every call checked before a
// byte is read (a readable plane list, each plane named once), then served by the first family of
// registered families that claims it (reference_family.hpp), else by the word family; the
// capabilities are the families' in registration order.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "call_planes.hpp"
#include "ninfer/abi/family_registry.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_family.hpp"
#include "reference_plugin.hpp"

namespace ninfer::reference {
namespace {

/// A plane's registry name in backquotes, or its number.
std::string plane_text(std::uint32_t name) {
    const std::string_view n = abi::plane_name(name);
    return n.empty() ? fmt::format("#{}", name) : fmt::format("`{}`", n);
}

std::int32_t refuse(ninfer_result_v2 *r, std::int32_t status, const std::string &message) {
    return refuse_v2(r, status, message);
}

/// Every family of the reference, in the order of its capabilities; a call goes to the first
/// that claims it (grouped before scaled: a grouped format in a scaled layout is grouped's),
/// else to the word family. Sealed once the capabilities are built.
abi::FamilyRegistry<ReferenceFamily> &families() {
    static abi::FamilyRegistry<ReferenceFamily> all("reference", {
                                                                     &kWordReference,
                                                                     &kGroupedReference,
                                                                     &kScaledReference,
                                                                     &kGgufReference,
                                                                     &kLinearReference,
                                                                 });
    return all;
}

const ReferenceFamily &family_of(const ninfer_call_v2 *c) {
    for (const ReferenceFamily *f : families().all())
        if (f->claims && f->claims(c)) return *f;
    return kWordReference;
}

/// More planes than any op could name (13 names today, ids only appended): a broken count.
constexpr std::uint32_t kMaxPlanes = 64;

/// Whether a counted plane array is readable, of a sane length, and names each plane at most
/// once; else the refusal is written to `r`.
template <class Plane>
std::int32_t check_plane_list(ninfer_result_v2 *r, const Plane *planes, std::uint32_t count, const char *what) {
    if (count && !planes) return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("{}_count is {} but {}s is null", what, count, what));
    if (count > kMaxPlanes)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("{}_count {} is above {} planes", what, count, kMaxPlanes));
    for (std::uint32_t i = 0; i < count; ++i)
        for (std::uint32_t j = 0; j < i; ++j)
            if (planes[i].name == planes[j].name)
                return refuse(r, NINFER_E_INVALID_ARGUMENT,
                              fmt::format("{} plane {} is given twice", what, plane_text(planes[i].name)));
    return NINFER_OK;
}

/// Sanity of the call, then the family that claims it.
std::int32_t serve_checked(const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    if (!r) return NINFER_E_INVALID_ARGUMENT;
    if (!c || !NINFER_HAS_FIELD(c, ninfer_call_v2, outputs))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "call struct missing or smaller than ninfer_call v2");
    if (const std::int32_t s = check_plane_list(r, c->inputs, c->input_count, "input"); s != NINFER_OK) return s;
    if (const std::int32_t s = check_plane_list(r, c->outputs, c->output_count, "output"); s != NINFER_OK) return s;
    return family_of(c).serve(c, r);
}

std::vector<ninfer_capability_v2> build_capabilities() {
    families().seal();
    std::vector<ninfer_capability_v2> caps;
    for (const ReferenceFamily *f : families().all())
        for (const auto &cap : f->capabilities()) caps.push_back(cap);
    return caps;
}

/// A missing required plane: NINFER_E_INVALID_ARGUMENT naming the op and the plane.
std::int32_t missing_plane(const ninfer_call_v2 *c, ninfer_result_v2 *r, const char *side, std::uint32_t name) {
    const auto *op = abi::find_id(abi::kOps, c->op);
    return refuse(r, NINFER_E_INVALID_ARGUMENT,
                  fmt::format("{}: the call has no {} plane {}", op ? std::string(op->name) : fmt::format("op #{}", c->op),
                              side, plane_text(name)));
}

}  // namespace

/// The C ABI boundary: no C++ exception (std::bad_alloc included) crosses it; anything thrown
/// is NINFER_E_INTERNAL.
std::int32_t serve(void *, const ninfer_call_v2 *c, ninfer_result_v2 *r) {
    try {
        return serve_checked(c, r);
    } catch (const std::bad_alloc &) {
        return refuse_call(r, NINFER_E_INTERNAL, "out of memory (std::bad_alloc)");
    } catch (const std::exception &e) {
        return refuse_call(r, NINFER_E_INTERNAL, e.what());
    } catch (...) {
        return refuse_call(r, NINFER_E_INTERNAL, "unknown C++ exception");
    }
}

std::int32_t refuse_v2(ninfer_result_v2 *result, std::int32_t status, const std::string &message, std::uint32_t detail) {
    if (!result) return status;
    if (detail != 0 && NINFER_HAS_FIELD(result, ninfer_result_v2, detail)) result->detail = detail;
    if (NINFER_HAS_FIELD(result, ninfer_result_v2, message))
        std::snprintf(result->message, sizeof result->message, "%s", message.c_str());
    return status;
}

const ninfer_input_plane *require_input(const ninfer_call_v2 *c, ninfer_result_v2 *r, std::uint32_t name,
                                        std::int32_t &status) {
    const ninfer_input_plane *p = ninfer_find_input(c, name);
    if (!p) {
        status = missing_plane(c, r, "input", name);
        return nullptr;
    }
    if (p->bytes && !p->data) {
        status = refuse(r, NINFER_E_INVALID_ARGUMENT, fmt::format("input plane {} holds {} bytes at NULL", plane_text(name), p->bytes));
        return nullptr;
    }
    return p;
}

ninfer_output_plane *require_output(const ninfer_call_v2 *c, ninfer_result_v2 *r, std::uint32_t name, std::int32_t &status) {
    ninfer_output_plane *p = ninfer_find_output(c, name);
    if (!p) {
        status = missing_plane(c, r, "output", name);
        return nullptr;
    }
    if (p->capacity && !p->data) {
        status = refuse(r, NINFER_E_INVALID_ARGUMENT,
                        fmt::format("output plane {} has capacity {} at NULL", plane_text(name), p->capacity));
        return nullptr;
    }
    return p;
}

std::int32_t refuse_call(ninfer_result_v2 *result, std::int32_t status, const char *message) {
    return refuse_v2(result, status, message);
}

std::int32_t refuse_call(ninfer_result_v1 *result, std::int32_t status, const char *message) {
    if (result) std::snprintf(result->message, sizeof result->message, "%s", message);
    return status;
}

std::span<const ReferenceFamily *const> reference_families() { return families().all(); }

bool add_reference_family(const ReferenceFamily &family) { return families().add(family); }

std::span<const ninfer_capability_v2> reference_capabilities() {
    static const std::vector<ninfer_capability_v2> caps = build_capabilities();
    return caps;
}

const ninfer_plugin_v2 &reference_table_v2() {
    static const ninfer_plugin_v2 table = [] {
        ninfer_plugin_v2 t{};
        t.abi_version = 2;
        t.struct_size = sizeof(ninfer_plugin_v2);
        t.name = "reference";
        t.version = NINFER_PROJECT_VERSION;
        const auto caps = reference_capabilities();
        t.capabilities = caps.data();
        t.capability_count = static_cast<std::uint32_t>(caps.size());
        t.capability_size = sizeof(ninfer_capability_v2);
        t.self = nullptr;
        for (const auto &op : abi::kOps) t.ops[op.id - 1] = &serve;
        return t;
    }();
    return table;
}

}  // namespace ninfer::reference
