// SPDX-License-Identifier: Apache-2.0
// The implementation under test, seen from the harness: a plugin library run in an isolated
// worker process, or an external command speaking the exec protocol (harness/README.md).
// Every failure of the subject (crash, hang, garbage, lies) becomes an Outcome, never an
// exception that ends the run.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ninfer/abi/plugin.h"
#include "ninfer/suites/case.hpp"

namespace ninfer::harness {

/// A named plane with its bytes (an input of a call, an output of a reply).
using suites::Plane;

/// Identity and declared capabilities of a subject.
struct SubjectInfo {
    std::string name, version;  ///< as the subject said them, made safe (reports::untrusted_text)
    std::string breaks;         ///< a bundled seeded-bug plugin's rule id (ninfer_mutant_breaks), else ""
    std::uint32_t abi_version = 0;  ///< the ABI the subject serves (1 through the adapter, or 2)
    std::vector<ninfer_capability_v2> capabilities;  ///< a v1 plugin's with profile 0
};

/// Whether a declared capability covers a call (0 in a capability field matches anything).
bool covers(const std::vector<ninfer_capability_v2> &caps, std::uint32_t op, std::uint32_t format,
            std::uint32_t format_in, std::uint32_t layout, std::uint32_t method, std::uint32_t profile = 0);

/// Inputs generated in the worker instead of sent: `count` words start, start+1, ... of
/// `width` bytes (exhaustive sweeps of 2^32 inputs).
struct Iota {
    std::uint64_t start = 0;
    int width = 4;
};

/// An output plane offered to the subject: its name, format and capacity in bytes.
struct OutputPlane {
    std::uint32_t name = 0, format = 0;
    std::uint64_t capacity = 0;
};

/// One call to make (the pointer-free part of ninfer_call_v2 plus its planes).
struct Call {
    std::uint32_t op = 0, format = 0, format_in = 0, layout = 0, method = 0, flags = 0, profile = 0;
    std::vector<std::uint64_t> shape;
    std::uint64_t count = 0;
    std::vector<Plane> inputs;  ///< in the op's order (suites::op_planes)
    std::optional<Iota> iota;   ///< when set, inputs[0] has no bytes and the worker makes count words
    std::vector<OutputPlane> outputs;  ///< in the op's order
};

enum class Outcome : std::uint8_t {
    returned,  ///< the function returned; status/detail/outputs are meaningful
    crash,     ///< the worker died (signal or exit) during the call
    timeout,   ///< the call exceeded its time limit and the worker was killed
    error      ///< the subject broke the protocol or the ABI (garbage, overrun, lies)
};

const char *outcome_name(Outcome o);

struct Reply {
    Outcome outcome = Outcome::error;
    std::int32_t status = 0;
    std::uint32_t detail = 0;
    std::string message;  ///< plugin message, or why the outcome is not `returned`
    /// When `returned`: the call's output planes, in its order, each holding the bytes written.
    std::vector<Plane> outputs;
    double seconds = 0;
    /// A pipelined batch of a plugin subject (Subject::collect): its one output plane's written
    /// bytes in memory shared with the worker, `outputs` empty; valid until the next submit.
    const std::uint8_t *shared = nullptr;
    std::uint64_t shared_bytes = 0;
    /// The bytes written to an output plane; empty when the reply has none of that name.
    const std::vector<std::uint8_t> &output(std::uint32_t name) const { return suites::plane_bytes(outputs, name); }
};

struct SubjectOptions {
    std::chrono::milliseconds call_timeout{10000};  ///< per call
#ifdef NINFER_SANITIZED
    std::uint64_t memory_limit_bytes = 0;  ///< none: ASan's shadow memory exceeds any RLIMIT_AS (preset asan)
#else
    std::uint64_t memory_limit_bytes = 8ull << 30;   ///< RLIMIT_AS of the worker
#endif
    std::string worker_executable;                   ///< the ninfer-conform binary (self)
    /// harness/README.md, "Containment": "auto", "pid-namespace" or "process-tree"; empty:
    /// NINFER_CONFORM_CONTAINMENT, else auto.
    std::string containment;
    std::uint32_t max_processes = 512;  ///< pids.max of the subject's cgroup (where there is one)
};

/// The containment every subject opened with `opts` gets on this machine, as the report's
/// subject.containment spells it ("pid-namespace+pids-cgroup", ..., "process-tree").
std::string containment_of(const SubjectOptions &opts);

/// A call found at fault after its reply was judged: an exec subject that answered it a second
/// time, late (harness/README.md, "Reply matching"). Its case is an error, whatever it scored.
struct LateBlame {
    std::uint64_t calls_back = 0;  ///< which call: 0 the latest call(), 1 the one before it, ...
    std::string message;           ///< why, one line
};

class Subject {
public:
    virtual ~Subject() = default;
    /// Identity; empty name and an error in `open_error()` if the subject could not start.
    virtual const SubjectInfo &info() const = 0;
    virtual const std::string &open_error() const = 0;
    /// One call. Restarts a dead worker before the next call.
    virtual Reply call(const Call &c) = 0;
    /// The earlier calls found at fault since the last take (during the calls made since); a
    /// caller that judges replies one by one turns each one's verdict into an error. Default: none.
    virtual std::vector<LateBlame> take_late_blames() { return {}; }

    // ---- Pipelined batches (sweeps) ----
    /// How many calls submit may have in flight before a collect (at least 1).
    virtual std::size_t pipeline_depth() const { return 1; }
    /// Queue a call with one output plane; the subject may start it at once. The replies come
    /// back by collect, in submit order, each as call() would give it (a crash, timeout or
    /// error of one call is its reply; the next call runs on a restarted worker).
    virtual void submit(const Call &c) { queued_.push_back(c); }
    /// The reply of the oldest submitted call. Default: that call, made now.
    virtual Reply collect() {
        Call c = std::move(queued_.front());
        queued_.pop_front();
        return call(c);
    }

private:
    std::deque<Call> queued_;
};

/// A plugin shared library run in an isolated worker process (`ninfer-conform worker`).
std::unique_ptr<Subject> open_plugin(const std::string &library_path, const SubjectOptions &opts);

/// An external command speaking the JSON-lines exec protocol on stdin/stdout.
std::unique_ptr<Subject> open_exec(const std::string &command, const SubjectOptions &opts);

/// Entry of `ninfer-conform worker --plugin PATH`: serve calls on stdin/stdout until EOF.
int worker_main(const std::string &library_path);

}  // namespace ninfer::harness
