// SPDX-License-Identifier: Apache-2.0
// The abi module's C++ view (registry.hpp): one kAllFormats view over the three format tables,
// constexpr lookups, the names of the ABI's codes (plugin.h X-macros), and ABI v2's planes,
// struct sizes and versions.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <vector>
#include <set>
#include <string>
#include <type_traits>

#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/text.hpp"

using namespace ninfer::abi;

// Lookups are constexpr: these hold at compile time.
static_assert(format_id("bf16") == std::optional<std::uint32_t>{NINFER_FORMAT_bf16});
static_assert(format_name(NINFER_FORMAT_q4_g64_fp16) == "q4_g64_fp16");
static_assert(format_name(0).empty());
static_assert(!format_id("BF16"));
static_assert(layout_accepts(NINFER_LAYOUT_row_split_k128_v1, NINFER_FORMAT_q8_g32_fp16));
static_assert(!layout_accepts(NINFER_LAYOUT_contiguous_le_v1, NINFER_FORMAT_fp16));
static_assert(status_name(NINFER_E_INVALID_PAYLOAD) == "invalid_payload");
static_assert(detail_name(NINFER_DETAIL_NONZERO_GAP) == "nonzero_gap");

TEST_CASE("kAllFormats holds every row of the four format tables once, in registry order") {
    REQUIRE(kAllFormats.size() == kWordFormats.size() + kGroupedFormats.size() + kScaledFormats.size() + kGgufTypes.size());
    std::size_t i = 0;
    for (const auto &w : kWordFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == w.id);
        CHECK(v.name == w.name);
        CHECK(v.family == Family::word);
        CHECK(v.layout == (w.direct ? std::uint32_t{NINFER_LAYOUT_contiguous_le_v1} : 0u));
    }
    for (const auto &g : kGroupedFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == g.id);
        CHECK(v.name == g.name);
        CHECK(v.family == Family::grouped);
        CHECK(v.layout == g.layout);
    }
    for (const auto &o : kScaledFormats) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == o.id);
        CHECK(v.name == o.name);
        CHECK(v.family == Family::scaled);
        CHECK(v.layout == o.layout);
        CHECK(v.in_ninfer_registry);
    }
    for (const auto &t : kGgufTypes) {
        const auto &v = kAllFormats[i++];
        CHECK(v.id == t.id);
        CHECK(v.id == 64 + t.ggml_type);
        CHECK(v.name == t.name);
        CHECK(v.family == Family::gguf);
        CHECK(v.layout == NINFER_LAYOUT_ggml_blocks_v1);
        CHECK(v.in_ninfer_registry == t.in_ninfer_registry);
        // Outside the .ninfer registry: refused as a .ninfer pair, accepted by the GGUF suites.
        CHECK(layout_accepts(NINFER_LAYOUT_ggml_blocks_v1, t.id) == t.in_ninfer_registry);
        CHECK(gguf_layout_accepts(NINFER_LAYOUT_ggml_blocks_v1, t.id));
        CHECK_FALSE(gguf_layout_accepts(NINFER_LAYOUT_row_split_k128_v1, t.id));
    }
}

TEST_CASE("format ids and names are unique across families and every layout is registered") {
    std::set<std::uint32_t> ids;
    std::set<std::string_view> names;
    for (const auto &f : kAllFormats) {
        CHECK(ids.insert(f.id).second);
        CHECK(names.insert(f.name).second);
        CHECK(f.id != NINFER_FORMAT_NONE);
        if (f.layout != 0) CHECK(find_id(kLayouts, f.layout) != nullptr);
        CHECK(format_id(f.name) == std::optional<std::uint32_t>{f.id});
        CHECK(format_name(f.id) == f.name);
        CHECK(!family_name(f.family).empty());
    }
}

TEST_CASE("layout_accepts: a format is stored by its own layout only") {
    for (const auto &f : kAllFormats)
        for (const auto &l : kLayouts) CHECK(layout_accepts(l.id, f.id) == (l.id == f.layout && f.in_ninfer_registry));
    CHECK_FALSE(layout_accepts(NINFER_LAYOUT_contiguous_le_v1, 999));
    CHECK_FALSE(layout_accepts(0, NINFER_FORMAT_fp16));
}

