// SPDX-License-Identifier: Apache-2.0
// Comparison of replies with expectations and the mismatch classes (reports/README.md,
// "Mismatch classes"; storage-layouts.md Sections 2 and 3 for locations in a payload).
#include "ninfer/harness/compare.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "compare_families.hpp"
#include "compare_linear.hpp"

namespace ninfer::harness {

using oracle::Special;
using oracle::WordFormat;

const char *mismatch_class_name(MismatchClass c) {
    switch (c) {
    case MismatchClass::wrong_tie_side: return "wrong_tie_side";
    case MismatchClass::off_by_one_ulp: return "off_by_one_ulp";
    case MismatchClass::gross: return "gross";
    case MismatchClass::nan_vs_number: return "nan_vs_number";
    case MismatchClass::nan_sign: return "nan_sign";
    case MismatchClass::nan_quieted: return "nan_quieted";
    case MismatchClass::nan_not_quieted: return "nan_not_quieted";
    case MismatchClass::nan_payload: return "nan_payload";
    case MismatchClass::zero_sign: return "zero_sign";
    case MismatchClass::flushed_subnormal: return "flushed_subnormal";
    case MismatchClass::saturation_vs_infinity: return "saturation_vs_infinity";
    case MismatchClass::infinity_vs_saturation: return "infinity_vs_saturation";
    case MismatchClass::nan_vs_saturation: return "nan_vs_saturation";
    case MismatchClass::invalid_accepted: return "invalid_accepted";
    case MismatchClass::valid_refused: return "valid_refused";
    case MismatchClass::wrong_reason: return "wrong_reason";
    case MismatchClass::unexpected_error: return "unexpected_error";
    case MismatchClass::missing_error: return "missing_error";
    case MismatchClass::byte_mismatch: return "byte_mismatch";
    case MismatchClass::size_mismatch: return "size_mismatch";
    case MismatchClass::out_of_bound: return "out_of_bound";
    case MismatchClass::nan_mismatch: return "nan_mismatch";
    case MismatchClass::inf_mismatch: return "inf_mismatch";
    case MismatchClass::bits: return "bits";
    }
    return "?";
}

// ---- Word geometry ---------------------------------------------------------------------------

namespace {

/// Output plane `i` of the op's plane order (suites::op_planes; 0 when the op has fewer), and
/// its expected and actual bytes (empty when absent).
std::uint32_t out_plane(const suites::Case &c, int i) {
    const auto names = suites::op_planes(c.op, c.format, c.layout).outputs;
    return i >= 0 && static_cast<std::size_t>(i) < names.size() ? names[static_cast<std::size_t>(i)] : 0;
}
const std::vector<std::uint8_t> &expected_out(const suites::Case &c, int i) { return c.expect.output(out_plane(c, i)); }
const std::vector<std::uint8_t> &actual_out(const suites::Case &c, const Reply &r, int i) { return r.output(out_plane(c, i)); }
/// The registry name of output plane `i` ("values", "scales").
std::string out_name(const suites::Case &c, int i) { return std::string(abi::plane_name(out_plane(c, i))); }

std::uint64_t ones(int n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }
std::uint64_t man_field(const WordFormat &f, std::uint64_t w) { return w & ones(f.man_bits); }
std::uint64_t exp_field(const WordFormat &f, std::uint64_t w) { return (w >> f.man_bits) & ones(f.exp_bits); }
std::uint64_t sign_bit(const WordFormat &f) { return f.has_sign ? 1ull << (f.bits - 1) : 0; }
bool is_float(const WordFormat &f) { return f.special != Special::INT; }

}  // namespace

bool word_is_nan(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    switch (f.special) {
    case Special::IEEE: return exp_field(f, w) == ones(f.exp_bits) && man_field(f, w) != 0;
    case Special::FN: return exp_field(f, w) == ones(f.exp_bits) && man_field(f, w) == ones(f.man_bits);
    case Special::E8M0: return w == ones(f.bits);
    case Special::NONE:
    case Special::INT: return false;
    }
    return false;
}

bool word_is_inf(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    return f.special == Special::IEEE && exp_field(f, w) == ones(f.exp_bits) && man_field(f, w) == 0;
}

bool word_is_zero(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    if (f.special == Special::E8M0) return false;
    if (f.special == Special::INT) return w == 0;
    return (w & ~sign_bit(f)) == 0;
}

bool word_is_subnormal(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    if (f.special == Special::E8M0 || f.special == Special::INT) return false;
    return exp_field(f, w) == 0 && man_field(f, w) != 0;
}

bool word_is_negative(const WordFormat &f, std::uint64_t w) { return (w & f.mask() & sign_bit(f)) != 0; }

std::uint64_t largest_finite_like(const WordFormat &f, std::uint64_t w) {
    const std::uint64_t e = ones(f.exp_bits), m = ones(f.man_bits);
    std::uint64_t mag = 0;
    switch (f.special) {
    case Special::IEEE: mag = ((e - 1) << f.man_bits) | m; break;
    case Special::FN: mag = (e << f.man_bits) | (m - 1); break;
    case Special::NONE: mag = (e << f.man_bits) | m; break;
    case Special::E8M0: return ones(f.bits) - 1;
    case Special::INT: return word_is_negative(f, w) ? sign_bit(f) : ones(f.bits - 1);
    }
    return mag | (w & sign_bit(f));
}

namespace {

/// Position in the format's total order: -largest ... -0, +0 ... +largest (one step apart).
std::int64_t order_of(const WordFormat &f, std::uint64_t w) {
    w &= f.mask();
    if (!f.has_sign) return static_cast<std::int64_t>(w);
    if (f.special == Special::INT) {
        const std::uint64_t s = sign_bit(f);
        return static_cast<std::int64_t>((w ^ s)) - static_cast<std::int64_t>(s);
    }
    const auto mag = static_cast<std::int64_t>(w & ~sign_bit(f));
    return word_is_negative(f, w) ? -mag - 1 : mag;
}

}  // namespace

std::uint64_t ulp_distance(const WordFormat &f, std::uint64_t a, std::uint64_t b) {
    const std::int64_t x = order_of(f, a), y = order_of(f, b);
    return x > y ? static_cast<std::uint64_t>(x - y) : static_cast<std::uint64_t>(y - x);
}

bool word_is_quiet_nan(const WordFormat &f, std::uint64_t w) {
    if (!word_is_nan(f, w)) return false;
    if (f.special != Special::IEEE) return true;  // one NaN per sign, no quiet bit
    return ((w >> (f.man_bits - 1)) & 1u) != 0;
}

std::string nan_text(const WordFormat &f, std::uint64_t w) {
    if (f.special == Special::E8M0) return "nan";
    const char *sign = word_is_negative(f, w) ? "-" : "+";
    if (f.special != Special::IEEE) return std::string(sign) + "nan";
    const std::uint64_t payload = man_field(f, w) & ones(f.man_bits - 1);
    const bool quiet = word_is_quiet_nan(f, w);
    return fmt::format("{}{}{}", sign, quiet ? "qnan" : "snan", payload ? fmt::format("(0x{:x})", payload) : "");
}

bool words_match(const WordFormat &f, suites::NanPolicy p, std::uint64_t expected, std::uint64_t actual) {
    expected &= f.mask();
    if (expected == actual) return true;
    if (p == suites::NanPolicy::exact || !word_is_nan(f, expected) || !word_is_nan(f, actual)) return false;
    if (actual > f.mask() || !word_is_quiet_nan(f, actual)) return false;  // IEEE 754 6.2: a converted NaN is quiet
    return p == suites::NanPolicy::any || word_is_negative(f, expected) == word_is_negative(f, actual);
}

// ---- Operators: acceptance -------------------------------------------------------------------

Acceptance acceptance_at(const std::vector<std::uint8_t> &accept, std::size_t i, int bytes) {
    const std::size_t entry = 2 * static_cast<std::size_t>(bytes) + 1;
    if (bytes <= 0 || bytes > 8 || (i + 1) * entry > accept.size())
        throw std::out_of_range(fmt::format("acceptance entry {} of {} bytes", i, accept.size()));
    Acceptance a;
    const std::uint8_t *b = accept.data() + i * entry;
    for (int k = bytes; k-- > 0;) {
        a.lo = a.lo << 8 | b[k];
        a.hi = a.hi << 8 | b[bytes + k];
    }
    a.flags = b[2 * bytes];
    return a;
}

namespace {

/// Position of a non-NaN word in the order of values: -0 and +0 share one place.
std::int64_t value_order(const WordFormat &f, std::uint64_t w) {
    const std::int64_t o = order_of(f, w);
    return is_float(f) && f.has_sign && word_is_negative(f, w) ? o + 1 : o;
}

bool in_interval(const WordFormat &f, const Acceptance &a, std::uint64_t w) {
    if (word_is_nan(f, a.lo) || word_is_nan(f, a.hi) || word_is_nan(f, w)) return false;
    const std::int64_t v = value_order(f, w);
    return value_order(f, a.lo) <= v && v <= value_order(f, a.hi);
}

}  // namespace

bool accepts(const WordFormat &f, const Acceptance &a, std::uint64_t actual) {
    if (actual > f.mask()) return false;
    if (word_is_nan(f, actual)) return (a.flags & suites::kAcceptNan) != 0;
    if (a.flags & suites::kAcceptBits) return actual == (a.lo & f.mask());
    return in_interval(f, a, actual);
}

MismatchClass classify_accept_mismatch(const WordFormat &f, const Acceptance &a, std::uint64_t actual) {
    const bool nan_only = word_is_nan(f, a.lo) || word_is_nan(f, a.hi);
    if (actual <= f.mask() && word_is_nan(f, actual)) return MismatchClass::nan_mismatch;
    if (nan_only) return MismatchClass::nan_mismatch;
    if (a.flags & suites::kAcceptBits) return MismatchClass::bits;
    if ((actual <= f.mask() && word_is_inf(f, actual)) || word_is_inf(f, a.lo) || word_is_inf(f, a.hi))
        return MismatchClass::inf_mismatch;
    return MismatchClass::out_of_bound;
}

// ---- Class decisions ---------------------------------------------------------------------------

bool is_nan_vs_saturation(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return (word_is_nan(f, expected) && !word_is_nan(f, actual) && largest_finite_like(f, actual) == actual) ||
           (word_is_nan(f, actual) && !word_is_nan(f, expected) && largest_finite_like(f, expected) == expected);
}

bool is_nan_vs_number(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return word_is_nan(f, expected) != word_is_nan(f, actual);
}

MismatchClass nan_difference(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    if (word_is_negative(f, expected) != word_is_negative(f, actual)) return MismatchClass::nan_sign;
    const bool eq = word_is_quiet_nan(f, expected), aq = word_is_quiet_nan(f, actual);
    if (!eq && aq) return MismatchClass::nan_quieted;
    if (eq && !aq) return MismatchClass::nan_not_quieted;
    return MismatchClass::nan_payload;
}

bool is_zero_sign(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return is_float(f) && word_is_zero(f, expected) && word_is_zero(f, actual) && expected != actual;
}

bool is_flushed_subnormal(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    if (!is_float(f) || !word_is_zero(f, actual) || word_is_zero(f, expected)) return false;
    // The smallest normal counts too: it is where a subnormal intermediate rounds up.
    const std::uint64_t mag = expected & ~sign_bit(f);
    return word_is_subnormal(f, expected) || mag == (1ull << f.man_bits);
}

bool is_flushed_subnormal_input(const WordFormat &in, std::uint64_t src, const WordFormat &out, std::uint64_t expected,
                                std::uint64_t actual) {
    return word_is_subnormal(in, src) && is_float(out) && word_is_zero(out, actual) && !word_is_zero(out, expected);
}

bool is_saturation_vs_infinity(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return is_float(f) && largest_finite_like(f, expected) == expected && word_is_inf(f, actual);
}

bool is_infinity_vs_saturation(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return is_float(f) && word_is_inf(f, expected) && largest_finite_like(f, actual) == actual;
}

bool is_wrong_tie_side(const oracle::Conversion &c, std::uint64_t src, std::uint64_t expected, std::uint64_t actual) {
    const auto &f = oracle::word_format(c.dst);
    if (word_is_nan(f, expected) || word_is_nan(f, actual) || ulp_distance(f, expected, actual) != 1) return false;
    return oracle::conversion_is_tie(c, src);
}

bool is_off_by_one_ulp(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return !word_is_nan(f, expected) && !word_is_nan(f, actual) && ulp_distance(f, expected, actual) == 1;
}

MismatchClass classify_word_mismatch(const WordFormat &f, const oracle::Conversion *conv, std::uint64_t src,
                                     std::uint64_t expected, std::uint64_t actual, const WordFormat *in) {
    if (actual > f.mask()) return MismatchClass::gross;
    if (is_nan_vs_saturation(f, expected, actual)) return MismatchClass::nan_vs_saturation;
    if (is_nan_vs_number(f, expected, actual)) return MismatchClass::nan_vs_number;
    if (word_is_nan(f, expected) && word_is_nan(f, actual)) return nan_difference(f, expected, actual);
    if (is_zero_sign(f, expected, actual)) return MismatchClass::zero_sign;
    if (is_flushed_subnormal(f, expected, actual)) return MismatchClass::flushed_subnormal;
    if (in && is_flushed_subnormal_input(*in, src, f, expected, actual)) return MismatchClass::flushed_subnormal;
    if (is_saturation_vs_infinity(f, expected, actual)) return MismatchClass::saturation_vs_infinity;
    if (is_infinity_vs_saturation(f, expected, actual)) return MismatchClass::infinity_vs_saturation;
    if (conv && is_wrong_tie_side(*conv, src, expected, actual)) return MismatchClass::wrong_tie_side;
    if (is_off_by_one_ulp(f, expected, actual)) return MismatchClass::off_by_one_ulp;
    return MismatchClass::gross;
}

MismatchClass classify_verdict_mismatch(std::uint8_t expected, std::uint8_t actual) {
    if (expected == NINFER_VERDICT_VALID) return MismatchClass::valid_refused;
    if (actual == NINFER_VERDICT_VALID) return MismatchClass::invalid_accepted;
    return MismatchClass::wrong_reason;
}

MismatchClass classify_class_byte_mismatch(std::uint8_t expected, std::uint8_t actual) {
    auto nan = [](std::uint8_t c) {
        const int k = c & 0x0F;
        return k == NINFER_CLASS_QNAN || k == NINFER_CLASS_SNAN || k == NINFER_CLASS_NAN;
    };
    const int ek = expected & 0x0F, ak = actual & 0x0F;
    if (nan(expected) != nan(actual)) return MismatchClass::nan_vs_number;
    if (nan(expected)) {
        if ((expected ^ actual) & NINFER_CLASS_SIGN) return MismatchClass::nan_sign;
        if (ek == NINFER_CLASS_SNAN && ak == NINFER_CLASS_QNAN) return MismatchClass::nan_quieted;
        if (ek == NINFER_CLASS_QNAN && ak == NINFER_CLASS_SNAN) return MismatchClass::nan_not_quieted;
        return MismatchClass::nan_payload;
    }
    if (ek == NINFER_CLASS_ZERO && ak == NINFER_CLASS_ZERO) return MismatchClass::zero_sign;
    if (ek == NINFER_CLASS_SUBNORMAL && ak == NINFER_CLASS_ZERO) return MismatchClass::flushed_subnormal;
    return MismatchClass::gross;
}

MismatchClass classify_status_mismatch(std::int32_t expected_status, std::uint32_t, std::int32_t actual_status,
                                       std::uint32_t) {
    if (expected_status == NINFER_OK && actual_status != NINFER_OK) return MismatchClass::unexpected_error;
    if (expected_status != NINFER_OK && actual_status == NINFER_OK) return MismatchClass::missing_error;
    return MismatchClass::wrong_reason;
}

// ---- Texts ---------------------------------------------------------------------------------------

std::string status_text(std::int32_t status) { return abi::status_c_name(status); }

std::string verdict_text(std::uint8_t v) {
    switch (v) {
    case NINFER_VERDICT_VALID: return "valid";
    case NINFER_VERDICT_NEGATIVE: return "negative";
    case NINFER_VERDICT_NEGATIVE_ZERO: return "negative_zero";
    case NINFER_VERDICT_ZERO: return "zero";
    case NINFER_VERDICT_INFINITE: return "infinite";
    case NINFER_VERDICT_NAN: return "nan";
    case NINFER_VERDICT_OUTSIDE: return "outside";
    default: return fmt::format("verdict {}", v);
    }
}

std::string class_byte_text(std::uint8_t c) {
    const char *name = "?";
    switch (c & 0x0F) {
    case NINFER_CLASS_ZERO: name = "zero"; break;
    case NINFER_CLASS_SUBNORMAL: name = "subnormal"; break;
    case NINFER_CLASS_NORMAL: name = "normal"; break;
    case NINFER_CLASS_INFINITE: name = "infinite"; break;
    case NINFER_CLASS_QNAN: name = "qnan"; break;
    case NINFER_CLASS_SNAN: name = "snan"; break;
    case NINFER_CLASS_NAN: name = "nan"; break;
    case NINFER_CLASS_INTEGER: name = "integer"; break;
    case NINFER_CLASS_OUTSIDE: name = "outside"; break;
    default: return fmt::format("class byte {:02x}", c);
    }
    return std::string((c & NINFER_CLASS_SIGN) ? "-" : "+") + name + ((c & 0x70) ? " (junk bits)" : "");
}

// ---- Locations -----------------------------------------------------------------------------------

namespace {

std::string coordinate_text(const std::vector<std::uint64_t> &shape, std::uint64_t element) {
    if (shape.empty()) return fmt::format("element {} (rank 0)", element);
    std::vector<std::uint64_t> idx(shape.size());
    std::uint64_t rest = element;
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::uint64_t extent = shape[d] == 0 ? 1 : shape[d];
        idx[d] = rest % extent;
        rest /= extent;
    }
    return fmt::format("coordinate [{}] (element {})", fmt::join(idx, ","), element);
}

/// Rows of a row_split payload produced by a call: the shape's N, or the rows rows_select keeps.
std::uint64_t payload_rows(const suites::Case &c) {
    if (c.op != NINFER_OP_rows_select) return c.shape.empty() ? 0 : c.shape[0];
    const std::uint64_t words = c.input(NINFER_PLANE_ROWS).size() / 8;
    if (c.flags & NINFER_FLAG_GATHER) return words;
    return words >= 2 ? suites::get_word(c.input(NINFER_PLANE_ROWS), 1, 8) : 0;
}

/// storage-layouts.md Section 3: plane, row, group and first lane of a payload byte (the
/// oracle's row_split_locate, in words).
std::string row_split_location(const oracle::GroupedFormat &f, std::uint64_t n, std::uint64_t k,
                               std::uint64_t off) {
    const auto loc = oracle::row_split_locate(f, n, k, off);
    if (loc.plane == "base" || loc.plane == "high")
        return fmt::format("{} plane row {} group {} lane {} (column {}, byte {})", loc.plane, loc.row, loc.group, loc.lane,
                           loc.group * static_cast<std::uint64_t>(f.group) + loc.lane, off);
    if (loc.plane == "scale") return fmt::format("scale plane row {} group {} (byte {})", loc.row, loc.group, off);
    const auto g = oracle::row_split_geometry(f, n, k);
    if (loc.plane == "gap")
        return fmt::format("gap after the {} plane (byte {})", off < g->high_offset ? "base" : "high", off);
    return fmt::format("byte {} past the payload of {} bytes", off, g ? g->payload_bytes : 0);
}

}  // namespace

