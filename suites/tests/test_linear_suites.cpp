// SPDX-License-Identifier: Apache-2.0
// The `linear` suites (suites/src/linear/, rules_linear.cpp; suites/LINEAR.md): every rule of
// rule::kLinear and every criterion has cases at quick, ids are unique, every profile meets every
// step of the check order, quotes are verbatim spec text, every expected word lies inside its own
// acceptance, and a wrong formula (code / scale, the scale applied twice) falls outside it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/linear.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "spec_text.hpp"

using namespace ninfer::suites;
using namespace ninfer::oracle;
using namespace ninfer::suites::testing;

namespace {

const std::vector<Case> &quick_cases() {
    static const std::vector<Case> all = [] {
        std::vector<Case> out;
        for (const auto &s : linear_suites())
            for (auto &c : s.golden(Level::quick)) out.push_back(std::move(c));
        return out;
    }();
    return all;
}

struct Entry {
    std::uint64_t lo, hi;
    std::uint8_t flags;
};
Entry entry(const Case &c, std::size_t i, int ob) {
    const auto at = i * (2 * ob + 1);
    Entry e{0, 0, c.expect.accept[at + 2 * ob]};
    for (int b = 0; b < ob; ++b) {
        e.lo |= std::uint64_t{c.expect.accept[at + b]} << (8 * b);
        e.hi |= std::uint64_t{c.expect.accept[at + ob + b]} << (8 * b);
    }
    return e;
}

bool is_nan_info(const WordInfo &w) {
    return w.cls == NINFER_CLASS_QNAN || w.cls == NINFER_CLASS_SNAN || w.cls == NINFER_CLASS_NAN;
}

/// The acceptance rule of case.hpp (Expect::accept), by the oracle's exact word values.
bool accepted(const WordFormat &f, const Entry &e, std::uint64_t word) {
    const auto a = word_info(f, word);
    if (is_nan_info(a)) return (e.flags & kAcceptNan) != 0;
    if ((e.flags & kAcceptBits) != 0) return word == e.lo;
    const auto lo = word_info(f, e.lo), hi = word_info(f, e.hi);
    if (a.cls == NINFER_CLASS_INFINITE) {
        if (a.negative) return lo.cls == NINFER_CLASS_INFINITE && lo.negative;
        return hi.cls == NINFER_CLASS_INFINITE && !hi.negative;
    }
    const bool above_lo = lo.cls == NINFER_CLASS_INFINITE ? lo.negative : lo.value <= a.value;
    const bool below_hi = hi.cls == NINFER_CLASS_INFINITE ? !hi.negative : a.value <= hi.value;
    return above_lo && below_hi;
}

std::uint64_t word_of(const std::vector<std::uint8_t> &b, std::size_t i, int bytes) {
    std::uint64_t w = 0;
    for (int j = 0; j < bytes; ++j) w |= std::uint64_t{b[i * bytes + j]} << (8 * j);
    return w;
}

}  // namespace

TEST_CASE("linear rules: kLinear and one per criterion, each quoting tensor-formats.txt", "[linear][rules]") {
    const auto rules = linear_rules();
    REQUIRE(rules.size() == std::size(rule::kLinear) + ninfer::abi::kCriteria.size());
    std::set<std::string> ids;
    for (const auto &r : rules) CHECK(ids.insert(r.id).second);
    for (const auto id : rule::kLinear) CHECK(ids.count(std::string(id.view())));
    for (const auto &c : ninfer::abi::kCriteria) CHECK(ids.count(rule::linear_criterion(c)));
    for (const auto &r : rules) CHECK((find_rule(r.id) == nullptr || find_rule(r.id)->group == "linear"));
    for (const auto &r : rules) {
        INFO(r.id);
        CHECK(r.group == "linear");
        CHECK(!r.quote.empty());
        CHECK(r.section.rfind("tensor-formats.txt", 0) == 0);
        CHECK(r.suite_reading);
    }
}

