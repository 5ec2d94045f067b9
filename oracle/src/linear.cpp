// SPDX-License-Identifier: Apache-2.0
// The `linear` operator oracle (oracle/include/ninfer/oracle/linear.hpp; suites/LINEAR.md): the
// check order of the call, every weight decoded by its family's decode oracle, every product
// and sum exact (linear_internal.hpp's accumulator), one final rounding by the scalar oracle's
// exact integer rounding (or its exact quotient rounding for nvfp4's divisor), the bound
// comparison in exact arithmetic.
#include "ninfer/oracle/linear.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "linear_internal.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"

namespace ninfer::oracle {

using linear_detail::Acc;
using linear_detail::kFinite;
using linear_detail::kInf;
using linear_detail::kNan;
using linear_detail::U128;
using linear_detail::Val;
using Int = detail::Int;

namespace {

constexpr std::uint32_t kRne = 1, kRup = 5;           // NINFER_ROUNDINGS
constexpr std::uint32_t kOverflowInf = 1;             // NINFER_OVERFLOWS

bool mul_overflows(std::uint64_t a, std::uint64_t b, std::uint64_t &out) { return __builtin_mul_overflow(a, b, &out); }

struct WeightFamily;

/// A validated call: everything the elements need.
struct Prepared {
    LinearExpect refusal;  ///< status != OK: the refusal
    LinearCall c;
    const abi::FormatView *fv = nullptr;
    const WeightFamily *family = nullptr;  ///< the weight format's family (kWeightFamilies)
    std::uint64_t payload_bytes = 0;       ///< the PAYLOAD size of [N, K] (steps 2 and 4)
    const abi::Profile *profile = nullptr;
    std::uint32_t criterion = 0;
    const WordFormat *act = nullptr, *out = nullptr, *direct = nullptr;
    std::span<const std::uint8_t> payload, activation;
    // Family data, decoded and validated once.
    const GroupedFormat *grouped = nullptr;
    std::optional<RowSplitDecoded> rs;
    std::optional<Nvfp4Decoded> nv;
    std::optional<BlockScaleGeometry> nvg;
    std::uint64_t divisors = 0;
    std::optional<Fp8RowFormat> fp8f;
    std::optional<Fp8RowDecoded> fp8;
    const GgufType *gguf = nullptr;
};

LinearExpect refuse(std::int32_t status, std::uint32_t detail, std::string why) {
    LinearExpect e;
    e.status = status;
    e.detail = detail;
    e.why = std::move(why);
    return e;
}

bool is_direct_weight(const abi::FormatView &f) {
    const auto &w = word_format(f.id);
    if (w.exp_bits <= 0) return false;
    // The direct float word formats, and fp16 (the contract names it: stored contiguous_le_v1).
    return w.direct || f.id == NINFER_FORMAT_fp16;
}

bool any_format(const abi::FormatView &) { return true; }

const abi::Profile *find_profile(std::uint32_t id) {
    for (const auto &p : abi::kProfiles)
        if (p.id == id) return &p;
    return nullptr;
}

bool activation_taken(std::uint32_t criterion, std::uint32_t fmt) {
    if (criterion == NINFER_CRITERION_gguf_q8_1_product) return fmt == NINFER_FORMAT_fp32;
    return fmt == NINFER_FORMAT_fp32 || fmt == NINFER_FORMAT_bf16 || fmt == NINFER_FORMAT_fp16;
}

bool output_given(std::uint32_t criterion, std::uint32_t fmt) {
    if (criterion == NINFER_CRITERION_correctly_rounded)
        return fmt == NINFER_FORMAT_fp32 || fmt == NINFER_FORMAT_bf16 || fmt == NINFER_FORMAT_fp16;
    return fmt == NINFER_FORMAT_fp32;
}

/// A refusal into the prepared call; false, so that a check returns it.
bool refused(Prepared &p, std::int32_t status, std::uint32_t detail, std::string why) {
    p.refusal = refuse(status, detail, std::move(why));
    return false;
}

bool size_refused(Prepared &p, std::string why) { return refused(p, NINFER_E_SIZE, NINFER_DETAIL_SIZE, std::move(why)); }

// ---- The weight families: what the check order needs of each (its descriptor) ----------------

bool direct_geometry(Prepared &p) {
    p.direct = &word_format(p.c.format);
    if (mul_overflows(p.c.n * p.c.k, static_cast<std::uint64_t>(p.direct->bytes()), p.payload_bytes))
        return size_refused(p, "the payload size overflows uint64");
    return true;
}

bool grouped_geometry(Prepared &p) {
    p.grouped = &grouped_format(p.c.format);
    const auto g = row_split_geometry(*p.grouped, p.c.n, p.c.k);
    if (!g) return size_refused(p, "no row_split_k128_v1 geometry (a size overflows)");
    p.payload_bytes = g->payload_bytes;
    return true;
}

bool scaled_geometry(Prepared &p) {
    if (p.c.format == NINFER_FORMAT_nvfp4) {
        const auto why = block_scale_shape_error(p.c.n, p.c.k, 1);
        if (!why.empty()) return size_refused(p, why);
        p.nvg = block_scale_geometry(p.c.n, p.c.k, 1);
        p.payload_bytes = p.nvg->payload_bytes;
        return true;
    }
    p.fp8f = fp8_row_format(p.c.format);
    const auto g = fp8_row_geometry(*p.fp8f, p.c.n, p.c.k);
    if (!g) return size_refused(p, "no row geometry (a size overflows)");
    p.payload_bytes = g->payload_bytes;
    return true;
}

bool gguf_geometry(Prepared &p) {
    for (const auto &ty : kGgufTypes)
        if (ty.id == p.c.format) p.gguf = &ty;
    const std::array<std::uint64_t, 2> shape{p.c.n, p.c.k};
    const auto why = ggml_blocks_shape_error(*p.gguf, shape);
    if (!why.empty()) return size_refused(p, why);
    p.payload_bytes = ggml_blocks_geometry(*p.gguf, shape)->payload_bytes;
    return true;
}

/// The family's validating decode of a payload of the right size: OK, or the refusal it names.
template <class Decoded>
void keep_refusal(Prepared &p, const Decoded &d) {
    if (d.status != NINFER_OK) p.refusal = refuse(d.status, d.detail, "invalid payload: " + d.message);
}

void no_decode(Prepared &) {}

void grouped_decode(Prepared &p) {
    p.rs = row_split_decode(*p.grouped, p.c.n, p.c.k, p.payload);
    keep_refusal(p, *p.rs);
}

void scaled_decode(Prepared &p) {
    if (p.nvg) {
        p.nv = block_scale_decode(p.c.n, p.c.k, p.divisors, p.payload);
        keep_refusal(p, *p.nv);
        return;
    }
    p.fp8 = fp8_row_decode(*p.fp8f, p.c.n, p.c.k, p.payload);
    keep_refusal(p, *p.fp8);
}

struct WeightRow;
void direct_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r);
void grouped_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r);
void scaled_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r);
void gguf_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r);

