// SPDX-License-Identifier: Apache-2.0
// The life cycle every child-process subject shares (plugin worker, exec command): start at
// construction with a one-line open error instead of an exception, then one call at a time,
// with anything the harness itself throws turned into an error reply.
#pragma once

#include <string>

#include "ninfer/harness/subject.hpp"
#include "wire.hpp"

namespace ninfer::harness {

class ChildSubject : public Subject {
public:
    const SubjectInfo &info() const override { return info_; }
    const std::string &open_error() const override { return open_error_; }
    /// call_once, timed; an exception of the harness kills the child and becomes an error reply.
    Reply call(const Call &c) final;

protected:
    explicit ChildSubject(SubjectOptions opts);
    /// Start the child; derived constructors call it last, once their members are set.
    void open();
    /// Spawn the child and read its hello into info_; false with a one-line reason.
    virtual bool start(std::string &why) = 0;
    /// One call on a started (or restartable) child.
    virtual Reply call_once(const Call &c) = 0;
    /// How the child is contained (the options' mode and process bound).
    wire::Containment containment() const { return {contain::mode_of(opts_.containment), opts_.max_processes}; }
    /// "plugin PATH: " or "exec `CMD`: ", the prefix of every message.
    virtual std::string who() const = 0;

    SubjectOptions opts_;
    SubjectInfo info_;
    std::string open_error_;
    wire::Child child_;
};

}  // namespace ninfer::harness