std::string locate(const suites::Case &c, int buffer, std::uint64_t offset) {
    if (std::string s = locate_block_family(c, out_plane(c, buffer), offset); !s.empty()) return s;
    if (suites::is_word_op(c.op)) {
        const int ob = suites::out_word_bytes(c);
        return fmt::format("element {}", offset / static_cast<std::uint64_t>(ob > 0 ? ob : 1));
    }
    if (c.layout == NINFER_LAYOUT_contiguous_le_v1 && buffer == 0) {
        if (const auto *f = oracle::find_id(oracle::kWordFormats, c.format))
            return coordinate_text(c.shape, offset / static_cast<std::uint64_t>(f->bytes()));
    }
    const auto *g = oracle::find_id(oracle::kGroupedFormats, c.format);
    const bool payload_out = c.op == NINFER_OP_layout_encode || c.op == NINFER_OP_quant_encode ||
                             c.op == NINFER_OP_rows_select;
    if (g && c.shape.size() == 2 && c.layout == NINFER_LAYOUT_row_split_k128_v1 && buffer == 0 && payload_out)
        return row_split_location(*g, payload_rows(c), c.shape[1], offset);
    if (g && c.shape.size() == 2 && c.op == NINFER_OP_quant_decode) {
        const std::uint64_t k = c.shape[1] == 0 ? 1 : c.shape[1];
        if (buffer == 2) return fmt::format("value row {} column {}", offset / 4 / k, offset / 4 % k);
        if (buffer == 1) {
            const std::uint64_t gpr = (k + static_cast<std::uint64_t>(g->group) - 1) / static_cast<std::uint64_t>(g->group);
            return fmt::format("scale row {} group {}", offset / 2 / gpr, offset / 2 % gpr);
        }
        return fmt::format("code byte {} (row {} column {} if one byte per code)", offset, offset / k, offset % k);
    }
    return fmt::format("{} byte {}", out_name(c, buffer), offset);
}