TEST_CASE("the ABI's codes have unique values and names, and the C enumerators are the X-macro rows") {
    const auto unique = [](const auto &table) {
        std::set<std::int32_t> values;
        std::set<std::string_view> names;
        for (const auto &c : table)
            if (!values.insert(c.value).second || !names.insert(c.name).second) return false;
        return true;
    };
    CHECK(unique(kStatuses));
    CHECK(unique(kClasses));
    CHECK(unique(kVerdicts));
    CHECK(unique(kPayloadDetails));
    CHECK(status_name(NINFER_OK) == "ok");
    CHECK(status_name(NINFER_E_UNSUPPORTED) == "unsupported");
    CHECK(status_name(NINFER_E_INTERNAL) == "internal");
    CHECK(status_name(-55).empty());
    CHECK(code_name(kClasses, NINFER_CLASS_OUTSIDE) == "outside");
    CHECK(code_name(kVerdicts, NINFER_VERDICT_NEGATIVE_ZERO) == "negative_zero");
    CHECK(detail_name(NINFER_DETAIL_SIZE) == "size");
}

// ---- ABI v2: planes, struct sizes, versions (plugin.h) -----------------------------------------

// The unsuffixed names follow NINFER_PLUGIN_ABI, 2 by default.
static_assert(NINFER_PLUGIN_ABI == 2 && NINFER_ABI_VERSION == 2u);
static_assert(std::is_same_v<ninfer_call, ninfer_call_v2> && std::is_same_v<ninfer_result, ninfer_result_v2> &&
              std::is_same_v<ninfer_capability, ninfer_capability_v2> && std::is_same_v<ninfer_plugin, ninfer_plugin_v2>);
static_assert(NINFER_ABI_OLDEST == 1u && NINFER_ABI_LATEST == 2u);
// A v2 table starts as a v1 table, so that a harness reads abi_version and struct_size (and the
// identity) before it knows which layout it holds.
static_assert(offsetof(ninfer_plugin_v2, abi_version) == offsetof(ninfer_plugin_v1, abi_version));
static_assert(offsetof(ninfer_plugin_v2, struct_size) == offsetof(ninfer_plugin_v1, struct_size));
static_assert(offsetof(ninfer_plugin_v2, name) == offsetof(ninfer_plugin_v1, name));
static_assert(offsetof(ninfer_plugin_v2, version) == offsetof(ninfer_plugin_v1, version));
static_assert(offsetof(ninfer_plugin_v2, capabilities) == offsetof(ninfer_plugin_v1, capabilities));
static_assert(offsetof(ninfer_plugin_v2, capability_count) == offsetof(ninfer_plugin_v1, capability_count));
// The capability stride a v2 table may declare starts at the v1 capability (5 x uint32 = 20 bytes).
static_assert(sizeof(ninfer_capability_v1) == 20 && sizeof(ninfer_capability_v2) == 24);
static_assert(plane_name(NINFER_PLANE_SCALES) == "scales");
static_assert(plane_id("activation") == NINFER_PLANE_ACTIVATION);
static_assert(plane_id("Scales") == NINFER_PLANE_NONE);

TEST_CASE("planes: ids and names unique, ids from 1, plane_name and plane_id round trip") {
    std::set<std::int32_t> ids;
    std::set<std::string_view> names;
    for (const auto &p : kPlanes) {
        INFO(p.name);
        CHECK(ids.insert(p.value).second);
        CHECK(names.insert(p.name).second);
        CHECK(p.value > 0);
        CHECK(!p.summary.empty());
        CHECK(plane_name(static_cast<std::uint32_t>(p.value)) == p.name);
        CHECK(plane_id(p.name) == static_cast<std::uint32_t>(p.value));
    }
    CHECK(kPlanes.size() == 14);  // NINFER_PLANES: words .. random
    // The C enumerators are the X-macro rows.
    CHECK(plane_id("words") == NINFER_PLANE_WORDS);
    CHECK(plane_id("values") == NINFER_PLANE_VALUES);
    CHECK(plane_id("payload") == NINFER_PLANE_PAYLOAD);
    CHECK(plane_id("output") == NINFER_PLANE_OUTPUT);
    CHECK(plane_name(NINFER_PLANE_NONE).empty());
    CHECK(plane_name(999).empty());
    CHECK(plane_id("") == NINFER_PLANE_NONE);
    CHECK(plane_id("codes ") == NINFER_PLANE_NONE);
}

