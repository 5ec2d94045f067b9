// SPDX-License-Identifier: Apache-2.0
// Comparison of replies with expectations and the mismatch classes (reports/README.md,
// "Mismatch classes"; storage-layouts.md Section 2 for locations in a payload), the plane table
// of a case and the families' compare descriptors (compare_grouped.cpp, compare_families.cpp).
#include "ninfer/harness/compare.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/family_registry.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/native_words.hpp"
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


std::uint64_t ones(int n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }
std::uint64_t man_field(const WordFormat &f, std::uint64_t w) { return w & ones(f.man_bits); }
std::uint64_t sign_bit(const WordFormat &f) { return f.has_sign ? 1ull << (f.bits - 1) : 0; }
bool is_float(const WordFormat &f) { return f.special != Special::INT; }

}  // namespace

std::uint64_t largest_finite_like(const WordFormat &f, std::uint64_t w) {
    // INT's negative end is its most negative word; every other kind mirrors its largest magnitude.
    if (f.special == Special::INT && word_is_negative(f, w)) return sign_bit(f);
    return abi::largest_finite_word(f) | (f.special == Special::INT ? 0 : w & sign_bit(f));
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
    a.lo = abi::load_le(b, bytes);
    a.hi = abi::load_le(b + bytes, bytes);
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

bool oracle_tie(const oracle::Conversion &c, std::uint64_t src) { return oracle::conversion_is_tie(c, src); }

bool native_tie(const oracle::Conversion &c, std::uint64_t src) { return native::conversion_is_tie(c.id, src); }

bool is_wrong_tie_side(const oracle::Conversion &c, std::uint64_t src, std::uint64_t expected, std::uint64_t actual,
                       TieTest tie) {
    const auto &f = oracle::word_format(c.dst);
    if (word_is_nan(f, expected) || word_is_nan(f, actual) || ulp_distance(f, expected, actual) != 1) return false;
    return tie(c, src);
}

bool is_off_by_one_ulp(const WordFormat &f, std::uint64_t expected, std::uint64_t actual) {
    return !word_is_nan(f, expected) && !word_is_nan(f, actual) && ulp_distance(f, expected, actual) == 1;
}

MismatchClass classify_word_mismatch(const WordFormat &f, const oracle::Conversion *conv, std::uint64_t src,
                                     std::uint64_t expected, std::uint64_t actual, const WordFormat *in, TieTest tie) {
    if (actual > f.mask()) return MismatchClass::gross;
    if (is_nan_vs_saturation(f, expected, actual)) return MismatchClass::nan_vs_saturation;
    if (is_nan_vs_number(f, expected, actual)) return MismatchClass::nan_vs_number;
    if (word_is_nan(f, expected) && word_is_nan(f, actual)) return nan_difference(f, expected, actual);
    if (is_zero_sign(f, expected, actual)) return MismatchClass::zero_sign;
    if (is_flushed_subnormal(f, expected, actual)) return MismatchClass::flushed_subnormal;
    if (in && is_flushed_subnormal_input(*in, src, f, expected, actual)) return MismatchClass::flushed_subnormal;
    if (is_saturation_vs_infinity(f, expected, actual)) return MismatchClass::saturation_vs_infinity;
    if (is_infinity_vs_saturation(f, expected, actual)) return MismatchClass::infinity_vs_saturation;
    if (conv && is_wrong_tie_side(*conv, src, expected, actual, tie)) return MismatchClass::wrong_tie_side;
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
    const std::string_view name = abi::verdict_name(v);
    return name.empty() ? fmt::format("verdict {}", v) : std::string(name);
}

std::string class_byte_text(std::uint8_t c) {
    const std::string_view name = abi::class_name(c & 0x0Fu);
    if (name.empty()) return fmt::format("class byte {:02x}", c);
    return std::string((c & NINFER_CLASS_SIGN) ? "-" : "+") + std::string(name) + ((c & 0x70) ? " (junk bits)" : "");
}

// ---- Locations -----------------------------------------------------------------------------------

namespace {

Located coordinate_text(const std::vector<std::uint64_t> &shape, std::uint64_t element) {
    if (shape.empty()) return {fmt::format("element {} (rank 0)", element), {.element = element}};
    std::vector<std::uint64_t> idx(shape.size());
    std::uint64_t rest = element;
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::uint64_t extent = shape[d] == 0 ? 1 : shape[d];
        idx[d] = rest % extent;
        rest /= extent;
    }
    return {fmt::format("coordinate [{}] (element {})", fmt::join(idx, ","), element), {.element = element}};
}

/// The word family's location of a payload byte: its coordinate in the shape (a word op's output
/// is located by element instead).
Located word_locate(const suites::Case &c, const CasePlanes &, int buffer, std::uint64_t offset) {
    if (suites::is_word_op(c.op) || c.layout != NINFER_LAYOUT_contiguous_le_v1 || buffer != 0) return {};
    const auto *f = oracle::find_id(oracle::kWordFormats, c.format);
    return f ? coordinate_text(c.shape, offset / static_cast<std::uint64_t>(f->bytes())) : Located{};
}

/// The word family's unit: the format's own words in a contiguous_le_v1 payload.
const WordFormat *word_unit(const suites::Case &c, std::uint32_t, int index) {
    return c.layout == NINFER_LAYOUT_contiguous_le_v1 && index == 0 ? oracle::find_id(oracle::kWordFormats, c.format) : nullptr;
}

bool owns_word(const suites::Case &c) { return oracle::find_id(oracle::kWordFormats, c.format) != nullptr; }

Located locate_in(const suites::Case &c, const CasePlanes &p, int buffer, std::uint64_t offset) {
    if (p.family && p.family->locate)
        if (Located l = p.family->locate(c, p, buffer, offset); !l.text.empty()) return l;
    if (suites::is_word_op(c.op)) {
        const int ob = suites::out_word_bytes(c);
        const std::uint64_t element = offset / static_cast<std::uint64_t>(ob > 0 ? ob : 1);
        return {fmt::format("element {}", element), {.element = element}};
    }
    return {fmt::format("{} byte {}", p.label(buffer), offset), {}};
}

/// The families compare knows: one line per built-in family, then the added ones.
abi::FamilyRegistry<CompareFamily> &families() {
    static abi::FamilyRegistry<CompareFamily> all("compare", {
                                                                 &kWordCompare,
                                                                 &kGroupedCompare,
                                                                 &kScaledCompare,
                                                                 &kGgufCompare,
                                                             });
    return all;
}

}  // namespace

