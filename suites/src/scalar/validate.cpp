// SPDX-License-Identifier: Apache-2.0
// Suite scalar.validate: the validity verdict of words under every role of the spec
// (tensor-formats.txt Sections 3.2, 3.3, 3.4, 6).
#include "builders.hpp"

namespace ninfer::suites::scalar {

namespace {

Case validate_case(const Role &r, const std::string &slug, Level level, const std::string &source, const Words &words) {
    const auto &f = word_format(r.format);
    Case c = base_case(rule::validity(r), slug, level, source);
    c.op = NINFER_OP_validate;
    c.format = f.id;
    c.method = r.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_VERDICTS), role_verdict(r, w), 1);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    return c;
}

std::vector<Case> validate_golden() {
    std::vector<Case> out;
    for (const auto &r : kRoles) {
        const auto &f = word_format(r.format);
        add_format_cases(out, f, rule::validity(r),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return validate_case(r, slug, l, src, w);
                         });
    }
    return out;
}

std::vector<Case> validate_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &r : kRoles) {
        const auto &f = word_format(r.format);
        if (f.bits > 16)
            add_random_cases(out, rule::validity(r), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return validate_case(r, s, l, src, w);
                             });
    }
    return out;
}

}  // namespace

Suite validate_suite() {
    return {"scalar.validate", "Validity verdict of words under every role of the spec (validate op)",
            cached_golden(validate_golden), random_of(validate_random)};
}

}  // namespace ninfer::suites::scalar
