// SPDX-License-Identifier: Apache-2.0
// One NaN verdict per behaviour (issue 21): each way an implementation may treat a NaN (payload
// kept, quieted, canonical of the sign, canonical positive, all ones, signalling kept) is played
// against every rule that sees a NaN of an IEEE format pair, through the real cases and the
// real comparison; decode and convert of the same format pair must agree (but for the sign the
// lesson requires of the BF16 widening), the payload and sign profiles must give the documented
// verdicts, and the NaN table of oracle/README.md must name an authority for every row of the
// table the code holds (suites/nan_principle.hpp).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ninfer/harness/compare.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/suites/nan_principle.hpp"
#include "ninfer/suites/suites.hpp"

using namespace ninfer;
using oracle::WordFormat;

namespace {

enum class Behaviour { payload_kept, quieted, canonical, canonical_positive, all_ones, snan_kept };
const std::vector<std::pair<Behaviour, const char *>> kBehaviours = {
    {Behaviour::payload_kept, "payload_kept"}, {Behaviour::quieted, "quieted"},   {Behaviour::canonical, "canonical"},
    {Behaviour::canonical_positive, "canonical_positive"}, {Behaviour::all_ones, "all_ones"}, {Behaviour::snan_kept, "snan_kept"}};

std::uint64_t ones(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/// What an implementation of `b` writes in `dst` for the NaN word `w` of `src` (IEEE formats):
/// the payload moved to the top of the target fraction, the quiet bit forced where it must be.
std::uint64_t behave(Behaviour b, const WordFormat &src, const WordFormat &dst, std::uint64_t w) {
    const std::uint64_t frac = w & ones(src.man_bits);
    const std::uint64_t moved = dst.man_bits >= src.man_bits ? frac << (dst.man_bits - src.man_bits) : frac >> (src.man_bits - dst.man_bits);
    const bool negative = (w >> (src.bits - 1)) & 1u;
    const std::uint64_t sign = negative ? 1ull << (dst.bits - 1) : 0, exp = ones(dst.exp_bits) << dst.man_bits;
    const std::uint64_t quiet = 1ull << (dst.man_bits - 1);
    const bool narrowing = dst.man_bits < src.man_bits;
    switch (b) {
    case Behaviour::payload_kept: return sign | exp | moved | (narrowing ? quiet : 0);  // the lesson's / the widening's word
    case Behaviour::quieted: return sign | exp | moved | quiet;
    case Behaviour::canonical: return sign | exp | quiet;                                  // Eigen, ml_dtypes: 0x7FC0 | sign
    case Behaviour::canonical_positive: return exp | quiet;                                // 0x7FC0 for every NaN
    case Behaviour::all_ones: return sign | exp | ones(dst.man_bits);
    case Behaviour::snan_kept: return sign | exp | (moved ? moved : 1);                    // numpy 1.24: 0x7C01
    }
    return 0;
}

bool is_ieee(const WordFormat &f) { return f.special == oracle::Special::IEEE; }

/// The formats a word case reads and writes, when both are IEEE formats (decode writes binary64).
bool ieee_pair(const suites::Case &c, const WordFormat *&src, const WordFormat *&dst) {
    if (c.op == NINFER_OP_decode) {
        src = &oracle::word_format(c.format);
        dst = &oracle::kBinary64;
    } else if (c.op == NINFER_OP_convert) {
        const auto &cv = oracle::conversion(c.method);
        src = &oracle::word_format(cv.src);
        dst = &oracle::word_format(cv.dst);
    } else {
        return false;
    }
    return is_ieee(*src) && is_ieee(*dst);
}

/// The reply of an implementation of `b`: the expected word for every number, b's word for every NaN.
harness::Reply reply_of(const suites::Case &c, Behaviour b, const WordFormat &src, const WordFormat &dst, bool &saw_nan) {
    const auto &in = c.input(NINFER_PLANE_WORDS);
    const std::uint32_t plane = c.op == NINFER_OP_decode ? NINFER_PLANE_VALUES : NINFER_PLANE_WORDS;
    auto out = c.expect.output(plane);
    const int ib = src.bytes(), ob = c.op == NINFER_OP_decode ? 8 : dst.bytes();
    for (std::uint64_t i = 0; i < c.count; ++i) {
        const std::uint64_t w = suites::get_word(in, i, ib);
        if (!harness::word_is_nan(src, w)) continue;
        saw_nan = true;
        const std::uint64_t a = behave(b, src, dst, w);
        for (int k = 0; k < ob; ++k) out[i * ob + k] = static_cast<std::uint8_t>(a >> (8 * k));
    }
    harness::Reply r;
    r.outcome = harness::Outcome::returned;
    r.status = NINFER_OK;
    r.outputs.push_back({plane, 0, out});
    return r;
}

using Verdicts = std::map<std::string, std::map<std::string, bool>>;  // rule -> behaviour -> passes

/// Every behaviour's verdict in every rule whose golden cases (level full) hold a NaN of an IEEE pair.
const Verdicts &verdicts() {
    static const Verdicts v = [] {
        Verdicts out;
        for (const char *suite : {"scalar.decode", "scalar.convert"})
            for (const auto &c : suites::find_suite(suite)->golden(suites::Level::full)) {
                const WordFormat *src = nullptr, *dst = nullptr;
                if (!ieee_pair(c, src, dst)) continue;
                for (const auto &[b, name] : kBehaviours) {
                    bool saw_nan = false;
                    const auto r = reply_of(c, b, *src, *dst, saw_nan);
                    if (!saw_nan) break;
                    const bool pass = harness::compare_reply(c, r, true, 4).status == reports::Status::pass;
                    auto &slot = out[c.rule].try_emplace(name, true).first->second;
                    slot = slot && pass;
                }
            }
        return out;
    }();
    return v;
}

std::string verdict_text(const std::map<std::string, bool> &m) {
    std::string t;
    for (const auto &[b, pass] : m) t += b + (pass ? "=pass " : "=fail ");
    return t;
}

}  // namespace

TEST_CASE("NaN verdicts: decode and convert of the same format pair agree on every behaviour", "[nan][verdict]") {
    const auto &v = verdicts();
    for (const auto &cv : oracle::kConversions) {
        const auto &src = oracle::word_format(cv.src), &dst = oracle::word_format(cv.dst);
        if (!is_ieee(src) || !is_ieee(dst) || cv.dst != NINFER_FORMAT_fp32) continue;
        const std::string decode = suites::rule::decode(src), convert = suites::rule::convert(cv);
        INFO(decode << ": " << verdict_text(v.at(decode)));
        INFO(convert << ": " << verdict_text(v.at(convert)));
        // No exception: a decode judges a NaN as the widening of the same word does (BF16's sign
        // kept by the lesson's toFloat in both; either sign elsewhere).
        CHECK(v.at(decode) == v.at(convert));  // issue 21: numpy's kept fp16 sNaN passes both
        if (suites::nan_principle(cv).policy == suites::NanPolicy::same_sign)
            CHECK_FALSE(v.at(decode).at("canonical_positive"));
    }
    // Every IEEE decode whose widening leaves the sign open treats a behaviour as decode.fp32 does.
    const auto &fp32 = v.at(suites::rule::decode(oracle::word_format(NINFER_FORMAT_fp32)));
    for (const auto &f : oracle::kWordFormats)
        if (is_ieee(f) && suites::decode_nan_principle(f).policy == suites::NanPolicy::any)
            CHECK(v.at(suites::rule::decode(f)) == fp32);
}

TEST_CASE("NaN verdicts: every main rule and NaN profile gives the documented verdict", "[nan][verdict]") {
    // The NaN principle (oracle/README.md): main rules ask a quiet NaN of either sign or (widening)
    // the word with every bit kept; where the lesson keeps the sign (Example 5, the BF16 pair and
    // so decode.bf16) a NaN of the sign; the sign profiles ask a NaN of the sign, the payload profiles the payload
    // word bit for bit.
    const std::map<std::string, bool> narrowing_main = {{"payload_kept", true}, {"quieted", true}, {"canonical", true},
                                                        {"canonical_positive", true}, {"all_ones", true}, {"snan_kept", false}};
    std::map<std::string, bool> widening_main = narrowing_main;
    widening_main["snan_kept"] = true;
    std::map<std::string, bool> narrowing_signed = narrowing_main, widening_signed = widening_main;
    narrowing_signed["canonical_positive"] = widening_signed["canonical_positive"] = false;
    const std::map<std::string, bool> narrowing_profile = {{"payload_kept", true}, {"quieted", true}, {"canonical", false},
                                                           {"canonical_positive", false}, {"all_ones", false}, {"snan_kept", false}};
    std::map<std::string, bool> widening_profile = narrowing_profile;
    widening_profile["quieted"] = false;
    widening_profile["snan_kept"] = true;
    const auto &v = verdicts();
    std::size_t rules = 0;
    const auto ends_with = [](const std::string &t, const std::string &suffix) {
        return t.size() > suffix.size() && t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const std::set<std::string> lesson_signed = {"convert.fp32_to_bf16_rne", "convert.bf16_to_fp32", "decode.bf16"};
    for (const auto &[rule, m] : v) {
        INFO(rule << ": " << verdict_text(m));
        const bool narrowing = rule.rfind("convert.fp32_to_", 0) == 0;
        const bool signed_main = ends_with(rule, ".nan_sign") || lesson_signed.count(rule) == 1;
        if (ends_with(rule, ".nan_payload")) CHECK(m == (narrowing ? narrowing_profile : widening_profile));
        else if (signed_main) CHECK(m == (narrowing ? narrowing_signed : widening_signed));
        else CHECK(m == (narrowing ? narrowing_main : widening_main));
        ++rules;
    }
    // decode of 4 IEEE formats, 5 narrowings and 3 widenings of IEEE pairs, 6 payload profiles,
    // 2 sign profiles (the E5M2 narrowings); issue 24's opt-in directions: 15 narrowings (bf16 3,
    // fp16 4, e5m2 8), their 7 payload profiles (bf16, fp16) and 8 sign profiles (e5m2); the 3 sr
    // narrowings of IEEE pairs (bf16, fp16, e5m2).
    CHECK(rules == 4 + 5 + 3 + 6 + 2 + 15 + 7 + 8 + 3);
    CHECK(v.count("convert.fp32_to_e5m2_rne_inf.nan_sign") == 1);
    CHECK(v.count("convert.fp32_to_bf16_rne.nan_payload") == 1);
    CHECK(v.count("convert.bf16_to_fp32.nan_payload") == 1);
}

namespace {

std::vector<std::string> cells_of(const std::string &line) {
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '|' && line[i - 1] != '\\') {
            const auto a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
            cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    return cells;
}

/// The rows of the NaN table of oracle/README.md: rule (backticks removed) -> its cells.
std::map<std::string, std::vector<std::string>> doc_nan_table() {
    std::ifstream in(std::string(NINFER_SOURCE_DIR) + "/oracle/README.md");
    REQUIRE(in.good());
    std::map<std::string, std::vector<std::string>> rows;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("| rule | a NaN input becomes | policy | authority |", 0) == 0) {
            inside = true;
            continue;
        }
        if (!inside || line.rfind("|---", 0) == 0) continue;
        if (line.empty() || line[0] != '|') break;
        auto cells = cells_of(line);
        REQUIRE(cells.size() == 4);
        std::string rule = cells[0];
        if (rule.size() > 2 && rule.front() == '`' && rule.back() == '`') rule = rule.substr(1, rule.size() - 2);
        rows[rule] = cells;
    }
    return rows;
}

}  // namespace

TEST_CASE("NaN table: oracle/README.md names the authority of every row the code holds", "[nan][docs]") {
    const auto doc = doc_nan_table();
    const auto table = suites::nan_table();
    REQUIRE(table.size() > 20);
    CHECK(doc.size() == table.size());
    for (const auto &row : table) {
        INFO(row.rule);
        const auto it = doc.find(row.rule);
        REQUIRE(it != doc.end());
        CHECK_FALSE(row.authority.empty());
        CHECK(it->second[2] == suites::nan_policy_name(row.policy));
        CHECK(it->second[3] == row.authority);
    }
    for (const auto &[rule, cells] : doc) {
        INFO(rule);
        CHECK(cells[3].size() > 3);  // every documented row names its authority
    }
}
