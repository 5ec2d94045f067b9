#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 32, item 9: shown outputs that cannot go stale. Every console block of README.md,
docs/GUIDE.md and docs/cli.md that shows what a command prints is marked, on the line before its
fence, with

    <!-- output: NAME [keep=REGEX] -->

and this script runs its `$ ` commands (continuation lines and here-documents included) in a
scratch directory where `build/ci/harness/ninfer-conform` is the CLI given, `harness/` and `abi/`
the source tree's, and writes their output (stdout and stderr, in order) under each command.
keep=REGEX keeps only the output lines it matches, each run of dropped lines shown as "...".
The scratch directory is shown as /tmp/qs, the directory the GUIDE's reader is in.

    refresh_docs.py EXE SOURCE_DIR            rewrite the marked blocks (scripts/refresh_docs.sh)
    refresh_docs.py --check EXE SOURCE_DIR    exit 1 naming each stale block, with a diff

--check compares with timings masked (seconds, words per second), so that only what a change
of the code changes makes a block stale; it also fails on a console block that shows output
but has no marker.
"""
import difflib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

DOCS = ("README.md", "docs/GUIDE.md", "docs/cli.md")
MARK = re.compile(r"^<!-- output: ([a-z0-9_.-]+)(?: keep=(.*?))? -->\s*$")
FENCE = re.compile(r"^```console\s*$")
SCRATCH = "/tmp/qs"
# Figures that change from run to run, masked by --check (the rewrite keeps the measured ones).
VOLATILE = [(re.compile(r"\(\d+(\.\d+)? s\)"), "(T s)"),
            (re.compile(r"[0-9.]+e[+-]\d+ words(/s| per second)"), "R words\\1"),
            (re.compile(r"in [0-9.]+ s"), "in T s")]


def commands(lines):
    """(command lines, output lines) of each `$ ` command of a transcript."""
    out, cur, heredoc, cont = [], None, None, False
    for line in lines:
        if heredoc is not None:
            cur[0].append(line)
            if line.strip() == heredoc:
                heredoc = None
            continue
        if line.startswith("$ ") or cont:
            if not cont:
                cur = ([], [])
                out.append(cur)
            cur[0].append(line)
            cont = line.endswith("\\")
            m = re.search(r"<<-?\s*'?(\w+)'?", line)
            if m:
                heredoc = m.group(1)
            continue
        if cur is not None:
            cur[1].append(line)
    return out


def shell_text(cmd_lines):
    """The command as bash reads it: the `$ ` prompt dropped."""
    return "\n".join(l[2:] if i == 0 else l for i, l in enumerate(cmd_lines))


def run_block(cmds, exe, src, keep):
    """The transcript of the block's commands, run one after another in one scratch directory."""
    work = tempfile.mkdtemp(prefix="refresh-docs-")
    try:
        os.makedirs(os.path.join(work, "build/ci/harness"))
        os.symlink(os.path.abspath(exe), os.path.join(work, "build/ci/harness/ninfer-conform"))
        for d in ("harness", "abi"):
            os.symlink(os.path.join(src, d), os.path.join(work, d))
        # `python3` in a block is the Python running this script (CMake's, which has numpy).
        env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
        text = []
        for cmd_lines, _ in cmds:
            r = subprocess.run(["bash", "-c", "exec 2>&1\n" + shell_text(cmd_lines)], cwd=work, capture_output=True, text=True,
                               timeout=1200, env=env)
            shown, dropped = [], False
            for line in r.stdout.replace(work, SCRATCH).splitlines():
                if keep and not re.search(keep, line):
                    dropped = True
                    continue
                if dropped:
                    shown.append("...")
                dropped = False
                shown.append(line)
            if dropped:
                shown.append("...")
            text += cmd_lines + shown
        return text
    finally:
        shutil.rmtree(work, ignore_errors=True)


def marked_blocks(lines):
    """(marker line index, name, keep, body start, body end) of each marked console block, and the
    line numbers of console blocks that show output without a marker."""
    found, unmarked, i = [], [], 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            m = MARK.match(lines[i - 1]) if i > 0 else None
            body = lines[i + 1:end]
            if m:
                found.append((i - 1, m.group(1), m.group(2), i + 1, end))
            elif any(cmd_out for _, cmd_out in commands(body)):
                unmarked.append(i + 1)
            i = end
        i += 1
    return found, unmarked


def masked(lines):
    out = []
    for line in lines:
        for pattern, repl in VOLATILE:
            line = pattern.sub(repl, line)
        out.append(line)
    return out


def main(argv):
    check = argv[:1] == ["--check"]
    if check:
        argv = argv[1:]
    if len(argv) != 2:
        sys.exit(__doc__)
    exe, src = argv[0], os.path.abspath(argv[1])
    stale = 0
    for doc in DOCS:
        path = pathlib.Path(src, doc)
        lines = path.read_text(encoding="utf-8").split("\n")
        found, unmarked = marked_blocks(lines)
        for n in unmarked:
            print("%s:%d: a console block shows output but has no <!-- output: NAME --> marker" % (doc, n))
            stale += 1
        for mark, name, keep, begin, end in reversed(found):
            now = run_block(commands(lines[begin:end]), exe, src, keep)
            if masked(now) == masked(lines[begin:end]):
                continue
            if check:
                stale += 1
                print("%s:%d: shown output '%s' is stale; run scripts/refresh_docs.sh" % (doc, begin, name))
                sys.stdout.writelines(difflib.unified_diff([l + "\n" for l in masked(lines[begin:end])],
                                                           [l + "\n" for l in masked(now)], "shown", "printed now"))
            else:
                lines[begin:end] = now
                print("%s: refreshed '%s'" % (doc, name))
        if not check:
            path.write_text("\n".join(lines), encoding="utf-8")
    if check:
        print("%d stale or unmarked shown output(s)" % stale if stale else "every shown output is current")
    sys.exit(1 if check and stale else 0)


main(sys.argv[1:])