/// What the oracle needs of a weight family: which of its formats are weights, the layout they
/// are read in (0: the registry row's), the payload geometry of [N, K] (check step 2), the
/// validating decode (step 5) and the exact values of one weight row.
struct WeightFamily {
    Family family;
    bool (*is_weight)(const abi::FormatView &f);
    std::uint32_t layout;
    bool (*geometry)(Prepared &p);
    void (*decode)(Prepared &p);
    void (*row)(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r);
};

constexpr WeightFamily kWeightFamilies[] = {
    {.family = Family::word, .is_weight = &is_direct_weight, .layout = NINFER_LAYOUT_contiguous_le_v1,
     .geometry = &direct_geometry, .decode = &no_decode, .row = &direct_row},
    {.family = Family::grouped, .is_weight = &any_format, .layout = 0, .geometry = &grouped_geometry,
     .decode = &grouped_decode, .row = &grouped_row},
    {.family = Family::scaled, .is_weight = &any_format, .layout = 0, .geometry = &scaled_geometry,
     .decode = &scaled_decode, .row = &scaled_row},
    {.family = Family::gguf, .is_weight = &any_format, .layout = NINFER_LAYOUT_ggml_blocks_v1,
     .geometry = &gguf_geometry, .decode = &no_decode, .row = &gguf_row},
};

