// SPDX-License-Identifier: Apache-2.0
// What a named conversion's rule judges (suite scalar.convert; oracle/README.md, "The NaN
// principle"): its domain, and the words whose result rests on a documented suite reading. `run`
// and `sweep` both judge by these, so that the same word gets the same verdict in both.
#pragma once

#include <cstdint>

#include "ninfer/oracle/formats.hpp"

namespace ninfer::suites {

/// Whether a source word is inside the conversion's domain: a word of the source format, and no
/// NaN where the conversion leaves a NaN input undefined (NanRule::UNDEFINED: E2M1 has no NaN).
/// `run` offers no word outside it; `sweep` counts such words as not judged.
bool conversion_in_domain(const oracle::Conversion &c, std::uint64_t w);

/// Whether some source word lies outside the conversion's domain (a sweep judges word by word).
bool conversion_domain_is_partial(const oracle::Conversion &c);

/// Whether the conversion's result for a source word rests on the reading its rule names (NaN,
/// and for unsigned targets negative and infinite inputs; every E8M0 result), given whether the
/// rule rests on a reading at all.
bool conversion_word_is_reading(const oracle::Conversion &c, std::uint64_t w, bool rule_reading);

}  // namespace ninfer::suites
