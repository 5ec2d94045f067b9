// SPDX-License-Identifier: Apache-2.0
// Suite scalar.convert: every named conversion (tensor-formats.txt Sections 3.1, 3.3, 6.2;
// number-formats-lesson.txt Examples 3-9, 13-15; the NaN principle of oracle/README.md): ties
// and their neighbours, binade, subnormal and overflow thresholds, specials, NaN payloads,
// whole narrow domains.
#include "builders.hpp"
#include "convert_sr.hpp"

#include <array>
#include <map>
#include <mutex>
#include <stdexcept>

#include "ninfer/suites/conversions.hpp"
#include "ninfer/suites/nan_principle.hpp"

namespace ninfer::suites::scalar {

namespace {

/// A NaN profile case of a conversion (nan_principle.hpp): its NaN source words under the profile
/// rule (convert.<name>.nan_payload: the oracle's word bit for bit; convert.<name>.nan_sign: a NaN
/// of the input's sign, quiet where the target has a quiet bit) and that rule's NaN policy.
Case nan_profile_case(const Conversion &cv, const std::string &rule, NanPolicy policy, const std::string &source,
                      const Words &words);

/// The NaN policy of a conversion's rule: the NaN principle's (nan_principle.hpp).
NanPolicy nan_policy(const Conversion &c) { return nan_principle(c).policy; }

Case convert_case(const Conversion &cv, const std::string &slug, Level level, const std::string &source,
                  const Words &words) {
    const auto &src = word_format(cv.src);
    const auto &dst = word_format(cv.dst);
    Case c = base_case(rule::convert(cv), slug, level, source);
    const bool rule_reading = rule_of(c.rule).suite_reading;
    c.op = NINFER_OP_convert;
    c.format = dst.id;
    c.format_in = src.id;
    c.method = cv.id;
    const bool stochastic = abi::is_stochastic(cv);
    for (auto packed : words) {
        const std::uint64_t w = sr_source_word(cv, packed);  // an sr word carries its random value (convert_sr.hpp)
        if (!conversion_in_domain(cv, w)) throw std::logic_error("case " + c.id + ": word outside the conversion's domain");
        put_word(c.input(NINFER_PLANE_WORDS), w, src.bytes());
        if (stochastic) put_word(c.input(NINFER_PLANE_RANDOM), sr_random_value(packed), 4);
        const std::uint64_t expected = stochastic ? convert_word_sr(cv, w, sr_random_value(packed)) : convert_word(cv, w);
        put_word(c.expect.output(NINFER_PLANE_WORDS), expected, dst.bytes());
        c.suite_reading = c.suite_reading || conversion_word_is_reading(cv, w, rule_reading);
    }
    c.count = words.size();
    c.nan = nan_policy(cv);
    return c;
}

Case nan_profile_case(const Conversion &cv, const std::string &rule, NanPolicy policy, const std::string &source,
                      const Words &words) {
    Case c = convert_case(cv, "nan_words", Level::quick, source, words);
    c.rule = rule;
    c.id = c.rule + "/nan_words";
    c.nan = policy;
    c.suite_reading = true;
    return c;
}

/// The NaN profile cases of a conversion (payload, sign: those it has) over its NaN source words.
void add_nan_profiles(std::vector<Case> &out, const Conversion &cv, const std::string &source, const Words &nans) {
    if (nan_principle(cv).payload_profile) out.push_back(nan_profile_case(cv, nan_payload_rule(cv), NanPolicy::exact, source, nans));
    if (nan_principle(cv).sign_profile) out.push_back(nan_profile_case(cv, nan_sign_rule(cv), NanPolicy::same_sign, source, nans));
}

/// The conversion from `format` to fp32 that the registry names (every target has one).
const Conversion &widening_of(std::uint32_t format) {
    for (const auto &c : kConversions)
        if (c.src == format && c.dst == NINFER_FORMAT_fp32) return c;
    throw std::logic_error("no <format>_to_fp32 conversion for " + std::string(format_name(format)));
}

/// fp32 word of x/2 for a positive power of two x (exact: fp32 holds every power down to 2^-149).
std::uint64_t fp32_half(std::uint64_t w) {
    const std::uint64_t e = (w >> 23) & 0xFF;
    if (e > 1) return w - (1ull << 23);
    if (e == 1) return 0x00400000u;
    return w >> 1;
}

// ---- fp32-source conversion tables (TestFloat genCases style) -------------------------------

/// Annotated fp32 input tables of one conversion: every tie and both neighbours around the
/// chosen target words, the subnormal and overflow thresholds, and the special inputs.
struct Fp32Tables {
    Words grid, ties, tie_neighbours, subnormal, overflow, specials, nans;
};

Fp32Tables build_fp32_tables(const Conversion &c) {
    const auto &dst = word_format(c.dst);
    const auto &widen = widening_of(c.dst);
    const auto fp32_of = [&](std::uint64_t t) { return convert_word(widen, t); };
    const std::uint64_t largest = largest_finite_word(dst);
    Fp32Tables t;
    // 1. The target words whose upper neighbour pairs are examined: every positive finite word of
    //    a format of 8 bits or less; otherwise the first and last significands of every binade.
    Words chosen;
    if (dst.bits <= 8) {
        for (std::uint64_t w = 0; w < largest; ++w) chosen.push_back(w);
    } else {
        const std::uint64_t fo = frac_ones(dst);
        for (std::uint64_t e = 0; (e << dst.man_bits) < largest; ++e)
            for (std::uint64_t fr : Words{0ull, 1ull, 2ull, fo / 2, fo - 1, fo}) {
                const std::uint64_t w = (e << dst.man_bits) | fr;
                if (w < largest) chosen.push_back(w);
            }
        chosen = unique(chosen);
    }
    // 2. Pairs (a, b) of neighbouring target values as fp32 words: the midpoint is exact and lies
    //    halfway in word space too, since fp32 words are linear in value up to b inclusive.
    for (std::uint64_t w : chosen) {
        const std::uint64_t a = fp32_of(w), b = fp32_of(w + 1);
        std::uint64_t mid;
        if (a == 0) mid = fp32_half(b);  // zero to the smallest subnormal: not linear in words
        else if ((a + b) % 2 == 0) mid = (a + b) / 2;
        else throw std::logic_error("fp32 midpoint of " + std::string(dst.name) + " words is not an fp32 word");
        t.grid.push_back(a);
        if (a > 0) t.grid.push_back(a - 1);
        t.grid.push_back(a + 1);
        t.ties.push_back(mid);
        t.tie_neighbours.push_back(mid - 1);
        t.tie_neighbours.push_back(mid + 1);
    }
    // 3. Subnormal thresholds: half and quarter of the smallest positive value with neighbours,
    //    the smallest normal, and fp32's own subnormal extremes.
    {
        const std::uint64_t smallest = dst.special == Special::E8M0 ? 0 : 1;
        const std::uint64_t s = fp32_of(smallest), half = fp32_half(s), quarter = fp32_half(half);
        const std::uint64_t three_quarters = half + (s - half) / 2;  // linear: s starts half's next binade
        for (std::uint64_t w : Words{s, s - 1, s + 1, half, half - 1, half + 1, quarter, quarter + 1, three_quarters})
            t.subnormal.push_back(w);
        if (dst.special != Special::E8M0) {
            const std::uint64_t min_normal = fp32_of(1ull << dst.man_bits);
            for (std::uint64_t w : Words{min_normal - 1, min_normal, min_normal + 1}) t.subnormal.push_back(w);
        }
        for (std::uint64_t w : Words{0x00000001ull, 0x00000002ull, 0x007FFFFFull, 0x00800000ull, 0x00800001ull})
            t.subnormal.push_back(w);
    }
    // 4. Overflow thresholds: the largest finite value, the midpoint to the next grid value
    //    beyond it and that value, each with neighbours; fp32's largest finite.
    {
        const std::uint64_t b = fp32_of(largest), a = fp32_of(largest - 1);
        const std::uint64_t gap = b - a, mid = b + gap / 2, next = b + gap;
        for (std::uint64_t w : Words{b - 1, b, b + 1, mid - 1, mid, mid + 1, next - 1, next, next + 1, next + gap,
                                0x7F7FFFFFull})
            if (w < kFp32Inf) t.overflow.push_back(w);
    }
    // 5. Specials: signed zeros, infinities; NaN payloads, quiet and signaling, both signs.
    t.specials = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x3F800000, 0xBF800000};
    if (c.nan_rule != NanRule::UNDEFINED)
        for (std::uint64_t n : Words{0x7FC00000ull, 0x7FC00001ull, 0x7FFFFFFFull, 0x7FD55555ull, 0x7F800001ull,
                                0x7FBFFFFFull, 0x7FA00000ull, 0x7F812345ull})
            for (std::uint64_t sign : Words{0ull, kFp32Sign}) t.nans.push_back(n | sign);
    // 6. Both signs of every finite row (an unsigned target has no negative ties: negative
    //    inputs are clamped, so their midpoints stay out of the tie row).
    for (Words *row : {&t.grid, &t.ties, &t.tie_neighbours, &t.subnormal, &t.overflow}) {
        const Words pos = *row;
        if (dst.has_sign || row != &t.ties)
            for (auto w : pos) row->push_back(w | kFp32Sign);
        *row = unique(*row);
    }
    return t;
}

const Fp32Tables &fp32_tables(const Conversion &c) {
    static std::mutex m;
    static std::map<std::uint32_t, Fp32Tables> cache;
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(c.id);
    if (it == cache.end()) it = cache.emplace(c.id, build_fp32_tables(c)).first;
    return it->second;
}

/// The refusals of an sr conversion's random plane (rule convert.sr.random_plane_size): four words
/// offered with 3, 5 and 3.5 random values; each call is refused, nothing is served.
void add_random_plane_refusals(std::vector<Case> &out, const Conversion &cv) {
    static constexpr std::uint64_t kWords[] = {0x3F800001, 0xBF8000FF, 0x40490FDB, 0x00000001};  // finite in every domain
    const struct {
        const char *slug;
        std::size_t bytes;
    } kPlanes[] = {{"short", 12}, {"long", 20}, {"ragged", 14}};
    for (const auto &p : kPlanes) {
        Case c = base_case(rule::convert_sr_random_plane_size, std::string(cv.name) + "_" + p.slug, Level::quick, "boundary");
        c.op = NINFER_OP_convert;
        c.format = cv.dst;
        c.format_in = cv.src;
        c.method = cv.id;
        for (auto w : kWords) put_word(c.input(NINFER_PLANE_WORDS), w, word_format(cv.src).bytes());
        c.input(NINFER_PLANE_RANDOM).assign(p.bytes, 0x5A);  // any bits: the size alone is refused
        c.count = std::size(kWords);
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        c.nan = nan_policy(cv);
        out.push_back(c);
    }
}

/// Split a row into the words that rest on a suite reading and the others (two cases).
void add_split(std::vector<Case> &out, const Conversion &cv, const std::string &slug, const std::string &source,
               const Words &words) {
    const bool rule_reading = rule_of(rule::convert(cv)).suite_reading;
    Words plain, reading;
    for (auto w : words) (conversion_word_is_reading(cv, sr_source_word(cv, w), rule_reading) ? reading : plain).push_back(w);
    if (!plain.empty()) out.push_back(convert_case(cv, slug, Level::quick, source, plain));
    if (!reading.empty()) out.push_back(convert_case(cv, slug + "_suite_reading", Level::quick, source, reading));
}

/// Regressions: fp32 inputs a real library encoded wrongly, each case named after the library and
/// its provenance (docs/ECOSYSTEM.md); the expected words are the oracle's, as every case's.
struct Regression {
    std::uint32_t conversion;
    const char *slug, *source;
    std::array<std::uint64_t, 6> words;
};
constexpr Regression kRegressions[] = {
    // onnxruntime 1.31.1 CPU Cast(to=FLOAT8E4M3FN, saturate=0): |x| in [480, 496) gave +-448, not NaN;
    // 479.99.. and 496 beside it were right.
    {NINFER_CONVERSION_fp32_to_e4m3fn_rne_nan, "regression_onnxruntime_cast_480",
     "regression: onnxruntime 1.31.1 Cast saturate=0",
     {0x43F00000, 0x43F7FFFF, 0xC3F00000, 0xC3F7FFFF, 0x43EFFFFF, 0x43F80000}},
    // onnxruntime 1.31.1 CPU Cast(to=FLOAT8E5M2, saturate=0): |x| in [61440, 65536), which rounds to
    // 65536, gave NaN, not +-infinity; 61439.99.. and 65536 beside it were right.
    {NINFER_CONVERSION_fp32_to_e5m2_rne_inf, "regression_onnxruntime_cast_61440",
     "regression: onnxruntime 1.31.1 Cast saturate=0",
     {0x47700000, 0x477FFFFF, 0xC7700000, 0xC77FFFFF, 0x476FFFFF, 0x47800000}},
};

std::vector<Case> convert_golden() {
    std::vector<Case> out;
    for (const auto &cv : kConversions) {
        const std::string rule = rule::convert(cv);
        const auto &src = word_format(cv.src);
        const auto make = [&](const std::string &slug, Level l, const std::string &source, const Words &w) {
            return convert_case(cv, slug, l, source, w);
        };
        add_lesson_cases(out, rule, make);
        if (cv.src == NINFER_FORMAT_fp32) {
            const auto &t = fp32_tables(cv);
            // an sr conversion's words each with the random values at its boundaries (convert_sr.hpp)
            const auto row = [&](const Words &w) { return abi::is_stochastic(cv) ? sr_pairs(cv, w) : w; };
            if (abi::is_stochastic(cv)) add_random_plane_refusals(out, cv);
            add_split(out, cv, "ties", "ties", row(t.ties));
            add_split(out, cv, "tie_neighbours", "ties", row(t.tie_neighbours));
            add_split(out, cv, "grid_points", "boundary", row(t.grid));
            add_split(out, cv, "subnormal_threshold", "boundary", row(t.subnormal));
            add_split(out, cv, "overflow_threshold", "boundary", row(t.overflow));
            for (const auto &r : kRegressions)
                if (r.conversion == cv.id) add_split(out, cv, r.slug, r.source, Words(r.words.begin(), r.words.end()));
            add_split(out, cv, "specials", "special values", row(t.specials));
            if (!t.nans.empty()) add_split(out, cv, "nan_payloads", "special values", row(t.nans));
            Words nans;
            for (auto w : t.specials)
                if (is_nan_word(src, w)) nans.push_back(w);
            for (auto w : t.nans) nans.push_back(w);
            if (!nans.empty()) add_nan_profiles(out, cv, "special values", row(unique(nans)));
            continue;
        }
        if (nan_principle(cv).payload_profile || nan_principle(cv).sign_profile) {
            Words nans;  // every NaN word of the source (at most 2046 for a 16-bit source)
            for (auto w : domain_words(src))
                if (is_nan_word(src, w)) nans.push_back(w);
            add_nan_profiles(out, cv, "domain", nans);
        }
        Words specials, binades;
        for (auto w : special_words(src))
            if (conversion_in_domain(cv, w)) specials.push_back(w);
        for (auto w : binade_words(src))
            if (conversion_in_domain(cv, w)) binades.push_back(w);
        add_split(out, cv, "specials", "special values", specials);
        add_split(out, cv, "binade_boundaries", "boundary", binades);
        if (src.bits <= 16) add_domain_cases(out, src, Level::full, make);
    }
    return out;
}

/// Weighted random fp32 words for a conversion: uniform bits, near-ties, near-boundaries.
std::uint64_t random_fp32_word(std::mt19937_64 &rng, const Fp32Tables &t) {
    const std::uint64_t r = rng();
    const std::uint64_t kind = r % 4;
    const auto near = [&](const Words &row) {
        const std::uint64_t pick = row[(r >> 8) % row.size()];
        const std::uint64_t delta = (r >> 40) % 7;  // -3 .. +3 words
        return (pick + delta - 3) & 0xFFFFFFFFu;
    };
    switch (kind) {
    case 0:
    case 1: return rng() & 0xFFFFFFFFu;
    case 2: return near(t.ties);
    default: {
        const Words *rows[] = {&t.grid, &t.subnormal, &t.overflow};
        return near(*rows[(r >> 4) % 3]);
    }
    }
}

std::vector<Case> convert_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &cv : kConversions) {
        if (cv.src != NINFER_FORMAT_fp32) continue;  // narrower sources are enumerated whole
        const auto &t = fp32_tables(cv);
        add_random_cases(
            out, rule::convert(cv), seed, level,
            [&](std::mt19937_64 &rng) -> std::optional<std::uint64_t> {
                const auto w = random_fp32_word(rng, t);
                if (!conversion_in_domain(cv, w)) return std::nullopt;
                if (abi::is_stochastic(cv)) return (rng() & 0xFFFFFFFFu) << 32 | w;  // its random value (convert_sr.hpp)
                return w;
            },
            [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                return convert_case(cv, s, l, src, w);
            });
    }
    return out;
}

}  // namespace

