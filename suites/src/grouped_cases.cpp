// SPDX-License-Identifier: Apache-2.0
// The grouped suites and their case generators (tensor-formats.txt Sections 3.2, 4-9;
// storage-layouts.md Sections 1, 3): grouped.codes (decode and validate payloads),
// grouped.absmax (grouped_absmax encode), grouped.search (grouped_search encode, the suite's
// reading) and grouped.row_split (layout encode/decode, validation, slices and gathers).
// Inputs are built from exact integers and format geometry; every expected output comes from
// the oracle API (ninfer/oracle/grouped.hpp, row_split.hpp). The ABI mapping is GROUPED_API.md's.
#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>

#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

namespace ninfer::suites {

namespace {

using namespace ninfer::oracle;
using Bytes = std::vector<std::uint8_t>;
using U16 = std::vector<std::uint16_t>;
using U32 = std::vector<std::uint32_t>;

constexpr std::uint32_t kRowSplit = NINFER_LAYOUT_row_split_k128_v1;
constexpr std::uint64_t kGoldenSeed = 0x67726f7570656400ull;  ///< "grouped": the fixed seed of golden random matrices

// ---- small helpers ------------------------------------------------------------------------

std::string name_of(const GroupedFormat &f) { return std::string(f.name); }

std::string hex(std::uint64_t w, int digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, w >>= 4) s[static_cast<std::size_t>(i)] = kDigits[w & 0xF];
    return s;
}

std::string shape_slug(std::uint64_t n, std::uint64_t k) { return std::to_string(n) + "x" + std::to_string(k); }

/// An exact value m * 2^e as a word of a binary float with `man` fraction bits and bias `bias`
/// (input construction only; throws when the value is not representable).
std::uint32_t float_word(std::int64_t m, int e, int man, int bias, int exp_bits) {
    const std::uint32_t sign = m < 0 ? 1u << (man + exp_bits) : 0u;
    std::uint64_t u = static_cast<std::uint64_t>(m < 0 ? -m : m);
    if (u == 0) return sign;
    const std::uint64_t top = 1ull << man;
    while (u >= 2 * top) {
        if (u & 1u) throw std::logic_error("float_word: value needs more significand bits");
        u >>= 1;
        ++e;
    }
    while (u < top) {
        u <<= 1;
        --e;
    }
    int biased = e + man + bias;
    if (biased >= (1 << exp_bits) - 1) throw std::logic_error("float_word: value overflows");
    if (biased <= 0) {
        const int shift = 1 - biased;
        if (shift > man + 1 || (u & ((1ull << shift) - 1))) throw std::logic_error("float_word: value below the grid");
        return sign | static_cast<std::uint32_t>(u >> shift);
    }
    return sign | static_cast<std::uint32_t>(biased) << man | static_cast<std::uint32_t>(u & (top - 1));
}

std::uint32_t f32w(std::int64_t m, int e) { return float_word(m, e, 23, 127, 8); }
std::uint16_t f16w(std::int64_t m, int e) { return static_cast<std::uint16_t>(float_word(m, e, 10, 15, 5)); }

/// The exact value of a finite nonzero binary16 word as m * 2^e.
std::pair<std::int64_t, int> f16_parts(std::uint16_t w) {
    const int e = (w >> 10) & 0x1F;
    std::int64_t m = w & 0x3FF;
    if (e != 0) m |= 0x400;
    const int exp = (e == 0 ? 1 : e) - 25;
    return {(w & 0x8000u) ? -m : m, exp};
}

Bytes le32(const U32 &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 4);
    return b;
}
Bytes le16(const U16 &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 2);
    return b;
}
Bytes le64(const std::vector<std::uint64_t> &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 8);
    return b;
}
Bytes codes_bytes(const std::vector<std::int8_t> &q) {
    Bytes b;
    for (auto x : q) b.push_back(static_cast<std::uint8_t>(x));
    return b;
}

/// The distinct values of a list, first occurrence kept (shape lists that coincide for some G).
std::vector<std::uint64_t> distinct(std::initializer_list<std::uint64_t> v) {
    std::vector<std::uint64_t> out;
    for (auto x : v)
        if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
    return out;
}

std::uint64_t logical_groups(const GroupedFormat &f, std::uint64_t k) { return grouped_groups_per_row(f, k); }

/// A payload byte offset of one lane (input construction for corrupted payloads).
struct LaneSpot {
    std::uint64_t byte;
    int shift, width;
};
LaneSpot base_spot(const GroupedFormat &f, const RowSplitGeometry &g, std::uint64_t row, std::uint64_t group, int lane) {
    const std::uint64_t at = row * g.base_row_bytes + group * static_cast<std::uint64_t>(f.base_bytes);
    if (f.code_bits == 8) return {at + static_cast<std::uint64_t>(lane), 0, 8};
    if (f.code_bits == 2) return {at + static_cast<std::uint64_t>(lane / 4), 2 * (lane % 4), 2};
    return {at + static_cast<std::uint64_t>(lane / 2), 4 * (lane % 2), 4};
}
void set_bits(Bytes &p, LaneSpot s, std::uint32_t v) {
    const auto mask = static_cast<std::uint8_t>(((1u << s.width) - 1) << s.shift);
    p[s.byte] = static_cast<std::uint8_t>((p[s.byte] & ~mask) | ((v << s.shift) & mask));
}

// ---- matrices -----------------------------------------------------------------------------

/// A logical matrix whose codes come from `code(row, col)` and scales from `scale(row, group)`.
GroupedMatrix make_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k,
                          const std::function<int(std::uint64_t, std::uint64_t)> &code,
                          const std::function<std::uint16_t(std::uint64_t, std::uint64_t)> &scale) {
    GroupedMatrix m{n, k, {}, {}};
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < k; ++c) m.codes.push_back(static_cast<std::int8_t>(code(r, c)));
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < logical_groups(f, k); ++g) m.scales.push_back(scale(r, g));
    return m;
}

/// A seeded matrix of legal codes and valid nonzero scales.
GroupedMatrix seeded_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto span = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
    auto code = [&](std::uint64_t, std::uint64_t) { return f.qmin + static_cast<int>(rng() % span); };
    auto scale = [&](std::uint64_t, std::uint64_t) {
        for (;;) {
            const auto s = static_cast<std::uint16_t>(rng());
            if (s != 0 && grouped_scale_verdict(f, s) == NINFER_VERDICT_VALID) return s;
        }
    };
    return make_matrix(f, n, k, code, scale);
}

// ---- cases of each op ---------------------------------------------------------------------

Case call_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
               const GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.format = f.id;
    c.layout = kRowSplit;
    c.shape = {n, k};
    return c;
}

/// layout_encode: codes (int8) and scales (uint16) to the canonical payload.
Case layout_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                        const GroupedFormat &f, const GroupedMatrix &m) {
    Case c = call_case(rule, slug, level, source, NINFER_OP_layout_encode, f, m.rows, m.cols);
    c.format_in = f.id;
    c.count = m.rows * m.cols;
    c.input(NINFER_PLANE_CODES) = codes_bytes(m.codes);
    c.input(NINFER_PLANE_SCALES) = le16(m.scales);
    c.expect.output(NINFER_PLANE_PAYLOAD) = row_split_encode(f, m);
    return c;
}

/// layout_decode / quant_decode / payload_validate of a payload, as the oracle decodes it.
Case payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                  std::uint32_t op, const GroupedFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload) {
    Case c = call_case(rule, slug, level, source, op, f, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    const auto d = row_split_decode(f, n, k, payload);
    c.expect.status = d.status;
    if (d.status != NINFER_OK) {
        c.expect.detail = d.detail;
        return c;
    }
    if (op == NINFER_OP_payload_validate) return c;
    c.expect.output(NINFER_PLANE_CODES) = codes_bytes(d.m.codes);
    c.expect.output(NINFER_PLANE_SCALES) = le16(d.m.scales);
    if (op == NINFER_OP_quant_decode) {
        std::vector<std::int8_t> codes = d.m.codes;
        const auto values = grouped_reconstruct_tensor(f, c.shape, codes, d.m.scales);
        if (!values) throw std::logic_error("grouped_reconstruct_tensor refused a decoded matrix");
        c.expect.output(NINFER_PLANE_VALUES) = le32(*values);
    }
    return c;
}

/// quant_encode by grouped_absmax or grouped_search; expected payload or refusal from the oracle.
Case encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const GroupedFormat &f, std::uint32_t source_format, std::uint64_t n, std::uint64_t k, const Bytes &src,
                 std::uint32_t method = NINFER_ENCODER_grouped_absmax, const U32 &importance = {}, bool negative = false) {
    Case c = call_case(rule, slug, level, source, NINFER_OP_quant_encode, f, n, k);
    c.format_in = source_format;
    c.method = method;
    c.count = n * k;
    c.input(NINFER_PLANE_SOURCE) = src;
    if (!importance.empty()) c.input(NINFER_PLANE_IMPORTANCE) = le32(importance);
    if (negative) c.flags = NINFER_FLAG_NEGATIVE_SCALES;
    const EncodeResult r = method == NINFER_ENCODER_grouped_absmax
                               ? grouped_absmax(f, source_format, n, k, src)
                               : grouped_search(f, source_format, n, k, src, importance, negative);
    c.expect.status = r.status;
    if (r.status == NINFER_OK) c.expect.output(NINFER_PLANE_PAYLOAD) = row_split_encode(f, r.m);
    // grouped_search results rest on the suite's reading of the candidate set (GROUPED.md R3).
    c.suite_reading = method == NINFER_ENCODER_grouped_search && r.status == NINFER_OK;
    return c;
}

