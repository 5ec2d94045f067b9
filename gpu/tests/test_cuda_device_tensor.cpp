// SPDX-License-Identifier: Apache-2.0
// cuda_device's tensor ops (gpu/README.md "cuda-device: tensor ops"): the host side of the decode
// boundary (weight_view.cpp) against the oracle's validating decoders, on any machine; the
// grouped_absmax scale-rounding boundary set, shown to catch approximate division on the host
// and run on the device; then, with a device, quant_decode, quant_encode and linear through the
// plugin ABI against the oracle. Seed NINFER_SEED (default 20261129; include it in bug reports).
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/plugin.h"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/gguf.hpp"
#include "ninfer/oracle/grouped.hpp"
#include "ninfer/oracle/row_split.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "ninfer/oracle/scaled.hpp"
#include "ggml_table_data.hpp"
#include "tensor_kernels.cuh"
#include "weight_decode.cuh"
#include "weight_view.hpp"

namespace {

using namespace ninfer;
using gpu::WeightView;

std::uint64_t seed() {
    const char *s = std::getenv("NINFER_SEED");
    return s ? std::strtoull(s, nullptr, 10) : 20261129u;
}

// ---- Payload samples, built by the oracle's encoders ----------------------------------------------

struct Sample {
    std::uint32_t format = 0;
    std::uint64_t n = 0, k = 0;
    std::vector<std::uint8_t> payload;
};

/// A random finite binary16 word of moderate magnitude (2^-8 .. 2^0), random sign unless `positive`.
std::uint16_t moderate_half(std::mt19937_64 &rng, bool positive) {
    const auto w = static_cast<std::uint16_t>(0x1C00u + rng() % 0x2000u);
    return positive || rng() % 2 ? w : static_cast<std::uint16_t>(w | 0x8000u);
}

/// The binary16 fields of a ggml block (d, and m / dmin / s where the type has one), set to
/// moderate values so that random payloads decode to finite weights of moderate size; by format
/// id, a type not listed has its d at 0.
const std::map<std::uint32_t, std::vector<int>> kHalfFields = {
    {NINFER_FORMAT_gguf_q4_1, {0, 2}}, {NINFER_FORMAT_gguf_q5_1, {0, 2}}, {NINFER_FORMAT_gguf_q8_1, {0, 2}},
    {NINFER_FORMAT_gguf_q4_k, {0, 2}}, {NINFER_FORMAT_gguf_q5_k, {0, 2}}, {NINFER_FORMAT_gguf_q2_k, {80, 82}},
    {NINFER_FORMAT_gguf_q3_k, {108}},  {NINFER_FORMAT_gguf_q6_k, {208}},  {NINFER_FORMAT_gguf_tq1_0, {52}},
    {NINFER_FORMAT_gguf_tq2_0, {64}},
    // q8_K, iq1_m, mxfp4, nvfp4: gguf_other_scales
    {NINFER_FORMAT_gguf_q8_k, {}}, {NINFER_FORMAT_gguf_iq1_m, {}}, {NINFER_FORMAT_gguf_mxfp4, {}}, {NINFER_FORMAT_gguf_nvfp4, {}}};

std::vector<int> gguf_half_fields(const abi::GgufType &t) {
    const auto it = kHalfFields.find(t.id);
    return it != kHalfFields.end() ? it->second : std::vector<int>{0};
}

/// The scale fields of a ggml block that are not a plain binary16 field, set to moderate values:
/// q8_K's binary32 d, iq1_m's binary16 d spread over the top nibbles of its four scale words,
/// mxfp4's E8M0 exponent (gguf nvfp4's UE4M3 scales are at most 240: left random).
void gguf_other_scales(const abi::GgufType &t, std::uint8_t *block, std::mt19937_64 &rng) {
    if (t.id == NINFER_FORMAT_gguf_q8_k) {
        const auto w = static_cast<std::uint32_t>(0x3C000000u + rng() % 0x01000000u) | (rng() % 2 ? 0x80000000u : 0u);
        abi::store_le32(block, w);
    } else if (t.id == NINFER_FORMAT_gguf_iq1_m) {
        const std::uint16_t h = moderate_half(rng, false);
        for (int i = 0; i < 4; ++i) block[49 + 2 * i] = static_cast<std::uint8_t>((block[49 + 2 * i] & 0x0F) | (((h >> (4 * i)) & 0xF) << 4));
    } else if (t.id == NINFER_FORMAT_gguf_mxfp4) {
        block[0] = static_cast<std::uint8_t>(120 + rng() % 16);
    }
}

Sample sample_payload(std::uint32_t format, std::uint64_t n, std::uint64_t k, std::mt19937_64 &rng) {
    Sample s{format, n, k, {}};
    if (const auto *g = abi::find_id(abi::kGroupedFormats, format)) {
        oracle::GroupedMatrix m{n, k, {}, {}};
        const std::uint64_t groups = (k + g->group - 1) / g->group;
        m.scales.resize(n * groups);
        m.codes.resize(n * k);
        for (std::uint64_t i = 0; i < m.scales.size(); ++i) m.scales[i] = i % 7 == 3 ? 0 : moderate_half(rng, false);
        for (std::uint64_t i = 0; i < m.codes.size(); ++i) {
            const bool zero_scale = m.scales[(i / k) * groups + (i % k) / g->group] == 0;
            m.codes[i] = zero_scale ? 0 : static_cast<std::int8_t>(g->qmin + static_cast<int>(rng() % (g->qmax - g->qmin + 1)));
        }
        s.payload = oracle::row_split_encode(*g, m);
        return s;
    }
    if (format == NINFER_FORMAT_nvfp4) {
        oracle::Nvfp4Matrix m{n, k, {}, {}, {}};
        for (std::uint64_t i = 0; i < n * k; ++i) m.codes.push_back(static_cast<std::uint8_t>(rng() % 16));
        for (std::uint64_t i = 0; i < n * k / 16; ++i) m.scales.push_back(static_cast<std::uint8_t>(rng() % 0x7F));
        m.divisors = {0x3F800000u, std::bit_cast<std::uint32_t>(0.1f)};
        if (n % 2 != 0) m.divisors.pop_back();
        s.payload = oracle::block_scale_encode(m);
        return s;
    }
    if (const auto f = oracle::fp8_row_format(format)) {
        oracle::Fp8RowMatrix m{n, k, {}, {}};
        for (std::uint64_t i = 0; i < n * k; ++i) {
            auto c = static_cast<std::uint8_t>(rng() % 256);
            if ((c & 0x7F) == 0x7F) c = 0x7E;
            m.codes.push_back(c);
        }
        for (std::uint64_t r = 0; r < n; ++r)
            m.scales.push_back(f->scale_format == NINFER_FORMAT_bf16 ? static_cast<std::uint16_t>(0x3800u + rng() % 0x0800u)
                                                                      : moderate_half(rng, true));
        s.payload = oracle::fp8_row_encode(*f, m);
        return s;
    }
    const auto *t = abi::find_id(abi::kGgufTypes, format);
    REQUIRE(t != nullptr);
    s.payload.resize(n * (k / t->block_values) * t->block_bytes);
    for (auto &b : s.payload) b = static_cast<std::uint8_t>(rng());
    for (std::uint64_t b = 0; b < s.payload.size() / t->block_bytes; ++b) {
        for (const int at : gguf_half_fields(*t)) {
            const std::uint16_t h = moderate_half(rng, false);
            abi::store_le16(&s.payload[b * t->block_bytes + at], h);
        }
        gguf_other_scales(*t, s.payload.data() + b * t->block_bytes, rng);
    }
    return s;
}

/// The oracle's binary32 value words of a valid sample (quant_decode's VALUES).
std::vector<std::uint32_t> oracle_values(const Sample &s) {
    std::vector<std::uint32_t> out;
    if (const auto *g = abi::find_id(abi::kGroupedFormats, s.format)) {
        const auto d = oracle::row_split_decode(*g, s.n, s.k, s.payload);
        REQUIRE(d.status == NINFER_OK);
        const std::uint64_t groups = (s.k + g->group - 1) / g->group;
        for (std::uint64_t i = 0; i < s.n * s.k; ++i)
            out.push_back(oracle::grouped_reconstruct(d.m.scales[(i / s.k) * groups + (i % s.k) / g->group], d.m.codes[i]));
        return out;
    }
    if (s.format == NINFER_FORMAT_nvfp4) {
        const std::uint64_t divisors = (s.payload.size() - s.n * s.k / 2 - s.n * s.k / 16) / 4;
        const auto d = oracle::block_scale_decode(s.n, s.k, divisors, s.payload);
        REQUIRE(d.status == NINFER_OK);
        for (std::uint64_t i = 0; i < s.n * s.k; ++i) {
            const std::uint64_t r = i / s.k;
            out.push_back(oracle::nvfp4_weight_binary32(d.m.codes[i], d.m.scales[r * (s.k / 16) + (i % s.k) / 16],
                                                        d.m.divisors[r / (s.n / divisors)]));
        }
        return out;
    }
    if (const auto f = oracle::fp8_row_format(s.format)) {
        const auto d = oracle::fp8_row_decode(*f, s.n, s.k, s.payload);
        REQUIRE(d.status == NINFER_OK);
        for (std::uint64_t i = 0; i < s.n * s.k; ++i) out.push_back(oracle::fp8_row_weight_binary32(*f, d.m.codes[i], d.m.scales[i / s.k]));
        return out;
    }
    const auto *t = abi::find_id(abi::kGgufTypes, s.format);
    for (std::uint64_t b = 0; b < s.payload.size() / t->block_bytes; ++b) {
        const auto block = oracle::gguf_dequantize_block(*t, std::span(s.payload).subspan(b * t->block_bytes, t->block_bytes));
        out.insert(out.end(), block.ggml.begin(), block.ggml.end());
    }
    return out;
}

/// The host-compiled decoders' VALUES words of a valid sample (weight_decode.cuh, the code the
/// kernels run).
std::vector<std::uint32_t> host_decoder_values(const Sample &s) {
    static gpu::GgmlTableData data;
    static const gpu::GgmlTables tables = [] {
        gpu::fill_ggml_tables(data);
        return gpu::ggml_tables_of(data);
    }();
    gpu::WeightView v;
    const std::uint64_t shape[2] = {s.n, s.k};
    REQUIRE(gpu::weight_geometry(s.format, shape, 2, v).status == NINFER_OK);
    REQUIRE(gpu::weight_payload_size(v, s.payload.size()).status == NINFER_OK);
    std::vector<std::uint32_t> out;
    for (std::uint64_t n = 0; n < s.n; ++n)
        for (std::uint64_t k = 0; k < s.k; ++k)
            out.push_back(gpu::decode::bits_of(gpu::decode::weight_value(v, s.payload.data(), n, k, tables)));
    return out;
}

/// The device weight formats, each with a shape its geometry takes (and a partial last group
/// for the grouped formats).
std::vector<Sample> samples(std::mt19937_64 &rng) {
    std::vector<Sample> out;
    for (const auto &f : abi::kAllFormats) {
        if (!gpu::device_weight_format(f.id)) continue;
        std::uint64_t n = 3, k = 200;
        if (f.family == abi::Family::scaled) n = f.id == NINFER_FORMAT_nvfp4 ? 256 : 3, k = f.id == NINFER_FORMAT_nvfp4 ? 128 : 70;
        if (f.family == abi::Family::gguf) k = 512;
        out.push_back(sample_payload(f.id, n, k, rng));
    }
    return out;
}


/// The validating decode's verdict of the oracle for a payload: status and detail.
std::pair<std::int32_t, std::uint32_t> oracle_verdict(const Sample &s, std::uint64_t divisors = 1) {
    if (const auto *g = abi::find_id(abi::kGroupedFormats, s.format)) {
        const auto d = oracle::row_split_decode(*g, s.n, s.k, s.payload);
        return {d.status, d.detail};
    }
    if (s.format == NINFER_FORMAT_nvfp4) {
        const auto d = oracle::block_scale_decode(s.n, s.k, divisors, s.payload);
        return {d.status, d.detail};
    }
    const auto d = oracle::fp8_row_decode(*oracle::fp8_row_format(s.format), s.n, s.k, s.payload);
    return {d.status, d.detail};
}

/// cuda_device's host verdict for a payload: geometry, size, then validity.
gpu::Refusal host_verdict(const Sample &s, WeightView &v) {
    const std::uint64_t shape[2] = {s.n, s.k};
    if (auto x = gpu::weight_geometry(s.format, shape, 2, v)) return x;
    if (auto x = gpu::weight_payload_size(v, s.payload.size())) return x;
    return gpu::weight_validate(v, s.payload.data());
}

// ---- The grouped_absmax scale boundary (Section 7.2) ---------------------------------------------

/// binary32 amax words whose raw_scale32 = RN32(amax / qmax) lies on or beside a midpoint of two
/// binary16 scale words, for every positive finite binary16 word pair (normal and subnormal),
/// plus the overflow edge: amax = RN32(m * qmax) and its neighbours +-1, +-2 ulps. Host
/// arithmetic only places the inputs; what they should give comes from the oracle.
std::vector<std::uint32_t> scale_boundary_inputs(std::int32_t qmax) {
    std::vector<std::uint32_t> out;
    const auto &f16 = oracle::word_format(NINFER_FORMAT_fp16);
    auto around = [&](double lo, double hi) {
        const auto centre = std::bit_cast<std::uint32_t>(static_cast<float>((lo + hi) / 2 * qmax));
        for (std::int32_t d = -2; d <= 2; ++d) out.push_back(static_cast<std::uint32_t>(static_cast<std::int64_t>(centre) + d));
    };
    // Every subnormal pair, every third normal pair.
    for (std::uint32_t h = 0x0000; h < 0x7BFF; h += (h < 0x0400 ? 1 : 3))
        around(std::bit_cast<double>(oracle::decode_to_binary64(f16, h)), std::bit_cast<double>(oracle::decode_to_binary64(f16, h + 1)));
    around(65504.0, 65536.0);  // the overflow threshold 65520: above it the scale is refused
    return out;
}

/// binary16 of a binary32 word by the oracle's scale step (nearest-even, rescue, 0x7C00 on overflow).
std::uint16_t oracle_scale16(std::uint32_t raw32) {
    const auto s = oracle::grouped_scale16_from_f32(raw32);
    return s ? *s : static_cast<std::uint16_t>(0x7C00u);
}

bool device_present() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
    cudaDeviceProp p{};
    return cudaGetDeviceProperties(&p, 0) == cudaSuccess && p.major >= 9;
}

