// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): the reference plugin's `linear` GEMV (M = 1) on a 4096x4096 weight of
// each family, through its ABI v2 table as the harness calls it, per profile, in weight values
// read per second; beside a bare binary32 GEMV loop over fp32 weights measured in the same run.
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gguf_blocks.hpp"
#include "grouped_codec.hpp"
#include "scaled_codec.hpp"
#include "ninfer/abi/registry.hpp"
#include "reference_plugin.hpp"

namespace {

namespace nr = ninfer::reference;
constexpr std::uint64_t kN = 4096, kK = 4096;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void line(const std::string &what, double s) {
    std::printf("%-58s %8.3f s  %.3e values/s\n", what.c_str(), s, static_cast<double>(kN * kK) / s);
}

/// One GEMV through the reference's table; the seconds it took, or -1 when refused.
double gemv(std::uint32_t format, std::uint32_t layout, std::uint32_t profile, const std::vector<std::uint8_t> &payload,
            const std::vector<float> &x) {
    ninfer_call_v2 c{};
    c.struct_size = sizeof c;
    c.op = NINFER_OP_linear;
    c.format = format;
    c.layout = layout;
    c.rank = 2;
    c.shape[0] = kN;
    c.shape[1] = kK;
    c.count = 1;
    c.profile = profile;
    const ninfer_input_plane in[2] = {{NINFER_PLANE_PAYLOAD, 0, payload.data(), payload.size()},
                                      {NINFER_PLANE_ACTIVATION, NINFER_FORMAT_fp32, x.data(), x.size() * 4}};
    std::vector<float> y(kN);
    ninfer_output_plane out{NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, y.data(), y.size() * 4, 0};
    c.inputs = in;
    c.input_count = 2;
    c.outputs = &out;
    c.output_count = 1;
    ninfer_result_v2 r{};
    r.struct_size = sizeof r;
    const auto &t = nr::reference_table_v2();
    const auto t0 = std::chrono::steady_clock::now();
    const std::int32_t s = t.ops[NINFER_OP_linear - 1](t.self, &c, &r);
    const double secs = seconds_since(t0);
    if (s != NINFER_OK) {
        std::printf("refused: %s\n", r.message);
        return -1;
    }
    return secs;
}

struct Weight {
    std::string name;
    std::uint32_t format, layout;
    std::vector<std::uint8_t> payload;
};

}  // namespace

int main() {
    std::mt19937_64 rng(20261130);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> w(kN * kK), x(kK);
    for (auto &v : w) v = normal(rng);
    for (auto &v : x) v = normal(rng);

    // The bare loop: binary32 products and sums over fp32 weights, no decoding, no checks.
    std::vector<float> y(kN);
    auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t n = 0; n < kN; ++n) {
        float s = 0.0f;
        for (std::uint64_t k = 0; k < kK; ++k) s += w[n * kK + k] * x[k];
        y[n] = s;
    }
    line("bare fp32 GEMV loop (binary32, no FMA)", seconds_since(t0));
    volatile float sink = y[kN / 2];
    (void)sink;

    std::vector<Weight> weights;
    {
        Weight f{"fp32", NINFER_FORMAT_fp32, NINFER_LAYOUT_contiguous_le_v1, std::vector<std::uint8_t>(kN * kK * 4)};
        std::memcpy(f.payload.data(), w.data(), f.payload.size());
        weights.push_back(std::move(f));
    }
    {
        const auto *g = nr::grouped_codec::find_grouped(NINFER_FORMAT_q4_g64_fp16);
        nr::grouped_codec::Matrix m;
        if (nr::grouped_codec::absmax(*g, kN, kK, w, m).status != NINFER_OK) return 1;
        weights.push_back({"q4_g64_fp16", g->id, g->layout, nr::grouped_codec::encode_payload(*g, m)});
    }
    {
        std::vector<std::uint32_t> words(w.size());
        for (std::size_t i = 0; i < w.size(); ++i) words[i] = std::bit_cast<std::uint32_t>(w[i]);
        nr::Nvfp4Planes p;
        Weight f{"nvfp4", NINFER_FORMAT_nvfp4, NINFER_LAYOUT_block_scale_k16_m128x4_v1, {}};
        if (nr::nvfp4_two_level_encode(kN, kK, words, p).status != NINFER_OK || nr::nvfp4_pack(kN, kK, p, f.payload).status != NINFER_OK)
            return 1;
        weights.push_back(std::move(f));
        nr::Fp8RowPlanes r;
        Weight e{"fp8_e4m3fn_row_bf16", NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_LAYOUT_row_scale_v1, {}};
        if (nr::fp8_row_maxabs_encode(e.format, NINFER_FORMAT_fp32, kN, kK, words, r).status != NINFER_OK ||
            nr::fp8_row_pack(e.format, kN, kK, r, e.payload).status != NINFER_OK)
            return 1;
        weights.push_back(std::move(e));
    }
    for (const std::uint32_t id : {NINFER_FORMAT_gguf_q4_0, NINFER_FORMAT_gguf_q8_0, NINFER_FORMAT_gguf_q4_k}) {
        const auto *t = ninfer::abi::find_id(ninfer::abi::kGgufTypes, id);
        Weight f{std::string(t->name), id, NINFER_LAYOUT_ggml_blocks_v1, std::vector<std::uint8_t>(kN * kK / t->block_values * t->block_bytes)};
        if (nr::gguf_blocks::quantize_row_ref(t->ggml_type, w, f.payload.data()).status != NINFER_OK) return 1;
        weights.push_back(std::move(f));
    }

    for (const auto &f : weights)
        for (const auto &p : ninfer::abi::kProfiles) {
            if (p.id == NINFER_PROFILE_gguf_q8_1_f32 && f.layout != NINFER_LAYOUT_ggml_blocks_v1) continue;
            const double s = gemv(f.format, f.layout, p.id, f.payload, x);
            if (s < 0) return 1;
            line("reference linear " + f.name + " " + std::string(p.name), s);
        }
    return 0;
}
