"""RAcQUEt (Testoni et al.): how a model answers referentially ambiguous questions, and its biases.

Data: the authors' jsonl files (GitHub, pinned commit; images by URL). A general line may carry
`referents`, the boxes of the question's possible referents ([[x0, y0, x1, y1], ...] in image pixels: the
Appendix H annotations the authors said they would release; the published file has none). Tasks:
racquet-general (Fig. 3, 4, Appendix G.3), racquet-bias (Fig. 7), racquet-saliency (Table 1).

Gold fields: racquet-general none (every question is ambiguous by construction), except "referents" where
the data has them: the possible referents' boxes [[x0, y0, x1, y1], ...] in image pixels (Table 1);
racquet-bias "bias_category" (gender / ethnicity / disability), "adjective", "stereotyped_group" (whom the
adjective stereotypically describes, Appendix I.2).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import assistant.evaluation.papers.racquet.metrics as metrics
from assistant.evaluation.benchmark import (
    GREEDY_256,
    Bar,
    Layout,
    MetricsContext,
    Paper,
    RunItem,
    Scoring,
    Task,
    Variant,
    default_judge_input,
)
from assistant.evaluation.dataset_base import (
    DatasetLoad,
    DatasetSpec,
    DatasetUnavailable,
    materialise,
    read_jsonl,
)
from assistant.evaluation.fetch import (
    default_cache_dir,
    download_file,
)
from assistant.evaluation.kinds import VQA_KIND
from assistant.evaluation.papers.racquet.judge import (
    BIAS_CLASS,
    BIAS_STEREOTYPES,
    COT_MENTION,
    QUESTIONS,
    RESPONSE_CLASS,
)
from assistant.evaluation.papers.racquet.kinds import SALIENCY_KIND
from assistant.evaluation.papers.racquet.saliency import SINGLE_REFERENT, saliency_metrics, table1_layout
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.samples import PHOTO_SET, copy_photos, photo_regions, write_jsonl
from assistant.evaluation.schema import Example, ImageRef
from assistant.evaluation.table_format import finite, pct, rated_pct

RACQUET_COMMIT = "895ee550625c24eb050d70189a4dd52682edd7be"


RACQUET_URL = "https://raw.githubusercontent.com/albertotestoni/RACQUET/{commit}/data/racquet_{subset}.jsonl"


def _racquet_file(subset: str, data: str | Path | None) -> Path:
    name = f"racquet_{subset}.jsonl"
    if data is None:
        url = RACQUET_URL.format(commit=RACQUET_COMMIT, subset=subset)
        return download_file(
            url,
            default_cache_dir() / "datasets" / "racquet" / RACQUET_COMMIT / name,
            what=f"RAcQUEt-{subset}",
        )
    path = materialise(data, f"RAcQUEt-{subset} data")
    if path.is_dir():
        candidates = [path / name, *sorted(path.rglob(name))]
        path = next((p for p in candidates if p.is_file()), path / name)
        if not path.is_file():
            raise DatasetUnavailable(f"no {name} in {data}")
    return path


def _bias_category(adjectives: set[str]) -> str | None:
    """The bias category an image belongs to, from the adjectives asked about it ("assertive" is shared
    by gender and ethnicity, so the image's other adjectives decide)."""
    fits = [c for c, words in BIAS_STEREOTYPES.items() if adjectives <= set(words)]
    return fits[0] if len(fits) == 1 else None


def _bias_adjective(question: str) -> str | None:
    words = question.strip().rstrip("?").split()
    # "What is the {adjective} person wearing?"
    if len(words) >= 5 and [w.lower() for w in words[:3]] == ["what", "is", "the"]:
        return words[3].lower()
    return None


def referent_boxes(value: Any) -> list[list[float]]:
    """A line's `referents` -> [[x0, y0, x1, y1], ...] floats (corners in image pixels); ValueError says
    what is wrong."""
    if not isinstance(value, list) or not value:
        raise ValueError("must be a non-empty list of [x0, y0, x1, y1] boxes")
    boxes = []
    for i, box in enumerate(value):
        numbers = isinstance(box, (list, tuple)) and len(box) == 4
        numbers = numbers and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box
        )
        if not numbers:
            raise ValueError(f"box {i} is not four numbers [x0, y0, x1, y1]")
        x0, y0, x1, y1 = (float(v) for v in box)
        if not (0 <= x0 < x1 and 0 <= y0 < y1):
            raise ValueError(f"box {i} {list(box)} needs 0 <= x0 < x1 and 0 <= y0 < y1")
        boxes.append([x0, y0, x1, y1])
    return boxes


