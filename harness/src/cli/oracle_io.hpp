// SPDX-License-Identifier: Apache-2.0
// What the tensor subcommands of `ninfer-conform oracle` share (docs/cli.md, "oracle geometry,
// pack, unpack, encode, decode"): exit statuses, the one-line failure, shapes, plane arguments
// (a file or hex bytes), bounded file reads and atomic writes. The families' own parts: families.hpp.
// A callback that must end with an exit status throws CLI::RuntimeError(status).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/oracle/formats.hpp"

namespace CLI {
class App;
}

namespace ninfer::harness::cli::tensor {

/// Add geometry, pack, unpack, encode and decode to the `oracle` subcommand (oracle_layout.cpp).
void add_oracle_tensor_subcommands(CLI::App &oracle);

using json = nlohmann::ordered_json;

inline constexpr int kRefused = 1;  ///< refused by a rule (one line naming it)
inline constexpr int kUsage = 2;    ///< usage or input error
/// Largest input or payload file read (a 4096x4096 FP32 matrix is 64 MiB).
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

/// Print `line` on stderr and end the command with `status`.
[[noreturn]] void fail(int status, const std::string &line);

/// The registered format of a name (any family); exit 2 naming every format otherwise.
const abi::FormatView &format_by_name(const std::string &name);

/// "d0,d1,..." (1 to 16 decimal dimensions; "" is rank 0); exit 2 otherwise.
std::vector<std::uint64_t> parse_shape(const std::string &text);
/// [N, K] of a rank-2 family; exit 2 naming the format and the shape otherwise.
std::pair<std::uint64_t, std::uint64_t> rank2(const std::vector<std::uint64_t> &shape, std::string_view format);
/// "[d0,d1,...]" as the messages print a shape.
std::string shape_text(std::span<const std::uint64_t> shape);

/// A file's bytes (at most kMaxInputBytes); exit 2 naming `what` and the path otherwise.
std::vector<std::uint8_t> read_file(const std::string &path, const char *what);
/// A plane argument: hex bytes (only hex digits, optional 0x, an even count) or else a file path.
std::vector<std::uint8_t> read_plane(const std::string &arg, const char *what);
/// Lowercase hex of bytes in buffer order (the one copy in ninfer/abi/bytes.hpp).
using abi::hex_bytes;
/// Write to a temporary beside the target, then rename: readers never see a partial file.
void write_atomically(const std::string &path, const void *data, std::size_t size);
/// Little-endian words of `width` bytes (bytes.size() a multiple of width).
std::vector<std::uint64_t> le_words(std::span<const std::uint8_t> bytes, unsigned width);
/// The raw little-endian binary32 words of an N*K source in `source_type` (fp32, bf16, fp16).
std::vector<std::uint64_t> read_source(const std::string &path, const std::string &source_type, std::uint64_t elements);
/// Exit 2 unless `got` bytes are `want`: "<what> holds G bytes; <why> need W".
void require_bytes(std::uint64_t got, std::uint64_t want, const std::string &what, const std::string &why);

/// "refused: STATUS (detail): message" (detail omitted when 0), exit 1.
[[noreturn]] void refuse(std::int32_t status, std::uint32_t detail, const std::string &message);

// ---- The options of the subcommands ------------------------------------------------------------
struct LayoutOpts {
    std::string format, shape, codes, scales, divisors, words, payload, out;
    std::uint64_t divisor_count = 1;  ///< geometry --divisors
    bool divisors_given = false;
};
struct EncodeOpts {
    std::string format, method, source_type, shape, input, output, importance;
    bool negative_scales = false;
};
struct DecodeOpts {
    std::string format, shape, input, json_out, values_out;
};

/// Write `values` (binary32 words) raw to --values and `j` to --json (or stdout), as decode does.
void emit_decoded(const DecodeOpts &o, std::span<const std::uint32_t> values, const json &j);
/// Row-major [rows][cols] arrays of binary32 hex words and their exact value texts.
void put_values(json &j, std::span<const std::uint32_t> values, std::uint64_t rows, std::uint64_t cols);

}  // namespace ninfer::harness::cli::tensor
