// SPDX-License-Identifier: Apache-2.0
// A plugin library run in an isolated worker process (harness/README.md, "Isolation"): the
// harness side of the binary frames, with per-call deadlines and transparent restarts.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <exception>

#include "ninfer/harness/subject.hpp"
#include "ninfer/reports/report.hpp"
#include "child_subject.hpp"
#include "wire.hpp"

namespace ninfer::harness {
namespace {

using wire::Child;
using wire::Clock;

/// Extra time the handshake gets over the call timeout: loading, relocations, cold caches.
constexpr auto kHandshakeGrace = std::chrono::seconds(5);
constexpr std::size_t kMaxIdentity = 256;  ///< bytes kept of a plugin's name and version

std::string self_executable() {
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("ninfer-conform");
}

std::string with_stderr(std::string message, const Child &child) {
    auto tail = child.stderr_tail();
    if (!tail.empty()) message += "; stderr: " + tail;
    return message;
}

Reply error_reply(std::string message) {
    Reply r;
    r.outcome = Outcome::error;
    r.message = std::move(message);
    return r;
}

class PluginSubject final : public ChildSubject {
public:
    PluginSubject(std::string path, SubjectOptions opts) : ChildSubject(std::move(opts)), path_(std::move(path)) {
        if (opts_.worker_executable.empty()) opts_.worker_executable = self_executable();
        // dlopen searches the library path for a bare name; a plugin path is a file.
        load_path_ = path_.find('/') == std::string::npos ? "./" + path_ : path_;
        open();
    }

private:
    std::string who() const override { return "plugin " + path_ + ": "; }

    /// Spawns the worker and reads its hello; false with a one-line reason.
    bool start(std::string &why) override {
        if (!child_.spawn({opts_.worker_executable, "worker", "--plugin", load_path_}, opts_.memory_limit_bytes, why)) {
            why = who() + why;
            return false;
        }
        auto deadline = Clock::now() + opts_.call_timeout + kHandshakeGrace;
        wire::HelloHeader h;
        auto io = child_.read_exact(&h, sizeof h, deadline);
        if (io == Child::Io::ok && h.magic != wire::kHelloMagic) {
            child_.kill();
            why = with_stderr(who() + "worker sent no hello frame (is " + opts_.worker_executable + " a ninfer-conform worker?)", child_);
            return false;
        }
        if (io == Child::Io::ok && h.wire_version != wire::kWireVersion) {
            child_.kill();
            why = who() + "worker speaks wire protocol " + std::to_string(h.wire_version) + ", this harness " +
                  std::to_string(wire::kWireVersion) + " (" + opts_.worker_executable + " is from another build)";
            return false;
        }
        if (io == Child::Io::ok && (h.name_len > wire::kMaxText || h.version_len > wire::kMaxText ||
                                    h.error_len > wire::kMaxText || h.breaks_len > wire::kMaxText ||
                                    h.capability_count > wire::kMaxCapabilities)) {
            child_.kill();
            why = who() + "worker sent a malformed hello frame";
            return false;
        }
        std::string name(h.name_len, '\0'), version(h.version_len, '\0'), error(h.error_len, '\0'),
            breaks(h.breaks_len, '\0');
        std::vector<ninfer_capability_v2> caps(h.capability_count);
        if (io == Child::Io::ok) io = child_.read_exact(name.data(), name.size(), deadline);
        if (io == Child::Io::ok) io = child_.read_exact(version.data(), version.size(), deadline);
        if (io == Child::Io::ok) io = child_.read_exact(caps.data(), caps.size() * sizeof(ninfer_capability_v2), deadline);
        if (io == Child::Io::ok) io = child_.read_exact(error.data(), error.size(), deadline);
        if (io == Child::Io::ok) io = child_.read_exact(breaks.data(), breaks.size(), deadline);
        if (io == Child::Io::timeout) {
            child_.kill();
            why = with_stderr(who() + "no handshake within " +
                                  std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                     opts_.call_timeout + kHandshakeGrace).count()) +
                                  " ms while loading; worker killed",
                              child_);
            return false;
        }
        if (io == Child::Io::eof) {
            auto how = child_.reap();
            why = with_stderr(who() + "worker " + how + " while loading the plugin", child_);
            return false;
        }
        if (!h.ok) {
            child_.reap();
            why = error.empty() ? who() + "worker refused the plugin" : error;
            return false;
        }
        info_.name = reports::untrusted_text(name, kMaxIdentity);
        info_.version = reports::untrusted_text(version, kMaxIdentity);
        info_.breaks = reports::untrusted_text(breaks, kMaxIdentity);
        info_.abi_version = h.abi_version;
        info_.capabilities = std::move(caps);
        return true;
    }

    Reply crashed(const char *when) {
        auto how = child_.reap();
        return error_reply_outcome(Outcome::crash, with_stderr("worker " + how + " " + when, child_));
    }

    Reply timed_out() {
        child_.kill();
        return error_reply_outcome(Outcome::timeout,
                                   with_stderr("no reply within " + std::to_string(opts_.call_timeout.count()) +
                                                   " ms; worker killed",
                                               child_));
    }

