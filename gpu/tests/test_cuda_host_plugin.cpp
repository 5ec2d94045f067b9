// SPDX-License-Identifier: Apache-2.0
// The cuda_host plugin through the plugin ABI (plugin.h, v2), loaded with dlopen as the harness's
// worker loads it: negotiation, identity, word calls on named planes with the reference plugin's
// buffer checks, and results that agree with NVIDIA's host codecs (cuda_host_codecs.hpp) word
// for word. Needs no GPU.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_host_codecs.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/abi/plugin.h"
#include "v2_call.hpp"

namespace {

using namespace ninfer;

ninfer_plugin_entry_fn plugin_entry() {
    static const ninfer_plugin_entry_fn entry = [] {
        void *lib = ::dlopen(NINFER_CUDA_HOST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
        if (!lib) FAIL("cannot load " NINFER_CUDA_HOST_PLUGIN ": " << ::dlerror());
        auto e = reinterpret_cast<ninfer_plugin_entry_fn>(::dlsym(lib, NINFER_PLUGIN_ENTRY_SYMBOL));
        if (!e) FAIL(NINFER_CUDA_HOST_PLUGIN " exports no " NINFER_PLUGIN_ENTRY_SYMBOL);
        return e;
    }();
    return entry;
}

}  // namespace

TEST_CASE("cuda_host serves ABI 2 and declares v2 capabilities", "[cuda_host][abi]") {
    CHECK(plugin_entry()(1) == nullptr);
    const ninfer_plugin *t = plugin_entry()(2);
    REQUIRE(t != nullptr);
    CHECK(t->abi_version == 2);
    CHECK(t->struct_size == sizeof(ninfer_plugin_v2));
    CHECK(t->capability_size == sizeof(ninfer_capability_v2));
    CHECK(std::string_view(t->name) == "cuda_host");
    REQUIRE(t->capability_count > 0);
    for (std::uint32_t i = 0; i < t->capability_count; ++i) {
        const auto &cap = t->capabilities[i];
        INFO("capability " << i);
        CHECK(cap.profile == 0);
        const auto *scaled = abi::find_id(abi::kScaledFormats, cap.format);
        if (cap.op == NINFER_OP_convert)
            CHECK(gpu::cuda_host_has_conversion(cap.method));
        else if (cap.op == NINFER_OP_quant_decode)  // the scaled formats, each in its own layout
            CHECK((scaled && cap.layout == scaled->layout));
        else if (cap.op == NINFER_OP_quant_encode)  // fp8_row_maxabs of the FP8 row formats
            CHECK((scaled && cap.layout == scaled->layout && cap.method == NINFER_ENCODER_fp8_row_maxabs &&
                   scaled->encoder == cap.method));
        else
            CHECK((cap.op == NINFER_OP_decode && gpu::cuda_host_has_decode(cap.format)));
    }
}

TEST_CASE("cuda_host word calls on named planes", "[cuda_host][abi]") {
    const ninfer_plugin &t = *plugin_entry()(2);
    // fp32 -> bf16: 1.0, 2.0 and 1 + 2^-8 (a tie, to even: 1.0), NVIDIA's words word for word.
    const std::vector<std::uint8_t> in = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x80, 0x80, 0x3F};
    ninfer_call c = testing::v2_head(NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0,
                                     NINFER_CONVERSION_fp32_to_bf16_rne);
    c.count = 3;
    const auto ok = testing::call_v2(t, c, in, 8);
    INFO(ok.message());
    REQUIRE(ok.status == NINFER_OK);
    REQUIRE(ok.written(NINFER_PLANE_WORDS) == 6);
    const auto out = ok.out(NINFER_PLANE_WORDS);
    for (std::size_t i = 0; i < 3; ++i) {
        const std::uint64_t src = abi::load_le32(&in[4 * i]);
        CHECK(abi::load_le16(&out[2 * i]) == gpu::cuda_host_convert(NINFER_CONVERSION_fp32_to_bf16_rne, src));
    }
    CHECK(ok.buffer(NINFER_PLANE_WORDS)[6] == 0xCD);  // nothing past `written`
    CHECK(testing::call_v2(t, c, in, 5).status == NINFER_E_BUFFER);
    c.count = 4;
    CHECK(testing::call_v2(t, c, in, 8).status == NINFER_E_INVALID_ARGUMENT);
    c.count = 3;
    const auto missing = testing::call_v2(t, c, {{NINFER_PLANE_WORDS, in}}, {{NINFER_PLANE_VALUES, 8}});
    CHECK(missing.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(missing.message().find("`words`") != std::string::npos);
    // decode of bf16 1.0 into the `values` plane.
    ninfer_call d = testing::v2_head(NINFER_OP_decode, NINFER_FORMAT_bf16);
    d.count = 1;
    const auto dec = testing::call_v2(t, d, {0x80, 0x3F}, 8);
    REQUIRE(dec.status == NINFER_OK);
    CHECK(dec.out(NINFER_PLANE_VALUES) == std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0xF0, 0x3F});
    CHECK(testing::call_v2(t, d, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {}).status == NINFER_E_INVALID_ARGUMENT);
}