const CompareFamily kWordCompare = {.family = abi::Family::word, .owns = &owns_word, .unit = &word_unit, .locate = &word_locate};

const WordFormat *binary32_values(const suites::Case &c, std::uint32_t name, int) {
    if ((c.op == NINFER_OP_quant_decode && name == NINFER_PLANE_VALUES) || name == NINFER_PLANE_DIVISORS)
        return &oracle::word_format(NINFER_FORMAT_fp32);
    return nullptr;
}

std::span<const CompareFamily *const> compare_families() { return families().all(); }

bool add_compare_family(const CompareFamily &family) { return families().add(family); }

// ---- The plane table -------------------------------------------------------------------------------

std::uint32_t CasePlanes::name(int i) const {
    return i >= 0 && static_cast<std::size_t>(i) < out.size() ? out[static_cast<std::size_t>(i)].name : 0;
}

std::string CasePlanes::label(int i) const { return std::string(abi::plane_name(name(i))); }

const std::vector<std::uint8_t> &CasePlanes::expected(int i) const {
    static const std::vector<std::uint8_t> none;
    return i >= 0 && static_cast<std::size_t>(i) < out.size() ? *out[static_cast<std::size_t>(i)].expected : none;
}

const std::vector<std::uint8_t> &CasePlanes::actual(const Reply &r, int i) const { return r.output(name(i)); }

