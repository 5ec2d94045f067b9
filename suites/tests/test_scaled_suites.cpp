// SPDX-License-Identifier: Apache-2.0
// The scaled suites (suites/src/scaled/) and rules (rules_scaled.cpp): every rule of rule::kScaled
// has a case, ids unique, levels cumulative, cases deterministic and self-consistent (layout_encode
// then decode round trips, decoded words re-encode to the input payload, refusals carry no
// output), known swizzle offsets computed by hand, the swizzle cases told apart from a transposed
// swizzle and from wrong tile sizes, and the fp8_row_maxabs cases told apart from the mutants of
// issue 9 by an independent host-float model of the paragraph.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "ninfer/oracle/scaled.hpp"
#include "ninfer/suites/rule_ids.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer::suites;
using namespace ninfer::oracle;

namespace {

using Bytes = std::vector<std::uint8_t>;

const std::vector<Suite> &suites() {
    static const std::vector<Suite> s = scaled_suites();
    return s;
}

std::vector<Case> all_golden(Level level) {
    std::vector<Case> out;
    for (const auto &s : suites())
        for (auto &c : s.golden(level)) out.push_back(std::move(c));
    return out;
}

const std::vector<Case> &golden() {
    static const std::vector<Case> g = all_golden(Level::exhaustive);
    return g;
}

std::vector<const Case *> cases_of(std::string_view rule) {
    std::vector<const Case *> out;
    for (const auto &c : golden())
        if (c.rule == rule) out.push_back(&c);
    return out;
}

bool same_case(const Case &a, const Case &b) {
    return a.id == b.id && a.rule == b.rule && a.level == b.level && a.op == b.op && a.format == b.format &&
           a.format_in == b.format_in && a.layout == b.layout && a.method == b.method && a.flags == b.flags &&
           a.shape == b.shape && a.count == b.count && a.inputs == b.inputs && a.expect.status == b.expect.status &&
           a.expect.detail == b.expect.detail && a.expect.outputs == b.expect.outputs && a.suite_reading == b.suite_reading;
}

std::vector<std::uint32_t> words32(const Bytes &b) {
    std::vector<std::uint32_t> w;
    for (std::size_t i = 0; i + 4 <= b.size(); i += 4) w.push_back(static_cast<std::uint32_t>(get_word(b, i / 4, 4)));
    return w;
}
std::vector<std::uint16_t> words16(const Bytes &b) {
    std::vector<std::uint16_t> w;
    for (std::size_t i = 0; i + 2 <= b.size(); i += 2) w.push_back(static_cast<std::uint16_t>(get_word(b, i / 2, 2)));
    return w;
}

/// The scale plane of an nvfp4 matrix placed by an arbitrary offset function (words whose
/// offset falls outside the plane are dropped): the payload a wrong swizzle would write.
Bytes payload_with(const Nvfp4Matrix &m, const std::function<std::uint64_t(std::uint64_t, std::uint64_t, std::uint64_t)> &offset) {
    Bytes p = block_scale_encode(m);
    const auto g = *block_scale_geometry(m.rows, m.cols, m.divisors.size());
    std::fill(p.begin() + static_cast<long>(g.scale_plane_offset), p.begin() + static_cast<long>(g.divisor_offset), 0);
    for (std::uint64_t n = 0; n < m.rows; ++n)
        for (std::uint64_t gi = 0; gi < g.groups_per_row; ++gi) {
            const std::uint64_t at = offset(m.cols, n, gi);
            if (at < g.scale_plane_bytes) p[g.scale_plane_offset + at] = m.scales[n * g.groups_per_row + gi];
        }
    return p;
}

// ---- an independent host-float model of fp8_row_maxabs, with the mutants' knobs --------------

struct Knobs {
    bool fp32_direct = false, truncate = false, no_rescue = false, divide = false, no_clamp = false, ties_away = false;
};

float as_float(std::uint32_t w) {
    float f;
    std::memcpy(&f, &w, 4);
    return f;
}
std::uint32_t bits_of(float f) {
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
}
std::uint16_t to_bf16(float x, bool truncate) {
    const std::uint32_t w = bits_of(x);
    if (truncate) return static_cast<std::uint16_t>(w >> 16);
    return static_cast<std::uint16_t>((w + 0x7FFFu + ((w >> 16) & 1u)) >> 16);
}
float from_bf16(std::uint16_t h) { return as_float(static_cast<std::uint32_t>(h) << 16); }
float from_f16(std::uint16_t h) {
    const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    const float v = e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(1024 + m), e - 25);
    return (h & 0x8000) ? -v : v;
}
/// A positive finite binary32 to binary16 (nearest-even or truncation; 0x7C00 on overflow).
std::uint16_t to_f16(float x, bool truncate) {
    auto round = [&](float q) {  // q >= 0 with an integer and a fraction part, both exact
        const float m = std::floor(q), frac = q - m;
        if (!truncate && (frac > 0.5f || (frac == 0.5f && std::fmod(m, 2.0f) == 1.0f))) return m + 1;
        return m;
    };
    if (x < std::ldexp(1.0f, -14)) return static_cast<std::uint16_t>(round(std::ldexp(x, 24)));
    int ex = 0;
    std::frexp(x, &ex);
    int e = ex - 1;
    float m = round(std::ldexp(x, 10 - e));
    if (m == 2048) {
        m = 1024;
        ++e;
    }
    if (e + 15 >= 31) return 0x7C00;
    return static_cast<std::uint16_t>((e + 15) << 10 | (static_cast<int>(m) - 1024));
}
/// E4M3FN of a binary32 (0x7F for a magnitude the grid has no value for, without the clamp).
std::uint8_t to_e4m3(float x, bool ties_away) {
    const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    const float a = std::fabs(x);
    if (std::isnan(x) || a >= 464.0f) return sign | 0x7F;
    std::uint8_t best = 0;
    double best_err = 1e300;
    for (std::uint8_t c = 0; c <= 0x7E; ++c) {
        const int e = c >> 3, m = c & 7;
        const double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
        const double err = std::fabs(v - a);
        if (err < best_err || (err == best_err && (ties_away || (c & 1) == 0))) {
            best = c;
            best_err = err;
        }
    }
    return sign | best;
}
double source_value(std::uint32_t format, std::uint64_t w) {
    if (format == NINFER_FORMAT_fp32) return as_float(static_cast<std::uint32_t>(w));
    if (format == NINFER_FORMAT_bf16) return from_bf16(static_cast<std::uint16_t>(w));
    return from_f16(static_cast<std::uint16_t>(w));
}