Case encode32(const std::string &rule, const std::string &slug, Level level, const std::string &source,
              const GroupedFormat &f, std::uint64_t n, std::uint64_t k, const U32 &x) {
    return encode_case(rule, slug, level, source, f, NINFER_FORMAT_fp32, n, k, le32(x));
}

/// rows_select: a slice {first, count} or a gather of row indices; expected from the oracle.
Case select_case(const std::string &rule, const std::string &slug, Level level, const GroupedFormat &f, std::uint64_t n,
                 std::uint64_t k, const Bytes &payload, const std::vector<std::uint64_t> &rows, bool gather,
                 const std::vector<std::uint64_t> &slice = {}) {
    Case c = call_case(rule, slug, level, "boundary", NINFER_OP_rows_select, f, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    c.flags = gather ? NINFER_FLAG_GATHER : 0;
    c.input(NINFER_PLANE_ROWS) = le64(gather ? rows : slice);
    c.count = rows.size();
    try {
        c.expect.output(NINFER_PLANE_PAYLOAD) = row_split_select_rows(f, n, k, payload, rows);
    } catch (const std::invalid_argument &) {
        c.expect.status = NINFER_E_INVALID_ARGUMENT;  // a row past N or an empty selection
        c.count = gather ? rows.size() : (slice.size() == 2 ? slice[1] : 0);
    }
    return c;
}

std::vector<const GroupedFormat *> canonical_formats() {
    std::vector<const GroupedFormat *> out;
    for (const auto &f : kGroupedFormats)
        if (f.canonical_encoders) out.push_back(&f);
    return out;
}

// ---- random source values (portable: integer RNG only) -----------------------------------

/// A seeded binary32 weight: random sign and fraction, biased exponent in [lo, hi]; 1 in 16 zero.
std::uint32_t seeded_f32(std::mt19937_64 &rng, int lo, int hi) {
    const std::uint64_t r = rng();
    if ((r & 0xF) == 0) return 0;
    const auto e = static_cast<std::uint32_t>(lo + static_cast<int>((r >> 4) % static_cast<std::uint64_t>(hi - lo + 1)));
    return static_cast<std::uint32_t>((r >> 20) & 1) << 31 | e << 23 | static_cast<std::uint32_t>((r >> 21) & 0x7FFFFF);
}

/// A seeded [n,k] source: rows of different magnitudes (weights ~2^-12..2^-1), a few outliers.
U32 seeded_source(std::uint64_t n, std::uint64_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    U32 x;
    x.reserve(n * k);
    for (std::uint64_t r = 0; r < n; ++r) {
        const int shift = static_cast<int>(rng() % 24) - 12;
        for (std::uint64_t c = 0; c < k; ++c) {
            const bool outlier = rng() % 97 == 0;
            x.push_back(seeded_f32(rng, 114 + shift + (outlier ? 4 : 0), 124 + shift + (outlier ? 6 : 0)));
        }
    }
    return x;
}

/// Overwrite the stored word of one lane, base and high planes (input construction).
void set_lane_word(const GroupedFormat &f, const RowSplitGeometry &g, Bytes &p, std::uint64_t row, std::uint64_t group,
                   int lane, std::uint32_t w) {
    const int low = f.code_bits == 8 ? 8 : f.code_bits == 2 ? 2 : 4;
    set_bits(p, base_spot(f, g, row, group, lane), w & ((1u << low) - 1));
    const int hb = f.high_bytes ? f.code_bits - 4 : 0;
    for (int j = 0; j < hb; ++j) {
        const int t = lane * hb + j;
        const std::uint64_t at = g.high_offset + row * g.high_row_bytes + group * static_cast<std::uint64_t>(f.high_bytes) +
                                 static_cast<std::uint64_t>(t / 8);
        p[at] = static_cast<std::uint8_t>((p[at] & ~(1u << (t % 8))) | (((w >> (4 + j)) & 1u) << (t % 8)));
    }
}

void put_scale(const RowSplitGeometry &g, Bytes &p, std::uint64_t row, std::uint64_t group, std::uint16_t s) {
    const std::uint64_t at = g.scale_offset + row * g.scale_row_bytes + 2 * group;
    p[at] = static_cast<std::uint8_t>(s);
    p[at + 1] = static_cast<std::uint8_t>(s >> 8);
}

/// The stored words of nonzero codes whose base-plane bits are all zero (q5 -16; q6 -32, -16,
/// 16): only the high plane tells them from code 0.
std::vector<std::uint32_t> high_only_words(const GroupedFormat &f) {
    std::vector<std::uint32_t> out;
    if (!f.high_bytes) return out;
    for (int q = f.qmin; q <= f.qmax; ++q) {
        const std::uint32_t w = grouped_code_word(f, q);
        if (q != 0 && (w & 0xFu) == 0) out.push_back(w);
    }
    return out;
}

// ---- suite grouped.codes --------------------------------------------------------------------

/// The packing rule that a format's base plane follows (storage-layouts.md Section 3).
std::string packing_rule(const GroupedFormat &f) {
    if (f.code_bits == 8) return "row_split.q8_bytes";
    if (f.code_bits == 2) return "row_split.two_bit_packing";
    return "row_split.nibble_order";
}

GroupedMatrix uniform_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, int code, std::uint16_t scale) {
    return make_matrix(f, n, k, [code](std::uint64_t, std::uint64_t) { return code; },
                       [scale](std::uint64_t, std::uint64_t) { return scale; });
}

void code_domain_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string rule = "grouped.code." + name_of(f);
    const auto count = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
    const auto G = static_cast<std::uint64_t>(f.group);
    // Every legal code, ascending in row 0 and descending in row 1, under positive and negative scales.
    const auto all = make_matrix(
        f, 2, count,
        [&](std::uint64_t r, std::uint64_t c) { return r == 0 ? f.qmin + static_cast<int>(c) : f.qmax - static_cast<int>(c); },
        [](std::uint64_t r, std::uint64_t g) -> std::uint16_t { return r == 0 ? 0x3C00 : (g % 2 ? 0xC000 : 0x3555); });
    const auto payload = row_split_encode(f, all);
    out.push_back(payload_case(rule, "all_codes.quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, f, 2, count, payload));
    out.push_back(payload_case(rule, "all_codes.layout_decode", Level::quick, "domain", NINFER_OP_layout_decode, f, 2, count, payload));
    out.push_back(payload_case(rule, "all_codes.validate", Level::quick, "domain", NINFER_OP_payload_validate, f, 2, count, payload));
    out.push_back(layout_encode_case(packing_rule(f), name_of(f) + ".all_codes", Level::quick, "domain", f, all));
    if (f.high_bytes) out.push_back(layout_encode_case("row_split.high_bit_order", name_of(f) + ".all_codes", Level::quick, "domain", f, all));
    if (f.encoding == CodeEncoding::OFFSET)
        out.push_back(payload_case("grouped.code.q2_offset", "all_words.quant_decode", Level::quick, "domain",
                                   NINFER_OP_quant_decode, f, 2, count, payload));
    // Interval endpoints qmin, qmax next to 0 and +-1 in one full group.
    const auto ends = make_matrix(
        f, 1, G,
        [&](std::uint64_t, std::uint64_t c) {
            const int pattern[] = {f.qmin, f.qmax, 0, f.qmax, f.qmin, std::max(f.qmin, -1), std::min(f.qmax, 1)};
            return pattern[c % 7];
        },
        [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3E00; });
    out.push_back(payload_case(rule, "endpoints.quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 1, G,
                               row_split_encode(f, ends)));
    // Every stored word of the width at lane 3: legal words decode, the illegal word is refused.
    const auto g = *row_split_geometry(f, 1, G);
    for (std::uint32_t w = 0; w < (1u << f.code_bits); ++w) {
        const bool legal = grouped_code_value(f, w).has_value();
        if (legal && f.code_bits == 8 && w % 17 != 0 && w != 0x7F && w != 0x81) continue;  // q8: a sample of legal words
        Bytes p = row_split_encode(f, uniform_matrix(f, 1, G, 0, 0x3C00));
        set_lane_word(f, g, p, 0, 0, 3, w);
        const std::string slug = "word_" + hex(w, f.code_bits > 4 ? 2 : 1);
        if (legal)
            out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "domain", NINFER_OP_quant_decode, f, 1, G, p));
        else
            out.push_back(payload_case(f.code_bits == 8 ? "grouped.code.q8_0x80_illegal" : "grouped.code.t2_0b10_illegal",
                                       slug + ".lane3", Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, G, p));
    }
}

/// The illegal word of Q8 / T2 at several lanes, rows and groups, the partial last group included.
void illegal_word_cases(const GroupedFormat &f, std::vector<Case> &out) {
    if (f.illegal_word < 0) return;
    const std::string rule = f.code_bits == 8 ? "grouped.code.q8_0x80_illegal" : "grouped.code.t2_0b10_illegal";
    const std::uint64_t n = 2, k = static_cast<std::uint64_t>(f.group) * 2 + 5;
    const auto m = seeded_matrix(f, n, k, kGoldenSeed + f.id);
    const auto g = *row_split_geometry(f, n, k);
    struct Spot {
        std::uint64_t row, group;
        int lane;
    };
    const Spot spots[] = {{0, 0, 0}, {0, 0, f.group - 1}, {1, 1, 17}, {1, 2, 4}};
    for (const auto &s : spots) {
        Bytes p = row_split_encode(f, m);
        set_lane_word(f, g, p, s.row, s.group, s.lane, static_cast<std::uint32_t>(f.illegal_word));
        const std::string slug = "row" + std::to_string(s.row) + ".group" + std::to_string(s.group) + ".lane" + std::to_string(s.lane);
        out.push_back(payload_case(rule, slug, Level::quick, "boundary", NINFER_OP_payload_validate, f, n, k, p));
        out.push_back(payload_case(rule, slug + ".layout_decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, n, k, p));
        // quant_decode refuses what payload_validate refuses (harness/README.md, the decode contract).
        out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, n, k, p));
    }
}

