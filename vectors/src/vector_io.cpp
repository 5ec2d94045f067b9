// SPDX-License-Identifier: Apache-2.0
// One case as one JSON line of the vector file format, version 4 (vectors/README.md): fixed key
// order, registry names for ids, named planes (ABI v2) holding hex words or hex byte images.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/methods.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/formats.hpp"
#include "ninfer/suites/rules.hpp"
#include "ninfer/vectors/bounded_input.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::vectors {

namespace {

using ordered_json = nlohmann::ordered_json;
using suites::Case;

/// A status as the vector files write it ("ok", "E_SIZE"): abi/text.hpp, from plugin.h's rows.
std::string status_name(std::int32_t code) {
    if (const auto *s = abi::find_status(code)) return std::string(s->vector);
    throw std::logic_error("vector writer: status " + std::to_string(code) + " has no name");
}

/// The words of a little-endian packed buffer as an array of hex words.
ordered_json words_json(const std::vector<std::uint8_t> &buf, int bytes, const std::string &what) {
    if (bytes <= 0 || buf.size() % static_cast<std::size_t>(bytes) != 0)
        throw std::logic_error("vector writer: " + what + " is not a whole number of " + std::to_string(bytes) +
                               "-byte words");
    ordered_json a = ordered_json::array();
    for (std::size_t i = 0; i < buf.size() / static_cast<std::size_t>(bytes); ++i)
        a.push_back(abi::hex_word(suites::get_word(buf, i, bytes), 2 * bytes));
    return a;
}

ordered_json name_or_null(std::string_view name, std::uint32_t id, const char *what) {
    if (id == 0) return nullptr;
    if (name.empty()) throw std::logic_error(std::string("vector writer: ") + what + " id " + std::to_string(id) + " has no name");
    return std::string(name);
}

std::string profile_name(std::uint32_t id) {
    const auto *p = abi::find_id(abi::kProfiles, id);
    return p ? std::string(p->name) : std::string();
}

/// The byte width of the words of an operator's expected OUTPUT plane (its format's), or 0 when
/// the plane is absent or has no word format.
int accept_word_bytes(const Case &c) {
    const auto *out = suites::find_plane(c.expect.outputs, NINFER_PLANE_OUTPUT);
    if (!out || out->format == 0) return 0;
    const auto *f = oracle::find_id(oracle::kWordFormats, out->format);
    return f ? f->bytes() : 0;
}

/// Expect::accept as an array of [lo, hi, flags]: lo and hi hex words of the OUTPUT plane's
/// format (most significant digit first), flags the kAccept* bits.
ordered_json accept_json(const Case &c) {
    ordered_json a = ordered_json::array();
    if (c.expect.accept.empty()) return a;
    const int w = accept_word_bytes(c);
    const std::size_t entry = 2 * static_cast<std::size_t>(w) + 1;
    if (w == 0 || c.expect.accept.size() % entry != 0)
        throw std::logic_error("vector writer: case " + c.id + ": expect.accept needs an expected output plane with a word format "
                               "and " + std::to_string(entry) + " bytes per element");
    for (std::size_t i = 0; i < c.expect.accept.size() / entry; ++i) {
        const auto *b = c.expect.accept.data() + i * entry;
        a.push_back(ordered_json::array({abi::hex_word(abi::load_le(b, w), 2 * w), abi::hex_word(abi::load_le(b + w, w), 2 * w), b[2 * w]}));
    }
    return a;
}

// ---- reading ----

[[noreturn]] void fail(const std::string &where, const std::string &what) { throw VectorError(where + ": " + what); }

const nlohmann::json &field(const nlohmann::json &j, const char *key, const std::string &where, const std::string &ctx = "") {
    auto it = j.find(key);
    if (it == j.end()) fail(where, "missing key \"" + ctx + key + "\"");
    return *it;
}

std::string get_string(const nlohmann::json &j, const char *key, const std::string &where, const std::string &ctx = "") {
    const auto &v = field(j, key, where, ctx);
    if (!v.is_string()) fail(where, "key \"" + ctx + key + "\": expected a string, found " + echo_json(v));
    return v.get<std::string>();
}

std::uint64_t get_u64(const nlohmann::json &j, const char *key, const std::string &where, std::uint64_t max,
                      const std::string &ctx = "") {
    const auto &v = field(j, key, where, ctx);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
        fail(where, "key \"" + ctx + key + "\": expected an unsigned integer, found " + echo_json(v));
    const auto x = v.get<std::uint64_t>();
    if (x > max) fail(where, "key \"" + ctx + key + "\": " + std::to_string(x) + " exceeds " + std::to_string(max));
    return x;
}

std::vector<std::uint8_t> parse_bytes_hex(const nlohmann::json &v, const std::string &where, const std::string &key) {
    if (!v.is_string()) fail(where, "key \"" + key + "\": expected a hex string of bytes, found " + echo_json(v));
    const auto &s = v.get_ref<const std::string &>();
    if (s.size() % 2 != 0) fail(where, "key \"" + key + "\": bad hex: odd number of digits (" + std::to_string(s.size()) + ")");
    std::vector<std::uint8_t> out;
    if (abi::parse_hex_bytes(s, out).empty()) return out;
    // The vector files' wording of the refusal: the offset of the first non-hex digit.
    const auto bad = std::find_if(s.begin(), s.end(), [](char ch) { return abi::hex_digit_value(ch) < 0; }) - s.begin();
    fail(where, "key \"" + key + "\": bad hex: non-hex digit at offset " + std::to_string(bad));
}

std::vector<std::uint8_t> parse_words_hex(const nlohmann::json &v, int bytes, std::uint64_t count, const std::string &where,
                                          const std::string &key) {
    if (!v.is_array()) fail(where, "key \"" + key + "\": expected an array of hex words, found " + echo_json(v));
    if (v.size() != count)
        fail(where, "key \"" + key + "\": wrong word count: " + std::to_string(v.size()) + " words where count is " +
                        std::to_string(count));
    std::vector<std::uint8_t> out;
    out.reserve(v.size() * static_cast<std::size_t>(bytes));
    const std::size_t digits = static_cast<std::size_t>(bytes) * 2;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto &e = v[i];
        if (!e.is_string() || e.get_ref<const std::string &>().size() != digits)
            fail(where, "key \"" + key + "\"[" + std::to_string(i) + "]: bad hex: expected a string of " +
                            std::to_string(digits) + " hex digits, found " + echo_json(e));
        std::uint64_t w = 0;
        for (char ch : e.get_ref<const std::string &>()) {
            const int d = abi::hex_digit_value(ch);
            if (d < 0) fail(where, "key \"" + key + "\"[" + std::to_string(i) + "]: bad hex: non-hex digit in " + echo_json(e));
            w = w << 4 | static_cast<std::uint64_t>(d);
        }
        suites::put_word(out, w, bytes);
    }
    return out;
}

