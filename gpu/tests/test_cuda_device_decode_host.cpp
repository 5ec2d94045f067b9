// SPDX-License-Identifier: Apache-2.0
// cuda_device's decoders on the HOST (gpu/README.md "cuda-device: the decoders on the host"):
// weight_decode.cuh is host-device code, the very functions the kernels run; this test compiles
// them with the host compiler (-ffp-contract=off, no fast-math) and checks them against the
// golden vectors: every quant_decode case of every weight format (six row-split grouped formats,
// nvfp4, both FP8 row formats, the 27 GGUF types) through cuda_device's host boundary
// (weight_view.cpp: pair, shape, size, validity) and then the decoders' VALUES words bit for bit
// (an expected NaN under the case's NaN policy); and the golden refusals of q2 and t2
// (quant_decode, layout_decode, payload_validate) through the same host validation. No device,
// no CUDA runtime, no oracle code: the expectations are the committed vectors.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ggml_table_data.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/vectors/vectors.hpp"
#include "weight_decode.cuh"
#include "weight_view.hpp"

namespace {

using namespace ninfer;

const gpu::GgmlTables &host_tables() {
    static gpu::GgmlTableData data;
    static const gpu::GgmlTables tables = [] {
        gpu::fill_ggml_tables(data);
        return gpu::ggml_tables_of(data);
    }();
    return tables;
}

const vectors::Loaded &golden() {
    static const vectors::Loaded loaded = vectors::load(vectors::default_vectors_dir(), {}, suites::Level::exhaustive);
    return loaded;
}

/// What cuda_device's host side and host-compiled decoders give for a call: status, detail, and
/// (quant_decode, status OK) the VALUES words.
struct Outcome {
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = 0;
    std::string message;
    std::vector<std::uint32_t> values;
};

/// tensor_ops.cpp's order for a payload input: pair, rank, geometry, size, validity; then values.
Outcome host_call(const suites::Case &c, bool decode_values) {
    Outcome o;
    auto refused = [&](const gpu::Refusal &x) {
        o.status = x.status;
        o.detail = x.detail;
        o.message = x.message;
        return o;
    };
    if (c.layout != gpu::weight_layout(c.format)) return refused({NINFER_E_LAYOUT, 0, "format/layout pair not registered"});
    const bool gguf = abi::find_id(abi::kGgufTypes, c.format) != nullptr;
    if (!gguf && c.shape.size() != 2) return refused({NINFER_E_INVALID_ARGUMENT, 0, "rank"});
    gpu::WeightView v;
    if (const auto x = gpu::weight_geometry(c.format, c.shape.data(), static_cast<std::uint32_t>(c.shape.size()), v)) return refused(x);
    const auto &payload = c.input(NINFER_PLANE_PAYLOAD);
    if (const auto x = gpu::weight_payload_size(v, payload.size())) return refused(x);
    if (const auto x = gpu::weight_validate(v, payload.data())) return refused(x);
    if (!decode_values) return o;
    o.values.reserve(v.n * v.k);
    for (std::uint64_t n = 0; n < v.n; ++n)
        for (std::uint64_t k = 0; k < v.k; ++k)
            o.values.push_back(gpu::decode::bits_of(gpu::decode::weight_value(v, payload.data(), n, k, host_tables())));
    return o;
}

bool f32_nan(std::uint32_t w) { return (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu) != 0; }

/// An actual VALUES word against the expected one under the case's NaN policy (suites/case.hpp).
bool value_matches(std::uint32_t expected, std::uint32_t actual, suites::NanPolicy nan) {
    if (expected == actual) return true;
    if (!f32_nan(expected) || !f32_nan(actual)) return false;
    const bool quiet = (actual & 0x00400000u) != 0;
    switch (nan) {
    case suites::NanPolicy::exact: return false;
    case suites::NanPolicy::same_sign: return quiet && (expected >> 31) == (actual >> 31);
    case suites::NanPolicy::any: return quiet;
    }
    return false;
}

std::string hex32(std::uint32_t w) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", w);
    return b;
}

