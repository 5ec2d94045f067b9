#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 3: python3-jsonschema reaches the verdict each fixture of schema_fixtures.json
# states, so that the fixtures test_schema_check.cpp runs through the C++ check (`report`, `merge`)
# are judged by the shipped schema itself: the two validators agree on them.
#   schema_agreement.py SCHEMA FIXTURES.json BASELINE_DIR
import copy, json, os, sys

import jsonschema


def pointer_parts(pointer):
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def build(fixture, baselines):
    doc = copy.deepcopy(fixture["doc"]) if "doc" in fixture else json.load(open(os.path.join(baselines, fixture["base"])))
    for pointer, value in fixture.get("set", {}).items():
        *head, last = pointer_parts(pointer)
        node = doc
        for p in head:
            node = node[int(p)] if isinstance(node, list) else node[p]
        node[int(last) if isinstance(node, list) else last] = value
    for pointer in fixture.get("remove", []):
        *head, last = pointer_parts(pointer)
        node = doc
        for p in head:
            node = node[int(p)] if isinstance(node, list) else node[p]
        del node[int(last) if isinstance(node, list) else last]
    return doc


def main():
    schema = json.load(open(sys.argv[1]))
    # A v2 document (an older build's report) is judged by report-v2.schema.json beside SCHEMA.
    v2 = json.load(open(os.path.join(os.path.dirname(sys.argv[1]), "report-v2.schema.json")))
    fixtures = json.load(open(sys.argv[2]))["fixtures"]
    validators = {False: jsonschema.Draft202012Validator(schema), True: jsonschema.Draft202012Validator(v2)}
    wrong = 0
    for f in fixtures:
        doc = build(f, sys.argv[3])
        is_v2 = isinstance(doc, dict) and doc.get("schema") == "ninfer-conform/report/v2"
        errors = list(validators[is_v2].iter_errors(doc))
        if (not errors) != f["valid"]:
            wrong += 1
            print(f"FAIL: {f['name']}: jsonschema says {'valid' if not errors else errors[0].message}, fixture says valid={f['valid']}")
    print(f"{len(fixtures) - wrong} of {len(fixtures)} fixtures judged as stated")
    sys.exit(1 if wrong else 0)


main()
