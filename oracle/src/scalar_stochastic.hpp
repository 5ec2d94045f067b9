// SPDX-License-Identifier: Apache-2.0
// Stochastic rounding under a convention (issue 34 item 2; ninfer/oracle/sr_conventions.hpp),
// shared by scalar_stochastic.cpp and scalar_round.cpp only.
#pragma once

#include "scalar_internal.hpp"

namespace ninfer::oracle::detail {

/// Where and how many random bits a stochastic rounding adds (sr_conventions.hpp): the place 2^low
/// of R's lowest bit is q - k (result_quantum) or the input's last place `input_lsb`.
struct SrRule {
    int k = 0;                     ///< random bits (input_lsb: at most; the dropped bits decide)
    int place = 0;                 ///< oracle::SrPlace
    int reduce = 0;                ///< oracle::SrReduce
    long input_lsb = 0;            ///< the binary32 input's last place (input_lsb, input_lsb_r)
};
Rounded round_stochastic_as(bool negative, const Int &m, long e, const WordFormat &f, const SrRule &rule,
                            std::uint32_t random, std::uint32_t overflow);

/// How many low bits of the random value round_stochastic_as reads for |x| = m 2^e (the result
/// depends on random & (2^bits - 1) alone, and grows with it).
int sr_bits_read(const Int &m, long e, const WordFormat &f, const SrRule &rule);

}  // namespace ninfer::oracle::detail
