"""Import every module of the packages, each in a fresh process, and record every folder created, file
opened for writing, and environment variable set while it imports (os.mkdir, os.open/open for writing,
os.putenv), with who did it: the project's own code (a frame in the repo) or a library. Also diff os.environ.
Run from a repo root: PYTHONPATH=. .venv/bin/python scripts/import_effects.py (one process per module:
about 10 minutes on two cores)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import tempfile

ROOTS = ["prompts", "models", "assistant", "ui"]
modules = ["app"]
for root in ROOTS:
    for f in sorted(pathlib.Path(root).rglob("*.py")):
        parts = list(f.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] != "__main__":
            modules.append(".".join(parts))

PROBE = r"""
import os, sys, json, traceback, builtins, importlib
repo = os.path.abspath(".")
events = []
def who():
    frames = traceback.extract_stack()[:-2]
    frames = [f for f in frames if "import_effects" not in f.filename and f.filename != "<string>"]
    inner = frames[-1] if frames else None
    own = [f for f in frames if f.filename.startswith(repo) and "/.venv/" not in f.filename]
    return {"innermost": f"{inner.filename}:{inner.lineno}" if inner else "?",
            "project_frame": f"{own[-1].filename[len(repo)+1:]}:{own[-1].lineno}" if own else None,
            "by_project": bool(inner and inner.filename.startswith(repo) and "/.venv/" not in inner.filename)}
real_mkdir, real_putenv, real_open, real_os_open = os.mkdir, os.putenv, builtins.open, os.open
def mkdir(path, *a, **k):
    events.append({"mkdir": str(path), **who()}); return real_mkdir(path, *a, **k)
def putenv(key, value):
    events.append({"putenv": f"{key}={value}", **who()}); return real_putenv(key, value)
def bopen(file, mode="r", *a, **k):
    if any(c in str(mode) for c in "wax+"):
        events.append({"open": str(file), **who()})
    return real_open(file, mode, *a, **k)
def oopen(path, flags, *a, **k):
    if flags & os.O_CREAT:
        events.append({"os.open": str(path), **who()})
    return real_os_open(path, flags, *a, **k)
os.mkdir, os.putenv, builtins.open, os.open = mkdir, putenv, bopen, oopen
env = dict(os.environ)
importlib.import_module(sys.argv[1])
changed = {n: os.environ.get(n) for n in set(env) | set(os.environ) if env.get(n) != os.environ.get(n)}
print(json.dumps({"events": events, "env": changed}))
"""
results = {}
with tempfile.TemporaryDirectory() as tmp:
    for m in modules:
        r = subprocess.run(
            [sys.executable, "-c", PROBE, m],
            capture_output=True,
            text=True,
            timeout=300,
            env={**__import__("os").environ, "TMPDIR": tmp},
        )
        if r.returncode != 0:
            results[m] = {"error": r.stderr.strip().splitlines()[-1:]}
            continue
        d = json.loads(r.stdout.strip().splitlines()[-1])
        if d["events"] or d["env"]:
            results[m] = d
own = {m: d for m, d in results.items() if "error" in d or any(e["by_project"] for e in d["events"])}
print(
    len(modules),
    "modules imported;",
    len(results),
    "with any effect (libraries included);",
    len(own),
    "with an effect made by the project's own code (or an import error)",
)
print("BY PROJECT:", json.dumps(own, indent=1))
lib = {}
for m, d in results.items():
    for e in d.get("events", []):
        if not e["by_project"]:
            key = next(k for k in e if k not in ("innermost", "project_frame", "by_project"))
            lib.setdefault(f"{key} {e[key]} <- {e['innermost']}", set()).add(m)
    for n, v in d.get("env", {}).items():
        lib.setdefault(f"env {n}={v}", set()).add(m)
print("BY LIBRARIES (effect <- where, number of modules):")
for k, ms in sorted(lib.items()):
    print(" ", k, len(ms), sorted(ms)[:3])