TEST_CASE("linear rules: every quote occurs verbatim in tensor-formats.txt", "[linear][rules][reads-spec]") {
    const auto spec = normalised(spec_file("tensor-formats.txt"));
    for (const auto &r : linear_rules()) {
        INFO(r.id);
        CHECK(spec.find(normalised(r.quote)) != std::string::npos);
    }
}

TEST_CASE("linear suites: every rule and criterion at quick, ids unique, every weight format", "[linear][suites]") {
    const auto &cases = quick_cases();
    REQUIRE(!cases.empty());
    std::set<std::string> ids;
    std::map<std::string, int> per_rule;
    std::set<std::uint32_t> formats_ok;
    std::set<std::pair<std::uint32_t, std::uint32_t>> format_profile_ok;
    for (const auto &c : cases) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(c.id.rfind(c.rule + "/", 0) == 0);
        CHECK(c.op == NINFER_OP_linear);
        CHECK(c.level == Level::quick);
        ++per_rule[c.rule];
        // The expected OUTPUT plane carries the output format, also on a refusal.
        REQUIRE(c.expect.outputs.size() == 1);
        CHECK(c.expect.outputs[0].name == NINFER_PLANE_OUTPUT);
        CHECK(c.expect.outputs[0].format != 0);
        if (c.expect.status == NINFER_OK) {
            formats_ok.insert(c.format);
            format_profile_ok.insert({c.format, c.profile});
            const int ob = word_format(c.expect.outputs[0].format).bytes();
            CHECK(c.expect.outputs[0].bytes.size() == c.count * c.shape[0] * ob);
            CHECK(c.expect.accept.size() == c.count * c.shape[0] * (2 * ob + 1));
        } else {
            // A refusal offers ample OUTPUT room (an empty plane), or the short OUTPUT of step 4:
            // a nonzero capacity below M*N words (the runner offers exactly the plane's size).
            const auto &o = c.expect.outputs[0].bytes;
            if (!o.empty()) {
                CHECK(c.rule == std::string(rule::linear_shape));
                CHECK(c.expect.status == NINFER_E_SIZE);
                CHECK(c.id.find("/output_") != std::string::npos);
                CHECK(o.size() < c.count * c.shape[0] * word_format(c.expect.outputs[0].format).bytes());
            }
            CHECK(c.expect.accept.empty());
        }
    }
    for (const auto &r : linear_rules()) {
        INFO(r.id);
        CHECK(per_rule[r.id] > 0);
    }
    for (const auto &[rule, n] : per_rule) {
        INFO(rule);
        bool known = false;
        for (const auto &r : linear_rules()) known = known || r.id == rule;
        CHECK(known);
    }
    // Every weight format computes under every profile that takes it.
    std::size_t weight_formats = 3 + kGroupedFormats.size() + kScaledFormats.size() + ninfer::abi::kGgufTypes.size();
    CHECK(formats_ok.size() == weight_formats);
    for (const auto f : formats_ok)
        for (const auto &p : ninfer::abi::kProfiles) {
            const bool gguf = ninfer::abi::find_format(f)->family == Family::gguf;
            if (p.id == NINFER_PROFILE_gguf_q8_1_f32 && !gguf) continue;
            INFO(f << " " << p.name);
            CHECK(format_profile_ok.count({f, p.id}));
        }
    // No clash with the ids of the catalog's other suites.
    for (const auto &s : suite_catalog())
        if (s.name.rfind("linear.", 0) != 0)
            for (const auto &c : s.golden(Level::quick)) CHECK(!ids.count(c.id));
}

