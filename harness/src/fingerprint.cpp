// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): the factorised counters,
// the choice of the policy, the residue by input class and the sentence.
#include "ninfer/harness/fingerprint.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <bit>
#include <fmt/format.h>
#include <thread>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/harness/progress.hpp"
#include "ninfer/oracle/scalar.hpp"

namespace ninfer::harness::fingerprint {

using lattice::InputClass;
using lattice::NanChoice;
using lattice::Policy;

namespace {

template <class T>
std::size_t index_of(const std::vector<T> &v, T x) {
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

/// Keep the earlier of two first mismatches and add the counts.
void merge_cell(Cell &into, const Cell &c) {
    into.mismatches += c.mismatches;
    if (c.first_index < into.first_index) {
        into.first_index = c.first_index;
        into.input = c.input;
        into.expected = c.expected;
        into.actual = c.actual;
    }
}

void record(Cell &c, std::uint64_t index, std::uint64_t input, std::uint64_t expected, std::uint64_t actual) {
    merge_cell(c, Cell{1, index, input, expected, actual});
}

bool source_has_nan(const oracle::WordFormat &f) { return f.special != oracle::Special::NONE && f.special != oracle::Special::INT; }

std::string hex(const oracle::WordFormat &f, std::uint64_t w) { return "0x" + oracle::word_hex(f, w); }

}  // namespace

lattice::Shape Target::shape() const {
    return op == NINFER_OP_decode ? lattice::decode_shape(*format) : lattice::conversion_shape(*conversion);
}

lattice::Policy Target::named_policy() const {
    return op == NINFER_OP_decode ? lattice::decode_policy(*format) : lattice::conversion_policy(*conversion);
}

std::string Target::name() const { return op == NINFER_OP_decode ? std::string(format->name) : std::string(conversion->name); }

namespace {

/// The 11-bit fraction tops with at most two bits set, increasing (the sparse sample).
const std::vector<std::uint64_t> &sparse_tops() {
    static const std::vector<std::uint64_t> tops = [] {
        std::vector<std::uint64_t> v;
        for (std::uint64_t t = 0; t < 2048; ++t)
            if (std::popcount(t) <= 2) v.push_back(t);
        return v;
    }();
    return tops;
}

/// The 2048 11-bit fraction tops in graded order: fewest bits set first, then increasing (the budget sample).
const std::vector<std::uint64_t> &graded_tops() {
    static const std::vector<std::uint64_t> tops = [] {
        std::vector<std::uint64_t> v(2048);
        for (std::uint64_t t = 0; t < 2048; ++t) v[t] = t;
        std::stable_sort(v.begin(), v.end(), [](std::uint64_t a, std::uint64_t b) { return std::popcount(a) < std::popcount(b); });
        return v;
    }();
    return tops;
}

/// A top's rank in graded order.
std::uint32_t graded_rank(std::uint64_t top) {
    static const std::vector<std::uint32_t> rank = [] {
        std::vector<std::uint32_t> r(2048);
        for (std::uint32_t i = 0; i < 2048; ++i) r[graded_tops()[i]] = i;
        return r;
    }();
    return rank[top & 0x7FF];
}

/// The sample's size, before `extra`.
std::uint64_t sample_size(const Domain &d, const oracle::WordFormat &src) {
    constexpr std::uint64_t lows = std::size(kStratifiedLow);
    switch (d.kind) {
    case Domain::Kind::all: return src.bits >= 64 ? ~0ull : 1ull << src.bits;
    case Domain::Kind::stratified: return (1ull << 20) * lows;
    case Domain::Kind::sparse: return 512 * sparse_tops().size() * lows;
    case Domain::Kind::budget: return 512ull * d.tops * lows;
    }
    return 0;
}

}  // namespace

std::uint64_t Domain::size(const oracle::WordFormat &src) const { return sample_size(*this, src) + extra.size(); }

bool Domain::holds(const oracle::WordFormat &src, std::uint64_t w) const {
    if (kind == Kind::all) return w < sample_size(*this, src);
    if (std::find(std::begin(kStratifiedLow), std::end(kStratifiedLow), w & 0xFFF) == std::end(kStratifiedLow)) return false;
    switch (kind) {
    case Kind::sparse: return std::popcount((w >> 12) & 0x7FF) <= 2;
    case Kind::budget: return graded_rank(w >> 12) < tops;
    default: return true;
    }
}

std::string Domain::text() const {
    std::string base = name() + " domain";
    if (kind == Kind::budget) base += fmt::format(" ({} of 2 048 fraction tops)", grouped(tops));
    if (extra.empty()) return base;
    return fmt::format("{} + {} {} input{}", base, grouped(extra.size()), extra_are_case_inputs ? "case" : "failed",
                       extra.size() == 1 ? "" : "s");
}

std::uint64_t Domain::word(std::uint64_t index) const {
    constexpr std::uint64_t lows = std::size(kStratifiedLow);
    if (!extra.empty() && kind != Kind::all) {  // a 32-bit sample: its size does not depend on the format
        const std::uint64_t base = sample_size(*this, oracle::kBinary64);
        if (index >= base) return extra[index - base];
    }
    const std::uint64_t low = kStratifiedLow[index % lows], k = index / lows;
    switch (kind) {
    case Kind::all: return index;
    case Kind::stratified: return k << 12 | low;
    case Kind::sparse: {
        const auto &tops = sparse_tops();
        return ((k / tops.size()) << 11 | tops[k % tops.size()]) << 12 | low;  // sign and exponent, fraction top
    }
    case Kind::budget: return ((k / tops) << 11 | graded_tops()[k % tops]) << 12 | low;
    }
    return 0;
}

std::string Domain::name() const {
    switch (kind) {
    case Kind::all: return "all";
    case Kind::stratified: return "stratified";
    case Kind::sparse: return "sparse";
    case Kind::budget: return "budget";
    }
    return "?";
}

Domain auto_domain(const oracle::WordFormat &src) { return Domain{src.bits <= 16 ? Domain::Kind::all : Domain::Kind::stratified}; }

Tally::Tally(const Target &t) : target_(t), shape_(t.shape()) {
    roundings_ = lattice::rounding_choices(shape_);
    overflows_ = lattice::overflow_choices(shape_);
    subnormals_ = lattice::subnormal_choices(shape_);
    signless_ = lattice::signless_choices(shape_);
    tiny_ = lattice::tiny_choices(shape_);
    nan_inputs_out_ = t.op == NINFER_OP_convert && !source_has_nan(*shape_.dst);
    if (!source_has_nan(*shape_.src) || nan_inputs_out_) {
        const Policy named = t.named_policy();
        nans_.push_back({named.nan, named.nan_word});  // no NaN input: the dimension is moot
    } else {
        for (auto c : lattice::nan_choices(shape_)) {
            if (c != NanChoice::constant) nans_.push_back({c, 0});
            else
                for (auto w : lattice::nan_constants(shape_)) nans_.push_back({c, w});
        }
    }
    cells_.resize(lattice::kInputClasses * lattice::kDimCombinations);
}

std::size_t Tally::combinations(std::uint8_t dims) const {
    std::size_t n = 1;
    if (dims & lattice::dim_rounding) n *= roundings_.size();
    if (dims & lattice::dim_overflow) n *= overflows_.size();
    if (dims & lattice::dim_subnormals) n *= subnormals_.size();
    if (dims & lattice::dim_nan) n *= nans_.size();
    if (dims & lattice::dim_signless) n *= signless_.size();
    if (dims & lattice::dim_tiny) n *= tiny_.size();
    return n;
}

lattice::Policy Tally::combination(std::uint8_t dims, std::size_t index) const {
    Policy p;
    p.rounding = roundings_[0];
    p.overflow = overflows_[0];
    p.subnormals = subnormals_[0];
    p.nan = nans_[0].choice;
    p.nan_word = nans_[0].word;
    p.signless = signless_[0];
    p.tiny = tiny_[0];
    const auto take = [&index](std::size_t size) {
        const std::size_t i = index % size;
        index /= size;
        return i;
    };
    if (dims & lattice::dim_rounding) p.rounding = roundings_[take(roundings_.size())];
    if (dims & lattice::dim_overflow) p.overflow = overflows_[take(overflows_.size())];
    if (dims & lattice::dim_subnormals) p.subnormals = subnormals_[take(subnormals_.size())];
    if (dims & lattice::dim_nan) {
        const auto &n = nans_[take(nans_.size())];
        p.nan = n.choice;
        p.nan_word = n.word;
    }
    if (dims & lattice::dim_signless) p.signless = signless_[take(signless_.size())];
    if (dims & lattice::dim_tiny) p.tiny = tiny_[take(tiny_.size())];
    return p;
}

std::size_t Tally::cell_index(std::uint8_t dims, const Policy &p) const {
    std::size_t index = 0, stride = 1;
    const auto put = [&](std::size_t i, std::size_t size) {
        index += i * stride;
        stride *= size;
    };
    if (dims & lattice::dim_rounding) put(index_of(roundings_, p.rounding), roundings_.size());
    if (dims & lattice::dim_overflow) put(index_of(overflows_, p.overflow), overflows_.size());
    if (dims & lattice::dim_subnormals) put(index_of(subnormals_, p.subnormals), subnormals_.size());
    if (dims & lattice::dim_nan) {
        std::size_t i = 0;
        while (i < nans_.size() && !(nans_[i].choice == p.nan && nans_[i].word == p.nan_word)) ++i;
        put(i, nans_.size());
    }
    if (dims & lattice::dim_signless) put(index_of(signless_, p.signless), signless_.size());
    if (dims & lattice::dim_tiny) put(index_of(tiny_, p.tiny), tiny_.size());
    return index;
}

void Tally::add(std::uint64_t index, std::uint64_t input, std::uint64_t actual) {
    const auto d = lattice::decompose(shape_, input);
    if (d.nan && nan_inputs_out_) return;
    ++class_inputs_[static_cast<int>(d.cls)];
    if (d.nan) add_nan(index, input, actual);
    auto &cells = cells_[static_cast<std::size_t>(d.cls) * lattice::kDimCombinations + d.dims];
    const std::size_t n = combinations(d.dims);
    if (cells.empty()) cells.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto w = lattice::policy_word(shape_, d, combination(d.dims, k));
        if (w != actual) record(cells[k], index, input, w, actual);
    }
}

void Tally::add_block(std::uint64_t index, std::uint64_t base, const std::uint64_t *actual) {
    add(index, base, actual[0]);
    const auto d = lattice::decompose(shape_, base | 1);
    // the distinct answers of words 1.. with their counts and first index (a policy gives one word)
    struct Seen {
        std::uint64_t word, count, first;
    };
    Seen seen[8];
    std::size_t distinct = 0;
    for (std::uint64_t i = 1; i < kBlock && !d.nan; ++i) {
        std::size_t k = 0;
        while (k < distinct && seen[k].word != actual[i]) ++k;
        if (k == distinct) {
            if (distinct == std::size(seen)) break;  // many words: counted one by one
            seen[distinct++] = {actual[i], 0, i};
        }
        ++seen[k].count;
    }
    std::uint64_t counted = 0;
    for (std::size_t k = 0; k < distinct; ++k) counted += seen[k].count;
    if (d.nan || counted != kBlock - 1) {  // NaN payloads differ word by word
        for (std::uint64_t i = 1; i < kBlock; ++i) add(index + i, base | i, actual[i]);
        return;
    }
    class_inputs_[static_cast<int>(d.cls)] += kBlock - 1;
    auto &cells = cells_[static_cast<std::size_t>(d.cls) * lattice::kDimCombinations + d.dims];
    const std::size_t n = combinations(d.dims);
    if (cells.empty()) cells.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto w = lattice::policy_word(shape_, d, combination(d.dims, k));
        const Seen *first = nullptr;  // the earliest answer other than w
        std::uint64_t same = 0;
        for (std::size_t j = 0; j < distinct; ++j) {
            if (seen[j].word == w) same = seen[j].count;
            else if (!first || seen[j].first < first->first) first = &seen[j];
        }
        if (first) merge_cell(cells[k], Cell{kBlock - 1 - same, index + first->first, base | first->first, w, first->word});
    }
}