// ---- Attribution ---------------------------------------------------------------------------------

namespace {

std::string value_text(const WordFormat &f, std::uint64_t w);

/// A reply's payload over the geometry's bytes: the reply itself when its size is the
/// geometry's, else a copy cut or padded with zeros to it (a short reply reads as zeros past its end).
struct FittedPayload {
    std::span<const std::uint8_t> reply;
    std::vector<std::uint8_t> padded;  ///< only when the reply's size differs from the geometry's
    std::span<const std::uint8_t> bytes() const { return padded.empty() ? reply : std::span<const std::uint8_t>(padded); }
};
FittedPayload fit_payload(const oracle::RowSplitGeometry &g, const std::vector<std::uint8_t> &p) {
    FittedPayload fp{p, {}};
    if (p.size() == g.payload_bytes) return fp;
    fp.padded.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(p.size(), g.payload_bytes)));
    fp.padded.resize(g.payload_bytes, 0);
    return fp;
}

/// The stored word of one lane of a row_split payload (the oracle's row_split_lane_word).
std::uint32_t payload_lane_word(const oracle::GroupedFormat &f, const oracle::RowSplitGeometry &g, const FittedPayload &p,
                                std::uint64_t row, std::uint64_t group, std::uint64_t lane) {
    return oracle::row_split_lane_word(f, g, p.bytes(), row, group, lane);
}

