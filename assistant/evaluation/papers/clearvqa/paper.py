"""ClearVQA (Jian et al., ACL 2025): ambiguous (blurred) questions with their clear versions and crowd
answers; run with AQuA Table 4's two-turn protocol, scored by AQuA's PASS rule and by ClearVQA's own
metrics.

Data: Hugging Face `jian0418/ClearVQA` (`{split}_annotated.jsonl` + `images.zip`), or a local folder.

Gold fields: "answer" (gold answer), "answers" (crowd answers), "clear_question", "clarification_question",
"ambiguity_category", "hint" (the clear question, which is what a user's clarification amounts to).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import assistant.evaluation.papers.aqua.metrics as metrics
from assistant.evaluation.benchmark import (
    Layout,
    MetricsContext,
    Paper,
    Task,
    Variant,
)
from assistant.evaluation.dataset_base import (
    DatasetLoad,
    DatasetSpec,
    DatasetUnavailable,
    materialise,
    plain_value,
    read_jsonl,
)
from assistant.evaluation.fetch import (
    default_cache_dir,
    extract_zip,
    offline,
)
from assistant.evaluation.kinds import TwoTurn
from assistant.evaluation.papers.aqua.paper import PASS_AFTER_HINT
from assistant.evaluation.papers.clearvqa.vqa_accuracy import answer_metrics
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.samples import PHOTO_SET, copy_photos, write_jsonl
from assistant.evaluation.schema import Example, ImageRef
from assistant.evaluation.table_format import pct
from models.base import GenerationSettings
from models.errors import first_line

CLEARVQA_HUB_ID = "jian0418/ClearVQA"
# lmms-eval's VQAv2 post-prompt: VQA accuracy compares the reply with short crowd answers as written, so a
# sentence ("The umbrella is red.") scores 0 where "red" scores 1
SHORT_ANSWER = "Answer the question using a single word or phrase."


def _clearvqa_paths(data: str | Path | None, split: str) -> tuple[Path, Path]:
    name = f"{split}_annotated.jsonl"
    if data is None:
        if offline():
            raise DatasetUnavailable(
                f"ClearVQA comes from Hugging Face {CLEARVQA_HUB_ID} and WHICHONE_OFFLINE "
                "is set; pass --data PATH to a local copy"
            )
        try:
            from huggingface_hub import hf_hub_download
        except ImportError as exc:  # pragma: no cover - a dependency of `datasets`
            raise DatasetUnavailable("huggingface_hub is needed to download ClearVQA") from exc
        cache = default_cache_dir() / "hf"
        try:
            table = Path(hf_hub_download(CLEARVQA_HUB_ID, name, repo_type="dataset", cache_dir=str(cache)))
            archive = Path(
                hf_hub_download(CLEARVQA_HUB_ID, "images.zip", repo_type="dataset", cache_dir=str(cache))
            )
        except Exception as exc:  # offline, gated, not found: huggingface_hub has many error types
            raise DatasetUnavailable(
                f"could not download ClearVQA ({name}) from Hugging Face {CLEARVQA_HUB_ID}: "
                f"{first_line(exc)}; pass --data PATH to a local copy"
            ) from exc
        images = extract_zip(archive, default_cache_dir() / "datasets" / "clearvqa" / "images")
        return table, images
    root = materialise(data, "ClearVQA data")
    if root.is_file():
        return root, root.parent
    found = next((p for p in [root / name, *sorted(root.rglob(name))] if p.is_file()), None)
    if found is None:
        raise DatasetUnavailable(f"no {name} in {root}")
    zipped = root / "images.zip"
    if not any(root.glob("images")) and zipped.is_file():
        extract_zip(zipped, root)
    return found, found.parent


def load_clearvqa(data: str | Path | None = None, split: str = "val") -> DatasetLoad:
    table, images_root = _clearvqa_paths(data, split)
    notes: list[str] = []
    examples = []
    for number, rec in read_jsonl(table, notes):
        ambiguous = rec.get("blurred_question")
        image = rec.get("image")
        if not isinstance(ambiguous, str) or not ambiguous.strip() or not isinstance(image, str) or not image:
            notes.append(f"{table.name} line {number}: needs 'blurred_question' and 'image'; skipped")
            continue
        path = next((p for p in (images_root / "images" / image, images_root / image) if p.is_file()), None)
        if path is None:
            notes.append(f"{table.name} line {number}: image {image} not found; skipped")
            continue
        answers = rec.get("answers")
        if isinstance(answers, str):
            try:
                answers = json.loads(answers)
            except json.JSONDecodeError:
                answers = [answers]
        gold: dict[str, Any] = {
            "answer": rec.get("gold_answer"),
            "answers": [str(a) for a in answers] if isinstance(answers, list) else [],
            "clear_question": rec.get("question"),
            "clarification_question": rec.get("clarification_question"),
            "ambiguity_category": rec.get("ambiguity_category"),
            "hint": rec.get("question"),
        }
        gold = {k: v for k, v in gold.items() if v not in (None, "", [])}
        meta = {
            k: plain_value(rec.get(k)) for k in ("question_id", "image", "dataset", "prompt_type", "caption")
        }
        meta = {k: v for k, v in meta.items() if v is not None}
        ex_id = str(rec.get("question_id", number))
        examples.append(
            Example(ex_id, ImageRef("path", str(path)), ambiguous.strip(), "clearvqa", split, gold, meta)
        )
    return DatasetLoad("clearvqa", split, examples, notes)


# the bundled sample's ClearVQA columns, by photo (assistant/evaluation/samples.py): the clear question and
# the crowd's answers, for the photos whose question is ambiguous
_SAMPLE_COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "rocket.jpg": ("What colour is the rocket?", ("white", "white", "white")),
    "three-coins.jpg": ("Whose head is on the coin in the middle?", ("king", "king", "emperor")),
    "coins.jpg": ("Whose head is on the coin at the top left?", ("king", "king", "a king")),
    "three-people.jpg": (
        "What is the woman on the left wearing?",
        ("flight suit", "orange flight suit", "flight suit"),
    ),
}


def _sample(root: Path) -> None:
    """The bundled sample in the release's layout (assistant/evaluation/samples.py): {split}_annotated.jsonl
    and images/, for the photos whose question is ambiguous."""
    copy_photos(root / "images")
    rows: list[dict[str, object]] = []
    for n, photo in enumerate(PHOTO_SET):
        if photo.file not in _SAMPLE_COLUMNS:
            continue
        clear_question, crowd = _SAMPLE_COLUMNS[photo.file]
        rows.append(
            {
                "question_id": f"sample_{n}",
                "image": photo.file,
                "question": clear_question,
                "blurred_question": photo.question,
                "clarification_question": "Which one do you mean?",
                "gold_answer": crowd[0],
                "answers": list(crowd),
                "dataset": "whichone sample",
                "caption": "",
                "prompt_type": "referential",
                "ambiguity_category": "referential",
            }
        )
    for split in ("train", "val"):
        write_jsonl(root / f"{split}_annotated.jsonl", rows)


DATASETS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        "clearvqa",
        ("train", "val"),
        "val",
        f"https://huggingface.co/datasets/{CLEARVQA_HUB_ID}",
        lambda d, s: load_clearvqa(d, s),
        sample=_sample,
    ),
)


def _answers(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """AQuA's PASS rate, and ClearVQA's own metrics on the answer after the clarification: VQA accuracy
    (min(1, matching crowd answers / 3)) and exact match (vqa_accuracy.py)."""

    out = metrics.pass_rate([r.judged("aqua_clarification") for r in records])
    crowd = [list(r.gold.get("answers") or []) for r in records]
    out["clearvqa"] = answer_metrics([r.response for r in records], crowd)
    return out


def _layout_answers(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = [
        "Model",
        "Prompt",
        "PASS rate",
        "Unknown",
        "VQA accuracy",
        "Exact match",
        "VQA accuracy, both normalised (ours)",
        "n",
        "Errors",
    ]
    rows = []
    for r in summary.results:
        m, own = r.metrics, r.metrics.get("clearvqa") or {}
        rows.append(
            [
                r.model,
                r.label,
                pct(m.get("rate")),
                pct(m.get("unknown")),
                pct(own.get("vqa_accuracy")),
                pct(own.get("exact_match")),
                pct(own.get("vqa_accuracy_both_normalised")),
                str(m.get("n", 0)),
                str(r.errors),
            ]
        )
    empty = sum(int((r.metrics.get("clearvqa") or {}).get("n_empty_crowd") or 0) for r in summary.results)
    extra.append(
        f"Items with an empty crowd list: {empty}; each counts as 0 in VQA accuracy and exact match, as "
        "the authors' eval/metrics.py counts it. The second turn asks for a short answer (lmms-eval's "
        f'VQAv2 instruction: "{SHORT_ANSWER}"), as VQA scoring compares the answer with crowd answers '
        "word for word."
    )
    extra.append(
        "VQA accuracy (min(1, matching crowd answers / 3)) and exact match are ClearVQA's own metrics on the "
        "answer after the clarification, computed as their eval/metrics.py does (its VQA accuracy compares "
        "the normalised answer with the crowd answers as written); the column marked (ours) normalises "
        "both sides. PASS is AQuA's rule."
    )
    return (
        "ClearVQA two-turn clarification (%): AQuA's PASS rate and ClearVQA's own metrics",
        header,
        rows,
        extra,
    )


TASKS: tuple[Task, ...] = (
    Task(
        name="clearvqa-clarification",
        description="ClearVQA two-turn: the ambiguous (blurred) question, the model's reply, the "
        "clear question as the user's clarification, and PASS when the answer matches the gold one",
        dataset="clearvqa",
        kind=TwoTurn(suffix=SHORT_ANSWER),
        variants=(Variant("base", "Base", "aqua_direct"),),
        scoring=PASS_AFTER_HINT,  # AQuA Table 4's rule, as this paper's runs use it
        aggregate=_answers,
        layout=_layout_answers,
        reproduces="AQuA Table 4 protocol on ClearVQA",
        default_judge="rules",
        needs=("hint", "answer"),
        settings=GenerationSettings(max_new_tokens=128, temperature=0.0),
    ),
)


PAPER = Paper(
    name="clearvqa",
    title="ClearVQA (Jian et al.)",
    judge="ClearVQA's own metrics need none; PASS is AQuA's, judged there by GPT-5-mini (98.5% agreement "
    "with people on 400 judgements)",
    datasets=DATASETS,
    tasks=TASKS,
)
