// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform worker --plugin PATH` (harness/README.md, "Isolation"): loads one plugin,
// checks its table, then serves call frames on stdin/stdout until EOF. Output buffers sit
// between guard pages, so that a write past either end faults on the guilty call; any other
// fatal signal, raised, sent, blocked or hidden by the plugin, ends the call as a crash.
#include <dlfcn.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "ninfer/abi/registry.hpp"
#include "ninfer/harness/subject.hpp"
#include "wire.hpp"

namespace ninfer::harness {
namespace {

/// The canary byte at offset i of the slack before an output buffer: not a constant, so that
/// a stray write of one repeated byte cannot pass.
constexpr std::uint8_t canary_byte(std::size_t i) { return static_cast<std::uint8_t>(0xA5u ^ (i * 0x3Bu)); }

/// A malloc'd input or aux buffer reused across calls (read-only for the plugin); never throws.
struct Buffer {
    std::uint8_t *p = nullptr;
    std::size_t size = 0;
    ~Buffer() { std::free(p); }
    bool reserve(std::uint64_t n) {
        if (n >= SIZE_MAX) return false;
        if (n < size && p) return true;
        std::free(p);
        p = static_cast<std::uint8_t *>(std::malloc(static_cast<std::size_t>(n) + 1));
        size = p ? static_cast<std::size_t>(n) + 1 : 0;
        return p != nullptr;
    }
};

/// An output buffer between two PROT_NONE guard pages. The buffer ends where the trailing guard
/// begins, so a write past the end faults at once; the slack between the leading guard and the
/// buffer (capacities that are not whole pages) is canary-filled and checked after the call,
/// and a write further before it faults on the leading guard.
struct GuardedBuffer {
    std::uint8_t *map = nullptr;
    std::size_t page = 0, data = 0;  ///< page size; bytes of read-write pages between the guards
    std::uint8_t *p = nullptr;       ///< the buffer: map + page + data - capacity
    std::size_t capacity = 0;
    std::uint64_t shared_offset = ~0ull;  ///< the slot of the shared batch memory mapped, or ~0: private

    GuardedBuffer() = default;
    GuardedBuffer(const GuardedBuffer &) = delete;
    GuardedBuffer &operator=(const GuardedBuffer &) = delete;
    ~GuardedBuffer() { unmap(); }
    void unmap() {
        if (map) ::munmap(map, data + 2 * page);
        map = p = nullptr;
        data = capacity = 0;
        shared_offset = ~0ull;
    }
    std::size_t slack() const { return data - capacity; }
    std::uint8_t *leading_guard() const { return map; }
    std::uint8_t *trailing_guard() const { return map + page + data; }

