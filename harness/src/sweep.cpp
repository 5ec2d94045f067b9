// SPDX-License-Identifier: Apache-2.0
// Exhaustive sweeps (docs/cli.md, "sweep"): every source word of a conversion (or decode of a
// format) through the subject in Iota batches, against the fast native expected words of
// ninfer::native (ninfer/oracle/native_words.hpp), which the cross-check tests compare with the
// MPFR oracle over the same domains. The harness never links the reference plugin.
#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rules.hpp"

namespace ninfer::harness {

namespace {

struct Geometry {
    const oracle::WordFormat *src = nullptr, *dst = nullptr;
    const oracle::Conversion *conv = nullptr;
    std::string rule;
};

Geometry geometry_of(const SweepOptions &o) {
    Geometry g;
    if (o.op == NINFER_OP_convert) {
        g.conv = oracle::find_id(oracle::kConversions, o.conversion);
        if (!g.conv) throw UsageError(fmt::format("unknown conversion id {}", o.conversion));
        g.src = &oracle::word_format(g.conv->src);
        g.dst = &oracle::word_format(g.conv->dst);
        g.rule = suites::rule::convert(*g.conv);
    } else if (o.op == NINFER_OP_decode) {
        g.src = oracle::find_id(oracle::kWordFormats, o.format);
        if (!g.src) throw UsageError(fmt::format("unknown word format id {}", o.format));
        g.dst = &oracle::kBinary64;
        g.rule = suites::rule::decode(*g.src);
    } else {
        throw UsageError("a sweep covers convert or decode");
    }
    return g;
}

void put_iota(std::vector<std::uint8_t> &buf, std::uint64_t start, std::uint64_t n, int width) {
    buf.resize(n * static_cast<std::uint64_t>(width));
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t w = start + i;
        for (int b = 0; b < width; ++b) buf[i * width + b] = static_cast<std::uint8_t>(w >> (8 * b));
    }
}

std::uint64_t load_word(const std::uint8_t *p, int width) {
    std::uint64_t w = 0;
    for (int b = 0; b < width; ++b) w |= static_cast<std::uint64_t>(p[b]) << (8 * b);
    return w;
}

/// The binade of a source word, for the report's mismatch plot (extra "mismatch_bins"): its
/// exponent field, or for a format without one its magnitude's bit length.
int binade_of(const oracle::WordFormat &f, std::uint64_t w) {
    if (f.exp_bits > 0) return static_cast<int>((w >> f.man_bits) & ((std::uint64_t{1} << f.exp_bits) - 1));
    std::uint64_t mag = w & f.mask();
    if (f.has_sign && word_is_negative(f, w)) mag = (std::uint64_t{1} << f.bits) - mag;
    int n = 0;
    for (; mag; mag >>= 1) ++n;
    return n;
}

}  // namespace

std::uint64_t source_domain(const SweepOptions &o) {
    const auto g = geometry_of(o);
    return std::uint64_t{1} << g.src->bits;
}

