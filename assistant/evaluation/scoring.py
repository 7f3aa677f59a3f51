"""From a task's raw outputs to judgements (per item) and to the papers' numbers (per model and prompt).

`judge_records` fills each record's "judgement" with the labels the task's judging needs (through the
judges of assistant.evaluation.judges, or the verdict parser for recognition); `summarise` groups the
records by (model, variant) and calls the metric functions of assistant.evaluation.metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image

from assistant.errors import WhichoneError
from assistant.evaluation import masks as mask_codec
from assistant.evaluation import metrics
from assistant.evaluation.tasks import Task, Variant
from models.base import GenerationSettings

# which judging tasks (assistant.evaluation.judgement.TASK_LABELS) each task's judgement uses
JUDGING = {
    "racquet-class": ("racquet_class",),
    "racquet-bias": ("racquet_bias",),
    "aqua-strategy": ("aqua_strategy", "aqua_factual"),
    "pipeline-strategy": ("aqua_factual",),
    "pass": ("aqua_clarification",),
    "verdict": (),
    "masks": (),
}


class ScoringError(WhichoneError):
    """The judge cannot be built (unknown name, unavailable model)."""


# ------------------------------------------------------------------------------------------ builders


def make_judge(
    name: str | None, task: Task, vlm_factory: Callable[[str, str], Any], max_new_tokens: int | None = None
) -> Any | None:
    """`none` -> None, `rules` -> RuleJudge, any other name -> an LLM judge on that VLM (cached)."""
    if not JUDGING[task.judgement]:
        return None  # recognition parses verdicts, localisation compares masks: no judge
    if name in (None, "", "none"):
        if task.judgement == "pipeline-strategy":
            return None  # the pipeline states its own strategy; a judge would only add factual consistency
        raise ScoringError(f"task {task.name} needs a judge: --judge rules or --judge MODEL")
    from assistant.evaluation import judges

    if name == "rules":
        return judges.RuleJudge()
    settings = (
        None if max_new_tokens is None else GenerationSettings(max_new_tokens=max_new_tokens, temperature=0.0)
    )
    return judges.LLMJudge(vlm_factory(name, "judge:"), settings)


def make_assistant(vlm: Any, pointer: Any, max_new_tokens: int | None = None) -> Any:
    """whichone's own pipeline around `vlm` and `pointer` (both already cached), without a segmenter
    (AQuA's saliency is scored on boxes, so masks would not change its strategy). `max_new_tokens`
    overrides the pipeline's reply lengths (recognition and answers) as --max-new-tokens does a task's."""
    from dataclasses import replace

    from assistant.grounding import Grounder
    from assistant.pipeline import Assistant, AssistantConfig

    config = AssistantConfig()
    if max_new_tokens is not None:
        config = replace(
            config,
            answer_settings=replace(config.answer_settings, max_new_tokens=max_new_tokens),
            recognition_settings=replace(config.recognition_settings, max_new_tokens=max_new_tokens),
        )
    return Assistant(vlm, Grounder(pointer, None), config)


def focus_phrase(question: str) -> str:
    """What whichone points at for a question ("red cup"), as its pipeline does."""
    from assistant.pipeline import grounding_phrase
    from assistant.question import analyse_question

    return grounding_phrase(analyse_question(question))


def localise(grounder: Any, image: Image.Image, phrase: str) -> dict[str, Any]:
    """whichone's grounding stage on one image (VQ-FocusAmbiguity's Molmo+SAM when the grounder holds a
    Molmo pointer and SAM): one region per plausible focus, its mask (the box filled, without a
    segmenter) as RLE in the image's pixels, and the region's score for mAP's ranking."""
    candidates = grounder.candidates(image, phrase)
    width, height = image.size
    rles, scores = [], []
    for region in candidates.regions:
        mask = region.mask
        if mask is None:
            mask = np.zeros((height, width), dtype=bool)
            b = region.box
            mask[int(b.y0) : int(np.ceil(b.y1)), int(b.x0) : int(np.ceil(b.x1))] = True
        rles.append(mask_codec.encode_mask(mask))
        scores.append(float(region.score))
    return {"phrase": phrase, "masks": rles, "scores": scores, "notes": list(candidates.notes)}