    /// Places a zero-filled buffer of n bytes at the end of the slot [offset, offset + bytes) of
    /// the shared batch memory `fd` (whole pages), mapped between the guard pages; false when it
    /// cannot be mapped.
    bool place_shared(int fd, std::uint64_t offset, std::uint64_t bytes, std::uint64_t n) {
        page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        if (fd < 0 || n > bytes || bytes % page || offset % page || bytes > SIZE_MAX - 4 * page) return false;
        if (!map || shared_offset != offset || data != bytes) {
            unmap();
            void *m = ::mmap(nullptr, bytes + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED) return false;
            map = static_cast<std::uint8_t *>(m);
            data = static_cast<std::size_t>(bytes);
            if (::mmap(map + page, data, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(offset)) ==
                MAP_FAILED) {
                unmap();
                return false;
            }
            shared_offset = offset;
        }
        return fill(n);
    }
    /// Places a zero-filled buffer of n bytes with canary-filled slack; false when it cannot be mapped.
    bool place(std::uint64_t n) {
        page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        if (n > SIZE_MAX - 4 * page) return false;
        const std::size_t need = (static_cast<std::size_t>(n) + page - 1) / page * page;
        if (!map || data != need || shared_offset != ~0ull) {
            unmap();
            void *m = ::mmap(nullptr, need + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED) return false;
            map = static_cast<std::uint8_t *>(m);
            data = need;
            if (need > 0 && ::mprotect(map + page, need, PROT_READ | PROT_WRITE) != 0) {
                unmap();
                return false;
            }
        }
        return fill(n);
    }
    bool fill(std::uint64_t n) {
        capacity = static_cast<std::size_t>(n);
        p = map + page + data - capacity;
        for (std::size_t k = 0; k < slack(); ++k) map[page + k] = canary_byte(k);
        std::memset(p, 0, capacity);
        return true;
    }
    /// Whether the slack before the buffer still holds its canaries.
    bool slack_intact() const {
        for (std::size_t k = 0; k < slack(); ++k)
            if (map[page + k] != canary_byte(k)) return false;
        return true;
    }
};

/// What the fault handler says when a plugin touches a guard page: the guard ranges of the
/// current call and a line for each, prepared before the call (the handler only compares and
/// writes).
struct GuardNote {
    const std::uint8_t *begin = nullptr, *end = nullptr;
    char text[160] = {};
    std::size_t len = 0;
};
GuardNote g_guard_notes[2 * wire::kMaxPlanes];

/// The signals that end a call as a crash (issue 36, item 3): a fault the kernel raised, or one
/// the plugin raised, sent itself, blocked or hid.
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/// Writes `s` (a literal) to stderr from a signal handler.
template <std::size_t N>
void say(const char (&s)[N]) {
    [[maybe_unused]] auto w = ::write(2, s, N - 1);
}

/// The actions of kFatalSignals as installed, against which each call's end is compared.
struct sigaction g_installed[std::size(kFatalSignals)];

void on_fatal_signal(int sig, siginfo_t *info, void *) {
    // A fault the kernel raised (si_code > 0) at a guard page is the one this handler explains;
    // a raised or sent signal's si_addr is no address (it overlaps the sender's pid).
    if (info->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS)) {
        const auto *a = static_cast<const std::uint8_t *>(info->si_addr);
        for (const auto &g : g_guard_notes)
            if (g.len && a >= g.begin && a < g.end) {
                [[maybe_unused]] auto w = ::write(2, g.text, g.len);
            }
    } else if (info->si_code <= 0) {
        say("ninfer-conform worker: the plugin raised or was sent a fatal signal during the call\n");
    }
    // SA_RESETHAND restored the default action: the signal raised again (pending until this
    // handler returns) ends the worker, whether the fault would recur or, raised, would not.
    ::raise(sig);
}

void install_guard_handler() {
    static std::vector<char> alt(1 << 16);
    stack_t ss = {};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa = {};
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
        ::sigaction(kFatalSignals[i], &sa, nullptr);
        ::sigaction(kFatalSignals[i], nullptr, &g_installed[i]);  // as the system keeps it (a sanitizer may)
    }
}

/// After a call: end the worker by the fatal signal the plugin left pending (blocked), or whose
/// action it replaced (ignored, or a handler that may have swallowed one it raised), so that the
/// call is a crash; the worker's own actions and mask otherwise stand.
void end_if_signal_hidden() {
    sigset_t pending;
    ::sigemptyset(&pending);
    ::sigpending(&pending);
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
        const int sig = kFatalSignals[i];
        struct sigaction now = {};
        ::sigaction(sig, nullptr, &now);
        const bool ours = (now.sa_flags & SA_SIGINFO) == (g_installed[i].sa_flags & SA_SIGINFO) &&
                          now.sa_sigaction == g_installed[i].sa_sigaction;
        if (!::sigismember(&pending, sig) && ours) continue;
        std::fprintf(stderr, "ninfer-conform worker: the plugin %s SIG%s during the call: a crash\n",
                     ours ? "left pending (blocked)" : "replaced the action of", ::sigabbrev_np(sig));
        std::fflush(stderr);
        ::signal(sig, SIG_DFL);
        sigset_t one;
        ::sigemptyset(&one);
        ::sigaddset(&one, sig);
        ::raise(sig);
        ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
        ::_exit(128 + sig);  // not reached: the signal's default action ends the worker
    }
}