const WeightFamily *weight_family(const abi::FormatView &f) {
    for (const auto &w : kWeightFamilies)
        if (w.family == f.family && w.is_weight(f)) return &w;
    return nullptr;
}

// ---- The check order (suites/LINEAR.md "Check order"), one function a step -------------------

/// Step 1: a weight format, in the layout it is read in.
bool check_weight_format(Prepared &p) {
    p.fv = abi::find_format(p.c.format);
    p.family = p.fv ? weight_family(*p.fv) : nullptr;
    if (!p.family)
        return refused(p, NINFER_E_UNSUPPORTED, 0, fmt::format("format {} is not a weight format of linear", p.c.format));
    if (p.c.layout != (p.family->layout ? p.family->layout : p.fv->layout))
        return refused(p, NINFER_E_LAYOUT, 0, fmt::format("{} is not stored in layout {}", p.fv->name, p.c.layout));
    return true;
}

/// Step 2: rank 2, no zero size, no size overflowing uint64, the family's geometry of [N, K].
bool check_shape(Prepared &p) {
    const auto &c = p.c;
    if (c.rank != 2) return refused(p, NINFER_E_INVALID_ARGUMENT, 0, fmt::format("rank {} (linear takes [N, K])", c.rank));
    if (c.n == 0 || c.k == 0 || c.m == 0) return size_refused(p, fmt::format("N = {}, K = {}, M = {}: a zero size", c.n, c.k, c.m));
    std::uint64_t t = 0;
    if (mul_overflows(c.m, c.k, t) || mul_overflows(t, 4, t) || mul_overflows(c.m, c.n, t) || mul_overflows(t, 4, t) ||
        mul_overflows(c.n, c.k, t))
        return size_refused(p, "a size overflows uint64");
    return p.family->geometry(p);
}

/// Step 3: a compute profile that takes the weight, the activation format and the output format.
bool check_profile(Prepared &p) {
    p.profile = find_profile(p.c.profile);
    if (!p.profile) return refused(p, NINFER_E_UNSUPPORTED, 0, fmt::format("profile {} is not a compute profile", p.c.profile));
    p.criterion = p.profile->criterion;
    if (p.criterion == NINFER_CRITERION_gguf_q8_1_product && p.fv->family != Family::gguf)
        return refused(p, NINFER_E_UNSUPPORTED, 0, fmt::format("profile {} takes GGUF weights only", p.profile->name));
    if (!activation_taken(p.criterion, p.c.activation_format))
        return refused(p, NINFER_E_UNSUPPORTED, 0,
                       fmt::format("profile {} does not take activation format {}", p.profile->name, p.c.activation_format));
    if (!output_given(p.criterion, p.c.output_format))
        return refused(p, NINFER_E_UNSUPPORTED, 0,
                       fmt::format("profile {} does not give output format {}", p.profile->name, p.c.output_format));
    p.act = &word_format(p.c.activation_format);
    p.out = &word_format(p.c.output_format);
    return true;
}

/// nvfp4's divisor count D from the PAYLOAD's size (a whole number >= 1 dividing N), and the
/// geometry with D divisors.
bool count_nvfp4_divisors(Prepared &p) {
    const auto off = p.nvg->divisor_offset;
    const auto size = p.payload.size();
    const std::uint64_t d = size >= off + 4 && (size - off) % 4 == 0 ? (size - off) / 4 : 0;
    if (d == 0 || p.c.n % d != 0)
        return size_refused(p, fmt::format("PAYLOAD has {} bytes: not an nvfp4 [{}, {}] payload with D dividing N", size, p.c.n, p.c.k));
    p.nvg = block_scale_geometry(p.c.n, p.c.k, d);
    p.divisors = d;
    p.payload_bytes = p.nvg->payload_bytes;
    return true;
}