/// The signed code a stored word reads as, legal or not (two's complement; Q2 offset).
int raw_code_of(const oracle::GroupedFormat &f, std::uint32_t w) {
    if (f.encoding == oracle::CodeEncoding::OFFSET) return static_cast<int>(w) - 1;
    return (w >> (f.code_bits - 1)) & 1u ? static_cast<int>(w) - (1 << f.code_bits) : static_cast<int>(w);
}

/// The lane words of one physical group of a payload.
std::vector<std::uint32_t> group_words(const oracle::GroupedFormat &f, const oracle::RowSplitGeometry &g,
                                       const std::vector<std::uint8_t> &payload, std::uint64_t row, std::uint64_t group) {
    const FittedPayload p = fit_payload(g, payload);
    std::vector<std::uint32_t> w;
    for (std::uint64_t lane = 0; lane < static_cast<std::uint64_t>(f.group); ++lane) w.push_back(payload_lane_word(f, g, p, row, group, lane));
    return w;
}

/// Which code-word field two lane-word lists of one group differ in (see blame_grouped_mismatch).
std::string blame_lanes(const oracle::GroupedFormat &f, const std::vector<std::uint32_t> &e, const std::vector<std::uint32_t> &a,
                        std::uint64_t first_padding_lane) {
    for (std::size_t i = first_padding_lane; i < e.size(); ++i)
        if (e[i] != a[i]) return suites::rule::row_split_padding;
    bool low_equal = true, swapped = f.packing == oracle::Packing::NIBBLE_HIGH;
    for (std::size_t i = 0; i < e.size(); ++i) {
        low_equal = low_equal && (e[i] & 0xFu) == (a[i] & 0xFu);
        swapped = swapped && a[i] == e[i ^ 1u];
    }
    if (swapped) return suites::rule::row_split_nibble_order;
    if (f.high_bytes && low_equal) return suites::rule::row_split_high_bit_order;
    if (f.packing == oracle::Packing::TWO_BIT_LSB) {
        bool permuted = true;  // the same words in each byte, in another order
        for (std::size_t b = 0; b + 4 <= e.size(); b += 4) {
            std::vector<std::uint32_t> x(e.begin() + static_cast<std::ptrdiff_t>(b), e.begin() + static_cast<std::ptrdiff_t>(b + 4));
            std::vector<std::uint32_t> y(a.begin() + static_cast<std::ptrdiff_t>(b), a.begin() + static_cast<std::ptrdiff_t>(b + 4));
            std::sort(x.begin(), x.end());
            std::sort(y.begin(), y.end());
            permuted = permuted && x == y;
        }
        if (permuted) return suites::rule::row_split_two_bit_packing;
    }
    if (f.illegal_word >= 0)
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] == static_cast<std::uint32_t>(f.illegal_word) && e[i] != a[i])
                // An encoder's format emitting its illegal word breaks "never emitted"; otherwise the word's own rule.
                return f.canonical_encoders ? suites::rule::grouped_code_q8_never_emitted : suites::rule::illegal_word(f);
    return "";
}

