// SPDX-License-Identifier: Apache-2.0
// The cuda_device plugin through the plugin ABI (plugin.h, v2), loaded with dlopen as the harness's
// worker loads it. Without a CUDA device: the table declares no capability, says "no CUDA
// device", and a call is refused as unsupported. With a device: buffer checks as the reference
// plugin's, then every declared conversion over whole 8/16-bit domains and the FP32 boundary set
// (plus seeded random words: NINFER_SEED, NINFER_CUDA_DEVICE_INPUTS) against the MPFR oracle,
// every departure classified and printed (gpu/README.md "cuda-device").
#include <dlfcn.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fp32_inputs.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/plugin.h"
#include "departure_survey.hpp"
#include "ninfer/oracle/scalar.hpp"
#include "v2_call.hpp"

namespace {

using namespace ninfer;
using namespace ninfer::gpu_tests;

/// The plugin's entry, loaded once per test program (RTLD_LOCAL, as the worker does).
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

/// The plugin's table, as a harness of this ABI version gets it.
const ninfer_plugin *plugin_table() { return plugin_entry()(NINFER_ABI_VERSION); }

bool no_device(const ninfer_plugin &t) { return std::string_view(t.version).find("no CUDA device") != std::string_view::npos; }

/// One word op through the table: `count` words of `in` on the input plane `words`, an output
/// plane (`values` for decode, `words` for convert) of `out_capacity` bytes. `out` holds the
/// output plane's whole buffer (0xCD where nothing was written), `written` its written size.
struct Outcome {
    std::int32_t status = 0;
    std::vector<std::uint8_t> out;
    std::uint64_t written = 0;
    ninfer_result result{};
};

Outcome call(const ninfer_plugin &t, std::uint32_t op, std::uint32_t format, std::uint32_t format_in,
             std::uint32_t method, const std::vector<std::uint8_t> &in, std::uint64_t count, std::uint64_t out_capacity) {
    ninfer_call c = testing::v2_head(op, format, format_in, 0, method);
    c.count = count;
    const std::uint32_t out_plane = testing::op_planes(op).out.at(0);
    const testing::V2Outcome v = testing::call_v2(t, c, in, out_capacity);
    return {v.status, v.buffer(out_plane), v.written(out_plane), v.result};
}

std::vector<std::uint8_t> pack(const std::vector<std::uint64_t> &words, int bytes) {
    std::vector<std::uint8_t> out;
    for (const auto w : words) abi::append_le(out, w, bytes);
    return out;
}

std::uint64_t unpack(const std::vector<std::uint8_t> &buf, std::size_t i, int bytes) {
    return abi::load_le(&buf[i * bytes], bytes);
}

/// Every word of a source of at most 16 bits (by byte: E2M1 bytes above 0xF included), else the
/// FP32 boundary set of the reference cross-check plus seeded random words up to `fp32_total`.
std::vector<std::uint64_t> inputs_of(const oracle::Conversion &c, std::uint64_t fp32_total) {
    const auto &sf = oracle::word_format(c.src);
    std::vector<std::uint64_t> inputs;
    if (sf.bits <= 16) {
        for (std::uint64_t w = 0; w < (1ull << (8 * sf.bytes())); ++w) inputs.push_back(w);
        return inputs;
    }
    std::uint64_t midpoints = 0;
    auto words = testing::boundary_inputs(oracle::word_format(c.dst), midpoints);
    testing::add_random(words, std::max<std::uint64_t>(fp32_total, words.size()), oracle::word_format(c.dst),
                        env_or("NINFER_SEED", 20261129) + c.id);
    inputs.assign(words.begin(), words.end());
    return inputs;
}

}  // namespace

