// SPDX-License-Identifier: Apache-2.0
// methods.hpp: the method of an op (registry.h NINFER_OPS) spelled from the registry tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "ninfer/abi/methods.hpp"

using namespace ninfer::abi;

// Lookups are constexpr: these hold at compile time.
static_assert(method_kind(NINFER_OP_convert) == "conversion");
static_assert(method_kind(NINFER_OP_validate) == "role");
static_assert(method_kind(NINFER_OP_quant_encode) == "encoder");
static_assert(method_kind(NINFER_OP_decode).empty());
static_assert(method_kind(0).empty());
static_assert(method_name(NINFER_OP_convert, NINFER_CONVERSION_fp32_to_bf16_rne) == "fp32_to_bf16_rne");
static_assert(method_name(NINFER_OP_validate, NINFER_ROLE_fp8_weight_code) == "fp8_weight_code");
static_assert(method_name(NINFER_OP_quant_encode, NINFER_ENCODER_grouped_absmax) == "grouped_absmax");
static_assert(method_id(NINFER_OP_quant_encode, "fp8_row_maxabs") == std::optional<std::uint32_t>{NINFER_ENCODER_fp8_row_maxabs});
// An id or name of another op's table is not a method of this op.
static_assert(method_id(NINFER_OP_convert, "grouped_absmax") == std::nullopt);
static_assert(method_name(NINFER_OP_linear, 1).empty());

/// Whether `text` names `what` (a kind followed by " `method`") in registry.h's summary.
static bool says(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

TEST_CASE("The ops that take a method are those whose registry summary names a `method`, with its kind") {
    std::set<std::uint32_t> with_method;
    for (const auto &o : kOps) {
        INFO(o.name);
        const auto *k = find_method_kind(o.id);
        CHECK((k != nullptr) == says(o.summary, "`method`"));
        if (k) {
            CHECK(says(o.summary, std::string(k->kind) + " `method`"));
            with_method.insert(o.id);
        }
    }
    CHECK(with_method == std::set<std::uint32_t>{NINFER_OP_validate, NINFER_OP_convert, NINFER_OP_quant_encode});
    CHECK(kMethodKinds.size() == with_method.size());
}

template <class Table>
static void check_table(std::uint32_t op, const Table &table) {
    const auto *k = find_method_kind(op);
    REQUIRE(k != nullptr);
    REQUIRE(k->methods.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        INFO(table[i].name);
        CHECK(k->methods[i].id == table[i].id);
        CHECK(k->methods[i].name == table[i].name);
        CHECK(method_name(op, table[i].id) == table[i].name);
        CHECK(method_id(op, table[i].name) == std::optional<std::uint32_t>{table[i].id});
    }
}

TEST_CASE("Each method table is its registry table's id and name columns, row for row") {
    check_table(NINFER_OP_convert, kConversions);
    check_table(NINFER_OP_validate, kRoles);
    check_table(NINFER_OP_quant_encode, kEncoders);
}

TEST_CASE("An id or name outside the op's table, or an op without a method, has no method") {
    for (const auto &k : kMethodKinds) {
        INFO(k.kind);
        std::uint32_t past = 0;
        for (const auto &m : k.methods) past = std::max(past, m.id);
        CHECK(method_name(k.op, 0).empty());
        CHECK(method_name(k.op, past + 1).empty());
        CHECK_FALSE(method_id(k.op, ""));
        CHECK_FALSE(method_id(k.op, "FP32_TO_BF16_RNE"));
    }
    for (const auto &o : kOps)
        if (!find_method_kind(o.id)) {
            INFO(o.name);
            CHECK(method_kind(o.id).empty());
            CHECK(method_name(o.id, 1).empty());
            CHECK_FALSE(method_id(o.id, "fp32_to_bf16_rne"));
        }
}
