// SPDX-License-Identifier: Apache-2.0
// Suite grouped.search: grouped_search as the suite reads it (tensor-formats.txt Section 7.3;
// oracle/GROUPED.md R3, R4): strict improvement, candidates, importance, negative scales.
#include "builders.hpp"

namespace ninfer::suites::grouped {

namespace {

Case search_case(const std::string &rule, const std::string &slug, Level level, const GroupedFormat &f, std::uint64_t n,
                 std::uint64_t k, const U32 &x, const U32 &importance = {}, bool negative = false) {
    return encode_case(rule, slug, level, "suite reading GROUPED.md R3", f, NINFER_FORMAT_fp32, n, k, le32(x),
                       NINFER_ENCODER_grouped_search, importance, negative);
}

U32 seeded_importance(std::uint64_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    U32 w;
    for (std::uint64_t i = 0; i < k; ++i) w.push_back(rng() % 11 == 0 ? 0u : seeded_f32(rng, 120, 130) & 0x7FFFFFFFu);
    return w;
}

std::vector<Case> search_golden() {
    std::vector<Case> out;
    for (const auto *fp : canonical_formats()) {
        const auto &f = *fp;
        const std::string nm = name_of(f);
        const auto G = static_cast<std::uint64_t>(f.group);
        // A group the 7.2 result already reproduces exactly: no candidate is strictly better.
        U32 exact(G);
        for (std::uint64_t i = 0; i < G; ++i) exact[i] = f32w(f.qmin + static_cast<int>(i % static_cast<std::uint64_t>(f.qmax - f.qmin)) + 1, -4);
        exact[0] = f32w(f.qmax, -4);
        out.push_back(search_case(rule::grouped_search_strict_improvement, nm + ".exact_grid_kept", Level::quick, f, 1, G, exact));
        // Equal errors: amax / qmax = 1 + 2^-11 lies halfway between the binary16 words 0x3C00 (the
        // 7.2 scale, even) and 0x3C01 (its next-up neighbour, a later candidate); both leave the
        // same error, so the incumbent 0x3C00 stays. Replacing on equal error picks 0x3C01.
        U32 tie(G, 0);
        tie[0] = f32w(static_cast<std::int64_t>(f.qmax) * 2049, -11);
        out.push_back(search_case(rule::grouped_search_strict_improvement, nm + ".equal_error_kept", Level::quick, f, 1, G, tie));
        tie[G / 2] = f32w(-static_cast<std::int64_t>(f.qmax) * 2049, -11);
        out.push_back(search_case(rule::grouped_search_strict_improvement, nm + ".equal_error_kept_two_lanes", Level::quick, f, 1, G, tie));
        // +amax and -amax in one group: the extreme is the first such lane (R3). Lanes on the
        // grid amax/|qmin| make the full-range candidate of the extreme's sign the best one.
        for (const bool negative : {false, true})
            for (const bool plus_first : {true, false}) {
                U32 pm(G);
                for (std::uint64_t i = 0; i < G; ++i)
                    pm[i] = f32w(static_cast<std::int64_t>(i * 5 % static_cast<std::uint64_t>(2 * -f.qmin - 1)) + f.qmin + 1, -6);
                pm[3] = f32w(plus_first ? -f.qmin : f.qmin, -6);
                pm[G - 4] = f32w(plus_first ? f.qmin : -f.qmin, -6);
                out.push_back(search_case(negative ? rule::grouped_search_negative_scales : rule::grouped_search_candidates,
                                          nm + ".amax_tie_" + (plus_first ? "plus_first" : "minus_first") + (negative ? ".negative" : ""),
                                          Level::quick, f, 1, G, pm, {}, negative));
            }
        // Seeded groups where the search moves away from 7.2; with and without importance.
        for (const std::uint64_t k : distinct({G, G + 7, 3 * G})) {
            const U32 x = seeded_source(2, k, kGoldenSeed ^ (f.id * 77 + k));
            out.push_back(search_case(rule::grouped_search_candidates, nm + ".seeded_" + shape_slug(2, k), Level::quick, f, 2, k, x));
            out.push_back(search_case(rule::grouped_search_importance, nm + ".seeded_" + shape_slug(2, k), Level::quick, f, 2, k, x,
                                      seeded_importance(k, kGoldenSeed + k)));
            out.push_back(search_case(rule::grouped_search_importance, nm + ".all_ones_" + shape_slug(2, k), Level::quick, f, 2, k, x,
                                      U32(k, 0x3F800000u)));
        }
        // A large positive outlier: the full-range scale -m/qmin competes only with negative_scales.
        U32 outlier = seeded_source(1, G, kGoldenSeed ^ (f.id * 91));
        outlier[5] = f32w(1, 3);
        for (const bool negative : {false, true})
            out.push_back(search_case(rule::grouped_search_negative_scales, nm + ".outlier" + (negative ? ".enabled" : ".disabled"),
                                      Level::quick, f, 1, G, outlier, {}, negative));
        // Valid words in the corners: subnormal scales, rescue, largest scales, zeros.
        U32 corner(4 * G, 0);
        for (std::uint64_t i = 0; i < G; ++i) corner[i] = f32w(static_cast<std::int64_t>(i % 7) - 3, -30);
        for (std::uint64_t i = G; i < 2 * G; ++i) corner[i] = f32w(static_cast<std::int64_t>(i % 5) + 1, -149);
        for (std::uint64_t i = 2 * G; i < 3 * G; ++i) corner[i] = f32w(-static_cast<std::int64_t>(i % 13) * f.qmax * 4000, 0);
        out.push_back(search_case(rule::grouped_search_valid_words, nm + ".corners", Level::quick, f, 1, 4 * G, corner));
        out.push_back(search_case(rule::grouped_search_valid_words, nm + ".corners_negative", Level::quick, f, 1, 4 * G, corner, {}, true));
        // Refusals: an overflowing group, a non-finite source, a bad importance vector.
        U32 over(G, f32w(1, -2));
        over[3] = f32w(f.qmax * 65520, 0);
        out.push_back(search_case(rule::grouped_absmax_scale_overflow, nm + ".search", Level::quick, f, 1, G, over));
        U32 inf(G, f32w(1, -2));
        inf[G - 1] = 0x7F800000u;
        out.push_back(search_case(rule::grouped_absmax_nonfinite, nm + ".search", Level::quick, f, 1, G, inf));
        const U32 x = seeded_source(1, G, kGoldenSeed + 5);
        U32 bad(G, 0x3F800000u);
        bad[9] = 0xBF800000u;
        out.push_back(search_case(rule::grouped_search_importance, nm + ".negative_weight", Level::quick, f, 1, G, x, bad));
        bad[9] = 0x7FC00000u;
        out.push_back(search_case(rule::grouped_search_importance, nm + ".nan_weight", Level::quick, f, 1, G, x, bad));
        out.push_back(search_case(rule::grouped_search_importance, nm + ".short_vector", Level::quick, f, 1, G, x, U32(G - 1, 0x3F800000u)));
        // Seeded matrices (level full and above).
        const U32 big = seeded_source(17, 130, kGoldenSeed ^ (f.id * 1234567));
        out.push_back(search_case(rule::grouped_search_candidates, nm + ".seeded_17x130", Level::full, f, 17, 130, big));
        out.push_back(search_case(rule::grouped_search_negative_scales, nm + ".seeded_17x130", Level::full, f, 17, 130, big, {}, true));
    }
    return out;
}

std::vector<Case> search_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x5ea2c4u);
    const int per_format = level == Level::exhaustive ? 6 : 2;
    for (const auto *fp : canonical_formats())
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % 8, k = 1 + rng() % 260;
            const bool with_imp = i % 2 == 1, negative = (rng() & 1) != 0;
            out.push_back(search_case(rule::grouped_search_candidates, name_of(*fp) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                      level, *fp, n, k, seeded_source(n, k, rng()), with_imp ? seeded_importance(k, rng()) : U32{},
                                      negative));
            out.back().source = "random seed=" + std::to_string(seed);
        }
    return out;
}

}  // namespace

Suite search_suite() {
    return {"grouped.search",
            "grouped_search as the suite reads it (oracle/GROUPED.md R3, R4): strict improvement, candidates, "
            "importance, negative scales (quant_encode; every accepted case is the suite's reading)",
            cached_golden(search_golden), random_of(search_random)};
}

}  // namespace ninfer::suites::grouped
