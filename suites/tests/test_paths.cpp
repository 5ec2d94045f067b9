// SPDX-License-Identifier: Apache-2.0
// Path coverage (suites/paths.hpp, issue 21 section 6): the classifiers on hand-made calls, the
// generated cases at level full taking every required path of every required cell, and a case
// list without the cases of one path failing coverage with a gap that names it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/paths.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer::suites;

namespace {

const paths::Dimension &dimension(const std::string &name) {
    const auto &ds = paths::dimensions();
    const auto it = std::find_if(ds.begin(), ds.end(), [&](const paths::Dimension &d) { return d.name == name; });
    REQUIRE(it != ds.end());
    return *it;
}

std::size_t path_index(const paths::Dimension &d, const std::string &path) {
    const auto it = std::find(d.paths.begin(), d.paths.end(), path);
    REQUIRE(it != d.paths.end());
    return static_cast<std::size_t>(it - d.paths.begin());
}

/// An accepted nvfp4 layout_decode call of [n, k] whose scale words are all `scale`.
Case nvfp4_decode(std::uint64_t n, std::uint64_t k, std::uint8_t scale) {
    ninfer::oracle::Nvfp4Matrix m{n, k, std::vector<std::uint8_t>(n * k, 1), std::vector<std::uint8_t>(n * k / 16, scale), {0x3F800000u}};
    Case c = base_case(rule::block_scale_swizzle, "t", Level::quick, "test");
    c.op = NINFER_OP_layout_decode;
    c.format = NINFER_FORMAT_nvfp4;
    c.layout = NINFER_LAYOUT_block_scale_k16_m128x4_v1;
    c.shape = {n, k};
    c.count = n * k;
    c.input(NINFER_PLANE_PAYLOAD) = ninfer::oracle::block_scale_encode(m);
    return c;
}

/// The cases of the suites that the dimensions classify (nvfp4 payloads, linear, GGUF
/// quantizers), golden and seeded at level full.
const std::vector<Case> &full_cases() {
    static const std::vector<Case> cases = [] {
        std::vector<Case> out;
        for (const auto &s : suite_catalog()) {
            const bool classified = s.name.rfind("scaled.", 0) == 0 || s.name.rfind("layout.block_scale", 0) == 0 ||
                                    s.name.rfind("lesson.nvfp4", 0) == 0 || s.name.rfind("linear.", 0) == 0 ||
                                    s.name == "gguf.quantize";
            if (!classified) continue;
            for (auto &c : s.golden(Level::full)) out.push_back(std::move(c));
            for (auto &c : s.random(kDefaultSeed, Level::full)) out.push_back(std::move(c));
        }
        return out;
    }();
    return cases;
}

std::uint64_t count_of(const paths::Table &t, const std::string &dim, const std::string &rule, std::uint32_t op, const std::string &path) {
    const auto it = t.find({dim, rule, op});
    if (it == t.end()) return 0;
    return it->second.counts[path_index(dimension(dim), path)];
}

}  // namespace

TEST_CASE("paths: nvfp4 tiles and NaN scales come from the call's shape and scale words") {
    const auto &tiles = dimension("nvfp4.tiles");
    CHECK(tiles.classify(nvfp4_decode(128, 64, 0x38)) == 1u << path_index(tiles, "one_tile"));
    CHECK(tiles.classify(nvfp4_decode(256, 64, 0x38)) == 1u << path_index(tiles, "row_tiles"));
    CHECK(tiles.classify(nvfp4_decode(128, 128, 0x38)) == 1u << path_index(tiles, "k_tiles"));
    CHECK(tiles.classify(nvfp4_decode(256, 128, 0x38)) == 1u << path_index(tiles, "both_tiles"));
    auto refused = nvfp4_decode(256, 128, 0x38);
    refused.expect.status = NINFER_E_INVALID_PAYLOAD;
    CHECK(tiles.classify(refused) == 0);  // a refused call takes no tile walk
    const auto &nan = dimension("nvfp4.scale_nan");
    CHECK(nan.classify(nvfp4_decode(128, 64, 0x7F)) == 1u << path_index(nan, "nan_7f"));
    CHECK(nan.classify(nvfp4_decode(128, 64, 0xFF)) == 1u << path_index(nan, "nan_ff"));
    CHECK(nan.classify(nvfp4_decode(128, 64, 0x38)) == 1u << path_index(nan, "no_nan"));
    auto bad_shape = nvfp4_decode(128, 64, 0x7F);
    bad_shape.shape = {129, 64};
    CHECK(nan.classify(bad_shape) == 0);
}

