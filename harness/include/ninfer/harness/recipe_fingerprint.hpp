// SPDX-License-Identifier: Apache-2.0
// Recipe fingerprints of block quantizers (issue 34 item 6; suites/RECIPES.md, docs/cli.md
// "Recipes"): which point of a recipe lattice (the choices real producers differ in) a subject's
// quant_encode implements, from probe blocks that separate every pair of points.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ninfer/harness/subject.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness::recipes {

/// One probe: a small source tensor (binary32 words, shape) and why it is there.
struct Probe {
    std::string slug;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint32_t> x;
};

/// What an encode gives: a status, and the payload when it is NINFER_OK.
struct Encoded {
    std::int32_t status = 0;
    std::vector<std::uint8_t> payload;
    bool operator==(const Encoded &) const = default;
};

/// One point of a lattice: its coordinates (one value name per axis) and its exact encoder.
struct Point {
    std::vector<std::string> coordinates;
    std::string name() const;  ///< "floor/rne": the coordinates joined by '/'
};

/// A lattice of one family on one format and encoder method.
struct Lattice {
    std::string family;              ///< "mxfp4", "grouped", "nvfp4"
    std::string probe_unit;          ///< what one probe is, for the sentence: "blocks", "groups", "tensors"
    std::uint32_t format = 0, layout = 0, method = 0;
    std::vector<std::string> axes;   ///< axis names ("scale", "elements")
    std::vector<Point> points;
    std::size_t canonical = 0;       ///< the point that is the method's own recipe
    std::vector<Probe> probes;
    std::function<Encoded(const Point &, const Probe &)> encode;  ///< the oracle's bytes of a point
    std::function<std::string(const Point &)> text;               ///< the point in words
};

/// The lattice of a format and method (nullptr-like empty family when there is none): gguf_mxfp4
/// with mxfp4_ocp or ggml_quantize_ref.
Lattice lattice_of(std::uint32_t format, std::uint32_t method);
bool has_lattice(std::uint32_t format, std::uint32_t method);

/// The probes' verdict: every point consistent with every probe (the canonical first when it is
/// one), else the nearest point and the first probe it misses.
struct RecipeMatch {
    std::vector<std::size_t> consistent;
    std::size_t nearest = 0, nearest_matched = 0, probes = 0;
    std::string first_slug;    ///< the nearest point's first missed probe
    Encoded first_subject, first_expected;
    std::vector<std::uint32_t> first_input;
};
RecipeMatch match_recipe(const Lattice &l, const std::vector<Encoded> &answers);

/// The subject's encodes of every probe (one call each); `error` set when a call failed
/// (crash, timeout, protocol).
std::vector<Encoded> encode_probes(Subject &s, const Lattice &l, std::string &error);

/// The fingerprint record and sentence ("quant_encode gguf_mxfp4 by mxfp4_ocp (recipe probes:
/// N blocks): matches recipe floor/nearest_first (canonical): ...").
reports::Fingerprint recipe_fingerprint(Subject &s, std::uint32_t format, std::uint32_t method, std::string &error);

}  // namespace ninfer::harness::recipes
