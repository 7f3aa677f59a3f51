"""The strategy policy on constructed candidate sets: all four levels, and what resolves ambiguity."""

from __future__ import annotations

import pytest

from assistant.policy import PolicyConfig, strategy_for
from assistant.regions import SaliencyConfig, build_candidates
from assistant.types import Candidates, Level, QuestionFocus, Strategy, Verdict
from models.types import Box, Grounding

W, H = 640, 480


def focus(
    head: str = "cup",
    *,
    plural: bool = False,
    pronoun: str | None = None,
    descriptors: tuple[str, ...] = (),
    spatial: tuple[str, ...] = (),
    non_visual: tuple[str, ...] = (),
) -> QuestionFocus:
    return QuestionFocus(
        question="q",
        focus=f"the {head}",
        head=head,
        number="plural" if plural else "singular",
        pronoun=pronoun is not None,
        pronoun_word=pronoun,
        descriptors=descriptors + spatial + non_visual,
        non_visual_descriptors=non_visual,
        spatial_descriptors=spatial,
    )


def boxes_to_candidates(boxes: list[tuple[float, float, float, float]], label: str = "cup") -> Candidates:
    hits = [Grounding(label=label, box=Box(*b), score=1.0 - i * 0.01) for i, b in enumerate(boxes)]
    return build_candidates(hits, (W, H), phrase=label)


def row_of(n: int, size: float = 80.0, y: float = 200.0) -> list[tuple[float, float, float, float]]:
    """n equal boxes in a row across the middle of the image."""
    step = W / n
    return [(i * step + (step - size) / 2, y, i * step + (step + size) / 2, y + size) for i in range(n)]


def test_one_region_plain_question_answers() -> None:
    d = strategy_for(focus(), Verdict.UNAMBIGUOUS, boxes_to_candidates([(250, 180, 390, 300)]))
    assert (d.level, d.strategy, d.referents) == (Level.UNAMBIGUOUS, Strategy.ANSWER, (1,))
    assert "one clear cup" in d.explanation


def test_one_salient_region_with_pronoun_infers() -> None:
    # One big central object and two small ones in the corners: only the big one is salient.
    cands = boxes_to_candidates([(200, 140, 440, 340), (5, 5, 45, 45), (590, 430, 635, 475)], label="object")
    assert [r.salient for r in cands.regions].count(True) == 1
    d = strategy_for(focus("object", pronoun="this"), Verdict.UNAMBIGUOUS, cands)
    big = max(cands.regions, key=lambda r: r.box.area)
    assert (d.level, d.strategy, d.referents) == (Level.SALIENT, Strategy.INFER, (big.id,))
    assert '"this" is vague' in d.explanation and f"number {big.id}" in d.explanation


def test_one_region_but_ambiguous_verdict_infers() -> None:
    d = strategy_for(focus(), Verdict.AMBIGUOUS, boxes_to_candidates([(250, 180, 390, 300)]))
    assert d.strategy is Strategy.INFER and d.level is Level.SALIENT


@pytest.mark.parametrize("n", [2, 3])
def test_two_or_three_salient_enumerate(n: int) -> None:
    d = strategy_for(focus(), Verdict.AMBIGUOUS, boxes_to_candidates(row_of(n)))
    assert (d.level, d.strategy) == (Level.FEW, Strategy.ENUMERATE)
    assert d.referents == tuple(range(1, n + 1))
    assert d.explanation.startswith({2: "Two", 3: "Three"}[n] + " cups")


@pytest.mark.parametrize("n", [4, 5, 9])
def test_four_or_more_salient_clarify(n: int) -> None:
    d = strategy_for(focus(), Verdict.UNAMBIGUOUS, boxes_to_candidates(row_of(n, size=50)))
    assert (d.level, d.strategy) == (Level.MANY, Strategy.CLARIFY)
    assert len(d.referents) == n


def test_enumerate_max_is_configurable() -> None:
    cands = boxes_to_candidates(row_of(4, size=50))
    d = strategy_for(focus(), Verdict.AMBIGUOUS, cands, PolicyConfig(enumerate_max=4))
    assert d.strategy is Strategy.ENUMERATE


def test_plural_question_resolves_ambiguity() -> None:
    d = strategy_for(focus(plural=True), Verdict.AMBIGUOUS, boxes_to_candidates(row_of(5)))
    assert (d.level, d.strategy) == (Level.UNAMBIGUOUS, Strategy.ANSWER)
    assert "cups in general" in d.explanation
    off = strategy_for(
        focus(plural=True),
        Verdict.AMBIGUOUS,
        boxes_to_candidates(row_of(5)),
        PolicyConfig(plural_resolves=False),
    )
    assert off.strategy is Strategy.CLARIFY


def test_spatial_descriptor_picks_one() -> None:
    cands = boxes_to_candidates(row_of(3))
    d = strategy_for(focus(spatial=("on the left",)), Verdict.AMBIGUOUS, cands)
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (1,))
    assert '"on the left" picks out one cup (number 1)' in d.explanation
    d = strategy_for(focus(spatial=("on the right",)), Verdict.AMBIGUOUS, cands)
    assert d.referents == (3,)


def test_non_visual_descriptor_never_picks_a_person() -> None:
    people = boxes_to_candidates(row_of(3, size=120), label="person")
    d = strategy_for(focus("person", non_visual=("emotional",)), Verdict.UNAMBIGUOUS, people)
    assert d.strategy is Strategy.ENUMERATE and len(d.referents) == 3
    assert '"emotional" is not something a photo shows' in d.explanation