void require_exact_keys(const nlohmann::json &j, const std::set<std::string> &keys, const std::string &where,
                        const std::string &ctx) {
    for (const auto &[k, v] : j.items())
        if (!keys.count(k)) fail(where, "unknown key \"" + ctx + echo(k) + "\"");
    for (const auto &k : keys)
        if (!j.contains(k)) fail(where, "missing key \"" + ctx + k + "\"");
}

/// expect.accept: [[lo, hi, flags], ...], one entry per word of the expected OUTPUT plane, the
/// words at that plane's format's width.
void read_accept(const nlohmann::json &a, Case &c, const std::string &where) {
    if (!a.is_array()) fail(where, "key \"expect.accept\": expected an array of [lo, hi, flags], found " + echo_json(a));
    if (a.empty()) return;
    const int w = accept_word_bytes(c);
    if (w == 0)
        fail(where, "key \"expect.accept\": needs an expected output plane with a word format (expect.outputs.output "
                    "{\"format\": ..., \"bytes\": ...})");
    const std::uint64_t words = c.expect.output(NINFER_PLANE_OUTPUT).size() / static_cast<std::size_t>(w);
    if (a.size() != words)
        fail(where, "key \"expect.accept\": " + std::to_string(a.size()) + " entries where the expected output holds " +
                        std::to_string(words) + " words");
    c.expect.accept.reserve(a.size() * (2 * static_cast<std::size_t>(w) + 1));
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string key = "expect.accept[" + std::to_string(i) + "]";
        const auto &e = a[i];
        if (!e.is_array() || e.size() != 3)
            fail(where, "key \"" + key + "\": expected [lo, hi, flags], found " + echo_json(e));
        auto lo = parse_words_hex(nlohmann::json::array({e[0]}), w, 1, where, key + ".lo");
        auto hi = parse_words_hex(nlohmann::json::array({e[1]}), w, 1, where, key + ".hi");
        if (!e[2].is_number_unsigned() || e[2].get<std::uint64_t>() > (suites::kAcceptNan | suites::kAcceptBits))
            fail(where, "key \"" + key + "\": flags: expected an integer of the bits 1 (any NaN) and 2 (bits), found " +
                            echo_json(e[2]));
        c.expect.accept.insert(c.expect.accept.end(), lo.begin(), lo.end());
        c.expect.accept.insert(c.expect.accept.end(), hi.begin(), hi.end());
        c.expect.accept.push_back(static_cast<std::uint8_t>(e[2].get<std::uint64_t>()));
    }
}

