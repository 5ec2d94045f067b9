// SPDX-License-Identifier: Apache-2.0
// The stochastic-rounding convention of a subject (issue 34 item 2; suites/SR.md "Conventions").
#include "ninfer/harness/sr_fingerprint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "ninfer/harness/fingerprint.hpp"  // grouped
#include "ninfer/harness/sr_run.hpp"
#include "ninfer/oracle/fingerprint_lattice.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/sr_conventions.hpp"

namespace ninfer::harness {

namespace {

/// The probes' inputs: on the grid's fine side (no bit below 2^(q - r)) and with bits below it.
std::vector<std::uint32_t> probe_inputs(const oracle::Conversion &c) {
    const int r = abi::sr_random_bits(c.id);
    const auto &dst = oracle::word_format(c.dst);
    const int emin = 1 - dst.bias;
    const int q = emin - dst.man_bits;  // the subnormal quantum Q = 2^q
    std::vector<std::uint32_t> xs = {0x3F800000u | (1u << (r - 1)), 0x3F800000u | (1u << (r - 2)), 0x3F800000u | 255u,
                                     0x3F800000u | 15u, 0x3F800000u | (1u << (r - 1)) | 1u};
    // subnormal results Q (1 + 1/4) and Q (1 + 3/4), each plus the input's last place: a rule of
    // its own below the normal range that rounds to nearest parts from pattern_add only above the
    // midpoint (issue 34: with the 1/4 probe alone mutant_sr_subnormal_nearest was named pattern_add)
    for (const std::uint32_t fraction : {1u << 21, 3u << 21}) {
        if (q >= -126) xs.push_back(static_cast<std::uint32_t>(q + 127) << 23 | fraction | 1u);
        else if (q >= -147) xs.push_back(1u << (q + 149) | fraction >> (-126 - q) | 1u);  // a binary32 subnormal
    }
    const std::size_t positive = xs.size();
    for (std::size_t i = 0; i < positive; ++i) xs.push_back(xs[i] | 0x80000000u);
    return xs;
}

/// The random values of the probes: the edges of r bits and of 32, and 8 drawn from a fixed seed.
std::vector<std::uint32_t> probe_randoms(int r) {
    std::vector<std::uint32_t> rs = {0u, (1u << r) - 1, 1u << (r - 1), 0xFFFFFFFFu, (1u << r) - 2};
    std::mt19937 g(34);
    for (int i = 0; i < 8; ++i) rs.push_back(static_cast<std::uint32_t>(g()));
    return rs;
}

/// For every k < r, inputs where gfloat's modes at k part (their words differ only at the random
/// values beside a k-bit threshold): 1 + half a unit of 2^(q - k) (nearest-even keeps it down,
/// StochasticFast carries it at R = 2^k - 1, odd makes it a unit) and an input drawn from a fixed
/// seed, at R = T and T - 1, T the threshold of its top k dropped bits (issue 34: without them
/// gfloat_stochastic_fast at k = 12 was named gfloat_stochastic).
void add_k_probes(int r, std::vector<std::uint32_t> &xs, std::vector<std::uint32_t> &rs) {
    std::mt19937 g(3402);
    for (int k = 1; k < r; ++k) {
        const std::uint32_t span = 1u << k, half = 0x3F800000u | 1u << (r - k - 1);
        const std::uint32_t drawn = 0x3F800000u | (static_cast<std::uint32_t>(g()) & 0x7FFFFFu);
        const std::uint32_t threshold = span - ((drawn >> (r - k)) & (span - 1));
        for (const auto &[x, R] : {std::pair{half, span - 1}, {half, span - 2}, {drawn, threshold}, {drawn, threshold - 1}}) {
            xs.push_back(x);
            rs.push_back(R);
        }
    }
}

/// Ups among n self-drawn words of x (down is the word at R = 0).
std::string count_ups(Subject &s, const oracle::Conversion &c, std::uint32_t x, std::uint64_t n, std::uint64_t &ups,
                      std::uint64_t &drawn) {
    const auto down = oracle::convert_word_sr(c, x, 0);
    ups = 0;
    for (std::uint64_t done = 0; done < n;) {
        const std::uint64_t lanes = std::min<std::uint64_t>(n - done, 1u << 16);
        std::vector<std::uint64_t> words;
        if (auto e = draw_self(s, c, x, lanes, words); !e.empty()) return e;
        drawn += lanes;
        for (const auto w : words) ups += w == down + 1 ? 1 : 0;
        done += lanes;
    }
    return "";
}

}  // namespace

SrConventionMatch sr_convention_given_bits(Subject &s, const oracle::Conversion &c) {
    SrConventionMatch out;
    const auto xs0 = probe_inputs(c);
    const auto rs0 = probe_randoms(abi::sr_random_bits(c.id));
    std::vector<std::uint32_t> xs, rs;
    for (const auto x : xs0)
        for (const auto r : rs0) {
            xs.push_back(x);
            rs.push_back(r);
        }
    // each input at the random values beside its threshold under the suite's rule (an off-by-one
    // comparison differs only there), and an exact input at the largest random values
    const std::uint64_t span = std::uint64_t{1} << abi::sr_random_bits(c.id);
    for (const auto x : xs0) {
        std::uint64_t lo = 0, hi = span;  // the smallest R that rounds up (span: none)
        const auto down = oracle::convert_word_sr(c, x, 0);
        while (lo < hi) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (oracle::convert_word_sr(c, x, static_cast<std::uint32_t>(mid)) == down) lo = mid + 1;
            else hi = mid;
        }
        for (const std::uint64_t t : {lo - 1, lo})
            if (t < span) {
                xs.push_back(x);
                rs.push_back(static_cast<std::uint32_t>(t));
            }
    }
    for (const std::uint32_t x : {0x3F800000u, 0xBF800000u})
        for (const std::uint32_t r : {static_cast<std::uint32_t>(span - 1), 0xFFFFFFFFu}) {
            xs.push_back(x);
            rs.push_back(r);
        }
    add_k_probes(abi::sr_random_bits(c.id), xs, rs);
    std::vector<std::uint64_t> words;
    out.error = convert_lanes(s, c, xs, &rs, words);
    out.probes = xs.size();
    if (!out.error.empty()) return out;
    const int r = abi::sr_random_bits(c.id);
    // the probes a convention at k gives the subject's word on (the nearest is kept)
    const auto matched = [&](const oracle::SrConvention &v, int k) {
        std::uint64_t m = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) m += oracle::convert_word_sr_as(c, xs[i], rs[i], v, k) == words[i];
        if (m > out.nearest_matched) {
            out.nearest_matched = m;
            out.nearest = k ? fmt::format("{} (k = {})", v.name, k) : std::string(v.name);
            if (out.names.empty()) out.k = k ? k : (v.k ? v.k : r);
        }
        return m == xs.size();
    };
    const std::string_view dst = oracle::word_format(c.dst).name;
    for (const auto &v : oracle::kSrConventions) {
        if (!v.targets.empty() && v.targets.find(dst) == std::string_view::npos) continue;  // documented for other targets
        if (matched(v, 0)) {
            if (out.names.empty()) out.k = v.k ? v.k : r;
            out.names.emplace_back(v.name);
            continue;
        }
        // a convention whose k is a parameter (gfloat's srnumbits): the k < r that fits, if one does
        if (v.k != 0 || v.place != oracle::SrPlace::result_quantum || v.name == "ninfer") continue;
        for (int k = r - 1; k >= 1; --k)
            if (matched(v, k)) {
                if (out.names.empty()) out.k = k;
                out.names.push_back(fmt::format("{} (k = {})", v.name, k));
                break;
            }
    }
    return out;
}

