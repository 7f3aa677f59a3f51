"""The README fits on two screens and says only true things about how to start: its two commands are the
ones CI runs, every link it and docs/ make points at a file that is there, and the stacks and commands it
names exist."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from models.catalog import STACKS
from ui.cli import app

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_two_screens() -> None:
    assert len(README.splitlines()) <= 200


def test_its_two_commands_are_the_ones_ci_runs() -> None:
    ci = (REPO / ".ci" / "run").read_text()
    assert "bash scripts/install.sh && .venv/bin/whichone serve" in README
    assert "bash scripts/install.sh --dev && .venv/bin/python -m pytest -q" in README
    assert "bash scripts/install.sh --dev" in ci and ".venv/bin/python -m pytest -q" in ci


def test_every_relative_link_points_at_a_file_that_is_there() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path = (page.parent / target).resolve()
            assert path.exists(), f"{page.relative_to(REPO)} links to {target}, which is not there"


def test_no_measured_figure_in_the_readme_without_its_date() -> None:
    # figures that go stale (seconds, test counts, sizes measured on one machine) belong in docs/ with
    # their date and command; the README keeps the catalog's download sizes only
    assert not re.search(r"\b\d+(\.\d+)? ?(s|ms|minutes)\b", README)
    assert not re.search(r"\d[\d,]* tests", README)


def test_the_stacks_and_commands_it_names_exist() -> None:
    for name in re.findall(r"^\| `([a-z-]+)`(?:, `([a-z-]+)`)? \|", README, re.M):
        for stack in filter(None, name):
            assert stack in STACKS, stack
    for command in re.findall(r"^whichone ([a-z-]+)", README, re.M):
        assert CliRunner().invoke(app, [command, "--help"]).exit_code == 0, command
