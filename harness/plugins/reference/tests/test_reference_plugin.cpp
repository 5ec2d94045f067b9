// SPDX-License-Identifier: Apache-2.0
// The reference plugin's table (plugin.h): identity, declared capabilities, the defensive
// checks of every call, and contiguous_le_v1 (storage-layouts.md Section 2: bit-exact words,
// size rule, refusal of an unregistered pair and of an implicit cross-type encoding).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "reference_plugin.hpp"

namespace {

using ninfer::reference::reference_table;

struct Outcome {
    std::int32_t status;
    ninfer_result result;
    std::vector<std::uint8_t> out;
};

Outcome call(ninfer_call c, const std::vector<std::uint8_t> &in, std::size_t out_capacity) {
    Outcome o{};
    o.out.assign(out_capacity, 0xCD);
    c.struct_size = sizeof(ninfer_call);
    c.in = in.data();
    c.in_bytes = in.size();
    c.out = o.out.data();
    c.out_bytes = out_capacity;
    const auto &t = reference_table();
    o.status = t.ops[c.op - 1](t.self, &c, &o.result);
    return o;
}

ninfer_call layout_call(std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout,
                        std::vector<std::uint64_t> shape) {
    ninfer_call c{};
    c.op = op;
    c.format = format;
    c.format_in = format_in;
    c.layout = layout;
    c.rank = static_cast<std::uint32_t>(shape.size());
    for (std::size_t i = 0; i < shape.size() && i < NINFER_MAX_RANK; ++i) c.shape[i] = shape[i];
    return c;
}

bool declared(std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout,
              std::uint32_t method) {
    const auto &t = reference_table();
    for (std::uint32_t i = 0; i < t.capability_count; ++i) {
        const auto &c = t.capabilities[i];
        const auto match = [](std::uint32_t declared, std::uint32_t wanted) { return declared == 0 || declared == wanted; };
        if (c.op == op && match(c.format, format) && match(c.format_in, format_in) && match(c.layout, layout) &&
            match(c.method, method))
            return true;
    }
    return false;
}

}  // namespace

TEST_CASE("reference plugin identity and capabilities", "[plugin]") {
    const auto &t = reference_table();
    CHECK(t.abi_version == NINFER_ABI_VERSION);
    CHECK(t.struct_size == sizeof(ninfer_plugin));
    CHECK(std::string(t.name) == "reference");
    CHECK(std::string(t.version) == "0.1.0");
    for (const auto &f : ninfer::oracle::kWordFormats) {
        CHECK(declared(NINFER_OP_decode, f.id, 0, 0, 0));
        CHECK(declared(NINFER_OP_classify, f.id, 0, 0, 0));
    }
    for (const auto &r : ninfer::oracle::kRoles) CHECK(declared(NINFER_OP_validate, r.format, 0, 0, r.id));
    for (const auto &c : ninfer::oracle::kConversions) CHECK(declared(NINFER_OP_convert, c.dst, c.src, 0, c.id));
    for (std::uint32_t f : {NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, NINFER_FORMAT_int32}) {
        CHECK(declared(NINFER_OP_layout_encode, f, f, NINFER_LAYOUT_contiguous_le_v1, 0));
        CHECK(declared(NINFER_OP_layout_decode, f, 0, NINFER_LAYOUT_contiguous_le_v1, 0));
    }
    // Unregistered pairs and cross-type words are declared too: the reference answers them with a refusal.
    CHECK(declared(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_FORMAT_fp16, NINFER_LAYOUT_contiguous_le_v1, 0));
    CHECK(declared(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16, NINFER_LAYOUT_contiguous_le_v1, 0));
    CHECK_FALSE(declared(NINFER_OP_quant_encode, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, 0));
}

TEST_CASE("reference word ops check their buffers", "[plugin]") {
    ninfer_call c{};
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    c.count = 2;
    const std::vector<std::uint8_t> in = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0xC0, 0x7F};
    auto ok = call(c, in, 4);
    REQUIRE(ok.status == NINFER_OK);
    CHECK(ok.result.out_written == 4);
    CHECK(ok.out == std::vector<std::uint8_t>{0x80, 0x3F, 0xC0, 0x7F});
    CHECK(call(c, in, 3).status == NINFER_E_BUFFER);
    c.count = 3;
    CHECK(call(c, in, 6).status == NINFER_E_INVALID_ARGUMENT);
    c.count = 2;
    c.format = NINFER_FORMAT_fp16;
    CHECK(call(c, in, 4).status == NINFER_E_INVALID_ARGUMENT);
    c.format = NINFER_FORMAT_bf16;
    c.method = 999;
    CHECK(call(c, in, 4).status == NINFER_E_UNSUPPORTED);

    ninfer_call d{};
    d.op = NINFER_OP_decode;
    d.format = NINFER_FORMAT_e2m1;
    d.count = 2;
    auto dec = call(d, {0x7, 0x9}, 16);
    REQUIRE(dec.status == NINFER_OK);
    CHECK(dec.result.out_written == 16);
    const std::vector<std::uint8_t> six_and_minus_half = {0, 0, 0, 0, 0, 0, 0x18, 0x40, 0, 0, 0, 0, 0, 0, 0xE0, 0xBF};
    CHECK(dec.out == six_and_minus_half);
    CHECK(call(d, {0x7, 0x9}, 15).status == NINFER_E_BUFFER);

    ninfer_call v{};
    v.op = NINFER_OP_validate;
    v.format = NINFER_FORMAT_fp16;
    v.method = NINFER_ROLE_grouped_fp16_scale;
    v.count = 2;
    auto ver = call(v, {0x00, 0x80, 0x00, 0x3C}, 2);
    REQUIRE(ver.status == NINFER_OK);
    CHECK(ver.out == std::vector<std::uint8_t>{NINFER_VERDICT_NEGATIVE_ZERO, NINFER_VERDICT_VALID});
    v.format = NINFER_FORMAT_bf16;
    CHECK(call(v, {0x00, 0x80, 0x00, 0x3C}, 2).status == NINFER_E_INVALID_ARGUMENT);
}

