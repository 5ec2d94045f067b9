// SPDX-License-Identifier: Apache-2.0
// Hand-built behaviour fingerprints (issue 24, item 1) for the report tests: one exact match and
// one with residue. Their numbers are made up but consistent: matched = inputs - mismatches.
#pragma once

#include "ninfer/reports/report.hpp"

namespace ninfer::reports::testing {

/// decode.bf16 matched on all 65536 words by the policy that is a registry decode.
inline Fingerprint exact_fingerprint() {
    Fingerprint f;
    f.op = "decode";
    f.conversion = "bf16";
    f.source = "bf16";
    f.target = "fp32";
    f.domain = "all";
    f.inputs = 65536;
    f.matched = 65536;
    f.rounding = "exact";
    f.overflow = "none";
    f.subnormals = "kept";
    f.nan = "kept";
    f.policy_text = "exact, subnormals kept, NaN payload and sign kept";
    f.named = "bf16";
    f.sentence = "matches bf16: exact, subnormals kept, NaN payload and sign kept on 65536 of 65536 inputs";
    return f;
}

/// fp32 -> bf16 on a stratified sample: nearest-even to infinity, but 12 of the 510 NaN inputs
/// stay signalling (7f810000 -> 7f81 where quieting gives 7fc1); no infinity input differs.
inline Fingerprint residue_fingerprint() {
    Fingerprint f;
    f.op = "convert";
    f.conversion = "fp32_to_bf16_rne";
    f.source = "fp32";
    f.target = "bf16";
    f.domain = "stratified";
    f.inputs = 4096;
    f.matched = 4084;
    f.rounding = "rne";
    f.overflow = "inf";
    f.subnormals = "kept";
    f.nan = "quiet";
    f.policy_text = "nearest-even, to infinity, NaN quieted (payload & sign kept)";
    f.equivalent = {"rne, to infinity, subnormals flushed on input, NaN quieted"};
    f.residue = {{"nan", 510, 12, "7f810000", "7fc1", "7f81"}, {"infinity", 2, 0, "", "", ""}};
    f.sentence = "nearest fp32_to_bf16_rne: nearest-even, to infinity, NaN quieted (payload & sign kept) on 4084 of 4096 "
                 "inputs";
    return f;
}

}  // namespace ninfer::reports::testing
