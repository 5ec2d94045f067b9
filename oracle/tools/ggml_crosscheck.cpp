// SPDX-License-Identifier: Apache-2.0
// Cross-check of the GGUF oracle against ggml itself (scripts/ggml_crosscheck.sh builds it with
// ggml-quants.c from a ggml checkout): random blocks of every type, the oracle's binary32 words
// against dequantize_row_<type>, bit for bit (NaN against NaN). Not a test: CI has no ggml.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "ninfer/abi/gguf_table.hpp"
#include "ninfer/oracle/gguf.hpp"
extern "C" {
void ggml_abort(const char *, int, const char *, ...) { std::abort(); }
size_t ggml_row_size(int, long) { return 0; }
const char *ggml_type_name(int) { return ""; }
size_t ggml_type_size(int) { return 0; }
#define D(n) void dequantize_row_##n(const void *, float *, int64_t);
D(q4_0) D(q4_1) D(q5_0) D(q5_1) D(q8_0) D(q2_K) D(q3_K) D(q4_K) D(q5_K) D(q6_K) D(q8_K) D(iq2_xxs) D(iq2_xs) D(iq3_xxs)
D(iq1_s) D(iq4_nl) D(iq3_s) D(iq2_s) D(iq4_xs) D(iq1_m) D(tq1_0) D(tq2_0) D(mxfp4) D(nvfp4) D(q1_0) D(q2_0)
#define Q(n) void quantize_row_##n##_ref(const float *, void *, int64_t);
Q(q4_0) Q(q4_1) Q(q5_0) Q(q5_1) Q(q8_0) Q(q8_1) Q(q8_K) Q(q2_K) Q(q3_K) Q(q4_K) Q(q5_K) Q(q6_K)
Q(iq4_nl) Q(iq4_xs) Q(q1_0) Q(q2_0) Q(tq1_0) Q(tq2_0) Q(mxfp4) Q(nvfp4)
}
using Fn = void (*)(const void *, float *, int64_t);
using QFn = void (*)(const float *, void *, int64_t);
/// ggml's functions of each type, named by the registry's type name (ggml spells the K-quants
/// with a capital K; q8_1 has no dequantize_row_*; a type without a reference quantizer none).
namespace ggml_fns {
struct Pair {
    Fn dequantize;
    QFn quantize;
};
constexpr Pair gguf_q4_0{dequantize_row_q4_0, quantize_row_q4_0_ref}, gguf_q4_1{dequantize_row_q4_1, quantize_row_q4_1_ref};
constexpr Pair gguf_q5_0{dequantize_row_q5_0, quantize_row_q5_0_ref}, gguf_q5_1{dequantize_row_q5_1, quantize_row_q5_1_ref};
constexpr Pair gguf_q8_0{dequantize_row_q8_0, quantize_row_q8_0_ref}, gguf_q8_1{nullptr, quantize_row_q8_1_ref};
constexpr Pair gguf_q2_k{dequantize_row_q2_K, quantize_row_q2_K_ref}, gguf_q3_k{dequantize_row_q3_K, quantize_row_q3_K_ref};
constexpr Pair gguf_q4_k{dequantize_row_q4_K, quantize_row_q4_K_ref}, gguf_q5_k{dequantize_row_q5_K, quantize_row_q5_K_ref};
constexpr Pair gguf_q6_k{dequantize_row_q6_K, quantize_row_q6_K_ref}, gguf_q8_k{dequantize_row_q8_K, quantize_row_q8_K_ref};
constexpr Pair gguf_iq2_xxs{dequantize_row_iq2_xxs, nullptr}, gguf_iq2_xs{dequantize_row_iq2_xs, nullptr};
constexpr Pair gguf_iq3_xxs{dequantize_row_iq3_xxs, nullptr}, gguf_iq1_s{dequantize_row_iq1_s, nullptr};
constexpr Pair gguf_iq4_nl{dequantize_row_iq4_nl, quantize_row_iq4_nl_ref}, gguf_iq3_s{dequantize_row_iq3_s, nullptr};
constexpr Pair gguf_iq2_s{dequantize_row_iq2_s, nullptr}, gguf_iq4_xs{dequantize_row_iq4_xs, quantize_row_iq4_xs_ref};
constexpr Pair gguf_iq1_m{dequantize_row_iq1_m, nullptr}, gguf_tq1_0{dequantize_row_tq1_0, quantize_row_tq1_0_ref};
constexpr Pair gguf_tq2_0{dequantize_row_tq2_0, quantize_row_tq2_0_ref}, gguf_mxfp4{dequantize_row_mxfp4, quantize_row_mxfp4_ref};
constexpr Pair gguf_nvfp4{dequantize_row_nvfp4, quantize_row_nvfp4_ref}, gguf_q1_0{dequantize_row_q1_0, quantize_row_q1_0_ref};
constexpr Pair gguf_q2_0{dequantize_row_q2_0, quantize_row_q2_0_ref};
}  // namespace ggml_fns

