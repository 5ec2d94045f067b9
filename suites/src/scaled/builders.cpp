// SPDX-License-Identifier: Apache-2.0
// The scaled family's shared case builders (builders.hpp).
#include "builders.hpp"

#include "../plumbing.hpp"

#include <memory>
#include <mutex>
#include <stdexcept>

namespace ninfer::suites::scaled {

std::string shape_slug(std::uint64_t n, std::uint64_t k) { return std::to_string(n) + "x" + std::to_string(k); }

Bytes le16(const U16 &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 2);
    return b;
}
Bytes le32(const U32 &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 4);
    return b;
}
Bytes le64(const U64 &w) {
    Bytes b;
    for (auto x : w) put_word(b, x, 8);
    return b;
}

std::vector<Fp8RowFormat> fp8_row_formats() {
    std::vector<Fp8RowFormat> out;
    for (const auto &f : abi::kScaledFormats)
        if (const auto r = fp8_row_format(f.id)) out.push_back(*r);
    return out;
}

std::string fp8_name(const Fp8RowFormat &f) { return std::string(format_name(f.format)); }

// ---- nvfp4 --------------------------------------------------------------------------------

Nvfp4Matrix nv_matrix(std::uint64_t n, std::uint64_t k, const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &code,
                      const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &scale, const U32 &divisors) {
    Nvfp4Matrix m;
    m.rows = n;
    m.cols = k;
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < k; ++c) m.codes.push_back(code(r, c));
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < k / kNvfp4Group; ++g) m.scales.push_back(scale(r, g));
    m.divisors = divisors;
    return m;
}

Nvfp4Matrix nv_seeded(std::uint64_t n, std::uint64_t k, const U32 &divisors, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto code = [&](std::uint64_t, std::uint64_t) { return static_cast<std::uint8_t>(rng() & 0xF); };
    auto scale = [&](std::uint64_t, std::uint64_t) {
        for (;;) {
            const auto s = static_cast<std::uint8_t>(rng() & 0x7F);  // sign zero; 0x7F is NaN
            if (s != 0x7F && (s != 0 || rng() % 8 == 0)) return s;
        }
    };
    return nv_matrix(n, k, code, scale, divisors);
}

std::uint64_t nv_divisors_of(std::uint64_t n, std::uint64_t k, std::uint64_t bytes) {
    const auto g = block_scale_geometry(n, k, 1);
    if (!g || bytes <= g->divisor_offset) return 0;
    const std::uint64_t rem = bytes - g->divisor_offset;
    if (rem % 4 != 0 || n % (rem / 4) != 0) return 0;
    return rem / 4;
}

Case nv_call(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
             std::uint64_t n, std::uint64_t k) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.format = kNvfp4;
    c.layout = kBlockScale;
    c.shape = {n, k};
    c.count = n * k;
    return c;
}

namespace {

void refuse(Case &c, std::int32_t status, std::uint32_t detail = 0) {
    c.expect.status = status;
    c.expect.detail = detail;
    c.expect.outputs.clear();
}

}  // namespace

Case nv_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                    const Nvfp4Matrix &m) {
    Case c = nv_call(rule, slug, level, source, NINFER_OP_layout_encode, m.rows, m.cols);
    c.format_in = kNvfp4;
    c.input(NINFER_PLANE_CODES) = m.codes;
    c.input(NINFER_PLANE_SCALES) = m.scales;
    c.input(NINFER_PLANE_DIVISORS) = le32(m.divisors);
    const std::uint64_t n = m.rows, k = m.cols;
    if (!block_scale_shape_error(n, k, m.divisors.size()).empty()) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    if (m.codes.size() != n * k || m.scales.size() != n * (k / kNvfp4Group)) {
        refuse(c, NINFER_E_SIZE);
        return c;
    }
    for (const auto code : m.codes)
        if (code > 0xF) {
            refuse(c, NINFER_E_INVALID_ARGUMENT);
            return c;
        }
    const Bytes p = block_scale_encode(m);
    // A logical word that no valid payload holds (an invalid scale or divisor) is refused.
    if (block_scale_decode(n, k, m.divisors.size(), p).status != NINFER_OK) {
        refuse(c, NINFER_E_INVALID_ARGUMENT);
        return c;
    }
    c.expect.output(NINFER_PLANE_PAYLOAD) = p;
    return c;
}

U32 nv_values(const Nvfp4Matrix &m) {
    const auto g = block_scale_geometry(m.rows, m.cols, m.divisors.size());
    if (!g) throw std::logic_error("nv_values: no geometry");
    U32 v;
    v.reserve(m.codes.size());
    for (std::uint64_t r = 0; r < m.rows; ++r)
        for (std::uint64_t c = 0; c < m.cols; ++c)
            v.push_back(nvfp4_weight_binary32(m.codes[r * m.cols + c], m.scales[r * g->groups_per_row + c / kNvfp4Group],
                                              m.divisors[nvfp4_divisor_of_row(*g, r)]));
    return v;
}

