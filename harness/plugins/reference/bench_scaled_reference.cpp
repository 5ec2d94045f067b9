// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): nvfp4 decode and fp8_row_maxabs (tensor-formats.txt 3.3, 3.4) on a
// 4096x4096 matrix: the reference plugin as the harness calls it (quant_decode / quant_encode
// through its ABI v2 table, planes in and out), its own codec alone, a bare loop over the same
// bytes, and the exact oracle on a slice of rows (it is the proof, not the fast path). Values per
// second.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "scaled_codec.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "reference_plugin.hpp"
#include "tests/v2_call.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void line(const char *what, double values, double s) { std::printf("%-66s %9.3f s  %.3e values/s\n", what, s, values / s); }

ninfer_call_v2 head(std::uint32_t op, std::uint32_t format, std::uint32_t layout, std::uint64_t n, std::uint64_t k,
                    std::uint32_t method = 0, std::uint32_t format_in = 0) {
    ninfer_call_v2 c = ninfer::testing::v2_head(op, format, format_in, layout, method);
    c.rank = 2;
    c.shape[0] = n;
    c.shape[1] = k;
    c.count = n * k;
    return c;
}

}  // namespace

int main() {
    namespace nr = ninfer::reference;
    namespace no = ninfer::oracle;
    constexpr std::uint64_t n = 4096, k = 4096, oracle_rows = 16;
    std::mt19937_64 rng(20261130);
    nr::Nvfp4Planes planes;
    for (std::uint64_t i = 0; i < n * k; ++i) planes.codes.push_back(static_cast<std::uint8_t>(rng() & 0xF));
    for (std::uint64_t i = 0; i < n * k / 16; ++i) planes.scales.push_back(static_cast<std::uint8_t>(rng() % 0x7F));
    planes.divisors = {0x3F000000u};
    std::vector<std::uint8_t> payload;
    if (nr::nvfp4_pack(n, k, planes, payload).status != NINFER_OK) return 1;
    const double values = static_cast<double>(n * k);

    // Bare loop: nibble -> E2M1 table * scale / divisor, scales read in natural order (no swizzle, no checks).
    static const float e2m1[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
    std::vector<float> bare(n * k);
    auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < n * k; ++i)
        bare[i] = e2m1[payload[i / 2] >> (i % 2 ? 4 : 0) & 0xF] * static_cast<float>(payload[n * k / 2 + i / 16] & 0x7F) / 0.5f;
    line("nvfp4 decode, bare loop (no swizzle, no validation)", values, seconds_since(t0));
    volatile float sink = bare[12345];
    (void)sink;

    // The harness's path: quant_decode through the v2 table (validate, codes, scales, divisors, values).
    const auto &table = nr::reference_table_v2();
    t0 = std::chrono::steady_clock::now();
    const auto via_table = ninfer::testing::call_v2(
        table, head(NINFER_OP_quant_decode, NINFER_FORMAT_nvfp4, NINFER_LAYOUT_block_scale_k16_m128x4_v1, n, k), {{NINFER_PLANE_PAYLOAD, payload}},
        {{NINFER_PLANE_CODES, n * k}, {NINFER_PLANE_SCALES, n * k / 16}, {NINFER_PLANE_DIVISORS, 4}, {NINFER_PLANE_VALUES, 4 * n * k}});
    line("nvfp4 decode, reference plugin through its v2 table (quant_decode)", values, seconds_since(t0));
    if (via_table.status != NINFER_OK) return 1;

    t0 = std::chrono::steady_clock::now();
    nr::Nvfp4Planes back;
    if (nr::nvfp4_unpack(n, k, 1, payload, back).status != NINFER_OK) return 1;
    const auto v = nr::nvfp4_values(n, k, back);
    line("nvfp4 decode, reference's own codec (validate + binary32 values)", values, seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    std::uint64_t check = 0;
    for (std::uint64_t r = 0; r < oracle_rows; ++r)
        for (std::uint64_t c = 0; c < k; ++c)
            check += no::nvfp4_weight_binary32(back.codes[r * k + c], back.scales[r * (k / 16) + c / 16], 0x3F000000u) == v[r * k + c];
    line("nvfp4 decode, oracle (exact; 16 rows)", static_cast<double>(oracle_rows * k), seconds_since(t0));
    if (check != oracle_rows * k) return 1;
    if (std::memcmp(via_table.out(NINFER_PLANE_VALUES).data(), v.data(), 4 * n * k) != 0) return 1;

    std::normal_distribution<float> dist(0.0f, 0.02f);
    std::vector<std::uint32_t> src(n * k);
    for (auto &w : src) {
        const float f = dist(rng);
        std::memcpy(&w, &f, 4);
    }
    for (const auto id : {NINFER_FORMAT_fp8_e4m3fn_row_bf16, NINFER_FORMAT_fp8_e4m3fn_row_fp16}) {
        const bool is_bf16 = id == NINFER_FORMAT_fp8_e4m3fn_row_bf16;
        // Bare loop: per row amax, one division, one multiply per value, a cast (no BF16 step, no E4M3 rounding rules).
        std::vector<std::uint8_t> codes(n * k);
        t0 = std::chrono::steady_clock::now();
        for (std::uint64_t r = 0; r < n; ++r) {
            float amax = 0;
            const float *x = reinterpret_cast<const float *>(src.data() + r * k);
            for (std::uint64_t c = 0; c < k; ++c) amax = std::max(amax, std::abs(x[c]));
            const float inv = 448.0f / amax;
            for (std::uint64_t c = 0; c < k; ++c) codes[r * k + c] = static_cast<std::uint8_t>(static_cast<int>(x[c] * inv));
        }
        line(is_bf16 ? "fp8_row_maxabs bf16 rows, bare loop" : "fp8_row_maxabs fp16 rows, bare loop", values, seconds_since(t0));
        std::vector<std::uint8_t> source(4 * n * k);
        std::memcpy(source.data(), src.data(), source.size());
        const auto layout = is_bf16 ? NINFER_LAYOUT_row_scale_v1 : NINFER_LAYOUT_row_interleaved_v1;
        t0 = std::chrono::steady_clock::now();
        const auto encoded = ninfer::testing::call_v2(
            table, head(NINFER_OP_quant_encode, id, layout, n, k, NINFER_ENCODER_fp8_row_maxabs, NINFER_FORMAT_fp32),
            {{NINFER_PLANE_SOURCE, source}}, {{NINFER_PLANE_PAYLOAD, n * k + 2 * n + 256}});
        line(is_bf16 ? "fp8_row_maxabs bf16 rows, reference plugin through its v2 table" : "fp8_row_maxabs fp16 rows, reference plugin through its v2 table",
             values, seconds_since(t0));
        if (encoded.status != NINFER_OK) return 1;
        nr::Fp8RowPlanes out;
        t0 = std::chrono::steady_clock::now();
        if (nr::fp8_row_maxabs_encode(id, NINFER_FORMAT_fp32, n, k, src, out).status != NINFER_OK) return 1;
        line(is_bf16 ? "fp8_row_maxabs bf16 rows, reference's own encoder" : "fp8_row_maxabs fp16 rows, reference's own encoder", values,
             seconds_since(t0));
        std::vector<std::uint8_t> packed;
        if (nr::fp8_row_pack(id, n, k, out, packed).status != NINFER_OK || packed != encoded.out(NINFER_PLANE_PAYLOAD)) return 1;
        const auto f = *no::fp8_row_format(id);
        t0 = std::chrono::steady_clock::now();
        for (std::uint64_t r = 0; r < oracle_rows; ++r) {
            std::vector<std::uint64_t> row(src.begin() + static_cast<std::ptrdiff_t>(r * k), src.begin() + static_cast<std::ptrdiff_t>((r + 1) * k));
            const auto e = no::fp8_row_maxabs(f, NINFER_FORMAT_fp32, row);
            if (e.scale != out.scales[r] || !std::equal(e.codes.begin(), e.codes.end(), out.codes.begin() + static_cast<std::ptrdiff_t>(r * k)))
                return 1;
        }
        line(is_bf16 ? "fp8_row_maxabs bf16 rows, oracle (exact; 16 rows)" : "fp8_row_maxabs fp16 rows, oracle (exact; 16 rows)",
             static_cast<double>(oracle_rows * k), seconds_since(t0));
    }
    return 0;
}
