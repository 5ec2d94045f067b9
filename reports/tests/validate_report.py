#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Validate ninfer-conform JSON reports against the report schema:
#   validate_report.py [--set PATH=JSON]... [--expect-error-at PATH] SCHEMA REPORT...
# --set replaces the value at PATH ("fingerprints/0/policy/rounding") before validating;
# --expect-error-at inverts the test: each report must be rejected with an error at PATH.
import argparse
import json
import sys

import jsonschema


def set_at(doc, path: str, value) -> None:
    *parents, last = path.split("/")
    for key in parents:
        doc = doc[int(key)] if isinstance(doc, list) else doc[key]
    doc[int(last) if isinstance(doc, list) else last] = value


def main() -> int:
    parser = argparse.ArgumentParser(description="validate reports against the report schema")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=JSON")
    parser.add_argument("--expect-error-at", metavar="PATH")
    parser.add_argument("schema")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    bad = 0
    for path in args.reports:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        for change in args.set:
            where, _, value = change.partition("=")
            set_at(report, where, json.loads(value))
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:10]:
            print(f"{path}: {'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
        if args.expect_error_at is not None:
            if any("/".join(str(p) for p in e.path) == args.expect_error_at for e in errors):
                print(f"{path}: rejected at {args.expect_error_at}, as expected")
            else:
                print(f"{path}: not rejected at {args.expect_error_at}", file=sys.stderr)
                bad += 1
        elif errors:
            bad += 1
        elif not report.get("cases") and report.get("kind") == "run" and "open_error" not in report:
            print(f"{path}: a run report without cases", file=sys.stderr)
            bad += 1
        else:
            print(f"{path}: valid ({len(report.get('cases', []))} cases)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