std::uint64_t output_rows(const suites::Case &c) {
    if (c.op != NINFER_OP_rows_select) return c.shape.empty() ? 0 : c.shape[0];
    if (c.flags & NINFER_FLAG_GATHER) return c.input(NINFER_PLANE_ROWS).size() / 8;
    return c.input(NINFER_PLANE_ROWS).size() >= 16 ? suites::get_word(c.input(NINFER_PLANE_ROWS), 1, 8) : 0;
}

/// binary32 value of a binary16 word with the BF16 rounding of its binary32 expansion (the
/// no_bf16_scale hypothesis; classification only, never an expected value).
float bf16_rounded_scale(std::uint16_t s) {
    const auto u = static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), s));
    const auto b = static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp32_to_bf16_rne), u));
    return std::bit_cast<float>(b << 16);
}

/// The 7.2 step a grouped_absmax group departs at, from the oracle's trace: the scale steps
/// (rescue, qmax denominator, rounding to binary16), else the first differing code's step
/// (clamp after rounding, ties to even, reciprocal multiply, Q8's -128); "" when none explains it.
std::string absmax_group_blame(const suites::Case &c, const std::vector<std::uint8_t> &actual, const oracle::GroupedFormat &f,
                               const oracle::RowSplitGeometry &g, std::uint64_t row, std::uint64_t group) {
    const std::uint64_t n = c.shape[0], k = c.shape[1], G = static_cast<std::uint64_t>(f.group);
    const auto x = oracle::grouped_source_to_binary32(c.format_in, c.input(NINFER_PLANE_SOURCE), n * k);
    if (!x || group >= g.logical_groups) return "";
    const std::uint64_t c0 = group * G, len = std::min(k, c0 + G) - c0;
    const auto t = oracle::grouped_absmax_group(f, std::span<const std::uint32_t>(x->data() + row * k + c0, len));
    const std::uint64_t at = g.scale_offset + row * g.scale_row_bytes + 2 * group;
    if (at + 2 > actual.size() || t.status != NINFER_OK) return "";
    const auto scale = static_cast<std::uint16_t>(actual[at] | actual[at + 1] << 8);
    if (scale != t.scale16) {
        if (t.rescued && (scale & 0x7FFFu) == 0) return suites::rule::grouped_absmax_rescue;
        const float by_qmin = std::bit_cast<float>(t.amax32) / static_cast<float>(-f.qmin);  // classification only
        if (f.qmin != -f.qmax && oracle::grouped_scale16_from_f32(std::bit_cast<std::uint32_t>(by_qmin)) == scale)
            return suites::rule::grouped_absmax_denominator_qmax;
        return suites::rule::grouped_absmax_scale_rounding;
    }
    if (t.scale16 == 0) return suites::rule::grouped_absmax_zero_group;
    const float s32 = std::bit_cast<float>(static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), t.scale16)));
    const FittedPayload fitted = fit_payload(g, actual);
    for (std::uint64_t lane = 0; lane < len; ++lane) {
        const int a = raw_code_of(f, payload_lane_word(f, g, fitted, row, group, lane));
        if (a == t.codes[lane]) continue;
        // The code the illegal word reads as (Q8's 0x80 as -128): an encoder must never emit it.
        if (f.illegal_word >= 0 && a == raw_code_of(f, static_cast<std::uint32_t>(f.illegal_word)))
            return suites::rule::grouped_code_q8_never_emitted;
        const std::int64_t rounded = oracle::f32_round_integral_even(t.normalized32[lane]);
        if (rounded > f.qmax || rounded < f.qmin) return suites::rule::grouped_absmax_clamp_after_rounding;
        const float nv = std::bit_cast<float>(t.normalized32[lane]);
        if (std::fabs(nv - std::trunc(nv)) == 0.5f || a == static_cast<int>(std::trunc(nv))) return suites::rule::grouped_absmax_ties_to_even;
        const float q = std::bit_cast<float>((*x)[row * k + c0 + lane]) / s32;  // x / scale instead of x * inv32
        if (a == static_cast<int>(std::clamp(std::nearbyint(q), static_cast<float>(f.qmin), static_cast<float>(f.qmax))))
            return suites::rule::grouped_absmax_reciprocal_multiply;
        return "";
    }
    return "";
}

}  // namespace

