"""The papers' metrics against values computed by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assistant.evaluation.metrics import agreement
from assistant.evaluation.papers.aqua.metrics import aqua_strategy_metrics, factual_consistency, pass_rate
from assistant.evaluation.papers.focus_ambiguity.localisation import (
    LocalisationExample,
    localisation_metrics,
    max_iou,
    max_iou_of_union,
    mean_average_precision,
    union_iou,
)
from assistant.evaluation.papers.focus_ambiguity.metrics import recognition_metrics
from assistant.evaluation.papers.racquet.metrics import (
    bias_distribution,
    class_distribution,
    class_distribution_by_model,
    cot_mention_rate,
)
from assistant.evaluation.papers.racquet.saliency import (
    SaliencyItem,
    centre_most_referents,
    describe_mapping,
    largest_referents,
    map_response,
    match_referent,
    mcnemar_test,
    random_pick,
    saliency_analysis,
    saliency_metrics,
    table1_layout,
)
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.types import Strategy, Verdict
from models.types import Box, Grounding

A, U, N = Verdict.AMBIGUOUS, Verdict.UNDECIDED, Verdict.UNAMBIGUOUS

# ------------------------------------------------------------------ recognition (VQ-FocusAmbiguity Table 2)


def test_recognition_worked_example() -> None:
    gold = [True, True, True, False, False]
    pred = [A, U, N, N, A]
    m = recognition_metrics(gold, pred)
    # decided: items 0, 2, 3, 4 (item 1 is undecided)
    # correct among decided: item 0 (A for ambiguous) and item 3 (N for unambiguous) -> 2 / 4
    assert m["accuracy"] == pytest.approx(0.5)
    # over the decided items: gold 1 = items 0, 2; gold 0 = items 3, 4
    # class 1: TP = 1 (item 0); predicted 1 = items 0, 4 -> P = 1/2; R = 1/2 -> F1 = 0.5
    # class 0: TP = 1 (item 3); predicted 0 = items 2, 3 -> P = 1/2; R = 1/2 -> F1 = 0.5
    # weighted by gold support (2 and 2): 0.5
    assert m["weighted_f1"] == pytest.approx(0.5)
    assert m["positive_rate"] == pytest.approx(2 / 4)  # items 0, 4 over the 4 decided
    assert m["undecided_rate"] == pytest.approx(1 / 5)  # over all 5
    counts = (m["n"], m["n_decided"], m["n_undecided"], m["n_positive"], m["n_gold_ambiguous"])
    assert counts == (5, 4, 1, 2, 3)
    # The all-examples reading, for comparison: undecided is a miss.
    assert m["accuracy_all"] == pytest.approx(0.4)  # 2 / 5
    # class 1: P = 1/2, R = 1/3 (items 0-2) -> F1 = (1/3) / (5/6) = 0.4; class 0: P = 1/2, R = 1/2 -> 0.5
    # weighted (3 * 0.4 + 2 * 0.5) / 5 = 0.44
    assert m["weighted_f1_all"] == pytest.approx(0.44)
    assert m["positive_rate_all"] == pytest.approx(2 / 5)
    assert m["negative_rate_all"] == pytest.approx(2 / 5)


def test_recognition_reproduces_a_table2_row() -> None:
    # Molmo 7B FS in Table 2: Pos. 100.0, UR 0.0, Acc. 41.8, F1 24.6. Predicting "ambiguous" for every item,
    # accuracy is the gold ambiguous share p, and weighted F1 = p * 2p / (1 + p) (class 0's F1 is 0):
    # p = 0.418 -> 0.418 * 0.836 / 1.418 = 0.24644 -> 24.6. Our weighted-F1 reading reproduces the row.
    gold = [True] * 418 + [False] * 582
    m = recognition_metrics(gold, [A] * 1000)
    assert round(100 * m["accuracy"], 1) == 41.8
    assert round(100 * m["weighted_f1"], 1) == 24.6
    assert round(100 * m["positive_rate"], 1) == 100.0
    assert m["undecided_rate"] == 0.0


def test_recognition_reproduces_a_table2_row_with_undecided_answers() -> None:
    # Molmo 7B ZS-CoT in Table 2: Acc. 56.9, F1 57.1, Pos. 48.1, UR 6.9 - the row with the most undecided
    # answers. A confusion that gives it, over 1000 questions with 69 undecided (UR 6.9%):
    # of the d = 931 decided, positives 48.1% -> 448; accuracy 56.9% -> 530 correct. With 520 gold
    # unambiguous among the decided: TP + FP = 448, TP + TN = 530, TN + FP = 520 -> FP = 219, TP = 229,
    # TN = 301, FN = 411 - 229 = 182.
    #   F1(1) = 2 * 229 / (2 * 229 + 219 + 182) = 458 / 859 = 0.53318
    #   F1(0) = 2 * 301 / (2 * 301 + 182 + 219) = 602 / 1003 = 0.60020
    #   weighted = (411 * 0.53318 + 520 * 0.60020) / 931 = 0.57061 -> 57.1
    gold = [True] * 229 + [False] * 219 + [True] * 182 + [False] * 301  # predicted A A N N
    pred = [A] * (229 + 219) + [N] * (182 + 301)
    gold += [True] * 35 + [False] * 34  # the 69 undecided
    pred += [U] * 69
    m = recognition_metrics(gold, pred)
    assert round(100 * m["accuracy"], 1) == 56.9
    assert round(100 * m["weighted_f1"], 1) == 57.1
    assert round(100 * m["positive_rate"], 1) == 48.1
    assert round(100 * m["undecided_rate"], 1) == 6.9
    # Counting undecided as wrong over all 1000 could not give this row: accuracy would be 53.0.
    assert round(100 * m["accuracy_all"], 1) == 53.0


def test_recognition_all_one_gold_class() -> None:
    # gold all ambiguous; decided items 0, 1, 3; class 0 has support 0 so weight 0 and F1 = F1 of class 1:
    # TP = 2, predicted 1 = 2 -> P = 1; R = 2/3 -> F1 = 2 * (2/3) / (5/3) = 0.8
    m = recognition_metrics([True] * 4, [A, A, U, N])
    assert m["accuracy"] == pytest.approx(2 / 3)
    assert m["weighted_f1"] == pytest.approx(0.8)
    assert m["accuracy_all"] == pytest.approx(0.5)
    assert m["weighted_f1_all"] == pytest.approx(2 / 3)  # R = 2/4 -> 2 * 0.5 / 1.5


def test_recognition_all_undecided_and_strings() -> None:
    m = recognition_metrics([True, False], ["undecided", "undecided"])
    assert math.isnan(m["accuracy"]) and math.isnan(m["weighted_f1"])  # nothing decided
    assert math.isnan(m["positive_rate"])  # 0 / 0 decided
    assert m["undecided_rate"] == 1.0
    assert m["accuracy_all"] == 0.0 and m["weighted_f1_all"] == 0.0  # recall 0 for both classes


def test_recognition_empty_and_bad_input() -> None:
    m = recognition_metrics([], [])
    assert m["n"] == 0 and math.isnan(m["accuracy"]) and math.isnan(m["weighted_f1"])
    with pytest.raises(ValueError, match="differ in length"):
        recognition_metrics([True], [])
    with pytest.raises(ValueError, match="not a verdict"):
        recognition_metrics([True], ["maybe"])


# ------------------------------------------------------------------ localisation (Table 3)


def _square(y0: int, x0: int, size: int = 10, shape: tuple[int, int] = (40, 40)) -> np.ndarray:
    m = np.zeros(shape, dtype=bool)
    m[y0 : y0 + size, x0 : x0 + size] = True
    return m


def test_perfect_masks_score_one() -> None:
    a, b = _square(0, 0), _square(20, 20)
    examples = [
        LocalisationExample((40, 40), [a, b], [a, b], [0.9, 0.8]),
        LocalisationExample((40, 40), [a], [a], [0.7]),
    ]
    m = localisation_metrics(examples)
    assert m["mAP"] == pytest.approx(1.0)
    assert m["union_iou"] == pytest.approx(1.0)
    # The paper's max IoU is per predicted mask: finding both regions exactly scores 1 in both examples.
    assert m["max_iou"] == pytest.approx(1.0)
    # Our extra reading compares the predicted union with one region: example 1's a U b has IoU 100 / 200
    # with a (and with b), example 2 scores 1 -> (0.5 + 1) / 2.
    assert m["max_iou_of_union"] == pytest.approx(0.75)


def test_false_positive_ranked_above_the_true_positive_halves_ap() -> None:
    gold = _square(0, 0)
    fp = _square(25, 25)  # disjoint from the gold region
    # ranked FP (0.9) then TP (0.8): recall [0, 1], precision [0, 1/2]; the interpolated precision
    # (max precision at recall >= r) is 1/2 at every one of the 101 recall points -> AP 0.5 at every IoU
    # threshold (the TP has IoU 1) -> mAP 0.5
    ex = LocalisationExample((40, 40), [gold], [fp, gold], [0.9, 0.8])
    assert mean_average_precision([ex]) == pytest.approx(0.5)
    # the other order: precision 1 at recall 1 first -> AP 1 (a later FP lowers no interpolated point)
    ex2 = LocalisationExample((40, 40), [gold], [fp, gold], [0.1, 0.8])
    assert mean_average_precision([ex2]) == pytest.approx(1.0)


def test_partial_mask_counts_at_the_thresholds_it_passes() -> None:
    gold = _square(0, 0)  # 100 pixels
    pred = np.zeros((40, 40), dtype=bool)
    pred[0:8, 0:9] = True  # 72 pixels inside the gold square -> IoU = 72 / 100 = 0.72
    ex = LocalisationExample((40, 40), [gold], [pred], [1.0])
    # IoU 0.72 passes thresholds 0.50, 0.55, 0.60, 0.65, 0.70 (5 of 10): AP 1 there, 0 above -> mAP 0.5
    assert mean_average_precision([ex]) == pytest.approx(0.5)
    assert union_iou([pred], [gold], (40, 40)) == pytest.approx(0.72)
    assert max_iou([pred], [gold], (40, 40)) == pytest.approx(0.72)


def test_one_of_two_regions_found() -> None:
    a, b = _square(0, 0), _square(20, 20)  # two disjoint 100-pixel regions
    ex = LocalisationExample((40, 40), [a, b], [a], [1.0])
    # recall reaches 1/2 with precision 1: interpolated precision 1 at the 51 recall points 0.00..0.50 and
    # 0 at the 50 above -> AP = 51 / 101 at every IoU threshold
    assert mean_average_precision([ex]) == pytest.approx(51 / 101)
    assert union_iou([a], [a, b], (40, 40)) == pytest.approx(100 / 200)  # |a| / |a U b|
    assert max_iou([a], [a, b], (40, 40)) == pytest.approx(1.0)  # a matches region a exactly


def test_max_iou_of_the_union_versus_per_prediction() -> None:
    a, b = _square(0, 0), _square(20, 20)
    half_a = np.zeros((40, 40), dtype=bool)
    half_a[0:5, 0:10] = True  # 50 pixels of a
    preds = [half_a, b]
    # union of predictions = half_a + b (150 px): IoU with b = 100 / 150, with a = 50 / (150 + 50) = 0.25
    assert max_iou_of_union(preds, [a, b], (40, 40)) == pytest.approx(100 / 150)
    # the paper's: the best single pair, b with b -> 1
    assert max_iou(preds, [a, b], (40, 40)) == pytest.approx(1.0)
    assert max_iou([half_a], [a, b], (40, 40)) == pytest.approx(0.5)  # 50 / 100


def test_no_predicted_masks() -> None:
    gold = _square(0, 0)
    ex = LocalisationExample((40, 40), [gold], [])
    m = localisation_metrics([ex])
    assert m["mAP"] == 0.0 and m["union_iou"] == 0.0 and m["max_iou"] == 0.0
    assert m["n_no_prediction"] == 1


def test_empty_gold() -> None:
    nothing = LocalisationExample((40, 40), [], [])
    assert union_iou([], [], (40, 40)) == 1.0  # nothing to find, nothing claimed
    assert max_iou([], [], (40, 40)) == 1.0
    assert math.isnan(mean_average_precision([nothing]))  # AP is undefined without a positive
    # an all-False gold mask is no region; a prediction against it is wrong
    claimed = LocalisationExample((40, 40), [np.zeros((40, 40), bool)], [_square(0, 0)], [0.9])
    assert union_iou(claimed.pred_masks, claimed.gold_masks, (40, 40)) == 0.0
    assert localisation_metrics([nothing, claimed])["n_empty_gold"] == 2
    # a false positive on an image without gold still counts: it outranks example 1's TP -> AP 0.5
    gold = _square(0, 0)
    found = LocalisationExample((40, 40), [gold], [gold], [0.8])
    assert mean_average_precision([found, claimed]) == pytest.approx(0.5)


def test_localisation_input_checks() -> None:
    with pytest.raises(ValueError, match="shape"):
        LocalisationExample((40, 40), [np.zeros((10, 10), bool)])
    with pytest.raises(ValueError, match="scores"):
        LocalisationExample((40, 40), [], [_square(0, 0)], [0.5, 0.4])
    assert localisation_metrics([])["n"] == 0


# ------------------------------------------------------------------ saliency (RAcQUEt Table 1)

# a 100 x 100 image: box 0 is the largest (40 x 40), box 1 sits on the centre, boxes 2 and 3 are neither
BOXES = [Box(0, 0, 40, 40), Box(45, 45, 55, 55), Box(60, 60, 90, 90), Box(0, 70, 20, 90)]
BOXES_LISTS = [b.as_list() for b in BOXES]  # as a dataset line gives them: [x0, y0, x1, y1]
SIZE = (100, 100)


def test_largest_and_centre_most() -> None:
    assert largest_referents(BOXES) == {0}  # areas 1600, 100, 900, 400
    assert centre_most_referents(BOXES, SIZE) == {1}  # box 1's centre is (50, 50)
    tied = [Box(0, 0, 10, 10), Box(90, 90, 100, 100)]  # same area, same distance to the centre
    assert largest_referents(tied) == {0, 1} and centre_most_referents(tied, SIZE) == {0, 1}


def test_match_referent() -> None:
    assert match_referent(Box(60, 60, 90, 90), BOXES) == 2  # IoU 1 with box 2
    assert match_referent(Box(62, 62, 92, 92), BOXES) == 2  # overlaps box 2 only
    assert match_referent(Box(95, 0, 100, 5), BOXES) is None  # overlaps nothing
    # IoU with box 2 here: intersection 28 x 28 = 784, union 900 + 900 - 784 = 1016 -> 0.772
    assert match_referent(Box(62, 62, 92, 92), BOXES, min_iou=0.8) is None
    mask = np.zeros((100, 100), dtype=bool)
    mask[45:55, 45:55] = True  # exactly box 1's pixels
    assert match_referent(mask, BOXES) == 1
    assert match_referent(None, BOXES) is None


def test_saliency_rates_and_table() -> None:
    # 10 responses on the same 4 referents: 8 describe box 0 (largest: a hit), 2 describe box 2 (a miss)
    items = [SaliencyItem(BOXES, SIZE, 0)] * 8 + [SaliencyItem(BOXES, SIZE, 2)] * 2
    items.append(SaliencyItem(BOXES, SIZE, None))  # not mapped to any box: left out, counted
    r = saliency_analysis(items, seed=3)
    assert r["n"] == 10 and r["n_unmatched"] == 1
    assert r["model_rate"] == pytest.approx(0.8)
    # p_i = |{0} U {1}| / 4 = 0.5 for every item -> random baseline 0.5
    assert r["random_rate"] == pytest.approx(0.5)
    (a, b), (c, d) = r["table"]
    assert a + b == 8 and c + d == 2  # rows: model hit / miss
    assert a + c == round(r["random_draw_rate"] * 10)  # columns: simulated random hit / miss
    assert r["exact"] is True  # b + c < 25
    assert r["pvalue"] == pytest.approx(mcnemar_test(r["table"])[1])
    assert saliency_analysis(items, seed=3)["table"] == r["table"]  # seeded: reproducible


def test_saliency_significant_when_model_always_picks_the_largest() -> None:
    items = [SaliencyItem(BOXES, SIZE, 0)] * 200  # p = 0.5, the model always hits
    r = saliency_analysis(items, seed=0)
    assert r["model_rate"] == 1.0 and r["table"][1] == [0, 0]
    assert r["pvalue"] < 0.001 and r["exact"] is False  # ~100 discordant pairs -> chi-square


def test_mcnemar_by_hand() -> None:
    # exact: b = 5, c = 1 -> two-sided binomial(6, 1/2): 2 * P(X <= 1) = 2 * (1 + 6) / 64 = 0.21875
    stat, p, exact = mcnemar_test([[10, 5], [1, 4]])
    assert exact and stat == 1.0 and p == pytest.approx(0.21875)
    # chi-square with continuity correction: (|30 - 10| - 1)^2 / 40 = 9.025; p = erfc(sqrt(9.025 / 2))
    stat, p, exact = mcnemar_test([[0, 30], [10, 0]])
    assert not exact and stat == pytest.approx(9.025)
    assert p == pytest.approx(math.erfc(math.sqrt(9.025 / 2)))
    stat, p, _ = mcnemar_test([[3, 0], [0, 3]])  # no discordant pair: no evidence at all
    assert p == 1.0


def test_saliency_empty() -> None:
    r = saliency_analysis([])
    assert r["n"] == 0 and math.isnan(r["model_rate"])
    with pytest.raises(ValueError):
        SaliencyItem([], SIZE, None)
    with pytest.raises(ValueError):
        SaliencyItem(BOXES, SIZE, 7)


def test_random_pick_depends_on_seed_and_key_only() -> None:
    keys = [f"racquet-general/all/{i}" for i in range(300)]
    draws = [random_pick(7, k, 4) for k in keys]
    assert draws == [random_pick(7, k, 4) for k in keys]  # the same seed: the same draws, every run
    assert set(draws) == {0, 1, 2, 3}  # uniform over the referents: all of them come up
    assert max(draws.count(v) for v in range(4)) < 110  # ~75 each
    assert draws != [random_pick(8, k, 4) for k in keys]  # another seed: other draws
    # a draw does not depend on the other items: the table is the same in any order, and two models
    # answering the same examples meet the same simulated picks (the same random column a + c)
    items = [SaliencyItem(BOXES, SIZE, i % 4, key=k) for i, k in enumerate(keys[:40])]
    forward, backward = saliency_analysis(items, seed=7), saliency_analysis(items[::-1], seed=7)
    assert forward["table"] == backward["table"]
    other_model = [SaliencyItem(BOXES, SIZE, 0, key=k) for k in keys[:40]]
    (a, _), (c, _) = saliency_analysis(other_model, seed=7)["table"]
    (a2, _), (c2, _) = forward["table"]
    assert a + c == a2 + c2 == sum(random_pick(7, k, 4) in {0, 1} for k in keys[:40])


def test_map_response_takes_the_best_hit_and_the_iou_argmax() -> None:
    near_2 = Grounding("a cup", box=Box(62, 62, 92, 92), score=0.5)
    on_0 = Grounding("a cup", box=Box(0, 0, 40, 40), score=0.9)
    found = map_response([near_2, on_0], [b.as_list() for b in BOXES], SIZE)
    # the higher score wins: box 0, the largest referent (IoU 1 with it, 0 with the rest)
    assert (found["chosen"], found["hit"], found["ious"]) == (0, True, [1.0, 0.0, 0.0, 0.0])
    assert (found["largest"], found["centre_most"], found["box"]) == ([0], [1], [0.0, 0.0, 40.0, 40.0])
    # equal scores: the pointer's first hit; IoU with box 2 is 784 / 1016 (test_match_referent)
    tie = map_response([near_2, Grounding("b", box=Box(0, 0, 40, 40), score=0.5)], BOXES_LISTS, SIZE)
    assert (tie["chosen"], tie["hit"], tie["ious"][2]) == (2, False, pytest.approx(784 / 1016, abs=1e-4))
    # a point (Molmo): the smallest referent box containing it
    nested = [[0, 0, 100, 100], [40, 40, 60, 60], [80, 80, 95, 95]]
    assert map_response([Grounding("p", point=(50, 50))], nested, SIZE)["chosen"] == 1
    assert map_response([Grounding("p", point=(5, 5))], nested, SIZE)["chosen"] == 0
    # hits in a downscaled working image (half size) are compared in the file's pixels
    half = map_response([Grounding("c", box=Box(30, 30, 45, 45))], BOXES_LISTS, SIZE, scale=0.5)
    assert (half["box"], half["chosen"], half["hit"]) == ([60.0, 60.0, 90.0, 90.0], 2, False)
    # nothing found, or nothing it overlaps: unmapped, with the reason
    assert map_response([], BOXES_LISTS, SIZE)["unmapped"] == "no pointer hit"
    far = map_response([Grounding("c", box=Box(95, 0, 100, 5))], BOXES_LISTS, SIZE)
    assert far["chosen"] is None and far["unmapped"] == "no referent under the pointer's hit"
    assert map_response([Grounding("p", point=(97, 2))], BOXES_LISTS, SIZE)["chosen"] is None
    assert describe_mapping(found) == "pointer box [0.0, 0.0, 40.0, 40.0] -> referent 1 (largest)"
    assert describe_mapping(far) == "not mapped: no referent under the pointer's hit"


def _saliency_record(i: int, label: str, found: dict | None) -> ResponseRecord:
    return ResponseRecord(
        "m",
        "direct",
        str(i),
        "racquet-general",
        "all",
        gold={"referents": BOXES_LISTS},
        response="...",
        judgement={"racquet_class": label},
        parts={} if found is None else {"saliency": found},
    )


def test_saliency_metrics_from_run_records_by_hand() -> None:
    chosen = {"image_size": [100, 100]}
    records = [
        _saliency_record(0, "C", {**chosen, "chosen": 0}),  # largest: hit
        _saliency_record(1, "B", {**chosen, "chosen": 2}),  # neither: miss
        _saliency_record(2, "B", {**chosen, "chosen": 1}),  # centre-most: hit
        _saliency_record(3, "A", None),  # explicit: not part of Table 1
        _saliency_record(4, "C", {"chosen": None, "unmapped": "no pointer hit"}),
        _saliency_record(5, "C", {"chosen": None, "unmapped": "pointer error", "error": "timeout"}),
        _saliency_record(6, "unknown", None),
    ]
    m = saliency_metrics(records, seed=11)
    assert (m["n_responses"], m["n_single"], m["n"], m["n_unmatched"]) == (7, 5, 3, 2)
    assert m["classes"] == {"A": 1, "B": 2, "C": 3, "unknown": 1}
    assert m["unmapped"] == {"no pointer hit": 1, "pointer error": 1}
    assert m["model_rate"] == pytest.approx(2 / 3)
    assert m["random_rate"] == pytest.approx(0.5)  # |{0} U {1}| / 4 on every item
    # the table, by hand from the three seeded picks: rows model hit / miss, columns random hit / miss
    model = [True, False, True]
    rand = [random_pick(11, f"racquet-general/all/{i}", 4) in {0, 1} for i in range(3)]

    def cell(model_hit: bool, random_hit: bool) -> int:
        return sum(1 for x, y in zip(model, rand, strict=True) if (x, y) == (model_hit, random_hit))

    assert m["table"] == [[cell(True, True), cell(True, False)], [cell(False, True), cell(False, False)]]
    b, c = m["table"][0][1], m["table"][1][0]
    # exact two-sided binomial on the b + c discordant pairs: min(1, 2 * P(X <= min(b, c)))
    n = b + c
    p = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2**n)
    assert m["exact"] is True and m["pvalue"] == pytest.approx(p)
    assert saliency_metrics(records, seed=11) == m  # deterministic given the seed


def test_table1_layout_columns_are_models() -> None:
    def result(model: str, m: dict) -> ResultRow:
        return ResultRow(model, "direct", "Direct", int(m["n"]) + 1, 1, 0, m)

    full = {
        "n": 120,
        "model_rate": 0.775,
        "random_rate": 0.445,
        "pvalue": 1e-6,
        "table": [[50, 43], [4, 23]],
        "n_unmatched": 3,
        "unmapped": {"no pointer hit": 2, "pointer error": 1},
        "n_single": 123,
        "n_responses": 130,
        "classes": {"A": 7, "B": 60, "C": 63},
    }
    empty = {"n": 0, "model_rate": float("nan"), "random_rate": float("nan"), "pvalue": float("nan")}
    summary = RunSummary([result("gpt", full), result("tiny", empty)], {}, seed=4, pointer="blobs")
    title, header, rows, notes = table1_layout(summary)
    assert title.startswith("RAcQUEt Table 1") and header == ["", "gpt", "tiny"]
    assert rows[0] == ["Responses (% of mapped B/C)", "77.5", "-"]
    assert rows[1] == ["Random (%)", "44.5", "-"]
    assert rows[2] == ["McNemar p", "< 0.001", "-"]
    assert rows[5] == ["B/C responses not mapped", "3 (no pointer hit: 2, pointer error: 1)", "0"]
    assert rows[6] == ["B/C of judged responses (classes)", "123 / 130 (A: 7, B: 60, C: 63)", "0 / 0"]
    assert "--seed (4)" in notes[2] and "pointer `blobs`" in notes[0]


# ------------------------------------------------------------------ RAcQUEt distributions


def test_class_distribution_worked_example() -> None:
    d = class_distribution(["A", "A", "B", "C", "unknown"])
    assert (d["A"], d["B"], d["C"], d["unknown"]) == (0.4, 0.2, 0.2, 0.2)
    assert d["n"] == 5 and d["n_unknown"] == 1 and d["counts"]["A"] == 2


def test_class_distribution_reproduces_appendix_e() -> None:
    # Appendix E: 10 samples for each of the 500 questions = 5000 GPT-4o responses; Table 2 there gives
    # A 48.8, B 29.5, C 21.7 -> 2440, 1475 and 1085 responses (sum 5000)
    d = class_distribution(["A"] * 2440 + ["B"] * 1475 + ["C"] * 1085)
    assert [round(100 * d[c], 1) for c in "ABC"] == [48.8, 29.5, 21.7]
    # Section 4.2: 4 people x 25 questions = 100 human responses, 91% explicit
    assert class_distribution(["A"] * 91 + ["B"] * 5 + ["C"] * 4)["A"] == 0.91


def test_class_distribution_by_model_and_bad_label() -> None:
    d = class_distribution_by_model([("gpt", "A"), ("molmo", "C"), ("gpt", "B")])
    assert list(d) == ["gpt", "molmo"] and d["gpt"]["A"] == 0.5 and d["molmo"]["C"] == 1.0
    with pytest.raises(ValueError, match="unexpected labels"):
        class_distribution(["A", "D"])
    assert class_distribution([])["n"] == 0


def test_cot_mention_rate() -> None:
    # Section 4.3: 69% of GPT-4o's CoT responses on the 500 questions mention several referents
    r = cot_mention_rate(["YES"] * 345 + ["NO"] * 150 + ["unknown"] * 5)
    assert r["rate"] == pytest.approx(0.69) and r["n_unknown"] == 5


def test_bias_distribution() -> None:
    records = [
        ("gender", "explicit"),
        ("gender", "stereotypical"),
        ("gender", "stereotypical"),
        ("gender", "anti-stereotypical"),
        ("ethnicity", "stereotypical"),
        ("ethnicity", "unknown"),
    ]
    d = bias_distribution(records)
    assert d["gender"]["explicit"] == 0.25 and d["gender"]["stereotypical"] == 0.5
    assert d["gender"]["anti-stereotypical"] == 0.25
    assert d["ethnicity"]["stereotypical"] == 0.5 and d["ethnicity"]["n_unknown"] == 1
    assert d["all"]["n"] == 6 and d["all"]["stereotypical"] == pytest.approx(3 / 6)
    # Section 5: GPT-4o explicit on "all but one" of 45 images -> 44 / 45
    d = bias_distribution([("all-images", "explicit")] * 44 + [("all-images", "stereotypical")])
    assert round(100 * d["all-images"]["explicit"], 1) == 97.8


# ------------------------------------------------------------------ AQuA


def test_aqua_strategy_worked_example() -> None:
    gold = [0, 0, 1, 1, 2, 2, 3, 3]
    pred = [0, "answer", Strategy.INFER, 0, "enumerate", None, "clarify", 2]
    m = aqua_strategy_metrics(gold, pred)
    # right: items 0, 1 (level 0), 2 (level 1), 4 (level 2), 6 (level 3) -> 5 / 8; item 5 is unknown
    assert m["overall"] == pytest.approx(5 / 8)
    assert m["per_level"] == {0: 1.0, 1: 0.5, 2: 0.5, 3: 0.5}
    assert m["n_unknown"] == 1 and m["unknown_per_level"] == {0: 0, 1: 0, 2: 1, 3: 0}
    assert m["confusion"] == [[2, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]


def test_aqua_confusion_keeps_four_by_four() -> None:
    m = aqua_strategy_metrics([3, 3], ["unknown", "unknown"])
    assert m["confusion"] == [[0] * 4] * 4 and m["overall"] == 0.0 and m["unknown_rate"] == 1.0
    assert math.isnan(m["per_level"][0])  # no level-0 item
    with pytest.raises(ValueError, match="0-3"):
        aqua_strategy_metrics([4], [0])


def test_pass_rate_and_factual_consistency() -> None:
    r = pass_rate(["PASS", "PASS", "FAIL", "unknown"])
    assert r["rate"] == 0.5 and r["n_unknown"] == 1
    f = factual_consistency(["grounded", "grounded", "grounded", "ungrounded"])
    assert f["rate"] == 0.75 and f["ungrounded"] == 0.25


def test_a_share_nothing_rated_shows_as_a_dash_not_zero() -> None:
    from assistant.evaluation.table_format import rated_pct

    # Every factual-consistency judgement unknown (e.g. a judge that cannot see images): no "0.0" grounded.
    f = factual_consistency(["unknown"] * 4)
    assert f["unknown"] == 1.0 and f["n_unknown"] == 4
    assert rated_pct(f, "rate") == "-" and rated_pct(f, "grounded") == "-"
    assert rated_pct(class_distribution(["unknown"]), "A") == "-" and rated_pct(None, "A") == "-"
    assert rated_pct(class_distribution([]), "A") == "-"
    assert rated_pct(pass_rate(["FAIL", "unknown"]), "rate") == "0.0"  # something rated: a real 0
    assert rated_pct(class_distribution(["A", "B", "unknown", "B"]), "B") == "50.0"


# ------------------------------------------------------------------ judge agreement


def test_agreement_by_hand() -> None:
    gold = ["A", "A", "B", "B", "C", "C"]
    pred = ["A", "A", "B", "C", "C", "unknown"]
    r = agreement(gold, pred, ["A", "B", "C"])
    assert r["accuracy"] == pytest.approx(4 / 6) and r["unknown"] == 1
    # categories A, B, C, unknown: p_o = 4/6; gold margins 2, 2, 2, 0; judged 2, 1, 2, 1
    # p_e = (2*2 + 2*1 + 2*2 + 0*1) / 36 = 10/36; kappa = (24/36 - 10/36) / (1 - 10/36) = 14/26 = 7/13
    assert r["kappa"] == pytest.approx(7 / 13)
    # decided items only: p_o = 4/5, margins gold 2, 2, 1 and judged 2, 1, 2 -> p_e = 8/25 -> 12/17
    assert r["kappa_decided"] == pytest.approx(12 / 17)
    assert r["confusion"] == [[2, 0, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    assert r["labels"] == ["A", "B", "C", "unknown"]


def test_agreement_edge_cases() -> None:
    r = agreement(["A", "A"], ["A", "A"], ["A", "B", "C"])
    assert r["accuracy"] == 1.0 and math.isnan(r["kappa"])  # one category only: kappa is 0/0
    assert agreement(["A", "B"], ["B", "A"], ["A", "B"])["kappa"] == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="gold labels"):
        agreement(["unknown"], ["A"], ["A", "B"])
    assert agreement([], [], ["A"])["n"] == 0


# --- ClearVQA's own metrics (papers/clearvqa/vqa_accuracy.py), hand-computed -----------------------------


def test_vqa_normalisation_as_the_vqa_evaluation() -> None:
    from assistant.evaluation.papers.clearvqa.vqa_accuracy import normalise_answer

    assert normalise_answer("Two dogs.") == "2 dogs"
    assert normalise_answer("  The Red ") == "red"
    assert normalise_answer("1,000") == "1000" and normalise_answer("3.5") == "3.5"
    assert normalise_answer("yes!") == "yes"


def test_vqa_accuracy_and_exact_match() -> None:
    from assistant.evaluation.papers.clearvqa.vqa_accuracy import answer_metrics, score_answer

    # theirs compares the normalised prediction with the crowd answers as written: only "red" matches
    mixed = score_answer("red", ["red", "Red.", "dark red", "the red"])
    assert mixed.vqa_accuracy == pytest.approx(1 / 3) and mixed.exact_match
    assert mixed.vqa_accuracy_both_normalised == 1.0  # ours, the extra column: 3 match
    one = score_answer("red", ["red", "maroon", "maroon"])
    assert one.vqa_accuracy == pytest.approx(1 / 3) and one.exact_match
    assert score_answer("It is red.", ["red"] * 10).vqa_accuracy == 0.0  # a sentence is not the answer
    m = answer_metrics(["two", None, "blue"], [["2", "2", "2"], ["red"], []])
    # item 1: 1.0 and a match; item 2: no reply, 0; item 3 has no crowd answers: 0, as the authors'
    # compute_vqa_score (num_match 0 over an empty list) and compute_exact_match ("blue" in []) count it
    assert m == {
        "n": 3,
        "n_empty_crowd": 1,
        "vqa_accuracy": pytest.approx(1 / 3),
        "exact_match": pytest.approx(1 / 3),
        "vqa_accuracy_both_normalised": pytest.approx(1 / 3),
    }


# (prediction, crowd answers, VQA accuracy, exact match) as ClearVQA's own eval/metrics.py computes them
# (compute_vqa_score and compute_exact_match run on each case, jian0805/ClearVQA at 5c40d92): their
# punctuation and period rules, the contraction table, and the crowd answers compared as written.
AUTHORS_CASES = [
    ("2.", ["2", "2", "2"], 1.0, 1),
    ("2", ["2.", "2", "two"], 0.3333, 1),
    ("Two", ["2", "2", "2", "3"], 1.0, 1),
    ("dont know", ["don't know", "don't know", "don't know"], 1.0, 1),
    ("don't know", ["dont know", "dont know", "dont know"], 0.0, 1),
    ("Yes", ["yes", "Yes", "yes"], 0.6667, 1),
    ("yes", ["Yes", "Yes", "yes"], 0.3333, 1),
    ("The red one.", ["red one", "red", "red one", "red one"], 0.0, 1),
    ("a dog", ["dog", "dog", "dogs"], 0.6667, 1),
    ("1,000", ["1000", "1000", "1000"], 1.0, 1),
    ("3.5", ["3.5", "3.5", "3.5"], 1.0, 1),
    ("red, white", ["red white", "red white", "red and white"], 0.6667, 1),
    ("red,white", ["red white", "red white", "red white"], 1.0, 1),
    ("left-hand side", ["left hand side", "left hand side", "left hand side"], 1.0, 1),
    ("left - hand", ["left hand", "left  hand", "lefthand"], 0.3333, 1),
    ("none", ["0", "0", "none"], 0.6667, 1),
    ("Ten", ["10", "10", "10", "10"], 1.0, 1),
    ("it's", ["its", "it's", "it's"], 0.6667, 1),
    ("  Yes\n", ["yes", "yes", "yes"], 1.0, 1),
    ("yes\tno", ["yes no", "yes no", "yes no"], 1.0, 1),
    ("e.g. apple", ["eg apple", "eg apple", "eg apple"], 1.0, 1),
    ("youre right", ["you're right", "you're right", "you're right"], 1.0, 1),
    ("couldnt've", ["couldn't've", "couldn't've", "couldn't've"], 1.0, 1),
    ("St. Louis", ["st louis", "st louis", "st louis"], 1.0, 1),
    ("Mr. Smith's hat", ["mr smith's hat", "mr smith's hat", "mr smith's hat"], 1.0, 1),
    ("(blue)", ["blue", "blue", "blue"], 1.0, 1),
    ("blue (navy)", ["blue navy", "blue navy", "blue navy"], 1.0, 1),
    ("50%", ["50%", "50%", "50%"], 1.0, 1),
    ("", ["", "", ""], 1.0, 1),
    ("wasn't", ["wasnt", "wasnt", "wasnt"], 0.0, 1),
    ("somebody'd", ["somebodyd", "somebodyd", "somebodyd"], 1.0, 1),
    ("twas", ["'twas", "'twas", "'twas"], 1.0, 1),
    ("y'allll", ["y'all'll", "y'all'll", "y'all'll"], 1.0, 1),
    ("Im here", ["i'm here", "im here", "Im here"], 0.3333, 1),
    ("..........................................x", ["x", "x", "x"], 0.0, 0),
    (
        "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.",
        [
            "abcdefghijklmnopqrstuvwxyzabcdefgh",
            "abcdefghijklmnopqrstuvwxyzabcdefgh",
            "abcdefghijklmnopqrstuvwxyzabcdefgh",
        ],
        0.0,
        0,
    ),
]


@pytest.mark.parametrize(("prediction", "answers", "vqa", "exact"), AUTHORS_CASES)
def test_clearvqa_scores_equal_the_authors_function(
    prediction: str, answers: list[str], vqa: float, exact: int
) -> None:
    from assistant.evaluation.papers.clearvqa.vqa_accuracy import score_answer

    score = score_answer(prediction, answers)
    assert score.vqa_accuracy == pytest.approx(vqa, abs=1e-4) and score.exact_match == bool(exact)
