// SPDX-License-Identifier: Apache-2.0
// Plugin "cuda_host" (plugin.h, ABI v2): NVIDIA's conversions and widenings compiled for the host,
// declared only where NVIDIA offers them (cuda_host_codecs.hpp), and the scaled weight formats
// decoded and fp8_row_maxabs-encoded through them (cuda_host_scaled_ops.hpp). The suite measures it against
// the spec; gpu/README.md records where it departs.
#include <cstdio>
#include <vector>

#include "cuda_host_codecs.hpp"
#include "cuda_host_scaled_ops.hpp"
#include "ninfer/abi/bytes.hpp"
#include "ninfer/abi/registry.hpp"
#include "word_plugin.hpp"

using ninfer::gpu::call_readable;
using ninfer::gpu::check_words;
using ninfer::gpu::refuse;
using ninfer::gpu::word_capabilities;
using ninfer::gpu::word_plugin_table;
using ninfer::gpu::WordPlanes;

namespace {

using namespace ninfer;

std::uint64_t load(const void *buf, std::uint64_t i, int bytes) {
    return abi::load_le(static_cast<const std::uint8_t *>(buf) + i * bytes, bytes);
}

void store(void *buf, std::uint64_t i, int bytes, std::uint64_t v) {
    abi::store_le(static_cast<std::uint8_t *>(buf) + i * bytes, v, bytes);
}

std::int32_t op_convert(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !gpu::cuda_host_has_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, "NVIDIA's headers offer no such conversion");
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "formats do not match the conversion");
    const int ib = abi::find_id(abi::kWordFormats, conv->src)->bytes();
    const int ob = abi::find_id(abi::kWordFormats, conv->dst)->bytes();
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_WORDS, ib, ob, p); s != NINFER_OK) return s;
    for (std::uint64_t i = 0; i < c->count; ++i)
        store(p.out->data, i, ob, gpu::cuda_host_convert(c->method, load(p.in->data, i, ib)));
    p.out->written = c->count * static_cast<std::uint64_t>(ob);
    return NINFER_OK;
}

std::int32_t op_decode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!call_readable(c, r)) return NINFER_E_INVALID_ARGUMENT;
    const auto *f = abi::find_id(abi::kWordFormats, c->format);
    if (!f || !gpu::cuda_host_has_decode(c->format))
        return refuse(r, NINFER_E_UNSUPPORTED, "NVIDIA's headers offer no widening of this format");
    WordPlanes p;
    if (const std::int32_t s = check_words(c, r, NINFER_PLANE_VALUES, f->bytes(), 8, p); s != NINFER_OK) return s;
    for (std::uint64_t i = 0; i < c->count; ++i)
        store(p.out->data, i, 8, gpu::cuda_host_decode(c->format, load(p.in->data, i, f->bytes())));
    p.out->written = 8 * c->count;
    return NINFER_OK;
}

std::vector<ninfer_capability> capabilities() {
    auto caps = word_capabilities([](std::uint32_t f) { return gpu::cuda_host_has_decode(f); },
                                  [](std::uint32_t c) { return gpu::cuda_host_has_conversion(c); });
    gpu::append_scaled_capabilities(caps);
    return caps;
}

}  // namespace

// ABI 2 and later get the v2 table; a v1 harness gets NULL (plugin.h, negotiation).
extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    if (harness_abi < 2) return nullptr;
    static const std::vector<ninfer_capability> caps = capabilities();
    static const ninfer_plugin table = [] {
        ninfer_plugin t = word_plugin_table("cuda_host", "0.1.0", caps, &op_decode, &op_convert);
        t.ops[NINFER_OP_quant_decode - 1] = &gpu::cuda_host_quant_decode;
        t.ops[NINFER_OP_quant_encode - 1] = &gpu::cuda_host_quant_encode;
        return t;
    }();
    return &table;
}