SweepResult run_sweep(Subject &s, const SweepOptions &o, const reports::SubjectIdentity &id) {
    using clock = std::chrono::steady_clock;
    Geometry g = geometry_of(o);
    if (o.nan_payload) {
        if (o.op != NINFER_OP_convert || !suites::nan_principle(*g.conv).payload_profile)
            throw UsageError(fmt::format("--nan-payload: {} has no NaN payload profile (oracle/README.md)", g.rule));
        g.rule = suites::nan_payload_rule(*g.conv);
    }
    const suites::NanPolicy nan_policy = o.nan_payload || o.op != NINFER_OP_convert ? suites::NanPolicy::exact
                                                                                   : suites::nan_principle(*g.conv).policy;
    const std::uint64_t domain = source_domain(o);
    if (o.start >= domain) throw UsageError(fmt::format("--start {:x} is outside the {}-bit source domain", o.start, g.src->bits));
    const std::uint64_t count = o.count.value_or(domain - o.start);
    if (count == 0 || count > domain - o.start)
        throw UsageError(fmt::format("--count {} does not fit the source domain of {} words from {:x}", count, domain, o.start));
    const int ib = g.src->bytes(), ob = g.dst->bytes();

    SweepResult res;
    auto &rep = res.report;
    rep.kind = "sweep";
    rep.tool_version = suite_version();
    rep.subject = id;
    rep.open_error = s.open_error();
    rep.level = "sweep";
    rep.host = reports::host_description();
    rep.extra = {{"sweep", g.rule}, {"start", oracle::word_hex(*g.src, o.start)}, {"count", std::to_string(count)}};
    rep.started_at = reports::utc_now();

    reports::CaseResult cr;
    cr.id = fmt::format("{}/sweep", g.rule);
    cr.rule = g.rule;
    const auto *rule = suites::find_rule(g.rule);
    cr.sentence = rule ? rule->sentence : "(rule not in the catalog)";
    cr.suite = "sweep";
    cr.source = fmt::format("exhaustive [{}, +{})", oracle::word_hex(*g.src, o.start), count);
    cr.elements = count;

    const std::uint32_t format = o.op == NINFER_OP_convert ? g.conv->dst : g.src->id;
    const std::uint32_t format_in = o.op == NINFER_OP_convert ? g.conv->src : 0;
    const std::uint32_t method = o.op == NINFER_OP_convert ? g.conv->id : 0;
    const auto t0 = clock::now();
    if (!rep.open_error.empty()) {
        cr.status = reports::Status::error;
        cr.message = rep.open_error;
    } else if (!covers(s.info().capabilities, o.op, format, format_in, NINFER_LAYOUT_NONE, method)) {
        cr.status = reports::Status::unsupported;
        cr.message = "the subject does not declare this " + std::string(oracle::op_name(o.op));
    } else {
        std::vector<std::uint8_t> in, expected;
        Comparison cmp;
        std::map<std::pair<bool, int>, std::uint64_t> bins;  // (negative, binade) -> word mismatches
        std::uint64_t nan_accepted = 0;  // NaN words the policy accepted, not bit-equal
        auto last_progress = clock::now();
        for (std::uint64_t done = 0; done < count;) {
            const std::uint64_t n = std::min(o.batch, count - done);
            const std::uint64_t first = o.start + done;
            Call call;
            call.op = o.op;
            call.format = format;
            call.format_in = format_in;
            call.method = method;
            call.count = n;
            call.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
            call.iota = Iota{first, ib};
            const std::uint32_t out_plane = o.op == NINFER_OP_convert ? NINFER_PLANE_WORDS : NINFER_PLANE_VALUES;
            call.outputs = {{out_plane, 0, n * static_cast<std::uint64_t>(ob)}};
            // Large batches: the expected words are computed while the worker computes its own.
            const auto policy = n >= (std::uint64_t{1} << 18) ? std::launch::async : std::launch::deferred;
            auto expect = std::async(policy, [&] {
                put_iota(in, first, n, ib);
                expected.resize(n * static_cast<std::uint64_t>(ob));
                if (o.op == NINFER_OP_convert) {
                    native::convert_batch(g.conv->id, in.data(), expected.data(), n);
                    return;
                }
                for (std::uint64_t i = 0; i < n; ++i) {
                    const std::uint64_t v = native::decode_to_binary64(g.src->id, load_word(&in[i * ib], ib));
                    for (int b = 0; b < 8; ++b) expected[i * 8 + b] = static_cast<std::uint8_t>(v >> (8 * b));
                }
            });
            const Reply r = s.call(call);
            expect.get();
            if (r.outcome != Outcome::returned || r.status != NINFER_OK) {
                // A dead or refusing batch: every word of it counts as a mismatch.
                const auto st = r.outcome == Outcome::crash     ? reports::Status::crash
                                : r.outcome == Outcome::timeout ? reports::Status::timeout
                                                                : reports::Status::error;
                if (r.outcome != Outcome::returned) {
                    if (cr.status == reports::Status::pass) cr.status = st;
                    if (cr.message.empty())
                        cr.message = fmt::format("batch at {}: {}", oracle::word_hex(*g.src, first), r.message);
                } else {
                    if (cr.status == reports::Status::pass) cr.status = reports::Status::fail;
                    ++cmp.classes[mismatch_class_name(MismatchClass::unexpected_error)];
                    if (cmp.first.size() < o.max_mismatches)
                        cmp.first.push_back({first, "status", {oracle::word_hex(*g.src, first)}, "", "NINFER_OK",
                                             status_text(r.status), "", "", "unexpected_error",
                                             fmt::format("batch at element {}", first - o.start), ""});
                }
                cmp.mismatches += n;
                done += n;
                continue;
            }
            const auto &act = r.output(out_plane);
            const std::string plane(abi::plane_name(out_plane));
            if (act.size() != expected.size()) {
                ++cmp.mismatches;
                ++cmp.classes["size_mismatch"];
                if (cmp.first.size() < o.max_mismatches)
                    cmp.first.push_back({first - o.start, plane, {}, "", fmt::format("{} bytes", expected.size()),
                                         fmt::format("{} bytes", act.size()), "", "", "size_mismatch",
                                         fmt::format("batch at element {}", first - o.start), ""});
            }
            const std::uint64_t common = std::min<std::uint64_t>(n, act.size() / static_cast<std::uint64_t>(ob));
            for (std::uint64_t i = 0; i < common; ++i) {
                const std::uint64_t e = load_word(&expected[i * ob], ob), a = load_word(&act[i * ob], ob);
                if (e == a) continue;
                const std::uint64_t src = first + i;
                // The conversion's NaN policy of the NaN principle (suites/nan_principle.hpp), as `run`.
                if (o.op == NINFER_OP_convert && words_match(*g.dst, nan_policy, e, a)) {
                    ++nan_accepted;
                    continue;
                }
                const MismatchClass cls = classify_word_mismatch(*g.dst, g.conv, src, e, a, g.src);
                ++cmp.mismatches;
                ++cmp.classes[mismatch_class_name(cls)];
                ++bins[{g.src->has_sign && word_is_negative(*g.src, src), binade_of(*g.src, src)}];
                if (cmp.first.size() < o.max_mismatches) {
                    reports::Mismatch m;
                    m.index = src - o.start;
                    m.plane = plane;
                    m.location = fmt::format("source word {}", oracle::word_hex(*g.src, src));
                    m.cls = mismatch_class_name(cls);
                    m.inputs = {oracle::word_hex(*g.src, src)};
                    m.input_value = oracle::word_value_text(*g.src, src);
                    m.expected = oracle::word_hex(*g.dst, e);
                    m.actual = oracle::word_hex(*g.dst, a);
                    m.expected_value = word_is_nan(*g.dst, e) ? nan_text(*g.dst, e) : oracle::word_value_text(*g.dst, e);
                    m.actual_value = word_is_nan(*g.dst, a) ? nan_text(*g.dst, a) : oracle::word_value_text(*g.dst, a);
                    cmp.first.push_back(std::move(m));
                }
            }
            done += n;
            if (o.progress && (clock::now() - last_progress > std::chrono::seconds(2) || done == count)) {
                last_progress = clock::now();
                const double sec = std::chrono::duration<double>(clock::now() - t0).count();
                std::fprintf(stderr, "sweep %s: %llu/%llu words (%.1f%%), %llu mismatches, %.3g words/s\n",
                             g.rule.c_str(), static_cast<unsigned long long>(done),
                             static_cast<unsigned long long>(count), 100.0 * static_cast<double>(done) / static_cast<double>(count),
                             static_cast<unsigned long long>(cmp.mismatches), static_cast<double>(done) / sec);
            }
        }
        std::string text;
        for (const auto &[key, n] : bins) text += fmt::format("{}{}{}:{}", text.empty() ? "" : " ", key.first ? '-' : '+', key.second, n);
        rep.extra["binade"] = g.src->exp_bits > 0 ? "exponent field" : "bit length";
        rep.extra["binades"] = std::to_string(g.src->exp_bits > 0 ? (1 << g.src->exp_bits) : g.src->bits + 1);
        rep.extra["mismatch_bins"] = text;
        cr.mismatches = cmp.mismatches;
        cr.first = std::move(cmp.first);
        cr.classes = std::move(cmp.classes);
        if (nan_accepted) {
            cr.nan_policy = suites::nan_policy_name(nan_policy);
            cr.nan_accepted = nan_accepted;
        }
        if (cr.status == reports::Status::pass && cr.mismatches) cr.status = reports::Status::fail;
    }
    res.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    res.words = count;
    res.words_per_second = res.seconds > 0 ? static_cast<double>(count) / res.seconds : 0;
    rep.duration_s = res.seconds;
    rep.finished_at = reports::utc_now();
    rep.cases.push_back(std::move(cr));
    reports::finalize(rep);
    return res;
}

}  // namespace ninfer::harness