bool block_counting(const Target &t) {
    if (t.op != NINFER_OP_convert || t.conversion->src != NINFER_FORMAT_fp32) return false;
    const auto shape = t.shape();
    const auto &dst = *shape.dst;
    return !shape.widening && dst.special != oracle::Special::INT && dst.man_bits <= 11 && 1 - dst.bias - dst.man_bits >= -137;
}

void Tally::add_nan(std::uint64_t index, std::uint64_t input, std::uint64_t actual) {
    // per output word: how many NaN inputs gave it, and the first of them (a constant's residue)
    auto [it, fresh] = nan_outputs_.try_emplace(actual);
    if (fresh) it->second = Cell{0, ~0ull, 0, 0, actual};
    it->second.mismatches += 1;  // here: the inputs answered with this word
    if (index < it->second.first_index) {
        it->second.first_index = index;
        it->second.input = input;
    }
}

void Tally::merge(const Tally &later) {
    for (std::size_t i = 0; i < cells_.size(); ++i) {
        const auto &src = later.cells_[i];
        if (src.empty()) continue;
        if (cells_[i].empty()) cells_[i].resize(src.size());
        for (std::size_t k = 0; k < src.size(); ++k) merge_cell(cells_[i][k], src[k]);
    }
    for (int c = 0; c < lattice::kInputClasses; ++c) class_inputs_[c] += later.class_inputs_[c];
    for (const auto &[w, cell] : later.nan_outputs_) {
        auto [it, fresh] = nan_outputs_.try_emplace(w, Cell{0, ~0ull, 0, 0, w});
        (void)fresh;
        it->second.mismatches += cell.mismatches;
        if (cell.first_index < it->second.first_index) {
            it->second.first_index = cell.first_index;
            it->second.input = cell.input;
        }
    }
}

