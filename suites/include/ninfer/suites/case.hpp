// SPDX-License-Identifier: Apache-2.0
// The case model shared by suites, vectors, harness and reports: one call of the plugin ABI
// with its inputs and the oracle's expected outputs, tied to one rule of the catalog.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/suites/rule_ids.hpp"

namespace ninfer::suites {

/// Levels, cumulative: quick (boundaries, ties, specials, worked examples), full (+ seeded
/// random and every word of every 4-, 8- and 16-bit domain), exhaustive (+ more seeded random;
/// the 2^32 FP32 domains are `sweep`'s work).
enum class Level : std::uint8_t { quick = 0, full = 1, exhaustive = 2 };

const char *level_name(Level l);
bool parse_level(const std::string &text, Level &out);

/// How an expected NaN word matches an actual word (TestFloat's -checkNaNs, made explicit; the
/// NaN principle of oracle/README.md). The expected word itself always matches.
enum class NanPolicy : std::uint8_t {
    exact = 0,     ///< bit for bit
    same_sign = 1, ///< a quiet NaN of the expected sign (any NaN where the format has no quiet bit)
    any = 2        ///< a quiet NaN of either sign (any NaN where the format has no quiet bit)
};

const char *nan_policy_name(NanPolicy p);

/// One named plane of an ABI v2 call (plugin.h NINFER_PLANES): its name, its element format
/// where the op leaves it open (else 0), and its bytes.
struct Plane {
    std::uint32_t name = 0;    ///< NINFER_PLANE_*
    std::uint32_t format = 0;  ///< NINFER_FORMAT_* or 0
    std::vector<std::uint8_t> bytes;
    bool operator==(const Plane &) const = default;
};

/// Planes in the op's order (op_planes); each name at most once.
using Planes = std::vector<Plane>;

/// The plane of a name, or nullptr.
const Plane *find_plane(const Planes &planes, std::uint32_t name);
/// The bytes of the plane of a name, appended (empty) at the end when absent.
std::vector<std::uint8_t> &plane_bytes(Planes &planes, std::uint32_t name);
/// The bytes of the plane of a name; empty when absent.
const std::vector<std::uint8_t> &plane_bytes(const Planes &planes, std::uint32_t name);

/// The input and output plane names of an op, in the ABI order (harness/README.md, "Planes per
/// op"). layout_encode / layout_decode carry WORDS for a word `format`, CODES and SCALES for
/// any other (an unknown format: by `layout`, contiguous_le_v1 meaning words).
struct OpPlanes {
    std::vector<std::uint32_t> inputs, outputs;
};
OpPlanes op_planes(std::uint32_t op, std::uint32_t format, std::uint32_t layout);

/// Flag bits of an acceptance entry (Expect::accept).
inline constexpr std::uint8_t kAcceptNan = 0x1;   ///< any NaN is accepted
inline constexpr std::uint8_t kAcceptBits = 0x2;  ///< only lo itself, bit for bit (bit_exact); NaN: any NaN if kAcceptNan

/// One documented outcome of a case besides its expected one: a choice of the open reading the
/// case meets (suites/README.md, "Forced and open readings"), by the choice's name
/// (Rule::choices), as a status and detail (a refusal) or output planes (status NINFER_OK).
struct Alternative {
    std::string name;
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = 0;
    Planes outputs;
    /// Output planes whose bytes are only partly defined: per plane of `outputs`, one mask byte per
    /// byte, whose 1 bits must equal `outputs`' and whose 0 bits are free (ggml's iq4_nl below
    /// GROUP_MAX_EPS: a zero scale, any codes). Empty: every bit of every output plane counts.
    Planes mask{};
    bool operator==(const Alternative &) const = default;
};

/// `expected` with the bits that `mask` leaves free taken from `actual` (planes of another size,
/// or absent from either, unchanged): what a reply is compared with under a partial outcome.
Planes masked_expectation(const Planes &expected, const Planes &mask, const Planes &actual);

/// What the oracle expects of a call.
struct Expect {
    std::int32_t status = NINFER_OK;  ///< expected status; NINFER_OK or one NINFER_E_*
    std::uint32_t detail = 0;         ///< expected detail when status != OK (0: any)
    Planes outputs;  ///< expected output planes when status == OK, in the op's order; absent: 0 bytes
    /// Operators (op linear): the acceptance of each OUTPUT element under the case's profile
    /// (suites/LINEAR.md, "Acceptance"): per element, in row-major order, the words lo and hi
    /// (the OUTPUT plane's format, its byte width each, little-endian) and one flag byte
    /// (kAccept*). An actual word is accepted when its value lies in [value(lo), value(hi)]
    /// (-0 == +0; an infinite bound admits that infinity), or when kAcceptBits is set and it
    /// equals lo bit for bit, or when kAcceptNan is set and it is a NaN. Empty: the OUTPUT plane
    /// is compared bit for bit with `outputs`. `outputs` holds the correctly rounded word (the
    /// profile's defined word for bit_exact) as the documented reference value.
    std::vector<std::uint8_t> accept;
    /// An open reading the case meets: the open rule whose choices the outcomes are ("" when the
    /// case has one outcome), the name of the outcome above, and every other documented outcome.
    /// A reply matches the case when it matches the outcome above or any alternative (`accept`
    /// and the case's NaN policy apply to each). Every choice of the rule is one outcome.
    std::string reading{};
    std::string choice{};
    std::vector<Alternative> alternatives{};
    /// The expected outcome's mask (Alternative::mask): set only when `run --pin` chose a partial
    /// outcome; empty otherwise.
    Planes mask{};
    /// The expected bytes of an output plane (appended when absent; const: empty when absent).
    std::vector<std::uint8_t> &output(std::uint32_t name) { return plane_bytes(outputs, name); }
    const std::vector<std::uint8_t> &output(std::uint32_t name) const { return plane_bytes(outputs, name); }
};

/// One case: a call of the ABI, its inputs, the expected result, and where it comes from.
struct Case {
    std::string id;      ///< unique and stable: "<rule>/<slug>"
    std::string rule;    ///< rule id in the catalog (suites/rules)
    Level level = Level::quick;
    std::string source;  ///< provenance: "lesson Example 5", "boundary", "domain", "random seed=N"
    bool suite_reading = false;  ///< expected result rests on a documented suite reading