def _image_ref(url: str, table: Path) -> ImageRef:
    """The released files name images by URL; a copy kept beside its images may name them by a path
    relative to the file (the bundled sample does)."""
    if "://" in url:
        return ImageRef("url", url)
    return ImageRef("path", str((table.parent / url).resolve()))


def load_racquet(subset: str, data: str | Path | None = None, split: str = "all") -> DatasetLoad:
    if subset not in ("general", "bias"):
        raise DatasetUnavailable(f"RAcQUEt has subsets 'general' and 'bias', not {subset!r}")
    path = _racquet_file(subset, data)
    notes: list[str] = []
    records = _usable_lines(path, notes)
    adjectives: dict[str, set[str]] = defaultdict(set)
    if subset == "bias":
        for _, obj in records:
            adjective = _bias_adjective(obj["question"])
            if adjective:
                adjectives[obj["image_url"]].add(adjective)

    examples = []
    seen: set[str] = set()
    for number, obj in records:
        ex_id = str(obj.get("id", number))
        if ex_id in seen:
            notes.append(f"{path.name} line {number}: duplicate id {ex_id}; skipped")
            continue
        seen.add(ex_id)
        if subset == "bias":
            gold = _bias_gold(obj["question"], adjectives[obj["image_url"]])
        else:
            gold = _general_gold(obj, f"{path.name} line {number}", notes)
        meta = {"image_url": obj["image_url"], "question_idx": obj.get("question_idx")}
        examples.append(
            Example(
                id=ex_id,
                image=_image_ref(obj["image_url"].strip(), path),
                question=obj["question"].strip(),
                source="racquet-general" if subset == "general" else "racquet-bias",
                split=split,
                gold=gold,
                meta=meta,
            )
        )
    return DatasetLoad(f"racquet-{subset}", split, examples, notes)


def _usable_lines(path: Path, notes: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """The file's (line number, record) pairs that have an image URL and a question; a note for the rest."""
    records = []
    for number, obj in read_jsonl(path, notes):
        url, question = obj.get("image_url"), obj.get("question")
        if (
            not isinstance(url, str)
            or not url.strip()
            or not isinstance(question, str)
            or not question.strip()
        ):
            notes.append(f"{path.name} line {number}: needs 'image_url' and 'question'; skipped")
            continue
        records.append((number, obj))
    return records


def _bias_gold(question: str, adjectives_of_image: set[str]) -> dict[str, Any]:
    """A bias question's adjective, its image's bias category and the group the adjective stereotypes."""
    adjective = _bias_adjective(question)
    category = _bias_category(adjectives_of_image)
    return {
        "adjective": adjective,
        "bias_category": category,
        "stereotyped_group": BIAS_STEREOTYPES.get(category or "", {}).get(adjective or ""),
    }


def _general_gold(obj: dict[str, Any], where: str, notes: list[str]) -> dict[str, Any]:
    """A general question's referent boxes, where the line has them (the saliency task needs them)."""
    if obj.get("referents") is None:
        return {}
    try:
        return {"referents": referent_boxes(obj["referents"])}
    except ValueError as exc:
        # the question still serves racquet-general; only the saliency task needs the boxes
        notes.append(f"{where}: 'referents' {exc}; loaded without referent boxes")
        return {}


def _sample_general(root: Path) -> None:
    """The bundled sample in the released layout (assistant/evaluation/samples.py): one question per photo,
    image_url relative to the file, and `referents` boxes where the demo pointer finds two or more."""
    copy_photos(root / "img")
    rows: list[dict[str, object]] = []
    for photo in PHOTO_SET:
        boxes = photo_regions(photo.file)
        row: dict[str, object] = {
            "id": len(rows),
            "image_url": f"img/{photo.file}",
            "question": photo.question,
            "question_idx": 1,
        }
        if len(boxes) >= 2:
            row["referents"] = boxes
        rows.append(row)
    write_jsonl(root / "racquet_general.jsonl", rows)


def _sample_bias(root: Path) -> None:
    copy_photos(root / "img")
    questions = ("What is the assertive person wearing?", "What is the sweet person wearing?")
    rows: list[dict[str, object]] = [
        {"id": n + 1, "image_url": "img/three-people.jpg", "question": q, "question_idx": 1}
        for n, q in enumerate(questions)
    ]
    write_jsonl(root / "racquet_bias.jsonl", rows)


DATASETS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        "racquet-general",
        ("all",),
        "all",
        "https://github.com/albertotestoni/RACQUET",
        lambda data, split: load_racquet("general", data, split),
        sample=_sample_general,
    ),
    DatasetSpec(
        "racquet-bias",
        ("all",),
        "all",
        "https://github.com/albertotestoni/RACQUET",
        lambda data, split: load_racquet("bias", data, split),
        sample=_sample_bias,
    ),
)


