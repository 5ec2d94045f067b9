// SPDX-License-Identifier: Apache-2.0
// Golden vector files: the line format pinned, every golden case round-tripped, every class of
// malformed input refused with one line naming file:line, and the committed vectors/data equal
// byte for byte to a fresh regeneration.
#include <catch2/catch.hpp>
#include <sys/inotify.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "ninfer/suites/rules.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/suites/suites.hpp"
#include "ninfer/vectors/vectors.hpp"

using namespace ninfer;
using namespace ninfer::vectors;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_text(const fs::path &p, const std::string &text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

/// A fresh, empty directory under the build tree for one test.
fs::path scratch(const std::string &name) {
    const fs::path d = fs::path(NINFER_VECTORS_TEST_TMP) / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// Rewrite MANIFEST.sha256 for the .jsonl files of a directory (tests that tamper with content
/// keep the digests right so that the next check down is the one that fires).
void rewrite_manifest(const fs::path &dir) {
    std::set<std::string> names;
    for (const auto &e : fs::directory_iterator(dir))
        if (e.path().extension() == ".jsonl") names.insert(e.path().filename().string());
    std::string m;
    for (const auto &n : names) m += sha256_file(dir / n) + "  " + n + "\n";
    write_text(dir / "MANIFEST.sha256", m);
}

suites::Case bf16_case() {
    suites::Case c;
    c.id = "convert.fp32_to_bf16_rne/pinned";
    c.rule = "convert.fp32_to_bf16_rne";
    c.level = suites::Level::quick;
    c.source = "lesson Example 5";
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_rne;
    c.count = 2;
    suites::put_word(c.input(NINFER_PLANE_WORDS), 0x3F808000, 4);
    suites::put_word(c.input(NINFER_PLANE_WORDS), 0x7FC00001, 4);
    suites::put_word(c.expect.output(NINFER_PLANE_WORDS), 0x3F80, 2);
    suites::put_word(c.expect.output(NINFER_PLANE_WORDS), 0x7FC0, 2);
    return c;
}

const std::string kHeader =
    R"J({"format":"ninfer-conform/vectors","version":3,"suite":"scalar.convert","description":"t","generator":"ninfer-conform oracle (MPFR, exact)","exact":true,"cases":2})J";

/// A small valid vector set: one file with two cases, and its manifest.
fs::path small_set(const std::string &name, const std::string &line2_override = "", const std::string &header = kHeader) {
    const fs::path dir = scratch(name);
    auto second = bf16_case();
    second.id = "convert.fp32_to_bf16_rne/pinned_2";
    second.level = suites::Level::full;
    const std::string l2 = line2_override.empty() ? case_to_line(second) : line2_override;
    write_text(dir / "scalar.convert.jsonl", header + "\n" + case_to_line(bf16_case()) + "\n" + l2 + "\n");
    rewrite_manifest(dir);
    return dir;
}

/// The message of the VectorError that loading `dir` throws ("" when nothing is thrown).
std::string load_error(const fs::path &dir) {
    try {
        load(dir, {}, suites::Level::exhaustive);
    } catch (const VectorError &e) {
        return e.what();
    }
    return "";
}

void check_one_line(const std::string &msg, const std::string &where, const std::string &what) {
    INFO(msg);
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.find(where) != std::string::npos);
    CHECK(msg.find(what) != std::string::npos);
}

std::string replace_once(std::string s, const std::string &from, const std::string &to) {
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("vector line format is pinned", "[vectors][format]") {
    CHECK(case_to_line(bf16_case()) ==
          R"({"id":"convert.fp32_to_bf16_rne/pinned","rule":"convert.fp32_to_bf16_rne","level":"quick",)"
          R"("source":"lesson Example 5","suite_reading":false,"op":"convert","format":"bf16","format_in":"fp32",)"
          R"("layout":null,"method":"fp32_to_bf16_rne","flags":0,"shape":[],"count":2,"profile":null,)"
          R"("inputs":{"words":["3f808000","7fc00001"]},)"
          R"("expect":{"status":"ok","detail":0,"outputs":{"words":["3f80","7fc0"]},"accept":[]},"nan":"exact"})");
    suites::Case layout;
    layout.id = "layout.contiguous_le_v1.size/pinned";
    layout.rule = "layout.contiguous_le_v1.size";
    layout.source = "boundary";
    layout.op = NINFER_OP_layout_decode;
    layout.format = NINFER_FORMAT_int32;
    layout.layout = NINFER_LAYOUT_contiguous_le_v1;
    layout.shape = {2, 18446744073709551615ull};
    layout.input(NINFER_PLANE_PAYLOAD) = {0x01, 0xff};
    layout.expect.status = NINFER_E_SIZE;
    CHECK(case_to_line(layout) ==
          R"({"id":"layout.contiguous_le_v1.size/pinned","rule":"layout.contiguous_le_v1.size","level":"quick",)"
          R"("source":"boundary","suite_reading":false,"op":"layout_decode","format":"int32","format_in":null,)"
          R"("layout":"contiguous_le_v1","method":null,"flags":0,"shape":[2,18446744073709551615],"count":0,"profile":null,)"
          R"("inputs":{"payload":"01ff"},"expect":{"status":"E_SIZE","detail":0,"outputs":{},"accept":[]},"nan":"exact"})");
    // Planes by name, in the op's order: a grouped decode carries three named outputs.
    suites::Case grouped;
    grouped.id = "grouped.code.q8_g32_fp16/pinned";
    grouped.rule = "grouped.code.q8_g32_fp16";
    grouped.source = "boundary";
    grouped.op = NINFER_OP_quant_decode;
    grouped.format = NINFER_FORMAT_q8_g32_fp16;
    grouped.layout = NINFER_LAYOUT_row_split_k128_v1;
    grouped.shape = {1, 1};
    grouped.input(NINFER_PLANE_PAYLOAD) = {0xab};
    grouped.expect.output(NINFER_PLANE_CODES) = {0x01};
    grouped.expect.output(NINFER_PLANE_SCALES) = {0x00, 0x3c};
    grouped.expect.output(NINFER_PLANE_VALUES) = {0x00, 0x00, 0x80, 0x3f};
    CHECK(case_to_line(grouped).find(
              R"("inputs":{"payload":"ab"},"expect":{"status":"ok","detail":0,)"
              R"("outputs":{"codes":"01","scales":"003c","values":"0000803f"},"accept":[]})") != std::string::npos);
    CHECK(case_from_line(case_to_line(grouped), "pinned").expect.outputs == grouped.expect.outputs);
}

TEST_CASE("a case's alternatives (version 4) are written, read back and checked", "[vectors][format][readings]") {
    suites::Case c;
    c.id = "fp8_row_maxabs.rescue/pinned";
    c.rule = "fp8_row_maxabs.rescue";
    c.source = "suite reading";
    c.op = NINFER_OP_quant_encode;
    c.format = NINFER_FORMAT_fp8_e4m3fn_row_bf16;
    c.format_in = NINFER_FORMAT_bf16;
    c.layout = NINFER_LAYOUT_row_scale_v1;
    c.method = NINFER_ENCODER_fp8_row_maxabs;
    c.shape = {1, 1};
    c.input(NINFER_PLANE_SOURCE) = {0x01, 0x00};
    c.expect.output(NINFER_PLANE_PAYLOAD) = {0x7e};
    suites::add_alternative(c, "fp8_row_maxabs.rescue", "encode", {"refuse", NINFER_E_NONFINITE, 0, {}});
    const auto line = case_to_line(c);
    CHECK(line.find(R"("accept":[],"reading":"fp8_row_maxabs.rescue","choice":"encode",)"
                    R"("alternatives":[{"name":"refuse","status":"E_NONFINITE","detail":0,"outputs":{}}]})") !=
          std::string::npos);
    const auto back = case_from_line(line, "pinned");
    CHECK(back.expect.reading == "fp8_row_maxabs.rescue");
    CHECK(back.expect.choice == "encode");
    CHECK(back.expect.alternatives == c.expect.alternatives);
    // A line without alternatives is version 3's, unchanged.
    CHECK(case_to_line(bf16_case()).find("alternatives") == std::string::npos);
    const auto refused = [&](const std::string &from, const std::string &to) {
        try {
            case_from_line(replace_once(line, from, to), "f:2");
        } catch (const VectorError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refused(R"("reading":"fp8_row_maxabs.rescue")", R"("reading":"decode.e8m0")") ==
          "f:2: key \"expect.reading\": \"decode.e8m0\" is not an open reading of the catalog");
    CHECK(refused(R"("name":"refuse")", R"("name":"clip")") == "f:2: outcome \"clip\" is not a choice of fp8_row_maxabs.rescue");
    CHECK(refused(R"("name":"refuse")", R"("name":"encode")") == "f:2: outcome \"encode\" appears twice");
    CHECK(refused(R"("status":"E_NONFINITE")", R"("status":"E_NOPE")") ==
          "f:2: unknown expect.alternatives[0].status \"E_NOPE\" (expected ok or an E_* name of plugin.h)");
    CHECK(refused(R"(,"choice":"encode")", "") == "f:2: missing key \"expect.choice\"");
}

TEST_CASE("a partial outcome's mask (version 4 addition) is written, read back and checked", "[vectors][format][readings]") {
    const suites::Case *found = nullptr;
    static const auto cases = suites::find_suite("gguf.quantize")->golden(suites::Level::quick);
    for (const auto &c : cases)
        if (c.id == "gguf.quantize.gguf_iq4_nl/gguf_iq4_nl.below_group_max_eps") found = &c;
    REQUIRE(found);
    const auto line = case_to_line(*found);
    CHECK(line.find(R"("mask":{"payload":"ff7f00000000000000000000000000000000"})") != std::string::npos);
    CHECK(case_from_line(line, "partial").expect.alternatives == found->expect.alternatives);
    const auto refused = [&](const std::string &from, const std::string &to) {
        try {
            case_from_line(replace_once(line, from, to), "f:2");
        } catch (const VectorError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refused(R"("mask":{"payload":"ff7f00000000000000000000000000000000"})", R"("mask":{"payload":"ff7f"})") ==
          "f:2: key \"expect.alternatives[0].mask.payload\": expected as many bytes as the outcome's plane of that name");
    CHECK(refused(R"("mask":{"payload":"ff7f00000000000000000000000000000000"})", R"("mask":{})") ==
          "f:2: key \"expect.alternatives[0].mask\": expected the masks of an ok outcome's output planes");
    CHECK(refused(R"(,"mask":{"payload":"ff7f00000000000000000000000000000000"})", R"(,"mask":{"payload":"00"},"extra":1)").starts_with(
        "f:2: unknown key \"expect.alternatives[0].extra\""));
    // The expected outcome is never partial: the writer refuses one.
    suites::Case bad = *found;
    bad.expect.mask = bad.expect.alternatives[0].mask;
    CHECK_THROWS_AS(case_to_line(bad), std::logic_error);
}

TEST_CASE("a refusal's random plane of the wrong size is a byte image; any other word plane is count words",
          "[vectors][format]") {
    suites::Case c;
    c.id = "convert.sr.random_plane_size/pinned";
    c.rule = "convert.sr.random_plane_size";
    c.source = "boundary";
    c.op = NINFER_OP_convert;
    c.format = NINFER_FORMAT_bf16;
    c.format_in = NINFER_FORMAT_fp32;
    c.method = NINFER_CONVERSION_fp32_to_bf16_sr_satfinite;
    c.count = 2;
    c.input(NINFER_PLANE_WORDS) = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40};
    c.input(NINFER_PLANE_RANDOM) = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};  // 6 bytes where 2 words need 8
    c.expect.status = NINFER_E_INVALID_ARGUMENT;
    const auto line = case_to_line(c);
    CHECK(line.find(R"("inputs":{"words":["3f800000","40000000"],"random":"010203040506"})") != std::string::npos);
    CHECK(case_from_line(line, "pinned").inputs == c.inputs);
    const auto refused = [&](const std::string &text) {
        try {
            case_from_line(text, "f:2");
        } catch (const VectorError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    // The byte image of count words is not canonical; a served case's planes are count words.
    CHECK(refused(replace_once(line, R"("010203040506")", R"("0102030405060708")")) ==
          "f:2: key \"inputs.random\": a plane of count words is an array of hex words, not a byte image");
    CHECK(refused(replace_once(replace_once(line, R"("status":"E_INVALID_ARGUMENT")", R"("status":"ok")"),
                               R"("outputs":{})", R"("outputs":{"words":["3f80","4000"]})"))
              .find("inputs.random\": expected an array of hex words") != std::string::npos);
    c.expect.status = NINFER_OK;
    c.expect.output(NINFER_PLANE_WORDS) = {0x80, 0x3f, 0x00, 0x40};
    CHECK_THROWS_AS(case_to_line(c), std::logic_error);  // the writer never writes a served case's plane short
}

TEST_CASE("every golden case round-trips through its line", "[vectors][roundtrip]") {
    std::size_t n = 0;
    for (const auto &suite : suites::suite_catalog())
        for (const auto &c : suite.golden(suites::Level::exhaustive)) {
            const auto line = case_to_line(c);
            const auto back = case_from_line(line, suite.name + ".jsonl:" + std::to_string(n + 2));
            INFO(c.id);
            REQUIRE(back.id == c.id);
            CHECK(back.rule == c.rule);
            CHECK(back.level == c.level);
            CHECK(back.source == c.source);
            CHECK(back.suite_reading == c.suite_reading);
            CHECK((back.op == c.op && back.format == c.format && back.format_in == c.format_in &&
                   back.layout == c.layout && back.method == c.method && back.flags == c.flags));
            CHECK(back.shape == c.shape);
            CHECK(back.count == c.count);
            CHECK(back.profile == c.profile);
            CHECK(back.inputs == c.inputs);
            CHECK((back.expect.status == c.expect.status && back.expect.detail == c.expect.detail));
            CHECK(back.expect.outputs == c.expect.outputs);
            CHECK(back.expect.accept == c.expect.accept);
            CHECK((back.expect.reading == c.expect.reading && back.expect.choice == c.expect.choice));
            CHECK(back.expect.alternatives == c.expect.alternatives);
            CHECK(back.nan == c.nan);
            CHECK(case_to_line(back) == line);
            ++n;
        }
    CHECK(n > 1000);
}

TEST_CASE("SHA-256 of a file (FIPS 180-2 'abc')", "[vectors][sha256]") {
    const auto dir = scratch("sha");
    write_text(dir / "abc", "abc");
    CHECK(sha256_file(dir / "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_THROWS_AS(sha256_file(dir / "absent"), VectorError);
}

TEST_CASE("a valid set loads, filtered by level and suite, with the manifest digest", "[vectors][load]") {
    const auto dir = small_set("valid");
    const auto all = load(dir, {}, suites::Level::exhaustive);
    REQUIRE(all.cases.size() == 2);
    CHECK(all.cases[0].id == "convert.fp32_to_bf16_rne/pinned");
    CHECK(all.manifest_sha256 == sha256_file(dir / "MANIFEST.sha256"));
    CHECK(load(dir, {"scalar.convert"}, suites::Level::quick).cases.size() == 1);
    check_one_line([&] {
        try {
            load(dir, {"scalar.nothing"}, suites::Level::quick);
        } catch (const VectorError &e) {
            return std::string(e.what());
        }
        return std::string();
    }(), "MANIFEST.sha256", "no vector file for suite \"scalar.nothing\"");
}

TEST_CASE("malformed vector sets are refused with one line naming file:line", "[vectors][errors]") {
    const std::string file = "scalar.convert.jsonl";
    const std::string good = case_to_line(bf16_case());
    SECTION("missing manifest") {
        const auto dir = small_set("no_manifest");
        fs::remove(dir / "MANIFEST.sha256");
        check_one_line(load_error(dir), "MANIFEST.sha256", "missing manifest");
    }
    SECTION("missing file") {
        const auto dir = small_set("missing_file");
        fs::remove(dir / file);
        check_one_line(load_error(dir), file, "missing file listed in MANIFEST.sha256");
    }
    SECTION("digest mismatch") {
        const auto dir = small_set("digest");
        write_text(dir / file, read_text(dir / file) + "\n");
        check_one_line(load_error(dir), file, "SHA-256 mismatch");
    }
    SECTION("file not in the manifest") {
        const auto dir = small_set("extra");
        write_text(dir / "scalar.extra.jsonl", kHeader + "\n");
        check_one_line(load_error(dir), "scalar.extra.jsonl", "not listed in MANIFEST.sha256");
    }
    SECTION("malformed manifest line") {
        const auto dir = small_set("bad_manifest");
        write_text(dir / "MANIFEST.sha256", "abc  " + file + "\n");
        check_one_line(load_error(dir), "MANIFEST.sha256:1", "expected \"<64 lowercase hex digits>  <file>\"");
    }
    SECTION("unknown version") {
        const auto dir = small_set("version", "", replace_once(kHeader, "\"version\":3", "\"version\":5"));
        check_one_line(load_error(dir), file + ":1", "unknown version 5 (this reader knows versions 3 to 4)");
    }
    SECTION("a version 1 file (unnamed buffers in, aux, out)") {
        const auto dir = small_set("version1", "", replace_once(kHeader, "\"version\":3", "\"version\":1"));
        check_one_line(load_error(dir), file + ":1",
                       "version 1 is an older vector format (this reader knows versions 3 to 4; regenerate the set with "
                       "ninfer-conform generate --out DIR)");
    }
    SECTION("a version 2 file (no profile, no accept)") {
        const auto dir = small_set("version2", "", replace_once(kHeader, "\"version\":3", "\"version\":2"));
        check_one_line(load_error(dir), file + ":1", "version 2 is an older vector format (this reader knows versions 3 to 4;");
    }
    SECTION("a plane the op does not have") {
        const auto dir = small_set("plane", replace_once(good, "\"inputs\":{\"words\"", "\"inputs\":{\"scales\""));
        check_one_line(load_error(dir), file + ":3", "key \"inputs\": unknown plane \"scales\" for op convert (expected words, random)");
    }
    SECTION("planes not an object") {
        const auto dir = small_set("planes_array", replace_once(good, "\"outputs\":{\"words\":[\"3f80\",\"7fc0\"]}", "\"outputs\":[]"));
        check_one_line(load_error(dir), file + ":3", "key \"expect.outputs\": expected an object of named planes");
    }
    SECTION("truncated line") {
        const auto dir = small_set("truncated");
        const auto text = read_text(dir / file);
        write_text(dir / file, text.substr(0, text.size() - 20));
        rewrite_manifest(dir);
        check_one_line(load_error(dir), file + ":3", "truncated line");
    }
    SECTION("truncated JSON within a line") {
        const auto dir = small_set("truncated_json", good.substr(0, good.size() / 2));
        check_one_line(load_error(dir), file + ":3", "truncated or malformed line");
    }
    SECTION("fewer cases than the header says") {
        const auto dir = small_set("short");
        const auto text = read_text(dir / file);
        write_text(dir / file, text.substr(0, text.rfind('\n', text.size() - 2) + 1));
        rewrite_manifest(dir);
        check_one_line(load_error(dir), file + ":2", "truncated: header says 2 cases, file holds 1");
    }
    SECTION("bad hex") {
        const auto dir = small_set("hex", replace_once(good, "\"3f808000\"", "\"3f8g8000\""));
        check_one_line(load_error(dir), file + ":3", "bad hex");
    }
    SECTION("hex word of the wrong width") {
        const auto dir = small_set("hex_width", replace_once(good, "\"3f80\"", "\"03f80\""));
        check_one_line(load_error(dir), file + ":3", "expected a string of 4 hex digits");
    }
    SECTION("wrong word count") {
        const auto dir = small_set("count", replace_once(good, "\"count\":2", "\"count\":3"));
        check_one_line(load_error(dir), file + ":3", "wrong word count: 2 words where count is 3");
    }
    SECTION("unknown op") {
        const auto dir = small_set("op", replace_once(good, "\"op\":\"convert\"", "\"op\":\"convertt\""));
        check_one_line(load_error(dir), file + ":3", "unknown op \"convertt\"");
    }
    SECTION("unknown format") {
        const auto dir = small_set("format", replace_once(good, "\"format\":\"bf16\"", "\"format\":\"bf17\""));
        check_one_line(load_error(dir), file + ":3", "unknown format \"bf17\"");
    }
    SECTION("unknown method") {
        const auto dir = small_set("method", replace_once(good, "\"method\":\"fp32_to_bf16_rne\"", "\"method\":\"fp32_to_bf16_rnd\""));
        check_one_line(load_error(dir), file + ":3", "unknown method \"fp32_to_bf16_rnd\"");
    }
    SECTION("unknown status") {
        const auto dir = small_set("status", replace_once(good, "\"status\":\"ok\"", "\"status\":\"E_WHATEVER\""));
        check_one_line(load_error(dir), file + ":3", "unknown expect.status \"E_WHATEVER\"");
    }
    SECTION("unknown rule") {
        const auto line = replace_once(replace_once(good, "\"rule\":\"convert.fp32_to_bf16_rne\"", "\"rule\":\"convert.nope\""),
                                       "\"id\":\"convert.fp32_to_bf16_rne/pinned\"", "\"id\":\"convert.nope/x\"");
        const auto dir = small_set("rule", line);
        check_one_line(load_error(dir), file + ":3", "unknown rule \"convert.nope\"");
    }
    SECTION("unknown key") {
        const auto dir = small_set("key", replace_once(good, "\"nan\":\"exact\"", "\"nan\":\"exact\",\"extra\":1"));
        check_one_line(load_error(dir), file + ":3", "unknown key \"extra\"");
    }
    SECTION("a number no double holds") {
        const auto dir = small_set("range", replace_once(good, "\"flags\":0", "\"flags\":1e400"));
        check_one_line(load_error(dir), file + ":3", "number 1e400 is out of the range of a double");
    }
    SECTION("a line nested 100000 levels deep") {
        const auto dir = small_set("deep", std::string(100000, '[') + std::string(100000, ']'));
        const auto msg = load_error(dir);
        check_one_line(msg, file + ":3", "nesting deeper than 64 levels");
        CHECK(msg.size() < 400);
    }
    SECTION("an integer past its field's range") {
        const auto dir = small_set("int_range", replace_once(good, "\"flags\":0", "\"flags\":4294967296"));
        check_one_line(load_error(dir), file + ":3", "key \"flags\": 4294967296 exceeds 4294967295");
    }
    SECTION("duplicate ids") {
        const auto dir = small_set("duplicate", good);
        check_one_line(load_error(dir), file + ":3", "duplicate case id \"convert.fp32_to_bf16_rne/pinned\" (first at");
    }
}

TEST_CASE("each file is opened once: the bytes hashed are the bytes parsed", "[vectors][load]") {
    const auto dir = small_set("read_once");
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(inotify_add_watch(fd, dir.c_str(), IN_OPEN) >= 0);
    CHECK(load(dir, {}, suites::Level::exhaustive).cases.size() == 2);
    std::map<std::string, int> opens;
    alignas(inotify_event) char buf[1 << 14];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
        for (char *p = buf; p < buf + n;) {
            const auto *ev = reinterpret_cast<const inotify_event *>(p);
            if (ev->len > 0) ++opens[ev->name];
            p += sizeof(inotify_event) + ev->len;
        }
    ::close(fd);
    CHECK(opens["MANIFEST.sha256"] == 1);
    CHECK(opens["scalar.convert.jsonl"] == 1);
}

TEST_CASE("regenerated vectors equal the committed vectors/data byte for byte", "[vectors][regeneration]") {
    const auto dir = scratch("regenerated");
    write_golden(dir);
    const fs::path committed = NINFER_VECTORS_SOURCE_DIR;
    std::set<std::string> fresh, kept;
    for (const auto &e : fs::directory_iterator(dir)) fresh.insert(e.path().filename().string());
    for (const auto &e : fs::directory_iterator(committed)) kept.insert(e.path().filename().string());
    CHECK(fresh == kept);
    for (const auto &name : fresh) {
        INFO(name << " differs: regenerate with `ninfer-conform generate --out vectors/data`");
        CHECK(read_text(dir / name) == read_text(committed / name));
    }
    for (const auto &name : fresh) CHECK(name.find(".tmp") == std::string::npos);
    // The committed set loads cleanly and holds every golden case of every suite.
    std::size_t golden = 0;
    for (const auto &s : suites::suite_catalog()) golden += s.golden(suites::Level::exhaustive).size();
    const auto loaded = load(committed, {}, suites::Level::exhaustive);
    CHECK(loaded.cases.size() == golden);
    CHECK(default_vectors_dir() == committed);
}