TEST_CASE("paths: the cases at level full take every required path of every required cell") {
    const auto table = paths::tabulate(full_cases());
    const auto gaps = paths::gaps(table, paths::kDefaultMinCasesPerPath);
    std::string lines;
    for (const auto &g : gaps) lines += paths::gap_line(g) + "\n";
    INFO(lines);
    CHECK(gaps.empty());
    // Every dimension has a required cell, and every required path of it is taken somewhere.
    for (const auto &d : paths::dimensions()) {
        INFO("dimension " << d.name);
        for (std::size_t i = 0; i < d.paths.size(); ++i) {
            if (!(d.required >> i & 1u)) continue;
            std::uint64_t taken = 0;
            for (const auto &[key, cell] : table)
                if (std::get<0>(key) == d.name && cell.required) taken += cell.counts[i];
            INFO("path " << d.paths[i]);
            CHECK(taken > 0);
        }
    }
    // Section 6's classes, cell by cell.
    for (const auto op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode})
        CHECK(count_of(table, "nvfp4.tiles", rule::block_scale_swizzle, op, "both_tiles") > 0);
    CHECK(count_of(table, "nvfp4.tiles", rule::nvfp4_reconstruct, NINFER_OP_quant_decode, "both_tiles") > 0);
    CHECK(count_of(table, "nvfp4.tiles", rule::block_scale_gather, NINFER_OP_rows_select, "both_tiles") > 0);
    for (const auto op : {NINFER_OP_payload_validate, NINFER_OP_layout_decode, NINFER_OP_quant_decode})
        for (const auto *path : {"nan_7f", "nan_ff"}) {
            INFO(ninfer::abi::op_name(op) << " " << path);
            CHECK(count_of(table, "nvfp4.scale_nan", rule::nvfp4_scale_validity, op, path) > 0);
        }
    CHECK(count_of(table, "nvfp4.scale_nan", rule::linear_payload, NINFER_OP_linear, "nan_7f") > 0);
    const std::string cr = rule::linear_criterion(*ninfer::abi::find_id(ninfer::abi::kCriteria, NINFER_CRITERION_correctly_rounded));
    CHECK(count_of(table, "linear.output_midpoint", cr, NINFER_OP_linear, "double_rounding_differs") > 0);
    CHECK(count_of(table, "linear.weight_subnormal.fp16", cr, NINFER_OP_linear, "subnormal") > 0);
    CHECK(count_of(table, "linear.weight_subnormal.bf16", cr, NINFER_OP_linear, "subnormal") > 0);
    for (const auto *path : {"all_positive", "all_negative", "mixed"})
        CHECK(count_of(table, "gguf.min_signs", "gguf.quantize.gguf_q4_1", NINFER_OP_quant_encode, path) > 0);
}

TEST_CASE("paths: without the cases of a path, coverage names the gap") {
    const auto &tiles = dimension("nvfp4.tiles");
    const auto both = 1u << path_index(tiles, "both_tiles");
    std::vector<Case> without;
    for (const auto &c : full_cases())
        if (!(c.rule == rule::block_scale_swizzle.view() && c.op == NINFER_OP_layout_decode && (tiles.classify(c) & both))) without.push_back(c);
    REQUIRE(without.size() < full_cases().size());
    const auto gaps = paths::gaps(paths::tabulate(without), paths::kDefaultMinCasesPerPath);
    REQUIRE(gaps.size() == 1);
    CHECK(gaps[0].rule == rule::block_scale_swizzle.view());
    CHECK(gaps[0].op == NINFER_OP_layout_decode);
    CHECK(gaps[0].path == "both_tiles");
    CHECK(gaps[0].count == 0);
    CHECK(paths::gap_line(gaps[0]) == "path gap: block_scale.swizzle layout_decode nvfp4.tiles=both_tiles: 0 cases, minimum 1");
    // A minimum above what the suite has names every required path below it.
    const auto strict = paths::gaps(paths::tabulate(full_cases()), 1000000);
    CHECK(strict.size() > 10);
    CHECK(std::all_of(strict.begin(), strict.end(), [](const paths::Gap &g) { return g.minimum == 1000000 && g.count < 1000000; }));
}
