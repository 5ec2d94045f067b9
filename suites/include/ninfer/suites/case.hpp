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

/// What the oracle expects of a call.
struct Expect {
    std::int32_t status = NINFER_OK;  ///< expected status; NINFER_OK or one NINFER_E_*
    std::uint32_t detail = 0;         ///< expected detail when status != OK (0: any)
    std::vector<std::uint8_t> out, out2, out3;  ///< expected outputs when status == OK
};

/// One case: a call of the ABI, its inputs, the expected result, and where it comes from.
struct Case {
    std::string id;      ///< unique and stable: "<rule>/<slug>"
    std::string rule;    ///< rule id in the catalog (suites/rules)
    Level level = Level::quick;
    std::string source;  ///< provenance: "lesson Example 5", "boundary", "domain", "random seed=N"
    bool suite_reading = false;  ///< expected result rests on a documented suite reading

    std::uint32_t op = 0, format = 0, format_in = 0, layout = 0, method = 0, flags = 0;
    std::vector<std::uint64_t> shape;
    std::uint64_t count = 0;
    std::vector<std::uint8_t> in, aux;

    Expect expect;
    NanPolicy nan = NanPolicy::exact;
};

/// A case with its rule, id "<rule>/<slug>", level and provenance set; the call is left empty.
Case base_case(const std::string &rule, const std::string &slug, Level level, const std::string &source);

/// True for ops whose `in`/`out` are arrays of words (decode, classify, validate, convert).
bool is_word_op(std::uint32_t op);

/// Byte width of one input word and one output element of a word op (0 for buffer ops).
int in_word_bytes(const Case &c);
int out_word_bytes(const Case &c);

/// Append a word of `bytes` little-endian bytes to a buffer; read the i-th one back.
void put_word(std::vector<std::uint8_t> &buf, std::uint64_t word, int bytes);
std::uint64_t get_word(const std::vector<std::uint8_t> &buf, std::size_t index, int bytes);

}  // namespace ninfer::suites
