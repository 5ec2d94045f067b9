#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 32, item 9: shown outputs that cannot go stale. Every console block of README.md,
docs/GUIDE.md and docs/cli.md that shows what a command prints (a ``` or ```console block with
`$ ` command lines followed by output lines) is marked, on the line before its fence, with

    <!-- output: NAME [long] [run=`COMMAND`] [keep=REGEX] -->

and this script runs its `$ ` commands (continuation lines and here-documents included) in a
scratch directory where `build/ci/harness/ninfer-conform` (and `ninfer-conform` on PATH) is the
CLI given, `harness/` and `abi/` the source tree's and $PREFIX an installed-looking copy of the
CLI, and writes their output (stdout and stderr, in order) under each command. run=`COMMAND`
runs a command the block does not show, and the block shows its output alone. keep=REGEX keeps
only the output lines it matches, each run of dropped lines shown as "...". `long` marks a block
whose commands take more than a few seconds: --quick leaves it to the long test. Paths print as
the reader's: the scratch directory as /tmp/qs, the CLI's build directory as
/work/ninfer-conform/build/ci and the source tree as /work/ninfer-conform.

    refresh_docs.py [--doc DOC] EXE SOURCE_DIR                   rewrite the marked blocks
    refresh_docs.py --check [--quick] [--doc DOC] EXE SOURCE_DIR exit 1 naming each stale block

--check compares with timings masked (seconds, words per second), so that only what a change
of the code changes makes a block stale; it also fails on a console block that shows output
but has no marker, and prints a diff of each stale block. --quick reruns only the blocks not
marked `long` (ctest's docs label; the long test reruns every block); --doc DOC only README.md,
docs/GUIDE.md or docs/cli.md.
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
MARK = re.compile(r"^<!-- output: ([a-z0-9_.-]+)( long)?(?: run=`([^`]*)`)?(?: keep=(.*?))? -->\s*$")
FENCE = re.compile(r"^```(console)?\s*$")
SCRATCH = "/tmp/qs"
CLONE = "/work/ninfer-conform"
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


def scratch_dir(exe, src):
    """A scratch directory laid out as the docs' reader has it (see the module comment)."""
    work = tempfile.mkdtemp(prefix="refresh-docs-")
    os.makedirs(os.path.join(work, "build/ci/harness"))
    os.symlink(os.path.abspath(exe), os.path.join(work, "build/ci/harness/ninfer-conform"))
    os.makedirs(os.path.join(work, ".bin"))
    os.symlink(os.path.abspath(exe), os.path.join(work, ".bin/ninfer-conform"))
    # An installed-looking CLI: a copy (a link would resolve to the build tree) in PREFIX/bin.
    os.makedirs(os.path.join(work, "prefix/bin"))
    shutil.copy2(exe, os.path.join(work, "prefix/bin/ninfer-conform"))
    for d in ("harness", "abi"):
        os.symlink(os.path.join(src, d), os.path.join(work, d))
    return work


def shown_paths(text, work, exe, src):
    """Paths as the reader's (the module comment): the longest first."""
    build = os.path.dirname(os.path.dirname(os.path.realpath(exe)))
    paths = [(work, SCRATCH), (os.path.realpath(work), SCRATCH), (build, CLONE + "/build/ci"),
             (os.path.realpath(src), CLONE)]
    # The source tree the CLI was built from (its vectors), where the docs checked are a copy.
    cache = pathlib.Path(build, "CMakeCache.txt")
    if cache.exists():
        m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache.read_text(encoding="utf-8"), re.M)
        if m:
            paths.append((os.path.realpath(m.group(1)), CLONE))
    for path, shown in sorted(paths, key=lambda p: -len(p[0])):
        text = text.replace(path, shown)
    return text


def run_block(cmds, exe, src, keep, hidden=None):
    """The transcript of the block's commands, run one after another in one scratch directory
    (or the output of the hidden command alone)."""
    work = scratch_dir(exe, src)
    try:
        # `python3` in a block is the Python running this script (CMake's, which has numpy).
        path = os.pathsep.join([os.path.join(work, ".bin"), os.path.dirname(sys.executable), os.environ.get("PATH", "")])
        env = dict(os.environ, PATH=path, PREFIX=os.path.join(work, "prefix"), COLUMNS="100")
        text = []
        for cmd_lines, _ in ([([hidden], [])] if hidden else cmds):
            r = subprocess.run(["bash", "-c", "exec 2>&1\n" + (hidden or shell_text(cmd_lines))], cwd=work,
                               capture_output=True, text=True, timeout=1200, env=env)
            shown, dropped = [], False
            for line in shown_paths(r.stdout, work, exe, src).splitlines():
                if keep and not re.search(keep, line):
                    dropped = not hidden  # a hidden command's block shows the kept lines alone
                    continue
                if dropped:
                    shown.append("...")
                dropped = False
                shown.append(line)
            if dropped:
                shown.append("...")
            text += ([] if hidden else cmd_lines) + shown
        return text
    finally:
        shutil.rmtree(work, ignore_errors=True)


def marked_blocks(lines):
    """(marker line index, name, long, hidden command, keep, body start, body end) of each marked
    console block, and the line numbers of console blocks that show output without a marker."""
    found, unmarked, i = [], [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            if not FENCE.match(lines[i]):  # ```sh, ```yaml, ...: what the reader types or writes
                i = end + 1
                continue
            m = MARK.match(lines[i - 1]) if i > 0 else None
            body = lines[i + 1:end]
            if m:
                found.append((i - 1, m.group(1), bool(m.group(2)), m.group(3), m.group(4), i + 1, end))
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
    flags = set()
    while argv[:1] and argv[0].startswith("--") and argv[0] != "--doc":
        flags.add(argv.pop(0))
    docs = DOCS
    if argv[:1] == ["--doc"] and len(argv) > 1 and argv[1] in DOCS:
        docs = (argv[1],)
        argv = argv[2:]
    check, quick = "--check" in flags, "--quick" in flags
    if len(argv) != 2 or flags - {"--check", "--quick"} or (quick and not check):
        sys.exit(__doc__)
    exe, src = argv[0], os.path.abspath(argv[1])
    stale = 0
    for doc in docs:
        path = pathlib.Path(src, doc)
        lines = path.read_text(encoding="utf-8").split("\n")
        found, unmarked = marked_blocks(lines)
        for n in unmarked:
            print("%s:%d: a console block shows output but has no <!-- output: NAME --> marker" % (doc, n))
            stale += 1
        for mark, name, long, hidden, keep, begin, end in reversed(found):
            if quick and long:
                continue
            now = run_block(commands(lines[begin:end]), exe, src, keep, hidden)
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