std::string blame_grouped_mismatch(const suites::Case &c, const Reply &r, int buffer, std::uint64_t offset) {
    const auto *f = oracle::find_id(oracle::kGroupedFormats, c.format);
    if (!f || c.layout != NINFER_LAYOUT_row_split_k128_v1 || c.shape.size() != 2) return "";
    const std::uint64_t k = c.shape[1];
    const bool payload_out = c.op == NINFER_OP_layout_encode || c.op == NINFER_OP_quant_encode || c.op == NINFER_OP_rows_select;
    if (payload_out && buffer == 0) {
        const std::uint64_t n = output_rows(c);
        const auto g = oracle::row_split_geometry(*f, n, k);
        if (!g) return "";
        const auto loc = oracle::row_split_locate(*f, n, k, offset);
        if (loc.plane == "gap") return suites::rule::row_split_gaps;
        if (loc.plane == "scale") {
            if (loc.group >= g->logical_groups) return suites::rule::row_split_padding;
            if (c.op == NINFER_OP_layout_encode) return suites::rule::row_split_scale_plane;
            if (c.op != NINFER_OP_quant_encode || c.method != NINFER_ENCODER_grouped_absmax) return "";
            return absmax_group_blame(c, actual_out(c, r, 0), *f, *g, loc.row, loc.group);
        }
        if (loc.plane != "base" && loc.plane != "high") return "";
        if (loc.group >= g->logical_groups) return suites::rule::row_split_padding;
        const std::uint64_t G = static_cast<std::uint64_t>(f->group);
        const std::uint64_t logical_lanes = std::min(G, k - loc.group * G);
        const bool absmax = c.op == NINFER_OP_quant_encode && c.method == NINFER_ENCODER_grouped_absmax;
        if (absmax) {
            // Codes under another scale word follow from that scale: the scale step is to blame.
            const std::uint64_t at = g->scale_offset + loc.row * g->scale_row_bytes + 2 * loc.group;
            if (at + 2 <= actual_out(c, r, 0).size() && at + 2 <= expected_out(c, 0).size() &&
                (actual_out(c, r, 0)[at] != expected_out(c, 0)[at] || actual_out(c, r, 0)[at + 1] != expected_out(c, 0)[at + 1]))
                return absmax_group_blame(c, actual_out(c, r, 0), *f, *g, loc.row, loc.group);
        }
        const std::string field = blame_lanes(*f, group_words(*f, *g, expected_out(c, 0), loc.row, loc.group),
                                              group_words(*f, *g, actual_out(c, r, 0), loc.row, loc.group), logical_lanes);
        if (!field.empty() || !absmax) return field;
        return absmax_group_blame(c, actual_out(c, r, 0), *f, *g, loc.row, loc.group);
    }
    const bool decodes = c.op == NINFER_OP_layout_decode || c.op == NINFER_OP_quant_decode;
    if (!decodes) return "";
    const auto &exp = expected_out(c, buffer);
    const auto &act = actual_out(c, r, buffer);
    if (buffer == 0) {
        // Codes, one int8 per element: lanes swapped in pairs, or only the high bits differ.
        const std::uint64_t i = offset, j = i ^ 1u;
        if (i >= exp.size() || i >= act.size()) return "";
        const auto mask = static_cast<std::uint32_t>((1u << f->code_bits) - 1);
        const std::uint32_t e = exp[i] & mask, a = act[i] & mask;
        if (f->packing == oracle::Packing::NIBBLE_HIGH && j < exp.size() && j < act.size() && i / k == j / k &&
            act[i] == exp[j] && act[j] == exp[i])
            return suites::rule::row_split_nibble_order;
        if (f->high_bytes && (e & 0xFu) == (a & 0xFu)) return suites::rule::row_split_high_bit_order;
        return "";
    }
    if (buffer == 1) return suites::rule::row_split_scale_plane;
    // Values: the codes and scales agree, the Section 6.2 product does not.
    if (actual_out(c, r, 0) != expected_out(c, 0) || actual_out(c, r, 1) != expected_out(c, 1) || offset + 4 > act.size() || offset + 4 > exp.size()) return "";
    const std::uint64_t e = offset / 4, gpr = (k + static_cast<std::uint64_t>(f->group) - 1) / static_cast<std::uint64_t>(f->group);
    const auto s = static_cast<std::uint16_t>(suites::get_word(expected_out(c, 1), (e / k) * gpr + e % k / static_cast<std::uint64_t>(f->group), 2));
    const int q = static_cast<std::int8_t>(expected_out(c, 0)[e]);
    const auto a = static_cast<std::uint32_t>(suites::get_word(act, e, 4));
    if ((s & 0x8000u) && a == oracle::grouped_reconstruct(static_cast<std::uint16_t>(s & 0x7FFFu), q)) return suites::rule::grouped_scale_signed_multiply;
    const float s32 = std::bit_cast<float>(static_cast<std::uint32_t>(oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), s)));
    const float av = std::bit_cast<float>(a);
    if (s32 != 0.0f && std::isfinite(av)) {
        const double t = static_cast<double>(av) / static_cast<double>(s32);
        if (t == std::nearbyint(t) && t != q && std::fabs(t) <= 512) return suites::rule::grouped_reconstruct_zero_point_free;
    }
    if (std::bit_cast<std::uint32_t>(bf16_rounded_scale(s) * static_cast<float>(q)) == a) return suites::rule::grouped_reconstruct_no_bf16_scale;
    return "";
}

std::string explain_encoder_group(const suites::Case &c, const std::vector<std::uint8_t> &actual, std::uint64_t offset) {
    const auto *f = oracle::find_id(oracle::kGroupedFormats, c.format);
    if (!f || c.op != NINFER_OP_quant_encode || c.method != NINFER_ENCODER_grouped_absmax || c.shape.size() != 2) return "";
    const std::uint64_t n = c.shape[0], k = c.shape[1], G = static_cast<std::uint64_t>(f->group);
    const auto g = oracle::row_split_geometry(*f, n, k);
    const auto x = oracle::grouped_source_to_binary32(c.format_in, c.input(NINFER_PLANE_SOURCE), n * k);
    if (!g || !x) return "";
    const auto loc = oracle::row_split_locate(*f, n, k, offset);
    if (loc.plane == "gap" || loc.plane == "outside" || loc.group >= g->logical_groups) return "";
    const std::uint64_t c0 = loc.group * G, len = std::min(k, c0 + G) - c0;
    const auto t = oracle::grouped_absmax_group(*f, std::span<const std::uint32_t>(x->data() + loc.row * k + c0, len));
    const auto &f32 = oracle::word_format(NINFER_FORMAT_fp32);
    const auto &f16 = oracle::word_format(NINFER_FORMAT_fp16);
    auto word = [&](const oracle::WordFormat &wf, std::uint64_t w) {
        return fmt::format("{} ({})", oracle::word_hex(wf, w), value_text(wf, w));
    };
    std::string s = fmt::format("row {} group {}: amax32 {}, raw_scale32 {}, scale16 {}{}", loc.row, loc.group, word(f32, t.amax32),
                                word(f32, t.raw_scale32), word(f16, t.scale16), t.rescued ? " (0x0001 rescue)" : "");
    if (t.status != NINFER_OK || t.scale16 == 0) return s;
    s += fmt::format(", inv32 {}", word(f32, t.inv32));
    const std::uint64_t sat = g->scale_offset + loc.row * g->scale_row_bytes + 2 * loc.group;
    if (sat + 2 <= actual.size()) {
        const auto a = static_cast<std::uint16_t>(suites::get_word(actual, sat / 2, 2));
        if (a != t.scale16) return s + fmt::format("; actual scale16 {}", word(f16, a));
    }
    const FittedPayload fitted = fit_payload(*g, actual);
    for (std::uint64_t lane = 0; lane < len; ++lane) {
        const int a = raw_code_of(*f, payload_lane_word(*f, *g, fitted, loc.row, loc.group, lane));
        const int e = t.codes[lane];
        if (a == e) continue;
        const std::uint32_t nw = t.normalized32[lane];
        const std::int64_t rounded = oracle::f32_round_integral_even(nw);
        const float nv = std::bit_cast<float>(nw);  // classification of the step only
        std::string why;
        if (rounded > f->qmax || rounded < f->qmin) why = fmt::format("rounds to {}, clamped after rounding to {}", rounded, e);
        else if (std::fabs(nv - std::trunc(nv)) == 0.5f) why = fmt::format("a tie, ties to even gives {}", e);
        else why = fmt::format("rounds to nearest {}", e);
        return s + fmt::format("; first differing code: lane {} (column {}) x32 {} * inv32 = normalized32 {}: {}; actual code {}", lane,
                               c0 + lane, word(f32, (*x)[loc.row * k + c0 + lane]), word(f32, nw), why, a);
    }
    return s;
}