/// Codes outside [qmin, qmax] offered to layout_encode: refused, never masked into the word
/// (q8 -128 would store 0x80, t2 -2 the word 0b10, q4 8 the word of -8).
void out_of_range_code_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const auto G = static_cast<std::uint64_t>(f.group);
    std::vector<int> bad;
    for (const int q : {f.qmin - 1, f.qmax + 1, f.qmin - (1 << f.code_bits), f.qmax + (1 << f.code_bits) - 1, -128, 127})
        if (q >= -128 && q <= 127 && (q < f.qmin || q > f.qmax) && std::find(bad.begin(), bad.end(), q) == bad.end())
            bad.push_back(q);
    for (const int q : bad) {
        auto m = uniform_matrix(f, 1, G, 0, 0x3C00);
        m.codes[5] = static_cast<std::int8_t>(q);
        const bool illegal_word = f.illegal_word >= 0 && ((q & ((1 << f.code_bits) - 1)) == f.illegal_word) && q == f.qmin - 1;
        const std::string rule = illegal_word ? (f.code_bits == 8 ? "grouped.code.q8_0x80_illegal" : "grouped.code.t2_0b10_illegal")
                                              : "grouped.code." + name_of(f);
        Case c = call_case(rule, "code_" + std::string(q < 0 ? "m" : "") + std::to_string(q < 0 ? -q : q) + ".layout_encode",
                           Level::quick, "boundary", NINFER_OP_layout_encode, f, 1, G);
        c.format_in = f.id;
        c.count = G;
        c.input(NINFER_PLANE_CODES) = codes_bytes(m.codes);
        c.input(NINFER_PLANE_SCALES) = le16(m.scales);
        c.expect.status = NINFER_E_INVALID_ARGUMENT;
        out.push_back(std::move(c));
    }
}

/// The rule a valid scale word of a decode case exercises.
std::string scale_rule(const GroupedFormat &f, std::uint16_t s) {
    if (f.encoding == CodeEncoding::OFFSET) return "grouped.scale.q2";
    if ((s & 0x7C00u) == 0 && (s & 0x3FFu) != 0) return "grouped.scale.subnormal";
    if (s & 0x8000u) return "grouped.scale.signed_multiply";
    return "grouped.scale.validity";
}

/// Every scale class: +0, -0, 2^-24, subnormals, normals, largest finite, negatives, Inf, NaN.
void scale_class_cases(const GroupedFormat &f, std::vector<Case> &out) {
    static constexpr std::uint16_t kScales[] = {0x0000, 0x8000, 0x0001, 0x0002, 0x0155, 0x0200, 0x03FF, 0x0400,
                                                0x2E66, 0x3C00, 0x3C01, 0x57FF, 0x7BFF, 0xBC00, 0x8001, 0x83FF,
                                                0xC001, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0xFFFF};
    const auto G = static_cast<std::uint64_t>(f.group);
    for (const std::uint16_t s : kScales) {
        const bool zero = (s & 0x7FFFu) == 0;
        // Codes of every sign under the scale; a +0 scale (not Q2) needs zero codes to be valid.
        const auto m = make_matrix(
            f, 1, G,
            [&](std::uint64_t, std::uint64_t c) {
                if (zero && f.encoding != CodeEncoding::OFFSET) return 0;
                return f.qmin + static_cast<int>(c % static_cast<std::uint64_t>(f.qmax - f.qmin + 1));
            },
            [s](std::uint64_t, std::uint64_t) { return s; });
        const Bytes p = row_split_encode(f, m);
        const std::string slug = name_of(f) + ".scale_" + hex(s, 4);
        if (grouped_scale_verdict(f, s) == NINFER_VERDICT_VALID) {
            out.push_back(payload_case(scale_rule(f, s), slug + ".quant_decode", Level::quick, "scale class",
                                       NINFER_OP_quant_decode, f, 1, G, p));
            out.push_back(payload_case(f.encoding == CodeEncoding::OFFSET ? "grouped.scale.q2" : "grouped.scale.validity",
                                       slug + ".validate", Level::quick, "scale class", NINFER_OP_payload_validate, f, 1, G, p));
        } else {
            const std::string rule = f.encoding == CodeEncoding::OFFSET ? "grouped.scale.q2" : "grouped.scale.validity";
            out.push_back(payload_case(rule, slug + ".validate", Level::quick, "scale class", NINFER_OP_payload_validate, f, 1, G, p));
            // An invalid scale never reaches the values (an Inf scale would give infinite ones).
            out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "scale class", NINFER_OP_quant_decode, f, 1, G, p));
        }
    }
    // Zero-scale groups: a nonzero code refuses the payload (Q2: any code stays valid).
    const std::uint64_t k = 2 * G + 3;
    const auto g = *row_split_geometry(f, 2, k);
    const std::uint64_t last = logical_groups(f, k) - 1;
    struct Spot {
        std::uint64_t row, group;
        int lane;
    };
    const Spot spots[] = {{0, 0, 0}, {0, 0, f.group - 1}, {1, 1, 9}, {1, last, 2}};
    for (const auto &spot : spots) {
        auto m = seeded_matrix(f, 2, k, kGoldenSeed + 7 * f.id + spot.group);
        for (std::uint64_t c = spot.group * G; c < std::min(k, (spot.group + 1) * G); ++c) m.codes[spot.row * k + c] = 0;
        m.scales[spot.row * logical_groups(f, k) + spot.group] = 0x0000;
        Bytes p = row_split_encode(f, m);
        set_lane_word(f, g, p, spot.row, spot.group, spot.lane, grouped_code_word(f, f.qmax));
        const std::string slug = name_of(f) + ".row" + std::to_string(spot.row) + ".group" + std::to_string(spot.group) +
                                 ".lane" + std::to_string(spot.lane);
        const std::string rule = f.encoding == CodeEncoding::OFFSET ? "grouped.scale.q2" : "grouped.scale.zero_group_codes";
        out.push_back(payload_case(rule, slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, p));
        if (spot.lane == 0) out.push_back(payload_case(rule, slug + ".quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 2, k, p));
        // Codes whose base bits are all zero and whose high bits are not (q5 -16; q6 -32, -16, 16).
        for (const std::uint32_t w : high_only_words(f)) {
            Bytes h = row_split_encode(f, m);
            set_lane_word(f, g, h, spot.row, spot.group, spot.lane, w);
            out.push_back(payload_case(rule, slug + ".high_only_" + hex(w, 2) + ".validate", Level::quick, "boundary",
                                       NINFER_OP_payload_validate, f, 2, k, h));
        }
        // The converse: a nonzero scale over all-zero codes is valid and decodes to zeros.
        auto conv = m;
        for (std::uint64_t c = spot.group * G; c < std::min(k, (spot.group + 1) * G); ++c) conv.codes[spot.row * k + c] = 0;
        conv.scales[spot.row * logical_groups(f, k) + spot.group] = 0xB800;
        if (f.encoding != CodeEncoding::OFFSET)
            out.push_back(payload_case("grouped.scale.zero_converse", slug + ".quant_decode", Level::quick, "boundary",
                                       NINFER_OP_quant_decode, f, 2, k, row_split_encode(f, conv)));
    }
}

/// Section 6.2 reconstruction: signed multiply, no zero point, no BF16 detour, group ownership.
void reconstruction_cases(const GroupedFormat &f, std::vector<Case> &out, Level level) {
    const auto G = static_cast<std::uint64_t>(f.group);
    const std::string nm = name_of(f);
    // Scale 1 and 2^-3: values are the codes, visibly; a zero point or recentring moves them.
    for (const std::uint16_t s : {std::uint16_t{0x3C00}, std::uint16_t{0x3000}, std::uint16_t{0xC400}}) {
        const auto m = make_matrix(
            f, 2, G + 7,
            [&](std::uint64_t r, std::uint64_t c) {
                const auto span = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
                return f.qmin + static_cast<int>((c * (r + 3)) % span);
            },
            [s](std::uint64_t, std::uint64_t) { return s; });
        out.push_back(payload_case("grouped.reconstruct.zero_point_free", nm + ".scale_" + hex(s, 4), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 2, G + 7, row_split_encode(f, m)));
    }
    // Scale words with fraction bits below BF16's seventh: a BF16 detour changes every value.
    for (const std::uint16_t s : {std::uint16_t{0x3C01}, std::uint16_t{0x3FFF}, std::uint16_t{0x0401}, std::uint16_t{0x03FF},
                                  std::uint16_t{0x7BFF}, std::uint16_t{0xAE67}}) {
        const auto m = make_matrix(
            f, 1, G, [&](std::uint64_t, std::uint64_t c) { return c % 2 ? f.qmax : f.qmin; },
            [s](std::uint64_t, std::uint64_t) { return s; });
        out.push_back(payload_case("grouped.reconstruct.no_bf16_scale", nm + ".scale_" + hex(s, 4), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 1, G, row_split_encode(f, m)));
    }
    // Negative scales with codes of both signs: a signed multiply, never |scale|.
    {
        const auto m = make_matrix(
            f, 2, 2 * G, [&](std::uint64_t r, std::uint64_t c) { return (c + r) % 2 ? f.qmax : f.qmin; },
            [](std::uint64_t r, std::uint64_t g) -> std::uint16_t { return (r + g) % 2 ? 0xBC00 : 0x8001; });
        out.push_back(payload_case("grouped.scale.signed_multiply", nm + ".negative_scales", Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 2, 2 * G, row_split_encode(f, m)));
    }
    // Group ownership along the last axis: a distinct scale per (row, group), partial last group.
    for (const std::uint64_t k : distinct({G + 1, 2 * G + 2, 130})) {
        const auto m = make_matrix(
            f, 3, k, [&](std::uint64_t, std::uint64_t c) { return std::min(f.qmax, 1 + static_cast<int>(c % 3)); },
            [](std::uint64_t r, std::uint64_t g) { return static_cast<std::uint16_t>(0x3C00 + 0x100 * r + 0x10 * g); });
        out.push_back(payload_case("grouped.group.last_axis", nm + ".owner_" + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 3, k, row_split_encode(f, m)));
        out.push_back(payload_case("grouped.group.partial", nm + ".decode_" + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_quant_decode, f, 3, k, row_split_encode(f, m)));
        out.push_back(payload_case("row_split.decode_boundary", nm + "." + shape_slug(3, k), Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 3, k, row_split_encode(f, m)));
    }
    // Seeded codes and scales (level full and above).
    if (level >= Level::full)
        for (const std::uint64_t k : {std::uint64_t{63}, std::uint64_t{129}, std::uint64_t{300}}) {
            const auto m = seeded_matrix(f, 5, k, kGoldenSeed ^ (f.id * 1000 + k));
            out.push_back(payload_case("grouped.reconstruct", nm + ".seeded_" + shape_slug(5, k), Level::full,
                                       "random seed=" + std::to_string(kGoldenSeed), NINFER_OP_quant_decode, f, 5, k,
                                       row_split_encode(f, m)));
        }
    out.push_back(payload_case("grouped.reconstruct", nm + ".all_codes_scale_3555", Level::quick, "domain",
                               NINFER_OP_quant_decode, f, 1, static_cast<std::uint64_t>(f.qmax - f.qmin + 1),
                               row_split_encode(f, make_matrix(f, 1, static_cast<std::uint64_t>(f.qmax - f.qmin + 1),
                                                               [&](std::uint64_t, std::uint64_t c) { return f.qmin + static_cast<int>(c); },
                                                               [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3555; }))));
}

std::vector<Case> codes_golden() {
    std::vector<Case> out;
    for (const auto &f : kGroupedFormats) {
        code_domain_cases(f, out);
        illegal_word_cases(f, out);
        out_of_range_code_cases(f, out);
        scale_class_cases(f, out);
        reconstruction_cases(f, out, Level::exhaustive);
    }
    return out;
}

std::vector<Case> codes_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0xc0de5u);
    const int per_format = level == Level::exhaustive ? 8 : 2;
    for (const auto &f : kGroupedFormats)
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % (level == Level::exhaustive ? 64 : 8), k = 1 + rng() % 700;
            const auto m = seeded_matrix(f, n, k, rng());
            out.push_back(payload_case("grouped.reconstruct", name_of(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                       level, "random seed=" + std::to_string(seed), NINFER_OP_quant_decode, f, n, k,
                                       row_split_encode(f, m)));
        }
    return out;
}