CasePlanes case_planes(const suites::Case &c) {
    CasePlanes p;
    for (const auto *f : compare_families())
        if (f->owns(c)) {
            p.family = f;
            break;
        }
    const auto names = suites::op_planes(c.op, c.format, c.layout).outputs;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const int index = static_cast<int>(i);
        const oracle::WordFormat *unit = p.family && p.family->unit ? p.family->unit(c, names[i], index) : nullptr;
        p.out.push_back({names[i], std::string(abi::plane_name(names[i])), unit, &c.expect.output(names[i])});
    }
    return p;
}

Located locate_at(const suites::Case &c, int buffer, std::uint64_t offset) { return locate_in(c, case_planes(c), buffer, offset); }

std::string locate(const suites::Case &c, int buffer, std::uint64_t offset) { return locate_at(c, buffer, offset).text; }

// ---- Comparison ----------------------------------------------------------------------------------

std::string value_text(const WordFormat &f, std::uint64_t w) {
    if (w <= f.mask() && word_is_nan(f, w)) return nan_text(f, w);
    try {
        return oracle::word_value_text(f, w);
    } catch (const std::exception &) {
        return "";
    }
}

namespace {

/// Word `i` of `bytes` bytes of a plane as one number, most significant byte first.
std::string word_hex_at(const std::vector<std::uint8_t> &b, std::size_t i, std::size_t bytes) { return abi::hex_field_le(b, i * bytes, bytes); }

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
void compare_words(const suites::Case &c, const CasePlanes &p, const Reply &r, Collector &col) {
    const int ob = suites::out_word_bytes(c), ib = suites::in_word_bytes(c);
    const auto &exp = p.expected(0), &act = p.actual(r, 0);
    const std::string name = p.label(0);
    const std::uint64_t n = exp.size() / static_cast<std::size_t>(ob);
    col.out.elements = n;
    if (act.size() != exp.size()) {
        col.add({.plane = name, .expected = fmt::format("{} bytes", exp.size()), .actual = fmt::format("{} bytes", act.size()),
                 .location = fmt::format("{}: {} words expected", name, n)},
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
            if (e != a) col.accept_nan(i, word_hex_at(exp, i, ob), word_hex_at(act, i, ob), value_text(*out_fmt, e), value_text(*out_fmt, a));
            continue;
        }
        const std::uint64_t src = i < n_in ? suites::get_word(in, i, ib) : 0;
        reports::Mismatch m{.index = i, .plane = name, .location = fmt::format("element {}", i), .where = {.element = i}};
        if (in_fmt && i < n_in) {
            m.inputs.push_back(oracle::word_hex(*in_fmt, src));
            if (col.out.first.size() < col.max_first) m.input_value = value_text(*in_fmt, src);
        }
        m.expected = word_hex_at(exp, i, ob);
        m.actual = word_hex_at(act, i, ob);
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

/// The buffers of the buffer ops, byte by byte (word by word where the plane table gives a unit).
void compare_buffers(const suites::Case &c, const CasePlanes &p, const Reply &r, Collector &col) {
    for (int b = 0; b < static_cast<int>(p.out.size()); ++b) {
        const OutPlane &plane = p.out[static_cast<std::size_t>(b)];
        const auto &exp = *plane.expected;
        const auto &act = p.actual(r, b);
        const std::string &name = plane.label;
        col.out.elements += exp.size();
        if (exp.empty() && act.empty()) continue;
        if (exp.size() != act.size())
            col.add({.plane = name, .expected = fmt::format("{} bytes", exp.size()), .actual = fmt::format("{} bytes", act.size()),
                     .location = fmt::format("{}: size", name)},
                    MismatchClass::size_mismatch);
        const WordFormat *unit = plane.unit;
        const std::size_t w = unit ? static_cast<std::size_t>(unit->bytes()) : 1;
        const std::size_t common = std::min(exp.size(), act.size()) / w;
        for (std::size_t i = 0; i < common; ++i) {
            const std::uint64_t e = suites::get_word(exp, i, static_cast<int>(w));
            const std::uint64_t a = suites::get_word(act, i, static_cast<int>(w));
            if (unit ? words_match(*unit, c.nan, e, a) : e == a) {
                if (e != a) col.accept_nan(i * w, word_hex_at(exp, i, w), word_hex_at(act, i, w), value_text(*unit, e), value_text(*unit, a));
                continue;
            }
            Located at = locate_in(c, p, b, i * w);
            reports::Mismatch m{.index = i * w,
                                .plane = name,
                                .expected = word_hex_at(exp, i, w),
                                .actual = word_hex_at(act, i, w),
                                .location = std::move(at.text),
                                .where = std::move(at.where)};
            MismatchClass cls = MismatchClass::byte_mismatch;
            if (col.out.first.size() < col.max_first) {
                if (p.family && p.family->blame) m.blame = p.family->blame(c, p, r, b, i * w);
                if (col.out.trace.empty() && b == 0 && p.family && p.family->trace) col.out.trace = p.family->trace(c, act, i * w);
            }
            if (unit) {
                cls = classify_word_mismatch(*unit, nullptr, 0, e, a);
                if (cls == MismatchClass::gross || cls == MismatchClass::off_by_one_ulp) cls = MismatchClass::byte_mismatch;
                if (col.out.first.size() < col.max_first) {
                    m.expected_value = value_text(*unit, e);
                    m.actual_value = value_text(*unit, a);
                    if (plane.name == NINFER_PLANE_VALUES && p.family && p.family->explain_value)
                        p.family->explain_value(c, i, static_cast<std::uint32_t>(a), m);
                }
                const auto &in = suites::plane_bytes(c.inputs, c.inputs.empty() ? 0 : c.inputs[0].name);
                if (c.layout == NINFER_LAYOUT_contiguous_le_v1 && (i + 1) * w <= in.size())
                    m.inputs.push_back(word_hex_at(in, i, w));
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
        col.add({.plane = "status",
                 .expected = text(c.expect.status, c.expect.detail),
                 .actual = text(r.status, r.detail),
                 .location = "status",
                 .status_codes = reports::StatusCodes{.expected = c.expect.status, .expected_detail = c.expect.detail,
                                                      .actual = r.status, .actual_detail = r.detail}},
                classify_status_mismatch(c.expect.status, c.expect.detail, r.status, r.detail));
        out.status = reports::Status::fail;
        out.message = r.message;
        return out;
    }
    const CasePlanes planes = case_planes(c);
    if (suites::is_word_op(c.op)) compare_words(c, planes, r, col);
    else if (c.op != NINFER_OP_linear || !compare_linear(c, r, out, max_first)) compare_buffers(c, planes, r, col);
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

/// compare_outcome with the bits a partial outcome leaves free (Expect::mask) taken from the reply.
Comparison compare_partial_outcome(const suites::Case &c, const Reply &r, bool declared, std::size_t max_first) {
    if (c.expect.mask.empty() || c.expect.status != NINFER_OK) return compare_outcome(c, r, declared, max_first);
    suites::Case masked = c;
    masked.expect.outputs = suites::masked_expectation(c.expect.outputs, c.expect.mask, r.outputs);
    return compare_outcome(masked, r, declared, max_first);
}

}  // namespace

Comparison compare_reply(const suites::Case &c, const Reply &r, bool declared, std::size_t max_first) {
    Comparison first = compare_partial_outcome(c, r, declared, max_first);
    if (c.expect.alternatives.empty()) return first;
    if (first.status == reports::Status::pass) {
        first.choice = c.expect.choice;
        return first;
    }
    if (first.status != reports::Status::fail) return first;
    for (const auto &alt : c.expect.alternatives) {
        Comparison other = compare_partial_outcome(suites::with_outcome(c, alt), r, declared, max_first);
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