    Reply protocol_error(std::string message) {
        child_.kill();
        return error_reply(std::move(message));
    }

    static Reply error_reply_outcome(Outcome o, std::string message) {
        Reply r;
        r.outcome = o;
        r.message = std::move(message);
        return r;
    }

    Reply call_once(const Call &c) override {
        if (!open_error_.empty()) return error_reply(open_error_);
        if (c.shape.size() > NINFER_MAX_RANK)
            return error_reply("call rank " + std::to_string(c.shape.size()) + " exceeds " + std::to_string(NINFER_MAX_RANK));
        wire::CallHeader h;
        if (c.inputs.size() > wire::kMaxPlanes || c.outputs.size() > wire::kMaxPlanes)
            return error_reply("call has " + std::to_string(c.inputs.size()) + " input and " + std::to_string(c.outputs.size()) +
                               " output planes; at most " + std::to_string(wire::kMaxPlanes) + " each");
        h.input_count = static_cast<std::uint32_t>(c.inputs.size());
        h.output_count = static_cast<std::uint32_t>(c.outputs.size());
        std::vector<wire::PlaneHeader> planes;
        for (const auto &p : c.inputs) planes.push_back({p.name, p.format, p.bytes.size()});
        for (const auto &p : c.outputs) planes.push_back({p.name, p.format, p.capacity});
        if (c.iota) {
            if (c.inputs.empty() || !c.inputs[0].bytes.empty()) return error_reply("call has iota but no empty input plane 0");
            if (auto why = wire::check_iota(c.iota->start, c.iota->width, c.count); !why.empty()) return error_reply(why);
            h.iota_start = c.iota->start;
            h.iota_width = static_cast<std::uint32_t>(c.iota->width);
        }
        if (auto why = wire::check_planes(planes.data(), h.input_count, planes.data() + h.input_count, h.output_count);
            !why.empty())
            return error_reply("call refused before sending: " + why);
        if (!child_.running()) {
            std::string why;
            if (!start(why)) return error_reply("cannot restart the worker: " + why);
        }
        h.op = c.op;
        h.format = c.format;
        h.format_in = c.format_in;
        h.layout = c.layout;
        h.method = c.method;
        h.flags = c.flags;
        h.profile = c.profile;
        h.rank = static_cast<std::uint32_t>(c.shape.size());
        std::copy(c.shape.begin(), c.shape.end(), h.shape);
        h.count = c.count;

        child_.clear_stderr_tail();
        auto deadline = Clock::now() + opts_.call_timeout;
        auto io = child_.write_all(&h, sizeof h, deadline);
        if (io == Child::Io::ok) io = child_.write_all(planes.data(), planes.size() * sizeof(wire::PlaneHeader), deadline);
        for (std::size_t i = 0; i < c.inputs.size() && io == Child::Io::ok; ++i)
            io = child_.write_all(c.inputs[i].bytes.data(), c.inputs[i].bytes.size(), deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while receiving the call");

        wire::ReplyHeader rh;
        io = child_.read_exact(&rh, sizeof rh, deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("during the call");
        const bool ret = rh.outcome == static_cast<std::uint8_t>(Outcome::returned);
        if (rh.magic != wire::kReplyMagic || rh.message_len > wire::kMaxText ||
            (!ret && rh.outcome != static_cast<std::uint8_t>(Outcome::error)) ||
            rh.output_count != (ret ? h.output_count : 0u))
            return protocol_error("worker sent a malformed reply frame");
        Reply r;
        r.outcome = static_cast<Outcome>(rh.outcome);
        r.status = rh.status;
        r.detail = rh.detail;
        r.message.resize(rh.message_len);
        io = child_.read_exact(r.message.data(), r.message.size(), deadline);
        std::vector<std::uint64_t> written(rh.output_count);
        if (io == Child::Io::ok) io = child_.read_exact(written.data(), written.size() * sizeof(std::uint64_t), deadline);
        if (io == Child::Io::ok)
            for (std::size_t i = 0; i < written.size(); ++i)
                if (written[i] > c.outputs[i].capacity)
                    return protocol_error("worker reply output plane " + std::to_string(i + 1) + " exceeds its capacity");
        for (std::size_t i = 0; i < written.size() && io == Child::Io::ok; ++i) {
            Plane out{c.outputs[i].name, c.outputs[i].format, std::vector<std::uint8_t>(static_cast<std::size_t>(written[i]))};
            io = child_.read_exact(out.bytes.data(), out.bytes.size(), deadline);
            r.outputs.push_back(std::move(out));
        }
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while sending the reply");
        if (rh.restart) child_.kill();
        return r;
    }

    std::string path_, load_path_;
};

}  // namespace

std::unique_ptr<Subject> open_plugin(const std::string &library_path, const SubjectOptions &opts) {
    return std::make_unique<PluginSubject>(library_path, opts);
}

}  // namespace ninfer::harness
