// SPDX-License-Identifier: Apache-2.0
// Issue 24, item 1: `ninfer-conform fingerprint` (docs/cli.md "fingerprint"): which policy of the
// lattice a subject's conversions or decodes implement, one block per target. Exit 0 when it
// ran (the verdict is in the text), 2 on bad arguments, 3 when the subject failed.
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "cmd_common.hpp"
#include "ninfer/harness/fingerprint.hpp"
#include "ninfer/harness/recipe_fingerprint.hpp"
#include "ninfer/harness/runner.hpp"  // suite_version
#include "ninfer/harness/sr_fingerprint.hpp"
#include "ninfer/harness/sr_run.hpp"  // declares_sr
#include "ninfer/oracle/formats.hpp"

namespace ninfer::harness::cli {

namespace {

constexpr int kExitSubjectFailed = 3;

struct FingerprintArgs {
    SubjectArgs subject;
    std::string conversion, format, op = "convert", domain = "auto", json, method;
    bool all = false;
    unsigned jobs = 0;
    ProgressMode progress = ProgressMode::automatic;  ///< --progress, --no-progress
};

/// The targets the arguments name: a conversion, the conversions from or to a format (convert)
/// or its decode, or every declared one (--all).
std::vector<fingerprint::Target> targets_of(const FingerprintArgs &a, Subject &s) {
    std::vector<fingerprint::Target> out;
    const bool decode = a.op == "decode";
    if (!a.conversion.empty()) {
        if (decode) throw UsageError("--conversion names a convert; give --format F with --op decode");
        const auto &c = require_name(oracle::kConversions, a.conversion, "conversion");
        out.push_back({NINFER_OP_convert, &c, nullptr});
        return out;
    }
    const oracle::WordFormat *f = a.format.empty() ? nullptr : &require_name(oracle::kWordFormats, a.format, "word format");
    const auto &caps = s.info().capabilities;
    if (decode) {
        for (const auto &w : oracle::kWordFormats)
            if ((f ? &w == f : covers(caps, NINFER_OP_decode, w.id, 0, NINFER_LAYOUT_NONE, 0)) && w.special != oracle::Special::INT)
                out.push_back({NINFER_OP_decode, nullptr, &w});
        return out;
    }
    for (const auto &c : oracle::kConversions) {
        // an sr conversion: its convention (declared for the random plane or self-drawn)
        const bool declared = fingerprint::fingerprintable(c) ? covers(caps, NINFER_OP_convert, c.dst, c.src, NINFER_LAYOUT_NONE, c.id)
                                                               : declares_sr(s.info(), c);
        if (declared && (!f || c.src == f->id || c.dst == f->id))
            out.push_back({NINFER_OP_convert, &c, nullptr});
    }
    return out;
}

fingerprint::Domain domain_of(const std::string &name, const oracle::WordFormat &src) {
    using Kind = fingerprint::Domain::Kind;
    if (name == "all" || src.bits <= 16) return fingerprint::Domain{Kind::all};  // a small source: every word
    if (name == "stratified") return fingerprint::Domain{Kind::stratified};
    if (name == "sparse") return fingerprint::Domain{Kind::sparse};
    return fingerprint::auto_domain(src);
}

/// One block: the sentence, the equivalent policies and the residue lines.
void print_block(const reports::Fingerprint &f) {
    std::printf("%s\n", f.sentence.c_str());  // "convert C (D domain): ..."
    for (const auto &e : f.equivalent) std::printf("  equivalent: %s\n", e.c_str());
    for (const auto &r : f.residue)
        std::printf("  residue %s: %s of %s inputs, first 0x%s -> 0x%s, policy 0x%s\n", r.cls.c_str(),
                    fingerprint::grouped(r.mismatches).c_str(), fingerprint::grouped(r.inputs).c_str(), r.input.c_str(),
                    r.actual.c_str(), r.expected.c_str());
}

/// The report of `fingerprint --json` before its fingerprints (reports/README.md, "fingerprint
/// reports"): kind and level "fingerprint", this build's version, the host, the start.
reports::Report fingerprint_report_header() {
    reports::Report rep;
    rep.kind = "fingerprint";
    rep.level = "fingerprint";
    rep.tool_version = suite_version();
    rep.host = reports::host_description();
    rep.started_at = reports::utc_now();
    return rep;
}

/// The error entry of a target the subject failed on: one case of status error, its message
/// what the subject did, so that the report's "passed" is false.
reports::CaseResult failure_case(const std::string &rule, const std::string &message) {
    reports::CaseResult c;
    c.id = rule + "/fingerprint";
    c.rule = rule;
    c.sentence = "The subject answers every batch call of the fingerprint.";
    c.suite = "fingerprint";
    c.source = "fingerprint";
    c.status = reports::Status::error;
    c.message = message;
    return c;
}

/// End, total and write the report where --json asks (atomically), and say where.
void finish_and_write(reports::Report &rep, const std::string &json, std::chrono::steady_clock::time_point t0) {
    rep.finished_at = reports::utc_now();
    rep.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    reports::finalize(rep);
    write_reports(rep, json, "");
    if (!json.empty()) std::printf("json: %s\n", json.c_str());
}

/// The fingerprint of one target: the lattice's, or an sr conversion's convention (issue 34).
reports::Fingerprint fingerprint_target(Subject &s, const fingerprint::Target &t, const FingerprintArgs &a, unsigned jobs) {
    if (t.op == NINFER_OP_decode || fingerprint::fingerprintable(*t.conversion))
        return fingerprint::fingerprint_subject(s, t, domain_of(a.domain, *t.shape().src), jobs, progress_shown(a.progress));
    if (!declares_sr(s.info(), *t.conversion))
        throw fingerprint::SubjectFailed("the subject does not declare convert of " + t.name());
    std::string error;
    auto f = sr_fingerprint(s, *t.conversion, error);
    if (!error.empty()) throw fingerprint::SubjectFailed(error);
    return f;
}

/// The (format, method) pairs of `--op quant_encode` that have a recipe lattice: --format F
/// (default: every format with one) and --method M (default: every method of F with one).
std::vector<std::pair<std::uint32_t, std::uint32_t>> recipe_targets(const FingerprintArgs &a) {
    if (!a.conversion.empty()) throw UsageError("--conversion names a convert; give --format F with --op quant_encode");
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto &f : abi::kAllFormats)
        for (const auto &e : abi::kEncoders)
            if ((a.format.empty() || a.format == f.name) && (a.method.empty() || a.method == e.name) &&
                recipes::has_lattice(f.id, e.id))
                out.emplace_back(f.id, e.id);
    if (out.empty())
        throw UsageError(fmt::format("fingerprint --op quant_encode: no recipe lattice for {}{} (suites/RECIPES.md: gguf_mxfp4 "
                                     "with mxfp4_ocp or ggml_quantize_ref, q4/q5/q6/q8 with grouped_absmax, nvfp4 with nvfp4_two_level)",
                                     a.format.empty() ? "any format" : "format " + a.format,
                                     a.method.empty() ? "" : " and method " + a.method));
    return out;
}

/// `fingerprint --op quant_encode`: the recipe of each (format, method) the subject answers.
bool fingerprint_recipes(const FingerprintArgs &a, Subject &s, reports::Report &rep) {
    bool failed = false;
    for (const auto &[format, method] : recipe_targets(a)) {
        const std::string name = fmt::format("{}.{}", abi::find_format(format)->name, abi::find_id(abi::kEncoders, method)->name);
        std::string error;
        auto f = recipes::recipe_fingerprint(s, format, method, error);
        if (!error.empty()) {
            const std::string said = reports::untrusted_text(error);
            std::printf("quant_encode %s: error: %s\n", name.c_str(), said.c_str());
            rep.cases.push_back(failure_case("quant_encode." + name, said));
            failed = true;
            continue;
        }
        rep.fingerprints.push_back(std::move(f));
        print_block(rep.fingerprints.back());
    }
    return failed;
}

}  // namespace

