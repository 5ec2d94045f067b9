// SPDX-License-Identifier: Apache-2.0
// Exhaustive sweeps (docs/cli.md, "sweep"): every source word of a conversion (or decode of a
// format) through the subject in Iota batches, against the fast native expected words of
// ninfer::native (ninfer/oracle/native_words.hpp), which the cross-check tests compare with the
// MPFR oracle over the same domains, or against the MPFR oracle itself (--expected oracle).
// The harness never links the reference plugin. Batches are pipelined (Subject::submit) and
// the range is cut into contiguous runs of whole batches, one per job (worker); the report
// does not depend on the number of jobs.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/harness/compare.hpp"
#include "ninfer/harness/progress.hpp"
#include "ninfer/harness/runner.hpp"
#include "ninfer/oracle/exhaustive.hpp"
#include "ninfer/oracle/native_words.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/reports/merge.hpp"
#include "ninfer/suites/conversions.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/rules.hpp"
#include "wire.hpp"

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
        if (abi::is_stochastic(*g.conv))
            throw UsageError(fmt::format("{} rounds stochastically: a sweep has no random plane (run tests it; suites/SR.md)",
                                         g.conv->name));
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

/// The binade of a source word, for the report's mismatch plot (extra "mismatch_bins"): its
/// exponent field, or for a format without one its magnitude's bit length.
int binade_of(const oracle::WordFormat &f, std::uint64_t w) {
    if (f.exp_bits > 0) return static_cast<int>((w >> f.man_bits) & ((std::uint64_t{1} << f.exp_bits) - 1));
    std::uint64_t mag = w & f.mask();
    if (f.has_sign && word_is_negative(f, w)) mag = (std::uint64_t{1} << f.bits) - mag;
    return static_cast<int>(std::bit_width(mag));
}

}  // namespace

bool sweep_in_domain(const oracle::Conversion &c, std::uint64_t src) {
    // suites/conversions.hpp's domain by the source word's bits: no oracle call per word.
    const auto &f = oracle::word_format(c.src);
    return src <= f.mask() && !(suites::conversion_domain_is_partial(c) && word_is_nan(f, src));
}

std::uint64_t sweep_words_outside_domain(const oracle::Conversion &c, std::uint64_t first, std::uint64_t n) {
    // The NaN words of a format lie in one run per sign (an IEEE format's magnitudes above
    // infinity, the one all-ones magnitude of FN and E8M0): count the runs' overlap with the range.
    const auto &f = oracle::word_format(c.src);
    const std::uint64_t end = first + n, past = f.mask() + 1;
    std::uint64_t out = end > past ? end - std::max(first, past) : 0;
    if (!suites::conversion_domain_is_partial(c)) return out;
    const std::uint64_t sign = abi::word_sign_bit(f), mag_top = f.mask() & ~sign;
    std::uint64_t nan_lo = 0;
    switch (f.special) {
    case oracle::Special::IEEE: nan_lo = (((std::uint64_t{1} << f.exp_bits) - 1) << f.man_bits) + 1; break;
    case oracle::Special::FN:
    case oracle::Special::E8M0: nan_lo = mag_top; break;
    default: return out;  // no NaN word
    }
    for (const std::uint64_t s : {std::uint64_t{0}, sign}) {
        if (s == sign && !f.has_sign) break;
        const std::uint64_t lo = std::max(first, s | nan_lo), hi = std::min(end, (s | mag_top) + 1);
        out += hi > lo ? hi - lo : 0;
    }
    return out;
}

WordVerdict sweep_word_verdict(const oracle::Conversion &c, suites::NanPolicy policy, std::uint64_t src,
                               std::uint64_t expected, std::uint64_t actual) {
    if (!suites::conversion_in_domain(c, src)) return WordVerdict::not_judged;
    if (expected == actual) return WordVerdict::pass;
    return words_match(oracle::word_format(c.dst), policy, expected, actual) ? WordVerdict::pass : WordVerdict::fail;
}

std::uint64_t source_domain(const SweepOptions &o) {
    const auto g = geometry_of(o);
    return std::uint64_t{1} << g.src->bits;
}

