// SPDX-License-Identifier: Apache-2.0
// The case model (see case.hpp).
#include "ninfer/suites/case.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/formats.hpp"

namespace ninfer::suites {

std::string hex(std::uint64_t word, int digits) {
    if (digits < 16) word &= (std::uint64_t{1} << (4 * digits)) - 1;
    return fmt::format("{:0{}x}", word, digits);
}

const char *level_name(Level l) {
    switch (l) {
    case Level::quick: return "quick";
    case Level::full: return "full";
    case Level::exhaustive: return "exhaustive";
    }
    return "?";
}

bool parse_level(const std::string &text, Level &out) {
    if (text == "quick") out = Level::quick;
    else if (text == "full") out = Level::full;
    else if (text == "exhaustive") out = Level::exhaustive;
    else return false;
    return true;
}

const char *nan_policy_name(NanPolicy p) {
    switch (p) {
    case NanPolicy::exact: return "exact";
    case NanPolicy::same_sign: return "same_sign";
    case NanPolicy::any: return "any";
    }
    return "?";
}

std::vector<Alternative> outcomes(const Expect &e) {
    std::vector<Alternative> all{{e.choice, e.status, e.detail, e.outputs, e.mask}};
    all.insert(all.end(), e.alternatives.begin(), e.alternatives.end());
    return all;
}

Case with_outcome(const Case &c, const Alternative &outcome) {
    Case one = c;
    one.expect.choice = outcome.name;
    one.expect.status = outcome.status;
    one.expect.detail = outcome.detail;
    one.expect.outputs = outcome.outputs;
    one.expect.mask = outcome.mask;
    one.expect.alternatives.clear();
    return one;
}

bool pin_choice(Case &c, const std::string &choice) {
    for (const auto &o : outcomes(c.expect))
        if (o.name == choice) {
            c = with_outcome(c, o);
            return true;
        }
    return false;
}

void add_alternative(Case &c, const std::string &reading, const std::string &choice, Alternative other) {
    c.expect.reading = reading;
    c.expect.choice = choice;
    c.expect.alternatives.push_back(std::move(other));
}

Planes masked_expectation(const Planes &expected, const Planes &mask, const Planes &actual) {
    Planes out = expected;
    for (auto &p : out) {
        const Plane *m = find_plane(mask, p.name), *a = find_plane(actual, p.name);
        if (!m || !a || m->bytes.size() != p.bytes.size() || a->bytes.size() != p.bytes.size()) continue;
        for (std::size_t i = 0; i < p.bytes.size(); ++i)
            p.bytes[i] = static_cast<std::uint8_t>((p.bytes[i] & m->bytes[i]) | (a->bytes[i] & ~m->bytes[i]));
    }
    return out;
}

Case base_case(const std::string &rule, const std::string &slug, Level level, const std::string &source) {
    Case c;
    c.rule = rule;
    c.id = rule + "/" + slug;
    c.level = level;
    c.source = source;
    return c;
}

const Plane *find_plane(const Planes &planes, std::uint32_t name) {
    for (const auto &p : planes)
        if (p.name == name) return &p;
    return nullptr;
}

std::vector<std::uint8_t> &plane_bytes(Planes &planes, std::uint32_t name) {
    for (auto &p : planes)
        if (p.name == name) return p.bytes;
    planes.push_back({name, 0, {}});
    return planes.back().bytes;
}

const std::vector<std::uint8_t> &plane_bytes(const Planes &planes, std::uint32_t name) {
    static const std::vector<std::uint8_t> none;
    const Plane *p = find_plane(planes, name);
    return p ? p->bytes : none;
}

OpPlanes op_planes(std::uint32_t op, std::uint32_t format, std::uint32_t layout) {
    const auto *f = abi::find_format(format);
    const bool words = f ? f->family == abi::Family::word : layout == NINFER_LAYOUT_contiguous_le_v1;
    // nvfp4's logical words add the weight divisors; a GGUF block payload decodes to values only
    // (its layout ops are not defined: a call gets the default planes and a refusal).
    const auto *scaled = abi::find_id(abi::kScaledFormats, format);
    const bool divisors = scaled && scaled->divisors;
    const bool gguf = f ? f->family == abi::Family::gguf : layout == NINFER_LAYOUT_ggml_blocks_v1;
    if (gguf && op == NINFER_OP_quant_decode) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_VALUES}};
    if (divisors) {
        switch (op) {
        case NINFER_OP_layout_encode: return {{NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}, {NINFER_PLANE_PAYLOAD}};
        case NINFER_OP_layout_decode: return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS}};
        case NINFER_OP_quant_decode:
            return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_DIVISORS, NINFER_PLANE_VALUES}};
        default: break;
        }
    }
    switch (op) {
    case NINFER_OP_decode: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VALUES}};
    case NINFER_OP_classify: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_CLASSES}};
    case NINFER_OP_validate: return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_VERDICTS}};
    // random: only in a case of an sr conversion (one uint32 per word; registry.h NINFER_STOCHASTIC)
    case NINFER_OP_convert: return {{NINFER_PLANE_WORDS, NINFER_PLANE_RANDOM}, {NINFER_PLANE_WORDS}};
    case NINFER_OP_layout_encode:
        if (words) return {{NINFER_PLANE_WORDS}, {NINFER_PLANE_PAYLOAD}};
        return {{NINFER_PLANE_CODES, NINFER_PLANE_SCALES}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_layout_decode:
        if (words) return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_WORDS}};
        return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES}};
    case NINFER_OP_quant_encode: return {{NINFER_PLANE_SOURCE, NINFER_PLANE_IMPORTANCE}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_quant_decode:
        return {{NINFER_PLANE_PAYLOAD}, {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES}};
    case NINFER_OP_payload_validate: return {{NINFER_PLANE_PAYLOAD}, {}};
    case NINFER_OP_rows_select: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ROWS}, {NINFER_PLANE_PAYLOAD}};
    case NINFER_OP_linear: return {{NINFER_PLANE_PAYLOAD, NINFER_PLANE_ACTIVATION}, {NINFER_PLANE_OUTPUT}};
    default: return {};
    }
}

bool is_word_op(std::uint32_t op) {
    return op == NINFER_OP_decode || op == NINFER_OP_classify || op == NINFER_OP_validate ||
           op == NINFER_OP_convert;
}

int in_word_bytes(const Case &c) {
    using namespace ninfer::oracle;
    switch (c.op) {
    case NINFER_OP_decode:
    case NINFER_OP_classify: return word_format(c.format).bytes();
    case NINFER_OP_validate: return word_format(role(c.method).format).bytes();
    case NINFER_OP_convert: return word_format(conversion(c.method).src).bytes();
    default: return 0;
    }
}

int out_word_bytes(const Case &c) {
    using namespace ninfer::oracle;
    switch (c.op) {
    case NINFER_OP_decode: return 8;
    case NINFER_OP_classify:
    case NINFER_OP_validate: return 1;
    case NINFER_OP_convert: return word_format(conversion(c.method).dst).bytes();
    default: return 0;
    }
}

void put_word(std::vector<std::uint8_t> &buf, std::uint64_t word, int bytes) {
    abi::append_le(buf, word, bytes);
}

std::uint64_t get_word(const std::vector<std::uint8_t> &buf, std::size_t index, int bytes) {
    const std::size_t at = index * static_cast<std::size_t>(bytes);
    if (at + static_cast<std::size_t>(bytes) > buf.size()) throw std::out_of_range("word index past buffer");
    return abi::load_le(buf.data() + at, bytes);
}

}  // namespace ninfer::suites