/// A status by name: "ok" or an E_* name of plugin.h.
std::int32_t read_status(const nlohmann::json &o, const std::string &where, const std::string &ctx) {
    const auto status = get_string(o, "status", where, ctx);
    if (const auto code = abi::status_of_vector_name(status)) return *code;
    fail(where, "unknown " + ctx + "status \"" + echo(status) + "\" (expected ok or an E_* name of plugin.h)");
}

/// The outcomes of an open reading: a rule of the catalog with that choice names, each once.
void check_outcome_names(const Case &c, const std::string &where) {
    const auto *rule = suites::find_rule(c.expect.reading);
    if (!rule || rule->reading_kind != suites::ReadingKind::open)
        fail(where, "key \"expect.reading\": \"" + echo(c.expect.reading) + "\" is not an open reading of the catalog");
    std::set<std::string> seen;
    for (const auto &o : suites::outcomes(c.expect)) {
        if (!rule->find_choice(o.name))
            fail(where, "outcome \"" + echo(o.name) + "\" is not a choice of " + rule->id);
        if (!seen.insert(o.name).second) fail(where, "outcome \"" + echo(o.name) + "\" appears twice");
    }
}

/// One line as a JSON object of exactly the keys of a case (vectors/README.md, "Lines 2..").
nlohmann::json parse_case_object(const std::string &line, const std::string &where) {
    nlohmann::json j;
    std::string error;
    if (!parse_json_bounded(line, j, error)) {
        const std::string why = error.substr(error.find(": ") + 2);
        if (why.rfind("not JSON", 0) == 0)
            fail(where, "truncated or malformed line: expected one complete JSON object (" + why + ")");
        fail(where, why);
    }
    if (!j.is_object()) fail(where, "expected a JSON object, found " + echo_json(j));
    require_exact_keys(j,
                       {"id", "rule", "level", "source", "suite_reading", "op", "format", "format_in", "layout",
                        "method", "flags", "shape", "count", "profile", "inputs", "expect", "nan"},
                       where, "");
    return j;
}

/// id, rule, level, source, suite_reading: the rule of the catalog a case tests and where it comes from.
void read_provenance(const nlohmann::json &j, Case &c, const std::string &where) {
    c.id = get_string(j, "id", where);
    c.rule = get_string(j, "rule", where);
    if (!suites::find_rule(c.rule)) fail(where, "unknown rule \"" + echo(c.rule) + "\" (expected a rule id of the catalog)");
    if (c.id.rfind(c.rule + "/", 0) != 0 || c.id.size() == c.rule.size() + 1)
        fail(where, "id \"" + echo(c.id) + "\": expected \"" + c.rule + "/<slug>\"");
    const auto level = get_string(j, "level", where);
    if (!suites::parse_level(level, c.level)) fail(where, "unknown level \"" + echo(level) + "\" (expected quick, full or exhaustive)");
    c.source = get_string(j, "source", where);
    if (!field(j, "suite_reading", where).is_boolean()) fail(where, "key \"suite_reading\": expected true or false");
    c.suite_reading = field(j, "suite_reading", where).get<bool>();
}

