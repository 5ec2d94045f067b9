// SPDX-License-Identifier: Apache-2.0
// An external command speaking the exec protocol (harness/README.md, "The exec protocol"): one
// request, one reply, registry names instead of ids; JSON lines with hex planes, or binary frames
// (a JSON header and raw little-endian planes) for a subject that chooses them in its hello;
// call ids, when the hello chooses them, match each reply to its call ("Reply matching").
#include <signal.h>

#include <algorithm>
#include <deque>
#include <exception>
#include <iterator>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/subject.hpp"
#include "ninfer/reports/report.hpp"
#include "child_subject.hpp"
#include "wire.hpp"

namespace ninfer::harness {
namespace {

using nlohmann::json;
using wire::Child;
using wire::Clock;

constexpr auto kHandshakeGrace = std::chrono::seconds(5);
constexpr std::size_t kMaxHelloLine = 16u << 20;
constexpr std::uint64_t kMaxIotaBytes = 1ull << 30;  ///< hex doubles it on the pipe
/// Deepest nesting of arrays and objects a hello or reply may have (both need 3): deeper
/// values are refused before they are parsed, so that no recursion depends on the subject.
constexpr int kMaxJsonDepth = 32;
constexpr std::size_t kMaxIdentity = 256;  ///< bytes kept of a subject's name and version

// Binary frames (harness/README.md, "Binary framing"): 16 bytes of prefix, a JSON header, raw planes.
constexpr char kFrameMagic[4] = {'N', 'F', 'B', '1'};
constexpr std::size_t kFramePrefix = 16;             ///< magic, uint32 header_len, uint64 payload_len
constexpr std::uint32_t kMaxFrameHeader = 1u << 20;  ///< bytes of a reply frame's JSON header
/// Calls of a subject with call ids whose late surplus replies are still told by their id
/// (harness/README.md, "Reply matching"); an older id is a reply to no call.
constexpr std::size_t kRememberedCalls = 256;

enum class Framing : std::uint8_t { lines, binary };

/// The prefix of a frame whose JSON header has `header_len` bytes and whose planes have `payload_len`.
std::string frame_prefix(std::uint32_t header_len, std::uint64_t payload_len) {
    std::string p(kFramePrefix, '\0');
    auto *u = reinterpret_cast<std::uint8_t *>(p.data());
    std::copy(std::begin(kFrameMagic), std::end(kFrameMagic), p.begin());
    abi::store_le32(u + 4, header_len);
    abi::store_le64(u + 8, payload_len);
    return p;
}

/// Whether a JSON text nests arrays and objects deeper than `max` (strings skipped).
bool nests_deeper_than(std::string_view text, int max) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (const char ch : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (ch == '\\') escaped = true;
            else if (ch == '"') in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            if (++depth > max) return true;
        } else if (ch == ']' || ch == '}') {
            --depth;
        }
    }
    return false;
}

/// A value named in a message: its type, and a number's digits (never a dump of a structure).
std::string brief(const nlohmann::json &j) {
    if (j.is_number()) return j.dump();
    return j.type_name();
}

std::string type_of(const json &j) { return j.type_name(); }

/// A registry name when the id has one; otherwise the number (null for 0).
json name_or_id(std::string_view name, std::uint32_t id) {
    if (id == 0) return nullptr;
    if (!name.empty()) return std::string(name);
    return id;
}

/// Reads an optional registry name field of a capability; "" or why it is wrong.
template <class Lookup>
std::string cap_field(const json &cap, const char *key, const char *what, Lookup lookup, std::uint32_t &id) {
    id = 0;
    auto it = cap.find(key);
    if (it == cap.end() || it->is_null()) return "";
    if (!it->is_string()) return "\"" + std::string(key) + "\" is " + type_of(*it) + ", expected a " + what + " name or null";
    auto found = lookup(it->get<std::string>());
    if (!found) return "unknown " + std::string(what) + " \"" + it->get<std::string>() + "\"";
    id = *found;
    return "";
}

Reply reply_with(Outcome o, std::string message) {
    Reply r;
    r.outcome = o;
    r.message = std::move(message);
    return r;
}

class ExecSubject final : public ChildSubject {
public:
    ExecSubject(std::string command, SubjectOptions opts) : ChildSubject(std::move(opts)), command_(std::move(command)) {
        open();
    }

private:
    std::string who() const override { return "exec `" + command_ + "`: "; }

    std::string with_stderr(std::string message) const {
        auto tail = child_.stderr_tail();
        if (!tail.empty()) message += "; stderr: " + tail;
        return message;
    }

