// SPDX-License-Identifier: Apache-2.0
// The reference plugin's scalar word codecs (tensor-formats.txt Sections 3.1, 3.3, 3.4, 6;
// number-formats-lesson.txt Examples 1-9, 13-15): classes, exact values and the named
// conversions are ninfer::native's (ninfer/oracle/native_words.hpp: integer bit manipulation on
// the registry's geometry, no oracle code, cross-checked against the MPFR oracle), one copy for
// the plugin and for `sweep`; the role verdict reads the registry's role columns.
#include "native.hpp"
#include "ninfer/abi/registry.hpp"
#include "ninfer/oracle/native_words.hpp"

namespace ninfer::reference {

bool native_knows_conversion(std::uint32_t conversion_id) { return native::knows_conversion(conversion_id); }

std::uint64_t native_convert(std::uint32_t conversion_id, std::uint64_t src) {
    return native::knows_conversion(conversion_id) ? native::convert_word(conversion_id, src) : 0;
}

bool native_convert_batch(std::uint32_t conversion_id, const std::uint8_t *in, std::uint8_t *out, std::uint64_t n) {
    return native::convert_batch(conversion_id, in, out, n);
}

bool native_knows_format(std::uint32_t format_id) { return native::knows_format(format_id); }

std::uint8_t native_classify(std::uint32_t format_id, std::uint64_t word) { return native::classify(format_id, word); }

std::uint64_t native_decode(std::uint32_t format_id, std::uint64_t word) { return native::decode_to_binary64(format_id, word); }

std::uint8_t native_verdict(std::uint32_t role_id, std::uint64_t word) {
    const auto *r = abi::find_id(abi::kRoles, role_id);
    if (!r) return NINFER_VERDICT_OUTSIDE;
    const std::uint8_t byte = native::classify(r->format, word);
    const std::uint8_t cls = byte & 0x0Fu;
    const bool neg = (byte & NINFER_CLASS_SIGN) != 0;
    if (cls == NINFER_CLASS_OUTSIDE) return NINFER_VERDICT_OUTSIDE;
    if (cls == NINFER_CLASS_QNAN || cls == NINFER_CLASS_SNAN || cls == NINFER_CLASS_NAN) return NINFER_VERDICT_NAN;
    if (cls == NINFER_CLASS_INFINITE) return NINFER_VERDICT_INFINITE;
    // What the role accepts beyond NaN and infinity is a registry column (registry.h NINFER_ROLES).
    if (cls == NINFER_CLASS_ZERO && neg && !r->accepts_negative_zero) return NINFER_VERDICT_NEGATIVE_ZERO;
    if (cls == NINFER_CLASS_ZERO && !neg && !r->accepts_positive_zero) return NINFER_VERDICT_ZERO;
    if (neg && cls != NINFER_CLASS_ZERO && !r->accepts_negative) return NINFER_VERDICT_NEGATIVE;
    return NINFER_VERDICT_VALID;
}

}  // namespace ninfer::reference
