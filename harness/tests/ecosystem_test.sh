#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ecosystem subjects (docs/ECOSYSTEM.md) judged by the suite at level full, each on what the
# library documents: real ggml passes gguf.decode and gguf.quantize (iq4_nl below GROUP_MAX_EPS as
# ggml writes it: the choice zero_scale); every scalar library passes every main convert and decode
# rule it declares and fails nothing but NaN profile rules, and passes judged by the lattice point
# its fingerprint names (run --policy); F16C is each of the registry's four fp16 directions word for word. Skipped (77) when scripts/ecosystem/install.sh has not run.
#   ecosystem_test.sh EXE PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 python=$2 src=$3 work=$4
plugins=$(dirname "$(dirname "$exe")")/plugins
eco=${NINFER_ECOSYSTEM_DIR:-$src/.ecosystem}
rm -rf "$work" && mkdir -p "$work"
if [[ ! -d $eco/node_modules ]]; then
  echo "skipped: no ecosystem libraries in $eco (run scripts/ecosystem/install.sh)"
  exit 77
fi

# 1. Real ggml at level full.
out=$("$exe" run --plugin "$plugins/ecosystem_ggml.so" --suite gguf.decode --suite gguf.quantize --level full \
  --report "$work/ggml.json" 2>&1) || { echo "$out"; echo "FAIL: ggml does not pass gguf.decode and gguf.quantize at full"; exit 1; }
grep -q "gguf.quantize.gguf_iq4_nl: took zero_scale" <<<"$out" || { echo "$out"; echo "FAIL: ggml did not take zero_scale"; exit 1; }
echo "ok: ggml passes gguf.decode and gguf.quantize at level full, iq4_nl below GROUP_MAX_EPS as zero_scale"

# 2. Every scalar subject: main rules pass, only NaN profile rules may fail.
subjects=()
for p in ecosystem_fp16 ecosystem_eigen ecosystem_gcc_float16 ecosystem_f16c ecosystem_ggml ecosystem_rust_half; do
  [[ -f $plugins/$p.so ]] && subjects+=("--plugin $plugins/$p.so")
done
# V8 without its optimizing tier, whose NaN bits differ (docs/ECOSYSTEM.md): the same words every run.
[[ -d $eco/node_modules/@petamoriken/float16 ]] && subjects+=("--exec node --no-opt $src/harness/plugins/ecosystem/float16_js.mjs")
i=0
for s in "${subjects[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # the subject's two words
  "$exe" run ${s%% *} "${s#* }" --suite scalar.convert --suite scalar.decode --level full --fingerprint none \
    --report "$work/s$i.json" >"$work/s$i.txt" 2>&1 || true
  "$python" - "$work/s$i.json" "$s" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
bad = [x["id"] for x in r["rules"] if x["status"] not in ("pass", "unsupported") and not re.fullmatch(r"convert\.[a-z0-9_]+\.nan_[a-z_]+", x["id"])]
judged = r["totals"]["pass"] + r["totals"]["fail"]
if bad or judged == 0:
    sys.exit(f"FAIL: {sys.argv[2]}: rules other than NaN profile rules fail: {bad} ({judged} judged)")
print(f"ok: {r['subject']['name']}: {r['totals']['pass']} of {judged} cases pass; failing rules all NaN profile rules")
PY
done

# 3. Judged on its own terms: each library plugin's failing conversions pass `run --policy` with the
#    point `fingerprint` names for them (the JavaScript subject is left out: V8 gives one NaN input two
#    words, docs/ECOSYSTEM.md).
for p in ecosystem_fp16 ecosystem_eigen ecosystem_gcc_float16 ecosystem_f16c ecosystem_ggml ecosystem_rust_half; do
  [[ -f $plugins/$p.so ]] || continue
  "$exe" fingerprint --plugin "$plugins/$p.so" --all --json "$work/$p.fp.json" >/dev/null 2>&1
  mapfile -t points < <("$python" - "$work/$p.fp.json" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["fingerprints"]:
    if f.get("point") and f["matched"] == f["inputs"] and f["named"] != f["conversion"]:
        print(f"--policy=convert.{f['conversion']}={f['point']}")
PY
)
  # The main job's terms (harness/plugins/own_terms.json) are these points, no more, no fewer.
  found=$(printf '%s\n' "${points[@]#--policy=}" | sort)
  said=$("$python" "$src/reports/tools/own_terms.py" "$p" | grep -v '^--policy$' | sort)
  [[ $found == "$said" ]] || { echo "FAIL: $p: own_terms.json says ${said//$'\n'/ }, its fingerprint ${found//$'\n'/ }"; exit 1; }
  ((${#points[@]})) || continue
  "$exe" run --plugin "$plugins/$p.so" --suite scalar.convert --level full --fingerprint none "${points[@]}" \
    >"$work/$p.policy.txt" 2>&1 || { cat "$work/$p.policy.txt"; echo "FAIL: $p judged by its own points ${points[*]}"; exit 1; }
  echo "ok: $p passes judged by its own points, the main job's terms: ${points[*]}"
done

# 4. onnxruntime's CPU Cast: the suite catches its two saturate=0 bugs (docs/ECOSYSTEM.md), by the
#    rules and the named regression cases, and nothing else fails.
if [[ -d $eco/node_modules/onnxruntime-node ]]; then
  "$exe" run --exec "node $src/harness/plugins/ecosystem/onnxruntime_cast.mjs" --suite scalar.convert --level full \
    --fingerprint none --report "$work/ort.json" >"$work/ort.txt" 2>&1 || true
  "$python" - "$work/ort.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
failing = {c["id"] for c in r["cases"] if c["status"] != "pass" and c["status"] != "unsupported"}
want = {"convert.fp32_to_e4m3fn_rne_nan/regression_onnxruntime_cast_480", "convert.fp32_to_e5m2_rne_inf/regression_onnxruntime_cast_61440"}
rules = {c.split("/")[0] for c in failing}
if not want <= failing or rules != {"convert.fp32_to_e4m3fn_rne_nan", "convert.fp32_to_e5m2_rne_inf"}:
    sys.exit(f"FAIL: onnxruntime: failing cases {sorted(failing)}")
print(f"ok: onnxruntime's saturate=0 Cast bugs caught: {len(failing)} cases of {sorted(rules)}, the regressions among them")
PY
fi

# 5. F16C: the registry's four fp16 directions word for word.
if [[ -f $plugins/ecosystem_f16c.so ]]; then
  "$exe" fingerprint --plugin "$plugins/ecosystem_f16c.so" --all --json "$work/f16c.json" >/dev/null 2>&1
  "$python" - "$work/f16c.json" <<'PY'
import json, sys
prints = {f["conversion"]: f for f in json.load(open(sys.argv[1]))["fingerprints"]}
for c in ("fp32_to_fp16_rne", "fp32_to_fp16_rtz", "fp32_to_fp16_rup", "fp32_to_fp16_rdn"):
    f = prints.get(c)
    if not f or f["named"] != c or f["matched"] != f["inputs"]:
        sys.exit(f"FAIL: F16C {c}: {f and f['sentence']}")
print("ok: F16C is fp32_to_fp16_rne, _rtz, _rup and _rdn on every stratified input")
PY
fi