TEST_CASE("contiguous_le_v1 keeps words bit for bit at every rank", "[plugin][layout]") {
    // NaN payloads, signaling NaN, -0 and subnormals survive (storage-layouts.md 2).
    const std::vector<std::uint8_t> words = {0x01, 0x00, 0x80, 0x7F, 0x00, 0x00, 0x00, 0x80,
                                             0x01, 0x00, 0x00, 0x00, 0x45, 0x23, 0xC1, 0xFF};
    for (std::uint32_t rank = 0; rank <= 16; ++rank) {
        std::vector<std::uint64_t> shape(rank, 1);
        const std::uint64_t n = rank == 0 ? 1 : 4;
        if (rank) shape[rank - 1] = 4;
        const std::vector<std::uint8_t> in(words.begin(), words.begin() + 4 * n);
        auto enc = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_fp32,
                                    NINFER_LAYOUT_contiguous_le_v1, shape),
                        in, 64);
        REQUIRE(enc.status == NINFER_OK);
        REQUIRE(enc.result.out_written == 4 * n);
        CHECK(std::vector<std::uint8_t>(enc.out.begin(), enc.out.begin() + 4 * n) == in);
        auto dec = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_fp32, 0, NINFER_LAYOUT_contiguous_le_v1, shape),
                        in, 64);
        REQUIRE(dec.status == NINFER_OK);
        CHECK(std::vector<std::uint8_t>(dec.out.begin(), dec.out.begin() + 4 * n) == in);
    }
}

TEST_CASE("contiguous_le_v1 refuses what storage-layouts.md 2 and tensor-formats.txt 3.1 refuse", "[plugin][layout]") {
    const std::vector<std::uint8_t> four = {0x80, 0x3F, 0x00, 0x00};
    // Unregistered pair, refused by name.
    auto fp16 = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_FORMAT_fp16,
                                 NINFER_LAYOUT_contiguous_le_v1, {2}),
                     four, 16);
    CHECK(fp16.status == NINFER_E_LAYOUT);
    CHECK(std::string(fp16.result.message).find("fp16") != std::string::npos);
    CHECK(std::string(fp16.result.message).find("contiguous_le_v1") != std::string::npos);
    auto row_scale = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_row_scale_v1, {1, 2}),
                          four, 16);
    CHECK(row_scale.status == NINFER_E_LAYOUT);
    CHECK(std::string(row_scale.result.message).find("row_scale_v1") != std::string::npos);
    // BF16 words offered for an FP32 tensor: no implicit cross-type encoding.
    auto cross = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_bf16,
                                  NINFER_LAYOUT_contiguous_le_v1, {2}),
                      four, 16);
    CHECK(cross.status == NINFER_E_CONVERSION);
    // Size rule and overflow.
    CHECK(call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_bf16, NINFER_FORMAT_bf16, NINFER_LAYOUT_contiguous_le_v1,
                           {3}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_int32, 0, NINFER_LAYOUT_contiguous_le_v1,
                           {1ull << 32, 1ull << 32}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_int32, 0, NINFER_LAYOUT_contiguous_le_v1,
                           {1ull << 62}),
               four, 16)
              .status == NINFER_E_SIZE);
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_contiguous_le_v1, {2}), four, 3)
              .status == NINFER_E_BUFFER);
    auto rank17 = layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_contiguous_le_v1, {});
    rank17.rank = 17;
    CHECK(call(rank17, four, 16).status == NINFER_E_INVALID_ARGUMENT);
    // A registered pair the reference does not implement is unsupported, not unregistered.
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_nvfp4, 0, NINFER_LAYOUT_block_scale_k16_m128x4_v1,
                           {128, 64}),
               four, 16)
              .status == NINFER_E_UNSUPPORTED);
}

// ---- Sizes the caller gives, and the C ABI boundary (harness/README.md, "The plugin C ABI") ----

namespace {

ninfer_call grouped(std::uint32_t op, std::uint32_t format, std::uint64_t n, std::uint64_t k) {
    ninfer_call c = layout_call(op, format, 0, NINFER_LAYOUT_row_split_k128_v1, {n, k});
    return c;
}

}  // namespace

