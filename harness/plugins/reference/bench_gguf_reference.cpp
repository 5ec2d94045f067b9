// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): decoding 10^8 values of each GGUF block type (tensor-formats.txt, the
// gguf_* table; storage-layouts.md Section 7) through the reference plugin's v2 table
// (quant_decode, every check included) beside a bare loop (the reference's row decoder called
// directly on the same bytes), and the exact oracle's cost per block (the proof, not the fast
// path). Prints one table row per type: values per second and microseconds per oracle block.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gguf_blocks.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "reference_plugin.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char **argv) {
    namespace gn = ninfer::reference::gguf_blocks;
    const double target = argc > 1 ? std::atof(argv[1]) : 1e8;  // values decoded per type
    constexpr std::uint64_t kValuesPerCall = 1u << 20;
    constexpr int kOracleBlocks = 20;
    std::mt19937_64 rng(20261130);
    const ninfer_plugin_v2 &table = ninfer::reference::reference_table_v2();
    std::printf("%-14s %12s %14s %14s %8s %16s\n", "type", "values", "plugin val/s", "bare val/s", "ratio", "oracle us/block");
    for (const auto &t : ninfer::abi::kGgufTypes) {
        const std::uint64_t k = 16ull * t.block_values, rows = kValuesPerCall / k, blocks = rows * 16;
        std::vector<std::uint8_t> payload(blocks * t.block_bytes);
        for (auto &b : payload) b = static_cast<std::uint8_t>(rng());
        // Finite scales, so that the timing is the ordinary path (a NaN scale would not be slower).
        std::vector<std::uint8_t> values(rows * k * 4);
        const auto calls = static_cast<std::uint64_t>(target / static_cast<double>(rows * k) + 0.999);
        const double decoded = static_cast<double>(calls * rows * k);

        ninfer_input_plane in{NINFER_PLANE_PAYLOAD, 0, payload.data(), payload.size()};
        ninfer_output_plane out{NINFER_PLANE_VALUES, 0, values.data(), values.size(), 0};
        ninfer_call_v2 c{};
        c.struct_size = sizeof c;
        c.op = NINFER_OP_quant_decode;
        c.format = t.id;
        c.layout = NINFER_LAYOUT_ggml_blocks_v1;
        c.rank = 2;
        c.shape[0] = rows;
        c.shape[1] = k;
        c.count = rows * k;
        c.input_count = 1;
        c.inputs = &in;
        c.output_count = 1;
        c.outputs = &out;
        ninfer_result_v2 r{};
        r.struct_size = sizeof r;
        auto t0 = std::chrono::steady_clock::now();
        for (std::uint64_t i = 0; i < calls; ++i)
            if (table.ops[NINFER_OP_quant_decode - 1](table.self, &c, &r) != NINFER_OK) {
                std::fprintf(stderr, "bench_gguf_reference: %.*s: %s\n", static_cast<int>(t.name.size()), t.name.data(), r.message);
                return 1;
            }
        const double plugin_s = seconds_since(t0);

        const gn::RowDecoder decode = gn::row_decoder(t.ggml_type);
        t0 = std::chrono::steady_clock::now();
        for (std::uint64_t i = 0; i < calls; ++i) decode(payload.data(), blocks, values.data());
        const double bare_s = seconds_since(t0);

        t0 = std::chrono::steady_clock::now();
        std::size_t sink = 0;
        for (int b = 0; b < kOracleBlocks; ++b)
            sink += ninfer::oracle::gguf_dequantize_block(t, std::span(payload).subspan(b * t.block_bytes, t.block_bytes)).ggml.size();
        const double oracle_us = seconds_since(t0) * 1e6 / kOracleBlocks;
        if (sink != kOracleBlocks * t.block_values) return 1;

        std::printf("%-14.*s %12.3e %14.3e %14.3e %8.2f %16.1f\n", static_cast<int>(t.name.size()), t.name.data(), decoded,
                    decoded / plugin_s, decoded / bare_s, bare_s / plugin_s, oracle_us);
    }
    return 0;
}