Suite convert_suite() {
    return {"scalar.convert",
            "Every named conversion: ties and their neighbours, binade, subnormal and overflow thresholds, "
            "specials, NaN payloads, whole narrow domains (convert op)",
            cached_golden(convert_golden), random_of(convert_random)};
}

}  // namespace ninfer::suites::scalar

namespace ninfer::suites {

using namespace scalar;  // the word classes of the case builders

bool conversion_in_domain(const oracle::Conversion &c, std::uint64_t w) {
    const auto &src = word_format(c.src);
    if (w > src.mask()) return false;
    return !(c.nan_rule == NanRule::UNDEFINED && is_nan_word(src, w));
}

bool conversion_domain_is_partial(const oracle::Conversion &c) { return c.nan_rule == NanRule::UNDEFINED; }

bool conversion_word_is_reading(const oracle::Conversion &c, std::uint64_t w, bool rule_reading) {
    if (!rule_reading) return false;
    const auto &src = word_format(c.src);
    const auto &dst = word_format(c.dst);
    if (is_nan_word(src, w) || format_word_is_reading(src, w)) return true;
    if (dst.special == Special::E8M0) return true;  // the E8M0 roundings and clamps are readings
    if (!dst.has_sign && (is_negative_word(src, w) || class_of(src, w) == NINFER_CLASS_INFINITE)) return true;
    return false;
}

}  // namespace ninfer::suites
