#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A codec written with numpy, tested through the exec protocol (harness/README.md, "The exec
protocol" and "Binary framing"; README.md, "Quick start"): the conversion fp32_to_fp16_rne and
the decode of fp16 words, both by numpy's own casts (astype), as a codec author would write them.

It chooses the binary framing when the harness offers it (raw little-endian planes, no hex; a
sweep's consecutive inputs made here with numpy.arange instead of sent), and falls back to JSON
lines otherwise or when NINFER_FRAMING=lines is set. It chooses call ids when the harness offers
them, and echoes each request's "id" in its reply ("Reply matching").

Run it with: ninfer-conform run --exec "python3 harness/examples/numpy_codec.py" --suite scalar.convert
"""
import json
import os
import struct
import sys

import numpy as np

OK, E_UNSUPPORTED, E_INVALID_ARGUMENT, E_SIZE, E_BUFFER = 0, -1, -2, -3, -4
MAGIC = b"NFB1"
PREFIX = struct.Struct("<4sIQ")  # magic, header_len, payload_len
UINT = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}


def refuse(status, message):
    return {"status": status, "detail": 0, "message": message}, []


def word_op(call, words, out_plane, src, dst, cast):
    """count words of dtype src (an array, or None when the "words" plane is missing), cast to
    words of dtype dst for the output plane `out_plane`. Returns (reply fields, [(plane, array)])."""
    count = call["count"]
    if words is None or out_plane not in call["outputs"]:
        return refuse(E_INVALID_ARGUMENT, "missing plane")
    if len(words) < count:
        return refuse(E_SIZE, "words holds fewer than count words")
    if call["outputs"][out_plane] < count * dst.itemsize:
        return refuse(E_BUFFER, "%s is too small" % out_plane)
    return {"status": OK, "detail": 0, "message": ""}, [(out_plane, cast(words[:count]).astype(dst))]


def handle(call, words_of):
    """The reply of one call; words_of(dtype) gives the "words" input plane as an array, or None."""
    op = call.get("op")
    if op == "convert" and call.get("method") == "fp32_to_fp16_rne":
        src, dst = np.dtype("<u4"), np.dtype("<u2")
        return word_op(call, words_of(src), "words", src, dst, lambda w: w.view("<f4").astype("<f2").view("<u2"))
    if op == "decode" and call.get("format") == "fp16":
        src, dst = np.dtype("<u2"), np.dtype("<u8")
        return word_op(call, words_of(src), "values", src, dst, lambda w: w.view("<f2").astype("<f8").view("<u8"))
    return refuse(E_UNSUPPORTED, "numpy codec: %s %s not implemented" % (op, call.get("method") or call.get("format")))


CAPABILITIES = [
    {"op": "convert", "format": "fp16", "format_in": "fp32", "layout": None, "method": "fp32_to_fp16_rne"},
    {"op": "decode", "format": "fp16"},
]


def read_exact(stream, n):
    """n bytes, or None at the end of the input before the first byte."""
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = stream.readinto(view[got:])
        if not k:
            if got == 0:
                return None
            raise EOFError("the harness closed the pipe inside a frame")
        got += k
    return buf


def echo_id(call, reply):
    """The request's call id into its reply (a harness that offers no call ids sends none)."""
    if "id" in call:
        reply["id"] = call["id"]


def serve_binary(inp, out):
    """Binary frames: a 16-byte prefix, a JSON header, then the planes' raw bytes."""
    while True:
        prefix = read_exact(inp, PREFIX.size)
        if prefix is None:
            return
        magic, header_len, payload_len = PREFIX.unpack(prefix)
        if magic != MAGIC:
            raise ValueError("not a binary frame")
        call = json.loads(read_exact(inp, header_len))
        planes = {name: read_exact(inp, size) if size else bytearray() for name, size in call["inputs"]}
        iota = call.get("iota")

        def words_of(dtype):
            if iota is not None:  # consecutive words start, start+1, ... made here
                start = iota["start"]
                return np.arange(start, start + call["count"], dtype=np.uint64).astype(UINT[iota["width"]])
            if "words" not in planes:
                return None
            data = planes["words"]
            return np.frombuffer(data, dtype=dtype, count=len(data) // dtype.itemsize)

        reply, outputs = handle(call, words_of)
        echo_id(call, reply)
        reply["outputs"] = [[name, a.nbytes] for name, a in outputs]
        header = json.dumps(reply).encode()
        out.write(PREFIX.pack(MAGIC, len(header), sum(a.nbytes for _, a in outputs)))
        out.write(header)
        for _, a in outputs:
            out.write(memoryview(np.ascontiguousarray(a)).cast("B"))
        out.flush()


def serve_lines(inp, out):
    """JSON lines: planes as little-endian hex inside the JSON request and reply."""
    for line in inp:
        call = json.loads(line)

        def words_of(dtype):
            if "words" not in call["inputs"]:
                return None
            data = bytes.fromhex(call["inputs"]["words"])
            return np.frombuffer(data, dtype=dtype, count=len(data) // dtype.itemsize)

        reply, outputs = handle(call, words_of)
        echo_id(call, reply)
        reply["outputs"] = {name: a.tobytes().hex() for name, a in outputs}
        out.write((json.dumps(reply) + "\n").encode())
        out.flush()


def main():
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    hello = json.loads(inp.readline())
    # The harness offers ABI 1..abi_max; this codec speaks 2 only.
    if hello.get("abi_max", hello.get("abi")) < 2:
        out.write((json.dumps({"name": "numpy-codec", "abi": 2, "capabilities": []}) + "\n").encode())
        out.flush()
        return
    binary = "binary" in hello.get("framings", []) and os.environ.get("NINFER_FRAMING", "binary") != "lines"
    reply = {"name": "numpy-codec", "version": np.__version__, "abi": 2, "capabilities": CAPABILITIES}
    if binary:
        reply.update({"framing": "binary", "iota": True})
    if hello.get("ids") is True:
        reply["ids"] = True
    out.write((json.dumps(reply) + "\n").encode())
    out.flush()
    with np.errstate(all="ignore"):  # overflow to infinity is the conversion's rule, not an error
        (serve_binary if binary else serve_lines)(inp, out)


if __name__ == "__main__":
    main()
