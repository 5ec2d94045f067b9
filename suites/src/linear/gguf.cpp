// SPDX-License-Identifier: Apache-2.0
// Suite linear.gguf: `linear` over every GGUF block type (ggml_blocks_v1; W_hat ggml's binary32
// dequantized words), every profile, gguf_q8_1_f32 included: a seeded product of each type under
// each profile, the extreme scale words ggml lets through (zero, subnormal, largest, negative,
// infinities and NaN: the non-finite rule), a q8_0 cancellation, and the q8_1 rounding tie.
#include "../gguf/builders.hpp"
#include "builders.hpp"

namespace ninfer::suites::linear {

namespace {

std::vector<std::uint32_t> formats() {
    std::vector<std::uint32_t> out;
    for (const auto &t : kGgufTypes) out.push_back(t.id);
    return out;
}

const GgufType &type_of(std::uint32_t id) {
    for (const auto &t : kGgufTypes)
        if (t.id == id) return t;
    throw std::invalid_argument("not a GGUF type");
}

/// Whether an expected fp32 OUTPUT holds an infinity or NaN word.
bool nonfinite_output(const Case &c) {
    const auto &o = c.expect.output(NINFER_PLANE_OUTPUT);
    for (std::size_t i = 0; i + 3 < o.size(); i += 4)
        if ((o[i + 3] & 0x7F) == 0x7F && (o[i + 2] & 0x80) != 0) return true;
    return false;
}

void extreme_cases(std::vector<Case> &out, std::uint32_t format, Rng &rng) {
    const auto &t = type_of(format);
    const auto fields = gguf::scale_fields(t);
    const auto &d = fields.front();
    for (const auto &[slug, word] : gguf::extreme_scales(d.kind)) {
        auto block = gguf::seeded_block(t, rng);
        gguf::set_scale(block, d, word);
        for (const auto p : {NINFER_PROFILE_f32_sequential, NINFER_PROFILE_f32_accumulate}) {
            const auto call = call_of(format, p, 1, t.block_values, 1, NINFER_FORMAT_bf16);
            const auto x = random_activation(NINFER_FORMAT_bf16, 1, t.block_values, rng);
            const auto name = "scale_" + std::string(d.name) + "_" + slug;
            auto c = linear_case(criterion_rule(p), name, Level::quick, "extreme scales", call, block, x);
            // An infinite or NaN scale (or an overflowing one) makes the result non-finite: that rule's case.
            if (nonfinite_output(c)) c = linear_case(rule::linear_nonfinite, name, Level::quick, "extreme scales", call, block, x);
            out.push_back(std::move(c));
        }
    }
}

std::vector<Case> golden() {
    std::vector<Case> out;
    Rng rng(kGoldenSeed ^ 0x99);
    for (const auto f : formats()) common_cases(out, f, rng);
    for (const auto f : {NINFER_FORMAT_gguf_q4_0, NINFER_FORMAT_gguf_q8_0, NINFER_FORMAT_gguf_q4_k}) extreme_cases(out, f, rng);
    // q8_0 cancellation: codes paired, activation x, -x (exact sum 0; q8_1 keeps the pairs exact too).
    for (const auto p : profiles_for(NINFER_FORMAT_gguf_q8_0)) {
        WeightStyle pair;
        pair.pair = true;
        out.push_back(linear_case(criterion_rule(p), "cancellation", Level::quick, "adversarial",
                                  call_of(NINFER_FORMAT_gguf_q8_0, p, 2, 64, 1), weight_payload(NINFER_FORMAT_gguf_q8_0, 2, 64, rng, pair),
                                  paired_activation(NINFER_FORMAT_fp32, 1, 64, rng)));
    }
    // The q8_1 tie: block [127, 0.5, 0, ...] has d = 1 and 0.5 * 1 = 0.5, which ggml's roundf takes to
    // 1 (nearest-even would give 0); weight q8_0 d = 1, q = [0, 1, 0, ...]: y_q = 1 (the exact product is 0.5).
    {
        Bytes w(34, 0);
        w[1] = 0x3C;
        w[3] = 1;
        std::vector<std::uint64_t> x(32, 0);
        x[0] = 0x42FE0000;
        x[1] = 0x3F000000;
        out.push_back(linear_case(criterion_rule(NINFER_PROFILE_gguf_q8_1_f32), "q8_1_tie", Level::quick, "ties",
                                  call_of(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1), w, le_words(x, 4)));
        // A negative tie: -0.5 goes to -1.
        x[1] = 0xBF000000;
        out.push_back(linear_case(criterion_rule(NINFER_PROFILE_gguf_q8_1_f32), "q8_1_tie_negative", Level::quick, "ties",
                                  call_of(NINFER_FORMAT_gguf_q8_0, NINFER_PROFILE_gguf_q8_1_f32, 1, 32, 1), w, le_words(x, 4)));
    }
    // Batches (M > 1) from their own generator: the cases above keep their words.
    Rng batch(kGoldenSeed ^ 0x99b);
    batch_cases(out, formats(), batch);
    return out;
}

std::vector<Case> random(std::uint64_t seed, Level level) {
    return random_cases(formats(), {NINFER_FORMAT_gguf_q4_0, NINFER_FORMAT_gguf_q4_k}, seed, level, "gguf");
}

}  // namespace

Suite gguf_suite() {
    return {"linear.gguf",
            "linear over every GGUF block type (ggml_blocks_v1, W_hat ggml's dequantized words), every profile with "
            "gguf_q8_1_f32: seeded products, extreme and non-finite scales, cancellation, the q8_1 rounding tie",
            cached(golden), seeded(random)};
}

}  // namespace ninfer::suites::linear