TEST_CASE("linear suites: every step of the check order under every profile", "[linear][suites]") {
    // status per (profile, rule) among the refusals
    std::set<std::tuple<std::uint32_t, std::string, std::int32_t>> seen;
    std::set<std::uint32_t> details;
    for (const auto &c : quick_cases()) {
        if (c.expect.status == NINFER_OK) continue;
        seen.insert({c.profile, c.rule, c.expect.status});
        if (c.expect.status == NINFER_E_INVALID_PAYLOAD) details.insert(c.expect.detail);
    }
    for (const auto &p : ninfer::abi::kProfiles) {
        INFO(p.name);
        CHECK(seen.count({p.id, std::string(rule::linear_registry), NINFER_E_UNSUPPORTED}));
        CHECK(seen.count({p.id, std::string(rule::linear_registry), NINFER_E_LAYOUT}));
        CHECK(seen.count({p.id, std::string(rule::linear_shape), NINFER_E_INVALID_ARGUMENT}));
        CHECK(seen.count({p.id, std::string(rule::linear_shape), NINFER_E_SIZE}));
        CHECK(seen.count({p.id, std::string(rule::linear_profile), NINFER_E_UNSUPPORTED}));
        if (p.id != NINFER_PROFILE_gguf_q8_1_f32)
            CHECK(seen.count({p.id, std::string(rule::linear_payload), NINFER_E_INVALID_PAYLOAD}));
    }
    CHECK(seen.count({0u, std::string(rule::linear_profile), NINFER_E_UNSUPPORTED}));
    for (const auto d : {NINFER_DETAIL_ILLEGAL_CODE, NINFER_DETAIL_INVALID_SCALE, NINFER_DETAIL_ZERO_SCALE_CODES,
                         NINFER_DETAIL_NONZERO_PADDING, NINFER_DETAIL_NONZERO_GAP, NINFER_DETAIL_INVALID_DIVISOR}) {
        INFO(d);
        CHECK(details.count(d));
    }
}

TEST_CASE("linear suites: a short OUTPUT is offered under every profile; no other refusal sizes its output", "[linear][suites]") {
    std::map<std::uint32_t, int> short_output;
    for (const auto &c : quick_cases())
        if (c.expect.status != NINFER_OK && !c.expect.outputs[0].bytes.empty()) {
            INFO(c.id);
            const auto words = c.count * c.shape[0];
            const auto width = static_cast<std::uint64_t>(word_format(c.expect.outputs[0].format).bytes());
            CHECK(c.expect.outputs[0].bytes.size() < words * width);
            if (c.expect.outputs[0].bytes.size() == (words - 1) * width) ++short_output[c.profile];
        }
    for (const auto &p : ninfer::abi::kProfiles) {
        INFO(p.name);
        CHECK(short_output[p.id] > 0);  // M*N - 1 words
    }
    // Elsewhere in the catalog an expected refusal never sizes its output plane: the runner would
    // offer that size instead of its ample room.
    for (const auto &s : suite_catalog())
        if (s.name.rfind("linear.", 0) != 0)
            for (const auto &c : s.golden(Level::quick))
                if (c.expect.status != NINFER_OK)
                    for (const auto &p : c.expect.outputs) {
                        INFO(c.id);
                        CHECK(p.bytes.empty());
                    }
}