void add_fingerprint(CLI::App &app) {
    auto *cmd = app.add_subcommand("fingerprint", "Name the conversion policy a subject implements (rounding, overflow, "
                                                  "subnormals, NaN), with the residue by input class");
    auto a = std::make_shared<FingerprintArgs>();
    a->subject.timeout_ms = 60000;  // a batch of 2^18 words
    add_subject_options(*cmd, a->subject, "batch call");
    auto *conversion = cmd->add_option("--conversion", a->conversion, "conversion name (see `list`)");
    auto *format = cmd->add_option("--format", a->format,
                                   "word format: the conversions from or to it the subject declares (convert), or its "
                                   "decode (--op decode)");
    auto *all = cmd->add_flag("--all", a->all, "every conversion (or decode) the subject declares");
    conversion->excludes(format)->excludes(all);
    format->excludes(all);
    cmd->add_option("--op", a->op, "convert (default), decode, or quant_encode (a block quantizer's recipe)")
        ->check(CLI::IsMember({"convert", "decode", "quant_encode"}));
    cmd->add_option("--method", a->method, "with --op quant_encode: the encoder method (default: every one with a lattice)")
        ->check(CLI::IsMember({"mxfp4_ocp", "ggml_quantize_ref", "grouped_absmax"}));
    cmd->add_option("--domain", a->domain,
                    "auto (default: every word of an 8- or 16-bit source, the stratified sample of fp32), all "
                    "(2^32 for fp32), stratified, sparse")
        ->check(CLI::IsMember({"auto", "all", "stratified", "sparse"}));
    cmd->add_option("--jobs", a->jobs, "counting threads, 1..256 (default: the number of cores)")
        ->check(digits_in(1, kMaxJobs));
    cmd->add_option("--json", a->json, "write the fingerprints in a JSON report here (atomically)")->check(path_given());
    add_progress_options(*cmd, a->progress);
    cmd->callback([a] {
        require_one_subject(a->subject, "fingerprint");
        const bool recipe = a->op == "quant_encode";
        if (a->conversion.empty() && a->format.empty() && !a->all)
            throw UsageError("fingerprint: give one of --conversion NAME, --format F or --all");
        if (!a->method.empty() && !recipe) throw UsageError("fingerprint: --method goes with --op quant_encode");
        if (!a->conversion.empty()) require_name(oracle::kConversions, a->conversion, "conversion");
        if (!a->format.empty() && !recipe) require_name(oracle::kWordFormats, a->format, "word format");
        if (recipe) recipe_targets(*a);  // bad arguments before the subject starts
        CommandFiles files;
        files.inputs = {{"--plugin", a->subject.plugin}};
        files.outputs = {{"--json", a->json}};
        check_files(files);
        const unsigned jobs = a->jobs ? a->jobs : std::max(1u, std::thread::hardware_concurrency());
        const auto t0 = std::chrono::steady_clock::now();
        reports::Report rep = fingerprint_report_header();
        auto subject = open_subject(a->subject, rep.subject);
        rep.open_error = subject->open_error();
        bool subject_failed = !rep.open_error.empty();
        if (subject_failed)
            std::fprintf(stderr, "ninfer-conform: fingerprint: the subject did not start: %s\n",
                         reports::untrusted_text(rep.open_error).c_str());
        if (recipe) {
            if (!subject_failed) subject_failed = fingerprint_recipes(*a, *subject, rep);
            finish_and_write(rep, a->json, t0);
            if (subject_failed) throw CLI::RuntimeError(kExitSubjectFailed);
            return;
        }
        const auto targets = subject_failed ? std::vector<fingerprint::Target>{} : targets_of(*a, *subject);
        if (!subject_failed && targets.empty()) {
            std::fprintf(stderr, "ninfer-conform: fingerprint: the subject declares no %s of what was asked\n", a->op.c_str());
            rep.cases.push_back(failure_case(a->op + ".*", "the subject declares no " + a->op + " of what was asked"));
            subject_failed = true;
        }
        for (const auto &t : targets) {
            try {
                rep.fingerprints.push_back(fingerprint_target(*subject, t, *a, jobs));
                print_block(rep.fingerprints.back());
            } catch (const fingerprint::SubjectFailed &e) {
                const std::string said = reports::untrusted_text(e.what());
                std::printf("%s %s: error: %s\n", a->op.c_str(), t.name().c_str(), said.c_str());
                rep.cases.push_back(failure_case(a->op + "." + t.name(), said));
                subject_failed = true;
            }
        }
        finish_and_write(rep, a->json, t0);
        if (subject_failed) throw CLI::RuntimeError(kExitSubjectFailed);
    });
}

}  // namespace ninfer::harness::cli