// ---- suite grouped.absmax -------------------------------------------------------------------

/// Round-to-integral ties to even of j + 1/2 (an exact integer computation, for input search only).
int tie_even(int j) { return (j % 2 == 0) ? j : j + 1; }

/// A one-group source whose lane 0 is qmax * s (so scale16 = s exactly) and whose other lanes
/// are (j + 1/2) * s for j cycling over [-qmax, qmax - 1]: every normalized value is a tie.
U32 half_step_group(const GroupedFormat &f, std::uint16_t s, std::uint64_t len) {
    const auto [ms, es] = f16_parts(s);
    U32 x{f32w(f.qmax * ms, es)};
    const int span = 2 * f.qmax;
    for (std::uint64_t i = 1; i < len; ++i) {
        const int j = -f.qmax + static_cast<int>((i - 1) % static_cast<std::uint64_t>(span));
        x.push_back(f32w((2 * j + 1) * ms, es - 1));
    }
    return x;
}

void tie_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // The spec's examples at scale 1: +-0.5 -> 0, +-1.5 -> +-2, +-2.5 -> +-2 (lane 0 fixes the scale).
    U32 ex{f32w(f.qmax, 0), f32w(1, -1), f32w(-1, -1), f32w(3, -1), f32w(-3, -1), f32w(5, -1), f32w(-5, -1)};
    while (ex.size() < G) ex.push_back(0);
    out.push_back(encode32("grouped.absmax.ties_to_even", nm + ".spec_examples", Level::quick, "tensor-formats 7.2 examples", f, 1, G, ex));
    // Every half-integer tie of the interval at scale 1 and 2^-1, from fp32, bf16 and fp16 sources.
    for (const std::uint16_t s : {std::uint16_t{0x3C00}, std::uint16_t{0x3800}}) {
        const std::uint64_t k = 2 * G;
        U32 x = half_step_group(f, s, G);
        const U32 second = half_step_group(f, s, G);
        x.insert(x.end(), second.rbegin(), second.rend());
        out.push_back(encode32("grouped.absmax.ties_to_even", nm + ".all_ties_scale_" + hex(s, 4), Level::quick, "boundary", f, 1, k, x));
        U16 b16, h16;
        for (auto w : x) b16.push_back(static_cast<std::uint16_t>(w >> 16));
        for (auto w : x) {
            const auto e = static_cast<int>((w >> 23) & 0xFF);
            const std::int64_t m = (w & 0x7FFFFF) | 0x800000;
            h16.push_back(w == 0 ? 0 : f16w((w >> 31) ? -m : m, e - 150));
        }
        out.push_back(encode_case("grouped.absmax.ties_to_even", nm + ".all_ties_bf16_scale_" + hex(s, 4), Level::quick,
                                  "boundary", f, NINFER_FORMAT_bf16, 1, k, le16(b16)));
        out.push_back(encode_case("grouped.absmax.ties_to_even", nm + ".all_ties_fp16_scale_" + hex(s, 4), Level::quick,
                                  "boundary", f, NINFER_FORMAT_fp16, 1, k, le16(h16)));
    }
}

/// Scale words s where round_f32(x * round_f32(1/s)) and the exact quotient x / s = j + 1/2
/// round to different integers: division instead of the reciprocal multiply picks another code.
void reciprocal_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    int found = 0;
    for (std::uint32_t s = 0x3C01; s < 0x4000 && found < 4; ++s) {
        const U32 x = half_step_group(f, static_cast<std::uint16_t>(s), G);
        const auto t = grouped_absmax_group(f, x);
        if (t.status != NINFER_OK || t.scale16 != s) continue;
        bool differs = false;
        for (std::uint64_t i = 1; i < G; ++i) {
            const int j = -f.qmax + static_cast<int>((i - 1) % static_cast<std::uint64_t>(2 * f.qmax));
            differs = differs || t.codes[i] != tie_even(j);
        }
        if (!differs) continue;
        ++found;
        out.push_back(encode32("grouped.absmax.reciprocal_multiply", nm + ".scale_" + hex(s, 4), Level::quick,
                               "boundary (searched: reciprocal multiply and division disagree)", f, 1, G, x));
    }
    if (found == 0) throw std::logic_error("no reciprocal-multiply boundary found for " + nm);
}

/// binary16 rounding of raw_scale32: ties at normal and subnormal midpoints, their binary32
/// neighbours, the subnormal/normal boundary, no flush to zero.
void scale_rounding_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    struct Mid {
        const char *slug;
        std::int64_t m;
        int e;
    };
    // Midpoints m * 2^e between two binary16 words (both parities), and plain subnormal scales.
    const Mid mids[] = {{"mid_1p2m11", 2049, -11},   {"mid_1p3m11", 2051, -11},      {"mid_sub_1p5", 3, -25},
                        {"mid_sub_2p5", 5, -25},      {"mid_sub_3p5", 7, -25},        {"mid_sub_normal", 2047, -25},
                        {"mid_large", 2 * 2047 + 1, 4}, {"sub_exact_2m20", 1, -20},   {"sub_exact_0x155", 0x155, -24}};
    for (const auto &mid : mids)
        for (int d : {-1, 0, 1}) {
            // amax = qmax * mid exactly (raw_scale32 = mid), then one binary32 step either side.
            const std::uint32_t base = f32w(f.qmax * mid.m, mid.e);
            const std::uint32_t amax = static_cast<std::uint32_t>(static_cast<std::int64_t>(base) + d);
            U32 x(G, 0);
            x[0] = amax;
            x[1] = amax | 0x80000000u;
            x[2] = f32w(f.qmax * mid.m, mid.e - 1);
            x[3] = f32w(-(f.qmax / 3 + 1) * mid.m, mid.e);
            const std::string slug = nm + "." + mid.slug + (d < 0 ? ".below" : d > 0 ? ".above" : ".exact");
            out.push_back(encode32("grouped.absmax.scale_rounding", slug, Level::quick, "boundary", f, 1, G, x));
        }
    // A scale whose fraction has bits below BF16's seventh: rounding through BF16 picks another word.
    U32 x(G, 0);
    x[0] = f32w(f.qmax * 0x7FF, -10);
    x[5] = f32w(-(f.qmax * 0x7FF - 1), -10);
    out.push_back(encode32("grouped.absmax.scale_rounding", nm + ".fraction_below_bf16", Level::quick, "boundary", f, 1, G, x));
}