bool is_q2_t2(std::uint32_t format) { return format == NINFER_FORMAT_q2_g64_fp16 || format == NINFER_FORMAT_t2_g128_fp16; }

}  // namespace

TEST_CASE("cuda_device declares quant_decode for every weight format", "[cuda_device][decode][host]") {
    std::size_t weight_formats = 0;
    for (const auto &f : abi::kAllFormats) {
        if (f.family == abi::Family::word) continue;
        INFO(f.name);
        CHECK(gpu::device_weight_format(f.id));
        ++weight_formats;
    }
    CHECK(weight_formats == abi::kGroupedFormats.size() + abi::kScaledFormats.size() + abi::kGgufTypes.size());
    CHECK(abi::kGgufTypes.size() == 27);
}

TEST_CASE("cuda_device's host-compiled decoders give the golden quant_decode VALUES of every weight format bit for bit",
          "[cuda_device][decode][host]") {
    const auto &set = golden();
    std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> per_format;  // cases with values, elements
    std::size_t cases = 0, refusals = 0, failures = 0;
    for (const auto &c : set.cases) {
        if (c.op != NINFER_OP_quant_decode || abi::find_format(c.format) == nullptr ||
            abi::find_format(c.format)->family == abi::Family::word)
            continue;
        ++cases;
        const Outcome o = host_call(c, c.expect.status == NINFER_OK);
        INFO(c.id << ": " << o.message);
        CHECK(o.status == c.expect.status);
        if (c.expect.status != NINFER_OK) {
            ++refusals;
            if (c.expect.detail != 0) CHECK(o.detail == c.expect.detail);
            continue;
        }
        if (o.status != NINFER_OK) {
            ++failures;
            continue;
        }
        const auto &expected = c.expect.output(NINFER_PLANE_VALUES);
        REQUIRE(expected.size() == 4 * o.values.size());
        std::size_t departs = 0;
        for (std::size_t i = 0; i < o.values.size(); ++i) {
            const auto want = static_cast<std::uint32_t>(suites::get_word(expected, i, 4));
            if (value_matches(want, o.values[i], c.nan)) continue;
            if (departs++ < 4) UNSCOPED_INFO("element " << i << ": expected " << hex32(want) << ", host decoder " << hex32(o.values[i]));
        }
        CHECK(departs == 0);
        failures += departs != 0;
        auto &tally = per_format[c.format];
        ++tally.first;
        tally.second += o.values.size();
    }
    // Every weight format has golden values, and every one was decoded.
    std::string summary;
    for (const auto &f : abi::kAllFormats) {
        if (f.family == abi::Family::word) continue;
        INFO(f.name);
        CHECK(per_format[f.id].first > 0);
        summary += std::string(f.name) + " " + std::to_string(per_format[f.id].first) + "/" + std::to_string(per_format[f.id].second) + "; ";
    }
    CHECK(failures == 0);
    WARN("host decoders vs golden quant_decode: " << cases << " cases (" << refusals << " refusals), " << per_format.size()
                                                 << " formats with values (cases/elements): " << summary);
}

TEST_CASE("cuda_device's host validation refuses the golden q2 and t2 payloads as the vectors expect", "[cuda_device][decode][host]") {
    std::size_t checked = 0, refused = 0;
    for (const auto &c : golden().cases) {
        if (!is_q2_t2(c.format) || c.layout != NINFER_LAYOUT_row_split_k128_v1) continue;
        if (c.op != NINFER_OP_quant_decode && c.op != NINFER_OP_layout_decode && c.op != NINFER_OP_payload_validate) continue;
        if (c.input(NINFER_PLANE_PAYLOAD).empty() && c.expect.status == NINFER_OK) continue;
        // payload_validate answers OK with a verdict; only its refusals are the decode boundary's.
        if (c.op == NINFER_OP_payload_validate && c.expect.status == NINFER_OK) continue;
        if (c.shape.size() != 2) continue;  // a rank refusal is the op's, not the boundary's
        const Outcome o = host_call(c, false);
        INFO(c.id << ": " << o.message);
        CHECK(o.status == c.expect.status);
        if (c.expect.status != NINFER_OK && c.expect.detail != 0) CHECK(o.detail == c.expect.detail);
        ++checked;
        refused += c.expect.status != NINFER_OK;
    }
    CHECK(refused >= 10);
    WARN("q2/t2 host validation vs golden: " << checked << " calls, " << refused << " expected refusals");
}

