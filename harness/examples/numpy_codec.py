#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A codec written with numpy, tested through the exec protocol (harness/README.md, "The exec
protocol"; README.md, "Quick start"): the conversion fp32_to_fp16_rne and the decode of fp16
words, both by numpy's own casts (astype), as a codec author would write them.

Run it with: ninfer-conform run --exec "python3 harness/examples/numpy_codec.py" --suite scalar.convert
"""
import json
import sys

import numpy as np

OK, E_UNSUPPORTED, E_INVALID_ARGUMENT, E_SIZE, E_BUFFER = 0, -1, -2, -3, -4


def refuse(status, message):
    return {"status": status, "detail": 0, "message": message}


def word_op(call, out_plane, src, dst, cast):
    """count words of dtype src in the "words" plane, the cast's words of dtype dst in the
    output plane `out_plane` (ABI 2: planes by name, little-endian hex)."""
    count = call["count"]
    if "words" not in call["inputs"] or out_plane not in call["outputs"]:
        return refuse(E_INVALID_ARGUMENT, "missing plane")
    data = bytes.fromhex(call["inputs"]["words"])
    if len(data) < count * src.itemsize:
        return refuse(E_SIZE, "words holds fewer than count words")
    if call["outputs"][out_plane] < count * dst.itemsize:
        return refuse(E_BUFFER, "%s is too small" % out_plane)
    words = np.frombuffer(data, dtype=src, count=count)
    return {"status": OK, "detail": 0, "message": "", "outputs": {out_plane: cast(words).astype(dst).tobytes().hex()}}


def handle(call):
    op = call.get("op")
    if op == "convert" and call.get("method") == "fp32_to_fp16_rne":
        return word_op(call, "words", np.dtype("<u4"), np.dtype("<u2"), lambda w: w.view("<f4").astype("<f2").view("<u2"))
    if op == "decode" and call.get("format") == "fp16":
        return word_op(call, "values", np.dtype("<u2"), np.dtype("<u8"), lambda w: w.view("<f2").astype("<f8").view("<u8"))
    return refuse(E_UNSUPPORTED, "numpy codec: %s %s not implemented" % (op, call.get("method") or call.get("format")))


HELLO = {
    "name": "numpy-codec",
    "version": np.__version__,
    "abi": 2,
    "capabilities": [
        {"op": "convert", "format": "fp16", "format_in": "fp32", "layout": None, "method": "fp32_to_fp16_rne"},
        {"op": "decode", "format": "fp16"},
    ],
}


def main():
    with np.errstate(all="ignore"):  # overflow to infinity is the conversion's rule, not an error
        for line in sys.stdin:
            message = json.loads(line)
            if message.get("ninfer") == "hello":
                # The harness offers ABI 1..abi_max; this codec speaks 2 only.
                if message.get("abi_max", message.get("abi")) >= 2:
                    reply = HELLO
                else:
                    reply = {"name": "numpy-codec", "abi": 2, "capabilities": []}
            else:
                reply = handle(message)
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