/// The payload of a quant_encode case by the model; nullopt when the model refuses.
std::optional<Bytes> model_payload(const Case &c, const Knobs &k) {
    const auto f = *fp8_row_format(c.format);
    const bool bf = f.scale_format == NINFER_FORMAT_bf16;
    const int width = c.format_in == NINFER_FORMAT_fp32 ? 4 : 2;
    const auto &src = c.input(NINFER_PLANE_SOURCE);
    const std::uint64_t n = c.shape[0], kk = c.shape[1];
    Fp8RowMatrix m{n, kk, {}, {}};
    for (std::uint64_t r = 0; r < n; ++r) {
        std::vector<float> x;
        float amax = 0;
        for (std::uint64_t j = 0; j < kk; ++j) {
            const double v = source_value(c.format_in, get_word(src, r * kk + j, width));
            if (!std::isfinite(v)) return std::nullopt;
            const float xf = k.fp32_direct ? static_cast<float>(v) : from_bf16(to_bf16(static_cast<float>(v), false));
            if (!std::isfinite(xf)) return std::nullopt;
            x.push_back(xf);
            amax = std::max(amax, std::fabs(xf));
        }
        if (amax == 0) {
            m.codes.insert(m.codes.end(), kk, 0x00);
            m.scales.push_back(0);
            continue;
        }
        const float s32 = amax / 448.0f;
        std::uint16_t sw = bf ? to_bf16(s32, k.truncate) : to_f16(s32, k.truncate);
        if ((bf && (sw & 0x7F80) == 0x7F80) || (!bf && sw >= 0x7C00)) return std::nullopt;
        if (sw == 0 && !k.no_rescue) sw = 1;
        const float s = bf ? from_bf16(sw) : from_f16(sw);
        const float rcp = 1.0f / s;
        for (const float xi : x) {
            float p = k.divide ? xi / s : xi * rcp;
            if (std::isnan(p)) p = xi;  // 0 * inf: a zero of the input's sign (oracle/SCALED.md R2)
            if (!k.no_clamp) p = std::min(448.0f, std::max(-448.0f, p));
            m.codes.push_back(to_e4m3(p, k.ties_away));
        }
        m.scales.push_back(sw);
    }
    return fp8_row_encode(f, m);
}