TEST_CASE("t2's word 0b10 is an illegal code and q2's scale rules hold on the host", "[cuda_device][decode][host]") {
    // [1, 128]: one logical group per row; t2 one group of 128 (32 base bytes), q2 two of 64.
    const std::uint64_t shape[2] = {1, 128};
    for (const std::uint32_t format : {NINFER_FORMAT_t2_g128_fp16, NINFER_FORMAT_q2_g64_fp16}) {
        gpu::WeightView v;
        REQUIRE(gpu::weight_geometry(format, shape, 2, v).status == NINFER_OK);
        std::vector<std::uint8_t> p(v.payload_bytes, 0);
        const bool q2 = format == NINFER_FORMAT_q2_g64_fp16;
        auto scale = [&](std::uint64_t g, std::uint16_t s) {
            abi::store_le16(&p[v.scale_offset + 2 * g], s);
        };
        // Codes of value 0 everywhere (q2: stored 0b01), scale 1.0.
        for (std::uint64_t g = 0; g < v.logical_groups; ++g) {
            for (std::uint32_t b = 0; b < v.base_bytes; ++b) p[g * v.base_bytes + b] = q2 ? 0x55 : 0x00;
            scale(g, 0x3C00);
        }
        REQUIRE(gpu::weight_payload_size(v, p.size()).status == NINFER_OK);
        CHECK(gpu::weight_validate(v, p.data()).status == NINFER_OK);
        // Lane 5 holds stored word 0b10: t2 illegal (illegal_code), q2 code +1 (valid, value 1.0).
        p[1] = static_cast<std::uint8_t>((p[1] & ~0x0Cu) | 0x08u);
        const auto x = gpu::weight_validate(v, p.data());
        if (q2) {
            CHECK(x.status == NINFER_OK);
            CHECK(gpu::decode::grouped_code(v, p.data(), 0, 5) == 1);
            CHECK(gpu::decode::weight_value(v, p.data(), 0, 5, host_tables()) == 1.0f);
        } else {
            CHECK(x.status == NINFER_E_INVALID_PAYLOAD);
            CHECK(x.detail == NINFER_DETAIL_ILLEGAL_CODE);
        }
        // t2 0b11 is -1; q2 0b11 is +2, 0b00 is -1.
        p[1] = static_cast<std::uint8_t>(p[1] | 0x0Cu);
        CHECK(gpu::decode::grouped_code(v, p.data(), 0, 5) == (q2 ? 2 : -1));
        // A -0 scale: valid for q2 (every finite word), invalid for t2; Inf invalid for both.
        scale(0, 0x8000);
        const auto neg_zero = gpu::weight_validate(v, p.data());
        if (q2) {
            CHECK(neg_zero.status == NINFER_OK);  // and a +-0 scale exempts nonzero codes from the zero-scale rule
            const float w = gpu::decode::weight_value(v, p.data(), 0, 5, host_tables());
            CHECK(gpu::decode::bits_of(w) == 0x80000000u);  // binary32(-0 * 2)
        } else {
            CHECK(neg_zero.detail == NINFER_DETAIL_INVALID_SCALE);
        }
        scale(0, 0x0000);
        const auto pos_zero = gpu::weight_validate(v, p.data());
        if (q2) CHECK(pos_zero.status == NINFER_OK);
        else CHECK(pos_zero.detail == NINFER_DETAIL_ZERO_SCALE_CODES);
        scale(0, 0x7C00);
        CHECK(gpu::weight_validate(v, p.data()).detail == NINFER_DETAIL_INVALID_SCALE);
    }
}