// ---- Plugin calls --------------------------------------------------------------------------------

ninfer_plugin_entry_fn plugin_entry() {
    static const ninfer_plugin_entry_fn entry = [] {
        void *lib = ::dlopen(NINFER_CUDA_DEVICE_PLUGIN, RTLD_NOW | RTLD_LOCAL);
        if (!lib) FAIL("cannot load " NINFER_CUDA_DEVICE_PLUGIN ": " << ::dlerror());
        auto e = reinterpret_cast<ninfer_plugin_entry_fn>(::dlsym(lib, NINFER_PLUGIN_ENTRY_SYMBOL));
        if (!e) FAIL(NINFER_CUDA_DEVICE_PLUGIN " exports no " NINFER_PLUGIN_ENTRY_SYMBOL);
        return e;
    }();
    return entry;
}

/// The plugin's table when it found a device, else nullptr (the caller skips with a WARN).
const ninfer_plugin *device_table() {
    const ninfer_plugin *t = plugin_entry()(NINFER_ABI_VERSION);
    REQUIRE(t != nullptr);
    if (std::string_view(t->version).find("no CUDA device") != std::string_view::npos) return nullptr;
    return t;
}

struct In {
    std::uint32_t name, format;
    const std::vector<std::uint8_t> *bytes;
};
struct Out {
    std::uint32_t name, format;
    std::uint64_t capacity;
};
struct Result {
    std::int32_t status = 0;
    ninfer_result_v2 result{};
    std::vector<ninfer_output_plane> planes;
    std::vector<std::vector<std::uint8_t>> buffers;
    const std::vector<std::uint8_t> &buffer(std::uint32_t name) const {
        for (std::size_t i = 0; i < planes.size(); ++i)
            if (planes[i].name == name) return buffers[i];
        FAIL("no output plane " << name);
        return buffers.at(0);
    }
    std::uint64_t written(std::uint32_t name) const {
        for (const auto &p : planes)
            if (p.name == name) return p.written;
        return 0;
    }
};

