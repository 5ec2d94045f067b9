// SPDX-License-Identifier: Apache-2.0
// The GGUF mutants' copied q4_K block (mutant_gguf_common.hpp q4_k_block with ggml's
// get_scale_min_k4 and element), unmutated, equals the reference's own q4_K decoder bit for
// bit on random blocks: the two q4_K mutants differ from the reference only in their one step.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "mutant_gguf_common.hpp"

TEST_CASE("the GGUF mutants' q4_K block, unmutated, equals the reference's q4_K decoder") {
    namespace g = ninfer::mutants::gguf;
    const auto &t = g::type_of(NINFER_FORMAT_gguf_q4_k);
    const auto decode = ninfer::reference::gguf_blocks::row_decoder(t.ggml_type);
    REQUIRE(decode != nullptr);
    std::mt19937_64 rng(20261130);
    std::size_t differing = 0;
    for (int b = 0; b < 500; ++b) {
        std::vector<std::uint8_t> block(t.block_bytes);
        for (auto &x : block) x = static_cast<std::uint8_t>(rng());
        block[1] &= 0x3B, block[3] &= 0x3B;  // finite d and dmin (exponent below all ones)
        std::vector<std::uint8_t> want(4 * t.block_values);
        decode(block.data(), 1, want.data());
        float y[256];
        g::q4_k_block(block.data(), y, g::scale_min_k4, g::kquant_element);
        differing += std::memcmp(y, want.data(), want.size()) != 0;
    }
    CHECK(differing == 0);
}
