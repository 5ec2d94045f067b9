// SPDX-License-Identifier: Apache-2.0
// Suites layout.contiguous_le_v1 and layout.registry (storage-layouts.md Sections 1, 2;
// tensor-formats.txt Sections 3.1, 9): contiguous_le_v1 words bit for bit at ranks 0..16, the
// size rule, size overflow, refusal of implicit cross-type encoding, and refusal by name of
// every unregistered format/layout pair.
#include "builders.hpp"

#include <stdexcept>

#include "ninfer/oracle/contiguous.hpp"

namespace ninfer::suites::scalar {

namespace {

constexpr RuleId kWordsRule = rule::layout_contiguous_le_v1_words;
constexpr RuleId kSizeRule = rule::layout_contiguous_le_v1_size;
constexpr RuleId kOverflowRule = rule::layout_contiguous_le_v1_overflow;
constexpr RuleId kCrossRule = rule::layout_contiguous_le_v1_cross_type;
constexpr RuleId kRegistryRule = rule::layout_registry_unregistered_pair;

/// A layout call and the oracle's answer: E_LAYOUT for an unregistered pair, E_CONVERSION for
/// words of another format, E_SIZE when the size overflows or `in` has the wrong size, else the
/// payload (encode) or the words (decode).
Case layout_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 std::uint32_t op, std::uint32_t layout, std::uint32_t format, std::uint32_t format_in, Words shape,
                 std::vector<std::uint8_t> in) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.layout = layout;
    c.format = format;
    c.format_in = op == NINFER_OP_layout_encode ? format_in : 0;
    c.shape = std::move(shape);
    c.input(op_planes(op, format, layout).inputs[0]) = std::move(in);
    if (!layout_accepts(layout, format)) {
        c.expect.status = NINFER_E_LAYOUT;
        return c;
    }
    if (op == NINFER_OP_layout_encode && format_in != format) {
        c.expect.status = NINFER_E_CONVERSION;
        return c;
    }
    const auto size = contiguous_payload_bytes(format, c.shape);
    if (!size || *size != c.inputs[0].bytes.size()) {
        c.expect.status = NINFER_E_SIZE;
        return c;
    }
    const int bytes = word_format(format).bytes();
    Words words;
    for (std::size_t i = 0; i < c.inputs[0].bytes.size() / static_cast<std::size_t>(bytes); ++i) words.push_back(get_word(c.inputs[0].bytes, i, bytes));
    if (op == NINFER_OP_layout_encode) {
        c.expect.output(NINFER_PLANE_PAYLOAD) = contiguous_encode(format, c.shape, words);
    } else {
        for (auto w : contiguous_decode(format, c.shape, c.inputs[0].bytes)) put_word(c.expect.output(NINFER_PLANE_WORDS), w, bytes);
    }
    return c;
}

std::uint64_t elements_of(const Words &shape) {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

/// Small dims of a rank-r shape (at most 576 elements at rank 16).
Words shape_of_rank(int r) {
    static constexpr std::uint64_t kDims[] = {2, 3, 1, 2, 1, 1, 2, 1};
    Words s;
    for (int i = 0; i < r; ++i) s.push_back(kDims[i % 8]);
    return s;
}

/// Logical words of a direct format: its special and boundary words first, then seeded fill.
std::vector<std::uint8_t> fill_words(const WordFormat &f, std::uint64_t n, std::uint64_t salt) {
    Words pool = special_words(f);
    for (auto w : binade_words(f)) pool.push_back(w);
    pool = unique(pool);
    std::mt19937_64 rng(0x5eed0000u + salt);
    std::vector<std::uint8_t> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t w = i < pool.size() ? pool[(i * 7 + salt * 5 + 11) % pool.size()] : rng() & f.mask();
        put_word(out, w, f.bytes());
    }
    return out;
}

std::vector<const WordFormat *> direct_formats() {
    std::vector<const WordFormat *> out;
    for (const auto &f : kWordFormats)
        if (layout_accepts(NINFER_LAYOUT_contiguous_le_v1, f.id)) out.push_back(&f);
    return out;
}

