#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A codec written with numpy, tested through the exec protocol (harness/README.md, "The exec
protocol"; README.md, "Quick start"): the conversion fp32_to_fp16_rne and the decode of fp16
words, both by numpy's own casts (astype), as a codec author would write them.

The Python SDK (python/README.md) speaks the protocol: binary frames when the harness offers
them (JSON lines when NINFER_FRAMING=lines), a sweep's consecutive inputs made here instead of
sent, call ids echoed, an exception in an op reported as that call's error.

Run it with: ninfer-conform run --exec "python3 harness/examples/numpy_codec.py" --suite scalar.convert
"""
import os
import sys

import numpy as np

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))  # runs from a clone without `pip install ./python`
from ninfer_conform import Call, Refused, Status, Subject  # noqa: E402

subject = Subject("numpy-codec", version=np.__version__)


def word_op(call: Call, out_plane: str, src: str, dst: str, cast) -> dict:
    """call.count words of dtype src cast to words of dtype dst in the output plane out_plane."""
    capacity = call.capacity(out_plane)
    words = call.words(src)
    if capacity < call.count * np.dtype(dst).itemsize:
        raise Refused(Status.BUFFER, "%s is too small" % out_plane)
    return {out_plane: cast(words).astype(dst)}


@subject.op("convert", format="fp16", format_in="fp32", method="fp32_to_fp16_rne")
def fp32_to_fp16_rne(call: Call) -> dict:
    return word_op(call, "words", "<u4", "<u2", lambda w: w.view("<f4").astype("<f2").view("<u2"))


@subject.op("decode", format="fp16")
def decode_fp16(call: Call) -> dict:
    return word_op(call, "values", "<u2", "<u8", lambda w: w.view("<f2").astype("<f8").view("<u8"))


if __name__ == "__main__":
    with np.errstate(all="ignore"):  # overflow to infinity is the conversion's rule, not an error
        subject.serve()