/// Step 4: ACTIVATION of M*K words, PAYLOAD of the format's size for [N, K].
bool check_plane_sizes(Prepared &p) {
    const auto &c = p.c;
    const std::uint64_t act_bytes = c.m * c.k * static_cast<std::uint64_t>(p.act->bytes());
    if (p.activation.size() != act_bytes)
        return size_refused(p, fmt::format("ACTIVATION has {} bytes, M*K words take {}", p.activation.size(), act_bytes));
    if (c.format == NINFER_FORMAT_nvfp4 && !count_nvfp4_divisors(p)) return false;
    if (p.payload.size() != p.payload_bytes)
        return size_refused(p, fmt::format("PAYLOAD has {} bytes, {} [{}, {}] takes {}", p.payload.size(), p.fv->name, c.n, c.k,
                                           p.payload_bytes));
    return true;
}

/// Steps 1 to 5 of the check order; step 5 is the family's validating decode.
Prepared prepare(const LinearCall &c, std::span<const std::uint8_t> payload, std::span<const std::uint8_t> activation) {
    Prepared p;
    p.c = c;
    p.payload = payload;
    p.activation = activation;
    if (check_weight_format(p) && check_shape(p) && check_profile(p) && check_plane_sizes(p)) p.family->decode(p);
    return p;
}

const GgufType &q8_1_type() {
    for (const auto &t : kGgufTypes)
        if (t.name == "gguf_q8_1") return t;
    throw std::logic_error("gguf_q8_1 is not in the registry");
}

/// One weight row: the exact W_hat (nvfp4: the numerator e2m1 * e4m3; the row's divisor apart)
/// and, for f32_sequential, the binary32 decoded weight (the VALUES plane of quant_decode).
struct WeightRow {
    std::vector<Val> w;
    std::vector<std::uint32_t> w32;
    std::uint32_t divisor = 0;  ///< nvfp4: the row's divisor word; else 0
};

Val mul_val(const Val &a, const Val &b) {
    Val r;
    r.neg = a.neg != b.neg;
    r.m = a.m * b.m;  // callers keep the significands small (<= 32 bits together)
    r.e = static_cast<std::int16_t>(a.e + b.e);
    return r;
}

void direct_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    const int wb = p.direct->bytes();
    for (std::uint64_t k = 0; k < K; ++k) {
        const auto at = (n * K + k) * static_cast<std::uint64_t>(wb);
        const std::uint64_t word = abi::load_le(p.payload.data() + at, wb);
        r.w[k] = linear_detail::decode_float_word(*p.direct, word);
        if (want32) r.w32[k] = linear_detail::val_to_b32(r.w[k]);
    }
}

void grouped_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    const auto &m = p.rs->m;
    const auto G = static_cast<std::uint64_t>(p.grouped->group);
    const auto gpr = (K + G - 1) / G;
    const auto &fp16 = word_format(NINFER_FORMAT_fp16);
    for (std::uint64_t k = 0; k < K; ++k) {
        // Section 6.2: binary32(s32 * binary32(q)); s32 and binary32(q) are exact.
        const Val s = linear_detail::decode_float_word(fp16, m.scales[n * gpr + k / G]);
        const int q = m.codes[n * K + k];
        const auto w32 = linear_detail::round_b32(s.neg != (q < 0), U128{s.m} * static_cast<unsigned>(q < 0 ? -q : q), s.e);
        r.w[k] = linear_detail::decode_float_word(word_format(NINFER_FORMAT_fp32), w32);
        if (want32) r.w32[k] = w32;
    }
}

void nvfp4_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    const auto &m = p.nv->m;
    const auto &e2m1 = word_format(NINFER_FORMAT_e2m1), &e4m3 = word_format(NINFER_FORMAT_e4m3fn);
    r.divisor = m.divisors[nvfp4_divisor_of_row(*p.nvg, n)];
    std::array<std::int64_t, 16 * 256> cache;
    if (want32) cache.fill(-1);
    for (std::uint64_t k = 0; k < K; ++k) {
        const auto code = m.codes[n * K + k], scale = m.scales[n * (K / 16) + k / 16];
        r.w[k] = mul_val(linear_detail::decode_float_word(e2m1, code), linear_detail::decode_float_word(e4m3, scale));
        if (want32) {
            auto &slot = cache[code * 256u + scale];
            if (slot < 0) slot = nvfp4_weight_binary32(code, scale, r.divisor);
            r.w32[k] = static_cast<std::uint32_t>(slot);
        }
    }
}

