// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1 (behaviour fingerprints; docs/cli.md "fingerprint"): which policy of the
// lattice (oracle/fingerprint_lattice.hpp) a subject's conversion or decode implements, with the
// residue by input class. The counting is factorised: each input adds to the counters of the
// dimensions its output depends on only, and a policy's mismatches are the sum of its cells.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/oracle/fingerprint_lattice.hpp"
#include "ninfer/reports/report.hpp"

namespace ninfer::harness::fingerprint {

namespace lattice = oracle::lattice;

/// What is fingerprinted: a registry conversion (convert) or a word format's decode.
struct Target {
    std::uint32_t op = NINFER_OP_convert;
    const oracle::Conversion *conversion = nullptr;  ///< convert
    const oracle::WordFormat *format = nullptr;      ///< decode
    lattice::Shape shape() const;
    lattice::Policy named_policy() const;            ///< the registry's (or the oracle decode's) policy
    std::string name() const;                        ///< conversion name, or the format's name (decode)
};

/// The source words offered (docs/cli.md "fingerprint", Domain), in increasing order: every word
/// ("all"); for a 32-bit source the stratified sample: every word whose low 12 bits are one of
/// kStratifiedLow, for each of the 2^20 high parts; or the sparse sample (`run`, tests): the same
/// low patterns for the high parts whose top 11 fraction bits have at most two bits set (every
/// sign and exponent; a tie and an odd and an even last place of every target).
/// The budget sample (`run`'s default, run_domain): the same low patterns for the first `tops`
/// fraction tops in graded order (fewest bits set first, then increasing), every sign and exponent.
/// `extra` (run): source words added after the sample's, those of the run's cases (the failed
/// ones among them) that the sample lacks, so that the fingerprint sees every input the report fails.
struct Domain {
    enum class Kind : std::uint8_t { all, stratified, sparse, budget };
    Kind kind = Kind::all;
    std::vector<std::uint64_t> extra{};
    std::uint32_t tops = 0;  ///< budget: the fraction tops sampled (1..2048)
    /// `extra` holds the run's case inputs (budget), else the report's failed inputs: the text's word.
    bool extra_are_case_inputs = false;
    std::uint64_t size(const oracle::WordFormat &src) const;
    std::uint64_t word(std::uint64_t index) const;  ///< the index-th word
    std::string name() const;                       ///< the kind ("all", "stratified", "sparse", "budget")
    /// "stratified domain", "stratified domain + 2 failed inputs", "budget domain (21 of 2 048 fraction tops) + 640 case inputs"
    std::string text() const;
    /// Whether the sample holds a word (before `extra`).
    bool holds(const oracle::WordFormat &src, std::uint64_t w) const;
};
inline constexpr std::uint64_t kStratifiedLow[] = {0x000, 0x001, 0x7FF, 0x800, 0x801, 0xFFF};

/// --domain auto: every word of a source up to 16 bits, the stratified sample of a 32-bit one.
Domain auto_domain(const oracle::WordFormat &src);

/// Whether the lattice covers a conversion: every deterministic one; a stochastic (`sr`) conversion
/// draws on random bits, and its exact and statistical rules test it instead (suites/SR.md).
inline bool fingerprintable(const oracle::Conversion &c) { return !abi::is_stochastic(c); }

/// Words per block of the block counting (as sweep's blocks: the low 12 bits of an fp32 word).
inline constexpr std::uint64_t kBlock = 4096;

/// Whether the domain `all` of a target may be counted block by block (issue 34 item 5): a
/// conversion from fp32 whose target's quantum is at least 2^12 fp32 quanta at every magnitude
/// (at most 11 fraction bits, smallest quantum at least 2^-137), so that the fp32 words x of a
/// block whose low 12 bits are nonzero share their class, neighbours and side of half.
bool block_counting(const Target &t);

/// A mismatch counter of one combination of a region's dimensions.
struct Cell {
    std::uint64_t mismatches = 0;
    std::uint64_t first_index = ~0ull;  ///< domain index of the first mismatch
    std::uint64_t input = 0, expected = 0, actual = 0;
};

/// One NaN choice: the kind and, for a constant, its word.
struct NanOption {
    lattice::NanChoice choice = lattice::NanChoice::constant;
    std::uint64_t word = 0;
};

/// The counters of one run over (input, actual) pairs; tallies of disjoint increasing index
/// ranges merge in order.
class Tally {
public:
    explicit Tally(const Target &t);
    /// One input at domain index `index`, answered `actual` by the subject.
    void add(std::uint64_t index, std::uint64_t input, std::uint64_t actual);
    /// The kBlock inputs of an aligned fp32 block from domain index `index` (word `base`, its low 12
    /// bits zero; block_counting(t)): the first word counted alone, the other 4095 as one, since
    /// they decompose alike (docs/cli.md "fingerprint", The counting). Same counters as add().
    void add_block(std::uint64_t index, std::uint64_t base, const std::uint64_t *actual);
    /// Add the counters of a tally of later indices.
    void merge(const Tally &later);