/// The quant_encode cases of a rule that the model reproduces and the mutant does not.
int killed_by(std::string_view rule, const Knobs &mutant) {
    int killed = 0, agreed = 0;
    for (const Case *c : cases_of(rule)) {
        if (c->op != NINFER_OP_quant_encode || c->expect.status != NINFER_OK) continue;
        const auto right = model_payload(*c, {});
        if (!right || *right != c->expect.output(NINFER_PLANE_PAYLOAD)) continue;
        ++agreed;
        const auto wrong = model_payload(*c, mutant);
        if (!wrong || *wrong != *right) ++killed;
    }
    INFO(rule << ": " << agreed << " cases agree with the model");
    CHECK(agreed > 0);
    return killed;
}

}  // namespace

TEST_CASE("scaled rules: one per id of rule::kScaled, in order, with family and sentence", "[scaled][rules]") {
    const auto rules = scaled_rules();
    REQUIRE(rules.size() == std::size(rule::kScaled));
    for (std::size_t i = 0; i < rules.size(); ++i) {
        INFO(rules[i].id);
        CHECK(rules[i].id == rule::kScaled[i].view());
        CHECK(rules[i].id.rfind(rules[i].group + ".", 0) == 0);
        CHECK(!rules[i].quote.empty());
        CHECK(find_rule(rules[i].id) != nullptr);
    }
    for (const RuleId id : {rule::block_scale_divisor_plane, rule::block_scale_slice, rule::fp8_row_maxabs_rescue,
                            rule::fp8_row_maxabs_nonfinite, rule::lesson_nvfp4_two_level, rule::nvfp4_reconstruct})
        CHECK(find_rule(id)->suite_reading);
    for (const RuleId id : {rule::block_scale_swizzle, rule::nvfp4_code_e2m1, rule::fp8_row_maxabs_clamp, rule::fp8_row_code_validity})
        CHECK_FALSE(find_rule(id)->suite_reading);
    CHECK_THAT(find_rule(rule::block_scale_swizzle)->quote, Catch::Contains("floor((n%128) / 32) * 4 + g % 4"));
}

TEST_CASE("scaled cases: unique ids, catalog rules, every rule of kScaled covered at quick", "[scaled][suites]") {
    const auto &cases = golden();
    CHECK(suites().size() == 7);
    std::set<std::string> ids, quick_rules;
    for (const auto &c : cases) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(c.id.rfind(c.rule + "/", 0) == 0);
        REQUIRE(find_rule(c.rule) != nullptr);
        if (c.level == Level::quick) quick_rules.insert(c.rule);
        CHECK(c.op >= NINFER_OP_layout_encode);
        // Input and output planes are those of the op, in its order.
        const auto planes = op_planes(c.op, c.format, c.layout);
        for (const auto &p : c.inputs) CHECK(std::find(planes.inputs.begin(), planes.inputs.end(), p.name) != planes.inputs.end());
        if (c.expect.status != NINFER_OK) CHECK(c.expect.outputs.empty());
        if (c.expect.status == NINFER_OK) {
            REQUIRE(c.expect.outputs.size() == planes.outputs.size());
            for (std::size_t i = 0; i < planes.outputs.size(); ++i) CHECK(c.expect.outputs[i].name == planes.outputs[i]);
        }
        if (c.expect.detail != 0) CHECK(c.expect.status != NINFER_OK);
    }
    for (const RuleId r : rule::kScaled) {
        INFO("rule without a quick case: " << r.view());
        CHECK(quick_rules.count(std::string(r.view())) == 1);
    }
}

TEST_CASE("scaled cases: levels cumulative, golden and seeded cases deterministic", "[scaled][suites]") {
    const auto again = scaled_suites();
    for (std::size_t s = 0; s < suites().size(); ++s) {
        INFO(suites()[s].name);
        const auto quick = suites()[s].golden(Level::quick), full = suites()[s].golden(Level::full);
        const auto ex = suites()[s].golden(Level::exhaustive);
        CHECK(quick.size() <= full.size());
        CHECK(full.size() <= ex.size());
        for (const auto &c : quick) CHECK(c.level == Level::quick);
        const auto ex2 = again[s].golden(Level::exhaustive);
        REQUIRE(ex2.size() == ex.size());
        for (std::size_t i = 0; i < ex.size(); ++i) CHECK(same_case(ex[i], ex2[i]));
        CHECK(suites()[s].random(kDefaultSeed, Level::quick).empty());
        const auto r1 = suites()[s].random(kDefaultSeed, Level::full), r2 = again[s].random(kDefaultSeed, Level::full);
        CHECK(!r1.empty());
        REQUIRE(r1.size() == r2.size());
        for (std::size_t i = 0; i < r1.size(); ++i) CHECK(same_case(r1[i], r2[i]));
        for (const auto &c : r1) CHECK(c.level == Level::full);
        CHECK(suites()[s].random(kDefaultSeed, Level::exhaustive).size() >= r1.size());
    }
}

