// SPDX-License-Identifier: Apache-2.0
// Suite gguf.decode: quant_decode of every GGUF block type in ggml_blocks_v1, bit for bit ggml's
// dequantize_row_<type> (tensor-formats.txt, the paragraph "A gguf_* weight is a row-major [N,K]
// matrix ..."): extreme scale words (zero, subnormal, largest, negative, infinite, NaN) in every
// scale field ggml reads, every code, grid index, sign-table entry and sub-block scale (the
// coverage blocks of builders.cpp), rows of several blocks and odd leading shapes.
#include "builders.hpp"

namespace ninfer::suites::gguf {

namespace {

/// The shape of n blocks of a type: [4, n/4 blocks] when n is a multiple of 4 (n >= 4), else
/// [n, one block] (n > 1), else one block of rank 1.
Shape rows_of(const GgufType &t, std::size_t n) {
    if (n >= 4 && n % 4 == 0) return {4, n / 4 * t.block_values};
    if (n > 1) return {n, t.block_values};
    return {t.block_values};
}

/// A seeded block with every scale field at its unit word (a second binary16 field at 0.5).
Bytes seeded_unit_block(const GgufType &t, std::mt19937_64 &rng) {
    Bytes b = seeded_block(t, rng);
    bool first = true;
    for (const auto &f : scale_fields(t)) {
        set_scale(b, f, !first && f.kind == ScaleKind::fp16 ? 0x3800 : unit_scale(f.kind));
        first = false;
    }
    return b;
}

void type_cases(const GgufType &t, std::vector<Case> &out) {
    const std::string rule = rule::gguf_decode(t), nm = name_of(t);
    std::mt19937_64 rng(kGoldenSeed ^ t.id);
    const Bytes body = seeded_unit_block(t, rng);
    const auto fields = scale_fields(t);
    // 1. Extreme words in each scale field (ggml's nvfp4: all four sub-block scales at once). For
    // the 256-value types the finite extremes of the super-block scale ride on the first blocks
    // of the coverage groups (below); the zeros, infinities and NaNs get blocks of their own.
    const bool big = t.block_values >= 256;
    auto finite_extreme = [](const std::string &slug) {
        return slug == "subnormal_min" || slug == "subnormal_max" || slug == "largest" || slug == "negative" || slug == "neg_largest";
    };
    std::vector<std::pair<std::string, std::uint32_t>> riding;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto &f = fields[i];
        if (f.kind == ScaleKind::ue4m3 && i > 0) break;
        for (const auto &[slug, word] : extreme_scales(f.kind)) {
            // A second field (m, dmin, s): its largest, infinite and NaN words only.
            if (i > 0 && slug != "largest" && slug != "inf" && slug != "qnan") continue;
            if (big && (slug == "snan" || slug == "neg_inf")) continue;
            if (big && i == 0 && finite_extreme(slug)) {
                riding.emplace_back(slug, word);
                continue;
            }
            Bytes b = body;
            if (f.kind == ScaleKind::ue4m3)
                for (const auto &g : fields) set_scale(b, g, word);
            else set_scale(b, f, word);
            out.push_back(decode_case(rule, nm + "." + (f.kind == ScaleKind::ue4m3 ? "d" : f.name) + "." + slug, Level::quick,
                                      "special values", t, {t.block_values}, b));
        }
    }
    // 2. Coverage blocks: every code, grid index, sign pattern, sub-block scale; the first blocks
    // carry the finite extreme scales of a 256-value type (slug suffix "+d_extremes").
    for (auto g : coverage_blocks(t)) {
        std::string slug = g.slug;
        if (!riding.empty()) {
            const Bytes unit = g.blocks.back();  // padding blocks keep the unit scale
            for (std::size_t i = 0; i < riding.size(); ++i) {
                if (i >= g.blocks.size()) g.blocks.push_back(unit);
                set_scale(g.blocks[i], fields[0], riding[i].second);
            }
            if (g.blocks.size() > 4 && g.blocks.size() % 4) g.blocks.resize((g.blocks.size() + 3) / 4 * 4, unit);
            riding.clear();
            slug += "+d_extremes";
        }
        out.push_back(decode_case(rule, nm + "." + slug, Level::quick, "domain", t, rows_of(t, g.blocks.size()), concat(g.blocks)));
    }
    // 3. Rows of several blocks and odd leading shapes: rank 1 with two blocks and rank 3 [2,3,K];
    // for the 256-value types rank 3 [1,2,K] (their rank-1 cases are the blocks above).
    const std::vector<Shape> shapes = big ? std::vector<Shape>{{1, 2, t.block_values}}
                                          : std::vector<Shape>{{2 * t.block_values}, {2, 3, t.block_values}};
    for (const Shape &shape : shapes) {
        std::vector<Bytes> blocks;
        for (std::uint64_t i = 0; i < elements(shape) / t.block_values; ++i) blocks.push_back(seeded_block(t, rng));
        out.push_back(decode_case(rule, nm + ".seeded." + shape_slug(shape), Level::quick, "boundary", t, shape, concat(blocks)));
    }
}

std::vector<Case> golden() {
    std::vector<Case> out;
    for (const auto &t : kGgufTypes) type_cases(t, out);
    return out;
}

std::vector<Case> seeded(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level == Level::quick) return out;
    const int n = level == Level::full ? 2 : 6;
    for (const auto &t : kGgufTypes) {
        std::mt19937_64 rng(seed ^ (t.id * 0x9E3779B97F4A7C15ull));
        for (int i = 0; i < n; ++i) {
            const Shape shape = i % 2 ? Shape{2, 2, t.block_values} : Shape{3, 2 * t.block_values};
            std::vector<Bytes> blocks;
            for (std::uint64_t b = 0; b < elements(shape) / t.block_values; ++b) blocks.push_back(seeded_block(t, rng));
            out.push_back(decode_case(rule::gguf_decode(t), name_of(t) + ".random" + std::to_string(i), level,
                                      "random seed=" + std::to_string(seed), t, shape, concat(blocks)));
        }
    }
    return out;
}

}  // namespace

Suite decode_suite() {
    return {"gguf.decode",
            "quant_decode of every GGUF block type (ggml_blocks_v1): ggml's dequantize_row_* bit for bit, extreme scales, "
            "every code, grid index, sign pattern and sub-block scale",
            cached_golden(&golden), random_of(&seeded)};
}

}  // namespace ninfer::suites::gguf
