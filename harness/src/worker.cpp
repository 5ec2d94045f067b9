// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform worker --plugin PATH` (harness/README.md, "Isolation"): loads one plugin,
// checks its table, then serves call frames on stdin/stdout until EOF. Output buffers sit
// between guard pages, so that a write past either end faults on the guilty call.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

    GuardedBuffer() = default;
    GuardedBuffer(const GuardedBuffer &) = delete;
    GuardedBuffer &operator=(const GuardedBuffer &) = delete;
    ~GuardedBuffer() { unmap(); }
    void unmap() {
        if (map) ::munmap(map, data + 2 * page);
        map = p = nullptr;
        data = capacity = 0;
    }
    std::size_t slack() const { return data - capacity; }
    std::uint8_t *leading_guard() const { return map; }
    std::uint8_t *trailing_guard() const { return map + page + data; }

    /// Places a zero-filled buffer of n bytes with canary-filled slack; false when it cannot be mapped.
    bool place(std::uint64_t n) {
        page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        if (n > SIZE_MAX - 4 * page) return false;
        const std::size_t need = (static_cast<std::size_t>(n) + page - 1) / page * page;
        if (!map || data != need) {
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
GuardNote g_guard_notes[6];

void on_guard_fault(int, siginfo_t *info, void *) {
    const auto *a = static_cast<const std::uint8_t *>(info->si_addr);
    for (const auto &g : g_guard_notes)
        if (g.len && a >= g.begin && a < g.end) {
            [[maybe_unused]] auto w = ::write(2, g.text, g.len);
        }
    // SA_RESETHAND restored the default action: returning faults again and ends the worker.
}

void install_guard_handler() {
    static std::vector<char> alt(1 << 16);
    stack_t ss = {};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa = {};
    sa.sa_sigaction = on_guard_fault;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
    ::sigaction(SIGSEGV, &sa, nullptr);
    ::sigaction(SIGBUS, &sa, nullptr);
}

struct Loaded {
    ninfer_plugin table{};
    std::string name, version, breaks;
    std::vector<ninfer_capability> caps;
};

std::string bounded(const char *s) { return s ? std::string(s, strnlen(s, wire::kMaxText)) : std::string(); }

/// Loads and checks the plugin; "" on success, else the one-line reason.
std::string load_plugin(const std::string &path, Loaded &out) {
    const std::string who = "plugin " + path + ": ";
    void *lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::string err = bounded(::dlerror());
        if (err.rfind(path + ": ", 0) == 0) err.erase(0, path.size() + 2);
        return who + "cannot load: " + err;
    }
    auto entry = reinterpret_cast<ninfer_plugin_entry_fn>(::dlsym(lib, NINFER_PLUGIN_ENTRY_SYMBOL));
    if (!entry) return who + "no symbol " NINFER_PLUGIN_ENTRY_SYMBOL " (not a ninfer-conform plugin?)";
    const ninfer_plugin *t = entry(NINFER_ABI_VERSION);
    if (!t) return who + NINFER_PLUGIN_ENTRY_SYMBOL "(1) returned NULL (the plugin cannot serve ABI 1)";
    if (t->abi_version != NINFER_ABI_VERSION)
        return who + "ABI version " + std::to_string(t->abi_version) + ", expected " + std::to_string(NINFER_ABI_VERSION);
    if (t->struct_size < sizeof(ninfer_plugin))
        return who + "table struct_size " + std::to_string(t->struct_size) + ", expected at least " +
               std::to_string(sizeof(ninfer_plugin));
    out.table = *t;
    if (!out.table.name) return who + "table name is NULL";
    out.name = bounded(out.table.name);
    out.version = bounded(out.table.version);
    if (out.table.capability_count > wire::kMaxCapabilities)
        return who + "capability_count " + std::to_string(out.table.capability_count) + " exceeds " +
               std::to_string(wire::kMaxCapabilities);
    if (out.table.capability_count > 0 && !out.table.capabilities)
        return who + "capabilities is NULL with capability_count " + std::to_string(out.table.capability_count);
    out.caps.assign(out.table.capabilities, out.table.capabilities + out.table.capability_count);
    for (std::size_t i = 0; i < out.caps.size(); ++i)
        if (auto why = wire::check_capability(out.caps[i]); !why.empty())
            return who + "capability " + std::to_string(i) + ": " + why;
    // A bundled seeded-bug plugin names the rule it breaks (`plugins` lists it).
    if (auto *breaks = reinterpret_cast<const char *(*)()>(::dlsym(lib, "ninfer_mutant_breaks")))
        out.breaks = bounded(breaks());
    return "";
}

bool send_hello(int fd, const Loaded &p, const std::string &error) {
    wire::HelloHeader h;
    h.ok = error.empty() ? 1 : 0;
    h.abi_version = p.table.abi_version;
    h.capability_count = error.empty() ? static_cast<std::uint32_t>(p.caps.size()) : 0;
    h.name_len = static_cast<std::uint32_t>(p.name.size());
    h.version_len = static_cast<std::uint32_t>(p.version.size());
    std::string err = error.substr(0, wire::kMaxText);
    h.error_len = static_cast<std::uint32_t>(err.size());
    h.breaks_len = static_cast<std::uint32_t>(p.breaks.size());
    std::string frame(reinterpret_cast<const char *>(&h), sizeof h);
    frame += p.name;
    frame += p.version;
    if (h.ok) frame.append(reinterpret_cast<const char *>(p.caps.data()), p.caps.size() * sizeof(ninfer_capability));
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
    const std::uint8_t *out[3] = {nullptr, nullptr, nullptr};
};

bool send_reply(int fd, Outgoing &r) {
    r.h.message_len = static_cast<std::uint32_t>(r.message.size());
    if (!wire::write_full(fd, &r.h, sizeof r.h) || !wire::write_full(fd, r.message.data(), r.message.size()))
        return false;
    for (int i = 0; i < 3; ++i)
        if (r.h.out_bytes[i] > 0 && !wire::write_full(fd, r.out[i], static_cast<std::size_t>(r.h.out_bytes[i])))
            return false;
    return true;
}

Outgoing error_reply(std::string message, bool restart = false) {
    Outgoing r;
    r.h.outcome = static_cast<std::uint8_t>(Outcome::error);
    r.h.restart = restart ? 1 : 0;
    r.message = std::move(message);
    return r;
}

const char *kOutName[3] = {"out", "out2", "out3"};

/// Runs one call on the plugin and checks what it did to the output buffers.
std::string buffer_text(int i, std::uint64_t capacity) {
    return "output buffer " + std::to_string(i + 1) + " (" + kOutName[i] + ", capacity " + std::to_string(capacity) +
           " bytes)";
}

void note_guard(GuardNote &g, const std::uint8_t *begin, std::size_t bytes, const std::string &text) {
    const std::string line = "ninfer-conform worker: the plugin wrote " + text + "\n";
    g.begin = begin;
    g.end = begin + bytes;
    g.len = std::min(line.size(), sizeof g.text);
    std::memcpy(g.text, line.data(), g.len);
}

Outgoing run_call(const Loaded &p, const wire::CallHeader &h, Buffer &in, std::uint64_t in_bytes, Buffer &aux,
                  GuardedBuffer (&out)[3]) {
    for (int i = 0; i < 3; ++i) {
        if (!out[i].place(h.out_capacity[i]))
            return error_reply("worker cannot allocate " + std::to_string(h.out_capacity[i]) + " bytes for output buffer " +
                               std::to_string(i + 1) + " (memory limit?)");
        note_guard(g_guard_notes[2 * i], out[i].leading_guard(), out[i].page,
                   "before the start of " + buffer_text(i, h.out_capacity[i]));
        note_guard(g_guard_notes[2 * i + 1], out[i].trailing_guard(), out[i].page,
                   "past the end of " + buffer_text(i, h.out_capacity[i]));
    }
    ninfer_fn fn = (h.op >= 1 && h.op <= 16) ? p.table.ops[h.op - 1] : nullptr;
    if (!fn) {
        if (covers(p.caps, h.op, h.format, h.format_in, h.layout, h.method))
            return error_reply("plugin declares op " + std::string(wire::op_name(h.op)) + " for this call but its function is NULL");
        Outgoing r;
        r.h.outcome = static_cast<std::uint8_t>(Outcome::returned);
        r.h.status = NINFER_E_UNSUPPORTED;
        r.message = "plugin has no function for op " + std::to_string(h.op);
        return r;
    }
    ninfer_call c{};
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
    c.in = in.p;
    c.in_bytes = in_bytes;
    c.aux = aux.p;
    c.aux_bytes = h.aux_bytes;
    c.out = out[0].p;
    c.out_bytes = h.out_capacity[0];
    c.out2 = out[1].p;
    c.out2_bytes = h.out_capacity[1];
    c.out3 = out[2].p;
    c.out3_bytes = h.out_capacity[2];
    ninfer_result res{};
    std::int32_t status = fn(p.table.self, &c, &res);

    // 1. The slack before each buffer: a write there (a guard page caught anything past the
    //    end or further before) leaves the worker suspect, so it restarts.
    for (int i = 0; i < 3; ++i)
        if (!out[i].slack_intact())
            return error_reply("wrote before the start of " + buffer_text(i, h.out_capacity[i]), true);
    // 2. Reported sizes within the capacities.
    const std::uint64_t written[3] = {res.out_written, res.out2_written, res.out3_written};
    for (int i = 0; i < 3; ++i)
        if (written[i] > h.out_capacity[i])
            return error_reply("reported " + std::string(kOutName[i]) + "_written " + std::to_string(written[i]) +
                               " > capacity " + std::to_string(h.out_capacity[i]));
    // 3. A status the ABI defines.
    if (!wire::known_status(status))
        return error_reply("returned status " + std::to_string(status) + ", not a NINFER_* code");
    Outgoing r;
    r.h.outcome = static_cast<std::uint8_t>(Outcome::returned);
    r.h.status = status;
    r.h.detail = res.detail;
    r.message.assign(res.message, strnlen(res.message, sizeof res.message));
    for (int i = 0; i < 3; ++i) {
        r.h.out_bytes[i] = written[i];
        r.out[i] = out[i].p;
    }
    return r;
}

}  // namespace