TEST_CASE("cuda_device loads through the ABI and declares capabilities only with a device", "[cuda_device]") {
    const ninfer_plugin *t = plugin_table();
    REQUIRE(t != nullptr);
    CHECK(t->abi_version == 2);
    CHECK(t->struct_size == sizeof(ninfer_plugin));
    CHECK(t->capability_size == sizeof(ninfer_capability));
    CHECK(plugin_entry()(1) == nullptr);  // a v1 harness gets no table
    CHECK(std::string_view(t->name) == "cuda_device");
    REQUIRE(t->version != nullptr);
    std::printf("cuda_device version: %s\n", t->version);
    REQUIRE(t->ops[NINFER_OP_convert - 1] != nullptr);
    REQUIRE(t->ops[NINFER_OP_decode - 1] != nullptr);
    REQUIRE(t->ops[NINFER_OP_quant_decode - 1] != nullptr);
    REQUIRE(t->ops[NINFER_OP_quant_encode - 1] != nullptr);
    REQUIRE(t->ops[NINFER_OP_linear - 1] != nullptr);
    if (no_device(*t)) {
        CHECK(t->capability_count == 0);
        const std::vector<std::uint64_t> one = {0x3F800000};
        const Outcome conv = call(*t, NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32,
                                  NINFER_CONVERSION_fp32_to_bf16_rne, pack(one, 4), 1, 2);
        CHECK(conv.status == NINFER_E_UNSUPPORTED);
        CHECK(std::string_view(conv.result.message).find("no CUDA device") != std::string_view::npos);
        CHECK(conv.written == 0);
        const Outcome dec = call(*t, NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, pack({0x3F80}, 2), 1, 8);
        CHECK(dec.status == NINFER_E_UNSUPPORTED);
        return;
    }
    // With a device: decode of bf16, fp16, e4m3fn, e5m2, e2m1 and 13 conversions, then the tensor
    // ops (test_cuda_device_tensor.cpp): quant_decode and linear (f32_accumulate; gguf_q8_1_f32 for
    // GGUF) of every weight format, quant_encode from fp32 / bf16 / fp16 of q4/q5/q6/q8 and the FP8 row formats.
    std::uint32_t words = 0, decodes = 0, linears = 0, encodes = 0;
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        const ninfer_capability &cap = t->capabilities[i];
        INFO("capability " << i);
        if (cap.op == NINFER_OP_linear) {
            ++linears;
            const bool gguf = abi::find_id(abi::kGgufTypes, cap.format) != nullptr;
            CHECK((cap.profile == NINFER_PROFILE_f32_accumulate || (gguf && cap.profile == NINFER_PROFILE_gguf_q8_1_f32)));
            continue;
        }
        CHECK(cap.profile == 0);
        if (cap.op == NINFER_OP_quant_decode) ++decodes;
        if (cap.op == NINFER_OP_quant_encode) ++encodes;
        if (cap.op == NINFER_OP_quant_decode || cap.op == NINFER_OP_quant_encode) continue;
        ++words;
        if (cap.op == NINFER_OP_convert) {
            const auto *conv = oracle::find_id(oracle::kConversions, cap.method);
            REQUIRE(conv != nullptr);
            CHECK(cap.format == conv->dst);
            CHECK(cap.format_in == conv->src);
        } else {
            CHECK(cap.op == NINFER_OP_decode);
        }
    }
    CHECK(words == 18);
    CHECK(decodes == 6 + 3 + 27);  // the six row-split grouped formats; nvfp4 and the FP8 rows; the 27 GGUF types
    CHECK(linears == decodes + 27);  // f32_accumulate for each, gguf_q8_1_f32 for the GGUF types
    CHECK(encodes == (4 + 2) * 3);   // grouped_absmax of q4 q5 q6 q8 (q2 and t2 have no encoder), fp8_row_maxabs
}

TEST_CASE("cuda_device checks its buffers like the reference plugin", "[cuda_device]") {
    const ninfer_plugin *t = plugin_table();
    REQUIRE(t != nullptr);
    if (no_device(*t)) {
        WARN("no CUDA device, buffer checks not run: " << t->version);
        return;
    }
    const auto in4 = pack({0x3F800000, 0x40000000}, 4);
    const auto convert = [&](std::uint32_t conv, std::uint32_t dst, const std::vector<std::uint8_t> &in,
                             std::uint64_t count, std::uint64_t cap) {
        return call(*t, NINFER_OP_convert, dst, NINFER_FORMAT_fp32, conv, in, count, cap);
    };
    CHECK(convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, in4, 2, 4).status == NINFER_OK);
    CHECK(convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, in4, 3, 6).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, in4, 2, 3).status == NINFER_E_BUFFER);
    CHECK(convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, in4, ~0ull / 2, 4).status == NINFER_E_SIZE);
    CHECK(convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_fp16, in4, 2, 4).status == NINFER_E_INVALID_ARGUMENT);
    CHECK(convert(NINFER_CONVERSION_fp32_to_ue4m3_rnu_satfinite, NINFER_FORMAT_ue4m3, in4, 2, 2).status ==
          NINFER_E_UNSUPPORTED);
    const Outcome empty = convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, {}, 0, 0);
    CHECK(empty.status == NINFER_OK);
    CHECK(empty.written == 0);
    const Outcome two = convert(NINFER_CONVERSION_fp32_to_bf16_rne, NINFER_FORMAT_bf16, in4, 2, 8);
    REQUIRE(two.status == NINFER_OK);
    CHECK(two.written == 4);
    CHECK(unpack(two.out, 0, 2) == 0x3F80);  // 1.0 and 2.0 are exact in bf16 (tensor-formats.txt 3.1)
    CHECK(unpack(two.out, 1, 2) == 0x4000);
    CHECK(unpack(two.out, 2, 2) == 0xCDCD);  // nothing written past `written`
    CHECK(call(*t, NINFER_OP_decode, NINFER_FORMAT_bf16, 0, 0, pack({0x3F80}, 2), 1, 7).status == NINFER_E_BUFFER);
    // Planes by name: a convert offering its output as `values` lacks the `words` output plane.
    ninfer_call c = testing::v2_head(NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0,
                                     NINFER_CONVERSION_fp32_to_bf16_rne);
    c.count = 2;
    const auto missing = testing::call_v2(*t, c, {{NINFER_PLANE_WORDS, in4}}, {{NINFER_PLANE_VALUES, 4}});
    CHECK(missing.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(missing.message().find("`words`") != std::string::npos);
}

