// SPDX-License-Identifier: Apache-2.0
// Issue 34 item 6 (recipe fingerprints; suites/RECIPES.md, docs/cli.md "Recipes"): the reference's
// two MXFP4 encoders named as their canonical points, every recipe mutant named as the point its
// comment states, a garbage subject named none, the probes separating every pair of points, and
// the JSON record read back.
#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>

#include "ninfer/harness/recipe_fingerprint.hpp"
#include "ninfer/reports/report.hpp"

using namespace ninfer::harness;
namespace rp = ninfer::harness::recipes;

namespace {

std::unique_ptr<Subject> plugin(const std::string &name) {
    SubjectOptions o;
    o.worker_executable = NINFER_CONFORM_EXE;
    return open_plugin(std::string(NINFER_PLUGIN_DIR) + "/" + name + ".so", o);
}

ninfer::reports::Fingerprint of(Subject &s, std::uint32_t method) {
    std::string error;
    auto f = rp::recipe_fingerprint(s, NINFER_FORMAT_gguf_mxfp4, method, error);
    INFO(error);
    REQUIRE(error.empty());
    return f;
}

/// Every point's bytes on every probe.
std::vector<std::vector<rp::Encoded>> encodes(const rp::Lattice &l) {
    std::vector<std::vector<rp::Encoded>> out;
    for (const auto &point : l.points) {
        out.emplace_back();
        for (const auto &p : l.probes) out.back().push_back(l.encode(point, p));
    }
    return out;
}

/// Every pair of the lattice's points gives different bytes on some probe.
void check_separated(const rp::Lattice &l) {
    const auto bytes = encodes(l);
    for (std::size_t i = 0; i < l.points.size(); ++i)
        for (std::size_t j = i + 1; j < l.points.size(); ++j) {
            const bool apart = bytes[i] != bytes[j];
            INFO(l.points[i].name() << " vs " << l.points[j].name());
            CHECK(apart);
        }
}

/// A subject and the point the fingerprint must name it as.
struct Named {
    const char *plugin, *point;
    bool canonical;
};

/// Each subject named as its point, and only that point, on every probe.
void check_named(std::initializer_list<Named> rows, std::uint32_t format, std::uint32_t method) {
    for (const auto &r : rows) {
        INFO(r.plugin);
        auto s = plugin(r.plugin);
        std::string error;
        const auto f = rp::recipe_fingerprint(*s, format, method, error);
        INFO(error);
        REQUIRE(error.empty());
        INFO(f.sentence);
        CHECK(f.named == r.point);
        CHECK(f.recipe->recipes == std::vector<std::string>{r.point});
        CHECK(f.recipe->canonical == r.canonical);
        CHECK(f.matched == f.inputs);
    }
}

/// A subject that answers every encode with the same garbage bytes.
class Garbage : public Subject {
public:
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return none_; }
    Reply call(const Call &c) override {
        Reply r;
        r.outcome = Outcome::returned;
        r.status = NINFER_OK;
        r.outputs.push_back({NINFER_PLANE_PAYLOAD, 0, std::vector<std::uint8_t>(c.outputs.at(0).capacity, 0x5A)});
        return r;
    }

private:
    SubjectInfo info_;
    std::string none_;
};

}  // namespace

TEST_CASE("the reference's MXFP4 encoders are their methods' canonical recipes", "[recipes]") {
    auto s = plugin("reference");
    const auto ocp = of(*s, NINFER_ENCODER_mxfp4_ocp);
    CHECK(ocp.named == "floor/nearest_first");
    REQUIRE(ocp.recipe);
    CHECK(ocp.recipe->canonical);
    CHECK(ocp.recipe->recipes == std::vector<std::string>{"floor/nearest_first"});
    CHECK(ocp.sentence.find("matches recipe floor/nearest_first (canonical for mxfp4_ocp)") != std::string::npos);
    CHECK(ocp.rounding == "rnz");
    const auto ggml = of(*s, NINFER_ENCODER_ggml_quantize_ref);
    CHECK(ggml.named == "floor_log2f/nearest_first");
    CHECK(ggml.recipe->canonical);
}

