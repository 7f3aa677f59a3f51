"""What a result was made with, for summary.json: the code's version, the libraries' versions, Python.

The code version is the git commit of the checkout the package runs from, and whether its tracked files
were modified (a figure made from uncommitted code cannot be reproduced from the hash alone); outside a
git checkout (an installed wheel) it is the package's version.
"""

from __future__ import annotations

import platform
import subprocess
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# the libraries whose versions change what a run produces: models, decoding, metrics and the rule judge
LIBRARIES = (
    "torch",
    "transformers",
    "tokenizers",
    "numpy",
    "scikit-learn",
    "statsmodels",
    "inflect",
    "lingua-language-detector",
    "simplemma",
    "pysbd",
    "breame",
    "openai",
)


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@lru_cache(maxsize=1)
def code_version() -> dict[str, Any]:
    """{"git_commit", "modified"} in a git checkout, else {"package_version"}."""
    commit = _git("rev-parse", "HEAD")
    if commit:
        status = _git("status", "--porcelain", "--untracked-files=no")
        return {"git_commit": commit, "modified": bool(status)}
    try:
        return {"package_version": metadata.version("whichone")}
    except metadata.PackageNotFoundError:
        return {"package_version": None}


def library_versions() -> dict[str, str | None]:
    """{distribution: version or None when not installed}."""
    found: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def provenance() -> dict[str, Any]:
    """summary.json's "provenance": code version, library versions, Python."""
    return {"code": code_version(), "libraries": library_versions(), "python": platform.python_version()}