/// The 0x0001 rescue, clamp after rounding (Q8 never -128), the qmax denominator.
void rescue_clamp_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // Rescue: raw_scale32 below half of 2^-24, exactly half (tie to zero), the smallest binary32.
    struct Tiny {
        const char *slug;
        std::int64_t m;
        int e;
    };
    const Tiny tiny[] = {{"amax_qmax_2m25", f.qmax, -25}, {"amax_qmax_2m26", f.qmax, -26}, {"amax_2m149", 1, -149},
                         {"amax_3_2m40", 3, -40}};
    for (const auto &t : tiny) {
        U32 x(G, 0);
        x[0] = f32w(t.m, t.e);
        x[G / 2] = f32w(-t.m, t.e);
        x[G - 1] = f32w(1, -149);
        out.push_back(encode32("grouped.absmax.rescue", nm + "." + t.slug, Level::quick, "boundary", f, 1, G, x));
    }
    // Clamp after rounding under the rescued scale 2^-24: normalized values qmax + 1/2, -(qmax + 1/2),
    // qmin - 1/2 and 1.4 * qmax; rounding first, then the clamp to [qmin, qmax].
    U32 c(G, 0);
    c[0] = f32w(2 * f.qmax + 1, -25);
    c[1] = f32w(-(2 * f.qmax + 1), -25);
    c[2] = f32w(2 * f.qmin - 1, -25);
    c[3] = f32w(-(2 * f.qmax - 1), -25);
    out.push_back(encode32("grouped.absmax.clamp_after_rounding", nm + ".half_past_qmax", Level::quick, "boundary", f, 1, G, c));
    U32 c2(G, 0);
    // amax = 2.375 * qmax * 2^-24: scale 0x0002 (2^-23), normalized values up to 1.1875 * qmax.
    c2[0] = f32w(19 * f.qmax, -27);
    c2[1] = f32w(-19 * f.qmax, -27);
    c2[2] = f32w(17 * f.qmax, -27);
    c2[3] = f32w(-17 * f.qmax, -27);
    out.push_back(encode32("grouped.absmax.clamp_after_rounding", nm + ".coarse_subnormal_scale", Level::quick, "boundary", f, 1, G, c2));
    if (f.code_bits == 8) {
        out.push_back(encode32("grouped.code.q8_never_emitted", "half_past_qmin", Level::quick, "boundary", f, 1, G, c));
        out.push_back(encode32("grouped.code.q8_never_emitted", "coarse_subnormal_scale", Level::quick, "boundary", f, 1, G, c2));
    }
    // qmax, not |qmin|, divides amax: positive and negative extremes, several magnitudes.
    for (int e : {0, -7, 9}) {
        U32 x(G, 0);
        x[0] = f32w(-1, e);
        x[1] = f32w(1, e);
        x[2] = f32w(3, e - 2);
        x[3] = f32w(-5, e - 3);
        out.push_back(encode32("grouped.absmax.denominator_qmax", nm + ".amax_2p" + std::to_string(e), Level::quick, "boundary", f, 1, G, x));
    }
}

/// All-zero groups (+0, -0, mixed; full and partial), next to nonzero groups; every source type.
void zero_group_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    const std::uint64_t k = 2 * G + 5;
    U32 x(2 * k, 0);
    for (std::uint64_t c = 0; c < G; ++c) x[c] = 0x80000000u;                      // row 0 group 0: -0
    for (std::uint64_t c = G; c < 2 * G; ++c) x[c] = f32w(static_cast<std::int64_t>(c % 5) - 2, -3);  // group 1: values
    for (std::uint64_t c = k; c < k + G; ++c) x[c] = c % 2 ? 0x80000000u : 0u;    // row 1 group 0: mixed zeros
    x[k + G + 1] = f32w(3, -9);
    out.push_back(encode32("grouped.absmax.zero_group", nm + ".zeros_" + shape_slug(2, k), Level::quick, "boundary", f, 2, k, x));
    U16 neg(G, 0x8000);
    out.push_back(encode_case("grouped.absmax.zero_group", nm + ".bf16_negative_zeros", Level::quick, "boundary", f,
                              NINFER_FORMAT_bf16, 1, G, le16(neg)));
    out.push_back(encode_case("grouped.absmax.zero_group", nm + ".fp16_negative_zeros", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 1, G, le16(neg)));
}

/// Scale overflow at the binary16 boundary 65520 and beyond; non-finite sources of each type.
void failure_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    // raw_scale32 = 65520 rounds to infinity; one binary32 step below stays 65504 (0x7BFF).
    const std::uint32_t edge = f32w(f.qmax * 65520, 0);
    for (int d : {-1, 0, 1}) {
        U32 x(2 * G, 0);
        x[G + 3] = static_cast<std::uint32_t>(static_cast<std::int64_t>(edge) + d) | 0x80000000u;
        x[1] = f32w(1, 0);
        out.push_back(encode32("grouped.absmax.scale_overflow", nm + ".raw_65520" + (d < 0 ? "_below" : d > 0 ? "_above" : ""),
                               Level::quick, "boundary", f, 1, 2 * G, x));
    }
    {
        U32 x(2 * G, f32w(1, -4));
        x[2 * G - 1] = 0x7F7FFFFFu;  // largest finite binary32 in the second row
        out.push_back(encode32("grouped.absmax.scale_overflow", nm + ".largest_binary32_row1", Level::quick, "boundary", f, 2, G, x));
        U16 b(G, 0x3F80);
        b[7] = 0x7F7F;
        out.push_back(encode_case("grouped.absmax.scale_overflow", nm + ".bf16_largest", Level::quick, "boundary", f,
                                  NINFER_FORMAT_bf16, 1, G, le16(b)));
        U16 h(G, 0x7BFF);
        out.push_back(encode_case("grouped.absmax.scale_rounding", nm + ".fp16_largest_no_overflow", Level::quick, "boundary",
                                  f, NINFER_FORMAT_fp16, 1, G, le16(h)));
    }
    // Non-finite source words, at the first and the last element, from each source type.
    const std::uint32_t bad32[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00001u};
    for (const auto w : bad32)
        for (const bool last : {false, true}) {
            U32 x(2 * G, f32w(1, -2));
            x[last ? x.size() - 1 : 0] = w;
            out.push_back(encode32("grouped.absmax.nonfinite", nm + ".fp32_" + hex(w, 8) + (last ? ".last" : ".first"),
                                   Level::quick, "boundary", f, 2, G, x));
        }
    const std::pair<std::uint32_t, U16> bad16[] = {{NINFER_FORMAT_bf16, {0x7F80, 0xFF80, 0x7FC0, 0x7F81}},
                                                   {NINFER_FORMAT_fp16, {0x7C00, 0xFC00, 0x7E00, 0x7C01}}};
    for (const auto &[src, words] : bad16)
        for (const auto w : words) {
            U16 x(G + 3, 0x3C00);
            x[G + 1] = w;
            out.push_back(encode_case("grouped.absmax.nonfinite",
                                      nm + (src == NINFER_FORMAT_bf16 ? ".bf16_" : ".fp16_") + hex(w, 4), Level::quick,
                                      "boundary", f, src, 1, G + 3, le16(x)));
        }
    // A non-finite value wins over an overflowing group earlier in the matrix (GROUPED.md R5).
    U32 both(2 * G, 0);
    both[0] = 0x7F7FFFFFu;
    both[2 * G - 1] = 0x7FC00000u;
    out.push_back(encode32("grouped.absmax.nonfinite", nm + ".after_overflowing_group", Level::quick, "boundary", f, 1, 2 * G, both));
}

/// BF16 and binary16 sources widen exactly (subnormals included) before group processing.
void source_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    std::mt19937_64 rng(kGoldenSeed + 31 * f.id);
    U16 b, h;
    const U16 special_b = {0x0001, 0x8001, 0x007F, 0x0080, 0x3F80, 0xBF81, 0x7F7F >> 4, 0x4000};
    const U16 special_h = {0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC01, 0x7BFF, 0xFBFF};
    for (std::uint64_t i = 0; i < 2 * G; ++i) {
        b.push_back(i < special_b.size() ? special_b[i] : static_cast<std::uint16_t>((rng() & 0x80FF) | 0x3C00));
        h.push_back(i < special_h.size() ? special_h[i] : static_cast<std::uint16_t>(rng() & 0xBBFF));
    }
    out.push_back(encode_case("grouped.absmax.source_conversion", nm + ".bf16_mixed", Level::quick, "boundary", f,
                              NINFER_FORMAT_bf16, 2, G, le16(b)));
    out.push_back(encode_case("grouped.absmax.source_conversion", nm + ".fp16_mixed", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 2, G, le16(h)));
    // binary16 subnormal sources only: the scale is a binary16 subnormal computed from them.
    U16 sub(G, 0);
    for (std::uint64_t i = 0; i < G; ++i) sub[i] = static_cast<std::uint16_t>((i % 2 ? 0x8000 : 0) | (1 + 13 * i) % 0x400);
    out.push_back(encode_case("grouped.absmax.source_conversion", nm + ".fp16_subnormals", Level::quick, "boundary", f,
                              NINFER_FORMAT_fp16, 1, G, le16(sub)));
    // fp32 words that are not BF16 or binary16 values are used unchanged.
    U32 x(G);
    for (std::uint64_t i = 0; i < G; ++i) x[i] = (0x3F800001u + static_cast<std::uint32_t>(i * 0x1235)) | (i % 3 ? 0u : 0x80000000u);
    out.push_back(encode32("grouped.absmax.source_conversion", nm + ".fp32_unchanged", Level::quick, "boundary", f, 1, G, x));
}

