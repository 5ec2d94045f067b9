// SPDX-License-Identifier: Apache-2.0
// The reference plugin's table (plugin.h, ABI v2): identity, declared capabilities, the planes
// of every op, the defensive checks of every call, its v1 face (what the mutants wrap), and contiguous_le_v1 (storage-layouts.md Section 2: bit-exact words,
// size rule, refusal of an unregistered pair and of an implicit cross-type encoding).
#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "ninfer/oracle/formats.hpp"
#include "case_call.hpp"
#include "ninfer/suites/suites.hpp"
#include "reference_plugin.hpp"
#include "v2_call.hpp"

namespace {

using ninfer::reference::reference_table;
using ninfer::testing::call_v2;
using ninfer::testing::InPlane;
using ninfer::testing::OutPlane;
using ninfer::testing::V2Outcome;
using ninfer::testing::v2_head;

/// A call on the op's first input and output planes.
V2Outcome call(const ninfer_call &c, std::vector<std::uint8_t> in, std::size_t out_capacity) {
    return call_v2(reference_table(), c, std::move(in), out_capacity);
}

/// A call with the given planes.
V2Outcome call(const ninfer_call &c, const std::vector<InPlane> &in, const std::vector<OutPlane> &out) {
    return call_v2(reference_table(), c, in, out);
}

ninfer_call layout_call(std::uint32_t op, std::uint32_t format, std::uint32_t format_in, std::uint32_t layout,
                        std::vector<std::uint64_t> shape) {
    ninfer_call c = v2_head(op, format, format_in, layout);
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
    CHECK(t.abi_version == 2);
    CHECK(t.struct_size == sizeof(ninfer_plugin_v2));
    CHECK(t.capability_size == sizeof(ninfer_capability_v2));
    CHECK(std::string(t.name) == "reference");
    CHECK(std::string(t.version) == NINFER_TEST_PROJECT_VERSION);  // CMake's PROJECT_VERSION
    for (const auto &op : ninfer::oracle::kOps) CHECK(t.ops[op.id - 1] != nullptr);
    // A profile is claimed by operators only (the reference's linear: test_linear_ops.cpp).
    for (std::uint32_t i = 0; i < t.capability_count; ++i)
        if (t.capabilities[i].op != NINFER_OP_linear) CHECK(t.capabilities[i].profile == 0);
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
    ninfer_call c = v2_head(NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_bf16_rne);
    c.count = 2;
    const std::vector<std::uint8_t> in = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0xC0, 0x7F};
    auto ok = call(c, in, 4);
    REQUIRE(ok.status == NINFER_OK);
    CHECK(ok.written(NINFER_PLANE_WORDS) == 4);
    CHECK(ok.buffer(NINFER_PLANE_WORDS) == std::vector<std::uint8_t>{0x80, 0x3F, 0xC0, 0x7F});
    CHECK(call(c, in, 3).status == NINFER_E_BUFFER);
    c.count = 3;
    CHECK(call(c, in, 6).status == NINFER_E_INVALID_ARGUMENT);
    c.count = 2;
    c.format = NINFER_FORMAT_fp16;
    CHECK(call(c, in, 4).status == NINFER_E_INVALID_ARGUMENT);
    c.format = NINFER_FORMAT_bf16;
    c.method = 999;
    CHECK(call(c, in, 4).status == NINFER_E_UNSUPPORTED);

    ninfer_call d = v2_head(NINFER_OP_decode, NINFER_FORMAT_e2m1);
    d.count = 2;
    auto dec = call(d, {0x7, 0x9}, 16);
    REQUIRE(dec.status == NINFER_OK);
    CHECK(dec.written(NINFER_PLANE_VALUES) == 16);
    const std::vector<std::uint8_t> six_and_minus_half = {0, 0, 0, 0, 0, 0, 0x18, 0x40, 0, 0, 0, 0, 0, 0, 0xE0, 0xBF};
    CHECK(dec.buffer(NINFER_PLANE_VALUES) == six_and_minus_half);
    CHECK(call(d, {0x7, 0x9}, 15).status == NINFER_E_BUFFER);