TEST_CASE("cuda_device conversions against the oracle, departures printed", "[cuda_device][survey]") {
    const ninfer_plugin *t = plugin_table();
    REQUIRE(t != nullptr);
    if (no_device(*t)) {
        WARN("no CUDA device, device survey not run: " << t->version);
        return;
    }
    const std::uint64_t total = env_or("NINFER_CUDA_DEVICE_INPUTS", 1000000);
    std::printf("cuda_device survey on %s: seed=%llu (include this in bug reports), %llu fp32 inputs per conversion\n",
                t->version, static_cast<unsigned long long>(env_or("NINFER_SEED", 20261129)),
                static_cast<unsigned long long>(total));
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        const ninfer_capability &cap = t->capabilities[i];
        if (cap.op != NINFER_OP_convert) continue;
        const oracle::Conversion &c = *oracle::find_id(oracle::kConversions, cap.method);
        Survey s("convert." + std::string(c.name), "device");
        INFO(s.rule);
        const int ib = oracle::word_format(c.src).bytes(), ob = oracle::word_format(c.dst).bytes();
        const std::vector<std::uint64_t> inputs = inputs_of(c, total);
        const Outcome o = call(*t, NINFER_OP_convert, c.dst, c.src, c.id, pack(inputs, ib), inputs.size(), inputs.size() * ob);
        INFO(o.result.message);
        REQUIRE(o.status == NINFER_OK);
        REQUIRE(o.written == inputs.size() * ob);
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            ++s.inputs;
            const std::uint64_t expected = oracle::convert_word(c, inputs[k]);
            const std::uint64_t actual = unpack(o.out, k, ob);
            if (!oracle::conversion_accepts(c, inputs[k], expected, actual))
                s.add(classify_departure(c, inputs[k], expected), inputs[k], expected, actual);
        }
        s.print();
        // A finite, in-range input rounded differently from the spec is a rounding bug, not a policy.
        CHECK(s.by_kind[kOther] == 0);
        CHECK(s.by_kind[kTie] == 0);
    }
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        const ninfer_capability &cap = t->capabilities[i];
        if (cap.op != NINFER_OP_decode) continue;
        const oracle::WordFormat &f = oracle::word_format(cap.format);
        Survey s("decode." + std::string(f.name), "device");
        INFO(s.rule);
        std::vector<std::uint64_t> words;
        for (std::uint64_t w = 0; w < (1ull << (8 * f.bytes())); ++w) words.push_back(w);
        const Outcome o = call(*t, NINFER_OP_decode, f.id, 0, 0, pack(words, f.bytes()), words.size(), words.size() * 8);
        INFO(o.result.message);
        REQUIRE(o.status == NINFER_OK);
        for (std::size_t k = 0; k < words.size(); ++k) {
            ++s.inputs;
            const std::uint64_t expected = oracle::decode_to_binary64(f, words[k]);
            const std::uint64_t actual = unpack(o.out, k, 8);
            if (expected == actual) continue;
            s.add(words[k] > f.mask() ? kOutside : abi::class_is_nan(oracle::word_class_byte(f, words[k])) ? kNanInput : kOther,
                  words[k], expected, actual);
        }
        s.print();
        CHECK(s.by_kind[kOther] == 0);
    }
}