void fp8_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    const auto &m = p.fp8->m;
    const auto &e4m3 = word_format(NINFER_FORMAT_e4m3fn), &sf = word_format(p.fp8f->scale_format);
    const Val s = linear_detail::decode_float_word(sf, m.scales[n]);
    std::array<std::int64_t, 256> cache;
    if (want32) cache.fill(-1);
    for (std::uint64_t k = 0; k < K; ++k) {
        const auto code = m.codes[n * K + k];
        r.w[k] = mul_val(linear_detail::decode_float_word(e4m3, code), s);
        if (want32) {
            auto &slot = cache[code];
            if (slot < 0) slot = fp8_row_weight_binary32(*p.fp8f, code, m.scales[n]);
            r.w32[k] = static_cast<std::uint32_t>(slot);
        }
    }
}

void scaled_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    if (p.nv) nvfp4_row(p, n, want32, r);
    else fp8_row(p, n, want32, r);
}

void gguf_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    const auto bpr = K / p.gguf->block_values;
    const auto &fp32 = word_format(NINFER_FORMAT_fp32);
    for (std::uint64_t b = 0; b < bpr; ++b) {
        const auto at = (n * bpr + b) * p.gguf->block_bytes;
        const auto blk = gguf_dequantize_block_binary32(*p.gguf, p.payload.subspan(at, p.gguf->block_bytes));
        for (std::uint64_t i = 0; i < p.gguf->block_values; ++i) {
            const auto k = b * p.gguf->block_values + i;
            r.w[k] = linear_detail::decode_float_word(fp32, blk[i]);
            if (want32) r.w32[k] = blk[i];
        }
    }
}

/// Weight row n of a prepared call, by its family's row decode.
void weight_row(const Prepared &p, std::uint64_t n, bool want32, WeightRow &r) {
    const auto K = p.c.k;
    r.w.assign(K, Val{});
    r.w32.assign(want32 ? K : 0, 0);
    r.divisor = 0;
    p.family->row(p, n, want32, r);
}

/// The activation rows: exact values (gguf_q8_1_product: the q8_1-quantized values d16 * q).
std::vector<Val> activation_values(const Prepared &p) {
    const auto M = p.c.m, K = p.c.k;
    const int ab = p.act->bytes();
    std::vector<Val> x(M * K);
    std::vector<std::uint32_t> words(M * K);
    for (std::uint64_t i = 0; i < M * K; ++i) {
        const std::uint64_t w = abi::load_le(p.activation.data() + i * ab, ab);
        words[i] = static_cast<std::uint32_t>(w);
        x[i] = linear_detail::decode_float_word(*p.act, w);
    }
    if (p.criterion != NINFER_CRITERION_gguf_q8_1_product) return x;
    // quantize_row_q8_1_ref per block of 32 (the oracle's reference quantizer); a block holding an
    // infinity or NaN has no q8_1 block (suite reading: every element of it is NaN).
    const auto &t = q8_1_type();
    const auto &fp16 = word_format(NINFER_FORMAT_fp16);
    for (std::uint64_t at = 0; at < M * K; at += 32) {
        const auto q = gguf_quantize_block_ref(t, std::span<const std::uint32_t>(words).subspan(at, 32));
        if (q.status != NINFER_OK) {
            for (int i = 0; i < 32; ++i) x[at + i] = Val{kNan, false, 0, 0};
            continue;
        }
        const Val d = linear_detail::decode_float_word(fp16, abi::load_le16(q.block.data()));
        for (int i = 0; i < 32; ++i) {
            const auto qi = static_cast<std::int8_t>(q.block[4 + i]);
            const Val qv{kFinite, qi < 0, 0, static_cast<std::uint32_t>(qi < 0 ? -qi : qi)};
            // x_q = d16 * q exactly (the contract): d16 overflows to +inf when amax > 127 * 65504,
            // so q != 0 gives an infinity of q's sign and q == 0 gives inf * 0 = NaN.
            if (d.kind == kFinite)
                x[at + i] = mul_val(d, qv);
            else if (d.kind == kInf && qi != 0)
                x[at + i] = Val{kInf, (qi < 0) != d.neg, 0, 0};
            else
                x[at + i] = Val{kNan, false, 0, 0};
        }
    }
    return x;
}

