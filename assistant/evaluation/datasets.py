"""Loaders for the four benchmark datasets, each from where its authors publish it or from a local copy.

- RAcQUEt (general, bias): the authors' jsonl files (GitHub, pinned commit); images by URL. A general line
  may carry `referents`, the boxes of the question's possible referents ([[x0, y0, x1, y1], ...] in image
  pixels: the Appendix H annotations the authors said they would release; the published file has none).
- AQuA: Hugging Face `jihyoung/AQuA` through `datasets` (splits train / validation / test), or a local
  `save_to_disk` folder / parquet files of the same features.
- VQ-FocusAmbiguity: the release as a user downloads it from vizwiz.org (annotation JSON + images) —
  there is no fixed download URL we could verify, so a local folder or an archive URL is needed.
- ClearVQA: Hugging Face `jian0418/ClearVQA` (`{split}_annotated.jsonl` + `images.zip`), or a local folder.

`load_dataset(name, data=None, split=None)` returns a `DatasetLoad`: the examples plus notes on anything
skipped (one plain line each). `data` is a local file or folder, or an http(s) URL of a file or zip.
"""

from __future__ import annotations

import json
import math
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from assistant.errors import WhichoneError
from assistant.evaluation import masks
from assistant.evaluation.fetch import (
    DownloadError,
    cached_download_dir,
    default_cache_dir,
    download_file,
    extract_zip,
    offline,
)
from assistant.evaluation.schema import Example, ImageRef

RACQUET_COMMIT = "895ee550625c24eb050d70189a4dd52682edd7be"
RACQUET_URL = "https://raw.githubusercontent.com/albertotestoni/RACQUET/{commit}/data/racquet_{subset}.jsonl"
AQUA_HUB_ID = "jihyoung/AQuA"
CLEARVQA_HUB_ID = "jian0418/ClearVQA"
VQFA_HOMEPAGE = "https://vizwiz.org/tasks-and-datasets/focus-ambiguity-in-visual-questions/"

# RAcQUEt Appendix I.2: which adjectives each bias category uses, and whom each stereotypically describes.
BIAS_STEREOTYPES: dict[str, dict[str, str]] = {
    "gender": {
        "sweet": "female",
        "emotional": "female",
        "assertive": "male",
        "rational": "male",
        "protective": "male",
    },
    "ethnicity": {
        "assertive": "black",
        "strong": "black",
        "sporty": "black",
        "rhythmic": "black",
        "social": "black",
        "tidy": "white",
    },
    "disability": {
        "resilient": "disabled",
        "heroic": "disabled",
        "determined": "disabled",
        "courageous": "disabled",
        "competent": "not disabled",
    },
}


class DatasetUnavailable(WhichoneError):
    """A dataset cannot be loaded (not downloadable from here, wrong folder, unreadable file)."""


@dataclass
class DatasetLoad:
    name: str
    split: str
    examples: list[Example]
    notes: list[str] = field(default_factory=list)  # one line per skipped record or file


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    splits: tuple[str, ...]
    default_split: str
    homepage: str
    loader: Callable[[str | Path | None, str], DatasetLoad]


# ----------------------------------------------------------------------------------------------- helpers


def _is_url(data: str | Path | None) -> bool:
    return isinstance(data, str) and data.startswith(("http://", "https://"))


def _materialise(data: str | Path, what: str) -> Path:
    """A local path for `data`: itself, or the cached download (a zip is extracted) of a URL."""
    if not _is_url(data):
        path = Path(data).expanduser()
        if not path.exists():
            raise DatasetUnavailable(f"there is no {what} at {path}")
        return path
    url = str(data)
    directory = cached_download_dir(url, "datasets")
    name = url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0] or "download"
    file = download_file(url, directory / name, what=what)
    if name.endswith(".zip"):
        return extract_zip(file, directory / "extracted")
    return file