Case nv_payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                     std::uint32_t op, std::uint64_t n, std::uint64_t k, const Bytes &payload) {
    Case c = nv_call(rule, slug, level, source, op, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    const std::uint64_t d = nv_divisors_of(n, k, payload.size());
    if (!block_scale_shape_error(n, k, 1).empty() || d == 0) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    const auto dec = block_scale_decode(n, k, d, payload);
    if (dec.status != NINFER_OK) {
        refuse(c, dec.status, dec.detail);
        return c;
    }
    if (op == NINFER_OP_payload_validate) return c;
    c.expect.output(NINFER_PLANE_CODES) = dec.m.codes;
    c.expect.output(NINFER_PLANE_SCALES) = dec.m.scales;
    c.expect.output(NINFER_PLANE_DIVISORS) = le32(dec.m.divisors);
    if (op == NINFER_OP_quant_decode) c.expect.output(NINFER_PLANE_VALUES) = le32(nv_values(dec.m));
    return c;
}

void nv_payload_triple(std::vector<Case> &out, const std::string &rule, const std::string &slug, Level level,
                       const std::string &source, std::uint64_t n, std::uint64_t k, const Bytes &payload) {
    out.push_back(nv_payload_case(rule, slug + ".validate", level, source, NINFER_OP_payload_validate, n, k, payload));
    out.push_back(nv_payload_case(rule, slug + ".layout_decode", level, source, NINFER_OP_layout_decode, n, k, payload));
    out.push_back(nv_payload_case(rule, slug + ".quant_decode", level, source, NINFER_OP_quant_decode, n, k, payload));
}

Case nv_select_case(const std::string &rule, const std::string &slug, Level level, std::uint64_t n, std::uint64_t k,
                    const Bytes &payload, const U64 &rows, bool gather, const U64 &slice) {
    Case c = nv_call(rule, slug, level, "boundary", NINFER_OP_rows_select, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    c.flags = gather ? NINFER_FLAG_GATHER : 0;
    c.input(NINFER_PLANE_ROWS) = le64(gather ? rows : slice);
    const std::uint64_t d = nv_divisors_of(n, k, payload.size());
    if (!block_scale_shape_error(n, k, 1).empty() || d == 0) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    const auto s = block_scale_select_rows(n, k, d, payload, rows);
    if (s.status != NINFER_OK) {
        refuse(c, s.status, s.status == NINFER_E_SIZE ? NINFER_DETAIL_SIZE : 0);
        return c;
    }
    c.expect.output(NINFER_PLANE_PAYLOAD) = s.payload;
    return c;
}

// ---- FP8 rows -----------------------------------------------------------------------------

Fp8RowMatrix f8_matrix(std::uint64_t n, std::uint64_t k, const std::function<std::uint8_t(std::uint64_t, std::uint64_t)> &code,
                       const std::function<std::uint16_t(std::uint64_t)> &scale) {
    Fp8RowMatrix m;
    m.rows = n;
    m.cols = k;
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t c = 0; c < k; ++c) m.codes.push_back(code(r, c));
    for (std::uint64_t r = 0; r < n; ++r) m.scales.push_back(scale(r));
    return m;
}

Fp8RowMatrix f8_seeded(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto code = [&](std::uint64_t, std::uint64_t) {
        for (;;) {
            const auto w = static_cast<std::uint8_t>(rng());
            if ((w & 0x7F) != 0x7F) return w;
        }
    };
    auto scale = [&](std::uint64_t) -> std::uint16_t {
        const std::uint64_t r = rng();
        if (f.scale_format == NINFER_FORMAT_bf16)  // 2^-8 .. 2^6, 7 fraction bits
            return static_cast<std::uint16_t>((119 + r % 15) << 7 | ((r >> 8) & 0x7F));
        return static_cast<std::uint16_t>((7 + r % 15) << 10 | ((r >> 8) & 0x3FF));  // binary16 2^-8 .. 2^6
    };
    return f8_matrix(n, k, code, scale);
}

Case f8_call(const std::string &rule, const std::string &slug, Level level, const std::string &source, std::uint32_t op,
             const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k) {
    Case c = base_case(rule, slug, level, source);
    c.op = op;
    c.format = f.format;
    c.layout = f.layout;
    c.shape = {n, k};
    c.count = n * k;
    return c;
}

Case f8_encode_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                    const Fp8RowFormat &f, const Fp8RowMatrix &m) {
    Case c = f8_call(rule, slug, level, source, NINFER_OP_layout_encode, f, m.rows, m.cols);
    c.format_in = f.format;
    c.input(NINFER_PLANE_CODES) = m.codes;
    c.input(NINFER_PLANE_SCALES) = le16(m.scales);
    if (!fp8_row_geometry(f, m.rows, m.cols)) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    if (m.codes.size() != m.rows * m.cols || m.scales.size() != m.rows) {
        refuse(c, NINFER_E_SIZE);
        return c;
    }
    const Bytes p = fp8_row_encode(f, m);
    if (fp8_row_decode(f, m.rows, m.cols, p).status != NINFER_OK) {
        refuse(c, NINFER_E_INVALID_ARGUMENT);
        return c;
    }
    c.expect.output(NINFER_PLANE_PAYLOAD) = p;
    return c;
}