TEST_CASE("NINFER_HAS_FIELD: a field counts only when struct_size covers all of it") {
    ninfer_result_v2 r{};
    r.struct_size = sizeof r;
    CHECK(NINFER_HAS_FIELD(&r, ninfer_result_v2, detail));
    CHECK(NINFER_HAS_FIELD(&r, ninfer_result_v2, message));
    r.struct_size = offsetof(ninfer_result_v2, message);  // an older, smaller result
    CHECK(NINFER_HAS_FIELD(&r, ninfer_result_v2, detail));
    CHECK_FALSE(NINFER_HAS_FIELD(&r, ninfer_result_v2, message));
    r.struct_size = offsetof(ninfer_result_v2, message) + 255;  // one byte short
    CHECK_FALSE(NINFER_HAS_FIELD(&r, ninfer_result_v2, message));
    r.struct_size = sizeof(std::uint32_t);
    CHECK_FALSE(NINFER_HAS_FIELD(&r, ninfer_result_v2, detail));
    ninfer_call_v2 c{};
    c.struct_size = offsetof(ninfer_call_v2, outputs);
    CHECK(NINFER_HAS_FIELD(&c, ninfer_call_v2, output_count));
    CHECK_FALSE(NINFER_HAS_FIELD(&c, ninfer_call_v2, outputs));
    c.struct_size = sizeof c + 64;  // a newer, larger call: every field this header knows is there
    CHECK(NINFER_HAS_FIELD(&c, ninfer_call_v2, outputs));
    ninfer_plugin_v2 t{};
    t.struct_size = offsetof(ninfer_plugin_v2, ops) + 16 * sizeof(ninfer_fn_v2);  // a table with 16 op slots
    CHECK(NINFER_HAS_FIELD(&t, ninfer_plugin_v2, capability_size));
    CHECK_FALSE(NINFER_HAS_FIELD(&t, ninfer_plugin_v2, ops));
}

TEST_CASE("ninfer_find_input / ninfer_find_output: the plane of a name, or NULL") {
    const std::uint8_t a = 1, b = 2;
    std::uint8_t x = 0, y = 0;
    const ninfer_input_plane inputs[] = {{NINFER_PLANE_PAYLOAD, 0, &a, 1}, {NINFER_PLANE_ACTIVATION, NINFER_FORMAT_bf16, &b, 1}};
    ninfer_output_plane outputs[] = {{NINFER_PLANE_CODES, 0, &x, 1, 0}, {NINFER_PLANE_SCALES, 0, &y, 1, 0}};
    ninfer_call_v2 c{};
    c.struct_size = sizeof c;
    c.input_count = 2;
    c.inputs = inputs;
    c.output_count = 2;
    c.outputs = outputs;
    CHECK(ninfer_find_input(&c, NINFER_PLANE_PAYLOAD) == &inputs[0]);
    CHECK(ninfer_find_input(&c, NINFER_PLANE_ACTIVATION) == &inputs[1]);
    CHECK(ninfer_find_input(&c, NINFER_PLANE_ACTIVATION)->format == NINFER_FORMAT_bf16);
    CHECK(ninfer_find_input(&c, NINFER_PLANE_CODES) == nullptr);  // an output name is not an input
    CHECK(ninfer_find_output(&c, NINFER_PLANE_SCALES) == &outputs[1]);
    CHECK(ninfer_find_output(&c, NINFER_PLANE_PAYLOAD) == nullptr);
    ninfer_find_output(&c, NINFER_PLANE_CODES)->written = 1;  // writable through the result
    CHECK(outputs[0].written == 1);
    // Only the counted planes are searched.
    c.input_count = 1;
    CHECK(ninfer_find_input(&c, NINFER_PLANE_ACTIVATION) == nullptr);
    c.output_count = 0;
    CHECK(ninfer_find_output(&c, NINFER_PLANE_CODES) == nullptr);
    c.input_count = 0;
    c.inputs = nullptr;
    CHECK(ninfer_find_input(&c, NINFER_PLANE_PAYLOAD) == nullptr);
}

