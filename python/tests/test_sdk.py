# SPDX-License-Identifier: Apache-2.0
"""Issue 25, item 6: the ninfer_conform SDK against the exec protocol as harness/README.md spells
it ("Handshake", "Calls", "Binary framing", "Reply matching"). Expected bytes are worked by hand
from that text, not produced by the SDK. Run: PYTHONPATH=python python3 -m unittest discover -s python/tests
"""
import array
import io
import json
import os
import re
import struct
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
from unittest import mock

from ninfer_conform import Call, Refused, Reply, Status, Subject
from ninfer_conform import frames, suggest

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN_H = os.path.join(HERE, "..", "..", "abi", "include", "ninfer", "abi", "plugin.h")
HELLO = {"ninfer": "hello", "abi": 1, "abi_max": 2, "framings": ["lines", "binary"], "ids": True}
# harness/README.md, "Binary framing": the request of fp32 words 0x3F800000 and 0x3F808000.
CONVERT = {"op": "convert", "format": "bf16", "format_in": "fp32", "layout": None, "method": "fp32_to_bf16_rne",
           "flags": 0, "shape": [2], "count": 2, "profile": 0, "outputs": {"words": 4}, "formats": {}}
CONVERT_WORDS = bytes.fromhex("0000803f0080803f")


def top_halves(call):
    """fp32 -> bf16 by truncation: enough for framing tests (0x3F800000, 0x3F808000 -> 0x3F80, 0x3F80)."""
    data = bytes(call.plane("words"))
    return {"words": b"".join(data[i + 2:i + 4] for i in range(0, 4 * call.count, 4))}


def subject_with(fn, **capability):
    subject = Subject("test-subject", version="9")
    subject.op(**capability)(fn)
    return subject


def binary_request(header, planes):
    """A request frame built by hand: NFB1, header_len, payload_len, header, planes."""
    text = json.dumps(dict(header, inputs=[[n, len(b)] for n, b in planes])).encode()
    payload = b"".join(b for _, b in planes)
    return b"NFB1" + struct.pack("<IQ", len(text), len(payload)) + text + payload


def parse_binary_replies(data):
    """(header, payload) of each reply frame in data, checking the prefix as the harness does."""
    replies, at = [], 0
    while at < len(data):
        magic, header_len, payload_len = struct.unpack_from("<4sIQ", data, at)
        assert magic == b"NFB1", data[at:at + 4]
        header = json.loads(data[at + 16:at + 16 + header_len])
        payload = data[at + 16 + header_len:at + 16 + header_len + payload_len]
        replies.append((header, payload))
        at += 16 + header_len + payload_len
    return replies


def serve(subject, hello, body):
    """The subject's stdout after reading the hello line then body."""
    out = io.BytesIO()
    subject.serve(io.BytesIO((json.dumps(hello) + "\n").encode() + body), out)
    return out.getvalue()


def split_hello(data):
    line, _, rest = data.partition(b"\n")
    return json.loads(line), rest


class Handshake(unittest.TestCase):
    def setUp(self):
        os.environ.pop("NINFER_FRAMING", None)
        self.subject = subject_with(top_halves, op="convert", format="bf16", format_in="fp32", method="fp32_to_bf16_rne")

    def test_chooses_abi_2_binary_iota_and_ids_when_offered(self):
        reply, _ = split_hello(serve(self.subject, HELLO, b""))
        self.assertEqual(reply, {"name": "test-subject", "version": "9", "abi": 2, "framing": "binary", "iota": True,
                                 "ids": True, "capabilities": [{"op": "convert", "format": "bf16", "format_in": "fp32",
                                                                "method": "fp32_to_bf16_rne"}]})

    def test_keeps_lines_and_no_ids_with_a_harness_that_offers_neither(self):
        reply, _ = split_hello(serve(self.subject, {"ninfer": "hello", "abi": 1, "abi_max": 2}, b""))
        self.assertNotIn("framing", reply)
        self.assertNotIn("iota", reply)
        self.assertNotIn("ids", reply)

    def test_ninfer_framing_lines_forces_json_lines(self):
        with mock.patch.dict(os.environ, {"NINFER_FRAMING": "lines"}):
            reply, _ = split_hello(serve(self.subject, HELLO, b""))
        self.assertNotIn("framing", reply)

    def test_an_abi_1_harness_gets_no_capabilities_and_the_subject_stops(self):
        line = json.dumps(dict(CONVERT, inputs={"words": CONVERT_WORDS.hex()})).encode() + b"\n"
        reply, rest = split_hello(serve(self.subject, {"ninfer": "hello", "abi": 1}, line))
        self.assertEqual((reply["abi"], reply["capabilities"], rest), (2, [], b""))