    std::uint32_t op = 0, format = 0, format_in = 0, layout = 0, method = 0, flags = 0;
    std::uint32_t profile = 0;  ///< an operator's compute profile (NINFER_PROFILE_*), else 0
    std::vector<std::uint64_t> shape;
    std::uint64_t count = 0;
    Planes inputs;  ///< in the op's order (op_planes)

    Expect expect;
    NanPolicy nan = NanPolicy::exact;

    /// The bytes of an input plane (appended when absent; const: empty when absent).
    std::vector<std::uint8_t> &input(std::uint32_t name) { return plane_bytes(inputs, name); }
    const std::vector<std::uint8_t> &input(std::uint32_t name) const { return plane_bytes(inputs, name); }
};

/// Every documented outcome of a case, the expected one first (named by Expect::choice): one
/// entry for a case without alternatives.
std::vector<Alternative> outcomes(const Expect &e);
/// The case with one of its outcomes as its only expected result (its choice named; no
/// alternatives left).
Case with_outcome(const Case &c, const Alternative &outcome);
/// Keep only the outcome named `choice` (`run --pin`): false, the case unchanged, when the case
/// has no outcome of that name.
bool pin_choice(Case &c, const std::string &choice);
/// Give a case an open reading: its expected outcome is the choice `choice` of rule `reading`,
/// and `other` another documented one.
void add_alternative(Case &c, const std::string &reading, const std::string &choice, Alternative other);

/// A case with its rule, id "<rule>/<slug>", level and provenance set; the call is left empty.
Case base_case(const std::string &rule, const std::string &slug, Level level, const std::string &source);

/// True for ops whose input and output planes are arrays of words (decode, classify, validate, convert).
bool is_word_op(std::uint32_t op);

/// Byte width of one input word and one output element of a word op (0 for buffer ops).
int in_word_bytes(const Case &c);
int out_word_bytes(const Case &c);

/// The low `digits` hex digits of a word, zero-padded ("3f80"): case ids and slugs.
std::string hex(std::uint64_t word, int digits);

/// Append a word of `bytes` little-endian bytes to a buffer; read the i-th one back.
void put_word(std::vector<std::uint8_t> &buf, std::uint64_t word, int bytes);
std::uint64_t get_word(const std::vector<std::uint8_t> &buf, std::size_t index, int bytes);

}  // namespace ninfer::suites
