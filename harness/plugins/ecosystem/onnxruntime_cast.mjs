#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// ecosystem_onnxruntime: onnxruntime's CPU Cast operator (npm onnxruntime-node, pinned in
// scripts/ecosystem/package-lock.json; it runs offline with install scripts disabled) as an exec
// subject (harness/README.md, "The exec protocol", JSON lines; docs/ECOSYSTEM.md). Cast from
// float to FLOAT8E4M3FN and FLOAT8E5M2 with saturate=1 is fp32_to_e4m3fn_rne_satfinite and
// fp32_to_e5m2_rne_satfinite, with saturate=0 fp32_to_e4m3fn_rne_nan and fp32_to_e5m2_rne_inf
// (ONNX's Cast, opset 19). onnxruntime-node cannot hand an 8-bit float tensor to JavaScript, so
// each model casts there and back, Cast(to=FLOAT8) then Cast(to=FLOAT), and this file packs the
// exact float value of the FP8 result into its word: lossless for every number; a NaN becomes the
// NaN of the sign its float carries. Every rounding is onnxruntime's. The model is written here as
// ONNX protobuf bytes (a few fields of onnx.proto), so no ONNX tooling is needed.
//   ninfer-conform run --exec "node harness/plugins/ecosystem/onnxruntime_cast.mjs" --suite scalar.convert
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ecosystem = process.env.NINFER_ECOSYSTEM_DIR || join(here, "..", "..", "..", ".ecosystem");
const require = createRequire(join(ecosystem, "package.json"));
const ort = require("onnxruntime-node");
const { version } = JSON.parse(readFileSync(join(ecosystem, "node_modules", "onnxruntime-node", "package.json"), "utf8"));

// The conversions: ONNX's element type of the target, saturate, and the target's word geometry.
const E4M3FN = { elem: 17, man: 3, bias: 7, inf: null, nan: 0x7f };
const E5M2 = { elem: 19, man: 2, bias: 15, inf: 0x7c, nan: 0x7e };
const conversions = {
  fp32_to_e4m3fn_rne_satfinite: { fmt: E4M3FN, saturate: 1, format: "e4m3fn" },
  fp32_to_e4m3fn_rne_nan: { fmt: E4M3FN, saturate: 0, format: "e4m3fn" },
  fp32_to_e5m2_rne_satfinite: { fmt: E5M2, saturate: 1, format: "e5m2" },
  fp32_to_e5m2_rne_inf: { fmt: E5M2, saturate: 0, format: "e5m2" },
};

// ---- a few fields of onnx.proto, written as protobuf ----
const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => [...key(field, 0), ...varint(n)];
const bytes = (field, b) => [...key(field, 2), ...varint(b.length), ...b];
const text = (field, s) => bytes(field, [...Buffer.from(s)]);
const attrInt = (name, v) => bytes(5, [...text(1, name), ...int(20, 2 /* INT */), ...int(3, v)]);
const valueInfo = (name) => [...text(1, name), ...bytes(2, bytes(1, [...int(1, 1 /* FLOAT */), ...bytes(2, bytes(1, text(2, "n")))]))];
const castNode = (from, to, name, attrs) => bytes(1, [...text(1, from), ...text(2, to), ...text(3, name), ...text(4, "Cast"), ...attrs]);

// ModelProto: x -> Cast(to=FP8, saturate) -> Cast(to=FLOAT) -> y, IR 9, opset 19.
function model(c) {
  const graph = [
    ...castNode("x", "t", "to_fp8", [...attrInt("to", c.fmt.elem), ...attrInt("saturate", c.saturate)]),
    ...castNode("t", "y", "to_float", attrInt("to", 1)),
    ...text(2, "cast"),
    ...bytes(11, valueInfo("x")),
    ...bytes(12, valueInfo("y")),
  ];
  return Uint8Array.from([...int(1, 9), ...bytes(8, [...text(1, ""), ...int(2, 19)]), ...bytes(7, graph)]);
}

// The word of an exact FP8 value (the float onnxruntime's Cast back gave, and its sign bit).
function word(f, v, negative) {
  const sign = negative ? 0x80 : 0;
  if (Number.isNaN(v)) return sign | f.nan;
  const a = Math.abs(v);
  if (a === Infinity) return sign | f.inf;
  if (a === 0) return sign;
  const emin = 1 - f.bias;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;  // log2's rounding at the top of a binade
  if (e < emin) return sign | Math.round(a / 2 ** (emin - f.man));  // subnormal: an exact multiple of the quantum
  return sign | ((e + f.bias) << f.man) | Math.round((a / 2 ** e - 1) * 2 ** f.man);
}
const sessions = new Map();
async function serve(req) {
  const c = conversions[req.method];
  if (req.op !== "convert" || !c) return { status: -1, detail: 0, message: "not a Cast this subject declares" };
  const src = Buffer.from(req.inputs?.words ?? "", "hex");
  const n = req.count;
  if (src.length !== n * 4) return { status: -3, detail: 0, message: "words does not hold count words" };
  if ((req.outputs?.words ?? 0) < n) return { status: -4, detail: 0, message: "the output plane is too small" };
  if (!sessions.has(req.method)) sessions.set(req.method, await ort.InferenceSession.create(model(c)));
  const x = new Float32Array(n);
  for (let i = 0; i < n; ++i) x[i] = src.readFloatLE(4 * i);
  const y = (await sessions.get(req.method).run({ x: new ort.Tensor("float32", x, [n]) })).y.data;
  const bits = new Uint32Array(y.buffer, y.byteOffset, n);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; ++i) out[i] = word(c.fmt, y[i], (bits[i] >>> 31) === 1);
  return { status: 0, detail: 0, message: "", outputs: { words: out.toString("hex") } };
}

const capabilities = Object.entries(conversions).map(([method, c]) => ({
  op: "convert", format: c.format, format_in: "fp32", layout: null, method,
}));
const rl = createInterface({ input: process.stdin, terminal: false });
let hello = true, queue = Promise.resolve();
rl.on("line", (line) => {
  queue = queue.then(async () => {
    const req = JSON.parse(line);
    let reply;
    if (hello) {
      hello = false;
      reply = { name: "ecosystem_onnxruntime", version: `onnxruntime-node ${version}`, abi: 2, ids: true, capabilities };
    } else {
      try {
        reply = await serve(req);
      } catch (e) {
        reply = { status: -100, detail: 0, message: String(e).slice(0, 200) };
      }
      if (req.id !== undefined) reply.id = req.id;
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
});
