// SPDX-License-Identifier: Apache-2.0
// The grouped family's shared case builders (builders.hpp).
#include "builders.hpp"

#include "../plumbing.hpp"
#include "ninfer/abi/bytes.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace ninfer::suites::grouped {

std::string name_of(const GroupedFormat &f) { return std::string(f.name); }

std::string shape_slug(std::uint64_t n, std::uint64_t k) { return std::to_string(n) + "x" + std::to_string(k); }

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

std::pair<std::int64_t, int> f16_parts(std::uint16_t w) {
    const int e = (w >> 10) & 0x1F;
    std::int64_t m = w & 0x3FF;
    if (e != 0) m |= 0x400;
    const int exp = (e == 0 ? 1 : e) - 25;
    return {(w & 0x8000u) ? -m : m, exp};
}

namespace {
/// Words of `bytes` bytes each, little-endian, in order.
template <class Word>
Bytes packed_le(const std::vector<Word> &w, int bytes) {
    Bytes b;
    b.reserve(w.size() * static_cast<std::size_t>(bytes));
    for (auto x : w) abi::append_le(b, x, bytes);
    return b;
}
}  // namespace

Bytes le32(const U32 &w) { return packed_le(w, 4); }
Bytes le16(const U16 &w) { return packed_le(w, 2); }
Bytes le64(const std::vector<std::uint64_t> &w) { return packed_le(w, 8); }
Bytes codes_bytes(const std::vector<std::int8_t> &q) {
    Bytes b;
    for (auto x : q) b.push_back(static_cast<std::uint8_t>(x));
    return b;
}

std::vector<std::uint64_t> distinct(std::initializer_list<std::uint64_t> v) {
    std::vector<std::uint64_t> out;
    for (auto x : v)
        if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
    return out;
}

std::uint64_t logical_groups(const GroupedFormat &f, std::uint64_t k) { return grouped_groups_per_row(f, k); }

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

Case call_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
               const GroupedFormat &f, std::uint64_t n, std::uint64_t k) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.format = f.id;
    c.layout = kRowSplit;
    c.shape = {n, k};
    return c;
}

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
                 std::uint32_t method, const U32 &importance, bool negative) {
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

std::vector<const GroupedFormat *> canonical_formats() {
    std::vector<const GroupedFormat *> out;
    for (const auto &f : kGroupedFormats)
        if (f.canonical_encoders) out.push_back(&f);
    return out;
}

std::uint32_t seeded_f32(std::mt19937_64 &rng, int lo, int hi) {
    const std::uint64_t r = rng();
    if ((r & 0xF) == 0) return 0;
    const auto e = static_cast<std::uint32_t>(lo + static_cast<int>((r >> 4) % static_cast<std::uint64_t>(hi - lo + 1)));
    return static_cast<std::uint32_t>((r >> 20) & 1) << 31 | e << 23 | static_cast<std::uint32_t>((r >> 21) & 0x7FFFFF);
}

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

std::vector<std::uint32_t> high_only_words(const GroupedFormat &f) {
    std::vector<std::uint32_t> out;
    if (!f.high_bytes) return out;
    for (int q = f.qmin; q <= f.qmax; ++q) {
        const std::uint32_t w = grouped_code_word(f, q);
        if (q != 0 && (w & 0xFu) == 0) out.push_back(w);
    }
    return out;
}

/// Flag the cases that rest on a suite reading: their rule is one, or the format is q2/t2 in
/// row_split_k128_v1 (storage-layouts.md Section 1 and the 2-bit packing are readings).
std::vector<Case> mark_readings(std::vector<Case> cases) {
    for (auto &c : cases) {
        const Rule *r = find_rule(c.rule);
        const auto *f = find_id(kGroupedFormats, c.format);
        const bool two_bit = f && f->packing == Packing::TWO_BIT_LSB && c.layout == kRowSplit && c.expect.status != NINFER_E_LAYOUT;
        c.suite_reading = c.suite_reading || (r && r->suite_reading) || two_bit;
    }
    return cases;
}

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return random_with(make, &mark_readings);
}

std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    return cached_golden_with(make, &mark_readings);
}

}  // namespace ninfer::suites::grouped