TEST_CASE("scaled cases: expected outputs are self-consistent", "[scaled][suites]") {
    std::size_t nv_round_trips = 0, f8_round_trips = 0;
    std::vector<Case> cases = golden();
    for (const auto &s : suites())
        for (auto &c : s.random(kDefaultSeed, Level::full)) cases.push_back(std::move(c));
    for (const auto &c : cases) {
        INFO(c.id);
        if (c.expect.status != NINFER_OK || c.shape.size() != 2) continue;
        const std::uint64_t n = c.shape[0], k = c.shape[1];
        if (c.format == NINFER_FORMAT_nvfp4) {
            if (c.op == NINFER_OP_layout_encode) {
                // The expected payload decodes to the input planes.
                const auto d = block_scale_decode(n, k, c.input(NINFER_PLANE_DIVISORS).size() / 4, c.expect.output(NINFER_PLANE_PAYLOAD));
                REQUIRE(d.status == NINFER_OK);
                CHECK(d.m.codes == c.input(NINFER_PLANE_CODES));
                CHECK(d.m.scales == c.input(NINFER_PLANE_SCALES));
                CHECK(d.m.divisors == words32(c.input(NINFER_PLANE_DIVISORS)));
                ++nv_round_trips;
            }
            if (c.op == NINFER_OP_layout_decode || c.op == NINFER_OP_quant_decode) {
                // The decoded words re-encode to the input payload.
                Nvfp4Matrix m{n, k, c.expect.output(NINFER_PLANE_CODES), c.expect.output(NINFER_PLANE_SCALES),
                              words32(c.expect.output(NINFER_PLANE_DIVISORS))};
                CHECK(block_scale_encode(m) == c.input(NINFER_PLANE_PAYLOAD));
                if (c.op == NINFER_OP_quant_decode) CHECK(c.expect.output(NINFER_PLANE_VALUES).size() == 4 * n * k);
            }
            if (c.op == NINFER_OP_quant_encode || c.op == NINFER_OP_rows_select) {
                // Every payload the suites expect is a valid nvfp4 payload.
                const auto &p = c.expect.output(NINFER_PLANE_PAYLOAD);
                const std::uint64_t rows = c.op == NINFER_OP_rows_select
                                               ? ((c.flags & NINFER_FLAG_GATHER) ? c.input(NINFER_PLANE_ROWS).size() / 8
                                                                                 : get_word(c.input(NINFER_PLANE_ROWS), 1, 8))
                                               : n;
                const auto g1 = *block_scale_geometry(rows, k, 1);
                const auto d = block_scale_decode(rows, k, (p.size() - g1.divisor_offset) / 4, p);
                CHECK(d.status == NINFER_OK);
            }
        }
        if (const auto f = fp8_row_format(c.format)) {
            if (c.op == NINFER_OP_layout_encode) {
                const auto d = fp8_row_decode(*f, n, k, c.expect.output(NINFER_PLANE_PAYLOAD));
                REQUIRE(d.status == NINFER_OK);
                CHECK(d.m.codes == c.input(NINFER_PLANE_CODES));
                CHECK(d.m.scales == words16(c.input(NINFER_PLANE_SCALES)));
                ++f8_round_trips;
            }
            if (c.op == NINFER_OP_layout_decode || c.op == NINFER_OP_quant_decode) {
                Fp8RowMatrix m{n, k, c.expect.output(NINFER_PLANE_CODES), words16(c.expect.output(NINFER_PLANE_SCALES))};
                CHECK(fp8_row_encode(*f, m) == c.input(NINFER_PLANE_PAYLOAD));
            }
            if (c.op == NINFER_OP_quant_encode) CHECK(fp8_row_decode(*f, n, k, c.expect.output(NINFER_PLANE_PAYLOAD)).status == NINFER_OK);
        }
    }
    CHECK(nv_round_trips >= 8);
    CHECK(f8_round_trips > 10);
}