// ---- Comparison ----------------------------------------------------------------------------------

namespace {

std::string value_text(const WordFormat &f, std::uint64_t w) {
    if (w <= f.mask() && word_is_nan(f, w)) return nan_text(f, w);
    try {
        return oracle::word_value_text(f, w);
    } catch (const std::exception &) {
        return "";
    }
}

std::string hex_bytes(const std::vector<std::uint8_t> &b, std::size_t at, std::size_t n) {
    std::string s;
    for (std::size_t i = at + n; i-- > at;)
        if (i < b.size()) s += fmt::format("{:02x}", b[i]);
    return s;
}

struct Collector {
    Comparison &out;
    std::size_t max_first;
    void add(reports::Mismatch m, MismatchClass cls) {
        m.cls = mismatch_class_name(cls);
        ++out.mismatches;
        ++out.classes[m.cls];
        if (out.first.size() < max_first) out.first.push_back(std::move(m));
    }
    void accept_nan(std::uint64_t index, std::string expected, std::string actual, std::string ev, std::string av) {
        ++out.nan_accepted;
        if (out.nan_accepted_first.size() < max_first)
            out.nan_accepted_first.push_back({index, std::move(expected), std::move(actual), std::move(ev), std::move(av)});
    }
};

/// The words of the word ops' outputs, element by element.
void compare_words(const suites::Case &c, const Reply &r, Collector &col) {
    const int ob = suites::out_word_bytes(c), ib = suites::in_word_bytes(c);
    const auto &exp = expected_out(c, 0), &act = actual_out(c, r, 0);
    const std::uint64_t n = exp.size() / static_cast<std::size_t>(ob);
    col.out.elements = n;
    if (act.size() != exp.size()) {
        col.add({0, out_name(c, 0), {}, "", fmt::format("{} bytes", exp.size()), fmt::format("{} bytes", act.size()), "",
                 "", "", fmt::format("{}: {} words expected", out_name(c, 0), n), ""},
                MismatchClass::size_mismatch);
    }
    const WordFormat *out_fmt = nullptr, *in_fmt = nullptr;
    const oracle::Conversion *conv = nullptr;
    switch (c.op) {
    case NINFER_OP_decode:
        out_fmt = &oracle::kBinary64;
        in_fmt = &oracle::word_format(c.format);
        break;
    case NINFER_OP_classify: in_fmt = &oracle::word_format(c.format); break;
    case NINFER_OP_validate: in_fmt = &oracle::word_format(oracle::role(c.method).format); break;
    case NINFER_OP_convert:
        conv = &oracle::conversion(c.method);
        out_fmt = &oracle::word_format(conv->dst);
        in_fmt = &oracle::word_format(conv->src);
        break;
    default: break;
    }
    const std::uint64_t common = std::min<std::uint64_t>(n, act.size() / static_cast<std::size_t>(ob));
    const auto &in = c.input(NINFER_PLANE_WORDS);
    const std::uint64_t n_in = ib > 0 ? in.size() / static_cast<std::size_t>(ib) : 0;
    for (std::uint64_t i = 0; i < common; ++i) {
        const std::uint64_t e = suites::get_word(exp, i, ob), a = suites::get_word(act, i, ob);
        if (out_fmt ? words_match(*out_fmt, c.nan, e, a) : e == a) {
            if (e != a) col.accept_nan(i, hex_bytes(exp, i * ob, ob), hex_bytes(act, i * ob, ob), value_text(*out_fmt, e), value_text(*out_fmt, a));
            continue;
        }
        const std::uint64_t src = i < n_in ? suites::get_word(in, i, ib) : 0;
        reports::Mismatch m;
        m.index = i;
        m.plane = out_name(c, 0);
        m.location = fmt::format("element {}", i);
        if (in_fmt && i < n_in) {
            m.inputs.push_back(oracle::word_hex(*in_fmt, src));
            if (col.out.first.size() < col.max_first) m.input_value = value_text(*in_fmt, src);
        }
        m.expected = hex_bytes(exp, i * ob, ob);
        m.actual = hex_bytes(act, i * ob, ob);
        MismatchClass cls = MismatchClass::gross;
        if (c.op == NINFER_OP_validate) {
            cls = classify_verdict_mismatch(static_cast<std::uint8_t>(e), static_cast<std::uint8_t>(a));
            m.expected_value = verdict_text(static_cast<std::uint8_t>(e));
            m.actual_value = verdict_text(static_cast<std::uint8_t>(a));
        } else if (c.op == NINFER_OP_classify) {
            cls = classify_class_byte_mismatch(static_cast<std::uint8_t>(e), static_cast<std::uint8_t>(a));
            m.expected_value = class_byte_text(static_cast<std::uint8_t>(e));
            m.actual_value = class_byte_text(static_cast<std::uint8_t>(a));
        } else if (out_fmt) {
            cls = classify_word_mismatch(*out_fmt, conv, src, e, a, i < n_in ? in_fmt : nullptr);
            if (col.out.first.size() < col.max_first) {
                m.expected_value = value_text(*out_fmt, e);
                m.actual_value = value_text(*out_fmt, a);
            }
        }
        col.add(std::move(m), cls);
    }
}

/// The buffers of the buffer ops, byte by byte (word by word where the bytes are words).
void compare_buffers(const suites::Case &c, const Reply &r, Collector &col) {
    const auto planes = suites::op_planes(c.op, c.format, c.layout).outputs;
    for (int b = 0; b < static_cast<int>(planes.size()); ++b) {
        const auto &exp = expected_out(c, b);
        const auto &act = actual_out(c, r, b);
        const std::string name = out_name(c, b);
        col.out.elements += exp.size();
        if (exp.empty() && act.empty()) continue;
        if (exp.size() != act.size())
            col.add({0, name, {}, "", fmt::format("{} bytes", exp.size()), fmt::format("{} bytes", act.size()), "", "",
                     "", fmt::format("{}: size", name), ""},
                    MismatchClass::size_mismatch);
        // Words where the layout stores words: contiguous payloads and binary32 values.
        const WordFormat *unit = nullptr;
        if (c.layout == NINFER_LAYOUT_contiguous_le_v1 && b == 0) unit = oracle::find_id(oracle::kWordFormats, c.format);
        // binary32 words: quant_decode's values, nvfp4's divisors.
        const std::uint32_t plane = out_plane(c, b);
        if ((c.op == NINFER_OP_quant_decode && plane == NINFER_PLANE_VALUES) || plane == NINFER_PLANE_DIVISORS)
            unit = &oracle::word_format(NINFER_FORMAT_fp32);
        const std::size_t w = unit ? static_cast<std::size_t>(unit->bytes()) : 1;
        const std::size_t common = std::min(exp.size(), act.size()) / w;
        for (std::size_t i = 0; i < common; ++i) {
            const std::uint64_t e = suites::get_word(exp, i, static_cast<int>(w));
            const std::uint64_t a = suites::get_word(act, i, static_cast<int>(w));
            if (unit ? words_match(*unit, c.nan, e, a) : e == a) {
                if (e != a) col.accept_nan(i * w, hex_bytes(exp, i * w, w), hex_bytes(act, i * w, w), value_text(*unit, e), value_text(*unit, a));
                continue;
            }
            reports::Mismatch m;
            m.index = i * w;
            m.plane = name;
            m.location = locate(c, b, i * w);
            m.expected = hex_bytes(exp, i * w, w);
            m.actual = hex_bytes(act, i * w, w);
            MismatchClass cls = MismatchClass::byte_mismatch;
            if (col.out.first.size() < col.max_first) {
                m.blame = blame_grouped_mismatch(c, r, b, i * w);
                if (col.out.trace.empty() && b == 0) col.out.trace = explain_encoder_group(c, act, i * w);
            }
            if (unit) {
                cls = classify_word_mismatch(*unit, nullptr, 0, e, a);
                if (cls == MismatchClass::gross || cls == MismatchClass::off_by_one_ulp) cls = MismatchClass::byte_mismatch;
                if (col.out.first.size() < col.max_first) {
                    m.expected_value = value_text(*unit, e);
                    m.actual_value = value_text(*unit, a);
                    if (plane == NINFER_PLANE_VALUES) explain_block_value(c, i, static_cast<std::uint32_t>(a), m);
                }
                const auto &in = suites::plane_bytes(c.inputs, c.inputs.empty() ? 0 : c.inputs[0].name);
                if (c.layout == NINFER_LAYOUT_contiguous_le_v1 && (i + 1) * w <= in.size())
                    m.inputs.push_back(hex_bytes(in, i * w, w));
            }
            col.add(std::move(m), cls);
        }
    }
}

}  // namespace

