# SPDX-License-Identifier: Apache-2.0
"""Issue 25, item 6: a subject of the exec protocol (harness/README.md, "The exec protocol") as
declared capabilities plus one Python function per op.

    subject = Subject("my-codec", version="1.0")

    @subject.op("decode", format="fp16")
    def decode_fp16(call):
        words = call.words("<u2")                    # a numpy array of call.count words
        return {"values": words.view("<f2").astype("<f8")}

    subject.serve()

The Subject answers the hello (ABI 2, binary frames and call ids when the harness offers them),
reads each request, calls the function whose capability matches, and writes its reply. A
function returns {plane name: buffer} (numpy arrays, bytes, array.array, memoryview: anything
with the buffer protocol, little-endian), a Reply, or None; it refuses with ``raise
Refused(Status.SIZE, "why")``. Any other exception becomes a reply with Status.INTERNAL naming
it (and its traceback on stderr), so one bad call costs one case, not the subject.
"""
import enum
import os
import sys
import traceback
from array import array
from typing import Any, BinaryIO, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ninfer_conform import frames, registry
from ninfer_conform.suggest import unknown_name_line

ABI = 2  # the exec protocol version this package speaks (harness/README.md, "Handshake")
CAPABILITY_KEYS = ("format", "format_in", "layout", "method", "profile")


class Status(enum.IntEnum):
    """The status table of the C ABI (abi/include/ninfer/abi/plugin.h, NINFER_STATUSES); a unit
    test reads that header so the two cannot drift."""
    OK = 0
    UNSUPPORTED = -1
    INVALID_ARGUMENT = -2
    SIZE = -3
    BUFFER = -4
    LAYOUT = -5
    CONVERSION = -6
    NONFINITE = -7
    SCALE_OVERFLOW = -8
    INVALID_PAYLOAD = -9
    METHOD = -10
    INTERNAL = -100


class Refused(Exception):
    """Raised by an op function to answer the call with a status (and payload_validate's detail):
    the harness scores it as the op's refusal, not as a failure of the subject."""

    def __init__(self, status: int, message: str = "", detail: int = 0) -> None:
        super().__init__(message)
        self.status, self.message, self.detail = int(status), message, detail


Buffer = Any  # anything exposing the buffer protocol (numpy arrays, bytes, array.array, memoryview)


class Reply:
    """A reply with more than planes: a status other than OK, or a detail, with its planes."""

    def __init__(self, outputs: Optional[Mapping[str, Buffer]] = None, status: int = Status.OK,
                 detail: int = 0, message: str = "") -> None:
        self.outputs, self.status, self.detail, self.message = dict(outputs or {}), int(status), detail, message


def _iota_bytes(start: int, width: int, count: int) -> memoryview:
    """The little-endian words start, start+1, ... of `width` bytes that an iota request stands
    for; numpy when present (a sweep chunk holds millions), array otherwise."""
    try:
        import numpy as np
        words = np.arange(start, start + count, dtype=np.uint64).astype("<u%d" % width)
        return memoryview(words).cast("B")
    except ImportError:
        code = next(c for c in "BHILQ" if array(c).itemsize == width)
        words = array(code, range(start, start + count))
        if sys.byteorder == "big":
            words.byteswap()
        return memoryview(words).cast("B")


class Call:
    """One request: the registry names of its op, format, format_in, layout and method, its
    counts and shape, the input planes as byte views, and the output planes' capacities."""

    def __init__(self, header: Mapping[str, Any], inputs: Dict[str, memoryview]) -> None:
        self.header = header
        self.op: str = header.get("op")  # type: ignore[assignment]
        self.format: Optional[str] = header.get("format")
        self.format_in: Optional[str] = header.get("format_in")
        self.layout: Optional[str] = header.get("layout")
        self.method: Optional[str] = header.get("method")
        self.flags: int = header.get("flags", 0)
        self.shape: List[int] = list(header.get("shape") or [])
        self.count: int = header.get("count", 0)
        self.profile: int = header.get("profile", 0)
        self.outputs: Dict[str, int] = dict(header.get("outputs") or {})
        self.formats: Dict[str, str] = dict(header.get("formats") or {})
        self.id: Optional[int] = header.get("id")
        iota = header.get("iota")
        self.iota: Optional[Tuple[int, int]] = (iota["start"], iota["width"]) if iota else None
        self.inputs = inputs
        if self.iota is not None and header.get("inputs"):  # the first plane stands for consecutive words
            self.inputs[header["inputs"][0][0]] = _iota_bytes(self.iota[0], self.iota[1], self.count)

    def plane(self, name: str) -> memoryview:
        """An input plane's bytes; Refused(INVALID_ARGUMENT) when the call has no such plane."""
        if name not in self.inputs:
            raise Refused(Status.INVALID_ARGUMENT, "missing plane %s" % name)
        return self.inputs[name]

    def capacity(self, name: str) -> int:
        """An output plane's capacity in bytes; Refused(INVALID_ARGUMENT) when it is not offered."""
        if name not in self.outputs:
            raise Refused(Status.INVALID_ARGUMENT, "missing plane %s" % name)
        return self.outputs[name]

    def words(self, dtype: Any, plane: str = "words") -> Any:
        """The first `count` elements of an input plane as a read-only numpy array of dtype;
        Refused(SIZE) when it holds fewer (the C ABI's rule for a words plane)."""
        import numpy as np
        dtype = np.dtype(dtype)
        data = self.plane(plane)
        if data.nbytes < self.count * dtype.itemsize:
            raise Refused(Status.SIZE, "%s holds fewer than count words" % plane)
        return np.frombuffer(data, dtype=dtype, count=self.count)