TEST_CASE("scaled cases: refusals name the contract's status and detail", "[scaled][suites]") {
    std::map<std::string, std::set<std::pair<std::int32_t, std::uint32_t>>> seen;  // rule -> (status, detail)
    for (const auto &c : golden()) seen[c.rule].insert({c.expect.status, c.expect.detail});
    using P = std::pair<std::int32_t, std::uint32_t>;
    CHECK(seen[std::string(rule::nvfp4_scale_validity)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE}));
    CHECK(seen[std::string(rule::nvfp4_scale_validity)].count(P{NINFER_E_INVALID_ARGUMENT, 0}));
    CHECK(seen[std::string(rule::nvfp4_divisor_validity)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_DIVISOR}));
    CHECK(seen[std::string(rule::block_scale_size)].count(P{NINFER_E_SIZE, NINFER_DETAIL_SIZE}));
    CHECK(seen[std::string(rule::block_scale_geometry)].count(P{NINFER_E_SIZE, NINFER_DETAIL_SIZE}));
    CHECK(seen[std::string(rule::block_scale_geometry)].count(P{NINFER_E_INVALID_ARGUMENT, 0}));
    CHECK(seen[std::string(rule::block_scale_registry)] == std::set<P>{P{NINFER_E_LAYOUT, 0}});
    CHECK(seen[std::string(rule::block_scale_slice)].count(P{NINFER_E_INVALID_ARGUMENT, 0}));
    CHECK(seen[std::string(rule::block_scale_gather)].count(P{NINFER_E_INVALID_ARGUMENT, 0}));
    CHECK(seen[std::string(rule::fp8_row_code_validity)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ILLEGAL_CODE}));
    CHECK(seen[std::string(rule::fp8_row_scale_validity)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_INVALID_SCALE}));
    CHECK(seen[std::string(rule::fp8_row_zero_row)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_ZERO_SCALE_CODES}));
    CHECK(seen[std::string(rule::row_scale_gap)].count(P{NINFER_E_INVALID_PAYLOAD, NINFER_DETAIL_NONZERO_GAP}));
    CHECK(seen[std::string(rule::fp8_row_size)].count(P{NINFER_E_SIZE, NINFER_DETAIL_SIZE}));
    CHECK(seen[std::string(rule::fp8_row_maxabs_scale_overflow)].count(P{NINFER_E_SCALE_OVERFLOW, 0}));
    CHECK(seen[std::string(rule::fp8_row_maxabs_nonfinite)].count(P{NINFER_E_NONFINITE, 0}));
    // The decode boundary: each refused payload is refused alike by all three payload ops.
    for (const RuleId r : {rule::block_scale_decode_boundary, rule::fp8_row_decode_boundary}) {
        std::map<std::string, std::set<P>> by_payload;
        for (const Case *c : cases_of(r)) by_payload[c->id.substr(0, c->id.rfind('.'))].insert({c->expect.status, c->expect.detail});
        CHECK(by_payload.size() >= 3);
        for (const auto &[slug, outcomes] : by_payload) {
            INFO(slug);
            CHECK(outcomes.size() == 1);
        }
    }
}

TEST_CASE("block-scale swizzle: offsets worked out by hand, and a bijection", "[scaled][swizzle]") {
    // (floor(n/128) * (K/64) + floor(g/4)) * 512 + (n%128 % 32) * 16 + floor((n%128) / 32) * 4 + g % 4
    CHECK(block_scale_swizzle(64, 0, 0) == 0);
    CHECK(block_scale_swizzle(64, 1, 0) == 16);
    CHECK(block_scale_swizzle(64, 32, 0) == 4);
    CHECK(block_scale_swizzle(64, 33, 1) == 21);
    CHECK(block_scale_swizzle(64, 127, 3) == 511);
    CHECK(block_scale_swizzle(64, 128, 0) == 512);
    CHECK(block_scale_swizzle(128, 0, 4) == 512);
    CHECK(block_scale_swizzle(128, 5, 6) == 594);      // (0 + 1) * 512 + 5 * 16 + 0 + 2
    CHECK(block_scale_swizzle(128, 200, 7) == 1675);   // (1 * 2 + 1) * 512 + 8 * 16 + 2 * 4 + 3
    CHECK(block_scale_swizzle(256, 300, 13) == 5829);  // (2 * 4 + 3) * 512 + 12 * 16 + 1 * 4 + 1
    for (const auto &[n, k] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{128, 64}, {256, 192}, {384, 256}}) {
        std::vector<int> hit(n * k / 16, 0);
        for (std::uint64_t r = 0; r < n; ++r)
            for (std::uint64_t g = 0; g < k / 16; ++g) {
                const auto at = block_scale_swizzle(k, r, g);
                REQUIRE(at < hit.size());
                ++hit[at];
            }
        CHECK(std::count(hit.begin(), hit.end(), 1) == static_cast<long>(hit.size()));
    }
}