// ---- bytes.hpp and text.hpp: the one copy of byte, hex and name helpers ------------------------

static_assert(load_le(std::array<std::uint8_t, 3>{0x34, 0x12, 0xFF}.data(), 2) == 0x1234);
static_assert(find_status(NINFER_OK)->vector == "ok");
static_assert(find_status(NINFER_E_SIZE)->vector == "E_SIZE");
static_assert(find_status(NINFER_E_SIZE)->c_name == "NINFER_E_SIZE");
static_assert(find_status(NINFER_E_SIZE)->key == "size");
static_assert(status_of_vector_name("E_METHOD") == std::optional<std::int32_t>{NINFER_E_METHOD});
static_assert(!status_of_vector_name("NINFER_E_METHOD"));
static_assert(find_status(7) == nullptr);

TEST_CASE("bytes.hpp: little-endian words round-trip at every width, and appending matches storing") {
    for (int bytes = 0; bytes <= 8; ++bytes) {
        const std::uint64_t v = 0x8877665544332211ull;
        std::uint8_t buf[8] = {};
        store_le(buf, v, bytes);
        const std::uint64_t kept = bytes == 8 ? v : v & ((std::uint64_t{1} << (8 * bytes)) - 1);
        CHECK(load_le(buf, bytes) == kept);
        std::vector<std::uint8_t> out;
        append_le(out, v, bytes);
        CHECK(out == std::vector<std::uint8_t>(buf, buf + bytes));
        if (bytes >= 1) CHECK(buf[0] == 0x11);
    }
    std::uint8_t b[4] = {};
    store_le32(b, 0xDEADBEEF);
    CHECK(b[0] == 0xEF);
    CHECK(b[3] == 0xDE);
    CHECK(load_le16(b + 2) == 0xDEAD);
}

TEST_CASE("bytes.hpp: hex of words, of byte images in buffer order and of little-endian fields") {
    CHECK(hex_word(0x7fc0, 4) == "7fc0");
    CHECK(hex_word(0x1ff, 2) == "ff");
    CHECK(hex_word(0xA, 8) == "0000000a");
    const std::vector<std::uint8_t> img{0x01, 0xab, 0xff};
    CHECK(hex_bytes(img) == "01abff");
    CHECK(hex_bytes(std::span<const std::uint8_t>{}).empty());
    CHECK(hex_field_le(img, 0, 2) == "ab01");
    CHECK(hex_field_le(img, 2, 2) == "ff");  // a byte past the end is left out
    std::vector<std::uint8_t> back;
    CHECK(parse_hex_bytes("01ABff", back).empty());
    CHECK(back == img);
    CHECK(parse_hex_bytes("0", back) == "has an odd number of hex digits (1)");
    CHECK(parse_hex_bytes("0g", back) == "has a non-hex character at offset 1");
}

TEST_CASE("text.hpp: every status of plugin.h has its three spellings, derived from one row") {
    REQUIRE(kStatusSpellings.size() == kStatuses.size());
    for (std::size_t i = 0; i < kStatuses.size(); ++i) {
        const auto &s = kStatusSpellings[i];
        CHECK(s.value == kStatuses[i].value);
        CHECK(s.key == kStatuses[i].name);
        CHECK(s.c_name == "NINFER_" + std::string(s.value == 0 ? "OK" : s.vector));
    }
    CHECK(status_c_name(NINFER_E_INTERNAL) == "NINFER_E_INTERNAL");
    CHECK(status_c_name(-55) == "status -55");
}

TEST_CASE("text.hpp: a format or layout id in a message reads its name, none, or <kind>#<id>") {
    CHECK(format_label(NINFER_FORMAT_bf16) == "bf16");
    CHECK(format_label(0) == "none");
    CHECK(format_label(0xFFFF) == "format#65535");
    CHECK(layout_label(NINFER_LAYOUT_row_split_k128_v1) == "row_split_k128_v1");
    CHECK(layout_label(0) == "none");
    CHECK(layout_label(999) == "layout#999");
}