/// A format key by registry name, 0 for null.
std::uint32_t read_format(const nlohmann::json &j, const char *key, const std::string &where) {
    const auto &v = field(j, key, where);
    if (v.is_null()) return 0;
    if (!v.is_string()) fail(where, std::string("key \"") + key + "\": expected a format name or null");
    const auto id = oracle::format_id(v.get<std::string>());
    if (!id) fail(where, std::string("unknown ") + key + " \"" + echo(v.get<std::string>()) + "\" (expected a format of the registry)");
    return *id;
}

/// op, format, format_in, layout, method: the registry names of the call, each to its id.
void read_call_ids(const nlohmann::json &j, Case &c, const std::string &where) {
    const auto op = get_string(j, "op", where);
    const auto *o = oracle::find_name(oracle::kOps, op);
    if (!o) fail(where, "unknown op \"" + echo(op) + "\" (expected an op of the registry)");
    c.op = o->id;
    c.format = read_format(j, "format", where);
    c.format_in = read_format(j, "format_in", where);
    if (!field(j, "layout", where).is_null()) {
        const auto name = get_string(j, "layout", where);
        const auto *l = oracle::find_name(oracle::kLayouts, name);
        if (!l) fail(where, "unknown layout \"" + echo(name) + "\" (expected a layout of the registry)");
        c.layout = l->id;
    }
    if (!field(j, "method", where).is_null()) {
        const auto name = get_string(j, "method", where);
        const auto id = abi::method_id(c.op, name);
        if (!id) fail(where, "unknown method \"" + echo(name) + "\" for op " + op + " (expected a conversion, role or encoder name)");
        c.method = *id;
    }
}

/// The compute profile: a registered one by name, an unregistered id (a refusal case) as its number.
std::uint32_t read_profile(const nlohmann::json &j, const std::string &where) {
    const auto &v = field(j, "profile", where);
    if (v.is_number_unsigned()) {
        const auto id = get_u64(j, "profile", where, 0xFFFFFFFFull);
        if (id == 0 || abi::find_id(abi::kProfiles, static_cast<std::uint32_t>(id)))
            fail(where, "key \"profile\": " + std::to_string(id) +
                            " must be written by name (a number stands only for an unregistered profile id)");
        return static_cast<std::uint32_t>(id);
    }
    if (v.is_null()) return 0;
    const auto name = get_string(j, "profile", where);
    const auto *p = abi::find_name(abi::kProfiles, name);
    if (!p) fail(where, "unknown profile \"" + echo(name) + "\" (expected a compute profile of the registry or null)");
    return p->id;
}

/// flags, shape, count, profile: the extent of the call.
void read_call_extent(const nlohmann::json &j, Case &c, const std::string &where) {
    c.flags = static_cast<std::uint32_t>(get_u64(j, "flags", where, 0xFFFFFFFFu));
    const auto &shape = field(j, "shape", where);
    if (!shape.is_array() || shape.size() > NINFER_MAX_RANK)
        fail(where, "key \"shape\": expected an array of at most 16 unsigned integers");
    for (const auto &d : shape) {
        if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<std::int64_t>() >= 0))
            fail(where, "key \"shape\": expected unsigned integers, found " + echo_json(d));
        c.shape.push_back(d.get<std::uint64_t>());
    }
    c.count = get_u64(j, "count", where, ~0ull);
    c.profile = read_profile(j, where);
}

/// expect's keys, status and detail; whether it meets an open reading (version 4's alternatives).
bool read_expect_status(const nlohmann::json &ex, Case &c, const std::string &where) {
    if (!ex.is_object()) fail(where, "key \"expect\": expected an object");
    const bool open = ex.contains("alternatives");
    if (open)
        require_exact_keys(ex, {"status", "detail", "outputs", "accept", "reading", "choice", "alternatives"}, where, "expect.");
    else
        require_exact_keys(ex, {"status", "detail", "outputs", "accept"}, where, "expect.");
    c.expect.status = read_status(ex, where, "expect.");
    c.expect.detail = static_cast<std::uint32_t>(get_u64(ex, "detail", where, 0xFFFFFFFFu, "expect."));
    return open;
}

