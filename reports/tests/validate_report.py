#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Validate ninfer-conform JSON reports against the report schema: validate_report.py SCHEMA REPORT...
import json
import sys

import jsonschema


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: validate_report.py SCHEMA REPORT...", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:10]:
            print(f"{path}: {'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
        if errors:
            bad += 1
        elif not report.get("cases") and report.get("kind") == "run" and "open_error" not in report:
            print(f"{path}: a run report without cases", file=sys.stderr)
            bad += 1
        else:
            print(f"{path}: valid ({len(report.get('cases', []))} cases)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