std::optional<std::uint64_t> Tally::observed_nan_constant() const {
    // the word most NaN inputs gave (the smallest word among equals)
    std::optional<std::uint64_t> best;
    std::uint64_t count = 0;
    for (const auto &[w, cell] : nan_outputs_)
        if (cell.mismatches > count || (cell.mismatches == count && best && w < *best)) {
            best = w;
            count = cell.mismatches;
        }
    if (!best || lattice::nan_constant_is_choice(shape_, *best)) return std::nullopt;
    for (const auto &n : nans_)
        if (n.choice == NanChoice::constant && n.word == *best) return std::nullopt;  // already an option
    return best;
}

std::vector<lattice::Policy> Tally::policies() const {
    auto nans = nans_;
    if (const auto w = observed_nan_constant()) nans.push_back({NanChoice::constant, *w});
    std::vector<Policy> out;
    for (auto r : roundings_)
        for (auto o : overflows_)
            for (auto s : subnormals_)
                for (const auto &n : nans)
                    for (auto u : signless_)
                        for (auto y : tiny_) out.push_back(Policy{r, o, s, n.choice, n.word, u, y});
    return out;
}

Cell Tally::mismatches(const Policy &p, InputClass c) const {
    Cell out;
    if (c == InputClass::nan && cell_index(lattice::dim_nan, p) >= nans_.size()) {
        // the observed constant: every NaN input answered with another word
        for (const auto &[w, cell] : nan_outputs_) {
            if (w == p.nan_word) continue;
            merge_cell(out, Cell{cell.mismatches, cell.first_index, cell.input, p.nan_word, w});
        }
        return out;
    }
    for (std::uint8_t dims = 0; dims < lattice::kDimCombinations; ++dims) {
        const auto &cells = cells_[static_cast<std::size_t>(c) * lattice::kDimCombinations + dims];
        if (!cells.empty()) merge_cell(out, cells[cell_index(dims, p)]);
    }
    return out;
}

