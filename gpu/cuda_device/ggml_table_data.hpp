// SPDX-License-Identifier: Apache-2.0
// ggml's grids, sign table and code books as one plain block of arrays (GgmlTableData), filled from
// the generated ninfer/oracle/ggml_tables.hpp (pure data from ../shared/data/ggml-tables.json; no
// oracle code is linked), and the GgmlTables view of weight_decode.cuh over such a block. The
// kernels keep one copy in device memory (tensor_kernels.cu), the host test one in host memory.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ninfer/oracle/ggml_tables.hpp"
#include "weight_decode.cuh"

namespace ninfer::gpu {

struct GgmlTableData {
    std::uint64_t iq2xxs_grid[256];
    std::uint64_t iq2xs_grid[512];
    std::uint64_t iq2s_grid[1024];
    std::uint64_t iq1s_grid[2048];
    std::uint32_t iq3xxs_grid[256];
    std::uint32_t iq3s_grid[512];
    std::uint8_t ksigns_iq2xs[128];
    std::int8_t kvalues_iq4nl[16];
    std::int8_t kvalues_fp4[16];
};

/// Copies the generated tables into `d` (sizes checked at compile time).
inline void fill_ggml_tables(GgmlTableData &d) {
    namespace g = oracle::ggml;
    static_assert(g::iq2xxs_grid.size() == 256 && g::iq2xs_grid.size() == 512 && g::iq2s_grid.size() == 1024 &&
                  g::iq1s_grid.size() == 2048 && g::iq3xxs_grid.size() == 256 && g::iq3s_grid.size() == 512 &&
                  g::ksigns_iq2xs.size() == 128 && g::kvalues_iq4nl.size() == 16 && g::kvalues_fp4.size() == 16);
    std::copy(g::iq2xxs_grid.begin(), g::iq2xxs_grid.end(), d.iq2xxs_grid);
    std::copy(g::iq2xs_grid.begin(), g::iq2xs_grid.end(), d.iq2xs_grid);
    std::copy(g::iq2s_grid.begin(), g::iq2s_grid.end(), d.iq2s_grid);
    std::copy(g::iq1s_grid.begin(), g::iq1s_grid.end(), d.iq1s_grid);
    std::copy(g::iq3xxs_grid.begin(), g::iq3xxs_grid.end(), d.iq3xxs_grid);
    std::copy(g::iq3s_grid.begin(), g::iq3s_grid.end(), d.iq3s_grid);
    std::copy(g::ksigns_iq2xs.begin(), g::ksigns_iq2xs.end(), d.ksigns_iq2xs);
    std::copy(g::kvalues_iq4nl.begin(), g::kvalues_iq4nl.end(), d.kvalues_iq4nl);
    std::copy(g::kvalues_fp4.begin(), g::kvalues_fp4.end(), d.kvalues_fp4);
}

/// The view of a table block at `where` (device or host address of a filled GgmlTableData); the
/// iq1 deltas are binary32(num / den) of ggml's constants (one rounding; 0.125 exactly).
inline GgmlTables ggml_tables_of(const GgmlTableData &where) {
    namespace g = oracle::ggml;
    GgmlTables t;
    t.iq2xxs_grid = where.iq2xxs_grid;
    t.iq2xs_grid = where.iq2xs_grid;
    t.iq2s_grid = where.iq2s_grid;
    t.iq1s_grid = where.iq1s_grid;
    t.iq3xxs_grid = where.iq3xxs_grid;
    t.iq3s_grid = where.iq3s_grid;
    t.ksigns_iq2xs = where.ksigns_iq2xs;
    t.kvalues_iq4nl = where.kvalues_iq4nl;
    t.kvalues_fp4 = where.kvalues_fp4;
    t.iq1s_delta = decode::f32_div(static_cast<float>(g::kIQ1S_DELTA_num), static_cast<float>(g::kIQ1S_DELTA_den));
    t.iq1m_delta = decode::f32_div(static_cast<float>(g::kIQ1M_DELTA_num), static_cast<float>(g::kIQ1M_DELTA_den));
    return t;
}

}  // namespace ninfer::gpu