/// The exact result of one element: its kind, and when finite, A = y * d and S = sum |w x| * d
/// as integers times 2^kAccBase (d: nvfp4's divisor; 1 otherwise).
struct Exact {
    std::uint8_t kind = kFinite;
    bool neg = false;  ///< the infinity's sign
    Int a, s;
};

Exact exact_element(const Val *w, const Val *x, std::uint64_t K) {
    Acc sum, abs;
    bool nan = false, pinf = false, ninf = false;
    for (std::uint64_t k = 0; k < K; ++k) {
        const Val &a = w[k], &b = x[k];
        if (a.kind == kFinite && b.kind == kFinite) {
            const U128 m = U128{a.m} * b.m;
            const int e = a.e + b.e;
            sum.add(m, e, a.neg != b.neg);
            abs.add(m, e, false);
            continue;
        }
        if (a.kind == kNan || b.kind == kNan) { nan = true; continue; }
        // an infinity times a finite or infinite operand
        const bool zero = (a.kind == kFinite && a.m == 0) || (b.kind == kFinite && b.m == 0);
        if (zero) { nan = true; continue; }
        ((a.neg != b.neg) ? ninf : pinf) = true;
    }
    Exact r;
    if (nan || (pinf && ninf)) {
        r.kind = kNan;
    } else if (pinf || ninf) {
        r.kind = kInf;
        r.neg = ninf;
    } else {
        r.a = sum.value();
        r.s = abs.value();
    }
    return r;
}

std::uint32_t sequential_word(const std::uint32_t *w32, const Val *x, std::uint64_t K) {
    std::uint32_t s = 0;
    for (std::uint64_t k = 0; k < K; ++k) s = linear_detail::add_b32(s, linear_detail::mul_b32(w32[k], linear_detail::val_to_b32(x[k])));
    return s;
}

Real real_of(const Int &v, long e) {
    Real r = exact_zero();
    mpfr_set_z_2exp(r.backend().data(), v.backend().data(), e, MPFR_RNDN);
    return r;
}

Real divisor_real(std::uint32_t d) {
    if (d == 0) {
        Real one = exact_zero();
        mpfr_set_ui(one.backend().data(), 1, MPFR_RNDN);
        return one;
    }
    const auto v = linear_detail::decode_float_word(word_format(NINFER_FORMAT_fp32), d);
    return real_of(Int(v.m), v.e);
}

/// round(num * 2^e / divisor) to f.
std::uint64_t round_to(const Int &num, long e, std::uint32_t divisor, const WordFormat &f, std::uint32_t rounding) {
    if (divisor == 0) return detail::round_dyadic(num < 0, abs(num), e, f, rounding, kOverflowInf).word;
    return round_quotient(real_of(num, e), divisor_real(divisor), f, rounding, kOverflowInf);
}

std::uint64_t nan_word(const WordFormat &f) { return detail::canonical_nan(f, false); }
std::uint64_t inf_word(const WordFormat &f, bool neg) { return detail::infinity_word(f, neg); }

/// S * 2^kAccBase / d >= 2^128 - 2^103: a partial binary32 sum may overflow.
bool may_overflow(const Int &s, std::uint32_t divisor) {
    // s * 2^kAccBase >= (2^128 - 2^103) * d  <=>  s >= (2^128 - 2^103) * d * 2^-kAccBase
    Int thr = (Int(1) << 128) - (Int(1) << 103);
    thr <<= static_cast<unsigned>(-linear_detail::kAccBase);
    if (divisor == 0) return s >= thr;
    const auto v = linear_detail::decode_float_word(word_format(NINFER_FORMAT_fp32), divisor);
    thr *= v.m;
    if (v.e >= 0) return s >= (thr << static_cast<unsigned>(v.e));
    return (s << static_cast<unsigned>(-v.e)) >= thr;
}

