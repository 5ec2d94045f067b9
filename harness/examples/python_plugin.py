#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A ninfer-conform subject in pure Python, speaking the exec protocol (harness/README.md,
"The exec protocol"): decode of bf16 words and the conversion fp32_to_bf16_rne.

Run it with: ninfer-conform run --exec "python3 harness/examples/python_plugin.py"
"""
import json
import struct
import sys

OK, E_UNSUPPORTED, E_INVALID_ARGUMENT, E_SIZE, E_BUFFER = 0, -1, -2, -3, -4


def bf16_to_binary64_bits(w):
    """The binary64 word of the value of a bf16 word (sign, 8-bit exponent, 7-bit fraction);
    a NaN decodes to a quiet NaN of its sign that keeps its fraction (the NaN principle)."""
    sign = (w >> 15) << 63
    exp = (w >> 7) & 0xFF
    frac = w & 0x7F
    if exp == 0xFF:
        return sign | (0x7FF << 52) | ((1 << 51) if frac else 0) | (frac << 45)
    if exp == 0:
        if frac == 0:
            return sign
        e = -133  # value = frac * 2^-133; normalise the fraction
        while not frac & 0x80:
            frac <<= 1
            e -= 1
        return sign | ((e + 7 + 1023) << 52) | ((frac & 0x7F) << 45)
    return sign | ((exp - 127 + 1023) << 52) | (frac << 45)


def fp32_to_bf16_rne(bits):
    """Round a binary32 word to bf16, nearest-even; a NaN keeps its sign and top payload bits, quieted."""
    if bits & 0x7F800000 == 0x7F800000 and bits & 0x007FFFFF:
        return (bits >> 16) | 0x0040
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def words(data, width, count):
    fmt = {2: "<%dH", 4: "<%dI", 8: "<%dQ"}[width] % count
    return struct.unpack_from(fmt, data)


def refuse(status, message):
    return {"status": status, "detail": 0, "message": message}


def word_op(call, out_plane, in_width, out_width, fn):
    """ABI 2: the input words arrive in the "words" plane; the result goes to the output plane
    the op names ("values" for decode, "words" for convert), within its capacity."""
    count = call["count"]
    if "words" not in call["inputs"] or out_plane not in call["outputs"]:
        return refuse(E_INVALID_ARGUMENT, "missing plane")
    data = bytes.fromhex(call["inputs"]["words"])
    if len(data) < count * in_width:
        return refuse(E_SIZE, "words holds fewer than count words")
    if call["outputs"][out_plane] < count * out_width:
        return refuse(E_BUFFER, "%s is too small" % out_plane)
    fmt = {4: "<%dI", 8: "<%dQ", 2: "<%dH"}[out_width] % count
    out = struct.pack(fmt, *(fn(w) for w in words(data, in_width, count)))
    return {"status": OK, "detail": 0, "message": "", "outputs": {out_plane: out.hex()}}


def handle(call):
    op = call.get("op")
    if op == "decode" and call.get("format") == "bf16":
        return word_op(call, "values", 2, 8, bf16_to_binary64_bits)
    if op == "convert" and call.get("method") == "fp32_to_bf16_rne":
        return word_op(call, "words", 4, 2, fp32_to_bf16_rne)
    return refuse(E_UNSUPPORTED, "python example: %s %s not implemented" % (op, call.get("method") or call.get("format")))


HELLO = {
    "name": "python-example",
    "version": "2.0",
    "abi": 2,
    "capabilities": [
        {"op": "decode", "format": "bf16"},
        {"op": "convert", "format": "bf16", "format_in": "fp32", "layout": None, "method": "fp32_to_bf16_rne"},
    ],
}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("ninfer") == "hello":
            # The harness offers ABI 1..abi_max; this subject speaks 2 only.
            if message.get("abi_max", message.get("abi")) >= 2:
                reply = HELLO
            else:
                reply = {"name": "python-example", "abi": 2, "capabilities": []}
        else:
            reply = handle(message)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
