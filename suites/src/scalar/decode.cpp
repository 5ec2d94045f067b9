// SPDX-License-Identifier: Apache-2.0
// Suite scalar.decode: the exact value of every word of every scalar format, as a binary64
// word (tensor-formats.txt Sections 3.1, 3.3; number-formats-lesson.txt Examples 1-9, 13-15).
#include "builders.hpp"

#include "ninfer/suites/nan_principle.hpp"

namespace ninfer::suites::scalar {

namespace {

Case decode_case(const WordFormat &f, const std::string &slug, Level level, const std::string &source,
                 const Words &words) {
    Case c = base_case(rule::decode(f), slug, level, source);
    c.op = NINFER_OP_decode;
    c.format = f.id;
    c.count = words.size();
    for (auto w : words) {
        put_word(c.input(NINFER_PLANE_WORDS), w, f.bytes());
        put_word(c.expect.output(NINFER_PLANE_VALUES), decode_to_binary64(f, w), 8);
        c.suite_reading = c.suite_reading || format_word_is_reading(f, w);
    }
    c.nan = decode_nan_principle(f).policy;  // the NaN principle (nan_principle.hpp)
    return c;
}

std::vector<Case> decode_golden() {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        add_format_cases(out, f, rule::decode(f),
                         [&](const std::string &slug, Level l, const std::string &src, const Words &w) {
                             return decode_case(f, slug, l, src, w);
                         });
    return out;
}

std::vector<Case> decode_random(std::uint64_t seed, Level level) {
    std::vector<Case> out;
    for (const auto &f : kWordFormats)
        if (f.bits > 16)
            add_random_cases(out, rule::decode(f), seed, level,
                             [&](std::mt19937_64 &rng) { return uniform_word(rng, f); },
                             [&](const std::string &s, Level l, const std::string &src, const Words &w) {
                                 return decode_case(f, s, l, src, w);
                             });
    return out;
}

}  // namespace

Suite decode_suite() {
    return {"scalar.decode", "Exact value of every word of every scalar format, as a binary64 word (decode op)",
            cached_golden(decode_golden), random_of(decode_random)};
}

}  // namespace ninfer::suites::scalar
