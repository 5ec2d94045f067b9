#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// ecosystem_float16_js: the JavaScript FP16 library @petamoriken/float16 (npm, pinned in
// scripts/ecosystem/package-lock.json) as an exec subject (harness/README.md, "The exec
// protocol", JSON lines; docs/ECOSYSTEM.md). setFloat16 of the fp32 word's exact Number is
// fp32_to_fp16_rne; getFloat16 is fp16's decode (its Number, exact in binary64) and, through
// Math.fround, fp16_to_fp32. Every word is the library's; this file only speaks the protocol.
//   ninfer-conform run --exec "node harness/plugins/ecosystem/float16_js.mjs" --suite scalar.convert
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ecosystem = process.env.NINFER_ECOSYSTEM_DIR || join(here, "..", "..", "..", ".ecosystem");
const require = createRequire(join(ecosystem, "package.json"));
const { getFloat16, setFloat16 } = require("@petamoriken/float16");
const { version } = JSON.parse(readFileSync(join(ecosystem, "node_modules", "@petamoriken", "float16", "package.json"), "utf8"));

const capabilities = [
  { op: "convert", format: "fp16", format_in: "fp32", layout: null, method: "fp32_to_fp16_rne" },
  { op: "convert", format: "fp32", format_in: "fp16", layout: null, method: "fp16_to_fp32" },
  { op: "decode", format: "fp16" },
];

const bytes = (hex) => new DataView(Uint8Array.from(Buffer.from(hex, "hex")).buffer);
const hexOf = (view) => Buffer.from(view.buffer).toString("hex");

// One call: the op's words through the library, or a refusal with the ABI's status.
function serve(req) {
  const widths = { fp32_to_fp16_rne: [4, 2], fp16_to_fp32: [2, 4] };
  const [ib, ob] = req.op === "decode" ? [2, 8] : widths[req.method] || [0, 0];
  const outName = req.op === "decode" ? "values" : "words";
  if (!ib || (req.op === "decode" && req.format !== "fp16")) return { status: -1, detail: 0, message: "not an op of this library" };
  const src = bytes(req.inputs?.words ?? "");
  const n = req.count;
  if (src.byteLength !== n * ib) return { status: -3, detail: 0, message: "words does not hold count words" };
  if ((req.outputs?.[outName] ?? 0) < n * ob) return { status: -4, detail: 0, message: "the output plane is too small" };
  const out = new DataView(new ArrayBuffer(n * ob));
  for (let i = 0; i < n; ++i) {
    if (req.method === "fp32_to_fp16_rne") setFloat16(out, 2 * i, src.getFloat32(4 * i, true), true);
    else if (req.op === "decode") out.setFloat64(8 * i, getFloat16(src, 2 * i, true), true);
    else out.setFloat32(4 * i, Math.fround(getFloat16(src, 2 * i, true)), true);
  }
  return { status: 0, detail: 0, message: "", outputs: { [outName]: hexOf(out) } };
}

const rl = createInterface({ input: process.stdin, terminal: false });
let hello = true;
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let reply;
  if (hello) {
    hello = false;
    reply = { name: "ecosystem_float16_js", version: `@petamoriken/float16 ${version}`, abi: 2, ids: true, capabilities };
  } else {
    reply = serve(req);
    if (req.id !== undefined) reply.id = req.id;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