TEST_CASE("linear suites: batches (M > 1) in every family and profile; repeating row 0 fails each", "[linear][suites]") {
    // A plugin that computes row 0 only and repeats it, or leaves rows >= 1 at +0: some element of
    // every row m >= 1 rejects row 0's expected word and +0. One that reads X with a row stride of
    // N words: some element rejects its words.
    std::set<std::pair<Family, std::uint32_t>> families;
    std::set<std::uint64_t> batches;
    std::size_t cases = 0;
    for (const auto &c : quick_cases()) {
        if (c.expect.status != NINFER_OK || c.id.find("/batch_m") == std::string::npos) continue;
        INFO(c.id);
        REQUIRE(c.count > 1);
        ++cases;
        families.insert({ninfer::abi::find_format(c.format)->family, c.profile});
        batches.insert(c.count);
        const auto &f = word_format(c.expect.outputs[0].format);
        const int ob = f.bytes();
        const auto n = c.shape[0];
        const auto &out = c.expect.outputs[0].bytes;
        for (std::uint64_t m = 1; m < c.count; ++m) {
            bool repeat = false, zero = false;
            for (std::uint64_t j = 0; j < n; ++j) {
                const auto e = entry(c, m * n + j, ob);
                repeat = repeat || !accepted(f, e, word_of(out, j, ob));
                zero = zero || !accepted(f, e, 0);
            }
            INFO("row " << m);
            CHECK(repeat);
            CHECK(zero);
        }
        // A plugin that steps through X by N words a row instead of K (zeros past the end): the
        // oracle's words for that activation fall outside the acceptance somewhere.
        const auto *act = find_plane(c.inputs, NINFER_PLANE_ACTIVATION);
        const auto aw = static_cast<std::size_t>(word_format(act->format).bytes());
        const auto k = c.shape[1];
        REQUIRE(n != k);
        std::vector<std::uint8_t> strided(act->bytes.size(), 0);
        for (std::uint64_t m = 0; m < c.count; ++m)
            for (std::uint64_t j = 0; j < k && (m * n + j + 1) * aw <= act->bytes.size(); ++j)
                std::copy_n(act->bytes.begin() + static_cast<std::ptrdiff_t>((m * n + j) * aw), aw,
                            strided.begin() + static_cast<std::ptrdiff_t>((m * k + j) * aw));
        LinearCall call;
        call.format = c.format;
        call.layout = c.layout;
        call.profile = c.profile;
        call.n = n;
        call.k = k;
        call.m = c.count;
        call.activation_format = act->format;
        call.output_format = c.expect.outputs[0].format;
        const auto wrong = linear_expect(call, c.input(NINFER_PLANE_PAYLOAD), strided);
        REQUIRE(wrong.status == NINFER_OK);
        bool stride = false;
        for (std::uint64_t i = 0; i < c.count * n && !stride; ++i) stride = !accepted(f, entry(c, i, ob), word_of(wrong.output, i, ob));
        CHECK(stride);
    }
    CHECK(cases > 0);
    for (const auto fam : {Family::word, Family::grouped, Family::scaled, Family::gguf})
        for (const auto &p : ninfer::abi::kProfiles) {
            if (p.id == NINFER_PROFILE_gguf_q8_1_f32 && fam != Family::gguf) continue;
            INFO(static_cast<int>(fam) << " " << p.name);
            CHECK(families.count({fam, p.id}));
        }
    // Batch sizes 2, 3, 5, 8 and 13 (a remainder after a tile of 8).
    for (const std::uint64_t m : {2, 3, 5, 8, 13}) CHECK(batches.count(m));
}

TEST_CASE("linear suites: each expected word lies in its acceptance; NaN and inf cases exist", "[linear][suites]") {
    std::size_t nan = 0, inf = 0, bits = 0, interval = 0;
    for (const auto &c : quick_cases()) {
        if (c.expect.status != NINFER_OK) continue;
        INFO(c.id);
        const auto &f = word_format(c.expect.outputs[0].format);
        const int ob = f.bytes();
        const auto &out = c.expect.outputs[0].bytes;
        for (std::size_t i = 0; i < out.size() / ob; ++i) {
            const auto e = entry(c, i, ob);
            const auto w = word_of(out, i, ob);
            CHECK(accepted(f, e, w));
            nan += (e.flags & kAcceptNan) != 0;
            bits += (e.flags & kAcceptBits) != 0;
            inf += word_info(f, w).cls == NINFER_CLASS_INFINITE;
            interval += e.lo != e.hi;
        }
    }
    CHECK(nan > 0);
    CHECK(inf > 0);
    CHECK(bits > 0);
    CHECK(interval > 0);
}

