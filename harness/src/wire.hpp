// SPDX-License-Identifier: Apache-2.0
// Subject isolation plumbing (harness/README.md, "Isolation"): the binary frames between the
// harness and `ninfer-conform worker`, registry names of the exec protocol, and a child
// process driven with per-call deadlines.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ninfer/abi/methods.hpp"
#include "ninfer/abi/plugin.h"
#include "containment.hpp"

namespace ninfer::harness::wire {

// ---- Frames (native byte order: both ends run on the same host from the same build) ----------

inline constexpr std::uint32_t kHelloMagic = 0x4C484E4Eu;  // "NNHL"
inline constexpr std::uint32_t kCallMagic = 0x4C434E4Eu;   // "NNCL"
inline constexpr std::uint32_t kReplyMagic = 0x50524E4Eu;  // "NNRP"

inline constexpr std::uint32_t kMaxText = 4096;            ///< name, version, message, error
inline constexpr std::uint32_t kMaxCapabilities = 65536;
/// The frames' version: 2 carries counted named planes (ABI v2); 3 adds batches in shared
/// memory (CallHeader shm_*). The worker sends it in its hello and the harness refuses any
/// other, so that a stale worker binary fails by name.
inline constexpr std::uint32_t kWireVersion = 3;
/// The descriptor at which a worker finds the harness's shared batch memory (a memfd), when its
/// environment says kShmEnv=3; the worker moves it to a private descriptor at once.
inline constexpr int kShmFd = 3;
inline constexpr const char *kShmEnv = "NINFER_WORKER_SHM_FD";
/// Most input planes and most output planes of one call (each direction).
inline constexpr std::uint32_t kMaxPlanes = 16;

/// Worker -> harness, once after loading. Followed by name, version, the capabilities
/// (capability_count ninfer_capability_v2 structs: a v1 plugin's with profile 0, a v2 plugin's
/// read at its capability_size stride), the error text and the rule a bundled seeded-bug plugin
/// breaks (its ninfer_mutant_breaks, or nothing).
struct HelloHeader {
    std::uint32_t magic = kHelloMagic;
    std::uint32_t wire_version = kWireVersion;
    std::uint32_t ok = 0;  ///< 1: loaded and serving; 0: `error` says why, the worker exits
    std::uint32_t abi_version = 0;  ///< the table's: 1 (served through the adapter) or 2
    std::uint32_t capability_count = 0;
    std::uint32_t name_len = 0, version_len = 0, error_len = 0, breaks_len = 0;
    std::uint32_t reserved = 0;
};

/// One plane descriptor of a call frame: an input's byte count or an output's capacity.
struct PlaneHeader {
    std::uint32_t name = 0, format = 0;
    std::uint64_t bytes = 0;
};

/// Harness -> worker, one per call. Followed by input_count input PlaneHeaders, output_count
/// output PlaneHeaders (bytes: the capacity), then each input's bytes in order (with iota,
/// input 0 is sent with 0 bytes and the worker makes count words of iota_width bytes).
/// With shm_bytes != 0 the call has one output plane, which the worker places in the shared
/// batch memory: the slot [shm_offset, shm_offset + shm_bytes) of the memfd (both whole pages),
/// the buffer ending at the slot's end, between guard pages; its bytes do not travel in the reply.
struct CallHeader {
    std::uint32_t magic = kCallMagic;
    std::uint32_t op = 0, format = 0, format_in = 0, layout = 0, method = 0, flags = 0, rank = 0;
    std::uint64_t shape[NINFER_MAX_RANK] = {};
    std::uint64_t count = 0;
    std::uint32_t profile = 0;
    std::uint32_t input_count = 0, output_count = 0;
    std::uint32_t iota_width = 0;  ///< 0: no iota; 1, 2, 4 or 8: the worker makes input 0
    std::uint64_t iota_start = 0;
    std::uint64_t shm_offset = 0, shm_bytes = 0;
};

/// Worker -> harness, one per call. Followed by message_len bytes of message, output_count
/// uint64 `written` sizes (the call's output planes, in its order; 0 unless `returned`) and
/// then each output's written bytes (none for a shared-memory call).
struct ReplyHeader {
    std::uint32_t magic = kReplyMagic;
    std::uint8_t outcome = 0;  ///< Outcome::returned or Outcome::error
    std::uint8_t restart = 0;  ///< 1: the worker's state is suspect (overrun); it exits after this
    std::uint16_t reserved = 0;
    std::int32_t status = 0;
    std::uint32_t detail = 0;
    std::uint32_t message_len = 0;
    std::uint32_t output_count = 0;
};

/// Why a call's plane descriptors are malformed (too many planes, a name outside the registry
/// or given twice, input sizes whose sum overflows), or "".
std::string check_planes(const PlaneHeader *inputs, std::uint32_t input_count, const PlaneHeader *outputs,
                         std::uint32_t output_count);

/// Whether `status` is NINFER_OK or one of the NINFER_E_* codes of plugin.h.
bool known_status(std::int32_t status);

/// Writes `count` little-endian words start, start+1, ... of `width` bytes to `dst`.
void fill_iota(std::uint8_t *dst, std::uint64_t start, int width, std::uint64_t count);

/// Why an iota request is malformed (width not 1/2/4/8, words past the width), or "".
std::string check_iota(std::uint64_t start, int width, std::uint64_t count);

// ---- Registry names (formats.hpp tables; the exec protocol speaks names) ---------------------

std::string_view op_name(std::uint32_t id);         ///< "" when unknown
std::optional<std::uint32_t> op_id(std::string_view name);
std::string_view format_name(std::uint32_t id);     ///< word, grouped or other format; ""
std::optional<std::uint32_t> format_id(std::string_view name);
std::string_view layout_name(std::uint32_t id);
std::optional<std::uint32_t> layout_id(std::string_view name);
/// `method` of `op` by name and its kind (abi/methods.hpp, the one spelling).
using abi::method_id;
using abi::method_kind;
using abi::method_name;

/// Why a declared capability is malformed (field outside the registry), or "" when sound.
std::string check_capability(const ninfer_capability_v2 &cap);

// ---- Blocking I/O of the worker ---------------------------------------------------------------

bool read_full(int fd, void *buf, std::size_t n);         ///< false on EOF or error
bool write_full(int fd, const void *buf, std::size_t n);  ///< false on error

// ---- A child process with deadlines (the harness side) ----------------------------------------

using Clock = std::chrono::steady_clock;

/// "killed by SIGSEGV", "exited with status 3", "killed by SIGKILL (memory limit?)".
std::string describe_wait_status(int status, bool killed_by_us);

/// SIGKILL every subject this process started, every process that carries one of their tokens,
/// every child of this process (adopted orphans) and all their descendants; no subject starts
/// afterwards (the registry stays locked). For a process about to end on a signal (interrupt.hpp).
void kill_all_subjects();

/// How a child is contained (harness/README.md, "Containment").
struct Containment {
    contain::Mode mode = contain::Mode::automatic;
    std::uint32_t max_processes = 512;  ///< pids.max of its cgroup, where there is one
};

/// A child in its own process group, talking over its stdin/stdout; its stderr is drained
/// into a tail kept for crash messages. Never leaves a zombie. The process the harness forks is
/// the child's init (in its own PID namespace where the kernel allows): it starts the subject,
/// reaps every orphan of the subject's tree as it ends, and reports the subject's wait status.
class Child {
public:
    enum class Io { ok, eof, timeout };