Handler = Callable[[Call], Union[Mapping[str, Buffer], Reply, None]]


def _byte_view(name: str, value: Buffer) -> memoryview:
    """A plane's bytes as a flat view; big-endian items are refused because every plane is the
    little-endian image of the C ABI."""
    view = memoryview(value)
    prefix = view.format[:1]
    if view.itemsize > 1 and (prefix in ">!" or (sys.byteorder == "big" and prefix != "<")):
        raise TypeError("plane %s is not little-endian (buffer format %r)" % (name, view.format))
    if view.c_contiguous:
        try:
            return view.cast("B")  # no copy
        except TypeError:  # a format cast() does not take (e.g. "<H"): fall through to one copy
            pass
    return memoryview(view.tobytes())


def _check_name(what: str, name: Any, names: Sequence[str]) -> None:
    """ValueError unless `name` is one of `names`, worded as the CLI words an unknown name."""
    if not isinstance(name, str):
        raise ValueError("Subject.op: %s is %r, expected a registry name (a string) or None" % (what, name))
    if name not in names:
        raise ValueError(unknown_name_line("Subject.op: unknown %s '%s'" % (what, name), name, names, "ninfer-conform list"))


def _check_capability(capability: Mapping[str, Any]) -> None:
    """The names of a capability against the registry (python/ninfer_conform/registry.py)."""
    op = capability["op"]
    _check_name("op", op, registry.OPS)
    for key in ("format", "format_in"):
        if key in capability:
            _check_name("format", capability[key], registry.FORMATS)
    if "layout" in capability:
        _check_name("layout", capability["layout"], registry.LAYOUTS)
    if "method" in capability:
        if op not in registry.METHODS:
            raise ValueError("Subject.op: method given for op %s, which takes none (only %s take one)"
                             % (op, ", ".join(registry.METHODS)))
        kind, names = registry.METHODS[op]
        _check_name(kind, capability["method"], names)
    profile = capability.get("profile")
    if profile is not None and (not isinstance(profile, int) or isinstance(profile, bool) or not 0 <= profile <= 0xFFFFFFFF):
        raise ValueError("Subject.op: profile is %r, expected an unsigned 32-bit integer or None" % (profile,))


