"""One example photo's two-turn flow as `whichone selfcheck` runs it, and the checks of its outcome.

Shared by the English examples (ui/cli/selfcheck.py) and the other languages' (ui/cli/selfcheck_languages.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from assistant.images import load_image
from assistant.pipeline import Assistant
from assistant.session import Session
from assistant.types import Reply, Strategy
from models.errors import first_line
from ui.example_photos import ExamplePhoto
from ui.overlay import draw_overlay

MAX_MARKED = 12  # assistant/regions.py keeps at most this many candidates
HINT = "the one on the left"


@dataclass(frozen=True)
class Check:
    """One expected outcome: met (True / False) or not judged (None), with what was seen."""

    what: str
    met: bool | None
    seen: str


@dataclass
class Turn:
    label: str  # "first turn", "choice 1", "hint: the one on the left"
    reply: Reply | None
    error: str | None
    seconds: float


@dataclass
class ExampleRun:
    photo: ExamplePhoto
    turns: list[Turn] = field(default_factory=list)
    overlay: str | None = None  # the overlay PNG's file name in the report folder
    checks: list[Check] = field(default_factory=list)

    @property
    def first(self) -> Reply | None:
        return self.turns[0].reply if self.turns else None

    @property
    def ran(self) -> bool:
        return all(turn.error is None for turn in self.turns) and bool(self.turns)


def found_count(reply: Reply) -> int:
    """Candidates found before the cap."""
    return reply.candidates.found_count


def judge(run: ExampleRun, noise: bool) -> list[Check]:
    """The example's expected outcomes, met or not (None: not judged), and the flow's own checks."""
    first = run.first
    if first is None:
        return [Check("the first turn ran", False, run.turns[0].error or "no reply")]
    expected = run.photo.expected
    marked, found = len(first.candidates.regions), found_count(first)
    checks = [
        Check(f"at most {MAX_MARKED} candidates marked", marked <= MAX_MARKED, f"{marked} marked"),
    ]
    for turn in run.turns[1:]:
        if turn.label.startswith("choice") and turn.reply is not None:
            checks.append(
                Check(
                    "the choice by number answers about region 1",
                    turn.reply.resolved_region == 1,
                    f"answered about region {turn.reply.resolved_region}",
                )
            )
    wanted = [
        (f"strategy {run.photo.shows.value}", first.strategy == run.photo.shows, first.strategy.value),
        (
            f"{expected.candidates} candidates found ({min(expected.candidates, MAX_MARKED)} marked)",
            found == expected.candidates and marked == min(expected.candidates, MAX_MARKED),
            f"{found} found, {marked} marked",
        ),
    ]
    if expected.answer_contains:
        words = " or ".join(expected.answer_contains)
        text = first.text.lower()
        wanted.append(
            (f"the answer says {words}", any(w in text for w in expected.answer_contains), first.text[:200])
        )
    for what, met, seen in wanted:
        checks.append(Check(what, None if noise else bool(met), seen))
    return checks


def run_example(
    assistant: Assistant, photo: ExamplePhoto, number: int, out: Path, noise: bool, hint: str = HINT
) -> ExampleRun:
    """The two-turn flow on one example photo, as the Ask tab runs it; the overlay saved in `out`."""
    run = ExampleRun(photo)
    session: Session | None = None
    start = time.perf_counter()
    try:
        session = assistant.open_image(load_image(photo.path))
        reply, session = assistant.ask(None, photo.question, session)
        run.turns.append(Turn("first turn", reply, None, time.perf_counter() - start))
    except Exception as exc:  # noqa: BLE001 - the report says what failed; the other examples still run
        run.turns.append(Turn("first turn", None, _one_line(exc), time.perf_counter() - start))
    first = run.first
    if first is not None and session is not None and session.image is not None:
        name = f"{number}-{photo.path.stem}-overlay.png"
        draw_overlay(session.image, first.candidates).save(out / name)
        run.overlay = name
        if first.strategy in (Strategy.ENUMERATE, Strategy.CLARIFY) and first.candidates.regions:
            for label, choice in (("choice 1", 1), (f"hint: {hint}", hint)):
                start = time.perf_counter()
                try:
                    answer, _ = assistant.resolve(session, choice)
                    run.turns.append(Turn(label, answer, None, time.perf_counter() - start))
                except Exception as exc:  # noqa: BLE001
                    run.turns.append(Turn(label, None, _one_line(exc), time.perf_counter() - start))
    run.checks = judge(run, noise)
    return run


def _one_line(exc: BaseException) -> str:

    return f"{type(exc).__name__}: {first_line(exc)}"