/// The loaded table, whatever its ABI: a v1 table kept whole, or a v2 table's functions that
/// its struct_size covers.
struct Loaded {
    std::uint32_t abi = 0;  ///< 1 or 2
    void *self = nullptr;
    ninfer_fn_v1 ops_v1[16] = {};
    ninfer_fn_v2 ops_v2[NINFER_MAX_OPS] = {};
    std::string name, version, breaks;
    std::vector<ninfer_capability_v2> caps;
};

std::string bounded(const char *s) { return s ? std::string(s, strnlen(s, wire::kMaxText)) : std::string(); }

/// The first fields of every table version: enough to tell the layout.
struct TableHead {
    std::uint32_t abi_version;
    std::uint32_t struct_size;
};

/// Reads a v1 table; "" or why it is refused.
std::string load_v1(const ninfer_plugin_v1 *t, Loaded &out) {
    if (t->struct_size < sizeof(ninfer_plugin_v1))
        return "table struct_size " + std::to_string(t->struct_size) + ", expected at least " +
               std::to_string(sizeof(ninfer_plugin_v1)) + " (ABI 1)";
    if (!t->name) return "table name is NULL";
    out.name = bounded(t->name);
    out.version = bounded(t->version);
    out.self = t->self;
    std::memcpy(out.ops_v1, t->ops, sizeof out.ops_v1);
    if (t->capability_count > wire::kMaxCapabilities)
        return "capability_count " + std::to_string(t->capability_count) + " exceeds " +
               std::to_string(wire::kMaxCapabilities);
    if (t->capability_count > 0 && !t->capabilities)
        return "capabilities is NULL with capability_count " + std::to_string(t->capability_count);
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        const auto &c = t->capabilities[i];
        out.caps.push_back({c.op, c.format, c.format_in, c.layout, c.method, 0});
    }
    return "";
}

/// Reads a v2 table within its struct_size, capabilities at its capability_size stride; "" or
/// why it is refused.
std::string load_v2(const ninfer_plugin_v2 *t, Loaded &out) {
    constexpr std::size_t head = offsetof(ninfer_plugin_v2, ops);
    if (t->struct_size < head)
        return "table struct_size " + std::to_string(t->struct_size) + ", expected at least " + std::to_string(head) +
               " (ABI 2: the fields before ops)";
    if (!t->name) return "table name is NULL";
    out.name = bounded(t->name);
    out.version = bounded(t->version);
    out.self = t->self;
    // A table from an older header has fewer ops; entries past its struct_size stay NULL.
    const std::size_t n = std::min<std::size_t>((t->struct_size - head) / sizeof(ninfer_fn_v2), NINFER_MAX_OPS);
    for (std::size_t i = 0; i < n; ++i) out.ops_v2[i] = t->ops[i];
    if (t->capability_count > wire::kMaxCapabilities)
        return "capability_count " + std::to_string(t->capability_count) + " exceeds " +
               std::to_string(wire::kMaxCapabilities);
    if (t->capability_count > 0 && !t->capabilities)
        return "capabilities is NULL with capability_count " + std::to_string(t->capability_count);
    if (t->capability_count > 0 && t->capability_size < sizeof(ninfer_capability_v1))
        return "capability_size " + std::to_string(t->capability_size) + ", expected at least " +
               std::to_string(sizeof(ninfer_capability_v1));
    // Fields past what this harness knows are ignored; profile only when the stride covers it.
    const auto *base = reinterpret_cast<const unsigned char *>(t->capabilities);
    const std::size_t take = std::min<std::size_t>(t->capability_size, sizeof(ninfer_capability_v2));
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        ninfer_capability_v2 c{};
        std::memcpy(&c, base + static_cast<std::size_t>(i) * t->capability_size, take);
        out.caps.push_back(c);
    }
    return "";
}

/// The entry's table for one ABI version. The entry's C++ type depends on the ABI its plugin
/// was built against (it returns a v1 or a v2 table pointer); the harness cannot know which
/// before the call, so it calls through the version-neutral type of plugin.h. Clang's UBSan
/// function check would flag that pointer pun of the C ABI; it is exempted here alone.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
const void *call_entry(ninfer_plugin_entry_any_fn entry, std::uint32_t harness_abi) {
    return entry(harness_abi);
}