namespace {

/// Words compared per block: memcmp first, single words only in a block that differs.
constexpr std::uint64_t kBlock = 4096;

/// Everything a job needs to sweep its part, the same for every job.
struct Plan {
    Geometry g;
    suites::NanPolicy nan_policy = suites::NanPolicy::exact;
    const SweepOptions *o = nullptr;
    std::uint32_t format = 0, format_in = 0, method = 0, out_plane = 0;
    int ib = 0, ob = 0;
    unsigned oracle_threads = 1;
    /// Some source words lie outside the conversion's domain (sweep_in_domain): counted, not judged.
    bool partial_domain = false;
    std::size_t binades = 0;  ///< bins per sign of the mismatch histogram
    std::size_t bins_size() const { return 2 * binades; }
};

constexpr std::size_t kClasses = static_cast<std::size_t>(MismatchClass::bits) + 1;

/// What one job found over its contiguous run of batches; merged in range order. Word
/// mismatches are counted in flat arrays (by class, by sign and binade): a failing sweep costs
/// what a passing one does plus a classification per word, never a record past --max-mismatches.
struct JobResult {
    Comparison cmp;  // first mismatches; batch-level classes (size_mismatch, unexpected_error)
    std::array<std::uint64_t, kClasses> classes{};
    std::vector<std::uint64_t> bins;  // [negative * binades + binade]
    std::uint64_t nan_accepted = 0;  // NaN words the policy accepted, not bit-equal
    std::uint64_t not_judged = 0;    // source words outside the conversion's domain
    reports::Status status = reports::Status::pass;  // the first non-pass status a batch set
    std::string message;  // the first batch message
    /// --max-failures: (end word, mismatches so far) after each batch checked; stopped once
    /// the job alone reached the bound.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> batch_ends;
    bool stopped = false;
    /// The class of the last mismatch: a word's class depends on the source word only through
    /// whether it is subnormal and a tie, and a failing subject repeats (expected, actual) pairs.
    struct {
        std::uint64_t e = ~std::uint64_t{0}, a = ~std::uint64_t{0};
        bool subnormal = false, tie = false;
        MismatchClass cls = MismatchClass::gross;
    } last;
};

/// What every job has done so far, for the live progress line.
struct SweepCounters {
    std::atomic<std::uint64_t> words{0}, mismatches{0};
};

/// The expected words of source words first .. first+n-1 into `out` (n * ob bytes).
void native_expected(const Plan &p, std::uint64_t first, std::uint64_t n, std::uint8_t *in, std::uint8_t *out) {
    wire::fill_iota(in, first, p.ib, n);
    if (p.o->policy) {  // --policy: the lattice point's words (the oracle's exact integer logic)
        policy_words(*p.o->policy, in, out, n);
        return;
    }
    if (p.o->op == NINFER_OP_convert) {
        native::convert_batch(p.g.conv->id, in, out, n);
        return;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t v = native::decode_to_binary64(p.g.src->id, abi::load_le(in + i * p.ib, p.ib));
        abi::store_le64(out + i * 8, v);
    }
}

/// The class of a source word a mismatch line names (" (NaN input)"), or "" for a normal number.
std::string input_class_note(const oracle::WordFormat &f, std::uint64_t w) {
    if (word_is_nan(f, w)) return " (NaN input)";
    if (word_is_inf(f, w)) return " (infinity)";
    if (word_is_subnormal(f, w)) return " (subnormal)";
    if (word_is_zero(f, w)) return " (zero)";
    return "";
}

/// One word that differs: NaN policy, class, bin, and the first mismatches kept. The caller
/// judged the word inside the rule's domain (sweep_in_domain).
void word_mismatch(const Plan &p, JobResult &jr, std::uint64_t src, std::uint64_t e, std::uint64_t a) {
    const auto &g = p.g;
    // The rule's NaN policy of the NaN principle (suites/nan_principle.hpp), as `run`.
    if (words_match(*g.dst, p.nan_policy, e, a)) {
        ++jr.nan_accepted;
        return;
    }
    auto &cmp = jr.cmp;
    // The tie test from the word's bits (native_tie, held equal to the oracle's by the tests);
    // classify_word_mismatch reads the source word only through these two bits.
    const bool subnormal = word_is_subnormal(*g.src, src), tie = g.conv && native_tie(*g.conv, src);
    auto &last = jr.last;
    if (e != last.e || a != last.a || subnormal != last.subnormal || tie != last.tie)
        last = {e, a, subnormal, tie, classify_word_mismatch(*g.dst, g.conv, src, e, a, g.src, native_tie)};
    const MismatchClass cls = last.cls;
    ++cmp.mismatches;
    ++jr.classes[static_cast<std::size_t>(cls)];
    const bool negative = g.src->has_sign && word_is_negative(*g.src, src);
    ++jr.bins[static_cast<std::size_t>(negative) * p.binades + static_cast<std::size_t>(binade_of(*g.src, src))];
    if (cmp.first.size() < p.o->max_mismatches) {
        cmp.first.push_back({
            .index = src - p.o->start,
            .plane = std::string(abi::plane_name(p.out_plane)),
            .inputs = {oracle::word_hex(*g.src, src)},
            .input_value = oracle::word_value_text(*g.src, src),
            .expected = oracle::word_hex(*g.dst, e),
            .actual = oracle::word_hex(*g.dst, a),
            .expected_value = word_is_nan(*g.dst, e) ? nan_text(*g.dst, e) : oracle::word_value_text(*g.dst, e),
            .actual_value = word_is_nan(*g.dst, a) ? nan_text(*g.dst, a) : oracle::word_value_text(*g.dst, a),
            .cls = mismatch_class_name(cls),
            .location = fmt::format("source word {}{}", oracle::word_hex(*g.src, src), input_class_note(*g.src, src)),
            .where = {.element = src - p.o->start},
        });
    }
}

/// Checks the reply of the batch first .. first+n-1.
void check_batch(const Plan &p, JobResult &jr, const Reply &r, std::uint64_t first, std::uint64_t n,
                 std::vector<std::uint8_t> &scratch) {
    const auto &g = p.g;
    const auto &o = *p.o;
    auto &cmp = jr.cmp;
    if (r.outcome != Outcome::returned || r.status != NINFER_OK) {
        // A dead or refusing batch: every word of it counts as a mismatch.
        const auto st = r.outcome == Outcome::crash     ? reports::Status::crash
                        : r.outcome == Outcome::timeout ? reports::Status::timeout
                                                        : reports::Status::error;
        if (r.outcome != Outcome::returned) {
            if (jr.status == reports::Status::pass) jr.status = st;
            if (jr.message.empty()) jr.message = fmt::format("batch at {}: {}", oracle::word_hex(*g.src, first), r.message);
        } else {
            if (jr.status == reports::Status::pass) jr.status = reports::Status::fail;
            ++cmp.classes[mismatch_class_name(MismatchClass::unexpected_error)];
            if (cmp.first.size() < o.max_mismatches)
                cmp.first.push_back({.index = first - o.start,
                                     .plane = "status",
                                     .inputs = {oracle::word_hex(*g.src, first)},
                                     .expected = abi::status_c_name(NINFER_OK),
                                     .actual = status_text(r.status),
                                     .cls = "unexpected_error",
                                     .location = fmt::format("batch at element {}", first - o.start),
                                     .where = {.element = first - o.start},
                                     .status_codes = reports::StatusCodes{.expected = NINFER_OK, .actual = r.status}});
        }
        cmp.mismatches += n;
        return;
    }
    const std::uint8_t *act = r.shared;
    std::uint64_t act_bytes = r.shared_bytes;
    if (!act) {
        const auto &v = r.output(p.out_plane);
        act = v.data();
        act_bytes = v.size();
    }
    const std::uint64_t ob = static_cast<std::uint64_t>(p.ob), ib = static_cast<std::uint64_t>(p.ib);
    if (act_bytes != n * ob) {
        ++cmp.mismatches;
        ++cmp.classes["size_mismatch"];
        if (cmp.first.size() < o.max_mismatches)
            cmp.first.push_back({.index = first - o.start,
                                 .plane = std::string(abi::plane_name(p.out_plane)),
                                 .expected = fmt::format("{} bytes", n * ob),
                                 .actual = fmt::format("{} bytes", act_bytes),
                                 .cls = "size_mismatch",
                                 .location = fmt::format("batch at element {}", first - o.start),
                                 .where = {.element = first - o.start}});
    }
    const std::uint64_t common = std::min<std::uint64_t>(n, act_bytes / ob);
    // The oracle's words for the whole batch (its threads), or the native words block by block
    // (in cache beside the block compared).
    const bool by_oracle = o.expected == SweepExpected::oracle;
    if (by_oracle) {
        scratch.resize(n * ob);
        if (o.op == NINFER_OP_convert) oracle::oracle_convert_range(g.conv->id, first, n, scratch.data(), p.oracle_threads);
        else oracle::oracle_decode_range(g.src->id, first, n, scratch.data(), p.oracle_threads);
    } else {
        scratch.resize(kBlock * (ib + ob));
    }
    for (std::uint64_t b = 0; b < common; b += kBlock) {
        const std::uint64_t k = std::min(kBlock, common - b);
        const std::uint8_t *exp = nullptr;
        if (by_oracle) {
            exp = scratch.data() + b * ob;
        } else {
            native_expected(p, first + b, k, scratch.data(), scratch.data() + kBlock * ib);
            exp = scratch.data() + kBlock * ib;
        }
        const std::uint8_t *got = act + b * ob;
        // A word outside the rule's domain is counted, never judged (`run` offers none): by
        // ranges on a block that compares equal, by the word's bits in one that differs.
        if (std::memcmp(exp, got, k * ob) == 0) {
            if (p.partial_domain) jr.not_judged += sweep_words_outside_domain(*g.conv, first + b, k);
            continue;
        }
        for (std::uint64_t i = 0; i < k; ++i) {
            const std::uint64_t src = first + b + i;
            if (p.partial_domain && !sweep_in_domain(*g.conv, src)) {
                ++jr.not_judged;
                continue;
            }
            const std::uint64_t e = abi::load_le(exp + i * ob, p.ob), a = abi::load_le(got + i * ob, p.ob);
            if (e != a) word_mismatch(p, jr, src, e, a);
        }
    }
}

/// Earlier batches of [begin, first) found at fault after they were checked (an exec subject's
/// late surplus reply, Subject::take_late_blames): errors, as a batch's own error would be.
void blame_late_batches(const Plan &p, JobResult &jr, Subject &s, std::uint64_t begin, std::uint64_t first) {
    for (const auto &b : s.take_late_blames()) {
        const std::uint64_t back = std::min<std::uint64_t>(b.calls_back, (first - begin) / p.o->batch);
        if (jr.status == reports::Status::pass) jr.status = reports::Status::error;
        if (jr.message.empty())
            jr.message = fmt::format("batch at {}: {}", oracle::word_hex(*p.g.src, first - back * p.o->batch), b.message);
    }
}

/// Sweeps [begin, end) in batches through one subject, `depth` batches in flight.
void sweep_part(Subject &s, const Plan &p, std::uint64_t begin, std::uint64_t end, JobResult &jr,
                SweepCounters &counters) {
    const auto &o = *p.o;
    std::vector<std::uint8_t> scratch;
    std::deque<std::pair<std::uint64_t, std::uint64_t>> in_flight;  // (first, n)
    std::uint64_t next = begin;
    const auto submit_next = [&] {
        const std::uint64_t n = std::min(o.batch, end - next);
        Call call;
        call.op = o.op;
        call.format = p.format;
        call.format_in = p.format_in;
        call.method = p.method;
        call.count = n;
        call.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
        call.iota = Iota{next, p.ib};
        call.outputs = {{p.out_plane, 0, n * static_cast<std::uint64_t>(p.ob)}};
        s.submit(call);
        in_flight.emplace_back(next, n);
        next += n;
    };
    const std::size_t depth = std::max<std::size_t>(1, s.pipeline_depth());
    while (next < end && in_flight.size() < depth) submit_next();
    while (!in_flight.empty()) {
        const auto [first, n] = in_flight.front();
        in_flight.pop_front();
        const Reply r = s.collect();
        if (jr.stopped) continue;  // batches in flight when the bound was reached: collected, not judged
        // The worker computes the next batch meanwhile; its slot is free again once checked.
        const std::uint64_t mismatches_before = jr.cmp.mismatches;
        check_batch(p, jr, r, first, n, scratch);
        blame_late_batches(p, jr, s, begin, first);
        counters.mismatches += jr.cmp.mismatches - mismatches_before;
        counters.words += n;
        if (o.max_failures) {
            jr.batch_ends.emplace_back(first + n, jr.cmp.mismatches);
            jr.stopped = jr.cmp.mismatches >= o.max_failures;
        }
        if (next < end && !jr.stopped) submit_next();
    }
}

std::string shard_text(const SweepOptions &o) { return fmt::format("{}/{}", o.shard_index, o.shard_count); }

/// The rule judged: a NaN profile rule of the conversion instead of its own with --nan-payload
/// or --nan-sign (oracle/README.md), never both.
void apply_profile_rule(Geometry &g, const SweepOptions &o) {
    if (o.nan_payload) {
        if (o.op != NINFER_OP_convert || !suites::nan_principle(*g.conv).payload_profile)
            throw UsageError(fmt::format("--nan-payload: {} has no NaN payload profile (oracle/README.md)", g.rule));
        g.rule = suites::nan_payload_rule(*g.conv);
    }
    if (o.nan_sign && o.nan_payload) throw UsageError("--nan-sign with --nan-payload: a sweep judges one profile rule");
    if (o.policy && (o.nan_sign || o.nan_payload))
        throw UsageError("--policy with --nan-payload or --nan-sign: the policy decides every NaN word");
    if (o.policy && o.expected == SweepExpected::oracle)
        throw UsageError("--policy with --expected oracle: the policy's words come from the oracle's lattice already");
    if (o.nan_sign) {
        if (o.op != NINFER_OP_convert || !suites::nan_principle(*g.conv).sign_profile)
            throw UsageError(fmt::format("--nan-sign: {} has no NaN sign profile (oracle/README.md)", g.rule));
        g.rule = suites::nan_sign_rule(*g.conv);
    }
}

/// The rule's NaN policy of the NaN principle, as `run` (decode too: suites/nan_principle.hpp).
suites::NanPolicy nan_policy_of(const SweepOptions &o, const Geometry &g) {
    return o.nan_payload || o.policy      ? suites::NanPolicy::exact
           : o.nan_sign                ? suites::NanPolicy::same_sign
           : o.op == NINFER_OP_convert ? suites::nan_principle(*g.conv).policy
                                       : suites::decode_nan_principle(*g.src).policy;
}

/// The words swept: the whole range [start, start + count) and this report's part of it
/// (docs/cli.md, "Shards").
struct Range {
    std::uint64_t count = 0, part_begin = 0, part_end = 0;
    std::uint64_t part_count() const { return part_end - part_begin; }
};

/// The range of --start, --count and --shard, checked against the source domain (and --batch).
Range range_of(const SweepOptions &o, const Geometry &g) {
    const std::uint64_t domain = source_domain(o);
    if (o.start >= domain) throw UsageError(fmt::format("--start {:x} is outside the {}-bit source domain", o.start, g.src->bits));
    Range r;
    r.count = o.count.value_or(domain - o.start);
    if (r.count == 0 || r.count > domain - o.start)
        throw UsageError(fmt::format("--count {} does not fit the source domain of {} words from {:x}", r.count, domain, o.start));
    const bool sharded = o.shard_count > 0;
    if (sharded && o.shard_index >= o.shard_count)
        throw UsageError(fmt::format("--shard {}: the index must be below the count (I/N with 0 <= I < N)", shard_text(o)));
    if (o.batch == 0) throw UsageError("--batch 0: a batch holds at least one word");
    const auto cut = [&](std::uint64_t i) {
        return static_cast<std::uint64_t>(static_cast<unsigned __int128>(r.count) * i / o.shard_count);
    };
    r.part_begin = o.start + (sharded ? cut(o.shard_index) : 0);
    r.part_end = sharded ? o.start + cut(o.shard_index + 1) : o.start + r.count;
    return r;
}

/// The report's header: the subject, what was swept over which range, judged against what.
void describe_sweep(reports::Report &rep, Subject &s, const SweepOptions &o, const reports::SubjectIdentity &id,
                    const Geometry &g, const Range &r) {
    rep.kind = "sweep";
    rep.tool_version = suite_version();
    rep.subject = id;
    rep.open_error = s.open_error();
    rep.level = "sweep";
    rep.host = reports::host_description();
    rep.extra = {{"sweep", g.rule},
                 {"start", oracle::word_hex(*g.src, o.start)},
                 {"count", std::to_string(r.count)},
                 {"expected", o.policy ? "policy" : o.expected == SweepExpected::oracle ? "oracle" : "native"},
                 {"max_mismatches", std::to_string(o.max_mismatches)}};
    if (o.shard_count > 0) {
        rep.extra["shard"] = shard_text(o);
        rep.extra["shard_start"] = oracle::word_hex(*g.src, r.part_begin);
        rep.extra["shard_count"] = std::to_string(r.part_count());
    }
}

/// The one case "<rule>/sweep", before its verdict: the rule's sentence, as `run` writes its cases.
reports::CaseResult sweep_case(const SweepOptions &o, const Geometry &g, const Range &r) {
    reports::CaseResult cr;
    cr.id = fmt::format("{}/sweep", g.rule);
    cr.rule = g.rule;
    const auto *rule = suites::find_rule(g.rule);
    cr.sentence = rule ? rule->sentence : "(rule not in the catalog)";
    cr.suite_reading = rule && rule->suite_reading;  // as `run` marks the rule's cases
    cr.suite = "sweep";
    cr.source = fmt::format("exhaustive [{}, +{})", oracle::word_hex(*g.src, o.start), r.count);
    cr.elements = r.part_count();
    return cr;
}

/// The call of every batch: convert names the conversion and its formats, decode the format.
void set_batch_call(Plan &p) {
    const bool convert = p.o->op == NINFER_OP_convert;
    p.format = convert ? p.g.conv->dst : p.g.src->id;
    p.format_in = convert ? p.g.conv->src : 0;
    p.method = convert ? p.g.conv->id : 0;
    p.out_plane = convert ? NINFER_PLANE_WORDS : NINFER_PLANE_VALUES;
}

using Clock = std::chrono::steady_clock;

/// The live line while the jobs run: words done, share, mismatches so far, rate and ETA.
std::string sweep_progress_text(const std::string &rule, std::uint64_t total, const SweepCounters &c, Clock::time_point t0) {
    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto d = c.words.load();
    const double rate = sec > 0 ? static_cast<double>(d) / sec : 0;
    const std::string eta = d == 0 || rate <= 0 ? "ETA unknown" : "ETA " + duration_text(static_cast<double>(total - d) / rate);
    return fmt::format("sweep {}: {}/{} words ({:.1f}%), {} mismatches, {:.3g} words/s, {}", rule, d, total,
                       100.0 * static_cast<double>(d) / static_cast<double>(total), c.mismatches.load(), rate, eta);
}

/// --max-failures: the end of the batch (of --jobs 1's batches) in which the bound is reached,
/// counting mismatches in word order; jobs past it are dropped, and the job holding it is
/// swept again up to it when it ran on (it stopped on its own count). 0 when never reached.
std::uint64_t cut_at_max_failures(Subject &s, const Plan &plan, std::vector<JobResult> &parts,
                                  const std::vector<std::uint64_t> &job_begin) {
    const std::uint64_t bound = plan.o->max_failures;
    std::uint64_t before = 0;
    for (std::size_t j = 0; j < parts.size(); ++j) {
        if (before + parts[j].cmp.mismatches < bound) {
            before += parts[j].cmp.mismatches;
            continue;
        }
        const auto &ends = parts[j].batch_ends;
        const auto at = std::find_if(ends.begin(), ends.end(), [&](const auto &e) { return before + e.second >= bound; });
        if (at == ends.end()) return 0;  // a job that failed to start: its words count, it holds no batch
        const std::uint64_t cut = at->first;
        if (cut != ends.back().first) {
            SweepOptions again = *plan.o;
            again.max_failures = bound - before;
            Plan p = plan;
            p.o = &again;
            JobResult redo;
            redo.bins.assign(plan.bins_size(), 0);
            SweepCounters ignored;
            sweep_part(s, p, job_begin[j], cut, redo, ignored);
            parts[j] = std::move(redo);
        }
        parts.resize(j + 1);
        return cut;
    }
    return 0;
}

/// The jobs' results in range order, and the end of the words judged under --max-failures
/// (0: the whole part).
struct Jobs {
    std::vector<JobResult> parts;
    std::uint64_t cut = 0;
};

/// Sweeps the part in contiguous runs of whole batches, one per job (the batches are those of
/// --jobs 1); job 0 on `s`, the others on subjects of open_more in their threads.
Jobs run_jobs(Subject &s, Plan &plan, const Range &r, const std::function<std::unique_ptr<Subject>()> &open_more,
              Clock::time_point t0) {
    const auto &o = *plan.o;
    const std::uint64_t part_count = r.part_count();
    const std::uint64_t batches = (part_count + o.batch - 1) / o.batch;
    const std::uint64_t jobs = std::clamp<std::uint64_t>(open_more ? o.jobs : 1, 1, batches);
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    plan.oracle_threads = std::max<unsigned>(1, hw / static_cast<unsigned>(jobs));
    std::vector<JobResult> parts(jobs);
    for (auto &jr : parts) jr.bins.assign(plan.bins_size(), 0);
    SweepCounters counters;
    std::vector<std::uint64_t> job_begin(jobs + 1);
    for (std::uint64_t j = 0; j <= jobs; ++j)
        job_begin[j] = r.part_begin + std::min(part_count, static_cast<std::uint64_t>(static_cast<unsigned __int128>(batches) * j / jobs) * o.batch);
    const auto run_job = [&](std::uint64_t j) {
        const std::uint64_t b = job_begin[j], e = job_begin[j + 1];
        try {
            if (j == 0) return sweep_part(s, plan, b, e, parts[j], counters);
            auto more = open_more();
            if (!more->open_error().empty()) {
                // A worker that cannot start: its batches are lost, as a dead batch.
                parts[j].status = reports::Status::error;
                parts[j].message = fmt::format("batch at {}: {}", oracle::word_hex(*plan.g.src, b), more->open_error());
                parts[j].cmp.mismatches = e - b;
                if (o.max_failures) parts[j].batch_ends.emplace_back(e, e - b);
                counters.words += e - b;
                counters.mismatches += e - b;
                return;
            }
            sweep_part(*more, plan, b, e, parts[j], counters);
        } catch (const std::exception &ex) {
            parts[j].status = reports::Status::error;
            parts[j].message = fmt::format("harness: {}", ex.what());
        }
    };
    std::vector<std::thread> threads;
    for (std::uint64_t j = 1; j < jobs; ++j) threads.emplace_back(run_job, j);
    ProgressLine progress(o.live_progress,
                          [&plan, part_count, &counters, t0] { return sweep_progress_text(plan.g.rule, part_count, counters, t0); });
    run_job(0);
    for (auto &t : threads) t.join();
    progress.finish();
    Jobs out;
    if (o.max_failures) out.cut = cut_at_max_failures(s, plan, parts, job_begin);
    out.parts = std::move(parts);
    return out;
}

/// The jobs' results merged in range order, as one job over the part finds them: the first
/// non-pass status, the first message, the first mismatches up to the cap.
JobResult merge_jobs(std::vector<JobResult> &parts, std::size_t max_mismatches) {
    JobResult all;
    for (auto &jr : parts) {
        all.cmp.mismatches += jr.cmp.mismatches;
        for (const auto &[k, v] : jr.cmp.classes) all.cmp.classes[k] += v;
        for (std::size_t k = 0; k < kClasses; ++k) all.classes[k] += jr.classes[k];
        for (auto &m : jr.cmp.first)
            if (all.cmp.first.size() < max_mismatches) all.cmp.first.push_back(std::move(m));
        all.bins.resize(jr.bins.size());
        for (std::size_t k = 0; k < jr.bins.size(); ++k) all.bins[k] += jr.bins[k];
        all.nan_accepted += jr.nan_accepted;
        all.not_judged += jr.not_judged;
        if (all.status == reports::Status::pass) all.status = jr.status;
        if (all.message.empty()) all.message = jr.message;
    }
    return all;
}

/// The verdict of the case and the report's mismatch histogram (extra "binade", "binades",
/// "mismatch_bins") from the merged jobs.
void record_verdict(reports::Report &rep, reports::CaseResult &cr, JobResult &all, const Plan &p) {
    const auto &g = p.g;
    cr.status = all.status;
    cr.message = all.message;
    rep.extra["binade"] = g.src->exp_bits > 0 ? "exponent field" : "bit length";
    rep.extra["binades"] = std::to_string(g.src->exp_bits > 0 ? (1 << g.src->exp_bits) : g.src->bits + 1);
    reports::MismatchBins bins;
    for (std::size_t k = 0; k < all.bins.size(); ++k)
        if (all.bins[k]) bins[{k >= p.binades, static_cast<int>(k % p.binades)}] = all.bins[k];
    rep.extra["mismatch_bins"] = reports::mismatch_bins_text(bins);
    for (std::size_t k = 0; k < kClasses; ++k)
        if (all.classes[k]) all.cmp.classes[mismatch_class_name(static_cast<MismatchClass>(k))] += all.classes[k];
    cr.mismatches = all.cmp.mismatches;
    cr.first = std::move(all.cmp.first);
    cr.classes = std::move(all.cmp.classes);
    if (all.nan_accepted) {
        cr.nan_policy = suites::nan_policy_name(p.nan_policy);
        cr.nan_accepted = all.nan_accepted;
    }
    if (all.not_judged) {
        cr.not_judged = all.not_judged;
        cr.not_judged_why = fmt::format("outside the conversion's domain ({}: {})", suites::nan_principle(*g.conv).result,
                                        suites::nan_principle(*g.conv).decided_by);
    }
    if (cr.status == reports::Status::pass && cr.mismatches) cr.status = reports::Status::fail;
}

}  // namespace