std::uint64_t Tally::mismatches(const Policy &p) const {
    std::uint64_t n = 0;
    for (int c = 0; c < lattice::kInputClasses; ++c) n += mismatches(p, static_cast<InputClass>(c)).mismatches;
    return n;
}

std::uint64_t Tally::inputs() const {
    std::uint64_t n = 0;
    for (auto c : class_inputs_) n += c;
    return n;
}

std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
        out += digits[i];
    }
    return out;
}

namespace {

/// The registry conversion of the same formats whose oracle policy `p` is (the target's first).
std::string named_conversion(const Target &t, const Policy &p) {
    if (t.op == NINFER_OP_decode) return p == t.named_policy() ? std::string(t.format->name) + " decode" : "";
    if (p == t.named_policy()) return std::string(t.conversion->name);
    for (const auto &c : oracle::kConversions)
        if (fingerprintable(c) && c.src == t.conversion->src && c.dst == t.conversion->dst &&
            lattice::conversion_policy(c) == p)
            return std::string(c.name);
    return "";
}

/// The sentence: "convert C (D): matches NAME: TEXT on N of N inputs" or "... nearest ...; residue: ...".
std::string sentence(const reports::Fingerprint &f, const Domain &d) {
    const std::string head = f.named.empty() ? f.policy_text : f.named + ": " + f.policy_text;
    std::string s = fmt::format("{} {} ({}): {} {} on {} of {} inputs", f.op, f.conversion, d.text(),
                                f.matched == f.inputs ? "matches" : "nearest", head, grouped(f.matched), grouped(f.inputs));
    for (std::size_t i = 0; i < f.residue.size(); ++i) {
        const auto &r = f.residue[i];
        s += fmt::format("{}{} {} of {} (first 0x{} -> 0x{}, policy 0x{})", i == 0 ? "; residue: " : ", ", r.cls,
                         grouped(r.mismatches), grouped(r.inputs), r.input, r.actual, r.expected);
    }
    return s;
}

}  // namespace