/// Loads the plugin and negotiates its ABI (plugin.h, ninfer_plugin_entry): entry(2), then
/// entry(1) when that returns NULL; the table's abi_version picks the layout. "" on success,
/// else the one-line reason.
std::string load_plugin(const std::string &path, Loaded &out) {
    const std::string who = "plugin " + path + ": ";
    void *lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::string err = bounded(::dlerror());
        if (err.rfind(path + ": ", 0) == 0) err.erase(0, path.size() + 2);
        return who + "cannot load: " + err;
    }
    auto entry = reinterpret_cast<ninfer_plugin_entry_any_fn>(::dlsym(lib, NINFER_PLUGIN_ENTRY_SYMBOL));
    if (!entry) return who + "no symbol " NINFER_PLUGIN_ENTRY_SYMBOL " (not a ninfer-conform plugin?)";
    const void *table = nullptr;
    for (std::uint32_t v = NINFER_ABI_LATEST; v >= NINFER_ABI_OLDEST && !table; --v) table = call_entry(entry, v);
    if (!table)
        return who + NINFER_PLUGIN_ENTRY_SYMBOL " returned NULL for every ABI this harness loads (" +
               std::to_string(NINFER_ABI_OLDEST) + ".." + std::to_string(NINFER_ABI_LATEST) + ")";
    const auto *head = static_cast<const TableHead *>(table);
    out.abi = head->abi_version;
    std::string why;
    if (out.abi == 1) why = load_v1(static_cast<const ninfer_plugin_v1 *>(table), out);
    else if (out.abi == 2) why = load_v2(static_cast<const ninfer_plugin_v2 *>(table), out);
    else
        return who + "plugin ABI " + std::to_string(out.abi) + "; this harness loads ABI " +
               std::to_string(NINFER_ABI_OLDEST) + ".." + std::to_string(NINFER_ABI_LATEST);
    if (!why.empty()) return who + why;
    for (std::size_t i = 0; i < out.caps.size(); ++i)
        if (auto w = wire::check_capability(out.caps[i]); !w.empty()) return who + "capability " + std::to_string(i) + ": " + w;
    // A bundled seeded-bug plugin names the rule it breaks (`plugins` lists it).
    if (auto *breaks = reinterpret_cast<const char *(*)()>(::dlsym(lib, "ninfer_mutant_breaks")))
        out.breaks = bounded(breaks());
    return "";
}

bool send_hello(int fd, const Loaded &p, const std::string &error) {
    wire::HelloHeader h;
    h.ok = error.empty() ? 1 : 0;
    h.abi_version = p.abi;
    h.capability_count = error.empty() ? static_cast<std::uint32_t>(p.caps.size()) : 0;
    h.name_len = static_cast<std::uint32_t>(p.name.size());
    h.version_len = static_cast<std::uint32_t>(p.version.size());
    std::string err = error.substr(0, wire::kMaxText);
    h.error_len = static_cast<std::uint32_t>(err.size());
    h.breaks_len = static_cast<std::uint32_t>(p.breaks.size());
    std::string frame(reinterpret_cast<const char *>(&h), sizeof h);
    frame += p.name;
    frame += p.version;
    if (h.ok) frame.append(reinterpret_cast<const char *>(p.caps.data()), p.caps.size() * sizeof(ninfer_capability_v2));
    frame += err;
    frame += p.breaks;
    return wire::write_full(fd, frame.data(), frame.size());
}

/// Reads n bytes into b, or drains them when b cannot hold them; false on EOF.
bool read_into(int fd, Buffer &b, std::uint64_t n, bool &allocated) {
    allocated = b.reserve(n);
    if (allocated) return wire::read_full(fd, b.p, static_cast<std::size_t>(n));
    char sink[65536];
    while (n > 0) {
        std::size_t k = n < sizeof sink ? static_cast<std::size_t>(n) : sizeof sink;
        if (!wire::read_full(fd, sink, k)) return false;
        n -= k;
    }
    return true;
}

