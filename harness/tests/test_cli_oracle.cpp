// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle geometry / pack / unpack / encode / decode` for every format family
// (docs/cli.md), run as a process. Expected numbers and bytes are derived by hand from
// storage-layouts.md Sections 2-7 and tensor-formats.txt, each derivation written beside it.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/gguf.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using ninfer::harness::test::Out;
using ninfer::harness::test::slurp;

/// The scratch directory of these tests (made again if another test file's setup removed it).
fs::path tmp_dir() {
    static const fs::path d = [] { return ninfer::harness::test::scratch("oracle"); }();
    fs::create_directories(d);
    return d;
}

Out cli(const std::string &args) { return ninfer::harness::test::run_cli(tmp_dir(), args); }

std::size_t lines(const std::string &s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// A JSON answer of a successful command.
json ok_json(const Out &o) {
    INFO(o.err);
    REQUIRE(o.status == 0);
    return json::parse(o.out);
}

/// A refusal: the status, exactly one line on stderr, which contains every `parts`.
void refused(const Out &o, int status, std::initializer_list<std::string> parts) {
    INFO("stdout: " << o.out << "\nstderr: " << o.err);
    CHECK(o.status == status);
    CHECK(lines(o.err) == 1);
    for (const auto &p : parts) CHECK(o.err.find(p) != std::string::npos);
}

std::string write_bytes(const std::string &name, const std::vector<std::uint8_t> &bytes) {
    const auto p = tmp_dir() / name;
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return "'" + p.string() + "'";
}

std::string write_f32(const std::string &name, const std::vector<std::uint32_t> &words) {
    std::vector<std::uint8_t> b;
    for (const auto w : words)
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    return write_bytes(name, b);
}

std::string hex(const std::vector<std::uint8_t> &bytes) {
    static const char *d = "0123456789abcdef";
    std::string s;
    for (const auto b : bytes) {
        s += d[b >> 4];
        s += d[b & 0xF];
    }
    return s;
}

const json &plane(const json &geometry, const std::string &name) {
    for (const auto &p : geometry.at("planes"))
        if (p.at("plane") == name) return p;
    FAIL("no plane " << name << " in " << geometry.dump());
    static const json none;
    return none;
}

}  // namespace

TEST_CASE("oracle geometry: nvfp4 numbers derived by hand from storage-layouts.md Section 4") {
    // N=256, K=128, D=1: code_plane_bytes = 256*128/2 = 16384; scale_plane_offset =
    // align_up(16384, 256) = 16384; scale_plane_bytes = 256*128/16 = 2048; weight_divisor_offset =
    // 16384 + 2048 = 18432; payload = 18432 + 4*1 = 18436; K/16 = 8 groups per row.
    auto j = ok_json(cli("oracle geometry --format nvfp4 --shape 256,128"));
    CHECK(j.at("layout") == "block_scale_k16_m128x4_v1");
    CHECK(plane(j, "codes").at("offset") == 0);
    CHECK(plane(j, "codes").at("bytes") == 16384);
    CHECK(plane(j, "scales").at("offset") == 16384);
    CHECK(plane(j, "scales").at("bytes") == 2048);
    CHECK(plane(j, "divisors").at("offset") == 18432);
    CHECK(plane(j, "divisors").at("bytes") == 4);
    CHECK(j.at("scale_plane_offset") == 16384);
    CHECK(j.at("weight_divisor_offset") == 18432);
    CHECK(j.at("payload_bytes") == 18436);
    CHECK(j.at("groups_per_row") == 8);
    CHECK(j.at("rows_per_divisor") == 256);
    CHECK(j.at("gaps").empty());  // N*K/2 is a multiple of 4096 whenever N%128 == 0 and K%64 == 0
    CHECK(j.at("swizzle").at("tile_rows") == 128);
    CHECK(j.at("swizzle").at("tile_groups") == 4);
    CHECK(j.at("swizzle").at("formula").get<std::string>().find("* 512") != std::string::npos);
    // D = 2: two source matrices of 128 rows, two divisor words: 18432 + 8 = 18440.
    j = ok_json(cli("oracle geometry --format nvfp4 --shape 256,128 --divisors 2"));
    CHECK(j.at("payload_bytes") == 18440);
    CHECK(j.at("rows_per_divisor") == 128);
    CHECK(plane(j, "divisors").at("bytes") == 8);
    // Shapes without a geometry: one line naming the rule, exit 2.
    refused(cli("oracle geometry --format nvfp4 --shape 100,128"), 2, {"block_scale.geometry", "N = 100 is not a multiple of 128"});
    refused(cli("oracle geometry --format nvfp4 --shape 128,48"), 2, {"block_scale.geometry", "K = 48"});
    refused(cli("oracle geometry --format nvfp4 --shape 256,128 --divisors 3"), 2, {"block_scale.geometry", "does not divide"});
    refused(cli("oracle geometry --format nvfp4 --shape 128,64,2"), 2, {"rank 2"});
    CHECK(cli("oracle geometry --format nvfp4 --shape 256,128 --divisors -1").status == 2);  // not read as 2^64-1
    CHECK(cli("oracle geometry --format nvfp4 --shape 256,128 --divisors 0").status == 2);
    refused(cli("oracle geometry --format fp8_e4m3fn_row_bf16 --shape 2,4 --divisors 2"), 2, {"--divisors belongs to nvfp4"});
}