reports::Fingerprint conclude(const Tally &t, const Domain &d) {
    const auto shape = t.target().shape();
    const auto policies = t.policies();
    const Policy named = t.target().named_policy();
    std::vector<std::uint64_t> totals;
    totals.reserve(policies.size());
    for (const auto &p : policies) totals.push_back(t.mismatches(p));
    const std::uint64_t least = *std::min_element(totals.begin(), totals.end());
    // among equals: the most coordinates shared with the target's named policy (all of them: the
    // registry's conversion itself), then the fixed order
    const auto shared = [&named](const Policy &q) {
        return (q.rounding == named.rounding) + (q.overflow == named.overflow) + (q.subnormals == named.subnormals) +
               (q.nan == named.nan && q.nan_word == named.nan_word) + (q.signless == named.signless) + (q.tiny == named.tiny);
    };
    std::size_t best = 0;
    while (totals[best] != least) ++best;
    for (std::size_t i = best + 1; i < policies.size(); ++i)
        if (totals[i] == least && shared(policies[i]) > shared(policies[best])) best = i;
    const Policy &p = policies[best];

    reports::Fingerprint f;
    f.op = t.target().op == NINFER_OP_decode ? "decode" : "convert";
    f.conversion = t.target().name();
    f.source = std::string(shape.src->name);
    f.target = std::string(shape.dst->name);
    f.domain = d.name();
    f.inputs = t.inputs();
    f.matched = f.inputs - least;
    f.rounding = lattice::rounding_name(p.rounding);
    f.overflow = lattice::overflow_name(p.overflow);
    f.subnormals = lattice::subnormal_name(p.subnormals);
    f.nan = lattice::nan_name(shape, p);
    if (lattice::signless_choices(shape).size() > 1) f.signless = lattice::signless_name(p.signless);  // unsigned targets
    if (lattice::tiny_choices(shape).size() > 1) f.tiny = lattice::tiny_name(p.tiny);
    f.policy_text = lattice::policy_text(shape, p);
    if (t.target().op == NINFER_OP_convert) f.point = lattice::policy_spelling(shape, p);
    f.named = named_conversion(t.target(), p);
    // the same words on every input: only certain when both match every input
    for (std::size_t i = 0; i < policies.size() && least == 0; ++i)
        if (i != best && totals[i] == 0) f.equivalent.push_back(lattice::policy_text(shape, policies[i]));
    for (int c = 0; c < lattice::kInputClasses; ++c) {
        const auto cls = static_cast<InputClass>(c);
        const Cell cell = t.mismatches(p, cls);
        if (cell.mismatches == 0) continue;
        f.residue.push_back({lattice::class_name(cls), t.inputs(cls), cell.mismatches, oracle::word_hex(*shape.src, cell.input),
                             oracle::word_hex(*shape.dst, cell.expected), oracle::word_hex(*shape.dst, cell.actual)});
    }
    f.sentence = sentence(f, d);
    return f;
}

