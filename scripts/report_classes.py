#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Classify every difference between two same_reports.sh snapshots (before, after): the step of
issue 35's proof after `same_reports.sh compare` finds differences, so that each class can be
matched to the CHANGELOG entry that announces it (docs/RESULTS.md).
    scripts/report_classes.py BEFORE AFTER [WORKTREE ...]
WORKTREE: the checkouts the snapshots were taken in; strings that differ only by them are
"worktree path only".

Per report file: JSON reports are diffed structurally (cases aligned by id, rules by id, lists of
dicts by index otherwise); each difference is reduced to a generalized path (list indices -> [*],
case/rule ids -> [id]) and a kind (added / removed / changed), counted over all files. Text files
(summaries, stderr, JUnit) are diffed by line, lines generalized (numbers -> N). Output: a table of
classes with counts and example files, printed to stdout.
"""
import collections
import json
import os
import re
import sys

if len(sys.argv) < 3:
    sys.exit("usage: report_classes.py BEFORE AFTER [WORKTREE ...]")
before, after = sys.argv[1], sys.argv[2]
ROOTS = [(w, "<WT>") for w in sys.argv[3:]]

classes = collections.Counter()           # (file kind, path, change) -> count
examples = collections.defaultdict(set)   # same key -> a few file names
files_per_class = collections.defaultdict(set)


def wt(s):
    for r, t in ROOTS:
        s = s.replace(r, t)
    return s


def kind_of(name):
    if name.startswith("sweep-"):
        return "sweep"
    if name == "plugins.json":
        return "plugins"
    if name.startswith("reference"):
        return "reference"
    if name.startswith("mutant_"):
        return "mutant"
    return "other"


def note(fk, path, change, fname):
    key = (fk, path, change)
    classes[key] += 1
    files_per_class[key].add(fname)


def keyed(lst):
    """A list of dicts with unique 'id' -> dict by id, else None."""
    if lst and all(isinstance(x, dict) and "id" in x for x in lst):
        ids = [x["id"] for x in lst]
        if len(set(ids)) == len(ids):
            return {x["id"]: x for x in lst}
    return None


def diff(a, b, path, fk, fname):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() | b.keys():
            p = f"{path}.{k}"
            if k not in b:
                note(fk, p, "removed", fname)
            elif k not in a:
                note(fk, p, "added", fname)
            else:
                diff(a[k], b[k], p, fk, fname)
        if [k for k in a if k in b] != [k for k in b if k in a]:
            note(fk, path, "key order", fname)
        return
    if isinstance(a, list) and isinstance(b, list):
        ka, kb = keyed(a), keyed(b)
        if ka is not None and kb is not None:
            for i in ka.keys() | kb.keys():
                p = f"{path}[id]"
                if i not in kb:
                    note(fk, p, "removed", fname)
                elif i not in ka:
                    note(fk, p, "added", fname)
                else:
                    diff(ka[i], kb[i], p, fk, fname)
            common = [i for i in ka if i in kb]
            if common != [i for i in kb if i in ka]:
                note(fk, path, "order of ids", fname)
            return
        if len(a) != len(b):
            note(fk, f"{path}", "length", fname)
        for x, y in zip(a, b):
            diff(x, y, f"{path}[*]", fk, fname)
        return
    if isinstance(a, str) and isinstance(b, str) and wt(a) == wt(b):
        if a != b:
            note(fk, path, "worktree path only", fname)
        return
    if a != b:
        note(fk, path, "changed", fname)


def gen_line(l):
    return re.sub(r"\d+", "N", wt(l))


def text_diff(fa, fb, fk, fname, ext):
    la = open(fa).read().splitlines() if fa else []
    lb = open(fb).read().splitlines() if fb else []
    ca, cb = collections.Counter(map(wt, la)), collections.Counter(map(wt, lb))
    if ca == cb:
        if la != lb:
            note(fk + ext, "(lines)", "worktree path only" if [wt(x) for x in la] == [wt(x) for x in lb] else "order", fname)
        return
    for l in (ca - cb).elements():
        note(fk + ext, gen_line(l)[:140], "line removed", fname)
    for l in (cb - ca).elements():
        note(fk + ext, gen_line(l)[:140], "line added", fname)


def main():
    names_a = set(os.listdir(f"{before}/reports"))
    names_b = set(os.listdir(f"{after}/reports"))
    same = 0
    stats = collections.Counter()
    for name in sorted(names_a | names_b):
        fk = kind_of(name)
        fa = f"{before}/reports/{name}" if name in names_a else None
        fb = f"{after}/reports/{name}" if name in names_b else None
        if fa and fb and open(fa, "rb").read() == open(fb, "rb").read():
            same += 1
            stats["identical"] += 1
            continue
        if not fa or not fb:
            note(fk, "(file)", "only before" if fa else "only after", name)
            stats["only before" if fa else "only after"] += 1
            continue
        stats["differ"] += 1
        if name.endswith(".json"):
            diff(json.load(open(fa)), json.load(open(fb)), "$", fk, name)
        else:
            text_diff(fa, fb, fk, name, os.path.splitext(name)[1] if not name.endswith(".stderr.txt") else ".stderr")
    print(f"report files: before {len(names_a)}, after {len(names_b)}; {dict(stats)}")
    for (fk, path, change), n in sorted(classes.items()):
        fs = sorted(files_per_class[(fk, path, change)])
        print(f"{fk:16} {change:18} {n:7} in {len(fs):4} files  {path}   e.g. {fs[0]}")


main()
