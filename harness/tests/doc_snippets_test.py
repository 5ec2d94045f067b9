#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 25, item 2: every YAML and shell snippet of the docs parses.

Reads README.md, docs/*.md and the module READMEs (*/README.md) and action.yml. Blocks fenced as
yaml/yml must load with yaml.safe_load, and a GitHub workflow among them must have the shape
Actions runs (each job: runs-on and steps; needs naming jobs; a merge job that runs whatever its
shards did). Blocks fenced sh/bash/shell must pass `bash -n` (and shellcheck at severity error);
console blocks are transcripts: their `$ ` lines are checked as commands, the rest is output.
Untagged blocks are output and left alone. With the CLI given, every `ninfer-conform COMMAND
--option` of a snippet must name a command and an option its --help lists.

usage: doc_snippets_test.py SOURCE_DIR [NINFER_CONFORM_EXE]
"""
import pathlib
import re
import shutil
import subprocess
import sys

import yaml

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)\s*$")
SHELL = {"sh", "bash", "shell"}
YAML = {"yaml", "yml"}


def blocks(path):
    """(language, first line number, text) of every fenced block of a Markdown file."""
    out, lang, start, indent, fence, body = [], None, 0, "", "", []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if lang is None and m:
            indent, fence, lang, start, body = m.group(1), m.group(2), m.group(3).lower(), n + 1, []
        elif lang is not None and m and m.group(2).startswith(fence) and not m.group(3):
            out.append((lang, start, "\n".join(body) + "\n"))
            lang = None
        elif lang is not None:
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
    if lang is not None:
        out.append(("unclosed", start, ""))
    return out


def console_commands(text):
    """The commands of a console transcript: `$ ` lines, their backslash continuations and
    here-documents."""
    cmds, cont, heredoc = [], False, None
    for line in text.splitlines():
        if heredoc is not None:
            cmds.append(line)
            heredoc = None if line == heredoc else heredoc
        elif line.startswith("$ ") or cont:
            cmds.append(line[2:] if line.startswith("$ ") and not cont else line)
            cont = line.endswith("\\")
            m = re.search(r"<<-?\s*'?([A-Za-z_]+)'?", line)
            heredoc = m.group(1) if m else None
    return "\n".join(cmds) + "\n"


def check_workflow(doc, where):
    """The shape GitHub Actions runs: problems as lines."""
    problems = []
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return [f"{where}: workflow without jobs"]
    if "on" not in doc and True not in doc:  # YAML 1.1 reads the key `on` as true
        problems.append(f"{where}: workflow without `on:`")
    for name, job in jobs.items():
        w = f"{where}: job {name}"
        if not isinstance(job, dict):
            problems.append(f"{w}: not a mapping")
            continue
        if "uses" in job:  # a reusable workflow call has neither runs-on nor steps
            continue
        if "runs-on" not in job:
            problems.append(f"{w}: no runs-on")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"{w}: no steps")
            steps = []
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or ("run" in step) == ("uses" in step):
                problems.append(f"{w}: step {i} needs exactly one of run and uses")
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        for n in needs:
            if n not in jobs:
                problems.append(f"{w}: needs unknown job {n}")
        text = yaml.safe_dump(job)
        if "matrix." in text and "matrix" not in (job.get("strategy") or {}):
            problems.append(f"{w}: uses matrix values without strategy.matrix")
        if needs and "merge" in text and "always()" not in str(job.get("if", "")):
            problems.append(f"{w}: merges its shards but lacks `if: always()` (one failing shard would skip it)")
        for step in steps:
            if isinstance(step, dict) and str(step.get("uses", "")).startswith("actions/upload-artifact"):
                name_ = str((step.get("with") or {}).get("name", ""))
                if "matrix" in (job.get("strategy") or {}) and "matrix." not in name_:
                    problems.append(f"{w}: matrix jobs upload artifacts under one name (v4 refuses the second)")
    return problems


def check_action(doc, where):
    """A composite action: every run step names its shell; inputs are described."""
    problems = []
    runs = doc.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append(f"{where}: runs.using is not composite")
    for i, step in enumerate(runs.get("steps") or []):
        if "run" in step and "shell" not in step:
            problems.append(f"{where}: step {i} runs without shell:")
    for name, spec in (doc.get("inputs") or {}).items():
        if not isinstance(spec, dict) or not spec.get("description"):
            problems.append(f"{where}: input {name} has no description")
    return problems


def check_yaml(text, where):
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        return [f"{where}: not YAML: {' '.join(str(e).split())}"]
    if isinstance(doc, dict) and "jobs" in doc:
        return check_workflow(doc, where)
    if isinstance(doc, dict) and "runs" in doc:
        return check_action(doc, where)
    return []


def check_shell(text, where):
    r = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
    if r.returncode:
        return [f"{where}: bash -n: {r.stderr.strip()}"]
    if shutil.which("shellcheck"):
        r = subprocess.run(["shellcheck", "-s", "bash", "-S", "error", "-"], input=text, capture_output=True, text=True)
        if r.returncode:
            return [f"{where}: shellcheck:\n{r.stdout.strip()}"]
    return []


class Cli:
    """The commands and options `ninfer-conform --help` lists, asked once per command."""

    def __init__(self, exe):
        self.exe, self.helps = exe, {}

    def help(self, command):
        if command not in self.helps:
            args = [self.exe] + command.split() + ["--help"]
            r = subprocess.run(args, capture_output=True, text=True, timeout=20)
            self.helps[command] = r.stdout if r.returncode == 0 else None
        return self.helps[command]

    def subcommands(self, path):
        """The subcommands `--help` of the command path lists."""
        text = self.help(" ".join(path)) or ""
        part = text.split("Subcommands:", 1)[1] if "Subcommands:" in text else ""
        return set(re.findall(r"^  ([a-z][a-z0-9_-]*)", part, re.M))

    def check(self, text, where):
        problems = []
        text = re.sub(r"(^|\s)#.*$", "", text, flags=re.M)  # comments are prose
        for m in re.finditer(r"ninfer-conform((?:[ \t]+|\\\n\s*)[^\s|;&)`'\"]+)+", text):
            words = m.group(0).replace("\\\n", " ").split()[1:]
            if not words or not re.fullmatch(r"[a-z][a-z-]*", words[0]) or words[0] in ("main", "job"):
                continue
            path = [words[0]]
            if self.help(words[0]) is None:
                problems.append(f"{where}: `ninfer-conform {words[0]}`: no such command")
                continue
            while len(path) < len(words) and words[len(path)] in self.subcommands(path):
                path.append(words[len(path)])
            command = " ".join(path)
            for w in words[len(path):]:
                opt = w.split("=")[0]
                if re.fullmatch(r"--[a-z0-9-]+", opt) and not re.search(re.escape(opt) + r"\b", self.help(command)):
                    problems.append(f"{where}: `ninfer-conform {command}` has no option {opt}")
        return problems


def main():
    src = pathlib.Path(sys.argv[1])
    cli = Cli(sys.argv[2]) if len(sys.argv) > 2 else None
    docs = [src / "README.md"] + sorted((src / "docs").glob("*.md")) + sorted(src.glob("*/README.md"))
    problems, counts = [], {"yaml": 0, "shell": 0, "console": 0}
    for doc in docs:
        for lang, line, text in blocks(doc):
            where = f"{doc.relative_to(src)}:{line}"
            if lang == "unclosed":
                problems.append(f"{where}: unclosed code fence")
            elif lang in YAML:
                counts["yaml"] += 1
                problems += check_yaml(text, where)
            elif lang in SHELL or lang == "console":
                counts["shell" if lang in SHELL else "console"] += 1
                code = text if lang in SHELL else console_commands(text)
                problems += check_shell(code, where)
                if cli:
                    problems += cli.check(code, where)
            if lang in YAML and cli:
                problems += cli.check(text, where)
    action = src / "action.yml"
    if action.exists():
        counts["yaml"] += 1
        problems += check_yaml(action.read_text(encoding="utf-8"), "action.yml")
        problems += check_shell((src / "scripts" / "action.sh").read_text(encoding="utf-8"), "scripts/action.sh")
    for p in problems:
        print(p)
    print(f"{len(docs)} documents: {counts['yaml']} YAML, {counts['shell']} shell and {counts['console']} console "
          f"blocks; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
