// SPDX-License-Identifier: Apache-2.0
// Suite scalar.classify: the value class and sign of every word of every scalar format
// (tensor-formats.txt Sections 3.1, 3.3, 3.4; number-formats-lesson.txt Examples 3, 4, 9, 13-15).
#include "builders.hpp"

namespace ninfer::suites::scalar {

namespace {

Case classify_case(const WordFormat &f, const std::string &slug, Level level, const std::string &source,
                   const Words &words) {
    Case c = base_case(rule::classify(f), slug, level, source);
    c.op = NINFER_OP_classify;
    c.format = f.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_CLASSES), word_class_byte(f, w), 1);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    return c;
}

std::vector<Case> classify_golden() {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        add_format_cases(out, f, rule::classify(f),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return classify_case(f, slug, l, src, w);
                         });
    return out;
}

std::vector<Case> classify_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        if (f.bits > 16)
            add_random_cases(out, rule::classify(f), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return classify_case(f, s, l, src, w);
                             });
    return out;
}

}  // namespace

Suite classify_suite() {
    return {"scalar.classify", "Value class and sign of every word of every scalar format (classify op)",
            cached_golden(classify_golden), random_of(classify_random)};
}

}  // namespace ninfer::suites::scalar