Result run(const ninfer_plugin &t, ninfer_call_v2 c, const std::vector<In> &ins, const std::vector<Out> &outs) {
    Result r;
    std::vector<ninfer_input_plane> in;
    for (const auto &p : ins) in.push_back({p.name, p.format, p.bytes->empty() ? nullptr : p.bytes->data(), p.bytes->size()});
    for (const auto &p : outs) r.buffers.emplace_back(p.capacity, 0xCD);
    for (std::size_t i = 0; i < outs.size(); ++i)
        r.planes.push_back({outs[i].name, outs[i].format, r.buffers[i].empty() ? nullptr : r.buffers[i].data(), outs[i].capacity, 0});
    c.struct_size = sizeof(ninfer_call_v2);
    c.input_count = static_cast<std::uint32_t>(in.size());
    c.inputs = in.data();
    c.output_count = static_cast<std::uint32_t>(r.planes.size());
    c.outputs = r.planes.data();
    r.result.struct_size = sizeof(ninfer_result_v2);
    REQUIRE(t.ops[c.op - 1] != nullptr);
    r.status = t.ops[c.op - 1](t.self, &c, &r.result);
    return r;
}

ninfer_call_v2 head(std::uint32_t op, std::uint32_t format, std::uint64_t n, std::uint64_t k) {
    ninfer_call_v2 c{};
    c.op = op;
    c.format = format;
    c.layout = gpu::weight_layout(format);
    c.rank = 2;
    c.shape[0] = n;
    c.shape[1] = k;
    c.count = n * k;
    return c;
}