# ------------------------------------------------------------------------------------------ judging


def record_of(item: Any) -> dict[str, Any]:
    """The per-example line of responses.jsonl (without its judgement yet)."""
    ex = item.example
    record = {
        "model": item.model,
        "variant": item.variant.name,
        "id": ex.id,
        "source": ex.source,
        "split": ex.split,
        "image": ex.image.describe(),
        "question": ex.question,
        "gold": ex.gold_for_report(),
        "turns": item.turns,
        "response": item.response,
        "error": item.error,
        "judgement": {},
    }
    if "pipeline" in item.extra:
        record["pipeline"] = item.extra["pipeline"]
    if "localisation" in item.extra:
        record["localisation"] = item.extra["localisation"]
    return record


def _judge_fields(task: Task, judging: str, item: Any) -> dict[str, Any]:
    """The fields a judge reads for this item (see assistant.evaluation.judgement)."""
    ex = item.example
    if judging == "racquet_cot":
        # G.3's examples show the question with the CoT instruction appended, as the model saw it
        return {"question": item.turns[0]["text"], "response": item.response}
    fields: dict[str, Any] = {"question": ex.question, "response": item.response}
    if judging == "racquet_bias":
        fields.update({k: ex.gold.get(k) for k in ("bias_category", "stereotyped_group", "adjective")})
    if judging == "aqua_clarification":
        fields["hint"] = ex.gold.get("hint")
        fields["reference"] = ex.gold.get("clarified_answer") or ex.gold.get("answer")
    return fields


def judge_records(
    task: Task,
    items: Sequence[Any],
    judge: Any | None,
    images: Any,
    batch_size: int = 8,
    notes: list[str] | None = None,
) -> list[dict[str, Any]]:
    """One record per item with its judgement; judges see items in batches (an LLM judge batches them,
    and each batch's judge calls are cached before the next starts)."""
    from assistant.evaluation.judgement import JudgeError

    records = [record_of(it) for it in items]
    ok = [i for i, it in enumerate(items) if it.error is None and it.response is not None]
    for i in ok:
        records[i]["judgement"].update(_direct_judgement(task, items[i]))
    if judge is None:
        return records
    plan = [(judging, ok) for judging in JUDGING[task.judgement]]
    if task.judgement == "racquet-class":
        # RAcQUEt G.3: CoT responses are also judged for mentioning several referents at any step
        plan.append(("racquet_cot", [i for i in ok if items[i].variant.name == "cot"]))
    for judging, targets in plan:
        for start in range(0, len(targets), batch_size):
            chunk = targets[start : start + batch_size]
            fields = [_judge_fields(task, judging, items[i]) for i in chunk]
            try:
                if judging == "aqua_factual":
                    for f, i in zip(fields, chunk, strict=True):
                        f["image"] = images.get(items[i].example)
                verdicts = judge.judge_many(judging, fields)
            except JudgeError as exc:
                if judging == "aqua_factual":  # e.g. the rule judge cannot see images: no factual column
                    if notes is not None:
                        notes.append(f"factual consistency not judged: {exc}")
                    break
                for i in chunk:
                    records[i]["judgement"][f"{judging}_error"] = str(exc)
                continue
            except WhichoneError as exc:  # an image that cannot be had for the factual check
                for i in chunk:
                    records[i]["judgement"][f"{judging}_error"] = str(exc)
                continue
            finally:
                if judging == "aqua_factual":
                    images.forget([items[i].example for i in chunk])
            for i, verdict in zip(chunk, verdicts, strict=True):
                records[i]["judgement"][judging] = verdict.label
                if verdict.reason:
                    records[i]["judgement"][f"{judging}_reason"] = verdict.reason
    return records


def _direct_judgement(task: Task, item: Any) -> dict[str, Any]:
    """Judgements that need no judge: the parsed verdict, the pipeline's own strategy."""
    if task.judgement == "verdict":
        from assistant.verdict import parse_verdict

        return {"verdict": parse_verdict(item.response).value}
    if task.judgement == "pipeline-strategy":
        return {"aqua_strategy": item.extra["pipeline"]["strategy"]}
    if task.judgement == "masks":
        return {"n_predicted": len(item.extra["localisation"]["masks"])}
    return {}