TEST_CASE("every MXFP4 recipe mutant is named as its point", "[recipes]") {
    struct Row {
        const char *mutant;
        std::uint32_t method;
        const char *point;
    };
    const Row rows[] = {
        {"mutant_gguf_mxfp4_elements_rne", NINFER_ENCODER_mxfp4_ocp, "floor/rne"},
        {"mutant_gguf_mxfp4_scale_ceil", NINFER_ENCODER_mxfp4_ocp, "ceil/rne"},
        {"mutant_gguf_mxfp4_scale_even", NINFER_ENCODER_mxfp4_ocp, "even/rne"},
        {"mutant_gguf_mxfp4_scale_rceil", NINFER_ENCODER_mxfp4_ocp, "rceil/rne"},
        {"mutant_gguf_mxfp4_ties_up", NINFER_ENCODER_mxfp4_ocp, "floor/nearest_last"},
        // ggml's quantizer with the exact floor(log2): the lesson's recipe, not ggml's
        {"mutant_gguf_mxfp4_exact_log2", NINFER_ENCODER_ggml_quantize_ref, "floor/nearest_first"},
    };
    for (const auto &r : rows) {
        INFO(r.mutant);
        auto s = plugin(r.mutant);
        const auto f = of(*s, r.method);
        CHECK(f.named == r.point);
        CHECK(f.recipe->recipes == std::vector<std::string>{r.point});
        CHECK_FALSE(f.recipe->canonical);
        CHECK(f.matched == f.inputs);
    }
}

TEST_CASE("a garbage quantizer is no recipe of the lattice, with its first distinguishing probe", "[recipes]") {
    Garbage g;
    const auto f = of(g, NINFER_ENCODER_mxfp4_ocp);
    CHECK(f.named.empty());
    CHECK(f.recipe->recipes.empty());
    CHECK(f.matched < f.inputs);
    CHECK(f.sentence.find("no recipe of the lattice; nearest ") != std::string::npos);
    CHECK(f.sentence.find("first distinguishing probe element_ties: subject 5a5a") != std::string::npos);
    REQUIRE(f.residue.size() == 1);
    std::string garbage;
    for (int i = 0; i < 17; ++i) garbage += "5a";  // one 17-byte block
    CHECK(f.residue[0].actual == garbage);
}

TEST_CASE("the probes separate every pair of points of the MXFP4 lattice", "[recipes]") {
    for (const auto method : {NINFER_ENCODER_mxfp4_ocp, NINFER_ENCODER_ggml_quantize_ref}) {
        const auto l = rp::lattice_of(NINFER_FORMAT_gguf_mxfp4, method);
        REQUIRE(l.points.size() == 15);
        check_separated(l);
    }
}

TEST_CASE("a recipe fingerprint's JSON record reads back", "[recipes]") {
    auto s = plugin("mutant_gguf_mxfp4_scale_rceil");
    const auto f = of(*s, NINFER_ENCODER_mxfp4_ocp);
    const auto j = ninfer::reports::fingerprint_json(f);
    CHECK(j["recipe"]["coordinates"][0]["axis"] == "scale");
    CHECK(j["recipe"]["coordinates"][0]["value"] == "rceil");
    CHECK(j["domain"] == "recipe_probes");
    std::string error;
    const auto back = ninfer::reports::fingerprints_from_json(nlohmann::json::array({nlohmann::json::parse(j.dump())}), error);
    INFO(error);
    REQUIRE(back);
    CHECK(back->at(0) == f);
}

TEST_CASE("grouped_absmax subjects are named by normalization and code rounding", "[recipes]") {
    check_named({{"reference", "reciprocal/rne", true},
                 {"mutant_grouped_division", "division/rne", false},
                 {"mutant_grouped_truncation", "reciprocal/rtz", false},
                 {"mutant_grouped_ties_away", "reciprocal/rna", false},
                 {"mutant_grouped_division_ties_away", "division/rna", false},
                 {"mutant_grouped_division_truncation", "division/rtz", false}},
                NINFER_FORMAT_q4_g64_fp16, NINFER_ENCODER_grouped_absmax);
}

TEST_CASE("the probes separate every pair of points of the grouped lattices", "[recipes]") {
    for (const auto format : {NINFER_FORMAT_q4_g64_fp16, NINFER_FORMAT_q8_g32_fp16}) {
        const auto l = rp::lattice_of(format, NINFER_ENCODER_grouped_absmax);
        REQUIRE(l.points.size() == 6);
        INFO(format);
        check_separated(l);
    }
}

TEST_CASE("nvfp4 two-level subjects are named by scale formula, scale rounding, normalization and elements", "[recipes]") {
    check_named({{"reference", "lesson/rne/division/nearest_first", true},
                 {"mutant_scaled_nvfp4_te_recipe", "te/rne/reciprocal/rne", false},
                 {"mutant_scaled_nvfp4_te_scale_half_up", "te/rnu/reciprocal/rne", false}},
                NINFER_FORMAT_nvfp4, NINFER_ENCODER_nvfp4_two_level);
}

TEST_CASE("the probes separate every pair of points of the nvfp4 lattice", "[recipes]") {
    const auto l = rp::lattice_of(NINFER_FORMAT_nvfp4, NINFER_ENCODER_nvfp4_two_level);
    REQUIRE(l.points.size() == 16);
    REQUIRE(l.probes.size() == 4);
    for (const auto &p : l.probes) {
        INFO(p.slug);
        CHECK(p.shape == std::vector<std::uint64_t>{128, 64});
    }
    check_separated(l);
}