int worker_main(const std::string &library_path) {
    struct rlimit core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
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

    Buffer in, aux;
    GuardedBuffer out[3];
    for (;;) {
        wire::CallHeader h;
        if (!wire::read_full(proto_in, &h, sizeof h)) return 0;
        if (h.magic != wire::kCallMagic) {
            std::fprintf(stderr, "ninfer-conform worker: bad call frame magic 0x%08x\n", h.magic);
            return 2;
        }
        bool in_ok = true, aux_ok = true;
        std::uint64_t in_bytes = h.in_bytes;
        if (h.iota_width != 0) {
            in_bytes = h.count * h.iota_width;
            in_ok = wire::check_iota(h.iota_start, static_cast<int>(h.iota_width), h.count).empty() &&
                    h.count <= ~0ull / h.iota_width && in.reserve(in_bytes);
            if (in_ok) wire::fill_iota(in.p, h.iota_start, static_cast<int>(h.iota_width), h.count);
        } else if (!read_into(proto_in, in, h.in_bytes, in_ok)) {
            return 0;
        }
        if (!read_into(proto_in, aux, h.aux_bytes, aux_ok)) return 0;
        Outgoing r;
        if (!in_ok || !aux_ok)
            r = error_reply("worker cannot hold the " + std::string(in_ok ? "aux" : "input") + " of this call (" +
                            std::to_string(in_ok ? h.aux_bytes : in_bytes) + " bytes; memory limit?)");
        else if (h.rank > NINFER_MAX_RANK)
            r = error_reply("rank " + std::to_string(h.rank) + " exceeds " + std::to_string(NINFER_MAX_RANK));
        else
            r = run_call(plugin, h, in, in_bytes, aux, out);
        if (!send_reply(proto_out, r)) return 0;
        if (r.h.restart) return 3;
    }
}

}  // namespace ninfer::harness
