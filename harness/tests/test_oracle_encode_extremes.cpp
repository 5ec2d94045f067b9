// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform oracle encode` of every encoder of the registry (NINFER_ENCODERS) on every
// format it targets, fed hostile finite and non-finite sources (issue 21, section 2: "no input
// makes `oracle` print an exception's text"). Each run ends in one of two documented ways
// (docs/cli.md): exit 0 with a payload, or exit 1 with one line "refused: NINFER_E_<status>:
// rule <id>: ..." and no file. Never exit 2 (a harness error), a signal, or a library's message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "ninfer/abi/registry.hpp"

namespace fs = std::filesystem;
namespace abi = ninfer::abi;

namespace {

fs::path tmp_dir() {
    static const fs::path d = [] {
        return ninfer::harness::test::scratch("encode-extremes");
    }();
    fs::create_directories(d);
    return d;
}

/// A target of an encoder: a format name and a source shape its layout accepts.
struct Target {
    std::string format;
    std::uint32_t rows, cols;
};

/// The target formats of an encoder, one function per family whose formats take encoders.
std::vector<Target> grouped_targets(const abi::Encoder &) {
    std::vector<Target> t;
    for (const auto &g : abi::kGroupedFormats)
        if (g.canonical_encoders) t.push_back({std::string(g.name), 2, 128});  // K a multiple of 128
    return t;
}
std::vector<Target> scaled_targets(const abi::Encoder &e) {
    std::vector<Target> t;
    for (const auto &s : abi::kScaledFormats)
        if (s.encoder == e.id) t.push_back({std::string(s.name), s.divisors ? 128u : 2u, 64});  // nvfp4: one M tile
    return t;
}
std::vector<Target> gguf_targets(const abi::Encoder &e) {
    std::vector<Target> t;
    for (const auto &g : abi::kGgufTypes) {
        const bool ggml = e.id == abi::detail::encoder_ggml_quantize_ref && g.ref_quantizer;
        const bool mx = e.id == abi::detail::encoder_mxfp4_ocp && g.name == "gguf_mxfp4";
        if (ggml || mx) t.push_back({std::string(g.name), 1, g.block_values});
    }
    return t;
}

struct FamilyTargets {
    abi::Family family;
    std::vector<Target> (*targets)(const abi::Encoder &);
};
constexpr FamilyTargets kFamilyTargets[] = {
    {abi::Family::grouped, grouped_targets},
    {abi::Family::scaled, scaled_targets},
    {abi::Family::gguf, gguf_targets},
};

std::vector<Target> targets_of(const abi::Encoder &e) {
    for (const auto &f : kFamilyTargets)
        if (f.family == e.family) return f.targets(e);
    return {};  // a family without encoders (word)
}

/// The source classes: where 1/scale overflows, where the scale overflows, zeros beside
/// subnormals, signed zeros, and each non-finite value once among ordinary ones.
std::vector<std::pair<std::string, std::vector<std::uint32_t>>> sources(std::size_t n) {
    std::mt19937_64 rng(21);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const float max = std::numeric_limits<float>::max();
    const auto fill = [&](auto value) {
        std::vector<std::uint32_t> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = std::bit_cast<std::uint32_t>(static_cast<float>(value(i)));
        return x;
    };
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> s;
    s.emplace_back("tiny gaussian with a zero", fill([&](std::size_t i) { return i == n / 2 ? 0.0f : normal(rng) * 1e-40f; }));
    s.emplace_back("gaussian times 1e-38", fill([&](std::size_t) { return normal(rng) * 1e-38f; }));
    s.emplace_back("alternating +-FLT_MAX", fill([&](std::size_t i) { return (i & 1) ? max : -max; }));
    s.emplace_back("all FLT_MAX", fill([&](std::size_t) { return max; }));
    s.emplace_back("all -FLT_MAX", fill([&](std::size_t) { return -max; }));
    s.emplace_back("smallest subnormal and zeros", fill([&](std::size_t i) { return i % 3 ? 1e-45f : 0.0f; }));
    s.emplace_back("all +0", fill([&](std::size_t) { return 0.0f; }));
    s.emplace_back("all -0", fill([&](std::size_t) { return -0.0f; }));
    s.emplace_back("FLT_MAX beside 1e-30", fill([&](std::size_t i) { return i == 0 ? max : 1e-30f; }));
    const float nonfinite[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity()};
    for (const float v : nonfinite)
        s.emplace_back(fmt::format("{} among ones", v), fill([&](std::size_t i) { return i == 3 ? v : 1.0f; }));
    auto snan = fill([&](std::size_t) { return 1.0f; });
    snan[1] = 0xFF800001u;  // a negative signalling NaN
    s.emplace_back("signalling NaN among ones", snan);
    return s;
}

std::string write_f32(const fs::path &p, const std::vector<std::uint32_t> &words) {
    std::ofstream f(p, std::ios::binary);
    for (const auto w : words)
        for (int i = 0; i < 4; ++i) f.put(static_cast<char>(w >> (8 * i)));
    return "'" + p.string() + "'";
}

}  // namespace

TEST_CASE("oracle encode: every encoder and target ends in a payload or one documented refusal", "[oracle][encode]") {
    std::size_t runs = 0, payloads = 0, refusals = 0;
    for (const auto &e : abi::kEncoders) {
        for (const auto &t : targets_of(e)) {
            for (const auto &[what, x] : sources(std::size_t{t.rows} * t.cols)) {
                INFO(e.name << " -> " << t.format << ": " << what);
                const auto in = write_f32(tmp_dir() / "source.f32", x);
                const auto out = tmp_dir() / "payload.bin";
                fs::remove(out);
                const auto o = ninfer::harness::test::run_cli(
                    tmp_dir(), fmt::format("oracle encode --format {} --method {} --source-type fp32 --shape {},{} "
                                           "--input {} --output '{}'",
                                           t.format, e.name, t.rows, t.cols, in, out.string()));
                INFO("stderr: " << o.err);
                ++runs;
                REQUIRE((o.status == 0 || o.status == 1));
                CHECK(o.err.find("onvert") == std::string::npos);    // Boost's "Could not convert ..."
                CHECK(o.err.find("xception") == std::string::npos);  // any exception's own text
                CHECK(o.err.find("what()") == std::string::npos);
                if (o.status == 0) {
                    ++payloads;
                    CHECK(fs::is_regular_file(out));
                    CHECK(fs::file_size(out) > 0);
                } else {
                    ++refusals;
                    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
                    CHECK(o.err.rfind("refused: NINFER_E_", 0) == 0);
                    CHECK(o.err.find(": rule ") != std::string::npos);
                    CHECK_FALSE(fs::exists(out));
                }
            }
        }
    }
    // Every encoder has a target; the hostile sources are refused somewhere and encoded somewhere.
    for (const auto &e : abi::kEncoders) CHECK_FALSE(targets_of(e).empty());
    CHECK(runs > 0);
    CHECK(payloads > 0);
    CHECK(refusals > 0);
}