Case f8_payload_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                     std::uint32_t op, const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload) {
    Case c = f8_call(rule, slug, level, source, op, f, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    if (!fp8_row_geometry(f, n, k)) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    const auto d = fp8_row_decode(f, n, k, payload);
    if (d.status != NINFER_OK) {
        refuse(c, d.status, d.detail);
        return c;
    }
    if (op == NINFER_OP_payload_validate) return c;
    c.expect.output(NINFER_PLANE_CODES) = d.m.codes;
    c.expect.output(NINFER_PLANE_SCALES) = le16(d.m.scales);
    if (op == NINFER_OP_quant_decode) {
        U32 v;
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t j = 0; j < k; ++j) v.push_back(fp8_row_weight_binary32(f, d.m.codes[r * k + j], d.m.scales[r]));
        c.expect.output(NINFER_PLANE_VALUES) = le32(v);
    }
    return c;
}

void f8_payload_triple(std::vector<Case> &out, const std::string &rule, const std::string &slug, Level level,
                       const std::string &source, const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, const Bytes &payload) {
    out.push_back(f8_payload_case(rule, slug + ".validate", level, source, NINFER_OP_payload_validate, f, n, k, payload));
    out.push_back(f8_payload_case(rule, slug + ".layout_decode", level, source, NINFER_OP_layout_decode, f, n, k, payload));
    out.push_back(f8_payload_case(rule, slug + ".quant_decode", level, source, NINFER_OP_quant_decode, f, n, k, payload));
}

Case f8_select_case(const std::string &rule, const std::string &slug, Level level, const Fp8RowFormat &f, std::uint64_t n,
                    std::uint64_t k, const Bytes &payload, const U64 &rows, bool gather, const U64 &slice) {
    Case c = f8_call(rule, slug, level, "boundary", NINFER_OP_rows_select, f, n, k);
    c.input(NINFER_PLANE_PAYLOAD) = payload;
    c.flags = gather ? NINFER_FLAG_GATHER : 0;
    c.input(NINFER_PLANE_ROWS) = le64(gather ? rows : slice);
    const auto g = fp8_row_geometry(f, n, k);
    if (!g || payload.size() != g->payload_bytes) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    try {
        c.expect.output(NINFER_PLANE_PAYLOAD) = fp8_row_select_rows(f, n, k, payload, rows);
    } catch (const std::invalid_argument &) {
        refuse(c, NINFER_E_INVALID_ARGUMENT);  // no rows, or a row past N
    }
    return c;
}

int source_bytes(std::uint32_t source_format) { return source_format == NINFER_FORMAT_fp32 ? 4 : 2; }

Case maxabs_case(const std::string &rule, const std::string &slug, Level level, const std::string &source,
                 const Fp8RowFormat &f, std::uint32_t source_format, std::uint64_t n, std::uint64_t k, const U64 &words) {
    Case c = f8_call(rule, slug, level, source, NINFER_OP_quant_encode, f, n, k);
    c.format_in = source_format;
    c.method = NINFER_ENCODER_fp8_row_maxabs;
    Bytes src;
    for (const auto w : words) put_word(src, w, source_bytes(source_format));
    c.input(NINFER_PLANE_SOURCE) = src;
    if (!fp8_row_geometry(f, n, k)) {
        refuse(c, NINFER_E_SIZE, NINFER_DETAIL_SIZE);
        return c;
    }
    if (words.size() != n * k) {
        refuse(c, NINFER_E_INVALID_ARGUMENT);
        return c;
    }
    Fp8RowMatrix m{n, k, {}, {}};
    for (std::uint64_t r = 0; r < n; ++r) {
        const auto e = fp8_row_maxabs(f, source_format, std::span<const std::uint64_t>(words).subspan(r * k, k));
        c.suite_reading = c.suite_reading || e.suite_reading;
        if (e.status != NINFER_OK) {
            refuse(c, e.status);
            return c;
        }
        m.codes.insert(m.codes.end(), e.codes.begin(), e.codes.end());
        m.scales.push_back(e.scale);
    }
    c.expect.output(NINFER_PLANE_PAYLOAD) = fp8_row_encode(f, m);
    return c;
}

// ---- suites ---------------------------------------------------------------------------------

std::vector<Case> mark_readings(std::vector<Case> cases) { return mark_rule_readings(std::move(cases)); }

std::function<std::vector<Case>(std::uint64_t, Level)> random_of(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return random_with(make, &mark_readings);
}

std::function<std::vector<Case>(Level)> cached_golden(std::vector<Case> (*make)()) {
    return cached_golden_with(make, &mark_readings);
}

}  // namespace ninfer::suites::scaled
