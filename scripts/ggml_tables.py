#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ggml's lookup tables (grids, sign tables, code books) as project data.

    python3 scripts/ggml_tables.py GGML_SOURCE_DIR [--out FILE | --check FILE]
                                   [--commit SHA --date YYYY-MM-DD]

Reads GGML_SOURCE_DIR/src/ggml-common.h (a checkout of https://github.com/ggml-org/ggml), takes
the GGML_TABLE_BEGIN(type, name, count) ... GGML_TABLE_END() blocks and the #define constants the
oracle uses, and writes them as JSON (oracle/data/ggml-tables.json; stdout without --out), with
their provenance: the ggml commit and its date, read from the tree when it is a git checkout,
else given by --commit and --date. --check FILE compares instead: exit 0 when FILE is exactly
what would be written, 1 naming the first difference, 2 on any error (one line, nothing written).
Standard library only; ggml's code is never copied, only its numbers.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPOSITORY = "https://github.com/ggml-org/ggml"
HEADER = "src/ggml-common.h"
# The tables and constants the oracle, the reference plugin and gpu/ use, in the file's order.
TABLES = ("kmask_iq2xs", "ksigns_iq2xs", "ksigns64", "iq2xxs_grid", "iq2xs_grid", "iq2s_grid",
          "iq3xxs_grid", "iq3s_grid", "kvalues_iq4nl", "kvalues_fp4", "iq1s_grid")
CONSTANTS = ("QK_K", "NGRID_IQ1S", "IQ1S_DELTA", "IQ1M_DELTA")
# Entries of these types are written as hex strings (JSON numbers lose 64-bit precision).
HEX_TYPES = ("uint64_t", "uint32_t")
RANGES = {"uint8_t": (0, 2**8 - 1), "int8_t": (-2**7, 2**7 - 1), "uint16_t": (0, 2**16 - 1),
          "int16_t": (-2**15, 2**15 - 1), "uint32_t": (0, 2**32 - 1), "uint64_t": (0, 2**64 - 1)}

BEGIN = re.compile(r"^[ \t]*GGML_TABLE_BEGIN\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)(.*?)^[ \t]*GGML_TABLE_END\(\)",
                   re.MULTILINE | re.DOTALL)
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([0-9][0-9A-Za-z.+-]*)[ \t]*$", re.MULTILINE)
INTEGER = re.compile(r"^(-?)(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$")
DECIMAL = re.compile(r"^([0-9]+\.[0-9]+)[fF]?$")


class Failure(Exception):
    """One line for the user; the program exits 2."""


def strip_comments(text):
    """The C text without // and /* */ comments (ggml-common.h has no string literals in tables)."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.DOTALL)


def parse_integer(token, where):
    m = INTEGER.match(token)
    if not m:
        raise Failure(f"{where}: '{token}' is not an integer literal")
    value = int(m.group(2), 0)
    return -value if m.group(1) else value


def read_defines(text):
    """Every `#define NAME <number>`: ints as int, decimals (0.125f) as float."""
    defines = {}
    for name, token in DEFINE.findall(text):
        if DECIMAL.match(token):
            defines[name] = float(DECIMAL.match(token).group(1))
        elif INTEGER.match(token):
            defines[name] = parse_integer(token, name)
    return defines


def table_size(token, defines, name):
    if token in defines and isinstance(defines[token], int):
        return defines[token]
    return parse_integer(token, f"table {name}: size")


def table_values(ctype, name, size, body):
    """The entries of one table, checked against its declared size and its C type's range."""
    if ctype not in RANGES:
        raise Failure(f"table {name}: c type '{ctype}' is not one of {', '.join(RANGES)}")
    values = [parse_integer(t.strip(), f"table {name}") for t in body.split(",") if t.strip()]
    if len(values) != size:
        raise Failure(f"table {name}: {len(values)} values, its declaration says {size}")
    lo, hi = RANGES[ctype]
    for i, v in enumerate(values):
        if not lo <= v <= hi:
            raise Failure(f"table {name}: entry {i} = {v} is outside {ctype}")
    return values


def read_tables(text, defines):
    """name -> {c_type, count, values} for every GGML_TABLE block of the header."""
    tables = {}
    for ctype, name, size_token, body in BEGIN.findall(text):
        size = table_size(size_token, defines, name)
        entry = {"c_type": ctype, "count": size, "values": table_values(ctype, name, size, body)}
        if name in tables and tables[name] != entry:
            raise Failure(f"table {name}: defined twice with different entries")
        tables[name] = entry
    return tables


def encoded(entry):
    """A table as the JSON holds it: 32- and 64-bit unsigned entries as lowercase hex strings."""
    values = entry["values"]
    if entry["c_type"] in HEX_TYPES:
        values = [hex(v) for v in values]
    return {"c_type": entry["c_type"], "count": entry["count"], "values": values}


def selected(found, names, what):
    missing = [n for n in names if n not in found]
    if missing:
        raise Failure(f"{HEADER} has no {what} {', '.join(missing)}")
    return {n: found[n] for n in names}


def git_of(source_dir, *args):
    """The output of git in source_dir when source_dir is the top of a git checkout, else None."""
    try:
        top = subprocess.run(["git", "-C", source_dir, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(source_dir):
            return None
        return subprocess.run(["git", "-C", source_dir, *args],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def provenance(source_dir, commit, date):
    """Where the numbers come from: --commit / --date, else the checkout's HEAD and its date."""
    commit = commit or git_of(source_dir, "rev-parse", "HEAD")
    date = date or git_of(source_dir, "log", "-1", "--format=%cs", "HEAD")
    if not commit or not date:
        raise Failure(f"{source_dir} is not a git checkout: give --commit SHA and --date YYYY-MM-DD")
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise Failure(f"--commit '{commit}' is not a 40-digit lowercase hex commit hash")
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", date):
        raise Failure(f"--date '{date}' is not YYYY-MM-DD")
    return {"repository": REPOSITORY, "commit": commit, "path": HEADER, "license": "MIT", "date": date}


def document(source_dir, commit, date):
    """The JSON document of the tables of source_dir/src/ggml-common.h."""
    path = os.path.join(source_dir, HEADER)
    try:
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
    except (OSError, UnicodeDecodeError) as e:
        raise Failure(f"cannot read {path}: {e.strerror if isinstance(e, OSError) else e}")
    origin = provenance(source_dir, commit, date)
    defines = read_defines(text)
    return {
        "description": "Lookup tables that define the ggml block formats (grids, sign tables, non-linear code "
                       "books), as numbers. Source: ggml-common.h of the ggml project (MIT), snapshot of "
                       f"{origin['date']}. Values are the table entries in order; 64- and 32-bit unsigned "
                       "entries are written as hex strings.",
        "provenance": origin,
        "constants": selected(defines, CONSTANTS, "constant"),
        "tables": {n: encoded(t) for n, t in selected(read_tables(text, defines), TABLES, "table").items()},
    }


def rendered(doc):
    return json.dumps(doc, indent=1) + "\n"


def first_difference(want, got, where=""):
    """The first place where got differs from want, in words; None when equal."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in list(want) + [k for k in got if k not in want]:
            place = f"{where}.{key}" if where else key
            if key not in got or key not in want:
                return f"{place} is {'missing' if key not in got else 'not in the header'}"
            diff = first_difference(want[key], got[key], place)
            if diff:
                return diff
        return None if list(want) == list(got) else f"{where or 'the document'} has its keys in another order"
    if isinstance(want, list) and isinstance(got, list):
        for i, (w, g) in enumerate(zip(want, got)):
            diff = first_difference(w, g, f"{where}[{i}]")
            if diff:
                return diff
        return None if len(want) == len(got) else f"{where} has {len(got)} entries, the header {len(want)}"
    if want != got or type(want) is not type(got):
        return f"{where} is {json.dumps(got)}, the header says {json.dumps(want)}"
    return None


def check(doc, path):
    """0 when path holds exactly rendered(doc), else 1 with the first difference on stderr."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise Failure(f"cannot read {path}: {e.strerror if isinstance(e, OSError) else e}")
    if text == rendered(doc):
        return 0
    try:
        diff = first_difference(doc, json.loads(text))
    except json.JSONDecodeError as e:
        diff = f"it is not JSON ({e.msg} at line {e.lineno})"
    print(f"ggml_tables.py: {path} differs from the generated tables: "
          f"{diff or 'same data, other formatting (regenerate it with --out)'}", file=sys.stderr)
    return 1


def write_atomically(text, path):
    """path holds text, or is left as it was: a temporary file beside it, then a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".ggml-tables.", dir=directory)
    except OSError as e:
        raise Failure(f"cannot write {path}: {e.strerror}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise Failure(f"cannot write {path}: {e.strerror}")


def main(argv):
    parser = argparse.ArgumentParser(description="ggml's lookup tables from src/ggml-common.h, as JSON")
    parser.add_argument("source", metavar="GGML_SOURCE_DIR", help="a ggml source tree (holds src/ggml-common.h)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--out", metavar="FILE", help="write the JSON to FILE (default: stdout)")
    mode.add_argument("--check", metavar="FILE", help="exit 0 when FILE is what would be written, else 1")
    parser.add_argument("--commit", help="the ggml commit of the tree (default: its git HEAD)")
    parser.add_argument("--date", help="that commit's date, YYYY-MM-DD (default: from git)")
    args = parser.parse_args(argv)
    try:
        doc = document(args.source, args.commit, args.date)
        if args.check:
            return check(doc, args.check)
        if args.out:
            write_atomically(rendered(doc), args.out)
        else:
            sys.stdout.write(rendered(doc))
        return 0
    except Failure as e:
        print(f"ggml_tables.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
