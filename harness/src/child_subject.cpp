// SPDX-License-Identifier: Apache-2.0
// The shared life cycle of child-process subjects (child_subject.hpp).
#include "child_subject.hpp"

#include <signal.h>

#include <exception>

#include "ninfer/reports/report.hpp"

namespace ninfer::harness {

ChildSubject::ChildSubject(SubjectOptions opts) : opts_(std::move(opts)) {
    ::signal(SIGPIPE, SIG_IGN);  // a dead child must show up as a short write, not kill the harness
}

void ChildSubject::open() {
    std::string why;
    bool started = false;
    try {
        started = start(why);
    } catch (const std::exception &e) {
        child_.kill();
        why = who() + e.what();
    }
    if (!started) {
        open_error_ = reports::untrusted_text(why);
        info_ = SubjectInfo{};
    }
}

Reply ChildSubject::call(const Call &c) {
    const auto t0 = wire::Clock::now();
    child_.begin_call();
    Reply r;
    try {
        r = call_once(c);
    } catch (const std::exception &e) {
        child_.kill();
        r = Reply{};
        r.outcome = Outcome::error;
        r.message = std::string("harness: ") + e.what();
    }
    // Everything a subject says is untrusted text, in whatever message carries it.
    r.message = reports::untrusted_text(r.message);
    r.seconds = std::chrono::duration<double>(wire::Clock::now() - t0).count();
    return r;
}

}  // namespace ninfer::harness