SweepResult run_sweep(Subject &s, const SweepOptions &o, const reports::SubjectIdentity &id,
                      const std::function<std::unique_ptr<Subject>()> &open_more) {
    // 1. What is judged: the rule, its NaN policy, the range and this report's part of it.
    Plan plan;
    plan.o = &o;
    Geometry &g = plan.g;
    g = geometry_of(o);
    apply_profile_rule(g, o);
    plan.nan_policy = nan_policy_of(o, g);
    plan.partial_domain = o.op == NINFER_OP_convert && suites::conversion_domain_is_partial(*g.conv);
    const Range range = range_of(o, g);
    const std::uint64_t part_count = range.part_count();
    plan.ib = g.src->bytes();
    plan.ob = g.dst->bytes();
    plan.binades = g.src->exp_bits > 0 ? std::size_t{1} << g.src->exp_bits : static_cast<std::size_t>(g.src->bits) + 1;

    // 2. The report and its one case, before the verdict.
    SweepResult res;
    auto &rep = res.report;
    describe_sweep(rep, s, o, id, g, range);
    rep.started_at = reports::utc_now();
    reports::CaseResult cr = sweep_case(o, g, range);

    // 3. The sweep: refused when the subject did not open or does not declare the call.
    set_batch_call(plan);
    std::uint64_t swept = part_count;
    const auto t0 = Clock::now();
    if (!rep.open_error.empty()) {
        cr.status = reports::Status::error;
        cr.message = rep.open_error;
    } else if (!covers(s.info().capabilities, o.op, plan.format, plan.format_in, NINFER_LAYOUT_NONE, plan.method)) {
        cr.status = reports::Status::unsupported;
        cr.message = "the subject does not declare this " + std::string(oracle::op_name(o.op));
    } else {
        auto jobs = run_jobs(s, plan, range, open_more, t0);
        JobResult all = merge_jobs(jobs.parts, o.max_mismatches);
        if (jobs.cut) {
            // --max-failures: the words judged end with the batch that reached the bound.
            swept = jobs.cut - range.part_begin;
            cr.elements = swept;
            rep.extra["stopped"] = fmt::format("--max-failures {}: stopped after the batch ending at word {} "
                                               "({} of {} words judged)", o.max_failures,
                                               oracle::word_hex(*g.src, jobs.cut - 1), swept, part_count);
        }
        if (o.progress) {
            const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
            std::fprintf(stderr, "sweep %s: %llu/%llu words (%.1f%%), %llu mismatches, %.3g words/s\n", g.rule.c_str(),
                         static_cast<unsigned long long>(swept), static_cast<unsigned long long>(part_count),
                         100.0 * static_cast<double>(swept) / static_cast<double>(part_count),
                         static_cast<unsigned long long>(all.cmp.mismatches), static_cast<double>(swept) / sec);
        }
        record_verdict(rep, cr, all, plan);
    }

    // 4. Timings and totals.
    res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    // A subject that never started (or declared no such call) swept no word: no speed either.
    const bool started = rep.open_error.empty() && cr.status != reports::Status::unsupported;
    res.words = started ? swept : 0;
    res.words_per_second = started && res.seconds > 0 ? static_cast<double>(swept) / res.seconds : 0;
    rep.duration_s = res.seconds;
    rep.finished_at = reports::utc_now();
    rep.cases.push_back(std::move(cr));
    reports::finalize(rep);
    return res;
}

}  // namespace ninfer::harness