/// A word op's input and output word widths (0, 0 for any other op), its formats checked
/// against its conversion or role.
std::pair<int, int> word_op_widths(const Case &c, const std::string &where) {
    if (!suites::is_word_op(c.op)) return {0, 0};
    int ib = 0, ob = 0;
    try {
        ib = suites::in_word_bytes(c);
        ob = suites::out_word_bytes(c);
    } catch (const std::exception &) {
        const auto kind = abi::method_kind(c.op);
        fail(where, "op " + std::string(abi::op_name(c.op)) + " needs a " + (kind.empty() ? "word format" : std::string(kind)) + " name");
    }
    if (c.op == NINFER_OP_convert &&
        (c.format != oracle::conversion(c.method).dst || c.format_in != oracle::conversion(c.method).src))
        fail(where, "format/format_in do not match conversion " + std::string(oracle::conversion(c.method).name) +
                        " (expected its target and source formats)");
    if (c.op == NINFER_OP_validate && c.format != oracle::role(c.method).format)
        fail(where, "format does not match role " + std::string(oracle::role(c.method).name) + " (expected its word format)");
    return {ib, ob};
}

/// Named planes (suites::op_planes): each a plane of the op, read in the op's order.
struct PlaneReader {
    const std::string &where;
    std::string op;  ///< the op's name, for messages
    /// A refusal case's input planes: a word op's plane of another size than `count` words is
    /// a hex byte image (vectors/README.md, "Planes of the wrong size").
    bool sized_refusal = false;

    /// Refuses a key of `o` that is not a plane of `order`.
    void require_known(const nlohmann::json &o, const std::vector<std::uint32_t> &order, const std::string &key) const {
        std::string names;
        for (const auto n : order) names += (names.empty() ? "" : ", ") + std::string(abi::plane_name(n));
        for (const auto &[name, v] : o.items()) {
            const auto id = abi::plane_id(name);
            if (std::find(order.begin(), order.end(), id) == order.end() || id == 0)
                fail(where, "key \"" + key + "\": unknown plane \"" + echo(name) + "\" for op " + op + " (expected " +
                                (names.empty() ? std::string("none") : names) + ")");
        }
    }

    /// One plane: `words` hex words of `word_bytes`, a hex byte image, or {"format", "bytes"}.
    suites::Plane plane(std::uint32_t n, const nlohmann::json &v, int word_bytes, std::uint64_t words, const std::string &sub) const {
        if (word_bytes && sized_refusal && v.is_string()) {
            auto bytes = parse_bytes_hex(v, where, sub);
            if (bytes.size() == words * static_cast<std::uint64_t>(word_bytes))
                fail(where, "key \"" + sub + "\": a plane of count words is an array of hex words, not a byte image");
            return {n, 0, std::move(bytes)};
        }
        if (word_bytes) return {n, 0, parse_words_hex(v, word_bytes, words, where, sub)};
        if (!v.is_object()) return {n, 0, parse_bytes_hex(v, where, sub)};
        // A plane with its element format: {"format": name, "bytes": hex}.
        require_exact_keys(v, {"format", "bytes"}, where, sub + ".");
        const auto fname = get_string(v, "format", where, sub + ".");
        const auto fid = oracle::format_id(fname);
        if (!fid) fail(where, "key \"" + sub + ".format\": unknown format \"" + echo(fname) + "\" (expected a format of the registry)");
        return {n, *fid, parse_bytes_hex(v["bytes"], where, sub + ".bytes")};
    }

    suites::Planes read(const nlohmann::json &o, const std::vector<std::uint32_t> &order, int word_bytes, std::uint64_t words,
                        const std::string &key) const {
        if (!o.is_object()) fail(where, "key \"" + key + "\": expected an object of named planes, found " + echo_json(o));
        require_known(o, order, key);
        suites::Planes out;
        for (const auto n : order) {
            const std::string name(abi::plane_name(n));
            if (o.contains(name)) out.push_back(plane(n, o[name], word_bytes, words, key + "." + name));
        }
        return out;
    }
};