struct Outgoing {
    wire::ReplyHeader h;
    std::string message;
    std::uint64_t written[wire::kMaxPlanes] = {};
    const std::uint8_t *out[wire::kMaxPlanes] = {};
};

/// `shared`: the output bytes are in the shared batch memory already; only their sizes travel.
bool send_reply(int fd, Outgoing &r, std::uint32_t output_count, bool shared = false) {
    r.h.message_len = static_cast<std::uint32_t>(r.message.size());
    r.h.output_count = output_count;
    if (!wire::write_full(fd, &r.h, sizeof r.h) || !wire::write_full(fd, r.message.data(), r.message.size()) ||
        !wire::write_full(fd, r.written, output_count * sizeof(std::uint64_t)))
        return false;
    for (std::uint32_t i = 0; i < output_count && !shared; ++i)
        if (r.written[i] > 0 && !wire::write_full(fd, r.out[i], static_cast<std::size_t>(r.written[i]))) return false;
    return true;
}

Outgoing error_reply(std::string message, bool restart = false) {
    Outgoing r;
    r.h.outcome = static_cast<std::uint8_t>(Outcome::error);
    r.h.restart = restart ? 1 : 0;
    r.message = std::move(message);
    return r;
}

Outgoing returned(std::int32_t status, std::string message) {
    Outgoing r;
    r.h.outcome = static_cast<std::uint8_t>(Outcome::returned);
    r.h.status = status;
    r.message = std::move(message);
    return r;
}

/// "output plane 2 (scales, capacity 64 bytes)".
std::string plane_text(std::uint32_t i, const wire::PlaneHeader &p) {
    return "output plane " + std::to_string(i + 1) + " (" + std::string(abi::plane_name(p.name)) + ", capacity " +
           std::to_string(p.bytes) + " bytes)";
}

void note_guard(GuardNote &g, const std::uint8_t *begin, std::size_t bytes, const std::string &text) {
    const std::string line = "ninfer-conform worker: the plugin wrote " + text + "\n";
    g.begin = begin;
    g.end = begin + bytes;
    g.len = std::min(line.size(), sizeof g.text);
    std::memcpy(g.text, line.data(), g.len);
}

/// One decoded call frame: the header, its planes, and where the input bytes are.
struct Frame {
    wire::CallHeader h;
    wire::PlaneHeader in[wire::kMaxPlanes], out[wire::kMaxPlanes];
    Buffer *data = nullptr;          ///< kMaxPlanes input buffers
    std::uint64_t in_bytes[wire::kMaxPlanes] = {};  ///< with iota, input 0's generated size
};

/// The fields a call of either ABI version shares, from the wire header (struct_size included).
template <class Call>
void fill_head(Call &c, const wire::CallHeader &h) {
    c.struct_size = sizeof c;
    c.op = h.op;
    c.format = h.format;
    c.format_in = h.format_in;
    c.layout = h.layout;
    c.method = h.method;
    c.flags = h.flags;
    c.rank = h.rank;
    std::memcpy(c.shape, h.shape, sizeof c.shape);
    c.count = h.count;
}

/// Calls a v2 function with the frame's planes.
std::int32_t call_v2(const Loaded &p, ninfer_fn_v2 fn, const Frame &f, GuardedBuffer *const *out, std::uint64_t *written,
                     ninfer_result_v2 &res) {
    ninfer_input_plane in[wire::kMaxPlanes] = {};
    ninfer_output_plane op[wire::kMaxPlanes] = {};
    for (std::uint32_t i = 0; i < f.h.input_count; ++i)
        in[i] = {f.in[i].name, f.in[i].format, f.data[i].p, f.in_bytes[i]};
    for (std::uint32_t i = 0; i < f.h.output_count; ++i) op[i] = {f.out[i].name, f.out[i].format, out[i]->p, f.out[i].bytes, 0};
    ninfer_call_v2 c{};
    fill_head(c, f.h);
    c.profile = f.h.profile;
    c.input_count = f.h.input_count;
    c.inputs = in;
    c.output_count = f.h.output_count;
    c.outputs = op;
    res = {};
    res.struct_size = sizeof res;
    const std::int32_t status = fn(p.self, &c, &res);
    for (std::uint32_t i = 0; i < f.h.output_count; ++i) written[i] = op[i].written;
    return status;
}