# ------------------------------------------------------------------------------------------ metrics


def _group_metrics(task: Task, records: list[dict[str, Any]]) -> dict[str, Any]:
    kind = task.metrics
    if kind == "racquet-classes":
        out = metrics.class_distribution(
            [r["judgement"].get("racquet_class", metrics.UNKNOWN) for r in records]
        )
        cot = [r["judgement"]["racquet_cot"] for r in records if "racquet_cot" in r["judgement"]]
        if cot:
            out["cot_mentions"] = metrics.cot_mention_rate(cot)
        return out
    if kind == "racquet-bias":
        return metrics.bias_distribution(
            [
                (
                    r["gold"].get("bias_category") or "uncategorised",
                    r["judgement"].get("racquet_bias", metrics.UNKNOWN),
                )
                for r in records
            ]
        )
    if kind == "recognition":
        gold = [bool(r["gold"]["ambiguous"]) for r in records]
        verdicts = [r["judgement"]["verdict"] for r in records]
        out = metrics.recognition_metrics(gold, verdicts)
        columns = ["ambiguous", "unambiguous", "undecided"]
        out["confusion"] = [
            [sum(1 for g, v in zip(gold, verdicts, strict=True) if g == row and v == col) for col in columns]
            for row in (True, False)
        ]
        out["confusion_rows"], out["confusion_columns"] = ["ambiguous", "unambiguous"], columns
        return out
    if kind == "aqua-strategy":
        gold = [int(r["gold"]["level"]) for r in records]
        predicted = [r["judgement"].get("aqua_strategy", metrics.UNKNOWN) for r in records]
        out = metrics.aqua_strategy_metrics(gold, predicted)
        factual = [r["judgement"]["aqua_factual"] for r in records if "aqua_factual" in r["judgement"]]
        if factual:
            out["factual"] = metrics.factual_consistency(factual)
        return out
    if kind == "pass-rate":
        return metrics.pass_rate([r["judgement"].get("aqua_clarification", metrics.UNKNOWN) for r in records])
    raise ScoringError(f"no metrics named {kind!r}")  # pragma: no cover - tasks.py names known ones


def summarise(
    task: Task,
    records: list[dict[str, Any]],
    models: Sequence[str],
    variants: Sequence[Variant],
    gold_masks: dict[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """{"results": [{"model", "variant", "label", "n", "errors", "metrics"}...]} in model, variant order."""
    results = []
    for model in models:
        for variant in variants:
            group = [r for r in records if r["model"] == model and r["variant"] == variant.name]
            done = [r for r in group if r["error"] is None]
            if task.metrics == "localisation":
                m = metrics.localisation_metrics([_localised(r, (gold_masks or {})) for r in done])
            else:
                m = _group_metrics(task, done)
            results.append(
                {
                    "model": model,
                    "variant": variant.name,
                    "label": variant.label,
                    "n": len(group),
                    "errors": len(group) - len(done),
                    "metrics": m,
                }
            )
    return {"results": results}


def _localised(
    record: dict[str, Any], gold_masks: dict[str, list[dict[str, Any]]]
) -> metrics.LocalisationExample:
    key = f"{record['source']}/{record['split']}/{record['id']}"
    gold = mask_codec.decode(gold_masks[key])
    h, w = record["gold"]["image_size"]
    pred = record["localisation"]
    predicted = [_resize_mask(m, h, w) for m in mask_codec.decode(pred["masks"])]
    return metrics.LocalisationExample((h, w), list(gold), predicted, pred["scores"])


def _resize_mask(mask: np.ndarray, height: int, width: int) -> np.ndarray:
    """A predicted mask in the working image's pixels (downscaled when the photo was large) -> gold's."""
    if mask.shape == (height, width):
        return mask
    resized = Image.fromarray(mask.astype(np.uint8) * 255).resize((width, height), Image.Resampling.NEAREST)
    return np.asarray(resized) > 127