namespace {

/// Count domain indices [begin, end) of `actual` (offset by `base`) on `jobs` threads: whole
/// blocks (Tally::add_block) where the domain is every fp32 word and block_counting allows.
Tally tally_range(const Target &t, const Domain &d, const std::uint64_t *actual, std::uint64_t base, std::uint64_t begin,
                  std::uint64_t end, unsigned jobs) {
    if (d.kind == Domain::Kind::all && d.extra.empty() && begin % kBlock == 0 && (end - begin) % kBlock == 0 && block_counting(t)) {
        const std::uint64_t blocks = (end - begin) / kBlock;
        jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::uint64_t>(1, blocks))));
        std::vector<Tally> parts(jobs, Tally(t));
        std::vector<std::thread> threads;
        for (unsigned j = 0; j < jobs; ++j)
            threads.emplace_back([&, j] {
                for (std::uint64_t b = blocks * j / jobs; b < blocks * (j + 1) / jobs; ++b) {
                    const std::uint64_t i = begin + b * kBlock;
                    parts[j].add_block(i, i, actual + (i - base));
                }
            });
        for (auto &th : threads) th.join();
        for (unsigned j = 1; j < jobs; ++j) parts[0].merge(parts[j]);
        return std::move(parts[0]);
    }
    jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::uint64_t>(1, (end - begin) / 4096))));
    std::vector<Tally> parts(jobs, Tally(t));
    std::vector<std::thread> threads;
    const std::uint64_t n = end - begin;
    for (unsigned j = 0; j < jobs; ++j)
        threads.emplace_back([&, j] {
            const std::uint64_t lo = begin + n * j / jobs, hi = begin + n * (j + 1) / jobs;
            for (std::uint64_t i = lo; i < hi; ++i) parts[j].add(i, d.word(i), actual[i - base]);
        });
    for (auto &th : threads) th.join();
    for (unsigned j = 1; j < jobs; ++j) parts[0].merge(parts[j]);
    return std::move(parts[0]);
}

}  // namespace

reports::Fingerprint fingerprint_words(const Target &t, const Domain &d, const std::vector<std::uint64_t> &actual,
                                       unsigned jobs) {
    const std::uint64_t n = std::min<std::uint64_t>(actual.size(), d.size(*t.shape().src));
    return conclude(tally_range(t, d, actual.data(), 0, 0, n, jobs), d);
}

namespace {

/// The call of the domain's words first .. first+n-1: an Iota of consecutive words (the domain
/// `all`, as sweep's batches: the worker makes them), else the words themselves.
Call batch_call(Call call, const Domain &d, std::uint64_t first, std::uint64_t n, int ib, int ob, std::uint32_t out_plane) {
    call.count = n;
    call.shape = {n};
    if (d.kind == Domain::Kind::all) {
        call.inputs = {{NINFER_PLANE_WORDS, 0, {}}};
        call.iota = Iota{first, ib};
    } else {
        std::vector<std::uint8_t> in(n * static_cast<std::uint64_t>(ib));
        for (std::uint64_t i = 0; i < n; ++i) abi::store_le(in.data() + i * ib, d.word(first + i), ib);
        call.inputs = {{NINFER_PLANE_WORDS, 0, std::move(in)}};
    }
    call.outputs = {{out_plane, 0, n * static_cast<std::uint64_t>(ob)}};
    return call;
}

/// The words of a batch's reply into `actual`; throws SubjectFailed for a reply that is not n words.
void read_reply(const Reply &r, const lattice::Shape &shape, std::uint64_t first_word, std::uint64_t n, int ob,
                std::uint32_t out_plane, std::vector<std::uint64_t> &actual) {
    if (r.outcome != Outcome::returned)
        throw SubjectFailed(fmt::format("{} at input {}: {}", outcome_name(r.outcome), hex(*shape.src, first_word), r.message));
    if (r.status != NINFER_OK)
        throw SubjectFailed(fmt::format("the subject refused the batch at input {} (status {}): {}", hex(*shape.src, first_word),
                                        r.status, r.message));
    const std::uint8_t *bytes = r.shared;  // a pipelined plugin's reply, in memory shared with the worker
    std::uint64_t size = r.shared_bytes;
    if (!bytes) {
        bytes = r.output(out_plane).data();
        size = r.output(out_plane).size();
    }
    if (size != n * static_cast<std::uint64_t>(ob))
        throw SubjectFailed(fmt::format("the subject wrote {} bytes for {} words of {} bytes", size, n, ob));
    actual.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) actual[i] = abi::load_le(bytes + i * ob, ob);
}

}  // namespace