    ninfer_call v = v2_head(NINFER_OP_validate, NINFER_FORMAT_fp16, 0, 0, NINFER_ROLE_grouped_fp16_scale);
    v.count = 2;
    auto ver = call(v, {0x00, 0x80, 0x00, 0x3C}, 2);
    REQUIRE(ver.status == NINFER_OK);
    CHECK(ver.out(NINFER_PLANE_VERDICTS) == std::vector<std::uint8_t>{NINFER_VERDICT_NEGATIVE_ZERO, NINFER_VERDICT_VALID});
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
        REQUIRE(enc.written(NINFER_PLANE_PAYLOAD) == 4 * n);
        CHECK(enc.out(NINFER_PLANE_PAYLOAD) == in);
        auto dec = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_fp32, 0, NINFER_LAYOUT_contiguous_le_v1, shape),
                        in, 64);
        REQUIRE(dec.status == NINFER_OK);
        CHECK(dec.out(NINFER_PLANE_WORDS) == in);
    }
}

TEST_CASE("contiguous_le_v1 refuses what storage-layouts.md 2 and tensor-formats.txt 3.1 refuse", "[plugin][layout]") {
    const std::vector<std::uint8_t> four = {0x80, 0x3F, 0x00, 0x00};
    // Unregistered pair, refused by name.
    auto fp16 = call(layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp16, NINFER_FORMAT_fp16,
                                 NINFER_LAYOUT_contiguous_le_v1, {2}),
                     four, 16);
    CHECK(fp16.status == NINFER_E_LAYOUT);
    CHECK(fp16.message().find("fp16") != std::string::npos);
    CHECK(fp16.message().find("contiguous_le_v1") != std::string::npos);
    auto row_scale = call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_bf16, 0, NINFER_LAYOUT_row_scale_v1, {1, 2}),
                          four, 16);
    CHECK(row_scale.status == NINFER_E_LAYOUT);
    CHECK(row_scale.message().find("row_scale_v1") != std::string::npos);
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
    // A registered pair whose layout ops are not defined is unsupported, not unregistered (a GGUF
    // block payload is its own logical data: the family contract of issue 10).
    CHECK(call(layout_call(NINFER_OP_layout_decode, NINFER_FORMAT_gguf_q4_0, 0, NINFER_LAYOUT_ggml_blocks_v1, {32}), four, 16)
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
        std::vector<InPlane> inputs = {{NINFER_PLANE_SOURCE, in}};
        if (encoder == NINFER_ENCODER_grouped_search) inputs.push_back({NINFER_PLANE_IMPORTANCE, std::vector<std::uint8_t>(256, 0)});
        const auto o = call(c, inputs, {{NINFER_PLANE_PAYLOAD, 1 << 16}});
        CHECK((o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
        CHECK(o.written(NINFER_PLANE_PAYLOAD) == 0);
    }
    // layout_encode: N*K codes and N*groups*2 scale bytes wrap the same way.
    ninfer_call c = grouped(NINFER_OP_layout_encode, NINFER_FORMAT_q8_g32_fp16, 2, k);
    const auto o = call(c, {{NINFER_PLANE_CODES, std::vector<std::uint8_t>(128, 0)}, {NINFER_PLANE_SCALES, {0, 0, 0, 0}, 0}},
                        {{NINFER_PLANE_PAYLOAD, 1 << 16}});
    CHECK((o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
}

TEST_CASE("rows_select checks the caller's counts against the payload before allocating", "[plugin][grouped][sizes]") {
    // A q8 [1, 128] parent: 128 code bytes, then its scale row at offset 256.
    std::vector<std::uint8_t> payload(256 + 8, 0);
    SECTION("a gather of 2^57 rows claimed by aux_bytes is refused, not allocated") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128);
        c.flags = NINFER_FLAG_GATHER;
        c.count = 1ull << 57;
        const auto o = call(c, {{NINFER_PLANE_PAYLOAD, payload}, {NINFER_PLANE_ROWS, std::vector<std::uint8_t>(16, 0), 1ull << 60}},
                            {{NINFER_PLANE_PAYLOAD, 1 << 16}});
        CHECK((o.status == NINFER_E_BUFFER || o.status == NINFER_E_SIZE || o.status == NINFER_E_INVALID_ARGUMENT));
    }
    SECTION("a slice of 2^40 rows of a parent whose payload holds one row is refused at once") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1ull << 40, 128);
        const std::vector<std::uint8_t> rows = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};  // {0, 2^40}
        const auto o = call(c, {{NINFER_PLANE_PAYLOAD, payload}, {NINFER_PLANE_ROWS, rows}}, {{NINFER_PLANE_PAYLOAD, 1 << 16}});
        CHECK(o.status == NINFER_E_SIZE);
    }
    SECTION("a gather whose selection does not fit the output is refused before it is built") {
        ninfer_call c = grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128);
        c.flags = NINFER_FLAG_GATHER;
        const std::vector<std::uint8_t> rows(8 * 4096, 0);  // row 0, 4096 times: 1.3 MB of output
        const auto o = call(c, {{NINFER_PLANE_PAYLOAD, payload}, {NINFER_PLANE_ROWS, rows}}, {{NINFER_PLANE_PAYLOAD, 1024}});
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
        const std::vector<InPlane> inputs = {{NINFER_PLANE_PAYLOAD, std::move(payload)}};  // built before the limit
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
            status = call(c, inputs, {{NINFER_PLANE_CODES, 64}, {NINFER_PLANE_SCALES, 64}}).status;
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

