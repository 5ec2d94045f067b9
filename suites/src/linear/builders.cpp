// SPDX-License-Identifier: Apache-2.0
// The `linear` suites' shared builders (builders.hpp): formats and profiles, seeded payloads of
// every family (integer RNG only: portable), the case of one call with the oracle's expectation.
#include "builders.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "ninfer/abi/bytes.hpp"
#include "../gguf/builders.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/suites/rules.hpp"
#include "../plumbing.hpp"

namespace ninfer::suites::linear {

std::vector<std::uint32_t> weight_formats() {
    std::vector<std::uint32_t> out{NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16};
    for (const auto &f : kGroupedFormats) out.push_back(f.id);
    for (const auto &f : kScaledFormats) out.push_back(f.id);
    for (const auto &t : kGgufTypes) out.push_back(t.id);
    return out;
}

std::uint32_t weight_layout(std::uint32_t format) {
    const auto *f = abi::find_format(format);
    if (!f) return 0;
    if (f->family == Family::word) return NINFER_LAYOUT_contiguous_le_v1;
    if (f->family == Family::gguf) return NINFER_LAYOUT_ggml_blocks_v1;
    return f->layout;
}

std::string format_label(std::uint32_t format) {
    const auto name = abi::format_name(format);
    return name.empty() ? "f" + std::to_string(format) : std::string(name);
}

std::string profile_label(std::uint32_t profile) {
    if (profile == 0) return "none";
    const auto *p = abi::find_id(abi::kProfiles, profile);
    return p ? std::string(p->name) : "p" + std::to_string(profile);
}

std::vector<std::uint32_t> profiles_for(std::uint32_t format) {
    const auto *f = abi::find_format(format);
    std::vector<std::uint32_t> out;
    for (const auto &p : abi::kProfiles)
        if (p.id != NINFER_PROFILE_gguf_q8_1_f32 || (f && f->family == Family::gguf)) out.push_back(p.id);
    return out;
}

std::string criterion_rule(std::uint32_t profile) {
    const auto *p = abi::find_id(abi::kProfiles, profile);
    if (!p) throw std::invalid_argument("criterion_rule: unknown profile");
    return rule::linear_criterion(*abi::find_id(abi::kCriteria, p->criterion));
}

LinearCall call_of(std::uint32_t format, std::uint32_t profile, std::uint64_t n, std::uint64_t k, std::uint64_t m,
                   std::uint32_t activation, std::uint32_t output) {
    LinearCall c;
    c.format = format;
    c.layout = weight_layout(format);
    c.profile = profile;
    c.n = n;
    c.k = k;
    c.m = m;
    c.activation_format = activation;
    c.output_format = output;
    return c;
}

Case linear_case(const std::string &rule, const std::string &slug, Level level, const std::string &source, const LinearCall &c,
                 const Bytes &payload, const Bytes &activation, const std::vector<std::uint64_t> *shape) {
    Case x = base_case(rule, format_label(c.format) + "/" + profile_label(c.profile) + "/" + slug, level, source);
    x.op = NINFER_OP_linear;
    x.format = c.format;
    x.layout = c.layout;
    x.profile = c.profile;
    x.shape = shape ? *shape : std::vector<std::uint64_t>{c.n, c.k};
    x.count = c.m;
    x.inputs = {Plane{NINFER_PLANE_PAYLOAD, 0, payload}, Plane{NINFER_PLANE_ACTIVATION, c.activation_format, activation}};
    auto call = c;
    call.rank = static_cast<std::uint32_t>(x.shape.size());
    const auto e = linear_expect(call, payload, activation);
    x.expect.status = e.status;
    x.expect.detail = e.status == NINFER_E_INVALID_PAYLOAD ? e.detail : 0;
    x.expect.outputs = {Plane{NINFER_PLANE_OUTPUT, c.output_format, e.output}};
    x.expect.accept = e.accept;
    // The acceptance decides; a NaN expected word stands for any NaN.
    const int ob = e.status == NINFER_OK ? word_format(c.output_format).bytes() : 0;
    for (std::size_t i = 0; ob > 0 && i < c.m * c.n; ++i)
        if ((e.accept[i * (2 * ob + 1) + 2 * ob] & kAcceptNan) != 0) x.nan = NanPolicy::any;
    return x;
}

std::uint64_t random_word(const WordFormat &f, Rng &rng, int lo, int hi) {
    const int e = lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    const std::uint64_t biased = static_cast<std::uint64_t>(std::clamp(e + f.bias, 1, (1 << f.exp_bits) - 2));
    const std::uint64_t frac = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
    const std::uint64_t sign = (rng() & 1) << (f.exp_bits + f.man_bits);
    return sign | biased << f.man_bits | frac;
}

Bytes le_words(const std::vector<std::uint64_t> &words, int bytes) {
    Bytes b;
    b.reserve(words.size() * bytes);
    for (const auto w : words) abi::append_le(b, w, bytes);
    return b;
}

Bytes random_activation(std::uint32_t format, std::uint64_t m, std::uint64_t k, Rng &rng, int lo, int hi) {
    const auto &f = word_format(format);
    std::vector<std::uint64_t> w(m * k);
    for (auto &x : w) x = random_word(f, rng, lo, hi);
    return le_words(w, f.bytes());
}

Bytes paired_activation(std::uint32_t format, std::uint64_t m, std::uint64_t k, Rng &rng, int lo, int hi) {
    const auto &f = word_format(format);
    const std::uint64_t sign = std::uint64_t{1} << (f.bits - 1);
    std::vector<std::uint64_t> w(m * k);
    for (std::uint64_t i = 0; i < m * k; ++i) w[i] = i % 2 == 0 ? random_word(f, rng, lo, hi) : w[i - 1] ^ sign;
    return le_words(w, f.bytes());
}

GroupedMatrix grouped_matrix(const GroupedFormat &f, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style) {
    GroupedMatrix m;
    m.rows = n;
    m.cols = k;
    m.codes.resize(n * k);
    const auto G = static_cast<std::uint64_t>(f.group);
    const auto gpr = grouped_groups_per_row(f, k);
    const auto span = static_cast<std::uint64_t>(f.qmax - f.qmin + 1);
    for (std::uint64_t i = 0; i < n * k; ++i) {
        const bool copy = style.pair && (i % k) % 2 == 1;
        m.codes[i] = copy ? m.codes[i - 1] : static_cast<std::int8_t>(f.qmin + static_cast<int>(rng() % span));
    }
    m.scales.resize(n * gpr);
    for (std::uint64_t r = 0; r < n; ++r)
        for (std::uint64_t g = 0; g < gpr; ++g) {
            // positive normal binary16, 2^-10 .. 2^-3
            auto s = static_cast<std::uint16_t>((5 + rng() % 8) << 10 | (rng() & 0x3FF));
            if (style.rescued && (r + g) % 3 == 1) s = 0x0001;
            if (style.zero_groups && (r + g) % 3 == 0) {
                s = 0x0000;
                for (std::uint64_t c = g * G; c < std::min(k, (g + 1) * G); ++c) m.codes[r * k + c] = 0;
            }
            m.scales[r * gpr + g] = s;
        }
    return m;
}

Nvfp4Matrix nvfp4_matrix(std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style, std::uint64_t divisors) {
    Nvfp4Matrix m;
    m.rows = n;
    m.cols = k;
    m.codes.resize(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i) {
        const bool copy = style.pair && (i % k) % 2 == 1;
        m.codes[i] = copy ? m.codes[i - 1] : static_cast<std::uint8_t>(rng() & 0xF);
    }
    m.scales.resize(n * k / 16);
    for (std::uint64_t i = 0; i < m.scales.size(); ++i) {
        m.scales[i] = static_cast<std::uint8_t>(0x20 + rng() % 0x40);  // 2^-3 .. 2^4, positive
        if (style.zero_groups && i % 5 == 0) m.scales[i] = 0;        // a +0 block scale: every weight of it is 0
    }
    // Divisors: non-dyadic and dyadic positive binary32 words (3, 7, 1.5, ...), 2^-4 .. 2^4.
    for (std::uint64_t d = 0; d < divisors; ++d)
        m.divisors.push_back(static_cast<std::uint32_t>((123 + rng() % 9) << 23 | (rng() & 0x7FFFFF)));
    return m;
}

Fp8RowMatrix fp8_matrix(const Fp8RowFormat &f, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style) {
    Fp8RowMatrix m;
    m.rows = n;
    m.cols = k;
    m.codes.resize(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i) {
        const bool copy = style.pair && (i % k) % 2 == 1;
        auto c = static_cast<std::uint8_t>(rng());
        if ((c & 0x7F) == 0x7F) c ^= 0x01;  // 0x7F / 0xFF are not weight codes
        m.codes[i] = copy ? m.codes[i - 1] : c;
    }
    const auto &sf = word_format(f.scale_format);
    m.scales.resize(n);
    for (std::uint64_t r = 0; r < n; ++r) {
        auto s = static_cast<std::uint16_t>(random_word(sf, rng, -8, -2) & 0x7FFF);  // positive
        if (style.rescued && r % 3 == 1) s = 0x0001;
        if (style.zero_groups && r % 3 == 0) {
            s = 0x0000;
            for (std::uint64_t c = 0; c < k; ++c) m.codes[r * k + c] = (rng() & 1) ? 0x80 : 0x00;  // signed zeros only
        }
        m.scales[r] = s;
    }
    return m;
}

namespace {

// ---- The weight families: a small shape and a seeded payload of each (its descriptor) --------

SmallShape direct_small_shape(std::uint32_t) { return {3, 20}; }

SmallShape grouped_small_shape(std::uint32_t format) {
    const auto G = static_cast<std::uint64_t>(grouped_format(format).group);
    return {2, G + 5};  // the second group partial
}

SmallShape scaled_small_shape(std::uint32_t format) { return format == NINFER_FORMAT_nvfp4 ? SmallShape{128, 64} : SmallShape{3, 40}; }

const GgufType &gguf_type(std::uint32_t format) {
    for (const auto &t : kGgufTypes)
        if (t.id == format) return t;
    throw std::invalid_argument("not a GGUF type");
}

SmallShape gguf_small_shape(std::uint32_t format) { return {1, gguf_type(format).block_values}; }

Bytes direct_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style, std::uint64_t) {
    const auto &f = word_format(format);
    std::vector<std::uint64_t> w(n * k);
    for (std::uint64_t i = 0; i < n * k; ++i)
        w[i] = style.pair && (i % k) % 2 == 1 ? w[i - 1] : random_word(f, rng, -6, 2);
    return le_words(w, f.bytes());
}

Bytes grouped_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style, std::uint64_t) {
    const auto &f = grouped_format(format);
    return row_split_encode(f, grouped_matrix(f, n, k, rng, style));
}

