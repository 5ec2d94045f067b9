// SPDX-License-Identifier: Apache-2.0
// Operator cases (op linear): the OUTPUT words against the per-element acceptance of the case's
// profile, and each failing element explained by the exact oracle (oracle/linear.hpp).
#include "compare_linear.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <span>

#include <fmt/format.h>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/text.hpp"
#include "ninfer/oracle/linear.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "compare_families.hpp"

namespace ninfer::harness {

namespace {

/// Rows shown as input words only up to this many bytes each (a report stays readable at K = 8192).
constexpr std::size_t kRowBytesShown = 64;

/// Bytes [at, at + n) of a plane in buffer order.
std::string row_hex(const std::vector<std::uint8_t> &b, std::size_t at, std::size_t n) {
    return abi::hex_bytes(std::span<const std::uint8_t>(b).subspan(at, n));
}

}  // namespace

bool compare_linear(const suites::Case &c, const Reply &r, Comparison &out, std::size_t max_first) {
    const auto *plane = suites::find_plane(c.expect.outputs, NINFER_PLANE_OUTPUT);
    const auto *f = plane && plane->format ? oracle::find_id(oracle::kWordFormats, plane->format) : nullptr;
    if (!f || c.shape.size() != 2 || c.shape[0] == 0) return false;
    const int w = f->bytes();
    const std::size_t ww = static_cast<std::size_t>(w);
    const auto &exp = plane->bytes;
    const auto &act = r.output(NINFER_PLANE_OUTPUT);
    const std::uint64_t n_words = exp.size() / ww, cols = c.shape[0], k = c.shape[1];
    out.elements = n_words;
    const auto add = [&](reports::Mismatch m, MismatchClass cls) {
        m.cls = mismatch_class_name(cls);
        ++out.mismatches;
        ++out.classes[m.cls];
        if (out.first.size() < max_first) out.first.push_back(std::move(m));
    };
    if (act.size() != exp.size())
        add({0, "output", {}, "", fmt::format("{} bytes", exp.size()), fmt::format("{} bytes", act.size()), "", "", "",
             fmt::format("output: {} words expected", n_words), ""},
            MismatchClass::size_mismatch);
    // Fast path: the expected words themselves are always accepted.
    if (act == exp) return true;

    const bool by_accept = c.expect.accept.size() == n_words * (2 * ww + 1) && !c.expect.accept.empty();
    const auto *act_plane = suites::find_plane(c.inputs, NINFER_PLANE_ACTIVATION);
    const std::uint32_t act_format = act_plane ? act_plane->format : 0;
    const auto *af = act_format ? oracle::find_id(oracle::kWordFormats, act_format) : nullptr;
    const auto &payload = c.input(NINFER_PLANE_PAYLOAD);
    const auto &activation = c.input(NINFER_PLANE_ACTIVATION);
    oracle::LinearCall call;
    call.format = c.format;
    call.layout = c.layout;
    call.profile = c.profile;
    call.n = cols;
    call.k = k;
    call.m = c.count;
    call.activation_format = act_format;
    call.output_format = plane->format;
    // Where weight row n lies in the payload, for the formats whose rows are contiguous: a direct
    // word format in contiguous_le_v1 (K words), a GGUF type in ggml_blocks_v1 (K / block_values blocks).
    std::uint64_t row_bytes = 0;
    if (const auto *wf = oracle::find_id(oracle::kWordFormats, c.format); wf && c.layout == NINFER_LAYOUT_contiguous_le_v1)
        row_bytes = k * static_cast<std::uint64_t>(wf->bytes());
    if (const auto *t = abi::find_id(abi::kGgufTypes, c.format);
        t && c.layout == NINFER_LAYOUT_ggml_blocks_v1 && t->block_values && k % t->block_values == 0)
        row_bytes = k / t->block_values * t->block_bytes;

    const std::uint64_t common = std::min<std::uint64_t>(n_words, act.size() / ww);
    for (std::uint64_t i = 0; i < common; ++i) {
        const std::uint64_t a = suites::get_word(act, i, w), e = suites::get_word(exp, i, w);
        const Acceptance acc = by_accept ? acceptance_at(c.expect.accept, i, w) : Acceptance{e, e, suites::kAcceptBits};
        if (accepts(*f, acc, a)) continue;
        const std::uint64_t row = i / cols, col = i % cols;
        reports::Mismatch m{.index = i,
                            .plane = "output",
                            .expected = acceptance_words(*f, acc),
                            .actual = oracle::word_hex(*f, a),
                            .location = fmt::format("row {}, column {}", row, col),
                            .where = {.row = row, .column = col, .element = i}};
        const MismatchClass cls = classify_accept_mismatch(*f, acc, a);
        if (out.first.size() < max_first) {
            m.expected_value = acceptance_values(*f, acc);
            m.actual_value = value_text(*f, a);
            const std::string n_text = fmt::format("weight {} row {}", abi::format_label(c.format), col);
            const std::string m_text = fmt::format("activation {} row {}", af ? std::string(af->name) : "?", row);
            if (row_bytes && row_bytes <= kRowBytesShown && (col + 1) * row_bytes <= payload.size())
                m.inputs.push_back(row_hex(payload, col * row_bytes, row_bytes));
            if (af && (row + 1) * k * static_cast<std::uint64_t>(af->bytes()) <= activation.size() &&
                k * static_cast<std::uint64_t>(af->bytes()) <= kRowBytesShown)
                m.inputs.push_back(row_hex(activation, row * k * af->bytes(), k * af->bytes()));
            m.input_value = fmt::format("{}, {}, K = {}", n_text, m_text, k);
            // The exact oracle (slow on long rows): only for the elements the report keeps.
            try {
                const auto x = oracle::linear_explain(call, payload, activation, row, col, a);
                m.exact_value = x.exact;
                m.criterion = x.bound.empty() ? x.criterion : fmt::format("{}; bound {}", x.criterion, x.bound);
                m.error_ulps = x.error_ulps;
                if (!std::isnan(x.bound_fraction)) m.bound_fraction = x.bound_fraction;
            } catch (const std::exception &err) {
                m.criterion = fmt::format("(no oracle explanation: {})", err.what());
            }
        }
        add(std::move(m), cls);
    }
    return true;
}

}  // namespace ninfer::harness