// ---- ABI v2: planes by name, struct sizes, negotiation, the v1 face (plugin.h) ----------------

namespace {

/// A valid q8_g32_fp16 [1, 128] payload: codes 0..127 of the base plane, then four scale words 1.0.
std::vector<std::uint8_t> q8_payload() {
    std::vector<std::uint8_t> codes(128);
    for (int i = 0; i < 128; ++i) codes[i] = static_cast<std::uint8_t>(i);
    const std::vector<std::uint8_t> scales = {0x00, 0x3C, 0x00, 0x3C, 0x00, 0x3C, 0x00, 0x3C};
    ninfer_call c = grouped(NINFER_OP_layout_encode, NINFER_FORMAT_q8_g32_fp16, 1, 128);
    const auto o = call(c, {{NINFER_PLANE_CODES, codes}, {NINFER_PLANE_SCALES, scales}}, {{NINFER_PLANE_PAYLOAD, 4096}});
    REQUIRE(o.status == NINFER_OK);
    return o.out(NINFER_PLANE_PAYLOAD);
}

}  // namespace

TEST_CASE("v2 calls find their planes by name, in any order, and set written on each", "[plugin][abi]") {
    const auto payload = q8_payload();
    ninfer_call c = grouped(NINFER_OP_quant_decode, NINFER_FORMAT_q8_g32_fp16, 1, 128);
    const auto in_order = call(c, {{NINFER_PLANE_PAYLOAD, payload}},
                               {{NINFER_PLANE_CODES, 128}, {NINFER_PLANE_SCALES, 8}, {NINFER_PLANE_VALUES, 512}});
    REQUIRE(in_order.status == NINFER_OK);
    CHECK(in_order.written(NINFER_PLANE_CODES) == 128);
    CHECK(in_order.written(NINFER_PLANE_SCALES) == 8);
    CHECK(in_order.written(NINFER_PLANE_VALUES) == 512);
    CHECK(in_order.out(NINFER_PLANE_CODES)[5] == 5);
    CHECK(in_order.out(NINFER_PLANE_SCALES) == std::vector<std::uint8_t>{0x00, 0x3C, 0x00, 0x3C, 0x00, 0x3C, 0x00, 0x3C});
    // value of code 2 at scale 1.0: binary32 2.0 = 0x40000000
    const auto values = in_order.out(NINFER_PLANE_VALUES);
    CHECK(std::vector<std::uint8_t>(values.begin() + 8, values.begin() + 12) == std::vector<std::uint8_t>{0, 0, 0, 0x40});
    // Reversed, with a plane the op does not use: the same bytes, the extra plane untouched.
    const auto reversed = call(c, {{NINFER_PLANE_PAYLOAD, payload}},
                               {{NINFER_PLANE_DIVISORS, 16}, {NINFER_PLANE_VALUES, 512}, {NINFER_PLANE_SCALES, 8},
                                {NINFER_PLANE_CODES, 128}});
    REQUIRE(reversed.status == NINFER_OK);
    for (std::uint32_t name : {NINFER_PLANE_CODES, NINFER_PLANE_SCALES, NINFER_PLANE_VALUES})
        CHECK(reversed.out(name) == in_order.out(name));
    CHECK(reversed.written(NINFER_PLANE_DIVISORS) == 0);
    CHECK(reversed.buffer(NINFER_PLANE_DIVISORS) == std::vector<std::uint8_t>(16, 0xCD));
    // layout_decode: codes and scales only; payload_validate: no output plane at all.
    const auto dec = call(grouped(NINFER_OP_layout_decode, NINFER_FORMAT_q8_g32_fp16, 1, 128), {{NINFER_PLANE_PAYLOAD, payload}},
                          {{NINFER_PLANE_SCALES, 8}, {NINFER_PLANE_CODES, 128}});
    REQUIRE(dec.status == NINFER_OK);
    CHECK(dec.out(NINFER_PLANE_CODES) == in_order.out(NINFER_PLANE_CODES));
    CHECK(call(grouped(NINFER_OP_payload_validate, NINFER_FORMAT_q8_g32_fp16, 1, 128), {{NINFER_PLANE_PAYLOAD, payload}}, {})
              .status == NINFER_OK);
    // rows_select: payload and rows in, payload out.
    const std::vector<std::uint8_t> first_one = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    const auto sel = call(grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128),
                          {{NINFER_PLANE_ROWS, first_one}, {NINFER_PLANE_PAYLOAD, payload}}, {{NINFER_PLANE_PAYLOAD, 4096}});
    REQUIRE(sel.status == NINFER_OK);
    CHECK(sel.out(NINFER_PLANE_PAYLOAD) == payload);
}