TEST_CASE("oracle geometry: FP8 rows, grouped and contiguous numbers derived by hand") {
    // row_scale_v1 [3,5]: codes 15 bytes at 0, zeros to align_up(15, 256) = 256, 3 BF16 words: 262.
    auto j = ok_json(cli("oracle geometry --format fp8_e4m3fn_row_bf16 --shape 3,5"));
    CHECK(plane(j, "codes").at("bytes") == 15);
    CHECK(plane(j, "scales").at("offset") == 256);
    CHECK(plane(j, "scales").at("bytes") == 6);
    CHECK(j.at("gaps") == json::parse(R"([{"begin":15,"end":256,"content":"zero bytes"}])"));
    CHECK(j.at("payload_bytes") == 262);
    CHECK(j.at("row_stride") == 5);
    // row_interleaved_v1 [3,5]: row stride 5 + 2 = 7, payload 3 * 7 = 21, no padding.
    j = ok_json(cli("oracle geometry --format fp8_e4m3fn_row_fp16 --shape 3,5"));
    CHECK(j.at("row_stride") == 7);
    CHECK(j.at("payload_bytes") == 21);
    CHECK(j.at("gaps").empty());
    refused(cli("oracle geometry --format fp8_e4m3fn_row_fp16 --shape 0,5"), 2, {"fp8_row.size"});
    // row_split_k128_v1 q8_g32_fp16 [1,4] (storage-layouts.md Section 3): K_pad 128, 4 groups of
    // 32 one-byte lanes: base plane 128 bytes, no high plane, scales at align_up(128, 256) = 256,
    // 4 binary16 words: 264; 1 logical group, 3 padding groups, 124 padding columns.
    j = ok_json(cli("oracle geometry --format q8_g32_fp16 --shape 1,4"));
    CHECK(j.at("k_pad") == 128);
    CHECK(j.at("groups_per_row") == 4);
    CHECK(j.at("logical_groups_per_row") == 1);
    CHECK(j.at("padding_groups_per_row") == 3);
    CHECK(j.at("padding_columns_per_row") == 124);
    CHECK(plane(j, "base").at("bytes") == 128);
    CHECK(plane(j, "scales").at("offset") == 256);
    CHECK(plane(j, "scales").at("bytes") == 8);
    CHECK(j.at("payload_bytes") == 264);
    // contiguous_le_v1 bf16 [3,5]: 15 words of 2 bytes.
    j = ok_json(cli("oracle geometry --format bf16 --shape 3,5"));
    CHECK(j.at("layout") == "contiguous_le_v1");
    CHECK(j.at("payload_bytes") == 30);
    CHECK(j.at("word_bytes") == 2);
    refused(cli("oracle geometry --format e4m3fn --shape 4"), 2, {"no layout stores as a tensor", "bf16"});
}

TEST_CASE("oracle geometry covers ggml_blocks_v1 for all 27 GGUF types") {
    REQUIRE(ninfer::abi::kGgufTypes.size() == 27);
    for (const auto &t : ninfer::abi::kGgufTypes) {
        // [2, 3*block_values]: 2 rows of 3 blocks; row_bytes 3*block_bytes; payload 2 rows.
        const std::string name(t.name);
        INFO(name);
        const auto j = ok_json(cli("oracle geometry --format " + name + " --shape 2," + std::to_string(3 * t.block_values)));
        CHECK(j.at("layout") == "ggml_blocks_v1");
        CHECK(j.at("rows") == 2);
        CHECK(j.at("blocks_per_row") == 3);
        CHECK(j.at("row_bytes") == 3 * t.block_bytes);
        CHECK(j.at("payload_bytes") == 6 * t.block_bytes);
        CHECK(j.at("block_bytes") == t.block_bytes);
        CHECK(j.at("in_ninfer_registry") == t.in_ninfer_registry);
        CHECK(plane(j, "blocks").at("bytes") == 6 * t.block_bytes);
    }
    // Rank 3 [2,3,64] of gguf_q8_0 (32 values in 34 bytes): rows 2*3 = 6, 2 blocks per row,
    // row_bytes 68, payload 408; rank 1 [32]: one row.
    auto j = ok_json(cli("oracle geometry --format gguf_q8_0 --shape 2,3,64"));
    CHECK(j.at("rows") == 6);
    CHECK(j.at("row_bytes") == 68);
    CHECK(j.at("payload_bytes") == 408);
    j = ok_json(cli("oracle geometry --format gguf_q8_0 --shape 32"));
    CHECK(j.at("rows") == 1);
    CHECK(j.at("payload_bytes") == 34);
    refused(cli("oracle geometry --format gguf_q4_k --shape 2,100"), 2, {"gguf.geometry", "gguf_q4_k"});
    refused(cli("oracle geometry --format gguf_q8_0 --shape 0,32"), 2, {"gguf.geometry"});
}

