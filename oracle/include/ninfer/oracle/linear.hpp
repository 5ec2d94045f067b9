// SPDX-License-Identifier: Apache-2.0
// The `linear` operator oracle (tensor-formats.txt Section 2, "A compute profile owns ...",
// Sections 8-9, "the observable Op result is qualified against the independent oracle with the
// Op's named criterion for that implementation profile"; suites/LINEAR.md): Y = W_hat X^T for a
// weight W [N,K] of any registered tensor format and an activation X [M,K] of fp32, bf16 or
// fp16 words, with every weight decoded exactly by its format's decode oracle and every product
// and sum exact (exact rationals / big integers; MPFR only for the one final rounding), judged
// under the profile's named criterion (abi::kProfiles, abi::kCriteria).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ninfer/abi/registry.hpp"

namespace ninfer::oracle {

/// One `linear` call (suites/LINEAR.md, "Call"): weight `format` in `layout`, shape [n, k],
/// m activation rows, compute `profile`, the ACTIVATION and OUTPUT planes' word formats.
struct LinearCall {
    std::uint32_t format = 0, layout = 0, profile = 0;
    std::uint64_t n = 0, k = 0, m = 0;
    std::uint32_t activation_format = 0, output_format = 0;
    std::uint32_t rank = 2;  ///< the call's shape rank (linear takes rank 2 only: [N, K])
};

/// What the oracle expects of a call: a refusal (status, detail as the payload decode names it,
/// why), or the OUTPUT words and their acceptance.
struct LinearExpect {
    std::int32_t status = NINFER_OK;
    std::uint32_t detail = 0;
    std::string why;  ///< one line: the check that refuses the call
    /// M*N words of output_format, row-major [M,N]: the correctly rounded exact result (bit_exact
    /// profiles: the profile's defined word).
    std::vector<std::uint8_t> output;
    /// Per element lo, hi, flags (suites::Expect::accept, suites/case.hpp).
    std::vector<std::uint8_t> accept;
};

/// The oracle's expectation of one call (the check order of suites/LINEAR.md, then every element).
LinearExpect linear_expect(const LinearCall &c, std::span<const std::uint8_t> payload,
                           std::span<const std::uint8_t> activation);

/// One output element explained for a report: the exact value its criterion measures from
/// (y_exact; gguf_q8_1_product: y_q on the q8_1 activation), the bound, and the actual word's
/// error. Text is the oracle's exact value text (word_value_text style; a rational shows its
/// decimal approximation and its exact form).
struct LinearExplain {
    std::string exact;        ///< the exact result
    std::string bound;        ///< the criterion's bound B; "" for bit_exact and correctly_rounded
    std::string criterion;    ///< "linear.<criterion>" and its parameters (k, u)
    double error_ulps = 0;    ///< |y - y_exact| in ulps of the output format at y_exact (inf: NaN or inf)
    double bound_fraction = 0;///< |y - y_exact| / B (NaN without a bound)
};

/// Explain element (row m, column n) of a call whose payload and activation the oracle accepts,
/// for an actual output word. Throws std::invalid_argument for a refused call or an index outside.
LinearExplain linear_explain(const LinearCall &c, std::span<const std::uint8_t> payload,
                             std::span<const std::uint8_t> activation, std::uint64_t m, std::uint64_t n,
                             std::uint64_t actual_word);

}  // namespace ninfer::oracle