    Child() = default;
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;
    ~Child() { kill(); }

    /// fork+exec of argv with RLIMIT_AS (0: none) and RLIMIT_CORE 0; false and `why` on failure.
    /// shared_fd >= 0: the child gets it at descriptor kShmFd and kShmEnv=3 in its environment.
    bool spawn(const std::vector<std::string> &argv, std::uint64_t memory_limit, std::string &why, int shared_fd = -1,
               Containment containment = {});
    /// A call starts: its time limit counts from here, less the time the subject then waits
    /// for a CPU (a busy machine; contain::waited_since).
    void begin_call();
    bool running() const { return pid_ > 0; }

    Io write_all(const void *buf, std::size_t n, Clock::time_point deadline);
    Io read_exact(void *buf, std::size_t n, Clock::time_point deadline);
    /// One line without its '\n'; Io::ok with `too_long` set when it passes `max` bytes.
    Io read_line(std::string &line, std::size_t max, Clock::time_point deadline, bool &too_long);

    /// After EOF: reap the child (killing it if it lingers) and say how it ended, with the
    /// tail of its stderr.
    std::string reap();
    /// Kill the whole process group and reap it.
    void kill();
    /// The last lines of stderr on one line ("" when it wrote none), raw: callers pass it
    /// through reports::untrusted_text.
    std::string stderr_tail() const;
    /// Whether the child wrote anything past the last line or frame read (without waiting).
    bool pending_output();
    /// Drops the stderr kept so far, so that a crash message shows what its call wrote.
    void clear_stderr_tail() {
        pump_stderr();
        tail_.clear();
    }

private:
    bool pump_stderr();
    /// 1: fd ready; 0: deadline passed; -1: error, or the child itself ended with fd not ready
    /// (a descendant may hold the pipe open: the child's death is not left to EOF).
    int wait_fd(int fd, short events, Clock::time_point deadline);
    bool child_exited() const;
    /// SIGKILL every process started for this child (its process tree and every process that
    /// carries its token, setsid or not) except the child itself; returns them.
    std::vector<pid_t> kill_descendants() const;
    /// Once the child is reaped: reap the killed descendants, which are then ours (subreaper).
    static void reap_killed(std::vector<pid_t> killed);
    /// SIGKILL the child's process group and every descendant; reap them all; the child's wait status.
    int kill_and_reap();

    /// The time the subject waited for a CPU since begin_call, which extends a deadline.
    std::chrono::nanoseconds waited_for_cpu();

    pid_t pid_ = -1;  ///< the init
    pid_t subject_ = -1;  ///< the subject under it (found lazily; 0: not found)
    int status_ = -1;  ///< read end: the init writes the subject's wait status here (readable: it ended)
    contain::Effective effective_;
    contain::Cgroup cgroup_;
    contain::RunDelays delays_;  ///< at begin_call
    std::string token_;  ///< NINFER_CONFORM_SUBJECT=..., in the environment of every descendant
    int in_ = -1, out_ = -1, err_ = -1;
    std::string rbuf_;  ///< bytes read past the last line
    std::string tail_;
};

}  // namespace ninfer::harness::wire
