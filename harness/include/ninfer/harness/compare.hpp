// SPDX-License-Identifier: Apache-2.0
// Comparison of a subject's reply with a case's expectation, and the classification of every
// mismatch (reports/README.md, "Mismatch classes"): one function per class decision.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "ninfer/harness/subject.hpp"
#include "ninfer/abi/word_classes.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/reports/report.hpp"
#include "ninfer/suites/case.hpp"

namespace ninfer::harness {

enum class MismatchClass : std::uint8_t {
    wrong_tie_side,          ///< input is a tie and the actual word is the other neighbour
    off_by_one_ulp,          ///< one step away in the format's order
    gross,                   ///< anything else
    nan_vs_number,           ///< NaN where a non-NaN is expected, or the reverse
    nan_sign,                ///< both NaN, the sign differs
    nan_quieted,             ///< both NaN, a signalling NaN expected and a quiet one returned
    nan_not_quieted,         ///< both NaN, a quiet NaN expected and a signalling one returned
    nan_payload,             ///< both NaN, same sign and kind, other payload bits
    zero_sign,               ///< both zero, sign differs
    flushed_subnormal,       ///< expected subnormal (or the smallest normal), got zero
    saturation_vs_infinity,  ///< expected the largest finite, got infinity
    infinity_vs_saturation,  ///< expected infinity, got the largest finite
    nan_vs_saturation,       ///< one is NaN, the other the largest finite
    invalid_accepted,        ///< validate: an invalid word called valid
    valid_refused,           ///< validate: a valid word refused
    wrong_reason,            ///< validate verdict, error status or detail other than expected
    unexpected_error,        ///< an error status where success is expected
    missing_error,           ///< success where an error status is expected
    byte_mismatch,           ///< a buffer op's bytes differ
    size_mismatch,           ///< an output of another size than expected
    // Operators (op linear): an OUTPUT element outside its acceptance (suites::Expect::accept).
    out_of_bound,            ///< a finite word outside the accepted interval
    nan_mismatch,            ///< a NaN not accepted, or a number where only a NaN is accepted
    inf_mismatch,            ///< an infinity not accepted, or a finite word where only an infinity is
    bits                     ///< bit_exact: another word than the profile's defined one
};

const char *mismatch_class_name(MismatchClass c);

// ---- Word geometry of any IEEE-like format (binary64 included) ----------------------------
/// A word's class from its bits: the one copy, abi/word_classes.hpp.
using abi::word_is_inf;
using abi::word_is_nan;
using abi::word_is_negative;
using abi::word_is_subnormal;
using abi::word_is_zero;
/// Largest finite word of the format with the sign of `w` (sign bit clear for unsigned formats).
std::uint64_t largest_finite_like(const oracle::WordFormat &f, std::uint64_t w);
/// Steps between two non-NaN words in the format's total order (-0 and +0 one step apart).
std::uint64_t ulp_distance(const oracle::WordFormat &f, std::uint64_t a, std::uint64_t b);

/// Whether `actual` matches `expected` in format `f` under a NaN policy: the expected word
/// always; exact: nothing else; same_sign: a quiet NaN of the expected NaN's sign; any: a quiet
/// NaN of either sign (suites/case.hpp, the NaN principle of oracle/README.md).
bool words_match(const oracle::WordFormat &f, suites::NanPolicy p, std::uint64_t expected, std::uint64_t actual);

// ---- One function per class decision (each assumes expected != actual) --------------------
bool is_nan_vs_saturation(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
bool is_nan_vs_number(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
/// Both NaN and different: which of nan_sign, nan_quieted, nan_not_quieted, nan_payload (in this order).
MismatchClass nan_difference(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
/// Whether a NaN word is quiet: IEEE formats by the top fraction bit; formats without a quiet
/// bit (E4M3FN, UE4M3, E8M0) count every NaN as quiet.
bool word_is_quiet_nan(const oracle::WordFormat &f, std::uint64_t w);
/// A NaN word as sign and kind: "-qnan", "+snan(0x1)", "+qnan(0x5)" (payload = the fraction
/// bits below the quiet bit, shown when nonzero), "+nan" where the format has no quiet bit,
/// "nan" for E8M0.
std::string nan_text(const oracle::WordFormat &f, std::uint64_t w);
bool is_zero_sign(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
bool is_flushed_subnormal(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
/// A subnormal input word (decode, widening conversions) whose nonzero result came back zero.
bool is_flushed_subnormal_input(const oracle::WordFormat &in, std::uint64_t src, const oracle::WordFormat &out,
                                std::uint64_t expected, std::uint64_t actual);
bool is_saturation_vs_infinity(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
bool is_infinity_vs_saturation(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);
/// Whether a conversion's source word is a tie (oracle::conversion_is_tie): the oracle's exact
/// answer, the definition, or the native one from the word's bits (native::conversion_is_tie),
/// which the tests hold equal to it over every conversion. Sweeps ask the native one per word.
using TieTest = bool (*)(const oracle::Conversion &c, std::uint64_t src);
bool oracle_tie(const oracle::Conversion &c, std::uint64_t src);
bool native_tie(const oracle::Conversion &c, std::uint64_t src);
bool is_wrong_tie_side(const oracle::Conversion &c, std::uint64_t src, std::uint64_t expected, std::uint64_t actual,
                       TieTest tie = oracle_tie);
bool is_off_by_one_ulp(const oracle::WordFormat &f, std::uint64_t expected, std::uint64_t actual);

/// The class of a mismatching output word of format `f`; `conv` (may be null) and `src` let the
/// tie decision ask `tie` whether the input is a tie; `in` (may be null) is the input's format.
MismatchClass classify_word_mismatch(const oracle::WordFormat &f, const oracle::Conversion *conv, std::uint64_t src,
                                     std::uint64_t expected, std::uint64_t actual,
                                     const oracle::WordFormat *in = nullptr, TieTest tie = oracle_tie);
/// validate: verdict bytes (NINFER_VERDICT_*).
MismatchClass classify_verdict_mismatch(std::uint8_t expected, std::uint8_t actual);
/// classify: class bytes (NINFER_CLASS_* | sign).
MismatchClass classify_class_byte_mismatch(std::uint8_t expected, std::uint8_t actual);
/// A returned status/detail other than expected.
MismatchClass classify_status_mismatch(std::int32_t expected_status, std::uint32_t expected_detail,
                                       std::int32_t actual_status, std::uint32_t actual_detail);

/// "NINFER_E_SIZE" for a status code, "status -42" for an unknown one.
std::string status_text(std::int32_t status);
std::string verdict_text(std::uint8_t v);
std::string class_byte_text(std::uint8_t c);

// ---- The output planes of a case, and what compare needs of a format family ------------------

/// One output plane of a case: its name, its registry label, the word format its bytes compare
/// in (binary32 for quant_decode's VALUES and nvfp4's DIVISORS, the word format of a
/// contiguous_le_v1 payload; nullptr: byte by byte) and its expected bytes.
struct OutPlane {
    std::uint32_t name = 0;  ///< NINFER_PLANE_*
    std::string label;       ///< the registry name ("values", "scales")
    const oracle::WordFormat *unit = nullptr;
    const std::vector<std::uint8_t> *expected = nullptr;
};

struct CompareFamily;

/// Where a byte of an output plane lies, in words (Mismatch::location) and as fields
/// (Mismatch::where, report v3): compare writes both from one place.
struct Located {
    std::string text{};
    reports::Where where{};
};

/// The output planes of a case in the op's order (suites::op_planes) and the format family it
/// belongs to: computed once per case.
struct CasePlanes {
    std::vector<OutPlane> out;
    const CompareFamily *family = nullptr;  ///< nullptr: no family claims the case's format
    /// Plane `i`'s name (0 past the end), label ("" past the end), expected and actual bytes (empty when absent).
    std::uint32_t name(int i) const;
    std::string label(int i) const;
    const std::vector<std::uint8_t> &expected(int i) const;
    const std::vector<std::uint8_t> &actual(const Reply &r, int i) const;
};

/// The plane table of a case.
CasePlanes case_planes(const suites::Case &c);

/// What compare needs of a format family (its descriptor; a family's compare file defines one).
/// Every hook but `owns` may be null: nothing to say.
struct CompareFamily {
    abi::Family family = {};
    /// Whether the case's format is one of the family's.
    bool (*owns)(const suites::Case &c) = nullptr;
    /// The word format output plane `name` (at `index` in the op's order) compares in; nullptr: bytes.
    const oracle::WordFormat *(*unit)(const suites::Case &c, std::uint32_t name, int index) = nullptr;
    /// Where byte `offset` of output plane `buffer` lies; text "" for the generic location.
    Located (*locate)(const suites::Case &c, const CasePlanes &p, int buffer, std::uint64_t offset) = nullptr;
    /// The rule a mismatching byte of output plane `buffer` points at (Mismatch::blame); "" when none.
    std::string (*blame)(const suites::Case &c, const CasePlanes &p, const Reply &r, int buffer, std::uint64_t offset) = nullptr;
    /// The oracle's steps for a mismatching byte of output plane 0 (Comparison::trace); "" when none.
    std::string (*trace)(const suites::Case &c, const std::vector<std::uint8_t> &actual, std::uint64_t offset) = nullptr;
    /// A mismatching binary32 word of the VALUES plane: its exact value and criterion into `m`.
    void (*explain_value)(const suites::Case &c, std::uint64_t element, std::uint32_t actual, reports::Mismatch &m) = nullptr;
};

/// The families compare knows: the built-in ones (compare.cpp, one line per family), then the
/// added ones.
std::span<const CompareFamily *const> compare_families();
/// Adds a family's descriptor (a family outside the built-in list, e.g. a test's toy family);
/// false, and nothing added, when its family has one. The descriptor must outlive compare.
bool add_compare_family(const CompareFamily &family);

/// Where byte `offset` of output `buffer` (0..2) of a case lies: "element 3",
/// "coordinate [1,2]", "base plane row 0 group 1 lane 6", or "byte 17"; and as fields.
Located locate_at(const suites::Case &c, int buffer, std::uint64_t offset);
/// locate_at's text.
std::string locate(const suites::Case &c, int buffer, std::uint64_t offset);

/// The rule a mismatching byte or element of a grouped payload case points at, by the plane and
/// field it lands in (reports/README.md "Attribution"): a gap byte -> row_split.gaps, a padding
/// lane or group -> row_split.padding, lanes swapped in pairs -> row_split.nibble_order, only high
/// bits differing -> row_split.high_bit_order, a scale word of grouped_absmax -> the 7.2 scale
/// step the oracle's trace names, a value whose code and scale agree -> the Section 6.2 rule it
/// breaks; "" when the mismatch is a plain value difference of the case's own rule.
std::string blame_grouped_mismatch(const suites::Case &c, const Reply &r, int buffer, std::uint64_t offset);

/// The oracle's Section 7.2 steps for the group holding payload byte `offset` of a
/// grouped_absmax quant_encode case (amax32, raw_scale32, scale16, inv32, the first code that
/// differs and why); "" for another case.
std::string explain_encoder_group(const suites::Case &c, const std::vector<std::uint8_t> &actual, std::uint64_t offset);

// ---- Operators: the acceptance of one OUTPUT element (suites::Expect::accept) --------------

/// One entry of Expect::accept: the words lo and hi of the output format and the kAccept* flags.
struct Acceptance {
    std::uint64_t lo = 0, hi = 0;
    std::uint8_t flags = 0;
};

/// Entry `i` of an acceptance vector whose words are `bytes` wide (2 * bytes + 1 bytes an entry).
Acceptance acceptance_at(const std::vector<std::uint8_t> &accept, std::size_t i, int bytes);

/// Whether an actual word of format `f` is accepted (suites/case.hpp, Expect::accept): a NaN
/// only under kAcceptNan; under kAcceptBits lo itself, bit for bit; otherwise a value in
/// [value(lo), value(hi)] with -0 == +0, an infinite bound admitting that infinity, and no
/// value at all when a bound is a NaN.
bool accepts(const oracle::WordFormat &f, const Acceptance &a, std::uint64_t actual);

/// The class of a word the entry refuses: nan_mismatch (a NaN refused, or a number where only a
/// NaN is accepted), bits (kAcceptBits), inf_mismatch (the actual word or a bound infinite),
/// out_of_bound (finite, outside).
MismatchClass classify_accept_mismatch(const oracle::WordFormat &f, const Acceptance &a, std::uint64_t actual);

/// The entry in words and in values, for a report: kAcceptBits "3f800000" / "1"; an interval
/// "[3f7fffff, 3f800001]" / "[0.99999994039535522461, 1.0000001192092895508]"; "or any NaN"
/// appended to the values under kAcceptNan ("any NaN" alone when a bound is a NaN).
std::string acceptance_words(const oracle::WordFormat &f, const Acceptance &a);
std::string acceptance_values(const oracle::WordFormat &f, const Acceptance &a);

/// The verdict on one case.
struct Comparison {
    reports::Status status = reports::Status::pass;
    std::uint64_t elements = 0, mismatches = 0;
    std::vector<reports::Mismatch> first;
    std::map<std::string, std::uint64_t> classes;
    std::string message;
    /// NaN words accepted by the case's NaN policy though they differ from the expected word.
    std::string trace;  ///< explain_encoder_group of the first mismatch, when it applies
    std::uint64_t nan_accepted = 0;
    std::vector<reports::NanAccepted> nan_accepted_first;
    /// A case with alternatives (suites::Expect): the name of the outcome the reply matched,
    /// "" when it matched none or the case has one outcome.
    std::string choice;
};

/// Compare a reply with the case's expectation. `declared`: the subject declared the
/// capability (an E_UNSUPPORTED reply is then a lie). Keeps the first `max_first` mismatches.
/// A case with alternatives passes when the reply matches any of its outcomes (the expected one
/// first, then the alternatives in order), and names the one it matched; when it matches none,
/// the comparison is the expected outcome's, its message naming every documented outcome.
Comparison compare_reply(const suites::Case &c, const Reply &reply, bool declared, std::size_t max_first);

}  // namespace ninfer::harness
