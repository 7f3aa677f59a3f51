"""A wheel of whichone, installed without the source tree, starts: the CLI, a benchmark listing, a question on
the demo stack and a served page. (A closed package list once left assistant.evaluation.papers out of the
wheel: `import ui.app` and `whichone bench` failed there while the editable install worked.)

The wheel is built from this checkout (`pip wheel --no-deps`) and installed with --no-deps into a fresh
virtualenv whose other packages come from the project's own environment through a .pth line (so no
download: that line adds the folder to sys.path without running the editable install's hooks, which
would put the source tree back). Every command runs from an empty folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.ui_support import free_port

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]


def run(args: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kwargs)


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    # setuptools stages a wheel in the checkout's build/ (ignored by git) and reuses what it finds there:
    # a stale copy would hide a missing package, so the wheel starts from nothing.
    shutil.rmtree(REPO / "build", ignore_errors=True)
    built = run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            str(REPO),
            "-w",
            str(root),
        ],
        cwd=root,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next(root.glob("whichone-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in (
        "assistant/evaluation/papers/racquet/paper.py",
        "assistant/evaluation/papers/aqua/kinds.py",
        "assistant/evaluation/cues/several.py",
        "prompts/answer.txt",
        "ui/examples/examples.json",
        "ui/examples/cat.jpg",
        "assistant/evaluation/data/racquet_labelled.jsonl",
    ):
        assert needed in names, needed
    assert not [n for n in names if n.startswith("tests/")]
    venv = root / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)], cwd=root).returncode == 0
    site = Path(
        run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            cwd=root,
        ).stdout.strip()
    )
    (site / "whichone-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installed = run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-deps", str(wheel)], cwd=root)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return venv


def test_the_wheel_runs_without_the_source_tree(wheel_env: Path, tmp_path: Path) -> None:
    whichone = str(wheel_env / "bin" / "whichone")
    where = run(
        [str(wheel_env / "bin" / "python"), "-c", "import assistant, ui.app; print(assistant.__file__)"],
        tmp_path,
    )
    assert where.returncode == 0, where.stderr[-2000:]
    assert str(REPO) not in where.stdout and "site-packages" in where.stdout, where.stdout
    assert run([whichone, "--help"], tmp_path).returncode == 0
    listed = run([whichone, "bench", "list"], tmp_path)
    assert listed.returncode == 0 and "focus-recognition" in listed.stdout, listed.stderr[-2000:]
    photo = REPO / "ui" / "examples" / "three-coins.jpg"
    asked = run(
        [whichone, "ask", str(photo), "Whose head is on the coin?", "--stack", "demo", "--json"], tmp_path
    )
    assert asked.returncode == 0, asked.stderr[-2000:]
    assert json.loads(asked.stdout)["stack"]["name"] == "demo"


def test_the_wheel_serves_the_page(wheel_env: Path, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(WHICHONE_STACK="demo", GRADIO_SERVER_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False")
    server = subprocess.Popen(
        [str(wheel_env / "bin" / "whichone"), "serve"], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        page = ""
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/config", timeout=2) as response:
                    page = response.read().decode()
                    break
            except OSError:
                time.sleep(0.5)
        assert "whichone" in page, server.stdout.read() if server.poll() is not None else "no page"
        assert "Photos to try" in page
    finally:
        server.terminate()
        server.wait(timeout=30)