/// reading, choice and alternatives (version 4): the other outcomes of an open reading.
void read_open_reading(const nlohmann::json &ex, Case &c, const PlaneReader &reader, const std::vector<std::uint32_t> &outputs,
                       int ob, const std::string &where) {
    c.expect.reading = get_string(ex, "reading", where, "expect.");
    c.expect.choice = get_string(ex, "choice", where, "expect.");
    const auto &alts = ex["alternatives"];
    if (!alts.is_array() || alts.empty())
        fail(where, "key \"expect.alternatives\": expected a non-empty array of {name, status, detail, outputs}");
    for (std::size_t i = 0; i < alts.size(); ++i) {
        const std::string ctx = "expect.alternatives[" + std::to_string(i) + "].";
        if (!alts[i].is_object()) fail(where, "key \"" + ctx + "\": expected an object");
        // A partial outcome (version 4 addition) also carries "mask": its defined bits, plane by plane.
        const bool partial = alts[i].contains("mask");
        if (partial) require_exact_keys(alts[i], {"name", "status", "detail", "outputs", "mask"}, where, ctx);
        else require_exact_keys(alts[i], {"name", "status", "detail", "outputs"}, where, ctx);
        suites::Alternative a;
        a.name = get_string(alts[i], "name", where, ctx);
        a.status = read_status(alts[i], where, ctx);
        a.detail = static_cast<std::uint32_t>(get_u64(alts[i], "detail", where, 0xFFFFFFFFu, ctx));
        a.outputs = reader.read(field(alts[i], "outputs", where, ctx), outputs, ob, a.status == NINFER_OK ? c.count : 0,
                                ctx + "outputs");
        if (partial) {
            a.mask = reader.read(field(alts[i], "mask", where, ctx), outputs, ob, a.status == NINFER_OK ? c.count : 0, ctx + "mask");
            if (a.status != NINFER_OK || a.mask.empty()) fail(where, "key \"" + ctx + "mask\": expected the masks of an ok outcome's output planes");
            for (const auto &m : a.mask) {
                const auto *o = suites::find_plane(a.outputs, m.name);
                if (!o || o->bytes.size() != m.bytes.size())
                    fail(where, "key \"" + ctx + "mask." + std::string(abi::plane_name(m.name)) +
                                    "\": expected as many bytes as the outcome's plane of that name");
            }
        }
        c.expect.alternatives.push_back(std::move(a));
    }
    check_outcome_names(c, where);
}

/// nan: how an expected NaN word matches.
suites::NanPolicy read_nan_policy(const nlohmann::json &j, const std::string &where) {
    const auto nan = get_string(j, "nan", where);
    for (const auto p : {suites::NanPolicy::exact, suites::NanPolicy::same_sign, suites::NanPolicy::any})
        if (nan == suites::nan_policy_name(p)) return p;
    fail(where, "unknown nan policy \"" + echo(nan) + "\" (expected exact, same_sign or any)");
}

}  // namespace

