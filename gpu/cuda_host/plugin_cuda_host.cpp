// SPDX-License-Identifier: Apache-2.0
// Plugin "cuda_host" (plugin.h): NVIDIA's conversions and widenings compiled for the host,
// declared only where NVIDIA offers them (cuda_host_codecs.hpp). The suite measures it against
// the spec; gpu/README.md records where it departs.
#include <cstdio>
#include <vector>

#include "cuda_host_codecs.hpp"
#include "ninfer/abi/registry.hpp"
#include "word_plugin.hpp"

using ninfer::gpu::word_capabilities;
using ninfer::gpu::word_plugin_table;

namespace {

using namespace ninfer;

std::int32_t refuse(ninfer_result *r, std::int32_t status, const char *message) {
    std::snprintf(r->message, sizeof r->message, "%s", message);
    return status;
}

std::uint64_t load(const void *buf, std::uint64_t i, int bytes) {
    const auto *p = static_cast<const std::uint8_t *>(buf) + i * bytes;
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);
    return v;
}

void store(void *buf, std::uint64_t i, int bytes, std::uint64_t v) {
    auto *p = static_cast<std::uint8_t *>(buf) + i * bytes;
    for (int b = 0; b < bytes; ++b) p[b] = static_cast<std::uint8_t>(v >> (8 * b));
}

/// count words of in_width bytes in, as many of out_width bytes fit out; else the status.
std::int32_t check_words(const ninfer_call *c, ninfer_result *r, int in_width, int out_width) {
    std::uint64_t need_in = 0, need_out = 0;
    if (__builtin_mul_overflow(c->count, static_cast<std::uint64_t>(in_width), &need_in) ||
        __builtin_mul_overflow(c->count, static_cast<std::uint64_t>(out_width), &need_out))
        return refuse(r, NINFER_E_SIZE, "count overflows the buffer size");
    if (c->in_bytes != need_in || (need_in && !c->in))
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "in_bytes is not count x input word bytes");
    if (c->out_bytes < need_out || (need_out && !c->out)) return refuse(r, NINFER_E_BUFFER, "out too small");
    return NINFER_OK;
}

std::int32_t op_convert(void *, const ninfer_call *c, ninfer_result *r) {
    if (!c || !r || c->struct_size < sizeof(ninfer_call)) return NINFER_E_INVALID_ARGUMENT;
    const auto *conv = abi::find_id(abi::kConversions, c->method);
    if (!conv || !gpu::cuda_host_has_conversion(c->method))
        return refuse(r, NINFER_E_UNSUPPORTED, "NVIDIA's headers offer no such conversion");
    if (c->format != conv->dst || c->format_in != conv->src)
        return refuse(r, NINFER_E_INVALID_ARGUMENT, "formats do not match the conversion");
    const int ib = abi::find_id(abi::kWordFormats, conv->src)->bytes();
    const int ob = abi::find_id(abi::kWordFormats, conv->dst)->bytes();
    if (const std::int32_t s = check_words(c, r, ib, ob); s != NINFER_OK) return s;
    for (std::uint64_t i = 0; i < c->count; ++i) store(c->out, i, ob, gpu::cuda_host_convert(c->method, load(c->in, i, ib)));
    r->out_written = c->count * static_cast<std::uint64_t>(ob);
    return NINFER_OK;
}

std::int32_t op_decode(void *, const ninfer_call *c, ninfer_result *r) {
    if (!c || !r || c->struct_size < sizeof(ninfer_call)) return NINFER_E_INVALID_ARGUMENT;
    const auto *f = abi::find_id(abi::kWordFormats, c->format);
    if (!f || !gpu::cuda_host_has_decode(c->format))
        return refuse(r, NINFER_E_UNSUPPORTED, "NVIDIA's headers offer no widening of this format");
    if (const std::int32_t s = check_words(c, r, f->bytes(), 8); s != NINFER_OK) return s;
    for (std::uint64_t i = 0; i < c->count; ++i)
        store(c->out, i, 8, gpu::cuda_host_decode(c->format, load(c->in, i, f->bytes())));
    r->out_written = 8 * c->count;
    return NINFER_OK;
}

std::vector<ninfer_capability> capabilities() {
    return word_capabilities([](std::uint32_t f) { return gpu::cuda_host_has_decode(f); },
                             [](std::uint32_t c) { return gpu::cuda_host_has_conversion(c); });
}

}  // namespace

extern "C" NINFER_EXPORT const ninfer_plugin *ninfer_plugin_entry(std::uint32_t harness_abi) {
    if (harness_abi != NINFER_ABI_VERSION) return nullptr;
    static const std::vector<ninfer_capability> caps = capabilities();
    static const ninfer_plugin table = word_plugin_table("cuda_host", "0.1.0", caps, &op_decode, &op_convert);
    return &table;
}