TEST_CASE("linear suites: code / scale and the scale applied twice fall outside the acceptance", "[linear][suites]") {
    // The grouped cases under f32_accumulate: a plugin computing w = code / scale (the formula the
    // spec calls wrong) or w = code * scale * scale gives some element outside [lo, hi].
    std::size_t cases = 0, caught_div = 0, caught_twice = 0;
    for (const auto &c : quick_cases()) {
        if (c.expect.status != NINFER_OK || c.profile != NINFER_PROFILE_f32_accumulate) continue;
        if (ninfer::abi::find_format(c.format)->family != Family::grouped || c.id.find("/seeded") == std::string::npos) continue;
        const auto &g = grouped_format(c.format);
        const auto n = c.shape[0], k = c.shape[1];
        const auto d = row_split_decode(g, n, k, c.input(NINFER_PLANE_PAYLOAD));
        REQUIRE(d.status == NINFER_OK);
        const auto &af = word_format(find_plane(c.inputs, NINFER_PLANE_ACTIVATION)->format);
        const auto &f32 = word_format(NINFER_FORMAT_fp32);
        const auto gpr = grouped_groups_per_row(g, k);
        bool bad_div = false, bad_twice = false;
        for (std::uint64_t m = 0; m < c.count; ++m)
            for (std::uint64_t r = 0; r < n; ++r) {
                // Host doubles build the wrong answers only (the expectation is the oracle's).
                double div = 0, twice = 0;
                for (std::uint64_t j = 0; j < k; ++j) {
                    const double s = static_cast<double>(word_info(word_format(NINFER_FORMAT_fp16), d.m.scales[r * gpr + j / g.group]).value);
                    const double x = static_cast<double>(word_info(af, word_of(c.input(NINFER_PLANE_ACTIVATION), m * k + j, af.bytes())).value);
                    const double q = d.m.codes[r * k + j];
                    if (s != 0) div += q / s * x;
                    twice += q * s * s * x;
                }
                const auto e = entry(c, m * n + r, 4);
                Real rd = exact_zero(), rt = exact_zero();
                rd = div;
                rt = twice;
                if (!accepted(f32, e, round_real(rd, f32, 1, 1))) bad_div = true;
                if (!accepted(f32, e, round_real(rt, f32, 1, 1))) bad_twice = true;
            }
        ++cases;
        caught_div += bad_div;
        caught_twice += bad_twice;
    }
    CHECK(cases >= kGroupedFormats.size());
    CHECK(caught_div == cases);
    CHECK(caught_twice == cases);
}

TEST_CASE("linear suites: seeded cases at full reach realistic shapes, unique ids, none at quick", "[linear][suites][random]") {
    const auto suites = linear_suites();
    const Suite *direct = nullptr;
    for (const auto &s : suites)
        if (s.name == "linear.direct") direct = &s;
    REQUIRE(direct);
    CHECK(direct->random(kDefaultSeed, Level::quick).empty());
    const auto full = direct->random(kDefaultSeed, Level::full);
    std::set<std::string> ids;
    std::uint64_t max_n = 0, max_k = 0;
    for (const auto &c : full) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(c.level == Level::full);
        CHECK(c.expect.status == NINFER_OK);
        max_n = std::max(max_n, c.shape[0]);
        max_k = std::max(max_k, c.shape[1]);
    }
    CHECK(max_n == 4096);
    CHECK(max_k == 8192);
    // Same seed, same cases.
    const auto again = direct->random(kDefaultSeed, Level::full);
    REQUIRE(again.size() == full.size());
    for (std::size_t i = 0; i < full.size(); ++i) CHECK(again[i].inputs == full[i].inputs);
}

TEST_CASE("linear suites: the golden cases stay small (vectors/data)", "[linear][suites]") {
    // The golden vectors hold these bytes as hex: keep their growth near 1 MB.
    std::size_t bytes = 0;
    std::map<std::string, std::size_t> per_suite;
    for (const auto &s : linear_suites())
        for (const auto &c : s.golden(Level::quick)) {
            std::size_t b = c.expect.accept.size();
            for (const auto &p : c.inputs) b += p.bytes.size();
            for (const auto &p : c.expect.outputs) b += p.bytes.size();
            per_suite[s.name] += b;
            bytes += b;
        }
    for (const auto &[name, b] : per_suite) WARN(name << ": " << b << " bytes");
    INFO(bytes << " bytes in " << quick_cases().size() << " cases");
    CHECK(bytes < 600 * 1024);
    WARN(bytes << " bytes in " << quick_cases().size() << " cases");
}