TEST_CASE("a missing required plane is refused as invalid_argument, naming the plane", "[plugin][abi]") {
    const auto refused = [](const V2Outcome &o, const char *plane) {
        INFO(o.message());
        CHECK(o.status == NINFER_E_INVALID_ARGUMENT);
        CHECK(o.message().find(plane) != std::string::npos);
        for (const auto &p : o.planes) CHECK(p.written == 0);
    };
    ninfer_call d = v2_head(NINFER_OP_decode, NINFER_FORMAT_bf16);
    d.count = 1;
    refused(call(d, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {}), "`values`");
    refused(call(d, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {{NINFER_PLANE_CLASSES, 8}}), "`values`");
    refused(call(d, {}, {{NINFER_PLANE_VALUES, 8}}), "`words`");
    ninfer_call cv = v2_head(NINFER_OP_convert, NINFER_FORMAT_bf16, NINFER_FORMAT_fp32, 0, NINFER_CONVERSION_fp32_to_bf16_rne);
    cv.count = 1;
    refused(call(cv, {{NINFER_PLANE_WORDS, {0, 0, 0x80, 0x3F}}}, {{NINFER_PLANE_VALUES, 8}}), "`words`");
    const auto lay = layout_call(NINFER_OP_layout_encode, NINFER_FORMAT_fp32, NINFER_FORMAT_fp32, NINFER_LAYOUT_contiguous_le_v1, {1});
    refused(call(lay, {{NINFER_PLANE_WORDS, {0, 0, 0x80, 0x3F}}}, {{NINFER_PLANE_WORDS, 4}}), "`payload`");
    const auto payload = q8_payload();
    refused(call(grouped(NINFER_OP_layout_encode, NINFER_FORMAT_q8_g32_fp16, 1, 128),
                 {{NINFER_PLANE_CODES, std::vector<std::uint8_t>(128, 0)}}, {{NINFER_PLANE_PAYLOAD, 4096}}),
            "`scales`");
    refused(call(grouped(NINFER_OP_quant_decode, NINFER_FORMAT_q8_g32_fp16, 1, 128), {{NINFER_PLANE_PAYLOAD, payload}},
                 {{NINFER_PLANE_CODES, 128}, {NINFER_PLANE_SCALES, 8}}),
            "`values`");
    refused(call(grouped(NINFER_OP_rows_select, NINFER_FORMAT_q8_g32_fp16, 1, 128), {{NINFER_PLANE_PAYLOAD, payload}},
                 {{NINFER_PLANE_PAYLOAD, 4096}}),
            "`rows`");
    ninfer_call enc = grouped(NINFER_OP_quant_encode, NINFER_FORMAT_q8_g32_fp16, 1, 128);
    enc.format_in = NINFER_FORMAT_fp32;
    enc.method = NINFER_ENCODER_grouped_absmax;
    refused(call(enc, {{NINFER_PLANE_WORDS, std::vector<std::uint8_t>(512, 0)}}, {{NINFER_PLANE_PAYLOAD, 4096}}), "`source`");
    // The importance plane is optional: absent means all weights 1.
    enc.method = NINFER_ENCODER_grouped_search;
    CHECK(call(enc, {{NINFER_PLANE_SOURCE, std::vector<std::uint8_t>(512, 0)}}, {{NINFER_PLANE_PAYLOAD, 4096}}).status ==
          NINFER_OK);
}

