// SPDX-License-Identifier: Apache-2.0
// Interrupted commands (interrupt.hpp, docs/cli.md "Signals").
#include "ninfer/harness/interrupt.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <thread>

#include "ninfer/reports/report.hpp"
#include "wire.hpp"

namespace ninfer::harness {

namespace {

sigset_t interrupt_signals() {
    sigset_t set;
    ::sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&set, sig);
    return set;
}

[[noreturn]] void end_by(int sig) {
    // An output being renamed finishes first; every temporary is removed; none starts afterwards.
    reports::output_mutex().lock();
    reports::remove_temporaries();
    wire::kill_all_subjects();
    const char *name = ::sigabbrev_np(sig);
    std::fprintf(stderr, "ninfer-conform: interrupted by SIG%s: every subject killed; no report of this run written\n",
                 name ? name : "?");
    std::fflush(stderr);
    // Die of the signal itself (the convention shells and CI runners rely on).
    ::signal(sig, SIG_DFL);
    sigset_t one;
    ::sigemptyset(&one);
    ::sigaddset(&one, sig);
    ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);
}

}  // namespace

void handle_interrupts() {
    const sigset_t set = interrupt_signals();
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
        int sig = 0;
        while (::sigwait(&set, &sig) != 0) {}
        end_by(sig);
    }).detach();
}

}  // namespace ninfer::harness
