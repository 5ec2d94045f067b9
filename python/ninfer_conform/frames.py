# SPDX-License-Identifier: Apache-2.0
"""The two framings of the exec protocol (harness/README.md, "The exec protocol" and "Binary
framing"): JSON lines with hex planes, and NFB1 binary frames with raw planes.

Both read a request as (header dict, {plane name: bytes}) and write a reply from a header dict
and a list of (plane name, byte view) pairs, so that the dispatcher never sees the framing.
"""
import json
import struct
from typing import BinaryIO, Dict, List, Optional, Sequence, Tuple

MAGIC = b"NFB1"
PREFIX = struct.Struct("<4sIQ")  # magic, header_len, payload_len (all little-endian)

Header = Dict[str, object]
Planes = Dict[str, memoryview]
OutPlanes = Sequence[Tuple[str, memoryview]]


class FrameError(Exception):
    """The harness sent something this framing cannot read; the stream cannot be resynchronised."""


def read_exact(stream: BinaryIO, n: int) -> Optional[bytearray]:
    """n bytes, or None at the end of the input before the first byte (the harness closed the
    pipe between calls: a normal end). readinto into one buffer avoids copying large planes."""
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = stream.readinto(view[got:])  # type: ignore[attr-defined]
        if not k:
            if got == 0:
                return None
            raise FrameError("the harness closed the pipe inside a frame")
        got += k
    return buf


def _header_object(text: bytes, what: str) -> Header:
    """A JSON object, or FrameError naming what it was meant to be."""
    try:
        value = json.loads(text)
    except ValueError as e:
        raise FrameError("%s is not JSON: %s" % (what, e)) from None
    if not isinstance(value, dict):
        raise FrameError("%s is not a JSON object" % what)
    return value


def read_binary(stream: BinaryIO) -> Optional[Tuple[Header, Planes]]:
    """One request frame, or None at the end of the input. Inputs are listed as [name, bytes]
    pairs; their bytes follow the header in that order."""
    prefix = read_exact(stream, PREFIX.size)
    if prefix is None:
        return None
    magic, header_len, payload_len = PREFIX.unpack(prefix)
    if magic != MAGIC:
        raise FrameError('request frame does not start with "NFB1" (its first bytes are %s)' % bytes(prefix[:4]).hex(" "))
    header = _header_object(bytes(read_exact(stream, header_len) or b""), "request frame header")
    planes: Planes = {}
    total = 0
    for name, size in header.get("inputs") or []:  # type: ignore[union-attr]
        planes[name] = memoryview(read_exact(stream, size) or bytearray()) if size else memoryview(b"")
        total += size
    if total != payload_len:
        raise FrameError("request frame carries %d bytes of planes but its header lists %d" % (payload_len, total))
    return header, planes


def write_binary(stream: BinaryIO, header: Header, outputs: OutPlanes) -> None:
    """One reply frame: the header lists the planes as [name, bytes] pairs (lists fix the order
    of the payload in every language), then their raw bytes; flushed, since the harness waits."""
    header = dict(header, outputs=[[name, view.nbytes] for name, view in outputs])
    text = json.dumps(header).encode()
    stream.write(PREFIX.pack(MAGIC, len(text), sum(view.nbytes for _, view in outputs)))
    stream.write(text)
    for _, view in outputs:
        stream.write(view)
    stream.flush()


def read_line(stream: BinaryIO) -> Optional[Tuple[Header, Planes]]:
    """One JSON-lines request, or None at the end of the input; its planes are hex strings."""
    line = stream.readline()
    if not line:
        return None
    header = _header_object(line, "request line")
    inputs = header.get("inputs") or {}
    try:
        planes = {name: memoryview(bytes.fromhex(text)) for name, text in inputs.items()}  # type: ignore[union-attr]
    except (ValueError, TypeError, AttributeError) as e:
        raise FrameError('request "inputs" is not an object of hex strings: %s' % e) from None
    return header, planes


def write_line(stream: BinaryIO, header: Header, outputs: OutPlanes) -> None:
    """One JSON-lines reply: planes as lowercase hex, one line, flushed."""
    header = dict(header, outputs={name: view.hex() for name, view in outputs})
    stream.write((json.dumps(header) + "\n").encode())
    stream.flush()


def write_hello(stream: BinaryIO, reply: Header) -> None:
    """The hello reply is a JSON line in both framings."""
    stream.write((json.dumps(reply) + "\n").encode())
    stream.flush()


__all__: List[str] = ["FrameError", "MAGIC", "PREFIX", "read_binary", "read_exact", "read_line",
                      "write_binary", "write_hello", "write_line"]