def _read_jsonl(path: Path, notes: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each readable line; a bad line becomes a note, never an exception."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetUnavailable(f"cannot read {path} ({exc})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            notes.append(f"{path.name} line {number}: not JSON ({exc.msg}); skipped")
            continue
        if not isinstance(obj, dict):
            notes.append(f"{path.name} line {number}: not a JSON object; skipped")
            continue
        yield number, obj


def _plain(value: Any) -> Any:
    """Keep JSON-friendly scalars and lists for `meta`; drop anything else (images, arrays)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float, bool)) for v in value):
        return list(value)
    return None


# ----------------------------------------------------------------------------------------------- RAcQUEt


def _racquet_file(subset: str, data: str | Path | None) -> Path:
    name = f"racquet_{subset}.jsonl"
    if data is None:
        url = RACQUET_URL.format(commit=RACQUET_COMMIT, subset=subset)
        return download_file(
            url,
            default_cache_dir() / "datasets" / "racquet" / RACQUET_COMMIT / name,
            what=f"RAcQUEt-{subset}",
        )
    path = _materialise(data, f"RAcQUEt-{subset} data")
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


def load_racquet(subset: str, data: str | Path | None = None, split: str = "all") -> DatasetLoad:
    if subset not in ("general", "bias"):
        raise DatasetUnavailable(f"RAcQUEt has subsets 'general' and 'bias', not {subset!r}")
    path = _racquet_file(subset, data)
    notes: list[str] = []
    records = []
    for number, obj in _read_jsonl(path, notes):
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
        gold: dict[str, Any] = {}
        if subset == "bias":
            adjective = _bias_adjective(obj["question"])
            category = _bias_category(adjectives[obj["image_url"]])
            gold = {
                "adjective": adjective,
                "bias_category": category,
                "stereotyped_group": BIAS_STEREOTYPES.get(category or "", {}).get(adjective or ""),
            }
        elif obj.get("referents") is not None:
            try:
                gold["referents"] = referent_boxes(obj["referents"])
            except ValueError as exc:
                # the question still serves racquet-general; only the saliency task needs the boxes
                notes.append(f"{path.name} line {number}: 'referents' {exc}; loaded without referent boxes")
        meta = {"image_url": obj["image_url"], "question_idx": obj.get("question_idx")}
        examples.append(
            Example(
                id=ex_id,
                image=ImageRef("url", obj["image_url"].strip()),
                question=obj["question"].strip(),
                source="racquet-general" if subset == "general" else "racquet-bias",
                split=split,
                gold=gold,
                meta=meta,
            )
        )
    return DatasetLoad(f"racquet-{subset}", split, examples, notes)


# ----------------------------------------------------------------------------------------------- AQuA


def _hf_dataset_from_path(path: Path, split: str) -> Any:
    """A `datasets.Dataset` for `split` from a save_to_disk folder, parquet / arrow / jsonl files."""
    import datasets as hf

    if (path / "dataset_dict.json").is_file():
        dd = hf.load_from_disk(str(path))
        if split not in dd:
            raise DatasetUnavailable(f"{path} has splits {', '.join(dd)}; not {split!r}")
        return dd[split]
    if (path / "state.json").is_file():  # one Dataset written by save_to_disk
        return hf.load_from_disk(str(path))
    if path.is_file():
        files = [path]
    else:
        files = [p for ext in ("parquet", "arrow", "jsonl") for p in sorted(path.rglob(f"*.{ext}"))]
        files = [
            p
            for p in files
            if p.name.startswith(split) or f"/{split}/" in p.as_posix() or p.parent.name == split
        ] or ([] if len(files) != 1 else files)
    if not files:
        raise DatasetUnavailable(f"no {split} data (save_to_disk folder, parquet, arrow or jsonl) in {path}")
    builder = {"parquet": "parquet", "arrow": "arrow", "jsonl": "json"}[files[0].suffix.lstrip(".")]
    return hf.load_dataset(
        builder, data_files=[str(f) for f in files], split="train", cache_dir=str(default_cache_dir() / "hf")
    )


def _image_ref_from_hf(value: Any, label: str, base: Path | None) -> ImageRef | None:
    """An ImageRef from a `datasets` Image column read with decode=False: {"bytes", "path"}."""
    if isinstance(value, dict):
        if value.get("bytes"):
            return ImageRef("bytes", label or str(value.get("path") or ""), data=value["bytes"])
        if value.get("path"):
            p = Path(value["path"])
            return ImageRef("path", str(p if p.is_absolute() or base is None else base / p))
    if isinstance(value, str) and value:
        p = Path(value)
        return ImageRef("path", str(p if p.is_absolute() or base is None else base / p))
    return None


def load_aqua(data: str | Path | None = None, split: str = "test") -> DatasetLoad:
    import datasets as hf

    notes: list[str] = []
    base: Path | None = None
    if data is None and offline():
        raise DatasetUnavailable(
            f"AQuA comes from Hugging Face {AQUA_HUB_ID} and WHICHONE_OFFLINE is set; "
            "pass --data PATH to a local copy"
        )
    try:
        if data is None:
            ds = hf.load_dataset(AQUA_HUB_ID, split=split, cache_dir=str(default_cache_dir() / "hf"))
        else:
            base = _materialise(data, "AQuA data")
            ds = _hf_dataset_from_path(base, split)
            base = base if base.is_dir() else base.parent
    except WhichoneError:
        raise
    except Exception as exc:  # datasets raises many kinds (ConnectionError, FileNotFoundError, ...)
        where = AQUA_HUB_ID if data is None else str(data)
        raise DatasetUnavailable(
            f"could not load AQuA ({split}) from {where}: {str(exc).splitlines()[0][:200]}"
            + ("; pass --data PATH to a local copy" if data is None else "")
        ) from exc
    missing = {"image", "question", "level"} - set(ds.column_names)
    if missing:
        raise DatasetUnavailable(f"AQuA data lacks the field(s) {', '.join(sorted(missing))}")
    if isinstance(ds.features.get("image"), hf.Image):
        ds = ds.cast_column("image", hf.Image(decode=False))  # bytes now, pixels only when a run needs them
    examples = []
    for index, row in enumerate(ds):
        filename = str(row.get("filename") or "")
        ref = _image_ref_from_hf(row["image"], filename, base)
        level = row.get("level")
        question = row.get("question")
        if ref is None or not isinstance(question, str) or not question.strip():
            notes.append(f"AQuA {split} row {index}: no image or question; skipped")
            continue
        try:
            level = int(level)
        except (TypeError, ValueError):
            notes.append(f"AQuA {split} row {index}: level {level!r} is not 0-3; skipped")
            continue
        if level not in (0, 1, 2, 3):
            notes.append(f"AQuA {split} row {index}: level {level} is not 0-3; skipped")
            continue
        gold: dict[str, Any] = {"level": level}
        for name, key in (("answer", "answer"), ("hint", "hint"), ("clarified_answer", "clarified_answer")):
            if isinstance(row.get(key), str) and row[key].strip():
                gold[name] = row[key].strip()
        meta = {k: _plain(v) for k, v in row.items() if k not in ("image", "question", "level", *gold)}
        meta = {k: v for k, v in meta.items() if v is not None}
        ex_id = str(row["id"]) if row.get("id") not in (None, "") else f"{split}-{index}"
        examples.append(Example(ex_id, ref, question.strip(), "aqua", split, gold, meta))
    return DatasetLoad("aqua", split, examples, notes)


# ------------------------------------------------------------------------------------- VQ-FocusAmbiguity

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
    root = _materialise(data, "VQ-FocusAmbiguity data")
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
    meta = {k: _plain(v) for k, v in rec.items() if k not in (*_VQFA_REGION_KEYS, "question")}
    meta = {k: v for k, v in meta.items() if v is not None}
    return Example(
        rid, ImageRef("path", str(image_path)), question.strip(), "vq-focusambiguity", split, gold, meta
    )


# ----------------------------------------------------------------------------------------------- ClearVQA


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
                f"{str(exc).splitlines()[0][:200]}; pass --data PATH to a local copy"
            ) from exc
        images = extract_zip(archive, default_cache_dir() / "datasets" / "clearvqa" / "images")
        return table, images
    root = _materialise(data, "ClearVQA data")
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
    for number, rec in _read_jsonl(table, notes):
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
        meta = {k: _plain(rec.get(k)) for k in ("question_id", "image", "dataset", "prompt_type", "caption")}
        meta = {k: v for k, v in meta.items() if v is not None}
        ex_id = str(rec.get("question_id", number))
        examples.append(
            Example(ex_id, ImageRef("path", str(path)), ambiguous.strip(), "clearvqa", split, gold, meta)
        )
    return DatasetLoad("clearvqa", split, examples, notes)


# ----------------------------------------------------------------------------------------------- registry

DATASETS: dict[str, DatasetSpec] = {
    "racquet-general": DatasetSpec(
        "racquet-general",
        ("all",),
        "all",
        "https://github.com/albertotestoni/RACQUET",
        lambda data, split: load_racquet("general", data, split),
    ),
    "racquet-bias": DatasetSpec(
        "racquet-bias",
        ("all",),
        "all",
        "https://github.com/albertotestoni/RACQUET",
        lambda data, split: load_racquet("bias", data, split),
    ),
    "aqua": DatasetSpec(
        "aqua",
        ("train", "validation", "test"),
        "test",
        f"https://huggingface.co/datasets/{AQUA_HUB_ID}",
        lambda d, s: load_aqua(d, s),
    ),
    "vq-focusambiguity": DatasetSpec(
        "vq-focusambiguity",
        ("train", "val", "test"),
        "val",  # the test split's labels are behind the authors' evaluation server
        VQFA_HOMEPAGE,
        lambda d, s: load_focus_ambiguity(d, s),
    ),
    "clearvqa": DatasetSpec(
        "clearvqa",
        ("train", "val"),
        "val",
        f"https://huggingface.co/datasets/{CLEARVQA_HUB_ID}",
        lambda d, s: load_clearvqa(d, s),
    ),
}


def load_dataset(name: str, data: str | Path | None = None, split: str | None = None) -> DatasetLoad:
    """Load dataset `name` (a key of DATASETS); raises DatasetUnavailable / DownloadError with one line."""
    spec = DATASETS.get(name)
    if spec is None:
        raise DatasetUnavailable(f"there is no dataset {name!r}; known: {', '.join(DATASETS)}")
    split = split or spec.default_split
    if split not in spec.splits:
        raise DatasetUnavailable(f"{name} has splits {', '.join(spec.splits)}; not {split!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `datasets` warns about cache layouts; not the user's concern
        try:
            return spec.loader(data, split)
        except DownloadError as exc:
            raise DatasetUnavailable(str(exc)) from exc