TEST_CASE("quant_encode refuses a shape whose N*K or K*4 wraps around 2^64", "[plugin][grouped][sizes]") {
    // [2, 2^63 + 64]: N*K = 2^64 + 128 wraps to 128, K*4 to 256; 128 fp32 source words.
    const std::uint64_t k = (1ull << 63) + 64;
    const std::vector<std::uint8_t> in(128 * 4, 0x3F);
    for (std::uint32_t encoder : {NINFER_ENCODER_grouped_absmax, NINFER_ENCODER_grouped_search}) {
        INFO(encoder);
        ninfer_call c = grouped(NINFER_OP_quant_encode, NINFER_FORMAT_q4_g64_fp16, 2, k);
        c.format_in = NINFER_FORMAT_fp32;
        c.method = encoder;
        const std::vector<std::uint8_t> aux(256, 0);
        if (encoder == NINFER_ENCODER_grouped_search) {
            c.aux = aux.data();
            c.aux_bytes = aux.size();
        }
        const auto o = call(c, in, 1 << 16);
        CHECK((o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
        CHECK(o.result.out_written == 0);
    }
    // layout_encode: N*K codes and N*groups*2 scale bytes wrap the same way.
    ninfer_call c = grouped(NINFER_OP_layout_encode, NINFER_FORMAT_q8_g32_fp16, 2, k);
    const std::vector<std::uint8_t> aux(2 * 2, 0);
    c.aux = aux.data();
    c.aux_bytes = 0;
    const auto o = call(c, std::vector<std::uint8_t>(128, 0), 1 << 16);
    CHECK((o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
}

TEST_CASE("rows_select checks the caller's counts against the payload before allocating", "[plugin][grouped][sizes]") {
    // A q8 [1, 128] parent: 128 code bytes, then its scale row at offset 256.
    std::vector<std::uint8_t> payload(256 + 8, 0);
    SECTION("a gather of 2^57 rows claimed by aux_bytes is refused, not allocated") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128);
        c.flags = NINFER_FLAG_GATHER;
        const std::vector<std::uint8_t> aux(16, 0);
        c.aux = aux.data();
        c.aux_bytes = 1ull << 60;
        c.count = 1ull << 57;
        const auto o = call(c, payload, 1 << 16);
        CHECK((o.status == NINFER_E_BUFFER || o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
    }
    SECTION("a slice of 2^40 rows of a parent whose payload holds one row is refused at once") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1ull << 40, 128);
        const std::vector<std::uint8_t> aux = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};  // {0, 2^40}
        c.aux = aux.data();
        c.aux_bytes = aux.size();
        const auto o = call(c, payload, 1 << 16);
        CHECK(o.status == NINFER_E_SIZE);
    }
    SECTION("a gather whose selection does not fit the output is refused before it is built") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128);
        c.flags = NINFER_FLAG_GATHER;
        const std::vector<std::uint8_t> aux(8 * 4096, 0);  // row 0, 4096 times: 1.3 MB of output
        c.aux = aux.data();
        c.aux_bytes = aux.size();
        const auto o = call(c, payload, 1024);
        CHECK(o.status == NINFER_E_BUFFER);
    }
}

TEST_CASE("no C++ exception crosses the plugin's C ABI", "[plugin][grouped][abi]") {
#ifdef NINFER_SANITIZED  // preset asan (clang: __SANITIZE_ADDRESS__ is GCC's macro only)
    WARN("skipped: sets RLIMIT_AS in a child process, which AddressSanitizer's shadow memory cannot live under");
    return;
#endif
    // layout_decode of a valid 2-bit payload allocates 4 codes per payload byte: under an
    // address-space limit the allocation throws std::bad_alloc, which must come back as a status.
    const std::uint64_t n = 4096, k = 65536;  // 64 MiB of base plane, 256 Mi codes
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        std::vector<std::uint8_t> payload(n * k / 4 + n * (k / 64) * 2, 0);
        for (std::size_t i = 0; i < n * k / 4; ++i) payload[i] = 0x55;  // Q2 word 1: code 0
        ninfer_call c = grouped(NINFER_OP_layout_decode, NINFER_FORMAT_q2_g64_fp16, n, k);
        struct rlimit now {};
        ::getrlimit(RLIMIT_AS, &now);
        // Room for what is mapped now plus 8 MiB: the 256 MiB of codes cannot be allocated.
        std::ifstream statm("/proc/self/statm");
        std::uint64_t pages = 0;
        statm >> pages;
        const rlim_t limit = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) + (8ull << 20);
        struct rlimit as = {limit, now.rlim_max};
        if (::setrlimit(RLIMIT_AS, &as) != 0) ::_exit(100);
        std::int32_t status = 0;
        try {
            status = call(c, payload, 64).status;
        } catch (...) {
            ::_exit(101);  // an exception crossed the ABI
        }
        if (status != NINFER_E_INTERNAL) std::fprintf(stderr, "layout_decode under RLIMIT_AS returned %d\n", status);
        ::_exit(status == NINFER_E_INTERNAL ? 0 : 102);
    }
    int st = 0;
    REQUIRE(::waitpid(pid, &st, 0) == pid);
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 0);
}