class BinaryFrames(unittest.TestCase):
    def setUp(self):
        os.environ.pop("NINFER_FRAMING", None)
        self.subject = subject_with(top_halves, op="convert", method="fp32_to_bf16_rne")

    def test_the_readme_example_frame(self):
        _, rest = split_hello(serve(self.subject, HELLO, binary_request(dict(CONVERT, id=5), [("words", CONVERT_WORDS)])))
        (header, payload), = parse_binary_replies(rest)
        self.assertEqual(header, {"status": 0, "detail": 0, "message": "", "id": 5, "outputs": [["words", 4]]})
        self.assertEqual(payload, bytes.fromhex("803f803f"))

    def test_two_calls_two_frames_in_order_with_their_ids(self):
        body = binary_request(dict(CONVERT, id=1), [("words", CONVERT_WORDS)]) + \
            binary_request(dict(CONVERT, id=2, count=1), [("words", bytes.fromhex("0000c03f"))])
        _, rest = split_hello(serve(self.subject, HELLO, body))
        replies = parse_binary_replies(rest)
        self.assertEqual([(h["id"], p) for h, p in replies], [(1, bytes.fromhex("803f803f")), (2, bytes.fromhex("c03f"))])

    def test_iota_inputs_are_made_here(self):
        seen = []
        subject = subject_with(lambda call: seen.append(bytes(call.plane("words"))), op="convert")
        header = dict(CONVERT, count=3, iota={"start": 5, "width": 4}, id=1)
        split_hello(serve(subject, HELLO, binary_request(header, [("words", b"")])))
        self.assertEqual(seen, [bytes.fromhex("050000000600000007000000")])

    def test_iota_without_numpy(self):
        seen = []
        subject = subject_with(lambda call: seen.append(bytes(call.plane("words"))), op="convert")
        header = dict(CONVERT, count=2, iota={"start": 0xFFFE, "width": 2}, id=1)
        with mock.patch.dict(sys.modules, {"numpy": None}):  # import numpy raises ImportError
            split_hello(serve(subject, HELLO, binary_request(header, [("words", b"")])))
        self.assertEqual(seen, [bytes.fromhex("feffffff")])

    def test_a_frame_without_the_magic_is_a_frame_error(self):
        with self.assertRaisesRegex(frames.FrameError, 'does not start with "NFB1"'):
            serve(self.subject, HELLO, b'{"op":"convert"}\n' + bytes(16))


class JsonLines(unittest.TestCase):
    def setUp(self):
        os.environ["NINFER_FRAMING"] = "lines"
        self.addCleanup(os.environ.pop, "NINFER_FRAMING", None)

    def test_the_readme_example_line_with_its_id(self):
        subject = subject_with(top_halves, op="convert", method="fp32_to_bf16_rne")
        line = json.dumps(dict(CONVERT, id=7, inputs={"words": CONVERT_WORDS.hex()})).encode() + b"\n"
        _, rest = split_hello(serve(subject, HELLO, line))
        self.assertEqual(json.loads(rest), {"status": 0, "detail": 0, "message": "", "id": 7, "outputs": {"words": "803f803f"}})
        self.assertEqual(rest.count(b"\n"), 1)