std::uint32_t word32(const std::vector<std::uint8_t> &b, std::uint64_t i) {
    return abi::load_le32(&b[4 * i]);
}
bool f32_nan(std::uint32_t w) { return (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu) != 0; }

}  // namespace

TEST_CASE("cuda_device host side: payload geometry, size and validity as the oracle's decoders judge them", "[cuda_device][tensor]") {
    std::mt19937_64 rng(seed());
    for (const Sample &s : samples(rng)) {
        INFO(abi::format_name(s.format) << " [" << s.n << "," << s.k << "], seed " << seed());
        WeightView v;
        const gpu::Refusal ok = host_verdict(s, v);
        INFO(ok.message);
        REQUIRE(ok.status == NINFER_OK);
        // A byte more or less is a size refusal (nvfp4: no whole number of divisors).
        Sample longer = s;
        longer.payload.push_back(0);
        WeightView lv;
        const auto size = host_verdict(longer, lv);
        CHECK(size.status == NINFER_E_SIZE);
        CHECK(size.detail == NINFER_DETAIL_SIZE);
        if (v.kind == gpu::WeightKind::gguf) continue;  // GGUF: the size is the whole boundary
        // The logical planes equal the oracle's decode.
        std::vector<std::uint8_t> codes, scales, divisors;
        gpu::weight_unpack(v, s.payload.data(), codes, scales, divisors);
        if (const auto *g = abi::find_id(abi::kGroupedFormats, s.format)) {
            const auto d = oracle::row_split_decode(*g, s.n, s.k, s.payload);
            REQUIRE(d.status == NINFER_OK);
            CHECK(std::vector<std::uint8_t>(d.m.codes.begin(), d.m.codes.end()) == codes);
            for (std::size_t i = 0; i < d.m.scales.size(); ++i) CHECK(abi::load_le16(&scales[2 * i]) == d.m.scales[i]);
        } else if (s.format == NINFER_FORMAT_nvfp4) {
            const auto d = oracle::block_scale_decode(s.n, s.k, v.divisors, s.payload);
            REQUIRE(d.status == NINFER_OK);
            CHECK(d.m.codes == codes);
            CHECK(d.m.scales == scales);
            REQUIRE(divisors.size() == 4 * d.m.divisors.size());
        } else {
            const auto d = oracle::fp8_row_decode(*oracle::fp8_row_format(s.format), s.n, s.k, s.payload);
            REQUIRE(d.status == NINFER_OK);
            CHECK(d.m.codes == codes);
            for (std::size_t i = 0; i < d.m.scales.size(); ++i) CHECK(abi::load_le16(&scales[2 * i]) == d.m.scales[i]);
        }
        // One broken field at a time: cuda_device's refusal equals the oracle's (status and detail).
        std::vector<Sample> broken;
        auto with = [&](auto edit) {
            Sample b = s;
            edit(b.payload);
            broken.push_back(std::move(b));
        };
        if (const auto *g = abi::find_id(abi::kGroupedFormats, s.format)) {
            const auto geo = *oracle::row_split_geometry(*g, s.n, s.k);
            // q2's scale role takes every finite word (both zeros, no zero-scale rule); its code 0 is word 1.
            const bool q2 = g->scale_role == NINFER_ROLE_q2_fp16_scale;
            if (!q2) with([&](auto &p) { oracle::corrupt_scale_word(geo, p, 1, 0, 0x8000); });   // -0 scale
            with([&](auto &p) { oracle::corrupt_scale_word(geo, p, 2, 1, 0x7C00); });   // infinite scale
            if (geo.groups_per_row > geo.logical_groups)
                with([&](auto &p) { oracle::corrupt_scale_word(geo, p, 0, geo.groups_per_row - 1, 0x3C00); });  // padding group
            with([&](auto &p) { oracle::corrupt_padding_lane(*g, geo, s.k, p, 1, geo.logical_groups - 1, g->group - 1, q2 ? 2 : 1); });
            if (!q2) with([&](auto &p) { oracle::corrupt_scale_word(geo, p, 0, 1, 0x0000); });   // +0 scale over nonzero codes
            if (g->illegal_word >= 0) with([&](auto &p) { oracle::corrupt_code_word(*g, geo, p, 2, 0, 5, static_cast<std::uint32_t>(g->illegal_word)); });
            for (const auto gap : oracle::row_split_gaps(geo))
                if (gap.end > gap.begin) with([&](auto &p) { oracle::corrupt_gap_byte(geo, p, gap.end - 1, 0x40); });
        } else if (s.format == NINFER_FORMAT_nvfp4) {
            const std::uint64_t scales_at = s.n * s.k / 2, divisors_at = scales_at + s.n * s.k / 16;
            with([&](auto &p) { p[scales_at + 7] = 0x80; });   // -0 block scale
            with([&](auto &p) { p[scales_at + 600] = 0x7F; });  // NaN block scale
            with([&](auto &p) { p[scales_at + 9] = 0xC0; });   // negative block scale
            with([&](auto &p) { p[divisors_at + 3] = 0x80; });  // divisor -1 (sign set)
            with([&](auto &p) { std::fill(p.begin() + divisors_at, p.begin() + divisors_at + 4, 0); });  // divisor +0
        } else {
            const bool interleaved = s.format == NINFER_FORMAT_fp8_e4m3fn_row_fp16;
            const std::uint64_t scale0 = interleaved ? s.k : (s.n * s.k + 255) / 256 * 256;
            with([&](auto &p) { p[s.k + 4] = 0x7F; });  // illegal code, row 1
            with([&](auto &p) { p[scale0 + 1] |= 0x80; });  // negative multiplier, row 0
            with([&](auto &p) { p[scale0] = 0; p[scale0 + 1] = 0; p[0] = 0x01; });  // +0 multiplier over a nonzero code
            if (!interleaved) with([&](auto &p) { p[s.n * s.k] = 1; });  // gap byte
        }
        for (std::size_t i = 0; i < broken.size(); ++i) {
            const Sample &b = broken[i];
            INFO("corruption " << i);
            WeightView bv;
            const auto mine = host_verdict(b, bv);
            const auto theirs = oracle_verdict(b, v.divisors);
            INFO("broken payload: " << mine.message);
            CHECK(theirs.first == NINFER_E_INVALID_PAYLOAD);
            CHECK(mine.status == theirs.first);
            CHECK(mine.detail == theirs.second);
        }
    }
}