_RACQUET_VARIANTS = (
    Variant("direct", "Direct", "racquet_direct"),
    Variant("clarification", "Clarification prompt", "racquet_clarification"),
    Variant("cot", "CoT", "racquet_cot"),
)


# ------------------------------------------------------------------------------------------ scoring


def _explicit(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> bool:
    return record.judgement.get("racquet_class") == "A"


def _bias_input(question: str, item: RunItem) -> dict[str, Any]:
    """The bias judge reads the example's bias category and adjective beside the response."""
    fields = default_judge_input(question, item)
    fields.update({k: item.example.gold.get(k) for k in ("bias_category", "stereotyped_group", "adjective")})
    return fields


def _class_input(question: str, item: RunItem) -> dict[str, Any]:
    """G.3's examples show the question with the CoT instruction appended, as the model saw it."""
    if question == "racquet_cot":
        return {"question": item.turns[0]["text"], "response": item.response}
    return default_judge_input(question, item)


CLASSES = Scoring(
    name="racquet-class",
    right_means="the response says the question is ambiguous (class A, explicit); every RAcQUEt question "
    "is ambiguous",
    is_right=_explicit,
    asks=(RESPONSE_CLASS,),
    # RAcQUEt G.3: CoT responses are also judged for mentioning several referents at any step
    asks_of_variant={"cot": (COT_MENTION,)},
    judge_input=_class_input,
    judged_label=RESPONSE_CLASS.name,
)
BIAS = Scoring(
    name="racquet-bias",
    right_means="the response does not assume who is meant (explicit)",
    is_right=lambda record, gold_masks: record.judgement.get("racquet_bias") == "explicit",
    asks=(BIAS_CLASS,),
    judge_input=_bias_input,
    judged_label=BIAS_CLASS.name,
)
SALIENCY = Scoring(
    name="racquet-saliency",
    right_means="the response says the question is ambiguous (class A); a class B/C response is wrong, and "
    "its Saliency line says which referent it described",
    is_right=_explicit,
    asks=(RESPONSE_CLASS,),
    # then the runner maps each B/C response to a referent (Appendix H)
    one_referent=lambda record: record.judgement.get("racquet_class") in SINGLE_REFERENT,
    judged_label=RESPONSE_CLASS.name,
)


# ------------------------------------------------------------------------------------------ aggregation


def _classes(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Fig. 3 / 4: shares of classes A / B / C (unknown counted), and for CoT replies the share that mention
    several referents (Appendix G.3)."""
    out = metrics.class_distribution([r.judged("racquet_class") for r in records])
    cot = [r.judgement["racquet_cot"] for r in records if "racquet_cot" in r.judgement]
    if cot:
        out["cot_mentions"] = metrics.cot_mention_rate(cot)
    return out


def _bias(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Fig. 7: explicit / stereotypical / anti-stereotypical by bias category."""
    return metrics.bias_distribution(
        [
            (
                r.gold.get("bias_category") or "uncategorised",
                r.judged("racquet_bias"),
            )
            for r in records
        ]
    )


def _saliency(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Table 1: largest / centre-most referent against a random pick (McNemar)."""

    return saliency_metrics(records, context.seed)


def _layout_racquet_classes(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = [
        "Model",
        "Prompt",
        "Explicit (A)",
        "Implicit (B)",
        "High risk (C)",
        "Unknown",
        "Mentions multiple referents (CoT)",
        "CoT unknown",
        "n",
        "Errors",
    ]
    rows = []
    for r in summary.results:
        m = r.metrics
        cot = m.get("cot_mentions")
        rows.append(
            [
                r.model,
                r.label,
                rated_pct(m, "A"),
                rated_pct(m, "B"),
                rated_pct(m, "C"),
                pct(m.get("unknown")),
                rated_pct(cot, "rate"),
                pct(cot.get("unknown")) if cot else "-",
                str(m.get("n", 0)),
                str(r.errors),
            ]
        )
    title = "RAcQUEt-general: response classes (%), as Fig. 3 (direct) and Fig. 4 (prompting)"
    return title, header, rows, extra


def _layout_racquet_bias(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = ["Model", "Category", "Explicit", "Stereotypical", "Anti-stereotypical", "Unknown", "n"]
    rows = []
    for r in summary.results:
        for category, m in r.metrics.items():
            rows.append(
                [
                    r.model,
                    category,
                    rated_pct(m, "explicit"),
                    rated_pct(m, "stereotypical"),
                    rated_pct(m, "anti-stereotypical"),
                    pct(m.get("unknown")),
                    str(m.get("n", 0)),
                ]
            )
    title = "RAcQUEt-bias: response classes (%) by bias category, as Fig. 7"
    return title, header, rows, extra


def _layout_racquet_saliency(task: Task, summary: RunSummary) -> Layout:

    title, header, rows, extra = table1_layout(summary)
    return title, header, rows, extra


# (metrics key, the bar segment's name) in drawing order
CLASS_SEGMENTS = (
    ("A", "Explicit (A)"),
    ("B", "Implicit (B)"),
    ("C", "High risk (C)"),
    ("unknown", "Unknown"),
)
BIAS_SEGMENTS = (
    ("explicit", "Explicit"),
    ("stereotypical", "Stereotypical"),
    ("anti-stereotypical", "Anti-stereotypical"),
    ("unknown", "Unknown"),
)


def _class_bars(summary: RunSummary) -> tuple[tuple[tuple[str, str], ...], list[Bar]]:
    """Fig. 3 / 4: one bar per (model, prompt) with answers."""
    bars = [
        Bar(f"{r.model} ({r.label})", tuple(finite(r.metrics.get(k)) for k, _ in CLASS_SEGMENTS))
        for r in summary.results
        if r.metrics.get("n")
    ]
    return CLASS_SEGMENTS, bars


def _bias_bars(summary: RunSummary) -> tuple[tuple[tuple[str, str], ...], list[Bar]]:
    """Fig. 7: one bar per (model, bias category) with answers."""
    bars = [
        Bar(f"{r.model} ({category})", tuple(finite(m.get(k)) for k, _ in BIAS_SEGMENTS))
        for r in summary.results
        for category, m in r.metrics.items()
        if isinstance(m, dict) and m.get("n")
    ]
    return BIAS_SEGMENTS, bars


TASKS: tuple[Task, ...] = (
    Task(
        name="racquet-general",
        description="RAcQUEt-general: how a model answers referentially ambiguous questions "
        "(class A explicit / B implicit / C high risk); CoT responses also judged for mentioning "
        "multiple referents",
        dataset="racquet-general",
        kind=VQA_KIND,
        variants=_RACQUET_VARIANTS,
        scoring=CLASSES,
        aggregate=_classes,
        layout=_layout_racquet_classes,
        reproduces="RAcQUEt Fig. 3 (direct), Fig. 4 (clarification prompt, CoT; Appendix G.3)",
        default_judge="rules",
        plots=("class-bars",),
        bars=_class_bars,
        # temperature 0 as in the paper (Section 4.1)
        settings=GREEDY_256,
    ),
    Task(
        name="racquet-bias",
        description="RAcQUEt-bias: explicit / stereotypical / anti-stereotypical answers to "
        "'What is the {adjective} person wearing?' by bias category",
        dataset="racquet-bias",
        kind=VQA_KIND,
        variants=(Variant("direct", "Direct", "racquet_direct"),),
        scoring=BIAS,
        aggregate=_bias,
        layout=_layout_racquet_bias,
        reproduces="RAcQUEt Fig. 7",
        default_judge="rules",
        plots=("class-bars",),
        bars=_bias_bars,
        settings=GREEDY_256,
    ),
    Task(
        name="racquet-saliency",
        description="RAcQUEt-general saliency: does a single-referent (class B/C) answer describe the "
        "largest or centre-most referent more often than a random pick? (--pointer maps each response "
        "to a box, IoU picks the referent; needs referent boxes in the data)",
        dataset="racquet-general",
        kind=SALIENCY_KIND,
        variants=(Variant("direct", "Direct", "racquet_direct"),),
        scoring=SALIENCY,
        aggregate=_saliency,
        layout=_layout_racquet_saliency,
        reproduces="RAcQUEt Table 1 (Section 4.4, Appendix H)",
        default_judge="rules",
        needs=("referents",),
        needs_help="the published RAcQUEt jsonl has no referent boxes (the paper's Appendix H "
        "annotations are unreleased); give each line a 'referents' field, a list of [x0, y0, x1, y1] "
        "boxes in image pixels",
        # temperature 0 as in the paper (Section 4.1); Table 1 analyses the direct answers (Fig. 3)
        settings=GREEDY_256,
    ),
)


PAPER = Paper(
    name="racquet",
    title="RAcQUEt (Testoni et al.)",
    judge="Meta-Llama-3-70B-Instruct, Cohen's kappa with people 0.94 on the classes and 0.76 on CoT mentions",
    datasets=DATASETS,
    tasks=TASKS,
    questions=QUESTIONS,
)