    /// The policies of the lattice with the observed NaN constant, in the fixed preference order.
    std::vector<lattice::Policy> policies() const;
    /// A policy's mismatches in one input class, by the factorised counters (no input revisited).
    Cell mismatches(const lattice::Policy &p, lattice::InputClass c) const;
    std::uint64_t mismatches(const lattice::Policy &p) const;
    std::uint64_t inputs(lattice::InputClass c) const { return class_inputs_[static_cast<int>(c)]; }
    std::uint64_t inputs() const;
    const Target &target() const { return target_; }
    bool nan_inputs_out() const { return nan_inputs_out_; }  ///< NaN inputs left out of the domain (E2M1)

private:
    std::size_t combinations(std::uint8_t dims) const;
    std::size_t cell_index(std::uint8_t dims, const lattice::Policy &p) const;
    lattice::Policy combination(std::uint8_t dims, std::size_t index) const;
    void add_nan(std::uint64_t index, std::uint64_t input, std::uint64_t actual);
    std::optional<std::uint64_t> observed_nan_constant() const;

    Target target_;
    lattice::Shape shape_;
    std::vector<std::uint32_t> roundings_, overflows_;
    std::vector<lattice::SubnormalChoice> subnormals_;
    std::vector<lattice::SignlessChoice> signless_;
    std::vector<lattice::TinyChoice> tiny_;
    std::vector<NanOption> nans_;  ///< fixed NaN options (the observed constant is added by policies())
    /// A target without NaN (E2M1): NaN inputs are out of the domain, as `run` offers none.
    bool nan_inputs_out_ = false;
    std::vector<std::vector<Cell>> cells_;  ///< [class * kDimCombinations + dims][combination]
    std::uint64_t class_inputs_[lattice::kInputClasses] = {};
    /// NaN inputs by output word: how many gave it (Cell::mismatches) and the first of them.
    std::unordered_map<std::uint64_t, Cell> nan_outputs_;
};

/// The fingerprint of counted words: the policy with the fewest mismatches (ties: the target's
/// named policy, then the fixed order), its equivalents, its residue and its sentence.
reports::Fingerprint conclude(const Tally &t, const Domain &d);

/// Fingerprint in memory: `actual[i]` is the subject's word for domain word i (tests, run).
reports::Fingerprint fingerprint_words(const Target &t, const Domain &d, const std::vector<std::uint64_t> &actual,
                                       unsigned jobs = 1);

/// A subject that crashed, refused or does not declare the call (exit 3 of `fingerprint`).
struct SubjectFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Fingerprint a subject over a domain: batches through the subject (its worker isolation), the
/// counting on `jobs` threads. Throws SubjectFailed.
reports::Fingerprint fingerprint_subject(Subject &s, const Target &t, const Domain &d, unsigned jobs = 1,
                                         bool live_progress = false);

/// "65 536": a count with a space every three digits (the sentences).
std::string grouped(std::uint64_t n);

}  // namespace ninfer::harness::fingerprint

namespace ninfer::harness::fingerprint {

/// What `run` fingerprints (`run --fingerprint WHICH`): nothing, the declared conversions with a
/// failed convert case (the default), or every declared conversion.
enum class RunFingerprints : std::uint8_t { none, failing, all };
/// "none", "failing", "all"; and back (false for another word).
const char *run_fingerprints_name(RunFingerprints w);
bool parse_run_fingerprints(std::string_view text, RunFingerprints &out);

/// The source words a run's cases offered, per conversion name (each case's WORDS plane).
using CaseInputs = std::map<std::string, std::vector<std::uint64_t>, std::less<>>;

/// The bound on a fingerprint's cost in `run` (docs/cli.md "run --fingerprint"): a conversion's
/// budget is max(kRunBudgetFloor, kRunBudgetFactor x the words its cases offered).
inline constexpr std::uint64_t kRunBudgetFloor = 65536;  ///< every word of a 16-bit source
inline constexpr std::uint64_t kRunBudgetFactor = 4;

/// The domain `run` fingerprints a conversion on: every word of a source up to 16 bits; for fp32
/// the budget sample of as many fraction tops as the budget holds (the stratified sample when it
/// holds it all) plus the run's case inputs of the conversion (its failed ones among them) that
/// the sample lacks. At most max(floor, factor x W) + W inputs, W the words the cases offered.
Domain run_domain(const oracle::Conversion &c, const reports::Report &r, const CaseInputs &inputs);

/// The declared conversions of `s` a run fingerprints: those with a failed case of one of their
/// convert rules (convert.<name>, convert.<name>.*), every declared one, or none.
std::vector<const oracle::Conversion *> run_targets(Subject &s, const reports::Report &r, RunFingerprints which);

/// Add the fingerprints of run_targets to the report; a subject that fails one adds none for it
/// and a line to `errors`.
void add_run_fingerprints(Subject &s, reports::Report &r, RunFingerprints which, const CaseInputs &inputs, unsigned jobs,
                          std::vector<std::string> &errors);

}  // namespace ninfer::harness::fingerprint