    bool start(std::string &why) override {
        sent_.clear();
        answered_ = 0;
        if (!child_.spawn({"/bin/sh", "-c", command_}, opts_.memory_limit_bytes, why, -1, containment())) {
            why = who() + why;
            return false;
        }
        auto deadline = Clock::now() + opts_.call_timeout + kHandshakeGrace;
        // "abi": 1 keeps a v1 subject (which checks abi == 1) answering; "abi_max" offers 2.
        // "framings" offers the binary frames (harness/README.md, "Binary framing"); the reply chooses.
        // "ids" offers call ids (harness/README.md, "Reply matching"); the reply chooses.
        std::string hello = json{{"ninfer", "hello"},
                                 {"abi", NINFER_ABI_OLDEST},
                                 {"abi_max", NINFER_ABI_LATEST},
                                 {"framings", {"lines", "binary"}},
                                 {"ids", true}}
                                .dump() +
                            "\n";
        auto io = child_.write_all(hello.data(), hello.size(), deadline);
        std::string line;
        bool too_long = false;
        if (io == Child::Io::ok) io = child_.read_line(line, kMaxHelloLine, deadline, too_long);
        if (io == Child::Io::timeout) {
            child_.kill();
            why = with_stderr(who() + "no hello reply within " +
                              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 opts_.call_timeout + kHandshakeGrace).count()) +
                              " ms; killed");
            return false;
        }
        if (io == Child::Io::eof) {
            auto how = child_.reap();
            why = with_stderr(who() + how + " before answering the hello");
            return false;
        }
        if (too_long) {
            child_.kill();
            why = who() + "hello reply longer than " + std::to_string(kMaxHelloLine) + " bytes";
            return false;
        }
        why = parse_hello(line);
        if (!why.empty()) {
            child_.kill();
            why = who() + why;
            return false;
        }
        return true;
    }

    /// Fills info_ from the hello reply; "" or what is wrong with it.
    std::string parse_hello(const std::string &line) {
        if (nests_deeper_than(line, kMaxJsonDepth))
            return "hello reply nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
        json j;
        try {
            j = json::parse(line);
        } catch (const json::parse_error &e) {
            return "hello reply is not JSON (" + std::string(e.what()) + ")";
        }
        if (!j.is_object()) return "hello reply is " + type_of(j) + ", expected an object";
        auto abi = j.find("abi");
        if (abi == j.end() || !abi->is_number_integer()) return "hello reply has no integer \"abi\"";
        const auto abi_version = abi->get<std::int64_t>();
        if (abi_version < NINFER_ABI_OLDEST || abi_version > NINFER_ABI_LATEST)
            return "ABI version " + std::to_string(abi_version) + "; this harness speaks ABI " +
                   std::to_string(NINFER_ABI_OLDEST) + ".." + std::to_string(NINFER_ABI_LATEST);
        auto name = j.find("name");
        if (name == j.end() || !name->is_string() || name->get<std::string>().empty())
            return "hello reply has no non-empty string \"name\"";
        SubjectInfo info;
        info.name = reports::untrusted_text(name->get<std::string>(), kMaxIdentity);
        if (auto v = j.find("version"); v != j.end() && !v->is_null()) {
            if (!v->is_string()) return "\"version\" is " + type_of(*v) + ", expected a string";
            info.version = reports::untrusted_text(v->get<std::string>(), kMaxIdentity);
        }
        info.abi_version = static_cast<std::uint32_t>(abi_version);
        Framing framing = Framing::lines;
        if (auto f = j.find("framing"); f != j.end() && !f->is_null()) {
            if (!f->is_string() || (*f != "lines" && *f != "binary"))
                return "hello reply \"framing\" is " + (f->is_string() ? "\"" + reports::untrusted_text(f->get<std::string>(), 40) + "\"" : type_of(*f)) +
                       ", expected \"lines\" or \"binary\"";
            if (*f == "binary") framing = Framing::binary;
        }
        if (framing == Framing::binary && abi_version < 2) return "hello reply chooses \"framing\": \"binary\", which needs \"abi\": 2";
        bool iota = false;
        if (auto it = j.find("iota"); it != j.end() && !it->is_null()) {
            if (!it->is_boolean()) return "hello reply \"iota\" is " + type_of(*it) + ", expected a boolean";
            iota = it->get<bool>();
            if (iota && framing != Framing::binary) return "hello reply asks for \"iota\": true, which needs \"framing\": \"binary\"";
        }
        bool ids = false;
        if (auto it = j.find("ids"); it != j.end() && !it->is_null()) {
            if (!it->is_boolean()) return "hello reply \"ids\" is " + type_of(*it) + ", expected a boolean";
            ids = it->get<bool>();
        }
        auto caps = j.find("capabilities");
        if (caps == j.end() || !caps->is_array()) return "hello reply has no array \"capabilities\"";
        for (std::size_t i = 0; i < caps->size(); ++i) {
            const json &cj = (*caps)[i];
            std::string at = "capability " + std::to_string(i) + ": ";
            if (!cj.is_object()) return at + "is " + type_of(cj) + ", expected an object";
            ninfer_capability_v2 cap{};
            auto op = cj.find("op");
            if (op == cj.end() || !op->is_string()) return at + "has no string \"op\"";
            auto op_id = wire::op_id(op->get<std::string>());
            if (!op_id) return at + "unknown op \"" + op->get<std::string>() + "\"";
            cap.op = *op_id;
            std::string why = cap_field(cj, "format", "format", wire::format_id, cap.format);
            if (why.empty()) why = cap_field(cj, "format_in", "format", wire::format_id, cap.format_in);
            if (why.empty()) why = cap_field(cj, "layout", "layout", wire::layout_id, cap.layout);
            if (why.empty()) {
                auto kind = wire::method_kind(cap.op);
                auto m = cj.find("method");
                if (m != cj.end() && !m->is_null() && kind.empty())
                    why = "\"method\" given for op " + op->get<std::string>() + ", which takes none";
                else if (!kind.empty())
                    why = cap_field(cj, "method", std::string(kind).c_str(),
                                    [&](const std::string &n) { return wire::method_id(cap.op, n); }, cap.method);
            }
            if (why.empty() && abi_version >= 2) {
                if (auto pr = cj.find("profile"); pr != cj.end() && !pr->is_null()) {
                    if (!pr->is_number_unsigned() || pr->get<std::uint64_t>() > UINT32_MAX)
                        why = "\"profile\" is " + brief(*pr) + ", expected an unsigned 32-bit integer or null";
                    else
                        cap.profile = pr->get<std::uint32_t>();
                }
            }
            if (why.empty()) why = wire::check_capability(cap);
            if (!why.empty()) return at + why;
            info.capabilities.push_back(cap);
        }
        info_ = std::move(info);
        framing_ = framing;
        iota_ = iota;
        ids_ = ids;
        return "";
    }

    Reply crashed(const char *when) {
        auto how = child_.reap();
        return reply_with(Outcome::crash, with_stderr("subject " + how + " " + when));
    }

    Reply timed_out() {
        child_.kill();
        return reply_with(Outcome::timeout,
                          with_stderr("no reply within " + std::to_string(opts_.call_timeout.count()) + " ms; killed"));
    }

    /// A broken reply: the subject is restarted before the next call, its stream may be out of step.
    Reply protocol_error(std::string message) {
        child_.kill();
        return reply_with(Outcome::error, std::move(message));
    }

    Reply call_once(const Call &c) override {
        const std::uint64_t id = ++calls_;
        if (!open_error_.empty()) return reply_with(Outcome::error, open_error_);
        if (c.shape.size() > NINFER_MAX_RANK)
            return reply_with(Outcome::error, "call rank " + std::to_string(c.shape.size()) + " exceeds " +
                                                  std::to_string(NINFER_MAX_RANK));
        if (c.inputs.size() > wire::kMaxPlanes || c.outputs.size() > wire::kMaxPlanes)
            return reply_with(Outcome::error, "call has more than " + std::to_string(wire::kMaxPlanes) + " planes");
        if (c.iota) {
            if (c.inputs.empty() || !c.inputs[0].bytes.empty())
                return reply_with(Outcome::error, "call has iota but no empty input plane 0");
            if (auto why = wire::check_iota(c.iota->start, c.iota->width, c.count); !why.empty())
                return reply_with(Outcome::error, why);
        }
        if (!child_.running()) {
            std::string why;
            if (!start(why)) return reply_with(Outcome::error, "cannot restart the subject: " + std::move(why));
        }
        // A binary subject that asked for iota makes the words itself; any other gets them sent.
        const bool iota_sent = c.iota && framing_ == Framing::binary && iota_;
        std::vector<std::uint8_t> iota_words;
        if (c.iota && !iota_sent) {
            if (c.count > kMaxIotaBytes / static_cast<std::uint64_t>(c.iota->width))
                return reply_with(Outcome::error, "iota call of " + std::to_string(c.count) +
                                                      " words is too large for an exec subject; split it");
            iota_words.resize(static_cast<std::size_t>(c.count) * static_cast<std::size_t>(c.iota->width));
            wire::fill_iota(iota_words.data(), c.iota->start, c.iota->width, c.count);
        }
        const auto input_bytes = [&](std::size_t i) -> const std::vector<std::uint8_t> & {
            return i == 0 && c.iota ? iota_words : c.inputs[i].bytes;
        };
        const bool v1 = info_.abi_version == 1;
        // ABI 1: input planes 0, 1 are `in`, `aux` and output planes 0..2 `out`, `out2`, `out3`
        // (the adapter of the plugin worker); a call with more planes is unsupported there.
        if (v1 && (c.inputs.size() > 2 || c.outputs.size() > 3)) {
            Reply r = reply_with(Outcome::returned, "the call has " + std::to_string(c.inputs.size()) + " input and " +
                                                        std::to_string(c.outputs.size()) +
                                                        " output planes; an ABI 1 subject takes at most 2 and 3");
            r.status = NINFER_E_UNSUPPORTED;
            for (const auto &o : c.outputs) r.outputs.push_back({o.name, o.format, {}});
            return r;
        }
        nlohmann::ordered_json req = {{"op", name_or_id(wire::op_name(c.op), c.op)},
                                      {"format", name_or_id(wire::format_name(c.format), c.format)},
                                      {"format_in", name_or_id(wire::format_name(c.format_in), c.format_in)},
                                      {"layout", name_or_id(wire::layout_name(c.layout), c.layout)},
                                      {"method", name_or_id(wire::method_name(c.op, c.method), c.method)},
                                      {"flags", c.flags},
                                      {"shape", c.shape},
                                      {"count", c.count}};
        std::uint64_t capacity = 0;
        for (const auto &o : c.outputs) capacity += o.capacity;
        if (ids_) req["id"] = id;
        if (framing_ == Framing::binary) return call_binary(c, std::move(req), input_bytes, iota_sent, id, capacity);
        if (v1) {
            static const std::vector<std::uint8_t> none;
            req["in"] = abi::hex_bytes(c.inputs.size() > 0 ? input_bytes(0) : none);
            req["aux"] = abi::hex_bytes(c.inputs.size() > 1 ? input_bytes(1) : none);
            std::uint64_t caps[3] = {0, 0, 0};
            for (std::size_t i = 0; i < c.outputs.size(); ++i) caps[i] = c.outputs[i].capacity;
            req["out_capacity"] = {caps[0], caps[1], caps[2]};
        } else {
            req["profile"] = c.profile;
            nlohmann::ordered_json inputs = nlohmann::ordered_json::object(), outputs = nlohmann::ordered_json::object(),
                                   formats = nlohmann::ordered_json::object();
            for (std::size_t i = 0; i < c.inputs.size(); ++i) {
                const std::string name(abi::plane_name(c.inputs[i].name));
                inputs[name] = abi::hex_bytes(input_bytes(i));
                if (c.inputs[i].format) formats[name] = name_or_id(wire::format_name(c.inputs[i].format), c.inputs[i].format);
            }
            for (const auto &o : c.outputs) {
                const std::string name(abi::plane_name(o.name));
                outputs[name] = o.capacity;
                if (o.format) formats[name] = name_or_id(wire::format_name(o.format), o.format);
            }
            req["inputs"] = std::move(inputs);
            req["outputs"] = std::move(outputs);
            req["formats"] = std::move(formats);
        }
        std::string line = req.dump() + "\n";

        if (auto failed = drop_output_after_reply()) return *failed;
        remember(id, capacity);
        child_.clear_stderr_tail();
        auto deadline = Clock::now() + opts_.call_timeout;
        auto io = child_.write_all(line.data(), line.size(), deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while receiving the call");
        json j;
        if (auto failed = read_own_line(j, deadline)) return *failed;
        if (child_.pending_output()) return protocol_error("subject wrote more than one reply line for this call");
        return parse_reply(j, c, v1);
    }

    /// A call sent to the running child: its id and its output capacities in bytes.
    struct Sent {
        std::uint64_t id = 0, capacity = 0;
    };

    /// Records the call about to be sent: the last of sent_ is the call in progress; with call
    /// ids the earlier ones are kept to tell a late surplus reply by its id.
    void remember(std::uint64_t id, std::uint64_t capacity) {
        const std::size_t keep = ids_ ? kRememberedCalls : 1;
        while (sent_.size() >= keep) sent_.pop_front();
        sent_.push_back({id, capacity});
    }

    /// The largest output capacities of the call in progress and of the calls whose surplus
    /// replies may still come (call ids): what bounds a reply's length.
    std::uint64_t largest_capacity() const {
        std::uint64_t most = 0;
        for (const auto &s : sent_) most = std::max(most, s.capacity);
        return most;
    }

    /// Output waiting before a call is sent came after the last reply read (a surplus reply, or
    /// anything else the subject wrote unasked): the call that reply answered is blamed and the
    /// subject restarts, so that this call runs on a fresh one. An error reply when it cannot.
    std::optional<Reply> drop_output_after_reply() {
        if (!child_.pending_output()) return std::nullopt;
        if (answered_ == 0)
            return protocol_error("subject wrote output after its hello reply, before this call was sent");
        blames_.push_back({answered_, "subject wrote output after its reply to this call (a surplus reply, found "
                                      "before the next call was sent); the subject was restarted"});
        child_.kill();
        std::string why;
        if (!start(why)) return reply_with(Outcome::error, "cannot restart the subject: " + std::move(why));
        return std::nullopt;
    }

    /// The call a reply answers: the call in progress without call ids; with them the one its
    /// "id" names, the call in progress or an earlier one sent to the running child; nullptr and
    /// why when it names neither.
    const Sent *owner_of(const json &reply, std::string &why) const {
        const Sent &current = sent_.back();
        if (!ids_) return &current;
        auto it = reply.find("id");
        if (it == reply.end() || it->is_null()) {
            why = "reply has no \"id\"; the subject's hello chose call ids and this call's id is " +
                  std::to_string(current.id);
            return nullptr;
        }
        if (it->is_number_unsigned())
            for (const auto &s : sent_)
                if (s.id == it->get<std::uint64_t>()) return &s;
        why = "reply \"id\" is " + brief(*it) + ", neither this call's id (" + std::to_string(current.id) +
              ") nor an earlier call's";
        return nullptr;
    }

    /// A reply to the earlier call `owner`, read during the call in progress: that call is blamed.
    void blame_surplus(std::uint64_t owner) {
        blames_.push_back({owner, "subject sent a second reply to this call (call id " + std::to_string(owner) +
                                      "), read during call " + std::to_string(sent_.back().id) +
                                      "; the surplus was skipped"});
    }

    /// The reply line of the call in progress into j, surplus replies of earlier calls (told by
    /// their call ids) blamed on them and skipped; an outcome other than returned when it fails.
    std::optional<Reply> read_own_line(json &j, Clock::time_point deadline) {
        const std::size_t max = 2 * static_cast<std::size_t>(largest_capacity()) + 2 * wire::kMaxText + 65536;
        std::string line;
        for (;;) {
            bool too_long = false;
            const auto io = child_.read_line(line, max, deadline, too_long);
            if (io == Child::Io::timeout) return timed_out();
            if (io == Child::Io::eof) return crashed("during the call");
            if (too_long)
                return protocol_error("reply line longer than " + std::to_string(max) + " bytes (the out capacities allow less)");
            if (auto why = parse_object(line, "reply", j); !why.empty()) return protocol_error(why);
            std::string why;
            const Sent *owner = owner_of(j, why);
            if (!owner) return protocol_error(why);
            if (owner == &sent_.back()) break;
            blame_surplus(owner->id);
        }
        answered_ = sent_.back().id;
        return std::nullopt;
    }

    /// The reply's "status", "detail" and "message" into r (both framings); "" or what is wrong.
    static std::string read_status(const json &j, Reply &r) {
        auto status = j.find("status");
        if (status == j.end()) return "reply has no \"status\"";
        if (!status->is_number_integer()) return "reply \"status\" is " + type_of(*status) + ", expected an integer";
        auto s = status->get<std::int64_t>();
        if (s < INT32_MIN || s > INT32_MAX || !wire::known_status(static_cast<std::int32_t>(s)))
            return "reply \"status\" " + std::to_string(s) + " is not a NINFER_* code";
        r.status = static_cast<std::int32_t>(s);
        if (auto d = j.find("detail"); d != j.end() && !d->is_null()) {
            if (!d->is_number_unsigned() || d->get<std::uint64_t>() > UINT32_MAX)
                return "reply \"detail\" is " + brief(*d) + ", expected an unsigned 32-bit integer";
            r.detail = d->get<std::uint32_t>();
        }
        if (auto m = j.find("message"); m != j.end() && !m->is_null()) {
            if (!m->is_string()) return "reply \"message\" is " + type_of(*m) + ", expected a string";
            r.message = m->get<std::string>().substr(0, wire::kMaxText);
        }
        return "";
    }

    /// A reply's JSON object (a JSON line, or a binary frame's header: `what` names which) into
    /// j; "" or what is wrong.
    static std::string parse_object(const std::string &text, const char *what, json &j) {
        if (nests_deeper_than(text, kMaxJsonDepth))
            return std::string(what) + " nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
        try {
            j = json::parse(text);
        } catch (const json::parse_error &e) {
            return std::string(what) + " is not JSON (" + std::string(e.what()) + ")";
        }
        if (!j.is_object()) return std::string(what) + " is " + type_of(j) + ", expected an object";
        return "";
    }

    /// A reply object's status into r and the call's output planes, in the call's order, empty
    /// for the reply to fill; "" or what is wrong.
    static std::string read_reply_fields(const json &j, const Call &c, Reply &r) {
        if (auto why = read_status(j, r); !why.empty()) return why;
        for (const auto &o : c.outputs) r.outputs.push_back({o.name, o.format, {}});
        return "";
    }

    /// The prefix and JSON header of one reply frame into j, its planes' byte count into
    /// payload_len (the planes not read); an outcome other than returned when it fails.
    std::optional<Reply> read_frame_head(json &j, std::uint64_t &payload_len, Clock::time_point deadline) {
        std::uint8_t prefix[kFramePrefix];
        auto io = child_.read_exact(prefix, sizeof prefix, deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("during the call");
        if (!std::equal(std::begin(kFrameMagic), std::end(kFrameMagic), reinterpret_cast<const char *>(prefix)))
            return protocol_error(fmt::format("reply frame does not start with \"NFB1\" (its first bytes are "
                                              "{:02x} {:02x} {:02x} {:02x})",
                                              prefix[0], prefix[1], prefix[2], prefix[3]));
        const std::uint64_t header_len = abi::load_le32(prefix + 4);
        payload_len = abi::load_le64(prefix + 8);
        if (header_len > kMaxFrameHeader)
            return protocol_error("reply frame header of " + std::to_string(header_len) + " bytes, more than " +
                                  std::to_string(kMaxFrameHeader));
        std::string text(static_cast<std::size_t>(header_len), '\0');
        io = child_.read_exact(text.data(), text.size(), deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("during the call (in a reply frame's header)");
        if (auto why = parse_object(text, "reply frame header", j); !why.empty()) return protocol_error(why);
        return std::nullopt;
    }

    /// Reads and drops n bytes of the child's output (the planes of a surplus reply frame).
    Child::Io skip_output(std::uint64_t n, Clock::time_point deadline) {
        std::vector<std::uint8_t> scratch(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1u << 16)));
        auto io = Child::Io::ok;
        while (n > 0 && io == Child::Io::ok) {
            const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(n, scratch.size()));
            io = child_.read_exact(scratch.data(), k, deadline);
            n -= k;
        }
        return io;
    }

    /// The head of the reply frame of the call in progress into j and payload_len, surplus
    /// frames of earlier calls (told by their call ids) blamed on them and skipped, planes
    /// beyond their call's capacities refused before they are read; an outcome other than
    /// returned when it fails.
    std::optional<Reply> read_own_frame_head(json &j, std::uint64_t &payload_len, Clock::time_point deadline) {
        for (;;) {
            if (auto failed = read_frame_head(j, payload_len, deadline)) return failed;
            std::string why;
            const Sent *owner = owner_of(j, why);
            if (!owner) return protocol_error(why);
            const bool own = owner == &sent_.back();
            if (payload_len > owner->capacity)
                return protocol_error("reply frame " + (own ? std::string() : "of call " + std::to_string(owner->id) + " (a surplus) ") +
                                      "carries " + std::to_string(payload_len) + " bytes of planes; the call's output capacities total " +
                                      std::to_string(owner->capacity));
            if (own) break;
            blame_surplus(owner->id);
            const auto io = skip_output(payload_len, deadline);
            if (io == Child::Io::timeout) return timed_out();
            if (io == Child::Io::eof) return crashed("during the call (in a surplus reply frame's planes)");
        }
        answered_ = sent_.back().id;
        return std::nullopt;
    }

    /// The planes a reply frame's header lists, in payload order: (index in the call, bytes).
    using Listed = std::vector<std::pair<std::size_t, std::uint64_t>>;

    /// A listed plane's [name, byte count] pair: "" or what is wrong with its form.
    static std::string check_pair(const json &e, std::size_t k) {
        if (e.is_array() && e.size() == 2 && e[0].is_string()) return "";
        const std::string what = e.is_array() ? "an array of " + std::to_string(e.size()) +
                                                    (e.size() == 2 ? " whose plane name is " + type_of(e[0]) : "")
                                              : type_of(e);
        return "reply \"outputs\" entry " + std::to_string(k) + " is " + what +
               ", expected a [plane name, byte count] pair";
    }

    /// The planes a reply frame's header lists into planes, each an output plane of the call
    /// given once with a byte count of at most its capacity; "" or what is wrong.
    static std::string listed_planes(const json &j, const Call &c, Listed &planes) {
        auto outs = j.find("outputs");
        if (outs == j.end() || outs->is_null()) return "";
        if (!outs->is_array()) return "reply \"outputs\" is " + type_of(*outs) + ", expected an array of [plane, bytes]";
        for (std::size_t k = 0; k < outs->size(); ++k) {
            const json &e = (*outs)[k];
            if (auto why = check_pair(e, k); !why.empty()) return why;
            const auto &key = e[0].get_ref<const std::string &>();
            std::size_t i = 0;
            while (i < c.outputs.size() && abi::plane_name(c.outputs[i].name) != key) ++i;
            if (i == c.outputs.size())
                return "reply \"outputs\" names plane \"" + reports::untrusted_text(key, kMaxIdentity) +
                       "\", not an output plane of the call";
            for (const auto &p : planes)
                if (p.first == i) return "reply \"outputs\" lists plane \"" + key + "\" twice";
            if (!e[1].is_number_unsigned())
                return "reply \"outputs\": the byte count of plane \"" + key + "\" is " + brief(e[1]) +
                       ", expected a non-negative integer";
            const std::uint64_t n = e[1].get<std::uint64_t>();
            if (n > c.outputs[i].capacity)
                return "reply \"outputs." + key + "\" has " + std::to_string(n) + " bytes, capacity " +
                       std::to_string(c.outputs[i].capacity);
            planes.emplace_back(i, n);
        }
        return "";
    }

    /// One call in binary frames (harness/README.md, "Binary framing"): the request frame, then
    /// the reply frame read with every length checked before anything is allocated or read.
    template <class InputBytes>
    Reply call_binary(const Call &c, nlohmann::ordered_json req, const InputBytes &input_bytes, bool iota_sent,
                      std::uint64_t id, std::uint64_t capacity) {
        req["profile"] = c.profile;
        nlohmann::ordered_json inputs = nlohmann::ordered_json::array(), outputs = nlohmann::ordered_json::object(),
                               formats = nlohmann::ordered_json::object();
        std::uint64_t payload = 0;
        for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            const std::string name(abi::plane_name(c.inputs[i].name));
            const std::uint64_t n = input_bytes(i).size();
            inputs.push_back({name, n});
            payload += n;
            if (c.inputs[i].format) formats[name] = name_or_id(wire::format_name(c.inputs[i].format), c.inputs[i].format);
        }
        for (const auto &o : c.outputs) {
            const std::string name(abi::plane_name(o.name));
            outputs[name] = o.capacity;
            if (o.format) formats[name] = name_or_id(wire::format_name(o.format), o.format);
        }
        req["inputs"] = std::move(inputs);
        req["outputs"] = std::move(outputs);
        req["formats"] = std::move(formats);
        if (iota_sent) req["iota"] = {{"start", c.iota->start}, {"width", c.iota->width}};
        const std::string header = req.dump();
        const std::string head = frame_prefix(static_cast<std::uint32_t>(header.size()), payload) + header;

        if (auto failed = drop_output_after_reply()) return *failed;
        remember(id, capacity);
        child_.clear_stderr_tail();
        const auto deadline = Clock::now() + opts_.call_timeout;
        auto io = child_.write_all(head.data(), head.size(), deadline);
        for (std::size_t i = 0; i < c.inputs.size() && io == Child::Io::ok; ++i)
            io = child_.write_all(input_bytes(i).data(), input_bytes(i).size(), deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while receiving the call");

        json j;
        std::uint64_t payload_len = 0;
        if (auto failed = read_own_frame_head(j, payload_len, deadline)) return *failed;
        Reply r;
        if (auto why = read_reply_fields(j, c, r); !why.empty()) return protocol_error(why);
        Listed planes;
        if (auto why = listed_planes(j, c, planes); !why.empty()) return protocol_error(why);
        std::uint64_t listed = 0;
        for (const auto &p : planes) listed += p.second;
        if (listed != payload_len)
            return protocol_error("reply frame carries " + std::to_string(payload_len) + " bytes of planes but its "
                                  "header lists " + std::to_string(listed));
        for (const auto &[i, n] : planes) {
            auto &bytes = r.outputs[i].bytes;
            bytes.resize(static_cast<std::size_t>(n));
            io = child_.read_exact(bytes.data(), bytes.size(), deadline);
            if (io == Child::Io::timeout) return timed_out();
            if (io == Child::Io::eof) return crashed("during the call (in a reply frame's planes)");
        }
        if (child_.pending_output()) return protocol_error("subject wrote more than one reply frame for this call");
        r.outcome = Outcome::returned;
        return r;
    }

    Reply parse_reply(const json &j, const Call &c, bool v1) {
        Reply r;
        if (auto why = read_reply_fields(j, c, r); !why.empty()) return protocol_error(why);
        const auto take = [&](const json &value, std::size_t i, const std::string &key) -> std::string {
            if (!value.is_string()) return "reply \"" + key + "\" is " + type_of(value) + ", expected a hex string";
            if (auto why = abi::parse_hex_bytes(value.get_ref<const std::string &>(), r.outputs[i].bytes); !why.empty())
                return "reply \"" + key + "\" " + why;
            if (r.outputs[i].bytes.size() > c.outputs[i].capacity)
                return "reply \"" + key + "\" has " + std::to_string(r.outputs[i].bytes.size()) + " bytes, capacity " +
                       std::to_string(c.outputs[i].capacity);
            return "";
        };
        if (v1) {
            static const char *keys[3] = {"out", "out2", "out3"};
            for (std::size_t i = 0; i < 3; ++i) {
                auto o = j.find(keys[i]);
                if (o == j.end() || o->is_null()) continue;
                if (i >= c.outputs.size()) {
                    if (o->is_string() && o->get_ref<const std::string &>().empty()) continue;
                    return protocol_error("reply \"" + std::string(keys[i]) + "\" given, but the call has " +
                                          std::to_string(c.outputs.size()) + " output buffers");
                }
                if (auto why = take(*o, i, keys[i]); !why.empty()) return protocol_error(why);
            }
        } else if (auto outs = j.find("outputs"); outs != j.end() && !outs->is_null()) {
            if (!outs->is_object()) return protocol_error("reply \"outputs\" is " + type_of(*outs) + ", expected an object");
            for (const auto &[key, value] : outs->items()) {
                std::size_t i = 0;
                while (i < c.outputs.size() && abi::plane_name(c.outputs[i].name) != key) ++i;
                if (i == c.outputs.size())
                    return protocol_error("reply \"outputs\" names plane \"" +
                                          reports::untrusted_text(key, kMaxIdentity) + "\", not an output plane of the call");
                if (auto why = take(value, i, "outputs." + key); !why.empty()) return protocol_error(why);
            }
        }
        r.outcome = Outcome::returned;
        return r;
    }

    std::vector<LateBlame> take_late_blames() override {
        std::vector<LateBlame> out;
        for (auto &b : blames_) out.push_back({calls_ - b.call, std::move(b.message)});
        blames_.clear();
        return out;
    }

    /// An earlier call found at fault: its id (the count of calls up to it) and why.
    struct Blame {
        std::uint64_t call = 0;
        std::string message;
    };

    std::string command_;
    Framing framing_ = Framing::lines;  ///< as the last hello chose
    bool iota_ = false;                 ///< binary: iota calls travel as {start, width}, not as words
    bool ids_ = false;                  ///< as the last hello chose: every request and reply carries "id"
    std::uint64_t calls_ = 0;           ///< calls so far (call_once): the id of the latest
    std::uint64_t answered_ = 0;        ///< the call whose reply the running child sent last (0: none yet)
    std::deque<Sent> sent_;             ///< calls sent to the running child, the latest last (remember)
    std::vector<Blame> blames_;         ///< earlier calls found at fault, not yet taken
};

}  // namespace

std::unique_ptr<Subject> open_exec(const std::string &command, const SubjectOptions &opts) {
    return std::make_unique<ExecSubject>(command, opts);
}

}  // namespace ninfer::harness