TEST_CASE("oracle geometry, pack, unpack: bad input is refused with one line") {
    refused(cli("oracle geometry --format nvfp5 --shape 128,64"), 2, {"unknown format 'nvfp5'; did you mean nvfp4?"});
    refused(cli("oracle geometry --format nvfp4 --shape 128,x"), 2, {"--shape '128,x' is not a shape"});
    refused(cli("oracle geometry --format nvfp4 --shape 128,,64"), 2, {"is not a shape"});
    refused(cli("oracle pack --format gguf_q4_0 --shape 1,32 --codes 00"), 2, {"not defined for ggml_blocks_v1"});
    refused(cli("oracle unpack --format gguf_q4_0 --shape 1,32 --payload 00"), 2, {"not defined for ggml_blocks_v1"});
    refused(cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 1,2 --codes 0102"), 2, {"needs --codes and --scales"});
    refused(cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 1,2 --codes 010 --scales 803f"), 2, {"odd number of hex digits"});
    refused(cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 1,2 --codes 010203 --scales 803f"), 2,
            {"--codes holds 3 bytes", "need 2"});
    refused(cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 1,2 --codes no_such_file --scales 803f"), 2,
            {"cannot read --codes file 'no_such_file'"});
    refused(cli("oracle decode --format bf16 --shape 2 --payload 0000"), 2, {"word format"});
}

TEST_CASE("oracle pack and unpack: FP8 rows, bytes by hand from storage-layouts.md Sections 5 and 6") {
    // fp8_e4m3fn_row_bf16 [2,3]: codes 01 02 03 / 04 05 06, multipliers BF16 1.0 (3f80) and 2.0
    // (4000): the 6 code bytes, zeros to 256, then 80 3f 00 40 (little-endian): 260 bytes.
    auto o = cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 2,3 --codes 010203040506 --scales 803f0040");
    REQUIRE(o.status == 0);
    const std::string want_scale = "010203040506" + std::string(2 * 250, '0') + "803f0040";
    CHECK(o.out == want_scale + "\n");
    auto j = ok_json(cli("oracle unpack --format fp8_e4m3fn_row_bf16 --shape 2,3 --payload " + want_scale));
    CHECK(j.at("codes") == "010203040506");
    CHECK(j.at("scales") == "803f0040");
    // fp8_e4m3fn_row_fp16 [2,3]: each row its 3 codes then its binary16 multiplier, 1.0 = 3c00,
    // 2.0 = 4000: 01 02 03 00 3c 04 05 06 00 40.
    o = cli("oracle pack --format fp8_e4m3fn_row_fp16 --shape 2,3 --codes 010203040506 --scales 003c0040");
    REQUIRE(o.status == 0);
    CHECK(o.out == "010203003c0405060040\n");
    j = ok_json(cli("oracle unpack --format fp8_e4m3fn_row_fp16 --shape 2,3 --payload 010203003c0405060040"));
    CHECK(j.at("codes") == "010203040506");
    CHECK(j.at("scales") == "003c0040");
    // --out writes the binary payload.
    o = cli("oracle pack --format fp8_e4m3fn_row_fp16 --shape 2,3 --codes 010203040506 --scales 003c0040 --out '" +
            (tmp_dir() / "fp16.payload").string() + "'");
    REQUIRE(o.status == 0);
    const std::string written = slurp(tmp_dir() / "fp16.payload");
    CHECK(hex({written.begin(), written.end()}) == "010203003c0405060040");

    // Words no payload holds: code 0x7F (NaN), a negative multiplier: NINFER_E_INVALID_ARGUMENT, exit 1.
    refused(cli("oracle pack --format fp8_e4m3fn_row_fp16 --shape 2,3 --codes 01027f040506 --scales 003c0040"), 1,
            {"NINFER_E_INVALID_ARGUMENT", "illegal_code"});
    refused(cli("oracle pack --format fp8_e4m3fn_row_bf16 --shape 2,3 --codes 010203040506 --scales 80bf0040"), 1,
            {"NINFER_E_INVALID_ARGUMENT", "invalid_scale"});
    // Invalid payloads: the validating decode's status, detail and message, exit 1.
    refused(cli("oracle unpack --format fp8_e4m3fn_row_fp16 --shape 2,3 --payload 010203003c04050600c0"), 1,
            {"refused: NINFER_E_INVALID_PAYLOAD (detail invalid_scale)"});
    std::string gap = want_scale;
    gap[20] = '1';
    refused(cli("oracle unpack --format fp8_e4m3fn_row_bf16 --shape 2,3 --payload " + gap), 1,
            {"NINFER_E_INVALID_PAYLOAD (detail nonzero_gap)"});
    refused(cli("oracle unpack --format fp8_e4m3fn_row_fp16 --shape 2,3 --payload 010203003c"), 1,
            {"NINFER_E_SIZE (detail size)"});
}

TEST_CASE("oracle pack and unpack: nvfp4 round trip, swizzle positions by hand from storage-layouts.md Section 4") {
    // [128,64], D = 2: codes N*K = 8192 bytes, scales N*(K/16) = 512 bytes, divisors 1.0, 2.0.
    const std::uint64_t n = 128, k = 64;
    std::vector<std::uint8_t> codes(n * k), scales(n * k / 16);
    for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::uint8_t>((i * 7 + i / 64) % 16);
    const std::uint8_t valid_scales[] = {0x00, 0x01, 0x38, 0x40, 0x7e, 0x10};
    for (std::size_t i = 0; i < scales.size(); ++i) scales[i] = valid_scales[(i * 5 + i / 3) % 6];
    scales[0] = 0x11;       // (n=0, g=0): offset 0
    scales[1] = 0x22;       // (n=0, g=1): offset g%4 = 1
    scales[1 * 4] = 0x33;   // (n=1, g=0): offset (1%32)*16 = 16
    scales[32 * 4] = 0x44;  // (n=32, g=0): offset floor(32/32)*4 = 4
    const std::string divisors = "0000803f00000040";
    const auto c = write_bytes("nv.codes", codes), s = write_bytes("nv.scales", scales);
    auto o = cli("oracle pack --format nvfp4 --shape 128,64 --codes " + c + " --scales " + s + " --divisors " + divisors +
                 " --out '" + (tmp_dir() / "nv.payload").string() + "'");
    REQUIRE(o.status == 0);
    const std::string p = slurp(tmp_dir() / "nv.payload");
    // code_plane 4096, scale_plane_offset 4096, scale bytes 512, divisors at 4608, payload 4616.
    REQUIRE(p.size() == 4616);
    CHECK(static_cast<std::uint8_t>(p[0]) == (codes[0] | codes[1] << 4));
    CHECK(static_cast<std::uint8_t>(p[4095]) == (codes[8190] | codes[8191] << 4));
    CHECK(static_cast<std::uint8_t>(p[4096 + 0]) == 0x11);
    CHECK(static_cast<std::uint8_t>(p[4096 + 1]) == 0x22);
    CHECK(static_cast<std::uint8_t>(p[4096 + 16]) == 0x33);
    CHECK(static_cast<std::uint8_t>(p[4096 + 4]) == 0x44);
    CHECK(hex(std::vector<std::uint8_t>(p.begin() + 4608, p.end())) == divisors);

    const auto j = ok_json(cli("oracle unpack --format nvfp4 --shape 128,64 --payload '" + (tmp_dir() / "nv.payload").string() + "'"));
    CHECK(j.at("divisor_count") == 2);
    CHECK(j.at("codes") == hex(codes));
    CHECK(j.at("scales") == hex(scales));
    CHECK(j.at("divisors") == divisors);

    // A code byte above 0xF, a NaN scale (0x7F), a negative divisor: no payload holds them.
    auto bad = codes;
    bad[5] = 0x10;
    refused(cli("oracle pack --format nvfp4 --shape 128,64 --codes " + write_bytes("nv.bad", bad) + " --scales " + s +
                " --divisors " + divisors),
            1, {"NINFER_E_INVALID_ARGUMENT", "nvfp4.code.e2m1", "row 0, column 5"});
    auto nan = scales;
    nan[9] = 0x7f;
    refused(cli("oracle pack --format nvfp4 --shape 128,64 --codes " + c + " --scales " + write_bytes("nv.nan", nan) +
                " --divisors " + divisors),
            1, {"NINFER_E_INVALID_ARGUMENT", "invalid_scale"});
    refused(cli("oracle pack --format nvfp4 --shape 128,64 --codes " + c + " --scales " + s + " --divisors 000080bf"), 1,
            {"NINFER_E_INVALID_ARGUMENT", "invalid_divisor"});
    refused(cli("oracle pack --format nvfp4 --shape 128,64 --codes " + c + " --scales " + s + " --divisors 0000803f0000803f0000803f"),
            2, {"block_scale.geometry", "does not divide"});
    // Payloads: a NaN scale inside, a size that leaves no whole divisor.
    std::string pn = p;
    pn[4096 + 100] = '\x7f';
    refused(cli("oracle unpack --format nvfp4 --shape 128,64 --payload " + write_bytes("nv.pn", {pn.begin(), pn.end()})), 1,
            {"NINFER_E_INVALID_PAYLOAD (detail invalid_scale)"});
    refused(cli("oracle unpack --format nvfp4 --shape 128,64 --payload " +
                write_bytes("nv.short", {p.begin(), p.begin() + 4610})),
            1, {"NINFER_E_SIZE (detail size)", "block_scale.size"});
}

TEST_CASE("oracle pack and unpack: grouped and contiguous_le_v1") {
    // q8_g32_fp16 [1,4], codes 127 -64 0 2, scale 1.0 (3c00): the bytes of the encode test in
    // test_cli.cpp: 7f c0 00 02, zeros to 256, then 00 3c and three zero padding scales.
    auto o = cli("oracle pack --format q8_g32_fp16 --shape 1,4 --codes 7fc00002 --scales 003c");
    REQUIRE(o.status == 0);
    const std::string want = "7fc00002" + std::string(2 * 252, '0') + "003c" + std::string(12, '0');
    CHECK(o.out == want + "\n");
    auto j = ok_json(cli("oracle unpack --format q8_g32_fp16 --shape 1,4 --payload " + want));
    CHECK(j.at("codes") == "7fc00002");
    CHECK(j.at("scales") == "003c");
    // -128 (0x80) is outside q8's [-127, 127]; a NaN scale (7e00) is invalid and a +0 scale
    // holds only zero codes (Section 6).
    refused(cli("oracle pack --format q8_g32_fp16 --shape 1,4 --codes 7f800002 --scales 003c"), 1,
            {"NINFER_E_INVALID_ARGUMENT", "grouped.code.q8_g32_fp16", "outside [-127,127]"});
    refused(cli("oracle pack --format q8_g32_fp16 --shape 1,4 --codes 7fc00002 --scales 007e"), 1, {"invalid_scale"});
    refused(cli("oracle pack --format q8_g32_fp16 --shape 1,4 --codes 7fc00002 --scales 0000"), 1, {"zero_scale_codes"});
    refused(cli("oracle unpack --format q8_g32_fp16 --shape 1,4 --payload 7fc00002"), 1, {"NINFER_E_SIZE (detail size)"});
    // contiguous_le_v1 bf16 [2]: the words little-endian, nothing else.
    o = cli("oracle pack --format bf16 --shape 2 --words 803f0040");
    REQUIRE(o.status == 0);
    CHECK(o.out == "803f0040\n");
    j = ok_json(cli("oracle unpack --format bf16 --shape 2 --payload 803f0040"));
    CHECK(j.at("words") == "803f0040");
    CHECK(j.at("word_list") == json::parse(R"(["3f80","4000"])"));
    refused(cli("oracle unpack --format fp32 --shape 2 --payload 803f0040"), 1,
            {"NINFER_E_SIZE (detail size)", "layout.contiguous_le_v1.size"});
    refused(cli("oracle pack --format bf16 --shape 2 --codes 803f0040"), 2, {"takes --words only"});
}

TEST_CASE("oracle encode and decode: fp8_row_maxabs and nvfp4_two_level, by hand") {
    // fp8_e4m3fn_row_bf16 [1,2] from fp32 {448, -1}: amax 448, scale 448/448 = 1 (BF16 3f80),
    // reciprocal 1: codes E4M3FN 448 = 0x7e, -1 = 0xb8. Payload: 7e b8, zeros to 256, 80 3f.
    const auto src = write_f32("fp8.f32", {0x43E00000u, 0xBF800000u});
    const auto out = tmp_dir() / "fp8.payload";
    auto o = cli("oracle encode --format fp8_e4m3fn_row_bf16 --method fp8_row_maxabs --source-format fp32 --shape 1,2 --source " +
                 src + " --output '" + out.string() + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    const std::string p = slurp(out);
    REQUIRE(p.size() == 258);
    CHECK(hex({p.begin(), p.begin() + 2}) == "7eb8");
    CHECK(hex({p.begin() + 256, p.end()}) == "803f");
    auto j = ok_json(cli("oracle decode --format fp8_e4m3fn_row_bf16 --shape 1,2 --payload '" + out.string() + "'"));
    CHECK(j.at("codes") == json::parse(R"([["7e","b8"]])"));
    CHECK(j.at("scales") == json::parse(R"(["3f80"])"));
    CHECK(j.at("values") == json::parse(R"([["43e00000","bf800000"]])"));
    // A non-finite source: refused by the rule, nothing written.
    o = cli("oracle encode --format fp8_e4m3fn_row_bf16 --method fp8_row_maxabs --source-type fp32 --shape 1,2 --input " +
            write_f32("inf.f32", {0x7F800000u, 0}) + " --output '" + (tmp_dir() / "inf.payload").string() + "'");
    refused(o, 1, {"NINFER_E_NONFINITE", "fp8_row_maxabs.nonfinite", "row 0"});
    CHECK_FALSE(fs::exists(tmp_dir() / "inf.payload"));
    // fp8_e4m3fn_row_fp16 [2,2] from BF16 {448, 1; 0, 0}: row 0 scale 1.0 (binary16 3c00), codes
    // 7e 38; row 1 is all zero: codes 00 00 and multiplier +0. Interleaved: 7e 38 00 3c 00 00 00 00.
    const auto bf = write_bytes("fp8.bf16", {0xe0, 0x43, 0x80, 0x3f, 0, 0, 0, 0});
    o = cli("oracle encode --format fp8_e4m3fn_row_fp16 --method fp8_row_maxabs --source-type bf16 --shape 2,2 --input " +
            bf + " --output '" + (tmp_dir() / "fp8i.payload").string() + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    const std::string pi = slurp(tmp_dir() / "fp8i.payload");
    CHECK(hex({pi.begin(), pi.end()}) == "7e38003c00000000");
    j = ok_json(cli("oracle decode --format fp8_e4m3fn_row_fp16 --shape 2,2 --payload '" + (tmp_dir() / "fp8i.payload").string() + "'"));
    CHECK(j.at("scales") == json::parse(R"(["3c00","0000"])"));
    CHECK(j.at("values") == json::parse(R"([["43e00000","3f800000"],["00000000","00000000"]])"));
    refused(cli("oracle encode --format nvfp4 --method fp8_row_maxabs --source-type fp32 --shape 128,64 --input " + src +
                " --output x"),
            2, {"does not encode nvfp4", "nvfp4_two_level"});

    // nvfp4_two_level [128,64] of all 6.0: tensorAmax 6; each block's scale code E4M3 of
    // binary32(6/6) / binary32(6 / 2688) = 448 -> 0x7e; every element 6 / (448 * 6/2688) = 6 ->
    // E2M1 0x7; divisor binary32(2688 / 6) = 448 (43e00000). Decode: 6 * 448 / 448 = 6 exactly.
    const auto six = write_f32("six.f32", std::vector<std::uint32_t>(128 * 64, 0x40C00000u));
    const auto nv = tmp_dir() / "six.payload";
    o = cli("oracle encode --format nvfp4 --method nvfp4_two_level --source-type fp32 --shape 128,64 --input " + six +
            " --output '" + nv.string() + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    REQUIRE(slurp(nv).size() == 4612);
    j = ok_json(cli("oracle decode --format nvfp4 --shape 128,64 --input '" + nv.string() + "'"));
    CHECK(j.at("divisors") == json::parse(R"(["43e00000"])"));
    CHECK(j.at("codes")[127][63] == 7);
    CHECK(j.at("scales")[5][3] == "7e");
    CHECK(j.at("values")[0][0] == "40c00000");
    CHECK(j.at("values")[127][63] == "40c00000");
    CHECK(j.at("exact_values")[64][1] == "6");
    // The raw values file: N*K binary32 words.
    o = cli("oracle decode --format nvfp4 --shape 128,64 --input '" + nv.string() + "' --values '" +
            (tmp_dir() / "six.values").string() + "'");
    REQUIRE(o.status == 0);
    CHECK(o.out.empty());
    CHECK(slurp(tmp_dir() / "six.values") == slurp(tmp_dir() / "six.f32"));
    refused(cli("oracle encode --format nvfp4 --method nvfp4_two_level --source-type bf16 --shape 128,64 --input " + six +
                " --output x"),
            2, {"takes --source-type fp32"});
    refused(cli("oracle decode --format nvfp4 --shape 128,64 --input " + src), 1, {"NINFER_E_SIZE (detail size)"});
}

TEST_CASE("oracle encode and decode: GGUF reference quantizers and mxfp4_ocp, by hand") {
    // gguf_q8_0 [1,32] of 31 x 127.0 and one -127.0: amax 127, d = 127/127 = 1 (fp16 3c00),
    // q = x / d: 0x7f and 0x81. Block: d little-endian (00 3c), then the 32 code bytes.
    std::vector<std::uint32_t> x(32, 0x42FE0000u);
    x[3] = 0xC2FE0000u;
    const auto q8 = tmp_dir() / "q8_0.payload";
    auto o = cli("oracle encode --format gguf_q8_0 --method ggml_quantize_ref --source-type fp32 --shape 1,32 --input " +
                 write_f32("q8.f32", x) + " --output '" + q8.string() + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    std::string want = "003c";
    for (int i = 0; i < 32; ++i) want += i == 3 ? "81" : "7f";
    const std::string got = slurp(q8);
    CHECK(hex({got.begin(), got.end()}) == want);
    auto j = ok_json(cli("oracle decode --format gguf_q8_0 --shape 1,32 --payload '" + q8.string() + "'"));
    CHECK(j.at("values")[0][0] == "42fe0000");
    CHECK(j.at("values")[0][3] == "c2fe0000");
    CHECK(j.at("exact_values")[0][3] == "-127");
    refused(cli("oracle decode --format gguf_q8_0 --shape 2,32 --payload '" + q8.string() + "'"), 1,
            {"NINFER_E_SIZE (detail size)", "gguf.size", "needs 68"});

    // gguf_mxfp4 [1,32] by mxfp4_ocp: 6.0 everywhere but x0 = 1.0 and x16 = 0.5: amax 6,
    // floor(log2 6) - 2 = 0 -> E8M0 127 (7f); E2M1 codes 6 -> 7, 1 -> 2, 0.5 -> 1. Block: e, then
    // qs[j] = code j | code j+16 << 4: qs[0] = 0x12, the others 0x77.
    std::vector<std::uint32_t> m(32, 0x40C00000u);
    m[0] = 0x3F800000u;
    m[16] = 0x3F000000u;
    const auto mx = tmp_dir() / "mxfp4.payload";
    o = cli("oracle encode --format gguf_mxfp4 --method mxfp4_ocp --source-type fp32 --shape 32 --input " +
            write_f32("mx.f32", m) + " --output '" + mx.string() + "'");
    INFO(o.err);
    REQUIRE(o.status == 0);
    const std::string mb = slurp(mx);
    std::string mwant = "7f12";
    for (int i = 0; i < 15; ++i) mwant += "77";
    CHECK(hex({mb.begin(), mb.end()}) == mwant);
    j = ok_json(cli("oracle decode --format gguf_mxfp4 --shape 32 --payload '" + mx.string() + "'"));
    CHECK(j.at("values")[0][0] == "3f800000");
    CHECK(j.at("values")[0][16] == "3f000000");
    CHECK(j.at("values")[0][31] == "40c00000");

    refused(cli("oracle encode --format gguf_iq2_xxs --method ggml_quantize_ref --source-type fp32 --shape 256 --input " +
                write_f32("z.f32", std::vector<std::uint32_t>(256, 0)) + " --output x"),
            2, {"gguf_iq2_xxs has no reference quantizer", "gguf_q8_0"});
    refused(cli("oracle encode --format gguf_q4_0 --method mxfp4_ocp --source-type fp32 --shape 32 --input x --output y"), 2,
            {"encodes gguf_mxfp4 only"});
}

TEST_CASE("oracle encode and decode wire every GGUF type's blocks in row order (against the oracle's block functions)") {
    // The CLI adds the row and block order of ggml_blocks_v1 (storage-layouts.md Section 7) to the
    // oracle's per-block functions; the blocks themselves are the oracle's (oracle/tests).
    std::mt19937 rng(20261130);  // fixed seed; include it in bug reports
    for (const auto &t : ninfer::abi::kGgufTypes) {
        const std::string name(t.name);
        INFO(name << " (seed 20261130)");
        // [2, 3, 2*block_values]: 6 rows of 2 blocks, random bytes (NaN or Inf scales included).
        std::vector<std::uint8_t> payload(12 * t.block_bytes);
        for (auto &b : payload) b = static_cast<std::uint8_t>(rng());
        const std::string shape = "2,3," + std::to_string(2 * t.block_values);
        const auto values_file = tmp_dir() / (name + ".values");
        const auto o = cli("oracle decode --format " + name + " --shape " + shape + " --payload " +
                           write_bytes(name + ".payload", payload) + " --values '" + values_file.string() + "'");
        INFO(o.err);
        REQUIRE(o.status == 0);
        std::string want;
        for (std::size_t b = 0; b < 12; ++b) {
            const auto d = ninfer::oracle::gguf_dequantize_block(
                t, std::span<const std::uint8_t>(payload).subspan(b * t.block_bytes, t.block_bytes));
            for (const auto w : d.ggml)
                for (int i = 0; i < 4; ++i) want.push_back(static_cast<char>(w >> (8 * i)));
        }
        CHECK(slurp(values_file) == want);
        if (!t.ref_quantizer) continue;
        // Encode [2, 2*block_values] of seeded values: magnitudes in [2, 4), random signs, some zeros.
        std::vector<std::uint32_t> x(4 * t.block_values);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::uint32_t magnitude = i % 7 == 3 ? 0 : 0x40000000u + (rng() & 0x007FFFFFu);
            x[i] = magnitude | (rng() & 1u) << 31;
        }
        const auto out = tmp_dir() / (name + ".encoded");
        const auto e = cli("oracle encode --format " + name + " --method ggml_quantize_ref --source-type fp32 --shape 2," +
                           std::to_string(2 * t.block_values) + " --input " + write_f32(name + ".f32", x) + " --output '" +
                           out.string() + "'");
        INFO(e.err);
        REQUIRE(e.status == 0);
        std::string blocks;
        for (std::size_t b = 0; b < 4; ++b) {
            const auto q = ninfer::oracle::gguf_quantize_block_ref(
                t, std::span<const std::uint32_t>(x).subspan(b * t.block_values, t.block_values));
            REQUIRE(q.status == 0);
            blocks.append(q.block.begin(), q.block.end());
        }
        CHECK(slurp(out) == blocks);
    }
}

TEST_CASE("oracle encode: every GGUF reference quantizer takes finite extremes, no exception's text", "[oracle][gguf]") {
    // Blocks whose 1/d overflows binary32 (products with an infinite inverse, 0 * inf a NaN):
    // ggml's x86-64 release build converts those to 0x80000000 (cvttss2si), whose low byte is 0
    // (oracle/GGUF.md). Before, the oracle stored 0xff, or died on the NaN with
    // "Could not convert NaN to integer." and exit 2.
    std::mt19937_64 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const auto block = [&](std::uint32_t n, int kind) {
        std::vector<std::uint32_t> x(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            const float v = kind == 0   ? normal(rng) * 1e-40f
                            : kind == 1 ? normal(rng) * 1e-38f
                            : kind == 2 ? ((i & 1) ? 3.4028235e38f : -3.4028235e38f)
                            : kind == 3 ? 3.4028235e38f
                            : kind == 5 ? std::fabs(normal(rng)) + 0.5f   // all positive
                            : kind == 6 ? -std::fabs(normal(rng)) - 0.5f  // all negative
                                        : (i % 3 ? 1e-45f : 0.0f);
            x[i] = std::bit_cast<std::uint32_t>(v);
        }
        if (kind < 2) x[n / 2] = 0;  // an exact zero beside the tiny values
        return x;
    };
    // Every quantizer of the registry (ref_quantizer = 1): bytes (exit 0), or a documented refusal
    // (exit 1, one line naming NINFER_E_* and the rule gguf.quantize.<type>); never an exception's text.
    std::size_t quantizers = 0, expected = 0;
    for (const auto &t : ninfer::abi::kGgufTypes) expected += t.ref_quantizer ? 1 : 0;
    for (const auto &t : ninfer::abi::kGgufTypes) {
        if (!t.ref_quantizer) continue;
        ++quantizers;
        for (int kind = 0; kind < 7; ++kind) {
            INFO(t.name << " kind " << kind);
            const auto out = tmp_dir() / "extreme.payload";
            fs::remove(out);
            const auto o = cli(fmt::format("oracle encode --format {} --method ggml_quantize_ref --source-type fp32 --shape "
                                           "1,{} --input {} --output '{}'",
                                           t.name, t.block_values, write_f32("extreme.f32", block(t.block_values, kind)),
                                           out.string()));
            INFO(o.err);
            for (const char *text : {"convert", "Could not", "exception", "what()", "terminate"}) CHECK(o.err.find(text) == std::string::npos);
            if (o.status == 0) {
                CHECK(slurp(out).size() == t.block_bytes);
            } else {
                refused(o, 1, {"refused: NINFER_E_", "gguf.quantize." + std::string(t.name)});
                CHECK_FALSE(fs::exists(out));
            }
        }
    }
    CHECK(quantizers == expected);
    CHECK(quantizers >= 20);
    // q8_0 of tiny gaussian values with a zero: d rounds to binary16 0, every code 0 (ggml's bytes).
    const auto out = tmp_dir() / "tiny.payload";
    REQUIRE(cli("oracle encode --format gguf_q8_0 --method ggml_quantize_ref --source-type fp32 --shape 1,32 --input " +
                write_f32("tiny.f32", block(32, 0)) + " --output '" + out.string() + "'")
                .status == 0);
    CHECK(slurp(out) == std::string(34, '\0'));
}