class Replies(unittest.TestCase):
    """What the SDK makes of an op function's result, its refusals and its bugs."""

    def answer(self, fn, outputs=None, **capability):
        subject = subject_with(fn, **(capability or {"op": "convert"}))
        header = dict(CONVERT, outputs=outputs or CONVERT["outputs"], id=3)
        return subject.answer(Call(header, {"words": memoryview(CONVERT_WORDS)}))

    def test_an_exception_becomes_an_internal_status_naming_it(self):
        with mock.patch("sys.stderr", io.StringIO()) as err:
            header, outputs = self.answer(lambda call: 1 // 0)
        self.assertEqual((header["status"], header["id"], outputs), (-100, 3, []))
        self.assertEqual(header["message"], "ZeroDivisionError: integer division or modulo by zero")
        self.assertIn("Traceback", err.getvalue())

    def test_the_subject_answers_the_call_after_one_that_raised(self):
        calls = []

        def flaky(call):
            calls.append(call.id)
            if len(calls) == 1:
                raise RuntimeError("first call\nfails")
            return top_halves(call)
        body = binary_request(dict(CONVERT, id=1), [("words", CONVERT_WORDS)]) + \
            binary_request(dict(CONVERT, id=2), [("words", CONVERT_WORDS)])
        with mock.patch("sys.stderr", io.StringIO()):
            _, rest = split_hello(serve(subject_with(flaky, op="convert"), HELLO, body))
        (first, _), (second, payload) = parse_binary_replies(rest)
        self.assertEqual((first["status"], first["message"]), (-100, "RuntimeError: first call fails"))
        self.assertEqual((second["status"], second["id"], payload), (0, 2, bytes.fromhex("803f803f")))

    def test_refused_carries_status_message_and_detail(self):
        def refuse(call):
            raise Refused(Status.INVALID_PAYLOAD, "scale is NaN", detail=4)
        header, _ = self.answer(refuse)
        self.assertEqual((header["status"], header["detail"], header["message"]), (-9, 4, "scale is NaN"))

    def test_a_reply_object_keeps_its_status_and_planes(self):
        header, outputs = self.answer(lambda call: Reply({"words": b"\x01\x02"}, status=Status.OK, detail=0, message="hi"))
        self.assertEqual((header["message"], [(n, bytes(v)) for n, v in outputs]), ("hi", [("words", b"\x01\x02")]))

    def test_an_undeclared_call_is_unsupported(self):
        header, _ = self.answer(top_halves, op="decode", format="bf16")
        self.assertEqual((header["status"], header["message"]), (-1, "test-subject: convert fp32_to_bf16_rne not implemented"))

    def test_capability_keys_must_all_match(self):
        header, _ = self.answer(top_halves, op="convert", format="fp16")
        self.assertEqual(header["status"], -1)

    def test_a_plane_the_call_did_not_offer_is_internal(self):
        with mock.patch("sys.stderr", io.StringIO()):
            header, _ = self.answer(lambda call: {"values": b"\0\0"})
        self.assertEqual(header["status"], -100)
        self.assertIn("'values', not an output plane of the call (words)", header["message"])

    def test_a_plane_over_its_capacity_is_internal(self):
        with mock.patch("sys.stderr", io.StringIO()):
            header, _ = self.answer(lambda call: {"words": bytes(5)})
        self.assertIn("returned 5 bytes in plane 'words', capacity 4", header["message"])

    def test_missing_and_short_planes_are_refused_as_the_c_abi_does(self):
        header, _ = self.answer(lambda call: call.capacity("values"))
        self.assertEqual((header["status"], header["message"]), (-2, "missing plane values"))
        header, _ = self.answer(lambda call: call.words("<u8"))  # 8 bytes hold 1 of the 2 words
        self.assertEqual((header["status"], header["message"]), (-3, "words holds fewer than count words"))

    @unittest.skipUnless(sys.byteorder == "little", "array.array is native-endian")
    def test_any_buffer_protocol_object_is_a_plane(self):
        header, outputs = self.answer(lambda call: {"words": array.array("H", [0x3F80, 0x0102])})
        self.assertEqual(bytes(outputs[0][1]), bytes.fromhex("803f0201"))

    def test_numpy_planes_strided_or_big_endian(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("no numpy")
        strided = np.array([[0x3F80, 0], [0x0102, 0]], dtype="<u2")[:, 0]
        _, outputs = self.answer(lambda call: {"words": strided})
        self.assertEqual(bytes(outputs[0][1]), bytes.fromhex("803f0201"))
        with mock.patch("sys.stderr", io.StringIO()):
            header, _ = self.answer(lambda call: {"words": np.array([1, 2], dtype=">u2")})
        self.assertEqual(header["status"], -100)
        self.assertIn("not little-endian", header["message"])

    def test_print_in_an_op_goes_to_stderr_not_the_protocol(self):
        def chatty(call):
            print("debugging output")
            return top_halves(call)
        body = binary_request(dict(CONVERT, id=1), [("words", CONVERT_WORDS)])
        with mock.patch("sys.stderr", io.StringIO()) as err:
            _, rest = split_hello(serve(subject_with(chatty, op="convert"), HELLO, body))
        self.assertEqual(len(parse_binary_replies(rest)), 1)
        self.assertEqual(err.getvalue(), "debugging output\n")


class StatusTable(unittest.TestCase):
    def test_status_matches_the_c_abi_header(self):
        if not os.path.exists(PLUGIN_H):
            self.skipTest("no abi/include (not run from the repository)")
        with open(PLUGIN_H, encoding="utf-8") as f:
            rows = re.findall(r"X\((-?\d+), (?:E_)?([A-Z_]+), \w+, \"", f.read().split("NINFER_STATUSES(X)")[1].split("enum")[0])
        self.assertEqual(sorted((int(v), n) for v, n in rows), sorted((s.value, s.name) for s in Status))
        self.assertEqual(len(rows), 12)


class Backend(unittest.TestCase):
    """The in-tree PEP 517 backend builds a wheel whose RECORD hashes its files, and an sdist."""

    def setUp(self):
        sys.path.insert(0, os.path.join(HERE, "..", "build_backend"))
        self.addCleanup(sys.path.pop, 0)
        import ninfer_build
        self.backend = ninfer_build

    def test_wheel(self):
        with tempfile.TemporaryDirectory() as d:
            name = self.backend.build_wheel(d)
            with zipfile.ZipFile(os.path.join(d, name)) as z:
                names = set(z.namelist())
                record = z.read(next(n for n in names if n.endswith("/RECORD"))).decode()
                wheel = z.read(next(n for n in names if n.endswith("/WHEEL"))).decode()
        self.assertRegex(name, r"^ninfer_conform-\d+\.\d+\.\d+-py3-none-any\.whl$")
        self.assertTrue({"ninfer_conform/__init__.py", "ninfer_conform/sdk.py", "ninfer_conform/frames.py",
                         "ninfer_conform/py.typed"} <= names)
        self.assertEqual({line.split(",")[0] for line in record.split()}, names)
        self.assertIn("Root-Is-Purelib: true", wheel)

    def test_sdist(self):
        with tempfile.TemporaryDirectory() as d:
            name = self.backend.build_sdist(d)
            with tarfile.open(os.path.join(d, name)) as t:
                names = set(t.getnames())
        base = name[:-len(".tar.gz")]
        self.assertTrue({base + "/pyproject.toml", base + "/PKG-INFO", base + "/build_backend/ninfer_build.py",
                         base + "/ninfer_conform/sdk.py"} <= names)

    def test_no_build_requirements(self):
        self.assertEqual(self.backend.get_requires_for_build_wheel(), [])


class Names(unittest.TestCase):
    """Issue 32, item 8: a capability's names are checked when it is declared, with the CLI's
    suggestions (harness/tests/test_cli_suggest.cpp asks the C++ side the same questions)."""

    def refused(self, **capability):
        with self.assertRaises(ValueError) as caught:
            Subject("s").op(**capability)(top_halves)
        return str(caught.exception)

    def test_a_misspelt_method_is_refused_at_decoration_with_suggestions(self):
        self.assertEqual(self.refused(op="convert", format="bf16", format_in="fp32", method="fp32_to_bf16"),
                         "Subject.op: unknown conversion 'fp32_to_bf16'; did you mean fp32_to_bf16_rne, fp32_to_bf16_rtz "
                         "or fp32_to_bf16_rna? (`ninfer-conform list` lists them)")
        self.assertIn("did you mean decode?", self.refused(op="decod", format="fp16"))
        self.assertIn("unknown format 'fp61'; did you mean fp16?", self.refused(op="decode", format="fp61"))
        self.assertIn("unknown layout 'row_split_k128'", self.refused(op="layout_encode", layout="row_split_k128"))
        self.assertIn("unknown role 'grouped_fp16_scal'; did you mean grouped_fp16_scale?",
                      self.refused(op="validate", method="grouped_fp16_scal"))
        self.assertIn("which takes none", self.refused(op="decode", format="fp16", method="fp32_to_bf16_rne"))
        self.assertIn("expected one of the 45 that `ninfer-conform list` names", self.refused(op="decode", format="zzzzzzzz"))
        self.assertIn("unsigned 32-bit", self.refused(op="linear", profile=-1))

    def test_registered_names_are_accepted(self):
        subject = Subject("s")
        subject.op("convert", format="bf16", format_in="fp32", method="fp32_to_bf16_rne")(top_halves)
        subject.op("quant_encode", format="q4_g64_fp16", layout="row_split_k128_v1", method="grouped_absmax")(top_halves)
        subject.op("linear", profile=1)(top_halves)
        self.assertEqual(len(subject.capabilities), 3)

    def test_the_suggestions_are_the_clis(self):
        # The questions and answers of harness/tests/test_cli_suggest.cpp.
        self.assertEqual(suggest.name_distance("fp32_to_bf16", "fp32_to_bf16_rne"), 1)
        self.assertEqual(suggest.edit_distance("ca", "abc"), 3)
        plugins = ["mutant_bf16_canonical_nan", "mutant_bf16_truncation", "mutant_fp16_truncation", "reference"]
        self.assertEqual(suggest.closest_names("mutant_bf16_truncaton", plugins), ["mutant_bf16_truncation"])
        self.assertEqual(suggest.closest_names("zzqqxx", plugins), [])
        self.assertEqual(suggest.closest_names("--suit", ["--seed", "--suite", "--level", "--shard", "--junit"]), ["--suite"])
        self.assertEqual(suggest.closest_names("a" * 65, ["a" * 64]), [])
        levels = ["quick", "full", "exhaustive"]
        self.assertEqual(suggest.unknown_name_line("unknown level 'medium'", "medium", levels),
                         "unknown level 'medium'; expected one of: quick, full, exhaustive")

    def test_the_registry_module_is_generated_from_registry_h(self):
        script = os.path.join(HERE, "..", "..", "scripts", "gen_sdk_registry.py")
        generated = subprocess.run([sys.executable, script], check=True, capture_output=True, text=True).stdout
        with open(os.path.join(HERE, "..", "ninfer_conform", "registry.py"), encoding="utf-8") as f:
            self.assertEqual(f.read(), generated, "python/ninfer_conform/registry.py is stale: run "
                             "scripts/gen_sdk_registry.py > python/ninfer_conform/registry.py")


if __name__ == "__main__":
    unittest.main()