struct Accept {
    std::uint64_t word = 0, lo = 0, hi = 0;
    std::uint8_t flags = 0;
};

constexpr std::uint8_t kFlagNan = 0x1, kFlagBits = 0x2;  // suites::kAcceptNan, kAcceptBits

Accept accept_of(const Prepared &p, const Exact &x, std::uint32_t divisor, std::uint32_t seq_word) {
    const WordFormat &f = *p.out;
    Accept a;
    if (p.criterion == NINFER_CRITERION_bit_exact) {
        a.word = a.lo = a.hi = seq_word;
        a.flags = kFlagBits;
        if ((seq_word & 0x7FFFFFFFu) > 0x7F800000u) a.flags |= kFlagNan;
        return a;
    }
    if (x.kind == kNan) {
        a.word = a.lo = a.hi = nan_word(f);
        a.flags = kFlagNan;
        return a;
    }
    if (x.kind == kInf) {
        a.word = a.lo = a.hi = inf_word(f, x.neg);
        return a;
    }
    a.word = round_to(x.a, linear_detail::kAccBase, divisor, f, kRne);
    if (p.criterion == NINFER_CRITERION_correctly_rounded) {
        a.lo = a.hi = a.word;
        return a;
    }
    // forward_error_bound / gguf_q8_1_product: [y - B, y + B], B = (K + 2) 2^-24 S.
    if (may_overflow(x.s, divisor)) {
        a.lo = inf_word(f, true);
        a.hi = inf_word(f, false);
        a.flags = kFlagNan;
        return a;
    }
    const Int a24 = x.a << 24, kb = Int(p.c.k + 2) * x.s;
    const long e = linear_detail::kAccBase - 24;
    a.lo = round_to(a24 - kb, e, divisor, f, kRup);
    const auto sign = detail::sign_bit(f);
    a.hi = round_to(-(a24 + kb), e, divisor, f, kRup) ^ sign;
    return a;
}

void put(std::vector<std::uint8_t> &buf, std::uint64_t word, int bytes) {
    abi::append_le(buf, word, bytes);
}

std::string real_text(const Int &num, long e, std::uint32_t divisor) {
    Rational q(num);
    if (e >= 0) q *= Rational(Int(1) << static_cast<unsigned>(e));
    else q /= Rational(Int(1) << static_cast<unsigned>(-e));
    if (divisor != 0) q /= exact_word_value(word_format(NINFER_FORMAT_fp32), divisor);
    const auto exact = rational_text(q);
    if (boost::multiprecision::denominator(q) == 1 || exact.find('/') == std::string::npos) return exact;
    Real r = exact_zero();
    mpfr_set_q(r.backend().data(), q.backend().data(), MPFR_RNDN);
    return r.str(17, std::ios_base::scientific) + " (= " + exact + ")";
}

}  // namespace

LinearExpect linear_expect(const LinearCall &c, std::span<const std::uint8_t> payload, std::span<const std::uint8_t> activation) {
    const Prepared p = prepare(c, payload, activation);
    if (p.refusal.status != NINFER_OK) return p.refusal;
    LinearExpect e;
    const auto M = c.m, N = c.n, K = c.k;
    const int ob = p.out->bytes();
    const bool seq = p.criterion == NINFER_CRITERION_bit_exact;
    const auto x = activation_values(p);
    std::vector<Accept> acc(M * N);
    WeightRow row;
    for (std::uint64_t n = 0; n < N; ++n) {
        weight_row(p, n, seq, row);
        for (std::uint64_t m = 0; m < M; ++m) {
            const Val *xr = x.data() + m * K;
            std::uint32_t sw = 0;
            Exact ex;
            if (seq) sw = sequential_word(row.w32.data(), xr, K);
            else ex = exact_element(row.w.data(), xr, K);
            acc[m * N + n] = accept_of(p, ex, row.divisor, sw);
        }
    }
    e.output.reserve(M * N * ob);
    e.accept.reserve(M * N * (2 * ob + 1));
    for (const auto &a : acc) {
        put(e.output, a.word, ob);
        put(e.accept, a.lo, ob);
        put(e.accept, a.hi, ob);
        e.accept.push_back(a.flags);
    }
    return e;
}