SrEstimate sr_convention_self_drawn(Subject &s, const oracle::Conversion &c) {
    SrEstimate out;
    const int r = abi::sr_random_bits(c.id);
    constexpr std::uint64_t kBudget = 1ull << 21;  // draws per probe at most
    out.k_min = 0;
    out.k_max = r;
    bool sticky = false;
    // the dropped bit 2^j, from the top down: the first that never rounds up bounds k
    for (int j = r - 1; j >= 0; --j) {
        const std::uint64_t n = 1ull << (r - j + 4);  // 16 ups expected under k = r
        if (n > kBudget) {
            out.k_min = r - j - 1;  // every bit down to 2^(j + 1) rounded up: k >= r - j - 1
            break;
        }
        std::uint64_t ups = 0;
        if (out.error = count_ups(s, c, 0x3F800000u | (1u << j), n, ups, out.draws); !out.error.empty()) return out;
        if (ups == 0) {
            out.k_min = out.k_max = r - j - 1;
            break;
        }
        // far above the 16 of the law (P(Poisson(16) > 64) < 1e-17): every bit below 2^(q - k) rounds
        // up as a whole, a sticky bit (gfloat's StochasticOdd): P(up) = 2^-k read from the count
        if (ups > 64) {
            out.k_min = out.k_max = static_cast<int>(std::lround(std::log2(static_cast<double>(n) / static_cast<double>(ups))));
            sticky = true;
            break;
        }
        if (j == 0) out.k_min = r;
    }
    const std::uint64_t n = 1ull << 16;
    std::uint64_t ups = 0;
    if (out.error = count_ups(s, c, 0x3F800000u | (1u << (r - 2)), n, ups, out.draws); !out.error.empty()) return out;
    out.quarter_bias = static_cast<double>(ups) / static_cast<double>(n) - 0.25;
    out.quarter_error = std::sqrt(3.0 / 16.0 / static_cast<double>(n));
    // the conventions of that k documented for this target (those without a k: at k = r)
    const std::string_view dst = oracle::word_format(c.dst).name;
    for (const auto &v : oracle::kSrConventions) {
        const bool for_dst = v.targets.empty() || v.targets.find(dst) != std::string_view::npos;
        const int k = v.k && v.k < r ? v.k : r;
        if (out.k_min == out.k_max && k == out.k_min && for_dst && (v.k == 0 || v.k < r)) out.names.emplace_back(v.name);
    }
    if (sticky) out.names = {fmt::format("gfloat_stochastic_odd (srnumbits = {})", out.k_min)};
    if (out.k_min == out.k_max && out.k_min < r && out.names.empty())
        out.names.push_back(fmt::format("gfloat_stochastic_fastest (srnumbits = {})", out.k_min));
    return out;
}