/// ggml's functions by registry row.
constexpr ninfer::abi::GgufTable<ggml_fns::Pair> kGgmlFns = {
#define NINFER_X_(id, name, type, values, bytes, registered, refq) ggml_fns::name,
    NINFER_GGUF_TYPES(NINFER_X_)
#undef NINFER_X_
};

QFn quantizer_of(const ninfer::oracle::GgufType &t) { return ninfer::abi::gguf_entry(kGgmlFns, t.id).quantize; }
Fn fn_of(const ninfer::oracle::GgufType &t) { return ninfer::abi::gguf_entry(kGgmlFns, t.id).dequantize; }

/// Finite extremes (one kind of twelve in every fourth block): gaussian values times 1e-40 or
/// 1e-38 beside an exact zero (1/d overflows), +-FLT_MAX alternating, FLT_MAX, 1e-45 and zeros,
/// all positive, all negative, a maximum a few ulps below a power of two (mxfp4's
/// floor(log2f(amax))), huge of one sign, huge of both signs (x*x overflows), both sides of
/// iq4's GROUP_MAX_EPS (1e-15).
void extreme_block(std::vector<float> &x, int kind, std::mt19937_64 &rng) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (size_t i = 0; i < x.size(); ++i) {
        const float g = normal(rng);
        switch (kind) {
        case 0: x[i] = g * 1e-40f; break;
        case 1: x[i] = g * 1e-38f; break;
        case 2: x[i] = i % 2 ? FLT_MAX : -FLT_MAX; break;
        case 3: x[i] = FLT_MAX; break;
        case 4: x[i] = i % 3 ? 1e-45f : 0.0f; break;
        case 5: x[i] = std::fabs(g) + 0.25f; break;
        case 6: x[i] = -std::fabs(g) - 0.25f; break;
        case 8: x[i] = std::fmin(FLT_MAX, std::fabs(g) * 1e38f + 1e38f); break;
        case 9: x[i] = g * 1e18f; break;
        case 10: x[i] = g * 2e-16f; break;
        case 11: x[i] = g * 1e-14f; break;
        default: x[i] = g * 0.125f; break;
        }
    }
    if (kind < 2) x[x.size() / 2] = 0.0f;
    if (kind != 7) return;
    const int k = static_cast<int>(rng() % 250) - 124;
    for (auto &v : x) v = std::ldexp(v, k);
    x[rng() % x.size()] = std::ldexp(1.0f - static_cast<float>(1 + rng() % 8) * 0x1p-24f, k);
}

/// The types to check: all, or those named in $NINFER_CROSSCHECK_TYPES (comma-separated).
bool selected(const ninfer::oracle::GgufType &t) {
    const char *only = std::getenv("NINFER_CROSSCHECK_TYPES");
    if (!only || !*only) return true;
    const std::string list = "," + std::string(only) + ",";
    return list.find("," + std::string(t.name) + ",") != std::string::npos;
}