/// Shapes K = 1, 63, 64, 65, 127, 128, 129, 130, 4096 and N up to several hundred (seeded values).
void shape_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::uint64_t ks[] = {1, 63, 64, 65, 127, 128, 129, 130, 4096};
    const bool big = f.code_bits == 4 || f.code_bits == 8;  // the widest sweeps for two formats
    for (const std::uint64_t k : ks) {
        std::vector<std::pair<std::uint64_t, Level>> ns = {{1, Level::quick}, {3, Level::quick}};
        if (k <= 130) {
            ns.push_back({17, Level::full});
            if (big) ns.push_back({k <= 65 ? 300 : 64, k <= 65 ? Level::full : Level::exhaustive});
        } else if (big) {
            ns.push_back({8, Level::exhaustive});
        }
        for (const auto &[n, level] : ns) {
            const U32 x = seeded_source(n, k, kGoldenSeed ^ (static_cast<std::uint64_t>(f.id) << 32) ^ (n << 16) ^ k);
            const std::string rule = k % static_cast<std::uint64_t>(f.group) ? "grouped.group.partial"
                                     : n > 1                                  ? "grouped.group.last_axis"
                                                                              : "grouped.absmax.bit_exact";
            out.push_back(encode32(rule, nm + ".seeded_" + shape_slug(n, k), level, "random seed=" + std::to_string(kGoldenSeed), f, n, k, x));
            if (level == Level::quick && n == 3)
                out.push_back(encode32("grouped.absmax.bit_exact", nm + ".seeded_" + shape_slug(n, k), level,
                                       "random seed=" + std::to_string(kGoldenSeed), f, n, k, x));
        }
    }
    // Partial group computed from its own values: a large full group, then a small partial one.
    const auto G = static_cast<std::uint64_t>(f.group);
    U32 x(G + 3);
    for (std::uint64_t i = 0; i < G; ++i) x[i] = f32w(static_cast<std::int64_t>(i) - 30, 4);
    x[G] = f32w(1, -10);
    x[G + 1] = f32w(-3, -12);
    x[G + 2] = 0;
    out.push_back(encode32("grouped.group.partial", nm + ".own_values", Level::quick, "boundary", f, 1, G + 3, x));
    out.push_back(encode32("row_split.padding", nm + ".encode_partial", Level::quick, "boundary", f, 1, G + 3, x));
    // Rows of very different magnitudes: no group crosses a row.
    U32 rows(3 * G);
    for (std::uint64_t r = 0; r < 3; ++r)
        for (std::uint64_t i = 0; i < G; ++i) rows[r * G + i] = f32w(static_cast<std::int64_t>(i % 9) - 4, -20 + 12 * static_cast<int>(r));
    out.push_back(encode32("grouped.group.last_axis", nm + ".row_magnitudes", Level::quick, "boundary", f, 3, G, rows));
}

std::vector<Case> absmax_golden() {
    std::vector<Case> out;
    for (const auto *fp : canonical_formats()) {
        const auto &f = *fp;
        tie_cases(f, out);
        reciprocal_cases(f, out);
        scale_rounding_cases(f, out);
        rescue_clamp_cases(f, out);
        zero_group_cases(f, out);
        failure_cases(f, out);
        source_cases(f, out);
        shape_cases(f, out);
    }
    // Refusal of the targets the canonical encoders do not serve; shapes that are not [N>0,K>0].
    for (const auto &f : kGroupedFormats) {
        const U32 x(static_cast<std::uint64_t>(f.group), f32w(1, -3));
        if (!f.canonical_encoders) {
            for (const auto &e : kEncoders)
                out.push_back(encode_case("grouped.absmax.refuses_q2_t2", name_of(f) + "." + std::string(e.name), Level::quick,
                                          "tensor-formats 2", f, NINFER_FORMAT_fp32, 1, x.size(), le32(x), e.id));
            continue;
        }
        out.push_back(encode32("grouped.absmax.rank2", name_of(f) + ".zero_rows", Level::quick, "boundary", f, 0, 64, {}));
        out.push_back(encode32("grouped.absmax.rank2", name_of(f) + ".zero_cols", Level::quick, "boundary", f, 3, 0, {}));
    }
    return out;
}

std::vector<Case> absmax_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0xab5u);
    const int per_format = level == Level::exhaustive ? 12 : 3;
    for (const auto *fp : canonical_formats())
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % (level == Level::exhaustive ? 128 : 16), k = 1 + rng() % 520;
            const std::uint32_t src = std::array<std::uint32_t, 3>{NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}[i % 3];
            U32 x = seeded_source(n, k, rng());
            Bytes bytes;
            if (src == NINFER_FORMAT_fp32) {
                bytes = le32(x);
            } else {
                U16 h;
                for (auto w : x) h.push_back(src == NINFER_FORMAT_bf16 ? static_cast<std::uint16_t>(w >> 16)
                                                                       : static_cast<std::uint16_t>((w >> 16 & 0x8000) | (w >> 13 & 0x3FF) | 0x2000));
                bytes = le16(h);
            }
            out.push_back(encode_case("grouped.absmax.bit_exact", name_of(*fp) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                      level, "random seed=" + std::to_string(seed), *fp, src, n, k, bytes));
        }
    return out;
}

// ---- suite grouped.search -------------------------------------------------------------------

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
        out.push_back(search_case("grouped.search.strict_improvement", nm + ".exact_grid_kept", Level::quick, f, 1, G, exact));
        // Equal errors: amax / qmax = 1 + 2^-11 lies halfway between the binary16 words 0x3C00 (the
        // 7.2 scale, even) and 0x3C01 (its next-up neighbour, a later candidate); both leave the
        // same error, so the incumbent 0x3C00 stays. Replacing on equal error picks 0x3C01.
        U32 tie(G, 0);
        tie[0] = f32w(static_cast<std::int64_t>(f.qmax) * 2049, -11);
        out.push_back(search_case("grouped.search.strict_improvement", nm + ".equal_error_kept", Level::quick, f, 1, G, tie));
        tie[G / 2] = f32w(-static_cast<std::int64_t>(f.qmax) * 2049, -11);
        out.push_back(search_case("grouped.search.strict_improvement", nm + ".equal_error_kept_two_lanes", Level::quick, f, 1, G, tie));
        // +amax and -amax in one group: the extreme is the first such lane (R3). Lanes on the
        // grid amax/|qmin| make the full-range candidate of the extreme's sign the best one.
        for (const bool negative : {false, true})
            for (const bool plus_first : {true, false}) {
                U32 pm(G);
                for (std::uint64_t i = 0; i < G; ++i)
                    pm[i] = f32w(static_cast<std::int64_t>(i * 5 % static_cast<std::uint64_t>(2 * -f.qmin - 1)) + f.qmin + 1, -6);
                pm[3] = f32w(plus_first ? -f.qmin : f.qmin, -6);
                pm[G - 4] = f32w(plus_first ? f.qmin : -f.qmin, -6);
                out.push_back(search_case(negative ? "grouped.search.negative_scales" : "grouped.search.candidates",
                                          nm + ".amax_tie_" + (plus_first ? "plus_first" : "minus_first") + (negative ? ".negative" : ""),
                                          Level::quick, f, 1, G, pm, {}, negative));
            }
        // Seeded groups where the search moves away from 7.2; with and without importance.
        for (const std::uint64_t k : distinct({G, G + 7, 3 * G})) {
            const U32 x = seeded_source(2, k, kGoldenSeed ^ (f.id * 77 + k));
            out.push_back(search_case("grouped.search.candidates", nm + ".seeded_" + shape_slug(2, k), Level::quick, f, 2, k, x));
            out.push_back(search_case("grouped.search.importance", nm + ".seeded_" + shape_slug(2, k), Level::quick, f, 2, k, x,
                                      seeded_importance(k, kGoldenSeed + k)));
            out.push_back(search_case("grouped.search.importance", nm + ".all_ones_" + shape_slug(2, k), Level::quick, f, 2, k, x,
                                      U32(k, 0x3F800000u)));
        }
        // A large positive outlier: the full-range scale -m/qmin competes only with negative_scales.
        U32 outlier = seeded_source(1, G, kGoldenSeed ^ (f.id * 91));
        outlier[5] = f32w(1, 3);
        for (const bool negative : {false, true})
            out.push_back(search_case("grouped.search.negative_scales", nm + ".outlier" + (negative ? ".enabled" : ".disabled"),
                                      Level::quick, f, 1, G, outlier, {}, negative));
        // Valid words in the corners: subnormal scales, rescue, largest scales, zeros.
        U32 corner(4 * G, 0);
        for (std::uint64_t i = 0; i < G; ++i) corner[i] = f32w(static_cast<std::int64_t>(i % 7) - 3, -30);
        for (std::uint64_t i = G; i < 2 * G; ++i) corner[i] = f32w(static_cast<std::int64_t>(i % 5) + 1, -149);
        for (std::uint64_t i = 2 * G; i < 3 * G; ++i) corner[i] = f32w(-static_cast<std::int64_t>(i % 13) * f.qmax * 4000, 0);
        out.push_back(search_case("grouped.search.valid_words", nm + ".corners", Level::quick, f, 1, 4 * G, corner));
        out.push_back(search_case("grouped.search.valid_words", nm + ".corners_negative", Level::quick, f, 1, 4 * G, corner, {}, true));
        // Refusals: an overflowing group, a non-finite source, a bad importance vector.
        U32 over(G, f32w(1, -2));
        over[3] = f32w(f.qmax * 65520, 0);
        out.push_back(search_case("grouped.absmax.scale_overflow", nm + ".search", Level::quick, f, 1, G, over));
        U32 inf(G, f32w(1, -2));
        inf[G - 1] = 0x7F800000u;
        out.push_back(search_case("grouped.absmax.nonfinite", nm + ".search", Level::quick, f, 1, G, inf));
        const U32 x = seeded_source(1, G, kGoldenSeed + 5);
        U32 bad(G, 0x3F800000u);
        bad[9] = 0xBF800000u;
        out.push_back(search_case("grouped.search.importance", nm + ".negative_weight", Level::quick, f, 1, G, x, bad));
        bad[9] = 0x7FC00000u;
        out.push_back(search_case("grouped.search.importance", nm + ".nan_weight", Level::quick, f, 1, G, x, bad));
        out.push_back(search_case("grouped.search.importance", nm + ".short_vector", Level::quick, f, 1, G, x, U32(G - 1, 0x3F800000u)));
        // Seeded matrices (level full and above).
        const U32 big = seeded_source(17, 130, kGoldenSeed ^ (f.id * 1234567));
        out.push_back(search_case("grouped.search.candidates", nm + ".seeded_17x130", Level::full, f, 17, 130, big));
        out.push_back(search_case("grouped.search.negative_scales", nm + ".seeded_17x130", Level::full, f, 17, 130, big, {}, true));
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
            out.push_back(search_case("grouped.search.candidates", name_of(*fp) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k),
                                      level, *fp, n, k, seeded_source(n, k, rng()), with_imp ? seeded_importance(k, rng()) : U32{},
                                      negative));
            out.back().source = "random seed=" + std::to_string(seed);
        }
    return out;
}