std::string describe(const SrEstimate &e, const oracle::Conversion &c) {
    const int r = abi::sr_random_bits(c.id);
    std::string names;
    for (const auto &n : e.names) names += (names.empty() ? "" : ", ") + n;
    const std::string k = e.k_min == e.k_max ? fmt::format("k = {}", e.k_min) : fmt::format("k in {}..{}", e.k_min, e.k_max);
    return fmt::format("{}: self-drawn, {} of r = {}, bias {:+.4f} +- {:.4f} at the quarter{}{}", c.name, k, r,
                       e.quarter_bias, e.quarter_error, names.empty() ? "" : ": ", names);
}

namespace {

/// The record's coordinates other than the convention: the conversion's overflow and NaN rule.
reports::Fingerprint sr_record(const oracle::Conversion &c, const std::string &domain) {
    namespace lattice = oracle::lattice;
    const auto shape = lattice::conversion_shape(c);
    const auto policy = lattice::conversion_policy(c);
    reports::Fingerprint f;
    f.op = "convert";
    f.conversion = std::string(c.name);
    f.source = std::string(shape.src->name);
    f.target = std::string(shape.dst->name);
    f.domain = domain;
    f.rounding = "sr";
    f.overflow = lattice::overflow_name(policy.overflow);
    f.subnormals = "kept";
    f.nan = lattice::nan_name(shape, policy);
    return f;
}

/// "NAME: k = 16 at the result's quantum, bits below truncated; one random value per lane" of a
/// convention as sr_convention_given_bits names it ("gfloat_stochastic_fastest (k = 8)": k given).
std::string convention_text(const std::string &name, int r) {
    const auto space = name.find(' ');
    const auto v = oracle::find_sr_convention(std::string_view(name).substr(0, space));
    if (!v) return name;
    const int k = space != std::string::npos ? std::atoi(name.c_str() + name.rfind('=') + 1) : (v->k ? v->k : r);
    static const char *const places[] = {"at the result's quantum", "at the input's last place",
                                         "at the input's last place, r bits"};
    static const char *const reduces[] = {"bits below truncated", "bits below rounded to nearest-even",
                                          "bits below rounded to odd", "half offset"};
    return fmt::format("{}: k = {} {}, {}; {}", name, k, places[static_cast<int>(v->place)], reduces[static_cast<int>(v->reduce)],
                       v->lanes);
}

}  // namespace

reports::Fingerprint sr_fingerprint(Subject &s, const oracle::Conversion &c, std::string &error) {
    const int r = abi::sr_random_bits(c.id);
    const bool given = covers(s.info().capabilities, NINFER_OP_convert, c.dst, c.src, 0, c.id, 0);
    if (!given) {
        const SrEstimate e = sr_convention_self_drawn(s, c);
        error = e.error;
        reports::Fingerprint f = sr_record(c, "sr_draws");
        f.inputs = e.draws;
        f.sr = reports::SrFingerprint{"self_drawn", r, e.k_min, e.k_max, e.quarter_bias, e.quarter_error, e.names};
        f.named = e.names.empty() ? "" : e.names[0];
        for (std::size_t i = 1; i < e.names.size(); ++i) f.equivalent.push_back(e.names[i]);
        f.policy_text = "stochastic, " + describe(e, c).substr(c.name.size() + 2);
        f.sentence = fmt::format("convert {} (sr draws: {} self-drawn lanes): estimates {}", c.name, fingerprint::grouped(e.draws),
                                 f.policy_text);
        return f;
    }
    const SrConventionMatch m = sr_convention_given_bits(s, c);
    error = m.error;
    reports::Fingerprint f = sr_record(c, "sr_probes");
    f.inputs = m.probes;
    f.matched = m.nearest_matched;
    const int k = m.names.empty() ? 0 : m.k;  // no convention fits: no k
    f.sr = reports::SrFingerprint{"given", r, k, k, 0, 0, m.names};
    f.named = m.names.empty() ? "" : m.names[0];
    for (std::size_t i = 1; i < m.names.size(); ++i) f.equivalent.push_back(convention_text(m.names[i], r));
    const std::string head = m.names.empty() ? m.nearest : m.names[0];
    f.policy_text = "stochastic, convention " + convention_text(head, r);
    f.sentence = fmt::format("convert {} (sr probes: given random values, r = {}): {} {} on {} of {} probes", c.name, r,
                             m.names.empty() ? "matches no named convention; nearest" : "matches", f.policy_text,
                             fingerprint::grouped(f.matched), fingerprint::grouped(f.inputs));
    return f;
}

}  // namespace ninfer::harness