Bytes scaled_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style,
                     std::uint64_t divisors) {
    if (format == NINFER_FORMAT_nvfp4) return block_scale_encode(nvfp4_matrix(n, k, rng, style, divisors));
    const auto f = *fp8_row_format(format);
    return fp8_row_encode(f, fp8_matrix(f, n, k, rng, style));
}

Bytes gguf_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style, std::uint64_t) {
    const GgufType &t = gguf_type(format);
    Bytes out;
    const auto blocks = n * (k / t.block_values);
    for (std::uint64_t b = 0; b < blocks; ++b) {
        auto blk = gguf::seeded_block(t, rng);
        if (style.pair && t.id == NINFER_FORMAT_gguf_q8_0) {  // q8_0 (d, then 32 int8 codes): qs[2j+1] = qs[2j]
            for (std::size_t j = 2; j + 1 < blk.size(); j += 2) blk[j + 1] = blk[j];
        }
        out.insert(out.end(), blk.begin(), blk.end());
    }
    return out;
}

constexpr WeightFamily kWeightFamilies[] = {
    {.family = Family::word, .small_shape = &direct_small_shape, .payload = &direct_payload},
    {.family = Family::grouped, .small_shape = &grouped_small_shape, .payload = &grouped_payload},
    {.family = Family::scaled, .small_shape = &scaled_small_shape, .payload = &scaled_payload},
    {.family = Family::gguf, .small_shape = &gguf_small_shape, .payload = &gguf_payload},
};

}  // namespace

const WeightFamily &weight_family(std::uint32_t format) {
    const auto *fv = abi::find_format(format);
    if (!fv) throw std::invalid_argument("weight_payload: unknown format");
    for (const auto &w : kWeightFamilies)
        if (w.family == fv->family) return w;
    throw std::invalid_argument("weight_payload: not a weight format");
}

Bytes weight_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, Rng &rng, const WeightStyle &style,
                     std::uint64_t divisors) {
    return weight_family(format).payload(format, n, k, rng, style, divisors);
}

namespace {

/// Suite readings of the linear rules (the rules whose reading is not "").
std::vector<Case> mark(std::vector<Case> cases) {
    static const auto rules = linear_rules();
    for (auto &c : cases)
        for (const auto &r : rules)
            if (r.id == c.rule && r.suite_reading) c.suite_reading = true;
    return cases;
}

}  // namespace

std::function<std::vector<Case>(Level)> cached(std::vector<Case> (*make)()) { return cached_golden_with(make, &mark); }

std::function<std::vector<Case>(std::uint64_t, Level)> seeded(std::vector<Case> (*make)(std::uint64_t, Level)) {
    return random_with(make, &mark);
}

}  // namespace ninfer::suites::linear