/// Quantizers: random finite inputs (normal values of a random scale; a share of blocks with
/// repeated values, zeros and exact halves; one block in four a finite extreme), ggml's bytes
/// against the oracle's.
int check_quantizers(int blocks, std::mt19937_64 &rng) {
    int bad_types = 0;
    for (const auto &t : ninfer::oracle::kGgufTypes) {
        QFn q = quantizer_of(t);
        if (!q || !selected(t)) continue;
        long mismatches = 0, refused = 0;
        for (int b = 0; b < blocks; ++b) {
            std::vector<float> x(t.block_values);
            std::normal_distribution<float> dist(0.0f, std::ldexp(1.0f, static_cast<int>(rng() % 40) - 20));
            for (auto &v : x) v = dist(rng);
            if (b % 4 == 1) for (auto &v : x) v = static_cast<float>(static_cast<int>(rng() % 17) - 8) * 0.5f;
            if (b % 16 == 2) for (auto &v : x) v = 0.0f;
            if (b % 4 == 3) extreme_block(x, (b / 4) % 12, rng);
            std::vector<uint8_t> ggml(t.block_bytes, 0);
            q(x.data(), ggml.data(), t.block_values);
            std::vector<uint32_t> w(x.size());
            std::memcpy(w.data(), x.data(), 4 * x.size());
            const auto o = ninfer::oracle::gguf_quantize_block_ref(t, w);
            if (o.status == NINFER_E_METHOD) { ++refused; continue; }  // iq4_nl below 1e-15: ggml's bytes undefined
            if (o.status != 0 || o.block != ggml) {
                if (mismatches < 3) {
                    std::printf("  %s quantizer block %d differs (status %d)", std::string(t.name).c_str(), b, o.status);
                    for (size_t i = 0; i < ggml.size() && i < o.block.size(); ++i)
                        if (ggml[i] != o.block[i]) { std::printf(" first at byte %zu: ggml %02x oracle %02x", i, ggml[i], o.block[i]); break; }
                    std::printf("\n");
                }
                ++mismatches;
            }
        }
        bad_types += mismatches != 0;
        std::printf("%-14s quantize_row_*_ref %6d blocks  %ld refused (NINFER_E_METHOD)  %ld mismatches\n", std::string(t.name).c_str(),
                    blocks, refused, mismatches);
    }
    return bad_types;
}
int main(int argc, char **argv) {
    const int blocks = argc > 1 ? std::atoi(argv[1]) : 200;
    std::mt19937_64 rng(20261130);
    int bad_types = 0;
    for (const auto &t : ninfer::oracle::kGgufTypes) {
        Fn fn = fn_of(t);
        if (!selected(t)) continue;
        if (!fn) { std::printf("%-14s no ggml dequantize_row_*: skipped\n", std::string(t.name).c_str()); continue; }
        long mismatches = 0, nans = 0, values = 0;
        for (int b = 0; b < blocks; ++b) {
            std::vector<uint8_t> blk(t.block_bytes);
            for (auto &x : blk) x = static_cast<uint8_t>(rng());
            std::vector<float> y(t.block_values);
            fn(blk.data(), y.data(), t.block_values);
            const auto o = ninfer::oracle::gguf_dequantize_block(t, blk);
            for (size_t i = 0; i < y.size(); ++i) {
                uint32_t w; std::memcpy(&w, &y[i], 4);
                const bool gn = (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu);
                const bool on = (o.ggml[i] & 0x7F800000u) == 0x7F800000u && (o.ggml[i] & 0x7FFFFFu);
                ++values;
                if (gn || on) { ++nans; if (gn != on) ++mismatches; continue; }
                if (w != o.ggml[i]) { if (mismatches < 3) std::printf("  %s block %d elem %zu: ggml %08x oracle %08x\n", std::string(t.name).c_str(), b, i, w, o.ggml[i]); ++mismatches; }
            }
        }
        bad_types += mismatches != 0;
        std::printf("%-14s %6d blocks %9ld values %7ld NaN  %ld mismatches\n", std::string(t.name).c_str(), blocks, values, nans, mismatches);
    }
    return bad_types + check_quantizers(blocks, rng);
}
