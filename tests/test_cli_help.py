"""Every `whichone` command's --help: its own usage line, flags shown as flags (never `--yes <bool>`), no
box drawing for a screen reader to spell out; `whichone bench` has real subcommands."""

from __future__ import annotations

import pytest
import typer.main
from typer.testing import CliRunner

from ui.cli import app

BENCH = ("run", "list", "fetch", "show", "compare", "mark")


def _every_command() -> list[list[str]]:
    """Each command path: [], ["ask"], ..., ["bench"], ["bench", "run"], ..."""
    root = typer.main.get_command(app)
    paths: list[list[str]] = [[]]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        paths.append([name])
        paths += [[name, sub] for sub in getattr(command, "commands", {})]
    return paths


@pytest.mark.parametrize("path", _every_command(), ids=lambda p: " ".join(p) or "whichone")
def test_help_shows_flags_as_flags_and_no_boxes(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Usage: whichone {' '.join(path)}".replace("  ", " ").rstrip())
    assert "<bool>" not in result.output and "None" not in result.output
    assert not set("╭─│╰") & set(result.output)


def test_bench_lists_its_subcommands() -> None:
    assert sorted(typer.main.get_command(app).commands["bench"].commands) == sorted(BENCH)  # type: ignore[attr-defined]
    out = CliRunner().invoke(app, ["bench", "--help"]).output
    for name in BENCH:
        assert f"\n  {name} " in out, name


@pytest.mark.parametrize(
    ("sub", "usage", "option"),
    [
        ("run", "whichone bench run [OPTIONS] {TASK}", "--judge NAME"),
        ("list", "whichone bench list [OPTIONS]", "--help"),
        ("fetch", "whichone bench fetch [OPTIONS] {TASK}", "--limit N"),
        ("show", "whichone bench show [OPTIONS] {RUN}", "--outcome OUTCOME"),
        ("compare", "whichone bench compare [OPTIONS] {RUN_A} {RUN_B}", "--export FILE"),
        ("mark", "whichone bench mark [OPTIONS] {RUN} {RECORD_ID}", "--label LABEL"),
    ],
)
def test_each_bench_subcommand_has_its_own_usage(sub: str, usage: str, option: str) -> None:
    out = CliRunner().invoke(app, ["bench", sub, "--help"], env={"COLUMNS": "100"}).output
    assert out.startswith(f"Usage: {usage}\n"), out
    assert f"  {option} " in out
    # the options of one subcommand are not offered by another
    assert ("--label" in out) == (sub == "mark") and ("--batch-size" in out) == (sub == "run")


def test_the_form_before_subcommands_is_told_the_new_one() -> None:
    result = CliRunner().invoke(app, ["bench", "racquet-general", "--model", "tiny"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: `whichone bench` has no subcommand 'racquet-general'; run a task with: whichone bench run "
        "racquet-general --model NAME (subcommands: run, list, fetch, show, compare, mark)"
    )
