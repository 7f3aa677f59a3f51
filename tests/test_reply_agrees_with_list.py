"""The reply's count agrees with the list (issue 21.2), on constructed region sets: the marked candidates a
reply does not name are said, with why, and a capped list says how many were found."""

from __future__ import annotations

from assistant.pipeline import _clarify_text, _marked_beyond
from assistant.question import analyse_question
from assistant.regions import build_candidates
from assistant.types import Candidates, Region
from models.types import Box, Grounding
from ui.explain import OPTIONS_LABEL, options_label


def coins(n: int, found: int | None = None) -> Candidates:
    regions = [
        Region(id=i + 1, box=Box(40.0 * i, 0, 40.0 * i + 30, 30), description=f"the head number {i + 1}")
        for i in range(n)
    ]
    return Candidates(regions, (640, 480), phrase="head", found=found)


FOCUS = analyse_question("Whose head is on the coin?")


def test_an_enumeration_names_the_other_marked_candidates() -> None:
    four = coins(4)
    meant = four.regions[:3]
    assert _marked_beyond(four, meant) == [
        "Number 4, the head number 4, is also marked; it seems less likely."
    ]
    five = coins(5)
    assert _marked_beyond(five, five.regions[:3]) == [
        "Numbers 4 and 5 are also marked; they seem less likely."
    ]
    assert _marked_beyond(coins(3), coins(3).regions) == []


def test_a_capped_list_says_how_many_were_found() -> None:
    capped = coins(12, found=24)
    text = _clarify_text(FOCUS, capped)
    assert text.startswith(
        "I see 24 heads; the 12 most likely are marked (describe another to find it). Which one do you mean?"
    ), text
    assert text.count("\n") == 12  # the twelve listed, one a line
    four = coins(4, found=30)  # an enumeration of three of a capped list: the others and the cap
    assert _marked_beyond(four, four.regions[:3]) == [
        "Number 4, the head number 4, is also marked; it seems less likely.",
        "30 were found; the 4 most likely are marked (describe another to find it).",
    ]
    assert options_label(capped) == (
        f"{OPTIONS_LABEL} 12 of the 24 found are marked, the most likely, numbered row by row from the top, "
        "each row left to right; describe another to find it"
    )
    assert options_label(coins(4)) == (
        f"{OPTIONS_LABEL} 4 candidates, numbered row by row from the top, each row left to right"
    )
    assert options_label(coins(0)) == OPTIONS_LABEL


def test_build_candidates_keeps_the_count_it_found_before_the_cap() -> None:
    hits = [Grounding("coin", box=Box(30.0 * i, 10, 30.0 * i + 15, 25), score=1 - i / 100) for i in range(20)]
    built = build_candidates(hits, (640, 480), max_regions=12)
    assert len(built.regions) == 12 and built.found == 20 and built.found_count == 20
