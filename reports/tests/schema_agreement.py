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
    fixtures = json.load(open(sys.argv[2]))["fixtures"]
    validator = jsonschema.Draft202012Validator(schema)
    wrong = 0
    for f in fixtures:
        errors = list(validator.iter_errors(build(f, sys.argv[3])))
        if (not errors) != f["valid"]:
            wrong += 1
            print(f"FAIL: {f['name']}: jsonschema says {'valid' if not errors else errors[0].message}, fixture says valid={f['valid']}")
    print(f"{len(fixtures) - wrong} of {len(fixtures)} fixtures judged as stated")
    sys.exit(1 if wrong else 0)


main()