LinearExplain linear_explain(const LinearCall &c, std::span<const std::uint8_t> payload, std::span<const std::uint8_t> activation,
                             std::uint64_t m, std::uint64_t n, std::uint64_t actual_word) {
    const Prepared p = prepare(c, payload, activation);
    if (p.refusal.status != NINFER_OK) throw std::invalid_argument("linear_explain: the call is refused: " + p.refusal.why);
    if (m >= c.m || n >= c.n) throw std::invalid_argument("linear_explain: element outside [M, N]");
    const auto x = activation_values(p);
    WeightRow row;
    weight_row(p, n, true, row);
    const Exact ex = exact_element(row.w.data(), x.data() + m * c.k, c.k);
    const WordFormat &f = *p.out;
    LinearExplain r;
    const bool bound = p.criterion == NINFER_CRITERION_forward_error_bound || p.criterion == NINFER_CRITERION_gguf_q8_1_product;
    for (const auto &cr : abi::kCriteria)
        if (cr.id == p.criterion) r.criterion = fmt::format("linear.{}", cr.name);
    if (bound) r.criterion += fmt::format(" (k = K + 2 = {}, u = 2^-24)", c.k + 2);
    if (p.criterion == NINFER_CRITERION_bit_exact) {
        const auto sw = sequential_word(row.w32.data(), x.data() + m * c.k, c.k);
        r.criterion += fmt::format(" (f32_sequential: the defined word {})", word_hex(f, sw));
    }
    if (p.criterion == NINFER_CRITERION_gguf_q8_1_product) r.criterion += " on the q8_1-quantized activation";
    const auto info = word_info(f, actual_word & f.mask());
    const bool actual_nan = detail::is_nan_class(info.cls) || info.cls == NINFER_CLASS_OUTSIDE;
    const bool actual_inf = info.cls == NINFER_CLASS_INFINITE;
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    r.bound_fraction = nan;
    if (ex.kind == kNan) {
        r.exact = "nan";
        r.error_ulps = actual_nan ? 0 : inf;
        if (bound) r.bound_fraction = actual_nan ? 0 : inf;
        return r;
    }
    if (ex.kind == kInf) {
        r.exact = ex.neg ? "-inf" : "inf";
        r.error_ulps = actual_inf && info.negative == ex.neg ? 0 : inf;
        if (bound) r.bound_fraction = r.error_ulps;
        return r;
    }
    r.exact = real_text(ex.a, linear_detail::kAccBase, row.divisor);
    const Real d = divisor_real(row.divisor);
    const Real y = real_of(ex.a, linear_detail::kAccBase) / d;
    Real b = real_of(Int(c.k + 2) * ex.s, linear_detail::kAccBase - 24) / d;
    if (bound) r.bound = real_text(Int(c.k + 2) * ex.s, linear_detail::kAccBase - 24, row.divisor);
    if (actual_nan || actual_inf) {
        r.error_ulps = inf;
        if (bound) r.bound_fraction = inf;
        return r;
    }
    Real diff = abs(info.value - y);
    // ulp of the output format at y: 2^(max(exponent(y), emin) - man_bits)
    const long emin = 1 - f.bias;
    long ey = emin;
    if (!mpfr_zero_p(y.backend().data())) ey = std::max<long>(mpfr_get_exp(y.backend().data()) - 1, emin);
    Real ulp = exact_zero();
    mpfr_set_ui_2exp(ulp.backend().data(), 1, ey - f.man_bits, MPFR_RNDN);
    r.error_ulps = static_cast<double>(diff / ulp);
    if (bound) {
        if (mpfr_zero_p(b.backend().data())) r.bound_fraction = mpfr_zero_p(diff.backend().data()) ? 0 : inf;
        else r.bound_fraction = static_cast<double>(diff / b);
    }
    return r;
}

}  // namespace ninfer::oracle
