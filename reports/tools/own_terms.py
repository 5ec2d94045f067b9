#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The terms a bundled subject is judged on by the main job (harness/plugins/own_terms.json).

    own_terms.py NAME     the `run` options of subject NAME, one per line (none for the reference,
                          a mutant, or a plugin without terms)
"""
import json
import pathlib
import sys

TERMS = pathlib.Path(__file__).resolve().parents[2] / "harness" / "plugins" / "own_terms.json"
SR_CONVERSIONS = ["fp32_to_bf16_sr_satfinite", "fp32_to_fp16_sr_satfinite", "fp32_to_e4m3fn_sr_satfinite",
                  "fp32_to_e5m2_sr_satfinite", "fp32_to_e2m1_sr_satfinite"]


def load(path=TERMS):
    return json.loads(pathlib.Path(path).read_text())


def run_args(name, terms=None):
    """['--pin', 'convert.C=CONVENTION[:K]', ...] or ['--policy', 'convert.C=POINT', ...] or []."""
    terms = terms if terms is not None else load()
    if name in terms.get("conventions", {}):
        c = terms["conventions"][name]
        choice = c["convention"] + (f":{c['k']}" if c["k"] else "")
        return [a for conv in (c["conversions"] or SR_CONVERSIONS) for a in ("--pin", f"convert.{conv}={choice}")]
    if name in terms.get("policies", {}):
        return [a for conv, point in terms["policies"][name].items() for a in ("--policy", f"convert.{conv}={point}")]
    return []


def kind_of(name, terms=None):
    """'convention', 'ecosystem' (judged on own terms), or '' (no terms)."""
    terms = terms if terms is not None else load()
    if name in terms.get("conventions", {}):
        return "convention"
    if name in terms.get("policies", {}):
        return "ecosystem"
    return ""


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for arg in run_args(sys.argv[1]):
        print(arg)
