#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 32, item 2: one job of a GitHub Actions workflow, run here as a runner would run it.

Runs the steps of JOB in WORKFLOW (a file, or `README.md#N`: the N-th yaml block of a Markdown
file) in WORKSPACE: `run` steps with bash, `actions/checkout` as a no-op (the workspace is the
checkout), any `uses: OWNER/ninfer-conform@REF` as the composite action of ACTION_DIR
(action.yml: its inputs with their defaults, `if:` conditions, `${{ }}` expressions, step
outputs and the action's outputs), `actions/cache/restore` and `/save` against CACHE_DIR (an
exact key; `actions/cache` itself is refused: its post step saves only when the job succeeds,
so a red first run would never fill the cache) and `actions/upload-artifact`
into WORKSPACE/../artifacts. $GITHUB_ENV, $GITHUB_PATH, $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY
behave as on a runner. Prints one line per step and exits 0 when the job succeeded, 1 when it
failed (a runner's red job); the action's outputs go to WORKSPACE/../outputs.json.

usage: fake_runner.py WORKFLOW JOB WORKSPACE ACTION_DIR CACHE_DIR
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def markdown_yaml(path, n):
    """The n-th (1-based) ```yaml block of a Markdown file."""
    found = re.findall(r"^```ya?ml\n(.*?)^```", pathlib.Path(path).read_text(encoding="utf-8"), re.M | re.S)
    return found[n - 1]


class Job:
    def __init__(self, workspace, action_dir, cache_dir):
        self.ws = pathlib.Path(workspace).resolve()
        self.action_dir = pathlib.Path(action_dir).resolve()
        self.cache_dir = pathlib.Path(cache_dir).resolve()
        self.root = self.ws.parent
        self.temp = self.root / "runner-temp"
        self.temp.mkdir(exist_ok=True)
        self.env = {"GITHUB_WORKSPACE": str(self.ws), "RUNNER_TEMP": str(self.temp), "GITHUB_ACTIONS": "true",
                    "CI": "true", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "ImageOS": "fake"}
        self.path = []
        self.failed = False
        self.summary = self.root / "step-summary.md"
        self.summary.write_text("")

    # --- expressions -------------------------------------------------------------------------
    def value(self, expr, ctx):
        """A `${{ }}` expression: contexts, literals, ==, !=, &&, ||, !, always(), success(), failure()."""
        tokens = re.findall(r"'[^']*'|&&|\|\||==|!=|!|\(|\)|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*", expr)
        py = []
        for t in tokens:
            if t.startswith("'"):
                py.append(repr(t[1:-1]))
            elif t in ("&&", "||", "!", "==", "!=", "(", ")"):
                py.append({"&&": " and ", "||": " or ", "!": " not "}.get(t, t))
            elif t == "always()":
                py.append("True")
            elif t == "success()":
                py.append(repr(not self.failed))
            elif t == "failure()":
                py.append(repr(self.failed))
            elif t in ("true", "false"):
                py.append(repr(t == "true"))
            else:
                py.append(repr(self.lookup(t, ctx)))
        return eval("".join(py), {"__builtins__": {}})  # noqa: S307 (tokens above: literals only)

    def lookup(self, name, ctx):
        head, _, rest = name.partition(".")
        if head == "inputs":
            return ctx["inputs"].get(rest, "")
        if head == "steps":
            sid, _, out = rest.partition(".outputs.")
            return ctx["steps"].get(sid, {}).get(out, "")
        if head == "runner":
            return {"temp": str(self.temp), "os": "Linux", "arch": "X64"}[rest]
        if head == "github":
            return {"workspace": str(self.ws), "action_path": str(self.action_dir)}.get(rest, "")
        if head == "env":
            return self.env.get(rest, "")
        if head == "matrix":
            return ""
        raise SystemExit(f"fake_runner: unknown context {name}")

    def expand(self, text, ctx):
        if not isinstance(text, str):
            return "" if text is None else str(text).lower() if isinstance(text, bool) else str(text)
        return EXPR.sub(lambda m: str(self.value(m.group(1), ctx)), text)

    def runs(self, step, ctx):
        cond = step.get("if")
        if cond is None:
            return not self.failed
        cond = EXPR.sub(lambda m: m.group(1), str(cond))
        explicit = re.search(r"always\(\)|failure\(\)|success\(\)", cond)
        return bool(self.value(cond, ctx)) and (explicit or not self.failed)

    # --- steps -------------------------------------------------------------------------------
    def files(self):
        names = {k: self.root / f"{k.lower()}-file" for k in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT")}
        for p in names.values():
            p.write_text("")
        return names

    def absorb(self, names):
        """What a step wrote to $GITHUB_ENV, $GITHUB_PATH and $GITHUB_OUTPUT; returns its outputs."""
        for k, v in key_values(names["GITHUB_ENV"].read_text()).items():
            self.env[k] = v
        self.path = [p for p in names["GITHUB_PATH"].read_text().splitlines() if p] + self.path
        return key_values(names["GITHUB_OUTPUT"].read_text())

    def shell(self, script, env_extra, ctx, label):
        names = self.files()
        env = dict(os.environ)
        env.update(self.env)
        env.update({k: self.expand(v, ctx) for k, v in (env_extra or {}).items()})
        env.update({k: str(v) for k, v in names.items()})
        env["GITHUB_STEP_SUMMARY"] = str(self.summary)
        env["GITHUB_ACTION_PATH"] = str(ctx.get("action_path", ""))
        env["PATH"] = ":".join(self.path + [env.get("PATH", "")])
        rc = subprocess.run(["bash", "-e", "-c", self.expand(script, ctx)], cwd=self.ws, env=env).returncode
        outputs = self.absorb(names)
        print(f"fake_runner: {label}: exit {rc}", flush=True)
        if rc != 0:
            self.failed = True
        return outputs

    def restore(self, args):
        """actions/cache/restore: an exact key only (no restore-keys here)."""
        key, path = args["key"], pathlib.Path(args["path"])
        hit = self.cache_dir / key
        if hit.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(hit, path, symlinks=True)
            print(f"fake_runner: cache hit {key}", flush=True)
            return {"cache-hit": "true", "cache-matched-key": key}
        print(f"fake_runner: cache miss {key}", flush=True)
        return {"cache-hit": "false"}

    def save(self, args):
        """actions/cache/save: a key is written once; an existing one is kept (GitHub refuses it)."""
        key, path = args["key"], pathlib.Path(args["path"])
        if not (self.cache_dir / key).exists() and path.is_dir():
            shutil.copytree(path, self.cache_dir / key, symlinks=True)
            print(f"fake_runner: cache saved {key}", flush=True)
        return {}

    def upload(self, args):
        src = self.ws / args["path"]
        dst = self.root / "artifacts" / args["name"]
        if src.exists():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        return {}

    def step(self, step, ctx, label):
        if not self.runs(step, ctx):
            print(f"fake_runner: {label}: skipped", flush=True)
            return {}
        uses = step.get("uses", "")
        args = {k: self.expand(v, ctx) for k, v in (step.get("with") or {}).items()}
        if "run" in step:
            return self.shell(step["run"], step.get("env"), ctx, label)
        if uses.startswith("actions/checkout@"):
            return {}
        if uses.startswith("actions/cache@"):
            raise SystemExit("fake_runner: actions/cache saves only when the job succeeds; use cache/restore and cache/save")
        if uses.startswith("actions/cache/restore@"):
            return self.restore(args)
        if uses.startswith("actions/cache/save@"):
            return self.save(args)
        if uses.startswith("actions/upload-artifact@"):
            return self.upload(args)
        if re.fullmatch(r"[\w.-]+/ninfer-conform@[\w./-]+", uses):
            return self.action(args)
        raise SystemExit(f"fake_runner: no stand-in for `uses: {uses}`")

    def action(self, given):
        spec = yaml.safe_load((self.action_dir / "action.yml").read_text(encoding="utf-8"))
        declared = spec.get("inputs") or {}
        unknown = set(given) - set(declared)
        if unknown:
            raise SystemExit(f"fake_runner: the action has no input {sorted(unknown)}")
        inputs = {k: str((v or {}).get("default", "")) for k, v in declared.items()}
        inputs.update(given)
        ctx = {"inputs": inputs, "steps": {}, "action_path": self.action_dir}
        for i, step in enumerate(spec["runs"]["steps"]):
            out = self.step(step, ctx, f"action step {step.get('id', i)}")
            undeclared = set(out) - set(spec.get("outputs") or {}) if "run" in step else set()
            if undeclared:  # what the script writes, the action declares
                raise SystemExit(f"fake_runner: step {step.get('id', i)} wrote undeclared outputs {sorted(undeclared)}")
            if "id" in step:
                ctx["steps"][step["id"]] = out
        outputs = {k: self.expand(v.get("value", ""), ctx) for k, v in (spec.get("outputs") or {}).items()}
        (self.root / "outputs.json").write_text(json.dumps(outputs, indent=1))
        return outputs


def key_values(text):
    """NAME=value lines and NAME<<DELIM heredocs, as $GITHUB_ENV and $GITHUB_OUTPUT hold them."""
    out, lines = {}, text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"([^=<]+)<<(.+)$", lines[i])
        if m:
            j = lines.index(m.group(2), i + 1)
            out[m.group(1)] = "\n".join(lines[i + 1:j])
            i = j + 1
            continue
        k, _, v = lines[i].partition("=")
        if k:
            out[k] = v
        i += 1
    return out


def main(workflow, job_name, workspace, action_dir, cache_dir):
    if "#" in workflow:
        path, n = workflow.rsplit("#", 1)
        text = markdown_yaml(path, int(n))
    else:
        text = pathlib.Path(workflow).read_text(encoding="utf-8")
    job = yaml.safe_load(text)["jobs"][job_name]
    runner = Job(workspace, action_dir, cache_dir)
    for i, step in enumerate(job["steps"]):
        runner.step(step, {"inputs": {}, "steps": {}}, f"step {i} {step.get('uses') or step.get('run', '')[:40]!r}")
    print(f"fake_runner: job {job_name}: {'failure' if runner.failed else 'success'}")
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
