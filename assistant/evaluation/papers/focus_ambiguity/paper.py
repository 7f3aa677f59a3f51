"""VQ-FocusAmbiguity (Chen et al.): is a question's focus ambiguous (Table 2), and where are its plausible
focus regions (Table 3)?

Data: the release as a user downloads it from vizwiz.org (annotation JSON + images): there is no fixed
download URL we could verify, so a local folder or an archive URL is needed; the default split is `val`
(the test split's labels are behind the authors' evaluation server). Tasks: focus-recognition,
focus-recognition-probability (whichone's one pass, not a row of the paper), focus-localisation.

Gold fields: "ambiguous" (bool: more than one focus region), "focus_regions" (COCO RLE dicts
{"size": [h, w], "counts": str}, one per region), "image_size" ([h, w]).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

import assistant.evaluation.papers.focus_ambiguity.localisation as localisation
import assistant.evaluation.papers.focus_ambiguity.metrics as metrics
from assistant.evaluation import masks
from assistant.evaluation import masks as mask_codec
from assistant.evaluation.benchmark import (
    GREEDY_256,
    Layout,
    MetricsContext,
    Paper,
    Scoring,
    Task,
    Variant,
)
from assistant.evaluation.dataset_base import (
    DatasetLoad,
    DatasetSpec,
    DatasetUnavailable,
    materialise,
    plain_value,
)
from assistant.evaluation.kinds import VQA_KIND
from assistant.evaluation.papers.focus_ambiguity.calibration import calibration_metrics
from assistant.evaluation.papers.focus_ambiguity.kinds import LOCALISE_KIND, PROBABILITY_KIND
from assistant.evaluation.papers.focus_ambiguity.localisation import localisation_iou
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.samples import PHOTO_SET, copy_photos, photo_regions
from assistant.evaluation.schema import Example, ImageRef
from assistant.evaluation.table_format import metric_rows, num, pct, plain
from assistant.verdict import parse_verdict
from models.base import GenerationSettings

VQFA_HOMEPAGE = "https://vizwiz.org/tasks-and-datasets/focus-ambiguity-in-visual-questions/"


_VQFA_IMAGE_KEYS = ("image", "image_name", "image_file", "file_name", "filename", "image_path", "img")


_VQFA_REGION_KEYS = (
    "focus_regions",
    "focus_masks",
    "focus_segmentations",
    "segmentations",
    "masks",
    "regions",
    "focus",
)


_VQFA_SPLIT_ALIASES = {
    "validation": ("val", "validation"),
    "val": ("val", "validation"),
    "train": ("train",),
    "test": ("test",),
}


def _vqfa_records(obj: Any) -> Iterable[tuple[str, dict[str, Any]]]:
    """(id, record) pairs from the shapes an annotation file may take: a list of records, a dict of
    id -> record, or a dict holding such a list under "annotations" / "data" / "questions"."""
    if isinstance(obj, dict):
        for key in ("annotations", "data", "questions", "samples"):
            if isinstance(obj.get(key), list):
                obj = obj[key]
                break
        else:
            return [(str(k), v) for k, v in obj.items() if isinstance(v, dict)]
    if isinstance(obj, list):
        out = []
        for i, rec in enumerate(obj):
            if isinstance(rec, dict):
                rid = rec.get("id", rec.get("question_id", rec.get("qid", i)))
                out.append((str(rid), rec))
        return out
    return []


def _vqfa_annotation_files(root: Path, split: str) -> list[Path]:
    if root.is_file():
        return [root]
    names = _VQFA_SPLIT_ALIASES.get(split, (split,))
    files = sorted(p for p in root.rglob("*.json") if not p.name.startswith("."))
    chosen = [
        p
        for p in files
        if any(
            p.stem.lower() == n or p.stem.lower().endswith(("_" + n, "-" + n)) or p.parent.name.lower() == n
            for n in names
        )
    ]
    return chosen or (files if len(files) == 1 else [])


def _vqfa_image(root: Path, ann_file: Path, name: str, split: str) -> Path | None:
    candidates = [Path(name)] if Path(name).is_absolute() else []
    for base in (ann_file.parent, root):
        for sub in ("", "images", f"images/{split}", split, f"{split}/images", "imgs"):
            candidates.append(base / sub / name)
    return next((c for c in candidates if c.is_file()), None)


def load_focus_ambiguity(data: str | Path | None = None, split: str = "val") -> DatasetLoad:
    if data is None:
        raise DatasetUnavailable(
            "VQ-FocusAmbiguity is distributed from " + VQFA_HOMEPAGE + " (no fixed download link); download "
            "it there and pass --data FOLDER (or the archive's URL)."
        )
    root = materialise(data, "VQ-FocusAmbiguity data")
    files = _vqfa_annotation_files(root, split)
    if not files:
        found = sorted(p.name for p in root.rglob("*.json"))[:8] if root.is_dir() else []
        raise DatasetUnavailable(
            f"no {split} annotation JSON in {root} (expected a file named like {split}.json or "
            f"*_{split}.json, or a {split}/ folder; found: {', '.join(found) or 'no JSON files'})"
        )
    notes: list[str] = []
    examples = []
    seen_keys: set[str] = set()
    records = 0
    for ann_file in files:
        try:
            obj = json.loads(ann_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            notes.append(f"{ann_file.name}: unreadable JSON ({exc}); skipped")
            continue
        found_records = list(_vqfa_records(obj))
        if not found_records:
            shape = f"keys {sorted(obj)[:12]}" if isinstance(obj, dict) else type(obj).__name__
            raise DatasetUnavailable(
                f"{ann_file.name} holds no VQ-FocusAmbiguity records: expected a list of records, a dict "
                "of id -> record, or a list under 'annotations' / 'data' / 'questions' / 'samples'; "
                f"found {shape}"
            )
        for rid, rec in found_records:
            records += 1
            seen_keys |= set(rec)
            example = _vqfa_example(root, ann_file, rid, rec, split, notes)
            if example is not None:
                examples.append(example)
    if records and not examples:
        raise DatasetUnavailable(
            f"none of the {records} records in {', '.join(f.name for f in files)} could be read: each needs "
            f"'question', an image name (one of {', '.join(_VQFA_IMAGE_KEYS)}) and focus regions (one of "
            f"{', '.join(_VQFA_REGION_KEYS)}); the records have keys {', '.join(sorted(seen_keys)[:16])}"
            + (f". First problem: {notes[0]}" if notes else "")
        )
    return DatasetLoad("vq-focusambiguity", split, examples, notes)


def _vqfa_example(
    root: Path, ann_file: Path, rid: str, rec: dict[str, Any], split: str, notes: list[str]
) -> Example | None:
    where = f"{ann_file.name} record {rid}"
    question = rec.get("question")
    image_name = next((rec[k] for k in _VQFA_IMAGE_KEYS if isinstance(rec.get(k), str) and rec[k]), None)
    if not isinstance(question, str) or not question.strip() or image_name is None:
        notes.append(f"{where}: needs a question and an image file name; skipped")
        return None
    image_path = _vqfa_image(root, ann_file, image_name, split)
    if image_path is None:
        notes.append(f"{where}: image {image_name} not found next to the annotations; skipped")
        return None
    raw_regions = next((rec[k] for k in _VQFA_REGION_KEYS if isinstance(rec.get(k), list)), None)
    if raw_regions is None:
        notes.append(f"{where}: no focus regions; skipped")
        return None
    height, width = rec.get("height"), rec.get("width")
    if not (isinstance(height, int) and isinstance(width, int)):
        try:
            with Image.open(image_path) as im:  # reads the header only
                width, height = im.size
        except OSError as exc:
            notes.append(f"{where}: image {image_name} unreadable ({exc}); skipped")
            return None
    try:
        regions = [masks.to_rle(seg, height, width) for seg in raw_regions]
    except (masks.SegmentationError, ValueError, TypeError, KeyError) as exc:
        notes.append(f"{where}: bad focus region ({exc}); skipped")
        return None
    label = rec.get("ambiguous", rec.get("is_ambiguous", rec.get("label")))
    if isinstance(label, str):
        label = {"ambiguous": True, "unambiguous": False, "1": True, "0": False}.get(label.strip().lower())
    ambiguous = bool(label) if isinstance(label, (bool, int)) else len(regions) > 1
    if isinstance(label, (bool, int)) and bool(label) != (len(regions) > 1):
        notes.append(f"{where}: label says {'' if label else 'un'}ambiguous but has {len(regions)} region(s)")
    gold = {"ambiguous": ambiguous, "focus_regions": regions, "image_size": [int(height), int(width)]}
    meta = {k: plain_value(v) for k, v in rec.items() if k not in (*_VQFA_REGION_KEYS, "question")}
    meta = {k: v for k, v in meta.items() if v is not None}
    return Example(
        rid, ImageRef("path", str(image_path)), question.strip(), "vq-focusambiguity", split, gold, meta
    )


def _sample(root: Path) -> None:
    """The bundled sample in the release's layout (assistant/evaluation/samples.py): {split}.json and
    images/; the focus regions are the demo pointer's boxes as polygons (one for the photos whose question
    has one referent), not annotations."""
    copy_photos(root / "images")
    records = []
    for n, photo in enumerate(PHOTO_SET):
        boxes = photo_regions(photo.file, limit=3 if photo.level >= 2 else 1)
        polygons = [[[x0, y0, x1, y0, x1, y1, x0, y1]] for x0, y0, x1, y1 in boxes]
        records.append(
            {
                "question_id": f"sample{n}",
                "image": photo.file,
                "question": photo.question,
                "focus_regions": polygons,
                "source": "whichone sample",
            }
        )
    for split in ("train", "val"):
        (root / f"{split}.json").write_text(json.dumps(records), encoding="utf-8")


DATASETS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        "vq-focusambiguity",
        ("train", "val", "test"),
        "val",  # the test split's labels are behind the authors' evaluation server
        VQFA_HOMEPAGE,
        lambda d, s: load_focus_ambiguity(d, s),
        sample=_sample,
    ),
)


_RECOGNITION_VARIANTS = (
    Variant("zs", "ZS", "focus_recognition_zs"),
    Variant("zs-cot", "ZS-CoT", "focus_recognition_zs_cot"),
    Variant("zs-ecot", "ZS-ECoT", "focus_recognition_zs_ecot"),
    Variant("fs", "FS", "focus_recognition_fs"),
    Variant("fs-ecot", "FS-ECoT", "focus_recognition_fs_ecot"),
)


# VQ-FocusAmbiguity Table 3, Molmo+SAM: "the same five prompts with the only difference being replacing
# the 'segment' as 'point'" (supplement 9.2); prompts/README.md says what was adapted. Only a Molmo pointer
# (point tags) can take them. The last variant is whichone's own grounding, not a row of the paper.
_LOCALISATION_VARIANTS = (
    Variant("zs", "ZS", "focus_localisation_zs"),
    Variant("zs-cot", "ZS-CoT", "focus_localisation_zs_cot"),
    Variant("zs-ecot", "ZS-ECoT", "focus_localisation_zs_ecot"),
    Variant("fs", "FS", "focus_localisation_fs"),
    Variant("fs-ecot", "FS-ECoT", "focus_localisation_fs_ecot"),
    Variant("focus-phrase", "whichone focus phrase", "point_molmo", focus_phrase=True),
)


# ------------------------------------------------------------------------------------------ scoring

LOCALISATION_IOU = 0.5  # a localisation is right when its regions' union overlaps the gold union this much


def _ambiguity(record: ResponseRecord) -> str | None:
    gold = record.gold
    if "ambiguous" not in gold:
        return None
    return "ambiguous" if gold["ambiguous"] else "unambiguous"


def _verdict_right(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> bool:
    return record.judgement.get("verdict") == ("ambiguous" if record.gold.get("ambiguous") else "unambiguous")


def _probability_right(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> bool:
    p = record.judgement.get("p_ambiguous")
    return p is not None and (p >= 0.5) == bool(record.gold.get("ambiguous"))


def _masks_right(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> bool:
    iou = localisation_iou(record, gold_masks)
    return iou is not None and iou >= LOCALISATION_IOU


VERDICT = Scoring(
    name="verdict",
    right_means="the parsed verdict matches gold (ambiguous when the question has more than one focus "
    "region); undecided is wrong",
    is_right=_verdict_right,
    direct=lambda item, judged: {"verdict": parse_verdict(item.response or "").value},
    judged_label="verdict",
    gold_label=_ambiguity,
)
PROBABILITY = Scoring(
    name="probability",
    right_means="P(ambiguous) >= 0.5 exactly when the question has more than one focus region (the table "
    "shows every threshold)",
    is_right=_probability_right,
    direct=lambda item, judged: {"p_ambiguous": json.loads(item.response or "{}")["p_ambiguous"]},
    gold_label=_ambiguity,
)
MASKS = Scoring(
    name="masks",
    right_means="the predicted regions' union overlaps the gold regions' union with IoU >= "
    f"{LOCALISATION_IOU}",
    is_right=_masks_right,
    direct=lambda item, judged: {"n_predicted": len(item.parts["localisation"]["masks"])},
    gold_masks_field="focus_regions",
)


# ------------------------------------------------------------------------------------------ aggregation


def _recognition(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Table 2: accuracy, weighted F1, positive rate over decided answers, undecided rate over all; and the
    confusion of gold against verdict."""
    gold = [bool(r.gold["ambiguous"]) for r in records]
    verdicts = [r.judgement["verdict"] for r in records]
    out: dict[str, Any] = dict(metrics.recognition_metrics(gold, verdicts))
    columns = ["ambiguous", "unambiguous", "undecided"]
    out["confusion"] = [
        [sum(1 for g, v in zip(gold, verdicts, strict=True) if g == row and v == col) for col in columns]
        for row in (True, False)
    ]
    out["confusion_rows"], out["confusion_columns"] = ["ambiguous", "unambiguous"], columns
    return out