std::string acceptance_words(const WordFormat &f, const Acceptance &a) {
    if ((a.flags & suites::kAcceptBits) || a.lo == a.hi) return oracle::word_hex(f, a.lo);
    return fmt::format("[{}, {}]", oracle::word_hex(f, a.lo), oracle::word_hex(f, a.hi));
}

std::string acceptance_values(const WordFormat &f, const Acceptance &a) {
    const bool any_nan = (a.flags & suites::kAcceptNan) != 0;
    if (word_is_nan(f, a.lo) || word_is_nan(f, a.hi)) return any_nan ? "any NaN" : "no value (NaN bound)";
    std::string s = (a.flags & suites::kAcceptBits) || a.lo == a.hi
                        ? value_text(f, a.lo)
                        : fmt::format("[{}, {}]", value_text(f, a.lo), value_text(f, a.hi));
    return any_nan ? s + " or any NaN" : s;
}

namespace {

/// compare_reply against the case's expected outcome alone.
Comparison compare_outcome(const suites::Case &c, const Reply &r, bool declared, std::size_t max_first) {
    Comparison out;
    switch (r.outcome) {
    case Outcome::returned: break;
    case Outcome::crash: out.status = reports::Status::crash; break;
    case Outcome::timeout: out.status = reports::Status::timeout; break;
    case Outcome::error: out.status = reports::Status::error; break;
    }
    if (r.outcome != Outcome::returned) {
        out.message = r.message.empty() ? outcome_name(r.outcome) : r.message;
        return out;
    }
    if (r.status == NINFER_E_UNSUPPORTED && declared && c.expect.status != NINFER_E_UNSUPPORTED) {
        out.status = reports::Status::error;
        out.message = "declared capability but returned unsupported" + (r.message.empty() ? "" : ": " + r.message);
        return out;
    }
    Collector col{out, max_first};
    if (c.expect.status != NINFER_OK || r.status != NINFER_OK) {
        const bool same = r.status == c.expect.status &&
                          (c.expect.status == NINFER_OK || c.expect.detail == 0 || r.detail == c.expect.detail);
        out.elements = 1;
        if (same) {
            out.message = r.message;
            return out;
        }
        auto text = [](std::int32_t s, std::uint32_t d) {
            return d ? fmt::format("{} detail {}", status_text(s), d) : status_text(s);
        };
        col.add({0, "status", {}, "", text(c.expect.status, c.expect.detail), text(r.status, r.detail), "", "", "",
                 "status", ""},
                classify_status_mismatch(c.expect.status, c.expect.detail, r.status, r.detail));
        out.status = reports::Status::fail;
        out.message = r.message;
        return out;
    }
    if (suites::is_word_op(c.op)) compare_words(c, r, col);
    else if (c.op != NINFER_OP_linear || !compare_linear(c, r, out, max_first)) compare_buffers(c, r, col);
    if (out.mismatches) {
        out.status = reports::Status::fail;
        out.message = r.message;
    }
    return out;
}

/// "encode (ok) or refuse (NINFER_E_NONFINITE)": the outcomes of a case with alternatives.
std::string outcomes_text(const suites::Expect &e) {
    std::string s;
    for (const auto &o : suites::outcomes(e))
        s += fmt::format("{}{} ({})", s.empty() ? "" : " or ", o.name, o.status == NINFER_OK ? "ok" : status_text(o.status));
    return s;
}

}  // namespace

Comparison compare_reply(const suites::Case &c, const Reply &r, bool declared, std::size_t max_first) {
    Comparison first = compare_outcome(c, r, declared, max_first);
    if (c.expect.alternatives.empty()) return first;
    if (first.status == reports::Status::pass) {
        first.choice = c.expect.choice;
        return first;
    }
    if (first.status != reports::Status::fail) return first;
    for (const auto &alt : c.expect.alternatives) {
        Comparison other = compare_outcome(suites::with_outcome(c, alt), r, declared, max_first);
        if (other.status == reports::Status::pass) {
            other.choice = alt.name;
            return other;
        }
    }
    first.message = fmt::format("none of the outcomes {} allows: {}{}", c.expect.reading, outcomes_text(c.expect),
                                first.message.empty() ? "" : "; " + first.message);
    return first;
}

}  // namespace ninfer::harness