std::vector<Case> contiguous_golden() {
    std::vector<Case> out;
    const std::uint32_t L = NINFER_LAYOUT_contiguous_le_v1;
    const std::uint32_t enc = NINFER_OP_layout_encode, dec = NINFER_OP_layout_decode;
    for (const auto *fp : direct_formats()) {
        const auto &f = *fp;
        const std::string n(f.name);
        // Words: ranks 0..16, every special and boundary word, zero-size shapes.
        for (int r = 0; r <= static_cast<int>(NINFER_MAX_RANK); ++r) {
            const Words shape = shape_of_rank(r);
            const auto in = fill_words(f, elements_of(shape), static_cast<std::uint64_t>(r));
            const std::string slug = n + "_rank" + std::to_string(r);
            out.push_back(layout_case(kWordsRule, slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, shape, in));
            out.push_back(layout_case(kWordsRule, slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, shape, in));
        }
        {
            Words pool = special_words(f);
            for (auto w : binade_words(f)) pool.push_back(w);
            pool = unique(pool);
            std::vector<std::uint8_t> in;
            for (auto w : pool) put_word(in, w, f.bytes());
            const Words shape{pool.size()};
            out.push_back(layout_case(kWordsRule, n + "_all_specials_encode", Level::quick, "special values", enc, L, f.id, f.id, shape, in));
            out.push_back(layout_case(kWordsRule, n + "_all_specials_decode", Level::quick, "special values", dec, L, f.id, f.id, shape, in));
        }
        const Words zero_shapes[] = {{0}, {3, 0}, {0, 5, 2}, Words(NINFER_MAX_RANK, 0), {1, 1, 1, 0}};
        for (std::size_t i = 0; i < std::size(zero_shapes); ++i) {
            const std::string slug = n + "_zero_size_" + std::to_string(i);
            out.push_back(layout_case(kWordsRule, slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, zero_shapes[i], {}));
            out.push_back(layout_case(kWordsRule, slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, zero_shapes[i], {}));
        }
        // Size: in_bytes that do not match elements * word bytes.
        const std::uint64_t b = static_cast<std::uint64_t>(f.bytes());
        struct Sized {
            const char *slug;
            Words shape;
            std::uint64_t bytes;
        };
        const Sized sized[] = {{"one_word_short", {2, 3}, 5 * b},  {"one_word_long", {2, 3}, 7 * b},
                               {"one_byte_short", {2, 3}, 6 * b - 1}, {"one_byte_long", {2, 3}, 6 * b + 1},
                               {"empty_for_rank0", {}, 0},        {"bytes_for_zero_size", {4, 0}, b},
                               {"rank0_two_words", {}, 2 * b},
                               // the true product decides: a zero dimension after huge ones is size 0
                               {"zero_after_huge_dims", {1ull << 40, 1ull << 40, 0}, 0}};
        for (const auto &s : sized) {
            const auto in = fill_words(f, (s.bytes + b - 1) / b, 99);
            const std::vector<std::uint8_t> cut(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(s.bytes));
            out.push_back(layout_case(kSizeRule, n + "_" + s.slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, s.shape, cut));
            out.push_back(layout_case(kSizeRule, n + "_" + s.slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, s.shape, cut));
        }
        // Overflow: element counts or byte sizes beyond uint64 (no zero dimension anywhere); the
        // "wrap" shapes wrap around to exactly the size of `in`, which a wrapping reader accepts.
        const std::uint64_t max64 = ~0ull;
        struct Over {
            const char *slug;
            Words shape;
            std::uint64_t words;
        };
        const Over overs[] = {{"elements_2p64", {1ull << 32, 1ull << 32}, 4},
                              {"elements_max_times_2", {max64, 2}, 4},
                              {"elements_wrap_to_one", {3, 0xAAAAAAAAAAAAAAABull}, 1},
                              {"bytes_2p64", {(max64 / b) + 1}, 4},
                              {"bytes_wrap_to_one_word", {(max64 / b) + 2}, 1},
                              {"bytes_max", {max64}, 4},
                              {"rank16_of_16", Words(NINFER_MAX_RANK, 16), 4}};
        for (const auto &o : overs) {
            if (contiguous_payload_bytes(f.id, o.shape))
                throw std::logic_error("overflow shape " + std::string(o.slug) + " does not overflow");
            const auto in = fill_words(f, o.words, 7);
            out.push_back(layout_case(kOverflowRule, n + "_" + o.slug + "_encode", Level::quick, "boundary", enc, L, f.id, f.id, o.shape, in));
            out.push_back(layout_case(kOverflowRule, n + "_" + o.slug + "_decode", Level::quick, "boundary", dec, L, f.id, f.id, o.shape, in));
        }
        // Cross-type: words of any other word format offered for this direct tensor.
        for (const auto &g : kWordFormats) {
            if (g.id == f.id) continue;
            const auto in = fill_words(g, 4, 5);
            out.push_back(layout_case(kCrossRule, std::string(g.name) + "_words_for_" + n, Level::quick, "boundary", enc, L,
                                      f.id, g.id, {4}, in));
        }
    }
    return out;
}