def _calibration(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """whichone's one-pass P(ambiguous): calibration and Table 2's metrics per threshold."""

    labels = [bool(r.gold["ambiguous"]) for r in records]
    return calibration_metrics(labels, [r.judgement["p_ambiguous"] for r in records])


def _localisation(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Table 3: mAP, union IoU, max IoU (and our max IoU of the union)."""
    return localisation.localisation_metrics([_localised(r, context.gold_masks) for r in records])


def _localised(
    record: ResponseRecord, gold_masks: Mapping[str, list[dict[str, Any]]]
) -> localisation.LocalisationExample:
    gold = mask_codec.decode(gold_masks[record.key])
    h, w = record.gold["image_size"]
    pred = record.parts.get("localisation") or {
        "masks": [],
        "scores": [],
    }  # an answered record has it
    predicted = [_resize_mask(m, h, w) for m in mask_codec.decode(pred["masks"])]
    return localisation.LocalisationExample((h, w), list(gold), predicted, pred["scores"])


def _resize_mask(mask: np.ndarray, height: int, width: int) -> np.ndarray:
    """A predicted mask in the working image's pixels (downscaled when the photo was large) -> gold's."""
    if mask.shape == (height, width):
        return mask
    resized = Image.fromarray(mask.astype(np.uint8) * 255).resize((width, height), Image.Resampling.NEAREST)
    return np.asarray(resized) > 127


def _layout_recognition(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = ["Model", "Prompt", "Acc.", "F1", "Pos.", "UR", "n", "Errors"]
    rows = metric_rows(summary.results, pct, "accuracy", "weighted_f1", "positive_rate", "undecided_rate")
    title = "VQ-FocusAmbiguity recognition (%), as Table 2 (Acc., F1, Pos. over decided answers; UR over all)"
    return title, header, rows, extra


def _layout_calibration(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = ["Model", "Threshold", "Acc.", "F1", "Pos.", "UR", "n", "Errors"]
    rows = []
    for r in summary.results:
        m = r.metrics
        for threshold, t in (m.get("thresholds") or {}).items():
            best = (
                " (best F1)"
                if m.get("best_threshold") is not None and float(threshold) == m["best_threshold"]
                else ""
            )
            rows.append(
                [
                    r.model,
                    f"P >= {threshold}{best}",
                    pct(t.get("accuracy")),
                    pct(t.get("weighted_f1")),
                    pct(t.get("positive_rate")),
                    pct(t.get("undecided_rate")),
                    str(t.get("n", 0)),
                    str(r.errors),
                ]
            )
        extra.append(
            f"{r.model}: ROC AUC {num(m.get('auc'), 1)}, Brier score {plain(m.get('brier'))}, "
            f"expected calibration error {plain(m.get('ece'))} "
            f"({m.get('n_scored', 0)} of {m.get('n', 0)} examples with a probability; AUC x100)."
        )
    title = "One-pass recognition (%) by verdict threshold: VQ-FocusAmbiguity Table 2's metrics"
    return title, header, rows, extra


def _layout_localisation(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = ["Approach", "Prompt", "mAP", "union IoU", "max IoU", "max IoU of union (ours)", "n", "Errors"]
    rows = metric_rows(summary.results, num, "mAP", "union_iou", "max_iou", "max_iou_of_union")
    title = "VQ-FocusAmbiguity localisation (x100), as Table 3 (max IoU per predicted mask, as the paper)"
    return title, header, rows, extra


TASKS: tuple[Task, ...] = (
    Task(
        name="focus-recognition",
        description="VQ-FocusAmbiguity: is the question's focus ambiguous? five prompts, free text "
        "parsed to ambiguous / unambiguous / undecided",
        dataset="vq-focusambiguity",
        kind=VQA_KIND,
        variants=_RECOGNITION_VARIANTS,
        scoring=VERDICT,
        aggregate=_recognition,
        layout=_layout_recognition,
        reproduces="VQ-FocusAmbiguity Table 2",
        plots=("confusion",),
        settings=GREEDY_256,
    ),
    Task(
        name="focus-recognition-probability",
        description="whichone's one-pass recognition on VQ-FocusAmbiguity: P(ambiguous) from the first "
        "reply token (Yes against No), its calibration (ROC AUC, Brier score, expected calibration "
        "error) and Table 2's metrics with the verdict threshold swept from 0.1 to 0.9",
        dataset="vq-focusambiguity",
        kind=PROBABILITY_KIND,
        variants=(Variant("yesno", "one pass (Yes/No)", "focus_recognition_yesno"),),
        scoring=PROBABILITY,
        aggregate=_calibration,
        layout=_layout_calibration,
        reproduces="VQ-FocusAmbiguity Table 2's metrics per threshold (whichone's, not a paper row)",
        settings=GenerationSettings(max_new_tokens=1, temperature=0.0),
    ),
    Task(
        name="focus-localisation",
        description="VQ-FocusAmbiguity: locate every plausible focus region (pointer points -> one "
        "segmenter mask per point; --model names the pointer): the paper's five prompts adapted to "
        "'point' for a Molmo pointer, and whichone's own grounding of the question's focus phrase",
        dataset="vq-focusambiguity",
        kind=LOCALISE_KIND,
        variants=_LOCALISATION_VARIANTS,
        scoring=MASKS,
        aggregate=_localisation,
        layout=_layout_localisation,
        reproduces="VQ-FocusAmbiguity Table 3 (Molmo+SAM rows ZS ... FS-ECoT; focus phrase: whichone)",
    ),
)


PAPER = Paper(
    name="vq-focusambiguity",
    title="VQ-FocusAmbiguity (Chen et al.)",
    datasets=DATASETS,
    tasks=TASKS,
)