TEST_CASE("block-scale swizzle cases tell the right swizzle from a transposed one and wrong tiles", "[scaled][swizzle]") {
    const auto transposed = [](std::uint64_t k, std::uint64_t n, std::uint64_t g) {  // n and g swapped
        return (g / 128 * (k / 64) + n / 4) * 512 + (g % 128 % 32) * 16 + (g % 128) / 32 * 4 + n % 4;
    };
    const auto rows64 = [](std::uint64_t k, std::uint64_t n, std::uint64_t g) {  // 64-row tiles
        return (n / 64 * (k / 64) + g / 4) * 256 + (n % 64 % 32) * 8 + (n % 64) / 32 * 4 + g % 4;
    };
    const auto groups2 = [](std::uint64_t k, std::uint64_t n, std::uint64_t g) {  // 2 groups per tile
        return (n / 128 * (k / 32) + g / 2) * 256 + (n % 128 % 32) * 8 + (n % 128) / 32 * 2 + g % 2;
    };
    const auto right = [](std::uint64_t k, std::uint64_t n, std::uint64_t g) { return block_scale_swizzle(k, n, g); };
    int checked = 0;
    std::map<std::string, int> killed;
    for (const Case *c : cases_of(rule::block_scale_swizzle)) {
        if (c->op != NINFER_OP_layout_encode || c->expect.status != NINFER_OK) continue;
        const std::uint64_t n = c->shape[0], k = c->shape[1];
        const Nvfp4Matrix m{n, k, c->input(NINFER_PLANE_CODES), c->input(NINFER_PLANE_SCALES), words32(c->input(NINFER_PLANE_DIVISORS))};
        const Bytes &p = c->expect.output(NINFER_PLANE_PAYLOAD);
        CHECK(payload_with(m, right) == p);
        ++checked;
        killed["transposed"] += payload_with(m, transposed) != p;
        killed["rows64"] += payload_with(m, rows64) != p;
        killed["groups2"] += payload_with(m, groups2) != p;
    }
    CHECK(checked >= 2);
    for (const auto &[name, count] : killed) {
        INFO(name);
        CHECK(count == checked);  // every swizzle case kills every wrong swizzle
    }
}

TEST_CASE("nvfp4 cases: hand-checked values, +0 blocks, divisor ownership", "[scaled][nvfp4]") {
    const Case *all16 = nullptr;
    for (const Case *c : cases_of(rule::nvfp4_code_e2m1))
        if (c->op == NINFER_OP_quant_decode) all16 = c;
    REQUIRE(all16 != nullptr);
    // Scale 1.0, divisor 1: the values are E2M1's: row 0 holds codes 0..15 at columns 0..15.
    const std::uint32_t e2m1[16] = {0x00000000u, 0x3F000000u, 0x3F800000u, 0x3FC00000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40C00000u,
                                    0x80000000u, 0xBF000000u, 0xBF800000u, 0xBFC00000u, 0xC0000000u, 0xC0400000u, 0xC0800000u, 0xC0C00000u};
    const auto v = words32(all16->expect.output(NINFER_PLANE_VALUES));
    for (int c = 0; c < 16; ++c) CHECK(v[static_cast<std::size_t>(c)] == e2m1[c]);
    // +0 blocks: every value of a +0 block is a zero of its code's sign.
    for (const Case *c : cases_of(rule::nvfp4_scale_zero)) {
        if (c->op != NINFER_OP_quant_decode) continue;
        const auto &codes = c->expect.output(NINFER_PLANE_CODES);
        const auto &scales = c->expect.output(NINFER_PLANE_SCALES);
        const auto vals = words32(c->expect.output(NINFER_PLANE_VALUES));
        const std::uint64_t k = c->shape[1];
        int zeros = 0;
        for (std::size_t i = 0; i < vals.size(); ++i)
            if (scales[i / k * (k / 16) + i % k / 16] == 0) {
                CHECK(vals[i] == ((codes[i] & 0x8) ? 0x80000000u : 0u));
                ++zeros;
            }
        CHECK(zeros > 0);
    }
    // Row ownership: rows with the same words under different divisors differ; the quotient of
    // two rows' values is the inverse quotient of their divisors (exact here: dyadic values).
    for (const Case *c : cases_of(rule::nvfp4_divisor_row_owner)) {
        const auto vals = words32(c->expect.output(NINFER_PLANE_VALUES));
        const auto divs = words32(c->expect.output(NINFER_PLANE_DIVISORS));
        const std::uint64_t n = c->shape[0], k = c->shape[1], per = n / divs.size();
        REQUIRE(divs.size() >= 2);
        for (std::uint64_t r = 0; r + per < n; r += per) {
            const auto d0 = divs[r / per], d1 = divs[r / per + 1];
            const std::size_t col = 1;  // code (r % 4 + 1) % 16 != 0 for the first row of each run (r % 4 == 0)
            const float a = as_float(vals[r * k + col]) * as_float(d0), b = as_float(vals[(r + per) * k + col]) * as_float(d1);
            CHECK(a == b);
        }
    }
}