TEST_CASE("cuda_device's host-compiled decoders equal the oracle's values on seeded random payloads of every weight format",
          "[cuda_device][tensor][decode][host]") {
    std::mt19937_64 rng(seed());
    std::size_t formats = 0;
    for (const Sample &s : samples(rng)) {
        INFO(abi::format_name(s.format) << " [" << s.n << "," << s.k << "], seed " << seed());
        const auto expected = oracle_values(s);
        const auto host = host_decoder_values(s);
        REQUIRE(host.size() == expected.size());
        std::uint64_t departs = 0;
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i] == expected[i] || (f32_nan(host[i]) && f32_nan(expected[i]))) continue;
            if (departs++ < 4) UNSCOPED_INFO("element " << i << ": oracle " << std::hex << expected[i] << ", host decoder " << host[i] << std::dec);
        }
        CHECK(departs == 0);
        ++formats;
    }
    CHECK(formats == abi::kGroupedFormats.size() + abi::kScaledFormats.size() + abi::kGgufTypes.size());
}

TEST_CASE("grouped_absmax scale boundary: the inputs catch approximate division, and the device rounds them as the oracle",
          "[cuda_device][tensor][encoder]") {
    std::uint64_t approximate_departs = 0, inputs = 0, device_departs = 0;
    const bool device = device_present();
    if (!device) WARN("no CUDA device of sm_90 or newer: the device half of the scale boundary test is skipped");
    for (const auto &g : abi::kGroupedFormats) {
        if (!g.canonical_encoders) continue;
        const std::vector<std::uint32_t> amax = scale_boundary_inputs(g.qmax);
        std::vector<std::uint16_t> expect16(amax.size());
        std::vector<std::uint32_t> expect_inv(amax.size());
        for (std::size_t i = 0; i < amax.size(); ++i) {
            const auto t = oracle::grouped_absmax_group(g, std::span(&amax[i], 1));
            expect16[i] = t.status == NINFER_E_SCALE_OVERFLOW ? 0x7C00u : t.scale16;
            expect_inv[i] = t.status == NINFER_E_SCALE_OVERFLOW ? 0u : t.inv32;
            // What a fast-math build computes instead of the IEEE quotient: amax * RN32(1 / qmax).
            const float approx = std::bit_cast<float>(amax[i]) * (1.0f / static_cast<float>(g.qmax));
            if (std::isfinite(approx) && oracle_scale16(std::bit_cast<std::uint32_t>(approx)) != expect16[i]) ++approximate_departs;
        }
        inputs += amax.size();
        if (!device) continue;
        std::vector<std::uint16_t> got16(amax.size());
        std::vector<std::uint32_t> got_inv(amax.size());
        std::uint32_t *d_amax = nullptr, *d_inv = nullptr;
        std::uint16_t *d_s16 = nullptr;
        REQUIRE(cudaMalloc(reinterpret_cast<void **>(&d_amax), 4 * amax.size()) == cudaSuccess);
        REQUIRE(cudaMalloc(reinterpret_cast<void **>(&d_inv), 4 * amax.size()) == cudaSuccess);
        REQUIRE(cudaMalloc(reinterpret_cast<void **>(&d_s16), 2 * amax.size()) == cudaSuccess);
        REQUIRE(cudaMemcpy(d_amax, amax.data(), 4 * amax.size(), cudaMemcpyHostToDevice) == cudaSuccess);
        REQUIRE(gpu::launch_grouped_scale_probe(d_amax, g.qmax, amax.size(), d_s16, d_inv) == cudaSuccess);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        REQUIRE(cudaMemcpy(got16.data(), d_s16, 2 * amax.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
        REQUIRE(cudaMemcpy(got_inv.data(), d_inv, 4 * amax.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
        cudaFree(d_amax);
        cudaFree(d_inv);
        cudaFree(d_s16);
        for (std::size_t i = 0; i < amax.size(); ++i)
            if (got16[i] != expect16[i] || got_inv[i] != expect_inv[i]) {
                if (device_departs++ < 8)
                    std::printf("  %s amax %08x: scale16 %04x inv32 %08x expected, device %04x %08x\n", std::string(g.name).c_str(),
                                amax[i], expect16[i], expect_inv[i], got16[i], got_inv[i]);
            }
    }
    std::printf("grouped scale boundary: %llu inputs, %llu where amax * RN32(1/qmax) picks another binary16 word\n",
                static_cast<unsigned long long>(inputs), static_cast<unsigned long long>(approximate_departs));
    // A boundary set that approximate division passes could not catch it.
    CHECK(approximate_departs > 0);
    CHECK(device_departs == 0);
}

TEST_CASE("cuda_device quant_decode on the device equals the oracle's values", "[cuda_device][tensor][decode]") {
    const ninfer_plugin *t = device_table();
    if (!t) {
        WARN("no CUDA device: quant_decode on the device not run");
        return;
    }
    std::mt19937_64 rng(seed());
    for (const Sample &s : samples(rng)) {
        INFO(abi::format_name(s.format) << " [" << s.n << "," << s.k << "], seed " << seed());
        const bool gguf = abi::find_id(abi::kGgufTypes, s.format) != nullptr;
        std::vector<Out> outs;
        if (!gguf) outs = {{NINFER_PLANE_CODES, 0, s.n * s.k}, {NINFER_PLANE_SCALES, 0, 4 * s.n * s.k}};
        if (s.format == NINFER_FORMAT_nvfp4) outs.push_back({NINFER_PLANE_DIVISORS, 0, 64});
        outs.push_back({NINFER_PLANE_VALUES, 0, 4 * s.n * s.k});
        const Result r = run(*t, head(NINFER_OP_quant_decode, s.format, s.n, s.k), {{NINFER_PLANE_PAYLOAD, 0, &s.payload}}, outs);
        INFO(r.result.message);
        REQUIRE(r.status == NINFER_OK);
        REQUIRE(r.written(NINFER_PLANE_VALUES) == 4 * s.n * s.k);
        const auto expected = oracle_values(s);
        const auto host = host_decoder_values(s);
        const auto &values = r.buffer(NINFER_PLANE_VALUES);
        std::uint64_t departs = 0, from_host = 0;
        for (std::uint64_t i = 0; i < s.n * s.k; ++i) {
            const std::uint32_t got = word32(values, i);
            // The same decoder source compiled for the host gives the same word (any NaN for a NaN).
            if (got != host[i] && !(f32_nan(got) && f32_nan(host[i])) && from_host++ < 4)
                UNSCOPED_INFO("element " << i << ": host decoder " << std::hex << host[i] << ", device " << got << std::dec);
            if (got == expected[i] || (f32_nan(got) && f32_nan(expected[i]))) continue;
            if (departs++ < 4) UNSCOPED_INFO("element " << i << ": expected " << std::hex << expected[i] << ", device " << got << std::dec);
        }
        CHECK(departs == 0);
        CHECK(from_host == 0);
    }
}

TEST_CASE("cuda_device quant_encode on the device equals the oracle's grouped_absmax and fp8_row_maxabs",
          "[cuda_device][tensor][encoder]") {
    const ninfer_plugin *t = device_table();
    if (!t) {
        WARN("no CUDA device: quant_encode on the device not run");
        return;
    }
    std::mt19937_64 rng(seed());
    const std::uint64_t n = 6, k = 200;
    for (const std::uint32_t src : {NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_FORMAT_fp16}) {
        const std::uint64_t width = src == NINFER_FORMAT_fp32 ? 4 : 2;
        // Rows of varied magnitude: scale boundary words, all-zero groups, subnormal-scale rows.
        std::vector<std::uint8_t> source(n * k * width);
        const std::vector<std::uint32_t> boundary = scale_boundary_inputs(7);
        for (std::uint64_t i = 0; i < n * k; ++i) {
            std::uint32_t w32 = 0;
            const std::uint64_t row = i / k;
            // (the last five boundary words, q4's overflow edge, are left to the refusal below)
            if (row == 0) w32 = boundary[rng() % (boundary.size() - 5)] ^ (rng() % 2 ? 0x80000000u : 0u);
            else if (row == 1 && i % k < 64) w32 = 0;
            else w32 = std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(static_cast<double>(rng() % 2000) - 1000.0,
                                                                                    static_cast<int>(row * 9) - 40)));
            std::uint64_t word = w32;
            if (src != NINFER_FORMAT_fp32) {
                const std::uint32_t conv = src == NINFER_FORMAT_bf16 ? NINFER_CONVERSION_fp32_to_bf16_rne : NINFER_CONVERSION_fp32_to_fp16_rne;
                word = oracle::convert_word(oracle::conversion(conv), w32);
                if ((word & (src == NINFER_FORMAT_bf16 ? 0x7F80u : 0x7C00u)) == (src == NINFER_FORMAT_bf16 ? 0x7F80u : 0x7C00u)) word = 0;
            }
            abi::store_le(&source[i * width], word, static_cast<int>(width));
        }
        for (const auto &f : abi::kAllFormats) {
            if (!gpu::device_weight_format(f.id) || f.family == abi::Family::gguf || f.id == NINFER_FORMAT_nvfp4) continue;
            if (const auto *g = abi::find_id(abi::kGroupedFormats, f.id); g && !g->canonical_encoders) {
                // q2, t2: no canonical encoder, grouped_absmax is the wrong method (as the reference answers).
                ninfer_call_v2 c = head(NINFER_OP_quant_encode, f.id, n, k);
                c.format_in = src;
                c.method = NINFER_ENCODER_grouped_absmax;
                INFO(f.name);
                CHECK(run(*t, c, {{NINFER_PLANE_SOURCE, 0, &source}}, {{NINFER_PLANE_PAYLOAD, 0, 1 << 16}}).status == NINFER_E_METHOD);
                continue;
            }
            INFO(f.name << " from " << abi::format_name(src));
            const bool grouped = f.family == abi::Family::grouped;
            std::vector<std::uint8_t> expected;
            if (grouped) {
                const auto e = oracle::grouped_absmax(*abi::find_id(abi::kGroupedFormats, f.id), src, n, k, source);
                REQUIRE(e.status == NINFER_OK);
                expected = oracle::row_split_encode(*abi::find_id(abi::kGroupedFormats, f.id), e.m);
            } else {
                const auto rf = *oracle::fp8_row_format(f.id);
                oracle::Fp8RowMatrix m{n, k, {}, {}};
                for (std::uint64_t r = 0; r < n; ++r) {
                    std::vector<std::uint64_t> row(k);
                    for (std::uint64_t c = 0; c < k; ++c) row[c] = abi::load_le(&source[(r * k + c) * width], static_cast<int>(width));
                    const auto e = oracle::fp8_row_maxabs(rf, src, row);
                    REQUIRE(e.status == NINFER_OK);
                    m.codes.insert(m.codes.end(), e.codes.begin(), e.codes.end());
                    m.scales.push_back(e.scale);
                }
                expected = oracle::fp8_row_encode(rf, m);
            }
            ninfer_call_v2 c = head(NINFER_OP_quant_encode, f.id, n, k);
            c.format_in = src;
            c.method = grouped ? NINFER_ENCODER_grouped_absmax : NINFER_ENCODER_fp8_row_maxabs;
            const Result r = run(*t, c, {{NINFER_PLANE_SOURCE, 0, &source}}, {{NINFER_PLANE_PAYLOAD, 0, expected.size() + 16}});
            INFO(r.result.message);
            REQUIRE(r.status == NINFER_OK);
            REQUIRE(r.written(NINFER_PLANE_PAYLOAD) == expected.size());
            const auto &got = r.buffer(NINFER_PLANE_PAYLOAD);
            std::uint64_t departs = 0;
            for (std::size_t b = 0; b < expected.size(); ++b) departs += got[b] != expected[b];
            CHECK(departs == 0);
            // A NaN source value is refused; an overflowing scale is refused.
            std::vector<std::uint8_t> bad = source;
            const std::uint32_t nan_word = src == NINFER_FORMAT_fp32 ? 0x7FC00000u : src == NINFER_FORMAT_bf16 ? 0x7FC0u : 0x7E00u;
            abi::store_le(&bad[5 * width], nan_word, static_cast<int>(width));
            CHECK(run(*t, c, {{NINFER_PLANE_SOURCE, 0, &bad}}, {{NINFER_PLANE_PAYLOAD, 0, expected.size()}}).status == NINFER_E_NONFINITE);
            if (src == NINFER_FORMAT_fp32) {
                bad = source;
                const std::uint32_t huge = std::bit_cast<std::uint32_t>(grouped ? 3.0e9f : 3.0e38f);
                abi::store_le32(&bad[(k + 3) * 4], huge);
                const auto o = run(*t, c, {{NINFER_PLANE_SOURCE, 0, &bad}}, {{NINFER_PLANE_PAYLOAD, 0, expected.size()}});
                // fp16 multipliers overflow at 3e38 / 448; a BF16 multiplier holds it.
                if (grouped || f.id == NINFER_FORMAT_fp8_e4m3fn_row_fp16) CHECK(o.status == NINFER_E_SCALE_OVERFLOW);
            }
        }
    }
}

TEST_CASE("cuda_device linear (f32_accumulate, gguf_q8_1_f32) on the device within the forward error bound of the exact result",
          "[cuda_device][tensor][linear]") {
    const ninfer_plugin *t = device_table();
    if (!t) {
        WARN("no CUDA device: linear on the device not run");
        return;
    }
    std::mt19937_64 rng(seed());
    const std::uint64_t m = 3;
    const auto &fp32 = oracle::word_format(NINFER_FORMAT_fp32);
    for (const Sample &s : samples(rng)) {
        std::vector<std::pair<std::uint32_t, std::uint32_t>> runs = {{NINFER_PROFILE_f32_accumulate, NINFER_FORMAT_fp32},
                                                                     {NINFER_PROFILE_f32_accumulate, NINFER_FORMAT_bf16},
                                                                     {NINFER_PROFILE_f32_accumulate, NINFER_FORMAT_fp16}};
        if (abi::find_id(abi::kGgufTypes, s.format)) runs.push_back({NINFER_PROFILE_gguf_q8_1_f32, NINFER_FORMAT_fp32});
        for (const auto &[profile, act] : runs) {
            INFO(abi::format_name(s.format) << " [" << s.n << "," << s.k << "] x " << abi::format_name(act) << ", profile "
                                             << profile << ", seed " << seed());
            const std::uint64_t width = act == NINFER_FORMAT_fp32 ? 4 : 2;
            std::vector<std::uint8_t> x(m * s.k * width);
            std::vector<oracle::Rational> xv(m * s.k);
            for (std::uint64_t i = 0; i < m * s.k; ++i) {
                const std::uint16_t h = moderate_half(rng, false);  // a binary16 value: exact in every activation format
                const std::uint64_t word = act == NINFER_FORMAT_fp16 ? h : oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp16_to_fp32), h);
                const std::uint64_t stored = act == NINFER_FORMAT_bf16 ? oracle::convert_word(oracle::conversion(NINFER_CONVERSION_fp32_to_bf16_rne), word) : word;
                abi::store_le(&x[i * width], stored, static_cast<int>(width));
                const std::uint64_t as32 = act == NINFER_FORMAT_bf16 ? stored << 16 : act == NINFER_FORMAT_fp16 ? word : stored;
                xv[i] = oracle::exact_word_value(fp32, as32);
            }
            if (profile == NINFER_PROFILE_gguf_q8_1_f32) {
                // The activation as ggml's quantize_row_q8_1_ref gives it: binary16 d times the int8 code.
                const auto *q8_1 = abi::find_id(abi::kGgufTypes, NINFER_FORMAT_gguf_q8_1);
                for (std::uint64_t b = 0; b < m * s.k / 32; ++b) {
                    std::vector<std::uint32_t> words(32);
                    for (std::uint64_t j = 0; j < 32; ++j) words[j] = word32(x, 32 * b + j);
                    const auto q = oracle::gguf_quantize_block_ref(*q8_1, words);
                    REQUIRE(q.status == NINFER_OK);
                    const oracle::Rational d16 =
                        oracle::exact_word_value(oracle::word_format(NINFER_FORMAT_fp16), q.block[0] | q.block[1] << 8);
                    for (std::uint64_t j = 0; j < 32; ++j) xv[32 * b + j] = d16 * static_cast<std::int8_t>(q.block[4 + j]);
                }
            }
            // W_hat: the oracle's binary32 words (nvfp4: the exact rational e2m1 * e4m3 / d_w).
            const auto values = oracle_values(s);
            std::vector<oracle::Rational> w(s.n * s.k);
            if (s.format == NINFER_FORMAT_nvfp4) {
                const std::uint64_t divisors = (s.payload.size() - s.n * s.k / 2 - s.n * s.k / 16) / 4;
                const auto d = oracle::block_scale_decode(s.n, s.k, divisors, s.payload);
                for (std::uint64_t i = 0; i < s.n * s.k; ++i)
                    w[i] = oracle::nvfp4_exact_weight(d.m.codes[i], d.m.scales[(i / s.k) * (s.k / 16) + (i % s.k) / 16],
                                                      d.m.divisors[(i / s.k) / (s.n / divisors)]);
            } else {
                for (std::uint64_t i = 0; i < s.n * s.k; ++i) w[i] = oracle::exact_word_value(fp32, values[i]);
            }
            ninfer_call_v2 c = head(NINFER_OP_linear, s.format, s.n, s.k);
            c.count = m;
            c.profile = profile;
            const Result r = run(*t, c, {{NINFER_PLANE_PAYLOAD, 0, &s.payload}, {NINFER_PLANE_ACTIVATION, act, &x}},
                                 {{NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, 4 * m * s.n}});
            INFO(r.result.message);
            REQUIRE(r.status == NINFER_OK);
            REQUIRE(r.written(NINFER_PLANE_OUTPUT) == 4 * m * s.n);
            const auto &y = r.buffer(NINFER_PLANE_OUTPUT);
            std::uint64_t outside = 0;
            const oracle::Rational u = oracle::Rational(1) / oracle::Rational(1 << 24);
            for (std::uint64_t row = 0; row < m; ++row)
                for (std::uint64_t n = 0; n < s.n; ++n) {
                    oracle::Rational exact = 0, sum_abs = 0;
                    for (std::uint64_t k = 0; k < s.k; ++k) {
                        const oracle::Rational p = w[n * s.k + k] * xv[row * s.k + k];
                        exact += p;
                        sum_abs += p < 0 ? oracle::Rational(-p) : p;
                    }
                    const std::uint32_t got = word32(y, row * s.n + n);
                    if ((got & 0x7F800000u) == 0x7F800000u) {
                        ++outside;
                        continue;
                    }
                    oracle::Rational err = oracle::exact_word_value(fp32, got) - exact;
                    if (err < 0) err = -err;
                    if (err > oracle::Rational(static_cast<long>(s.k + 2)) * u * sum_abs && outside++ < 4)
                        UNSCOPED_INFO("row " << row << ", column " << n << ": device " << std::hex << got << std::dec);
                }
            CHECK(outside == 0);
        }
    }
    // Refusals in the contract's order.
    const auto all = samples(rng);
    const auto q8_at = std::find_if(all.begin(), all.end(), [](const Sample &x) { return x.format == NINFER_FORMAT_q8_g32_fp16; });
    REQUIRE(q8_at != all.end());
    const Sample &q8 = *q8_at;
    std::vector<std::uint8_t> x(4 * q8.k, 0);
    auto linear = [&](ninfer_call_v2 c, const std::vector<std::uint8_t> &payload, std::uint32_t act, std::uint64_t out_bytes) {
        return run(*t, c, {{NINFER_PLANE_PAYLOAD, 0, &payload}, {NINFER_PLANE_ACTIVATION, act, &x}},
                   {{NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, out_bytes}}).status;
    };
    ninfer_call_v2 c = head(NINFER_OP_linear, q8.format, q8.n, q8.k);
    c.count = 1;
    c.profile = NINFER_PROFILE_f32_accumulate;
    CHECK(linear(c, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_OK);
    ninfer_call_v2 bad = c;
    bad.layout = NINFER_LAYOUT_contiguous_le_v1;
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_LAYOUT);
    bad = c;
    bad.rank = 3;
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_INVALID_ARGUMENT);
    bad = c;
    bad.count = 0;
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_SIZE);
    bad = c;
    bad.profile = NINFER_PROFILE_f32_sequential;
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_UNSUPPORTED);
    bad.profile = 0;
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_UNSUPPORTED);
    bad.profile = NINFER_PROFILE_gguf_q8_1_f32;  // not a GGUF weight
    CHECK(linear(bad, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_UNSUPPORTED);
    CHECK(linear(c, q8.payload, NINFER_FORMAT_int32, 4 * q8.n) == NINFER_E_UNSUPPORTED);
    CHECK(linear(c, q8.payload, NINFER_FORMAT_bf16, 4 * q8.n) == NINFER_E_SIZE);  // 4*K bytes are not K bf16 words
    CHECK(linear(c, q8.payload, NINFER_FORMAT_fp32, 4 * q8.n - 1) == NINFER_E_SIZE);
    std::vector<std::uint8_t> shorter(q8.payload.begin(), q8.payload.end() - 1);
    CHECK(linear(c, shorter, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_SIZE);
    std::vector<std::uint8_t> illegal = q8.payload;
    illegal[0] = 0x80;
    CHECK(linear(c, illegal, NINFER_FORMAT_fp32, 4 * q8.n) == NINFER_E_INVALID_PAYLOAD);
}

TEST_CASE("cuda_device without a device refuses every tensor op as unsupported, naming why", "[cuda_device][tensor]") {
    const ninfer_plugin *t = plugin_entry()(NINFER_ABI_VERSION);
    REQUIRE(t != nullptr);
    if (device_table()) {
        SUCCEED("a device is present: covered by the device tests");
        return;
    }
    std::mt19937_64 rng(seed());
    const Sample s = samples(rng).front();
    std::vector<std::uint8_t> x(4 * s.k, 0);
    ninfer_call_v2 c = head(NINFER_OP_linear, s.format, s.n, s.k);
    c.count = 1;
    c.profile = NINFER_PROFILE_f32_accumulate;
    const Result lin = run(*t, c, {{NINFER_PLANE_PAYLOAD, 0, &s.payload}, {NINFER_PLANE_ACTIVATION, NINFER_FORMAT_fp32, &x}},
                           {{NINFER_PLANE_OUTPUT, NINFER_FORMAT_fp32, 4 * s.n}});
    CHECK(lin.status == NINFER_E_UNSUPPORTED);
    CHECK(std::string_view(lin.result.message).find("no CUDA device") != std::string_view::npos);
    CHECK(lin.written(NINFER_PLANE_OUTPUT) == 0);
    const Result dec = run(*t, head(NINFER_OP_quant_decode, s.format, s.n, s.k), {{NINFER_PLANE_PAYLOAD, 0, &s.payload}},
                           {{NINFER_PLANE_CODES, 0, s.n * s.k}, {NINFER_PLANE_SCALES, 0, 4 * s.n * s.k}, {NINFER_PLANE_VALUES, 0, 4 * s.n * s.k}});
    CHECK(dec.status == NINFER_E_UNSUPPORTED);
    ninfer_call_v2 e = head(NINFER_OP_quant_encode, s.format, s.n, s.k);
    e.format_in = NINFER_FORMAT_fp32;
    e.method = NINFER_ENCODER_grouped_absmax;
    std::vector<std::uint8_t> src(4 * s.n * s.k, 0);
    CHECK(run(*t, e, {{NINFER_PLANE_SOURCE, 0, &src}}, {{NINFER_PLANE_PAYLOAD, 0, s.payload.size()}}).status == NINFER_E_UNSUPPORTED);
}