// ---- suite grouped.row_split ----------------------------------------------------------------

void geometry_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::pair<std::uint64_t, std::uint64_t> shapes[] = {{1, 1}, {1, 128}, {2, 130}, {3, 129}, {1, 256}, {5, 64}, {2, 4096}, {7, 63}};
    for (const auto &[n, k] : shapes) {
        const auto m = seeded_matrix(f, n, k, kGoldenSeed ^ (f.id * 31 + n * 7 + k));
        out.push_back(layout_encode_case("row_split.geometry", nm + "." + shape_slug(n, k), Level::quick, "boundary", f, m));
    }
    const auto m = seeded_matrix(f, 3, 200, kGoldenSeed ^ f.id);
    const auto p = row_split_encode(f, m);
    out.push_back(layout_encode_case("row_split.plane_order", nm + ".3x200", Level::quick, "boundary", f, m));
    out.push_back(payload_case("row_split.plane_order", nm + ".3x200.decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 3, 200, p));
    // Distinct scale words per physical group, little-endian, row-major.
    const auto sc = make_matrix(f, 3, 300, [](std::uint64_t, std::uint64_t) { return 1; },
                                [](std::uint64_t r, std::uint64_t g) { return static_cast<std::uint16_t>(0x1234 + 0x0101 * (r * 8 + g)); });
    out.push_back(layout_encode_case("row_split.scale_plane", nm + ".3x300", Level::quick, "boundary", f, sc));
    // Size rule: payloads one byte short or long, empty, a shape whose size overflows uint64.
    for (const auto &[slug, delta] : std::vector<std::pair<std::string, long>>{{"short1", -1}, {"long1", 1}, {"long256", 256}}) {
        Bytes q = p;
        q.resize(static_cast<std::size_t>(static_cast<long>(q.size()) + delta), 0);
        out.push_back(payload_case("row_split.size", nm + "." + slug + ".validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 200, q));
        out.push_back(payload_case("row_split.size", nm + "." + slug + ".decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 3, 200, q));
    }
    out.push_back(payload_case("row_split.size", nm + ".empty.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 3, 200, {}));
    out.push_back(payload_case("row_split.size", nm + ".overflow.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f,
                               1ull << 62, 1ull << 20, Bytes(64, 0)));
    // Nibble order (even lane low) and high-bit stream order, both directions.
    if (f.code_bits >= 4 && f.code_bits <= 6) {
        const auto nib = make_matrix(
            f, 2, 128, [&](std::uint64_t r, std::uint64_t c) { return c % 2 ? (r ? f.qmin : 1) : (r ? 3 : f.qmax); },
            [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3C00; });
        out.push_back(layout_encode_case("row_split.nibble_order", nm + ".alternating", Level::quick, "boundary", f, nib));
        out.push_back(payload_case("row_split.nibble_order", nm + ".alternating.decode", Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 2, 128, row_split_encode(f, nib)));
    }
    if (f.high_bytes) {
        // Lanes whose high bits differ in pattern: bit 4 only, bit 5 only (q6), both.
        const auto hi = make_matrix(
            f, 2, 130,
            [&](std::uint64_t r, std::uint64_t c) {
                const int pattern6[] = {16, -32, -16, 0, 17, -31, 31, -1};
                const int pattern5[] = {-16, 0, 15, -1, 0, 0, -16, 1};
                return f.code_bits == 6 ? pattern6[(c + r) % 8] : pattern5[(c + 3 * r) % 8];
            },
            [](std::uint64_t, std::uint64_t) -> std::uint16_t { return 0x3C00; });
        out.push_back(layout_encode_case("row_split.high_bit_order", nm + ".patterns", Level::quick, "boundary", f, hi));
        out.push_back(payload_case("row_split.high_bit_order", nm + ".patterns.decode", Level::quick, "boundary",
                                   NINFER_OP_layout_decode, f, 2, 130, row_split_encode(f, hi)));
    }
    if (f.code_bits == 8) {
        const auto b = seeded_matrix(f, 2, 70, kGoldenSeed + 8);
        out.push_back(payload_case("row_split.q8_bytes", nm + ".2x70.decode", Level::quick, "boundary", NINFER_OP_layout_decode, f, 2, 70,
                                   row_split_encode(f, b)));
    }
    if (f.code_bits == 2) {
        const auto b = seeded_matrix(f, 2, 200, kGoldenSeed + 2);
        out.push_back(layout_encode_case("row_split.two_bit_packing", nm + ".2x200", Level::quick, "suite reading", f, b));
        out.push_back(payload_case("row_split.two_bit_packing", nm + ".2x200.decode", Level::quick, "suite reading",
                                   NINFER_OP_layout_decode, f, 2, 200, row_split_encode(f, b)));
        out.push_back(payload_case("row_split.registry", nm + ".accepted", Level::quick, "suite reading", NINFER_OP_payload_validate,
                                   f, 2, 200, row_split_encode(f, b)));
    }
}

void padding_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const auto G = static_cast<std::uint64_t>(f.group);
    for (const std::uint64_t k : distinct({1, G + 1, 100, 129, G})) {
        const auto m = seeded_matrix(f, 2, k, kGoldenSeed ^ (f.id * 5 + k));
        out.push_back(layout_encode_case("row_split.padding", nm + ".encode_" + shape_slug(2, k), Level::quick, "boundary", f, m));
    }
    // Corruptions of the canonical padding: a padding lane, a whole padding group's code and scale.
    const std::uint64_t k = G + 1;  // partial group 1 (lanes 1..G-1 padding), padding groups after it
    const auto m = seeded_matrix(f, 2, k, kGoldenSeed ^ (f.id * 3));
    const auto g = *row_split_geometry(f, 2, k);
    const Bytes p = row_split_encode(f, m);
    const std::uint32_t not_zero = grouped_code_word(f, f.qmax == 0 ? 1 : f.qmax);
    {
        Bytes q = p;
        set_lane_word(f, g, q, 1, 1, 1, not_zero);
        out.push_back(payload_case("row_split.padding", nm + ".padding_lane.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        out.push_back(payload_case("row_split.padding", nm + ".padding_lane.quant_decode", Level::quick, "boundary", NINFER_OP_quant_decode, f, 2, k, q));
    }
    // Padding lanes and padding-group lanes holding a code whose base bits are zero (high plane only).
    for (const std::uint32_t w : high_only_words(f)) {
        Bytes q = p;
        set_lane_word(f, g, q, 1, 1, 1, w);
        out.push_back(payload_case("row_split.padding", nm + ".padding_lane_high_only_" + hex(w, 2) + ".validate", Level::quick,
                                   "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        if (g.groups_per_row > g.logical_groups) {
            Bytes r = p;
            set_lane_word(f, g, r, 0, g.groups_per_row - 1, 2, w);
            out.push_back(payload_case("row_split.padding", nm + ".padding_group_high_only_" + hex(w, 2) + ".validate",
                                       Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, r));
        }
    }
    if (g.groups_per_row > g.logical_groups) {
        Bytes q = p;
        set_lane_word(f, g, q, 0, g.groups_per_row - 1, f.group - 1, not_zero);
        out.push_back(payload_case("row_split.padding", nm + ".padding_group_code.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, q));
        Bytes s = p;
        put_scale(g, s, 1, g.groups_per_row - 1, 0x3C00);
        out.push_back(payload_case("row_split.padding", nm + ".padding_group_scale.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, s));
        Bytes z = p;
        put_scale(g, z, 0, g.groups_per_row - 1, 0x8000);
        out.push_back(payload_case("row_split.padding", nm + ".padding_group_negative_zero.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 2, k, z));
    }
    if (f.encoding == CodeEncoding::OFFSET) {
        Bytes q = p;  // Q2 padding stores signed code 0 as word 1: the word 0 (code -1) is refused
        set_lane_word(f, g, q, 0, 1, 5, 0);
        out.push_back(payload_case("row_split.padding", nm + ".padding_word0.validate", Level::quick, "suite reading", NINFER_OP_payload_validate, f, 2, k, q));
    }
    // Gaps: first and last byte of each gap (base->high, high->scale) set.
    const auto m2 = seeded_matrix(f, 1, 128, kGoldenSeed ^ (f.id * 11));
    const auto g2 = *row_split_geometry(f, 1, 128);
    const Bytes p2 = row_split_encode(f, m2);
    const std::pair<std::uint64_t, std::uint64_t> gaps[] = {{g2.base_bytes, g2.high_offset},
                                                            {g2.high_offset + g2.high_bytes, g2.scale_offset}};
    int gi = 0;
    for (const auto &[from, to] : gaps) {
        ++gi;
        if (from >= to) continue;
        for (const std::uint64_t at : {from, to - 1}) {
            Bytes q = p2;
            q[at] = 0x01;
            out.push_back(payload_case("row_split.gaps", nm + ".gap" + std::to_string(gi) + "_byte" + std::to_string(at),
                                       Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, 128, q));
        }
    }
    out.push_back(payload_case("row_split.gaps", nm + ".canonical.validate", Level::quick, "boundary", NINFER_OP_payload_validate, f, 1, 128, p2));
}

void select_cases(const GroupedFormat &f, std::vector<Case> &out) {
    const std::string nm = name_of(f);
    const std::uint64_t n = 5, k = 130;
    const auto m = seeded_matrix(f, n, k, kGoldenSeed ^ (f.id * 13));
    const Bytes p = row_split_encode(f, m);
    for (std::uint64_t r = 0; r < n; ++r)
        out.push_back(select_case("row_split.row_view", nm + ".row" + std::to_string(r), Level::quick, f, n, k, p, {r}, false, {r, 1}));
    out.push_back(select_case("row_split.row_view", nm + ".all_rows", Level::quick, f, n, k, p, {0, 1, 2, 3, 4}, false, {0, n}));
    out.push_back(select_case("row_split.slice", nm + ".rows_1_3", Level::quick, f, n, k, p, {1, 2}, false, {1, 2}));
    out.push_back(select_case("row_split.slice", nm + ".rows_2_5", Level::quick, f, n, k, p, {2, 3, 4}, false, {2, 3}));
    out.push_back(select_case("row_split.slice", nm + ".past_end", Level::quick, f, n, k, p, {4, 5, 6}, false, {4, 3}));
    out.push_back(select_case("row_split.gather", nm + ".3_0_3_1", Level::quick, f, n, k, p, {3, 0, 3, 1}, true));
    out.push_back(select_case("row_split.gather", nm + ".reversed", Level::quick, f, n, k, p, {4, 3, 2, 1, 0}, true));
    out.push_back(select_case("row_split.gather", nm + ".one_row_many_times", Level::quick, f, n, k, p, std::vector<std::uint64_t>(9, 2), true));
    out.push_back(select_case("row_split.gather", nm + ".index_past_end", Level::quick, f, n, k, p, {0, 5}, true));
    // Empty selections are refused: an empty gather, a slice of zero rows (also at the end).
    out.push_back(select_case("row_split.gather", nm + ".empty", Level::quick, f, n, k, p, {}, true));
    out.push_back(select_case("row_split.slice", nm + ".zero_rows", Level::quick, f, n, k, p, {}, false, {2, 0}));
    out.push_back(select_case("row_split.slice", nm + ".zero_rows_at_end", Level::quick, f, n, k, p, {}, false, {n, 0}));
    // A gather from a matrix with padding groups and a high plane across the 256-byte alignment.
    const auto m2 = seeded_matrix(f, 9, 65, kGoldenSeed ^ (f.id * 17));
    out.push_back(select_case("row_split.gather", nm + ".9x65_pick", Level::quick, f, 9, 65, row_split_encode(f, m2), {8, 1, 4}, true));
}

/// Unregistered pairs for the grouped ops (layout_encode/decode pairs are in layout.registry).
void pair_cases(std::vector<Case> &out) {
    const std::uint32_t ops[] = {NINFER_OP_payload_validate, NINFER_OP_quant_decode, NINFER_OP_rows_select, NINFER_OP_quant_encode};
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (format, layout)
    for (const auto &f : kGroupedFormats)
        for (const auto &l : kLayouts)
            if (!layout_accepts(l.id, f.id)) pairs.emplace_back(f.id, l.id);
    for (const auto &w : kWordFormats)
        if (!layout_accepts(kRowSplit, w.id)) pairs.emplace_back(w.id, kRowSplit);
    for (const auto &o : kOtherFormats)
        if (!layout_accepts(kRowSplit, o.id)) pairs.emplace_back(o.id, kRowSplit);
    for (const auto &[format, layout] : pairs)
        for (const auto op : ops) {
            Case c = base_case("layout.registry.unregistered_pair",
                               "grouped_" + std::string(op_name(op)) + "." + std::string(format_name(format)) + "_in_" +
                                   std::string(layout_name(layout)),
                               Level::quick, "registry");
            c.op = op;
            c.format = format;
            c.layout = layout;
            c.shape = {1, 128};
            c.input(op_planes(op, format, layout).inputs[0]) = Bytes(op == NINFER_OP_quant_encode ? 512 : 256, 0);
            if (op == NINFER_OP_quant_encode) {
                c.format_in = NINFER_FORMAT_fp32;
                c.method = NINFER_ENCODER_grouped_absmax;
            }
            if (op == NINFER_OP_rows_select) c.input(NINFER_PLANE_ROWS) = le64({0, 1});
            c.expect.status = NINFER_E_LAYOUT;
            out.push_back(std::move(c));
        }
}

std::vector<Case> row_split_golden() {
    std::vector<Case> out;
    for (const auto &f : kGroupedFormats) {
        geometry_cases(f, out);
        padding_cases(f, out);
        select_cases(f, out);
    }
    pair_cases(out);
    return out;
}

std::vector<Case> row_split_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    if (level < Level::full) return out;
    std::mt19937_64 rng(seed ^ 0x2051u);
    const int per_format = level == Level::exhaustive ? 8 : 2;
    for (const auto &f : kGroupedFormats)
        for (int i = 0; i < per_format; ++i) {
            const std::uint64_t n = 1 + rng() % 12, k = 1 + rng() % 600;
            const auto m = seeded_matrix(f, n, k, rng());
            const std::string slug = name_of(f) + ".random_" + std::to_string(i) + "_" + shape_slug(n, k);
            const std::string src = "random seed=" + std::to_string(seed);
            Case enc = layout_encode_case("row_split.geometry", slug, level, src, f, m);
            std::vector<std::uint64_t> rows;
            for (std::uint64_t j = 0; j < 1 + rng() % 6; ++j) rows.push_back(rng() % n);
            out.push_back(select_case("row_split.gather", slug, level, f, n, k, enc.expect.output(NINFER_PLANE_PAYLOAD), rows, true));
            out.back().source = src;
            out.push_back(std::move(enc));
        }
    return out;
}

// ---- suites ---------------------------------------------------------------------------------

/// Flag the cases that rest on a suite reading: their rule is one, or the format is q2/t2 in
/// row_split_k128_v1 (storage-layouts.md Section 1 and the 2-bit packing are readings).
std::vector<Case> mark_readings(std::vector<Case> cases) {
    for (auto &c : cases) {
        const Rule *r = find_rule(c.rule);
        const auto *f = find_id(kGroupedFormats, c.format);
        const bool two_bit = f && f->code_bits == 2 && c.layout == kRowSplit && c.expect.status != NINFER_E_LAYOUT;
        c.suite_reading = c.suite_reading || (r && r->suite_reading) || two_bit;
    }
    return cases;
}

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return [make](std::uint64_t seed, Level level) { return mark_readings(make(seed, level)); };
}

/// Golden cases computed once per process, then filtered by level.
std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    auto cache = std::make_shared<std::pair<std::once_flag, std::vector<Case>>>();
    return [cache, make](Level level) {
        std::call_once(cache->first, [&] { cache->second = mark_readings(make()); });
        std::vector<Case> out;
        for (const auto &c : cache->second)
            if (c.level <= level) out.push_back(c);
        return out;
    };
}

}  // namespace

std::vector<Suite> grouped_suites() {
    return {
        {"grouped.codes",
         "Grouped code words and scales: every legal code of every width, interval endpoints, the illegal Q8 0x80 "
         "and T2 0b10 words, every binary16 scale class, zero-scale groups, the Section 6.2 reconstruction "
         "(quant_decode, layout_decode, payload_validate)",
         cached_golden(codes_golden), random_of(codes_random)},
        {"grouped.absmax",
         "grouped_absmax bit for bit (Section 7.2): ties, reciprocal multiply, binary16 scale rounding, the 0x0001 "
         "rescue, clamp after rounding, qmax denominator, zero groups, overflow and non-finite failures, BF16/FP16 "
         "sources, shapes K = 1..4096 (quant_encode)",
         cached_golden(absmax_golden), random_of(absmax_random)},
        {"grouped.search",
         "grouped_search as the suite reads it (oracle/GROUPED.md R3, R4): strict improvement, candidates, "
         "importance, negative scales (quant_encode; every accepted case is the suite's reading)",
         cached_golden(search_golden), random_of(search_random)},
        {"grouped.row_split",
         "row_split_k128_v1: geometry, plane order, nibble and high-bit order, the 2-bit reading, scale plane, "
         "canonical padding, zero gaps, size rule, row views, slices, gathers, unregistered pairs "
         "(layout_encode, layout_decode, payload_validate, rows_select)",
         cached_golden(row_split_golden), random_of(row_split_random)},
    };
}

}  // namespace ninfer::suites