TEST_CASE("lesson.nvfp4_two_level: the lesson's example is a valid nvfp4 payload with its block codes", "[scaled][lesson]") {
    int ok = 0;
    for (const Case *c : cases_of(rule::lesson_nvfp4_two_level)) {
        if (c->expect.status != NINFER_OK) continue;
        const auto &p = c->expect.output(NINFER_PLANE_PAYLOAD);
        const auto d = block_scale_decode(c->shape[0], c->shape[1], 1, p);
        REQUIRE(d.status == NINFER_OK);
        if (c->id.find("example15") != std::string::npos) {
            CHECK(d.m.scales[0] == 0x77);  // block 0: 240.0 (lesson)
            CHECK(d.m.scales[1] == 0x7E);  // block 1: 448.0
            CHECK(as_float(d.m.divisors[0]) == Approx(2688 / 3.8544).epsilon(1e-4));
        }
        ++ok;
    }
    CHECK(ok >= 1);
}

TEST_CASE("fp8_row_maxabs cases: each rule's cases tell the right producer from its mutant", "[scaled][maxabs]") {
    CHECK(killed_by(rule::fp8_row_maxabs_bf16_inputs, {.fp32_direct = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_scale_rounding, {.truncate = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_rescue, {.no_rescue = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_reciprocal_multiply, {.divide = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_clamp, {.no_clamp = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_ties_to_even, {.ties_away = true}) > 0);
    CHECK(killed_by(rule::fp8_row_maxabs_bit_exact, {.divide = true}) > 0);
    // Chunking: the call equals its rows encoded one by one.
    for (const Case *c : cases_of(rule::fp8_row_maxabs_chunking)) {
        const auto f = *fp8_row_format(c->format);
        const std::uint64_t n = c->shape[0], k = c->shape[1];
        Fp8RowMatrix m{n, k, {}, {}};
        for (std::uint64_t r = 0; r < n; ++r) {
            std::vector<std::uint64_t> row;
            for (std::uint64_t j = 0; j < k; ++j) row.push_back(get_word(c->input(NINFER_PLANE_SOURCE), r * k + j, 2));
            const auto e = fp8_row_maxabs(f, c->format_in, row);
            REQUIRE(e.status == NINFER_OK);
            m.codes.insert(m.codes.end(), e.codes.begin(), e.codes.end());
            m.scales.push_back(e.scale);
        }
        CHECK(fp8_row_encode(f, m) == c->expect.output(NINFER_PLANE_PAYLOAD));
        std::set<std::uint16_t> scales(m.scales.begin(), m.scales.end());
        CHECK(scales.size() + 2 >= n);  // rows of their own maxima (the smallest may share a rescued scale)
    }
    // The model agrees with the oracle on the seeded cases too.
    for (const auto &s : suites())
        for (const auto &c : s.random(kDefaultSeed, Level::full)) {
            if (c.op != NINFER_OP_quant_encode || c.format == NINFER_FORMAT_nvfp4 || c.expect.status != NINFER_OK) continue;
            INFO(c.id);
            const auto m = model_payload(c, {});
            REQUIRE(m);
            CHECK(*m == c.expect.output(NINFER_PLANE_PAYLOAD));
        }
}

namespace {

/// The source rows of an fp8_row_maxabs case, as words of its source format.
std::vector<std::vector<std::uint64_t>> source_rows(const Case &c) {
    const int bytes = c.format_in == NINFER_FORMAT_fp32 ? 4 : 2;
    const auto &src = c.input(NINFER_PLANE_SOURCE);
    const std::uint64_t n = c.shape.at(0), k = c.shape.at(1);
    std::vector<std::vector<std::uint64_t>> rows(n);
    for (std::uint64_t i = 0; i < n * k && (i + 1) * static_cast<std::uint64_t>(bytes) <= src.size(); ++i)
        rows[i / k].push_back(get_word(src, i, bytes));
    return rows;
}

/// Whether a row of the case meets R2's open edge: an encoded BF16 row whose rescued
/// multiplier has an infinite binary32 reciprocal.
bool meets_tiny_scale(const Case &c) {
    if (c.method != NINFER_ENCODER_fp8_row_maxabs || c.format != NINFER_FORMAT_fp8_e4m3fn_row_bf16 || c.shape.size() != 2)
        return false;
    const auto f = *fp8_row_format(c.format);
    for (const auto &row : source_rows(c)) {
        const auto e = fp8_row_maxabs(f, c.format_in, row);
        if (e.status == NINFER_OK && e.reciprocal32 == 0x7F800000u) return true;
    }
    return false;
}

std::set<std::string> outcome_names(const Expect &e) {
    std::set<std::string> names;
    for (const auto &o : outcomes(e)) names.insert(o.name);
    return names;
}

}  // namespace

TEST_CASE("scaled cases: every row R2 leaves open offers both outcomes, encode and refuse", "[scaled][readings]") {
    std::size_t met = 0;
    for (const auto &c : golden()) {
        INFO(c.id);
        const bool tiny = meets_tiny_scale(c);
        CHECK(tiny == (c.expect.reading == std::string(rule::fp8_row_maxabs_rescue)));
        if (!tiny) continue;
        ++met;
        CHECK(c.expect.status == NINFER_OK);
        CHECK(c.expect.choice == "encode");
        REQUIRE(c.expect.alternatives.size() == 1);
        CHECK(c.expect.alternatives[0] == Alternative{"refuse", NINFER_E_NONFINITE, 0, {}});
    }
    CHECK(met == 4);  // three rescue rows and the clamp's infinite reciprocal
}

TEST_CASE("scaled cases: issue 21's row encodes as 7e 7e 00 80 fe 7e with multiplier 0x0001, or is refused",
          "[scaled][readings]") {
    const auto c = std::find_if(golden().begin(), golden().end(), [](const Case &x) {
        return x.id == "fp8_row_maxabs.rescue/fp8_e4m3fn_row_bf16.bf16_amax_2^-125";
    });
    REQUIRE(c != golden().end());
    const auto e = fp8_row_maxabs(*fp8_row_format(c->format), NINFER_FORMAT_bf16, source_rows(*c).at(0));
    CHECK(e.codes == Bytes{0x7e, 0x7e, 0x00, 0x80, 0xfe, 0x7e});
    CHECK(e.scale == 0x0001);
    const auto &payload = c->expect.output(NINFER_PLANE_PAYLOAD);
    REQUIRE(payload.size() >= 6);
    CHECK(Bytes(payload.begin(), payload.begin() + 6) == e.codes);
    CHECK(outcome_names(c->expect) == std::set<std::string>{"encode", "refuse"});
}

TEST_CASE("scaled cases: a finite fp32 source above BF16's largest finite may be refused either way",
          "[scaled][readings]") {
    std::size_t met = 0;
    for (const auto *c : cases_of(rule::fp8_row_maxabs_nonfinite)) {
        INFO(c->id);
        const bool finite_above = c->format_in == NINFER_FORMAT_fp32 && c->expect.status == NINFER_E_NONFINITE &&
                                  std::ranges::any_of(source_rows(*c), [](const auto &row) {
                                      return std::ranges::any_of(row, [](std::uint64_t w) {
                                          return (w & 0x7F800000u) != 0x7F800000u && (w & 0x7FFFFFFFu) >= 0x7F7F8000u;
                                      });
                                  });
        CHECK(finite_above == !c->expect.alternatives.empty());
        if (!finite_above) continue;
        ++met;
        CHECK(c->expect.reading == std::string(rule::fp8_row_maxabs_nonfinite));
        CHECK(outcome_names(c->expect) == std::set<std::string>{"nonfinite", "scale_overflow"});
    }
    CHECK(met == 4);  // two rows, both formats
}

TEST_CASE("scaled cases: every case with alternatives offers exactly the choices of an open rule", "[scaled][readings]") {
    for (const auto &c : golden()) {
        if (c.expect.alternatives.empty()) continue;
        INFO(c.id);
        const auto *r = find_rule(c.expect.reading);
        REQUIRE(r);
        CHECK(r->reading_kind == ReadingKind::open);
        std::set<std::string> choices;
        for (const auto &x : r->choices) choices.insert(x.name);
        CHECK(outcome_names(c.expect) == choices);
    }
}
