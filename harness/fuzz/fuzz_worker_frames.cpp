// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness (scripts/fuzz.sh): the worker's call frames (harness/src/wire.hpp) through
// the reference plugin, in this process: the input is what the harness would write to the
// worker's stdin; the worker's replies go to /dev/null. The sizes a frame asks the worker to
// allocate come from the harness (the worker's parent), and the worker's RLIMIT_AS bounds
// them; ASan rules out that limit here, so inputs whose frames ask for more than 64 MiB are
// skipped (the first fuzz run found only that: a frame asking for 2^50 bytes).
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "../src/wire.hpp"
#include "ninfer/harness/subject.hpp"

namespace {

std::set<int> open_fds() {
    std::set<int> fds;
    if (DIR *d = ::opendir("/proc/self/fd")) {
        while (const dirent *e = ::readdir(d))
            if (e->d_name[0] != '.') fds.insert(std::atoi(e->d_name));
        ::closedir(d);
    }
    return fds;
}

/// Whether every frame of the input asks for at most `limit` bytes of any buffer.
bool frames_within(const std::uint8_t *data, std::size_t size, std::uint64_t limit) {
    namespace wire = ninfer::harness::wire;
    for (std::size_t at = 0; at + sizeof(wire::CallHeader) <= size;) {
        wire::CallHeader h;
        std::memcpy(&h, data + at, sizeof h);
        if (h.magic != wire::kCallMagic) return true;
        const std::uint64_t iota = h.iota_width == 0 ? 0 : h.count > limit ? limit + 1 : h.count * h.iota_width;
        if (iota > limit || h.input_count > wire::kMaxPlanes || h.output_count > wire::kMaxPlanes) return true;
        at += sizeof h;
        const std::size_t n = h.input_count + h.output_count;
        if (at + n * sizeof(wire::PlaneHeader) > size) return true;
        std::uint64_t payload = 0;
        for (std::size_t i = 0; i < n; ++i) {
            wire::PlaneHeader p;
            std::memcpy(&p, data + at + i * sizeof p, sizeof p);
            if (p.bytes > limit) return false;
            if (i < h.input_count) payload += p.bytes;
        }
        at += n * sizeof(wire::PlaneHeader) + payload;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (!frames_within(data, size, std::uint64_t{64} << 20)) return 0;
    const int frames = ::memfd_create("frames", MFD_CLOEXEC);
    if (frames < 0 || ::write(frames, data, size) != static_cast<ssize_t>(size)) std::abort();
    ::lseek(frames, 0, SEEK_SET);
    const int saved_in = ::fcntl(0, F_DUPFD_CLOEXEC, 3), saved_out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    ::dup2(frames, 0);
    ::dup2(null, 1);
    ::close(frames);
    ::close(null);
    const auto before = open_fds();
    (void)ninfer::harness::worker_main(NINFER_FUZZ_PLUGIN);
    for (const int fd : open_fds())  // the worker's protocol descriptors
        if (!before.count(fd)) ::close(fd);
    ::dup2(saved_in, 0);
    ::dup2(saved_out, 1);
    ::close(saved_in);
    ::close(saved_out);
    return 0;
}
