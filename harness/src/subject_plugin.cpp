// SPDX-License-Identifier: Apache-2.0
// A plugin library run in an isolated worker process (harness/README.md, "Isolation"): the
// harness side of the binary frames, with per-call deadlines and transparent restarts.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cerrno>
#include <cstring>
#include <deque>
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
        memfd_ = static_cast<int>(::memfd_create("ninfer-batches", MFD_CLOEXEC));  // -1: batches by pipe
        open();
    }
    ~PluginSubject() override {
        child_.kill();
        if (shm_map_) ::munmap(shm_map_, shm_size_);
        if (memfd_ >= 0) ::close(memfd_);
    }

private:
    std::string who() const override { return "plugin " + path_ + ": "; }

    /// Spawns the worker and reads its hello; false with a one-line reason.
    bool start(std::string &why) override {
        ++generation_;
        if (!child_.spawn({opts_.worker_executable, "worker", "--plugin", load_path_}, opts_.memory_limit_bytes, why, memfd_,
                          containment())) {
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

    /// The frame of a call: its header and plane descriptors; "" or why it is refused before sending.
    std::string frame_of(const Call &c, wire::CallHeader &h, std::vector<wire::PlaneHeader> &planes) const {
        if (!open_error_.empty()) return open_error_;
        if (c.shape.size() > NINFER_MAX_RANK)
            return "call rank " + std::to_string(c.shape.size()) + " exceeds " + std::to_string(NINFER_MAX_RANK);
        if (c.inputs.size() > wire::kMaxPlanes || c.outputs.size() > wire::kMaxPlanes)
            return "call has " + std::to_string(c.inputs.size()) + " input and " + std::to_string(c.outputs.size()) +
                   " output planes; at most " + std::to_string(wire::kMaxPlanes) + " each";
        h.input_count = static_cast<std::uint32_t>(c.inputs.size());
        h.output_count = static_cast<std::uint32_t>(c.outputs.size());
        for (const auto &p : c.inputs) planes.push_back({p.name, p.format, p.bytes.size()});
        for (const auto &p : c.outputs) planes.push_back({p.name, p.format, p.capacity});
        if (c.iota) {
            if (c.inputs.empty() || !c.inputs[0].bytes.empty()) return "call has iota but no empty input plane 0";
            if (auto why = wire::check_iota(c.iota->start, c.iota->width, c.count); !why.empty()) return why;
            h.iota_start = c.iota->start;
            h.iota_width = static_cast<std::uint32_t>(c.iota->width);
        }
        if (auto why = wire::check_planes(planes.data(), h.input_count, planes.data() + h.input_count, h.output_count);
            !why.empty())
            return "call refused before sending: " + why;
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
        return "";
    }

    Child::Io send(const Call &c, const wire::CallHeader &h, const std::vector<wire::PlaneHeader> &planes,
                   Clock::time_point deadline) {
        auto io = child_.write_all(&h, sizeof h, deadline);
        if (io == Child::Io::ok) io = child_.write_all(planes.data(), planes.size() * sizeof(wire::PlaneHeader), deadline);
        for (std::size_t i = 0; i < c.inputs.size() && io == Child::Io::ok; ++i)
            io = child_.write_all(c.inputs[i].bytes.data(), c.inputs[i].bytes.size(), deadline);
        return io;
    }

    /// Reads the reply to a call sent; a shared-memory call's output stays in the slot (Reply::shared).
    Reply receive(const Call &c, const wire::CallHeader &h, Clock::time_point deadline) {
        wire::ReplyHeader rh;
        auto io = child_.read_exact(&rh, sizeof rh, deadline);
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
        if (h.shm_bytes != 0 && io == Child::Io::ok && !written.empty()) {
            // The worker placed the output at the end of its slot.
            r.shared = shm_map_ + h.shm_offset + h.shm_bytes - c.outputs[0].capacity;
            r.shared_bytes = written[0];
        }
        for (std::size_t i = 0; i < written.size() && io == Child::Io::ok && h.shm_bytes == 0; ++i) {
            Plane out{c.outputs[i].name, c.outputs[i].format, std::vector<std::uint8_t>(static_cast<std::size_t>(written[i]))};
            io = child_.read_exact(out.bytes.data(), out.bytes.size(), deadline);
            r.outputs.push_back(std::move(out));
        }
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while sending the reply");
        if (rh.restart) child_.kill();
        return r;
    }

    Reply call_once(const Call &c) override {
        wire::CallHeader h;
        std::vector<wire::PlaneHeader> planes;
        if (auto why = frame_of(c, h, planes); !why.empty()) return error_reply(why);
        if (!child_.running()) {
            std::string why;
            if (!start(why)) return error_reply("cannot restart the worker: " + why);
        }
        child_.clear_stderr_tail();
        auto deadline = Clock::now() + opts_.call_timeout;
        auto io = send(c, h, planes, deadline);
        if (io == Child::Io::timeout) return timed_out();
        if (io == Child::Io::eof) return crashed("while receiving the call");
        return receive(c, h, deadline);
    }

    // ---- Pipelined batches in shared memory (harness/README.md, "Shared-memory batches") ----

    static constexpr std::size_t kDepth = 2;  ///< calls in flight
    static constexpr std::size_t kSlots = kDepth + 1;  ///< a collected reply's slot outlives the next submit

    struct Pending {
        Call call;
        wire::CallHeader h;
        std::vector<wire::PlaneHeader> planes;
        std::string refused;  ///< why it is not sent at all (an error reply)
        bool sent = false;
        unsigned generation = 0;  ///< the worker it was sent to
    };

    std::size_t pipeline_depth() const override { return memfd_ >= 0 ? kDepth : 1; }

    bool on_current_worker(const Pending &p) const { return p.sent && p.generation == generation_ && child_.running(); }

    /// Sizes the shared slots for `capacity` bytes (only with nothing in flight); "" or why not.
    std::string size_slots(std::uint64_t capacity) {
        const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        const std::uint64_t need = std::max<std::uint64_t>(page, (capacity + page - 1) / page * page);
        if (need <= slot_bytes_) return "";
        if (!pending_.empty()) return "harness: a pipelined batch larger than the batches in flight";
        if (shm_map_) ::munmap(shm_map_, shm_size_);
        shm_map_ = nullptr;
        shm_size_ = slot_bytes_ = 0;
        if (::ftruncate(memfd_, static_cast<off_t>(need * kSlots)) != 0)
            return std::string("harness: cannot size the shared batch memory: ") + std::strerror(errno);
        void *m = ::mmap(nullptr, need * kSlots, PROT_READ, MAP_SHARED, memfd_, 0);
        if (m == MAP_FAILED) return std::string("harness: cannot map the shared batch memory: ") + std::strerror(errno);
        shm_map_ = static_cast<std::uint8_t *>(m);
        shm_size_ = need * kSlots;
        slot_bytes_ = need;
        return "";
    }

    /// Sends a pending call to the worker (started if need be); false when the stream broke.
    bool send_pending(Pending &p) {
        if (!child_.running()) {
            std::string why;
            if (!start(why)) {
                p.refused = "cannot restart the worker: " + why;
                return false;
            }
        }
        const auto io = send(p.call, p.h, p.planes, Clock::now() + opts_.call_timeout);
        if (io == Child::Io::timeout) child_.kill();  // a frame cut short: the stream is lost
        p.sent = io == Child::Io::ok;
        p.generation = generation_;
        return p.sent;
    }

    void submit(const Call &c) override {
        if (memfd_ < 0) return Subject::submit(c);
        Pending p;
        p.call = c;
        try {
            p.refused = frame_of(c, p.h, p.planes);
            if (p.refused.empty() && c.outputs.size() != 1)
                p.refused = "harness: a pipelined call has one output plane, not " + std::to_string(c.outputs.size());
            if (p.refused.empty()) p.refused = size_slots(c.outputs[0].capacity);
            if (p.refused.empty()) {
                p.h.shm_bytes = slot_bytes_;
                p.h.shm_offset = (submitted_++ % kSlots) * slot_bytes_;
                // In order behind the calls in flight; after a lost worker, collect resends.
                if (std::all_of(pending_.begin(), pending_.end(), [&](const Pending &q) { return on_current_worker(q) || !q.refused.empty(); }))
                    send_pending(p);
            }
        } catch (const std::exception &e) {
            child_.kill();
            p.refused = std::string("harness: ") + e.what();
        }
        pending_.push_back(std::move(p));
    }

    Reply collect() override {
        if (memfd_ < 0) return Subject::collect();
        const auto t0 = Clock::now();
        Pending p = std::move(pending_.front());
        pending_.pop_front();
        Reply r;
        try {
            if (p.refused.empty() && !on_current_worker(p)) {
                // Its worker died or was killed with an earlier call: this call and the ones
                // behind it go to a fresh worker, in order.
                child_.clear_stderr_tail();
                if (send_pending(p))
                    for (auto &q : pending_)
                        if (q.refused.empty() && !send_pending(q)) break;
            }
            if (!p.refused.empty()) r = error_reply(p.refused);
            else if (!p.sent) r = crashed("while receiving the call");
            else r = receive(p.call, p.h, Clock::now() + opts_.call_timeout);
        } catch (const std::exception &e) {
            child_.kill();
            r = Reply{};
            r.outcome = Outcome::error;
            r.message = std::string("harness: ") + e.what();
        }
        r.message = reports::untrusted_text(r.message);
        r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return r;
    }

    int memfd_ = -1;  ///< the shared batch memory, given to every worker at descriptor wire::kShmFd
    std::uint8_t *shm_map_ = nullptr;
    std::uint64_t shm_size_ = 0, slot_bytes_ = 0, submitted_ = 0;
    unsigned generation_ = 0;  ///< workers started
    std::deque<Pending> pending_;
    std::string path_, load_path_;
};

}  // namespace

std::unique_ptr<Subject> open_plugin(const std::string &library_path, const SubjectOptions &opts) {
    return std::make_unique<PluginSubject>(library_path, opts);
}

}  // namespace ninfer::harness