/// The v1 adapter: input planes 0, 1 become in, aux; output planes 0, 1, 2 become out, out2,
/// out3, in the op's order.
std::int32_t call_v1(const Loaded &p, ninfer_fn_v1 fn, const Frame &f, GuardedBuffer *const *out, std::uint64_t *written,
                     ninfer_result_v2 &res) {
    ninfer_call_v1 c{};
    fill_head(c, f.h);
    if (f.h.input_count > 0) {
        c.in = f.data[0].p;
        c.in_bytes = f.in_bytes[0];
    }
    if (f.h.input_count > 1) {
        c.aux = f.data[1].p;
        c.aux_bytes = f.in_bytes[1];
    }
    void **outs[3] = {&c.out, &c.out2, &c.out3};
    std::uint64_t *caps[3] = {&c.out_bytes, &c.out2_bytes, &c.out3_bytes};
    for (std::uint32_t i = 0; i < f.h.output_count; ++i) {
        *outs[i] = out[i]->p;
        *caps[i] = f.out[i].bytes;
    }
    ninfer_result_v1 r1{};
    const std::int32_t status = fn(p.self, &c, &r1);
    const std::uint64_t w[3] = {r1.out_written, r1.out2_written, r1.out3_written};
    for (std::uint32_t i = 0; i < f.h.output_count; ++i) written[i] = w[i];
    // A v1 plugin that reports a size for a buffer it was not given: caught like an overstatement.
    for (std::uint32_t i = f.h.output_count; i < 3; ++i)
        if (w[i] != 0) written[i] = w[i];
    res = {};
    res.struct_size = sizeof res;
    res.detail = r1.detail;
    std::memcpy(res.message, r1.message, sizeof res.message);
    return status;
}