std::vector<Case> contiguous_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level == Level::quick) return out;
    for (const auto *fp : direct_formats()) {
        const auto &f = *fp;
        std::mt19937_64 rng(seed ^ name_hash(std::string(kWordsRule) + "/" + std::string(f.name)));
        const int total = level == Level::full ? 16 : 64;
        for (int i = 0; i < total; ++i) {
            const int rank = static_cast<int>(rng() % (NINFER_MAX_RANK + 1));
            Words shape;
            std::uint64_t n = 1;
            for (int k = 0; k < rank; ++k) {
                const std::uint64_t d = n > 256 ? 1 : rng() % 5;  // keeps cases small; 0 gives a zero-size shape
                shape.push_back(d);
                n *= d;
            }
            std::vector<std::uint8_t> in;
            for (std::uint64_t k = 0; k < n; ++k) put_word(in, rng() & f.mask(), f.bytes());
            const Level l = i < 16 ? Level::full : Level::exhaustive;
            const std::string slug = std::string(f.name) + "_random_s" + std::to_string(seed) + "_" + std::to_string(i);
            const std::string source = "random seed=" + std::to_string(seed);
            const std::uint32_t op = (i % 2 == 0) ? NINFER_OP_layout_encode : NINFER_OP_layout_decode;
            out.push_back(layout_case(kWordsRule, slug, l, source, op, NINFER_LAYOUT_contiguous_le_v1, f.id, f.id, shape, in));
        }
    }
    return out;
}

std::vector<Case> registry_golden() {
    std::vector<Case> out;
    for (const auto &l : kLayouts)
        for (const auto &fv : kAllFormats) {
            const std::uint32_t id = fv.id;
            if (layout_accepts(l.id, id)) continue;
            const std::string slug = std::string(fv.name) + "_in_" + std::string(l.name);
            const std::vector<std::uint8_t> in(256, 0);
            for (std::uint32_t op : {NINFER_OP_layout_encode, NINFER_OP_layout_decode}) {
                const char *what = op == NINFER_OP_layout_encode ? "_encode" : "_decode";
                out.push_back(layout_case(kRegistryRule, slug + what, Level::quick, "registry", op, l.id, id, id, {1, 128}, in));
            }
        }
    return out;
}

}  // namespace

Suite contiguous_suite() {
    return {"layout.contiguous_le_v1",
            "contiguous_le_v1 words bit for bit at ranks 0..16, the size rule, size overflow, and refusal of "
            "implicit cross-type encoding (layout_encode, layout_decode)",
            cached_golden(contiguous_golden), random_of(contiguous_random)};
}

Suite registry_suite() {
    return {"layout.registry", "Every unregistered format/layout pair is refused by name (E_LAYOUT)",
            cached_golden(registry_golden), random_of(none)};
}

}  // namespace ninfer::suites::scalar