def test_no_candidates() -> None:
    empty = Candidates([], (W, H), "cup")
    d = strategy_for(focus(), Verdict.UNAMBIGUOUS, empty)
    assert (d.strategy, d.referents) == (Strategy.ANSWER, ())
    assert "could not locate a cup" in d.explanation
    d = strategy_for(focus(), Verdict.AMBIGUOUS, empty)
    assert d.strategy is Strategy.CLARIFY
    d = strategy_for(focus(), Verdict.AMBIGUOUS, empty, PolicyConfig(clarify_without_candidates=False))
    assert d.strategy is Strategy.ANSWER


def test_trusting_an_unambiguous_verdict_answers_the_most_salient() -> None:
    cands = boxes_to_candidates([(40, 200, 160, 320), (260, 150, 390, 290)])
    assert len(cands.salient) == 2
    d = strategy_for(focus(), Verdict.UNAMBIGUOUS, cands, PolicyConfig(trust_unambiguous_verdict=True))
    central = max(cands.regions, key=lambda r: r.saliency)
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (central.id,))
    assert strategy_for(focus(), Verdict.UNAMBIGUOUS, cands).strategy is Strategy.ENUMERATE


def test_small_background_objects_do_not_count() -> None:
    # Three large cups and six tiny ones at the edges: 3 salient -> enumerate, not clarify.
    big = row_of(3, size=150, y=160)
    tiny = [(x, 5, x + 12, 17) for x in (5, 100, 200, 300, 400, 600)]
    cands = boxes_to_candidates(big + tiny)
    assert len(cands) == 9 and len(cands.salient) == 3
    d = strategy_for(focus(), Verdict.AMBIGUOUS, cands)
    assert d.strategy is Strategy.ENUMERATE and len(d.referents) == 3


def test_none_salient_falls_back_to_the_most_salient() -> None:
    # With the raw image-area ratio nothing small passes 0.6; the best one stands for the referent.
    hits = [Grounding("cup", box=Box(300, 220, 340, 260)), Grounding("cup", box=Box(0, 0, 30, 30))]
    cands = build_candidates(hits, (W, H), config=SaliencyConfig(area_norm="image"))
    assert not cands.salient
    d = strategy_for(focus(), Verdict.UNAMBIGUOUS, cands)
    central = max(cands.regions, key=lambda r: r.saliency)
    assert d.referents == (central.id,) and d.strategy is Strategy.ANSWER


# --- locating descriptors from real questions (analyse_question -> policy) -----------------------------

GRID = [(60, 60, 160, 160), (480, 60, 580, 160), (60, 320, 160, 420), (480, 320, 580, 420)]  # 2 x 2


def decide(question: str, boxes: list[tuple[float, float, float, float]], label: str = "cup"):
    from assistant.question import analyse_question

    return strategy_for(analyse_question(question), Verdict.AMBIGUOUS, boxes_to_candidates(boxes, label))


def test_ordinal_with_a_side_picks_that_one() -> None:
    d = decide("What colour is the second car from the left?", row_of(4, size=50), "car")
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (2,))
    assert d.explanation.startswith('"second from the left" picks out one car (number 2)')
    d = decide("What colour is the first car from the right?", row_of(4, size=50), "car")
    assert d.referents == (4,)


def test_a_bare_ordinal_counts_from_the_left() -> None:
    d = decide("What is in the third cup?", row_of(5, size=50))
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (3,))
    assert '"third from the left"' in d.explanation


def test_size_superlative_picks_the_one_that_is_clearly_largest() -> None:
    boxes = [(40, 200, 120, 280), (280, 150, 420, 330), (520, 200, 600, 280)]
    d = decide("How tall is the tallest building?", boxes, "building")
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (2,))


def test_size_superlative_among_equal_ones_does_not_guess() -> None:
    d = decide("What colour is the largest cup?", row_of(3))
    assert d.strategy is Strategy.ENUMERATE and d.referents == (1, 2, 3)


def test_side_that_fits_two_narrows_to_those_two() -> None:
    d = decide("What colour is the cup on the left?", GRID)
    # numbered row by row: 1 and 2 the top row, 3 and 4 the bottom one; the left column is 1 and 3
    assert (d.level, d.strategy, d.referents) == (Level.FEW, Strategy.ENUMERATE, (1, 3))
    assert d.explanation == '"on the left" fits two cups (numbers 1 and 3), so I answer for each.'
    d = decide("What colour is the cup at the top left?", GRID)
    assert (d.strategy, d.referents) == (Strategy.ANSWER, (1,))


def test_side_that_fits_many_asks_among_them() -> None:
    column = [(40, 20 + i * 90, 100, 80 + i * 90) for i in range(5)] + [(540, 200, 600, 260)]
    d = decide("What colour is the cup on the left?", column)
    assert (d.level, d.strategy) == (Level.MANY, Strategy.CLARIFY)
    assert len(d.referents) == 5 and "fits five cups" in d.explanation


def test_descriptors_naming_another_object_or_a_quality_do_not_pick() -> None:
    d = decide("What colour is the cup next to the plate?", row_of(3))
    assert d.strategy is Strategy.ENUMERATE
    d = decide("What is the happiest person wearing?", row_of(2), "person")
    assert d.strategy is Strategy.ENUMERATE
    d = decide("What is the most heroic person wearing?", row_of(2), "person")
    assert d.strategy is Strategy.ENUMERATE and d.referents == (1, 2)


def test_level_one_explanation_names_the_verdict_when_no_pronoun() -> None:
    d = strategy_for(focus(), Verdict.AMBIGUOUS, boxes_to_candidates([(250, 180, 390, 300)]))
    assert d.explanation.startswith("The model judged the question ambiguous, but only one cup stands out")