/// Runs one call on the plugin and checks what it did to the output planes.
/// A shared-memory call (h.shm_bytes != 0) places its one output in `shared` (shm_fd's slot).
Outgoing run_call(const Loaded &p, const Frame &f, GuardedBuffer (&buffers)[wire::kMaxPlanes], GuardedBuffer &shared,
                  int shm_fd) {
    const auto &h = f.h;
    const bool shm = h.shm_bytes != 0;
    if (shm && (h.output_count != 1 || shm_fd < 0))
        return error_reply(shm_fd < 0 ? "shared-memory call but the worker was given no shared batch memory"
                                      : "shared-memory call with " + std::to_string(h.output_count) +
                                            " output planes (expected 1)");
    GuardedBuffer *out[wire::kMaxPlanes];
    for (std::uint32_t i = 0; i < wire::kMaxPlanes; ++i) out[i] = shm && i == 0 ? &shared : &buffers[i];
    for (std::uint32_t i = 0; i < h.output_count; ++i) {
        if (shm && i == 0 && !shared.place_shared(shm_fd, h.shm_offset, h.shm_bytes, f.out[0].bytes))
            return error_reply("worker cannot map " + std::to_string(f.out[0].bytes) + " bytes of " + plane_text(0, f.out[0]) +
                               " in the shared batch memory (slot at " + std::to_string(h.shm_offset) + ", " +
                               std::to_string(h.shm_bytes) + " bytes)");
        if (!(shm && i == 0) && !out[i]->place(f.out[i].bytes))
            return error_reply("worker cannot allocate " + std::to_string(f.out[i].bytes) + " bytes for " +
                               plane_text(i, f.out[i]) + " (memory limit?)");
        note_guard(g_guard_notes[2 * i], out[i]->leading_guard(), out[i]->page, "before the start of " + plane_text(i, f.out[i]));
        note_guard(g_guard_notes[2 * i + 1], out[i]->trailing_guard(), out[i]->page, "past the end of " + plane_text(i, f.out[i]));
    }
    for (std::uint32_t i = h.output_count; i < wire::kMaxPlanes; ++i) g_guard_notes[2 * i].len = g_guard_notes[2 * i + 1].len = 0;
    const bool v1 = p.abi == 1;
    ninfer_fn_v1 fn1 = v1 && h.op >= 1 && h.op <= 16 ? p.ops_v1[h.op - 1] : nullptr;
    ninfer_fn_v2 fn2 = !v1 && h.op >= 1 && h.op <= NINFER_MAX_OPS ? p.ops_v2[h.op - 1] : nullptr;
    if (!fn1 && !fn2) {
        if (covers(p.caps, h.op, h.format, h.format_in, h.layout, h.method, h.profile))
            return error_reply("plugin declares op " + std::string(wire::op_name(h.op)) + " for this call but its function is NULL");
        return returned(NINFER_E_UNSUPPORTED, "plugin has no function for op " + std::to_string(h.op));
    }
    if (v1 && h.op == NINFER_OP_linear)
        return returned(NINFER_E_UNSUPPORTED, "linear needs a compute profile, which an ABI 1 plugin cannot take");
    if (v1 && (h.input_count > 2 || h.output_count > 3))
        return returned(NINFER_E_UNSUPPORTED, "the call has " + std::to_string(h.input_count) + " input and " +
                                                  std::to_string(h.output_count) +
                                                  " output planes; an ABI 1 plugin takes at most 2 and 3");
    std::uint64_t written[wire::kMaxPlanes] = {};
    ninfer_result_v2 res{};
    const std::int32_t status = v1 ? call_v1(p, fn1, f, out, written, res) : call_v2(p, fn2, f, out, written, res);
    end_if_signal_hidden();

    // 1. The slack before each buffer: a write there (a guard page caught anything past the
    //    end or further before) leaves the worker suspect, so it restarts.
    for (std::uint32_t i = 0; i < h.output_count; ++i)
        if (!out[i]->slack_intact()) return error_reply("wrote before the start of " + plane_text(i, f.out[i]), true);
    // 2. Reported sizes within the capacities (a v1 plugin: also none for a buffer it was not given).
    const std::uint32_t reported = v1 ? 3 : h.output_count;
    for (std::uint32_t i = 0; i < reported; ++i) {
        const std::uint64_t cap = i < h.output_count ? f.out[i].bytes : 0;
        if (written[i] > cap) {
            static const char *v1_names[3] = {"out_written", "out2_written", "out3_written"};
            const std::string what = v1 ? std::string(v1_names[i])
                                        : "written of output plane " + std::to_string(i + 1) + " (" +
                                              std::string(abi::plane_name(f.out[i].name)) + ")";
            return error_reply("reported " + what + " " + std::to_string(written[i]) + " > capacity " + std::to_string(cap));
        }
    }
    // 3. A status the ABI defines.
    if (!wire::known_status(status)) return error_reply("returned status " + std::to_string(status) + ", not a NINFER_* code");
    Outgoing r = returned(status, std::string(res.message, strnlen(res.message, sizeof res.message)));
    r.h.detail = res.detail;
    for (std::uint32_t i = 0; i < h.output_count; ++i) {
        r.written[i] = written[i];
        r.out[i] = out[i]->p;
    }
    return r;
}

}  // namespace