class Subject:
    """A subject of the exec protocol: a name, a version, capabilities with one function each."""

    def __init__(self, name: str, version: str = "", framing: str = "binary", iota: bool = True) -> None:
        """framing "binary" asks for raw planes when the harness offers them (NINFER_FRAMING=lines
        in the environment forces JSON lines, for debugging); iota asks for a sweep's
        consecutive inputs as (start, width), expanded here, so the pipe carries no input bytes."""
        self.name, self.version, self.framing, self.iota = name, version, framing, iota
        self.capabilities: List[Tuple[Dict[str, Any], Handler]] = []

    def op(self, op: str, format: Optional[str] = None, format_in: Optional[str] = None,
           layout: Optional[str] = None, method: Optional[str] = None,
           profile: Optional[int] = None) -> Callable[[Handler], Handler]:
        """Declare a capability by the registry's names (`ninfer-conform list`; None = any) and
        register the decorated function as its implementation. A name the registry lacks raises
        ValueError here, at decoration, with the CLI's suggestions ("did you mean ...?")."""
        capability: Dict[str, Any] = {"op": op}
        for key, value in zip(CAPABILITY_KEYS, (format, format_in, layout, method, profile)):
            if value is not None:
                capability[key] = value
        _check_capability(capability)

        def register(fn: Handler) -> Handler:
            self.capabilities.append((capability, fn))
            return fn
        return register

    def hello_reply(self, hello: Mapping[str, Any]) -> Dict[str, Any]:
        """The answer to the harness's hello: ABI 2 with our capabilities; binary frames, iota and
        call ids only where the hello offers them. A harness older than ABI 2 gets no
        capabilities (it will refuse the subject by name, which is clearer than half a protocol)."""
        if (hello.get("abi_max", hello.get("abi")) or 0) < ABI:
            return {"name": self.name, "abi": ABI, "capabilities": []}
        reply: Dict[str, Any] = {"name": self.name, "version": self.version, "abi": ABI,
                                 "capabilities": [c for c, _ in self.capabilities]}
        if self.binary_chosen(hello):
            reply["framing"] = "binary"
            if self.iota:
                reply["iota"] = True
        if hello.get("ids") is True:
            reply["ids"] = True
        return reply

    def binary_chosen(self, hello: Mapping[str, Any]) -> bool:
        """Binary frames when we want them, the harness offers them and the environment allows."""
        offered = "binary" in (hello.get("framings") or [])
        return self.framing == "binary" and offered and os.environ.get("NINFER_FRAMING", "binary") != "lines"

    def handler_for(self, call: Call) -> Optional[Handler]:
        """The first function whose capability matches the call (None and absent keys match any)."""
        for capability, fn in self.capabilities:
            if capability["op"] == call.op and all(getattr(call, k) == v for k, v in capability.items() if k != "op"):
                return fn
        return None

    def answer(self, call: Call) -> Tuple[Dict[str, Any], List[Tuple[str, memoryview]]]:
        """The reply header and planes of one call. Never raises: an unknown call is UNSUPPORTED,
        Refused its status, anything else INTERNAL with the exception named in the message."""
        fn = self.handler_for(call)
        try:
            if fn is None:
                raise Refused(Status.UNSUPPORTED, "%s: %s %s not implemented" % (
                    self.name, call.op, call.method or call.format))
            result = fn(call)
            reply = result if isinstance(result, Reply) else Reply(result)
            outputs = [(name, _byte_view(name, value)) for name, value in reply.outputs.items()]
            self._check_outputs(call, outputs)
            header: Dict[str, Any] = {"status": reply.status, "detail": reply.detail, "message": reply.message}
        except Refused as r:
            header, outputs = {"status": r.status, "detail": r.detail, "message": r.message}, []
        except Exception as e:  # the author's bug: one case errs, the subject lives on
            traceback.print_exc(file=sys.stderr)
            message = "%s: %s" % (type(e).__name__, e)
            header, outputs = {"status": int(Status.INTERNAL), "detail": 0, "message": " ".join(message.split())}, []
        if call.id is not None:
            header["id"] = call.id
        return header, outputs

    @staticmethod
    def _check_outputs(call: Call, outputs: Sequence[Tuple[str, memoryview]]) -> None:
        """An output plane the call did not offer, or over its capacity, is the function's bug:
        said here by plane name rather than as the harness's protocol error."""
        for name, view in outputs:
            if name not in call.outputs:
                raise ValueError("returned plane %r, not an output plane of the call (%s)" % (name, ", ".join(call.outputs)))
            if view.nbytes > call.outputs[name]:
                raise ValueError("returned %d bytes in plane %r, capacity %d" % (view.nbytes, name, call.outputs[name]))

    def serve(self, stdin: Optional[BinaryIO] = None, stdout: Optional[BinaryIO] = None) -> None:
        """Answer the hello, then every request until the harness closes stdin. While serving,
        sys.stdout is stderr: a stray print() in an op function would otherwise corrupt the
        protocol stream."""
        inp = stdin or sys.stdin.buffer
        out = stdout or sys.stdout.buffer
        line = inp.readline()
        if not line:
            return
        hello = frames._header_object(line, "hello")
        reply = self.hello_reply(hello)
        frames.write_hello(out, reply)
        if reply["abi"] != ABI or "version" not in reply:  # the harness is too old: it closes us
            return
        binary = reply.get("framing") == "binary"
        read, write = (frames.read_binary, frames.write_binary) if binary else (frames.read_line, frames.write_line)
        saved, sys.stdout = sys.stdout, sys.stderr
        try:
            while True:
                request = read(inp)
                if request is None:
                    return
                header, outputs = self.answer(Call(*request))
                write(out, header, outputs)
        finally:
            sys.stdout = saved
