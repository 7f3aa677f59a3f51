"""`whichone perf --stack`'s targets, its verdict, and its comparison with the previous run.

The targets (issue 37; each a `whichone perf` option) are what a laptop user of the cpu stack waits for
and what the app may hold in memory. `check` says which of them decide the exit status: "all", "memory"
(the figure that is steady on a shared or busy machine, as CI's) or "none". Each run's figures are saved
under whichone's cache (perf/<stack>.json) and the next run prints itself beside them, so a change that
adds memory or time shows the day it lands.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

Check = Literal["all", "memory", "none"]
CHECKS: tuple[Check, ...] = ("all", "memory", "none")


@dataclass(frozen=True)
class Targets:
    max_first_turn_s: float = 2.0
    max_second_turn_s: float = 1.2
    max_first_word_s: float = 1.5
    max_peak_gib: float = 2.5


# figure key -> (label, target field, unit); the order of the report
_FIGURES = (
    ("first_turn_s", "first turn", "max_first_turn_s", "s"),
    ("second_turn_s", "second turn", "max_second_turn_s", "s"),
    ("first_word_s", "first word", "max_first_word_s", "s"),
    ("peak_rss_gib", "peak memory", "max_peak_gib", "GiB"),
)


@dataclass(frozen=True)
class Outcome:
    figure: str
    label: str
    value: float | None
    limit: float
    unit: str
    decides: bool  # whether it counts for the exit status under the chosen check

    @property
    def met(self) -> bool:
        return self.value is not None and self.value <= self.limit


def outcomes(figures: dict[str, Any], targets: Targets, check: Check) -> list[Outcome]:
    """Each target against its figure (a missing figure misses its target)."""
    return [
        Outcome(
            key,
            label,
            figures.get(key),
            getattr(targets, field),
            unit,
            check == "all" or (check == "memory" and unit == "GiB"),
        )
        for key, label, field, unit in _FIGURES
    ]


def verdict_lines(results: list[Outcome]) -> list[str]:
    lines = []
    for r in results:
        value = "not measured" if r.value is None else f"{r.value:.2f} {r.unit}"
        state = "met" if r.met else "MISSED"
        counts = "" if r.decides else " (not checked)"
        lines.append(f"  {r.label:<12} {value:>14}  target <= {r.limit:g} {r.unit}: {state}{counts}")
    return lines


def failed(results: list[Outcome]) -> list[Outcome]:
    return [r for r in results if r.decides and not r.met]


def saved_path(stack: str, cache_dir: Path) -> Path:
    return cache_dir / "perf" / f"{stack}.json"


def previous_run(path: Path) -> dict[str, Any] | None:
    """The run saved at `path`, or None (none yet, or unreadable: a run is never refused for it)."""
    try:
        loaded = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


def save_run(path: Path, figures: dict[str, Any], targets: Targets) -> None:
    """The figures the comparison reads, with when and under what load they were measured."""
    summary = {key: figures.get(key) for key, *_ in _FIGURES}
    summary["stages"] = {
        name: {k: s[k] for k in ("wall_s", "cpu_s", "peak_gib")} for name, s in figures["stages"].items()
    }
    record = {
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "figures": summary,
        "targets": asdict(targets),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=2))
    tmp.replace(path)


def comparison_lines(figures: dict[str, Any], previous: dict[str, Any] | None) -> list[str]:
    """Each target's figure beside the previous run's, and the stages whose peak or CPU time moved most."""
    if previous is None:
        return ["compared with the previous run: none saved yet"]
    before = previous.get("figures", {})
    load = previous.get("load_average")
    when = f"{previous.get('measured_at', '?')}" + (f", load {load[0]:.2f}" if load else "")
    lines = [f"compared with the previous run ({when}):"]
    for key, label, _, unit in _FIGURES:
        now, then = figures.get(key), before.get(key)
        if isinstance(now, int | float) and isinstance(then, int | float):
            lines.append(f"  {label:<12} {then:>7.2f} -> {now:>7.2f} {unit} ({now - then:+.2f})")
    stages_then = before.get("stages", {})
    for name, stage in figures.get("stages", {}).items():
        old = stages_then.get(name)
        if old is None:
            continue
        peak, cpu = stage["peak_gib"] - old["peak_gib"], stage["cpu_s"] - old["cpu_s"]
        if abs(peak) >= 0.05 or abs(cpu) >= max(0.25, 0.2 * old["cpu_s"]):
            lines.append(f"  stage {name}: peak {peak:+.2f} GiB, CPU {cpu:+.2f} s")
    return lines


def check_stack(
    figures: dict[str, Any], targets: Targets, check: Check, cache_dir: Path
) -> tuple[list[str], list[str]]:
    """(the verdict and comparison lines, the labels of the checked targets missed); saves this run as the
    next one's previous run."""
    results = outcomes(figures, targets, check)
    path = saved_path(str(figures["stack"]), cache_dir)
    lines = [f"targets (checked: {check}):", *verdict_lines(results)]
    lines += comparison_lines(figures, previous_run(path))
    try:
        save_run(path, figures, targets)
        lines.append(f"this run is saved in {path}")
    except OSError as error:
        lines.append(f"this run could not be saved in {path}: {error}")
    return lines, [r.label for r in failed(results)]