std::string case_to_line(const Case &c) {
    using namespace ninfer::oracle;
    const bool words = suites::is_word_op(c.op);
    ordered_json j;
    j["id"] = c.id;
    j["rule"] = c.rule;
    j["level"] = suites::level_name(c.level);
    j["source"] = c.source;
    j["suite_reading"] = c.suite_reading;
    j["op"] = name_or_null(op_name(c.op), c.op, "op");
    j["format"] = name_or_null(format_name(c.format), c.format, "format");
    j["format_in"] = name_or_null(format_name(c.format_in), c.format_in, "format_in");
    j["layout"] = name_or_null(layout_name(c.layout), c.layout, "layout");
    j["method"] = name_or_null(abi::method_name(c.op, c.method), c.method, "method");
    j["flags"] = c.flags;
    j["shape"] = c.shape;
    j["count"] = c.count;
    // An unregistered profile id (a refusal case of linear.profile) is written as its number.
    if (c.profile != 0 && profile_name(c.profile).empty())
        j["profile"] = c.profile;
    else
        j["profile"] = name_or_null(profile_name(c.profile), c.profile, "profile");
    const auto planes = suites::op_planes(c.op, c.format, c.layout);
    // A word op's planes are arrays of count words; any other plane is a hex byte image.
    const auto plane_json = [&](const suites::Planes &list, const std::vector<std::uint32_t> &order, int word_bytes,
                                bool check_count, const char *what, bool refusal = false) {
        ordered_json o = ordered_json::object();
        std::size_t next = 0;
        for (const auto &p : list) {
            const auto at = std::find(order.begin(), order.end(), p.name);
            if (at == order.end() || static_cast<std::size_t>(at - order.begin()) < next)
                throw std::logic_error("vector writer: case " + c.id + ": " + what + " plane " +
                                       std::string(abi::plane_name(p.name)) + " is not next in the op's plane order");
            next = static_cast<std::size_t>(at - order.begin()) + 1;
            const std::string key(abi::plane_name(p.name));
            if (!words) {
                // A plane with an element format of its own (an operator's ACTIVATION and
                // OUTPUT): {"format": name, "bytes": hex}; any other: the hex string.
                if (p.format == 0) o[key] = abi::hex_bytes(p.bytes);
                else
                    o[key] = ordered_json{{"format", name_or_null(format_name(p.format), p.format, "plane format")},
                                          {"bytes", abi::hex_bytes(p.bytes)}};
                continue;
            }
            if (p.format != 0)
                throw std::logic_error("vector writer: case " + c.id + ": word op plane " + key + " has a format");
            const bool sized = p.bytes.size() == c.count * static_cast<std::uint64_t>(word_bytes);
            if (!sized && check_count && refusal) {  // a refusal's plane of the wrong size: its bytes
                o[key] = abi::hex_bytes(p.bytes);
                continue;
            }
            if (!sized && check_count)
                throw std::logic_error("vector writer: case " + c.id + ": " + what + " plane " + key + " holds " +
                                       std::to_string(p.bytes.size()) + " bytes, count says " + std::to_string(c.count) +
                                       " words");
            o[key] = words_json(p.bytes, word_bytes, c.id + " " + key);
        }
        return o;
    };
    j["inputs"] = plane_json(c.inputs, planes.inputs, words ? suites::in_word_bytes(c) : 0, true, "input",
                             c.expect.status != NINFER_OK);
    ordered_json e;
    e["status"] = status_name(c.expect.status);
    e["detail"] = c.expect.detail;
    e["outputs"] = plane_json(c.expect.outputs, planes.outputs, words ? suites::out_word_bytes(c) : 0,
                              c.expect.status == NINFER_OK, "expected output");
    e["accept"] = accept_json(c);
    // An open reading's outcomes (version 4): written only when the case has alternatives.
    if (!c.expect.alternatives.empty()) {
        e["reading"] = c.expect.reading;
        e["choice"] = c.expect.choice;
        e["alternatives"] = ordered_json::array();
        for (const auto &a : c.expect.alternatives) {
            ordered_json alt{{"name", a.name},
                             {"status", status_name(a.status)},
                             {"detail", a.detail},
                             {"outputs", plane_json(a.outputs, planes.outputs, words ? suites::out_word_bytes(c) : 0,
                                                    a.status == NINFER_OK, "alternative output")}};
            if (!a.mask.empty())
                alt["mask"] = plane_json(a.mask, planes.outputs, words ? suites::out_word_bytes(c) : 0, a.status == NINFER_OK,
                                         "alternative mask");
            e["alternatives"].push_back(std::move(alt));
        }
    }
    if (!c.expect.mask.empty())
        throw std::logic_error("vector writer: case " + c.id + ": the expected outcome is partial (only an alternative may be)");
    j["expect"] = std::move(e);
    j["nan"] = suites::nan_policy_name(c.nan);
    return j.dump();
}

Case case_from_line(const std::string &line, const std::string &where) {
    const nlohmann::json j = parse_case_object(line, where);
    Case c;
    read_provenance(j, c, where);
    read_call_ids(j, c, where);
    read_call_extent(j, c, where);
    const auto &ex = field(j, "expect", where);
    const bool open = read_expect_status(ex, c, where);
    const auto [ib, ob] = word_op_widths(c, where);
    const auto planes = suites::op_planes(c.op, c.format, c.layout);
    const PlaneReader reader{where, std::string(abi::op_name(c.op))};
    const PlaneReader input_reader{where, reader.op, c.expect.status != NINFER_OK};
    c.inputs = input_reader.read(field(j, "inputs", where), planes.inputs, ib, c.count, "inputs");
    c.expect.outputs = reader.read(field(ex, "outputs", where, "expect."), planes.outputs, ob,
                                   c.expect.status == NINFER_OK ? c.count : 0, "expect.outputs");
    read_accept(field(ex, "accept", where, "expect."), c, where);
    if (open) read_open_reading(ex, c, reader, planes.outputs, ob, where);
    c.nan = read_nan_policy(j, where);
    return c;
}

}  // namespace ninfer::vectors