int worker_main(const std::string &library_path) {
    struct rlimit core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
    // The harness's shared batch memory, moved off the descriptor it came on (before the
    // protocol descriptors take the lowest free ones).
    int shm_fd = -1;
    if (const char *e = std::getenv(wire::kShmEnv); e && std::string(e) == std::to_string(wire::kShmFd)) {
        shm_fd = ::fcntl(wire::kShmFd, F_DUPFD_CLOEXEC, wire::kShmFd + 1);
        ::close(wire::kShmFd);
        ::unsetenv(wire::kShmEnv);
    }
    // The protocol moves to private descriptors; the plugin's stdout goes to stderr and its
    // stdin reads /dev/null, so that nothing it prints or reads can break the framing.
    int proto_in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    int proto_out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (proto_in < 0 || proto_out < 0) {
        std::perror("ninfer-conform worker: dup");
        return 2;
    }
    if (int null = ::open("/dev/null", O_RDONLY); null >= 0) {
        ::dup2(null, 0);
        ::close(null);
    }
    ::dup2(2, 1);

    Loaded plugin;
    std::string error = load_plugin(library_path, plugin);
    if (!send_hello(proto_out, plugin, error) || !error.empty()) return 1;
    install_guard_handler();

    Buffer in[wire::kMaxPlanes];
    GuardedBuffer out[wire::kMaxPlanes];
    GuardedBuffer shared[4];  // the slots of pipelined batches, each mapped once
    for (;;) {
        Frame f;
        f.data = in;
        auto &h = f.h;
        if (!wire::read_full(proto_in, &h, sizeof h)) return 0;
        if (h.magic != wire::kCallMagic) {
            std::fprintf(stderr, "ninfer-conform worker: bad call frame magic 0x%08x\n", h.magic);
            return 2;
        }
        if (h.input_count > wire::kMaxPlanes || h.output_count > wire::kMaxPlanes) {
            std::fprintf(stderr, "ninfer-conform worker: call frame with %u input and %u output planes (at most %u)\n",
                         h.input_count, h.output_count, wire::kMaxPlanes);
            return 2;
        }
        if (!wire::read_full(proto_in, f.in, h.input_count * sizeof(wire::PlaneHeader)) ||
            !wire::read_full(proto_in, f.out, h.output_count * sizeof(wire::PlaneHeader)))
            return 0;
        std::string why = wire::check_planes(f.in, h.input_count, f.out, h.output_count);
        if (why.empty() && h.iota_width != 0) {
            if (h.input_count == 0) why = "iota call without an input plane";
            else if (f.in[0].bytes != 0) why = "iota call with input bytes";
            else if (auto w = wire::check_iota(h.iota_start, static_cast<int>(h.iota_width), h.count); !w.empty()) why = w;
            else if (h.count > ~0ull / h.iota_width) why = "iota size overflows uint64";
        }
        if (!why.empty()) {
            // The frame's length is unknown past a bad descriptor: answer, then end the stream.
            Outgoing r = error_reply("malformed call frame: " + why, true);
            send_reply(proto_out, r, 0);
            return 2;
        }
        bool held = true;
        std::uint64_t unheld = 0;
        for (std::uint32_t i = 0; i < h.input_count; ++i) {
            f.in_bytes[i] = f.in[i].bytes;
            bool ok = true;
            if (i == 0 && h.iota_width != 0) {
                f.in_bytes[0] = h.count * h.iota_width;
                ok = in[0].reserve(f.in_bytes[0]);
                if (ok) wire::fill_iota(in[0].p, h.iota_start, static_cast<int>(h.iota_width), h.count);
            } else if (!read_into(proto_in, in[i], f.in[i].bytes, ok)) {
                return 0;
            }
            if (!ok && held) {
                held = false;
                unheld = i;
            }
        }
        Outgoing r;
        if (!held)
            r = error_reply("worker cannot hold input plane " + std::to_string(unheld + 1) + " (" +
                            std::string(abi::plane_name(f.in[unheld].name)) + ", " + std::to_string(f.in_bytes[unheld]) +
                            " bytes; memory limit?)");
        else if (h.rank > NINFER_MAX_RANK)
            r = error_reply("rank " + std::to_string(h.rank) + " exceeds " + std::to_string(NINFER_MAX_RANK));
        else
            r = run_call(plugin, f, out, shared[h.shm_bytes ? h.shm_offset / h.shm_bytes % 4 : 0], shm_fd);
        const bool ret = r.h.outcome == static_cast<std::uint8_t>(Outcome::returned);
        if (!send_reply(proto_out, r, ret ? h.output_count : 0, h.shm_bytes != 0)) return 0;
        if (r.h.restart) return 3;
    }
}

}  // namespace ninfer::harness
