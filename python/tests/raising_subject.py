#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 25, item 6: a subject whose op raises on some calls (e2e_test.sh): the SDK must report
each such call as that case's failure, naming the exception, and keep serving the others."""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # the SDK from this clone
from ninfer_conform import Call, Subject  # noqa: E402

subject = Subject("raising-subject", version="1")


@subject.op("decode", format="fp16")
def decode_fp16(call: Call) -> dict:
    words = call.words("<u2")
    if (words == 0x3C00).any():  # the deliberate bug: any call holding 1.0
        raise RuntimeError("deliberate failure on a call holding 1.0")
    return {"values": words.view("<f2").astype("<f8").view("<u8")}


if __name__ == "__main__":
    subject.serve()