TEST_CASE("v2 calls: malformed plane lists and a short call struct are refused", "[plugin][abi]") {
    ninfer_call d = v2_head(NINFER_OP_decode, NINFER_FORMAT_bf16);
    d.count = 1;
    const auto twice = call(d, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}, {NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {{NINFER_PLANE_VALUES, 8}});
    CHECK(twice.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(twice.message().find("twice") != std::string::npos);
    CHECK(call(d, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {{NINFER_PLANE_VALUES, 8}, {NINFER_PLANE_VALUES, 8}}).status ==
          NINFER_E_INVALID_ARGUMENT);
    // bytes claimed at NULL data, capacity at NULL data
    CHECK(call(d, {{NINFER_PLANE_WORDS, {}, 2}}, {{NINFER_PLANE_VALUES, 8}}).status == NINFER_E_INVALID_ARGUMENT);
    const auto &t = reference_table();
    ninfer_output_plane null_out = {NINFER_PLANE_VALUES, 0, nullptr, 8, 0};
    const std::uint8_t word[2] = {0x80, 0x3F};
    const ninfer_input_plane in = {NINFER_PLANE_WORDS, 0, word, 2};
    ninfer_call raw = d;
    raw.struct_size = sizeof raw;
    raw.input_count = 1;
    raw.inputs = &in;
    raw.output_count = 1;
    raw.outputs = &null_out;
    ninfer_result r{};
    r.struct_size = sizeof r;
    CHECK(t.ops[NINFER_OP_decode - 1](t.self, &raw, &r) == NINFER_E_INVALID_ARGUMENT);
    // counts without arrays
    raw.outputs = nullptr;
    CHECK(t.ops[NINFER_OP_decode - 1](t.self, &raw, &r) == NINFER_E_INVALID_ARGUMENT);
    CHECK(std::string(r.message).find("outputs") != std::string::npos);
    // a count no op could need is refused before the array is walked
    std::vector<ninfer_input_plane> many(65, in);
    raw.inputs = many.data();
    raw.input_count = 65;
    raw.outputs = &null_out;
    CHECK(t.ops[NINFER_OP_decode - 1](t.self, &raw, &r) == NINFER_E_INVALID_ARGUMENT);
    CHECK(std::string(r.message).find("input_count 65") != std::string::npos);
    // A call struct that does not reach `outputs` is refused before any plane is read.
    ninfer_call small = d;
    small.struct_size = offsetof(ninfer_call_v2, outputs);
    const auto o = call(small, {{NINFER_PLANE_WORDS, {0x80, 0x3F}}}, {{NINFER_PLANE_VALUES, 8}});
    CHECK(o.status == NINFER_E_INVALID_ARGUMENT);
    CHECK(o.written(NINFER_PLANE_VALUES) == 0);
}

TEST_CASE("the plugin writes result fields only within result->struct_size", "[plugin][abi]") {
    auto payload = q8_payload();
    payload[0] = 0x80;  // Q8 code word 0x80 is illegal (tensor-formats.txt 5): detail illegal_code
    const auto validate = [&](std::uint32_t result_size) {
        return call_v2(reference_table(), grouped(NINFER_OP_payload_validate, NINFER_FORMAT_q8_g32_fp16, 1, 128),
                       {{NINFER_PLANE_PAYLOAD, payload}}, {}, result_size);
    };
    const auto whole = validate(sizeof(ninfer_result_v2));
    REQUIRE(whole.status == NINFER_E_INVALID_PAYLOAD);
    CHECK(whole.result.detail == NINFER_DETAIL_ILLEGAL_CODE);
    CHECK(!whole.message().empty());
    const auto no_message = validate(offsetof(ninfer_result_v2, message));
    CHECK(no_message.status == NINFER_E_INVALID_PAYLOAD);
    CHECK(no_message.result.detail == NINFER_DETAIL_ILLEGAL_CODE);
    CHECK(no_message.message().empty());
    const auto bare = validate(sizeof(std::uint32_t));
    CHECK(bare.status == NINFER_E_INVALID_PAYLOAD);
    CHECK(bare.result.detail == 0);
    CHECK(bare.message().empty());
}

TEST_CASE("the reference's entry serves ABI 2 and later, NULL to a v1 harness", "[plugin][abi]") {
    void *lib = ::dlopen(NINFER_REFERENCE_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(lib != nullptr);
    // The entry's own type (the reference is an ABI v2 source): calling it through another
    // function type is undefined behaviour (clang's -fsanitize=function says so).
    const auto entry = reinterpret_cast<ninfer_plugin_entry_fn>(::dlsym(lib, NINFER_PLUGIN_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    CHECK(entry(0) == nullptr);
    CHECK(entry(1) == nullptr);
    const ninfer_plugin_v2 *t2 = entry(2);
    REQUIRE(t2 != nullptr);
    CHECK(t2->abi_version == 2);
    CHECK(std::string(t2->version) == NINFER_TEST_PROJECT_VERSION);
    // A later harness gets the v2 table; its abi_version tells the layout.
    const ninfer_plugin_v2 *t3 = entry(3);
    REQUIRE(t3 != nullptr);
    CHECK(t3->abi_version == 2);
    ::dlclose(lib);
}

TEST_CASE("the v1 face (what the mutants wrap) is the same plugin in the frozen layout", "[plugin][abi][v1]") {
    const ninfer_plugin_v1 &t1 = ninfer::reference::reference_table_v1();
    const ninfer_plugin_v2 &t2 = ninfer::reference::reference_table_v2();
    CHECK(t1.abi_version == 1);
    CHECK(t1.struct_size == sizeof(ninfer_plugin_v1));
    CHECK(std::string(t1.name) == t2.name);
    CHECK(std::string(t1.version) == t2.version);
    // The v1 face declares every v2 capability but the operators' (ABI 1 has no profile).
    std::vector<ninfer_capability_v2> v2caps;
    for (std::uint32_t i = 0; i < t2.capability_count; ++i)
        if (t2.capabilities[i].op != NINFER_OP_linear) v2caps.push_back(t2.capabilities[i]);
    REQUIRE(t1.capability_count == v2caps.size());
    for (std::uint32_t i = 0; i < t1.capability_count; ++i) {
        const auto &a = t1.capabilities[i];
        const auto &b = v2caps[i];
        CHECK((a.op == b.op && a.format == b.format && a.format_in == b.format_in && a.layout == b.layout &&
               a.method == b.method));
    }
    for (const auto &op : ninfer::oracle::kOps) CHECK(t1.ops[op.id - 1] != nullptr);
    // Every scalar case (golden and seeded, level full) answers the same through both tables,
    // and the v2 answer has the case's expected status.
    std::size_t ran = 0;
    for (const auto &s : ninfer::suites::scalar_suites()) {
        auto cases = s.golden(ninfer::suites::Level::full);
        for (auto &c : s.random(20261129, ninfer::suites::Level::full)) cases.push_back(std::move(c));
        for (const auto &c : cases) {
            INFO(c.id);
            const auto v2 = ninfer::testing::run_case_v2(t2, c);
            const auto v1 = ninfer::testing::run_case_v1(t1, c);
            CHECK(v2.status == c.expect.status);
            CHECK(v1.status == v2.status);
            CHECK(v1.detail == v2.detail);
            CHECK(v1.message == v2.message);
            CHECK(v1.outputs == v2.outputs);
            ++ran;
        }
    }
    CHECK(ran > 1000);
    // A v1 call with a short struct is refused, as v1 plugins do.
    ninfer_call_v1 small{};
    small.struct_size = sizeof small - 8;
    small.op = NINFER_OP_decode;
    ninfer_result_v1 r{};
    CHECK(t1.ops[NINFER_OP_decode - 1](t1.self, &small, &r) == NINFER_E_INVALID_ARGUMENT);
}