reports::Fingerprint fingerprint_subject(Subject &s, const Target &t, const Domain &d, unsigned jobs, bool live_progress) {
    if (!s.open_error().empty()) throw SubjectFailed("the subject did not start: " + s.open_error());
    const auto shape = t.shape();
    Call call;
    call.op = t.op;
    const bool decode = t.op == NINFER_OP_decode;
    call.format = decode ? shape.src->id : shape.dst->id;
    call.format_in = decode ? 0 : shape.src->id;
    call.method = decode ? 0 : t.conversion->id;
    if (!covers(s.info().capabilities, call.op, call.format, call.format_in, NINFER_LAYOUT_NONE, call.method))
        throw SubjectFailed(fmt::format("the subject does not declare {} of {}", oracle::op_name(call.op), t.name()));
    const std::uint32_t out_plane = decode ? NINFER_PLANE_VALUES : NINFER_PLANE_WORDS;
    const int ib = shape.src->bytes(), ob = decode ? 8 : shape.dst->bytes();
    const std::uint64_t total = d.size(*shape.src), batch = std::uint64_t{1} << 18;
    std::optional<Tally> all;
    std::vector<std::uint64_t> actual;
    // A 2^32 domain takes minutes: inputs counted so far, rate and ETA on stderr (docs/cli.md, "Progress").
    std::atomic<std::uint64_t> done{0};
    const auto t0 = std::chrono::steady_clock::now();
    ProgressLine progress(live_progress, [&] {
        const std::uint64_t k = done.load();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double rate = s > 0 ? static_cast<double>(k) / s : 0;
        const std::string eta = rate > 0 ? duration_text(static_cast<double>(total - k) / rate) : "?";
        return fmt::format("fingerprint {}: {}/{} inputs ({:.1f}%), {:.0f} inputs/s, ETA {}", t.name(), k, total,
                           total ? 100.0 * static_cast<double>(k) / static_cast<double>(total) : 100.0, rate, eta);
    });
    // Batches pipelined as sweep's are (Subject::submit): the worker computes the next batches while
    // this one is counted.
    std::deque<std::pair<std::uint64_t, std::uint64_t>> in_flight;  // (first, n)
    std::uint64_t next = 0;
    const auto submit_next = [&] {
        const std::uint64_t n = std::min(batch, total - next);
        s.submit(batch_call(call, d, next, n, ib, ob, out_plane));
        in_flight.emplace_back(next, n);
        next += n;
    };
    const std::size_t depth = std::max<std::size_t>(1, s.pipeline_depth());
    while (next < total && in_flight.size() < depth) submit_next();
    while (!in_flight.empty()) {
        const auto [first, n] = in_flight.front();
        in_flight.pop_front();
        try {
            read_reply(s.collect(), shape, d.word(first), n, ob, out_plane, actual);
        } catch (const SubjectFailed &) {
            for (; !in_flight.empty(); in_flight.pop_front()) s.collect();  // the subject stays usable for the next target
            throw;
        }
        if (next < total) submit_next();
        Tally part = tally_range(t, d, actual.data(), first, first, first + n, jobs);
        if (all) all->merge(part);
        else all.emplace(std::move(part));
        done.store(first + n);
    }
    progress.finish();
    if (!all) all.emplace(t);
    return conclude(*all, d);
}

}  // namespace ninfer::harness::fingerprint
