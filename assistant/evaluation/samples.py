"""A small sample of each paper's data, built from the photos bundled with the app (ui/examples/), in each
dataset's released layout, so every task runs offline: `--data sample` on the CLI, and the Benchmark tab's
fallback when the published data cannot be had.

A sample is NOT the paper's data: five photos, questions written here, and gold labels that only exercise
the pipeline. The localisation regions and saliency boxes are what the offline demo pointer (`blobs`) finds
on each photo, not annotations. Its numbers say nothing about a model; every table made from it says so.

Layouts, as each loader reads its release:
- RAcQUEt: racquet_general.jsonl / racquet_bias.jsonl, one record per question (id, image_url, question,
  question_idx; `referents` boxes for the saliency task), image_url relative to the file;
- VQ-FocusAmbiguity: {split}.json (question_id, image, question, focus_regions as polygons) and images/;
- AQuA: one `datasets` save_to_disk folder per split (test/);
- ClearVQA: {split}_annotated.jsonl and images/.
Each paper's module writes its datasets' samples (the `sample` of its DatasetSpec) with the photo set and
helpers here; the sample is written once into the cache (<cache>/samples/) and rebuilt when its version
changes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.evaluation.fetch import default_cache_dir
from models.registry import create_pointer

SAMPLE = "sample"  # the --data value (and the tab's fallback) that selects the bundled sample
SAMPLE_VERSION = 1  # bump when what the builder writes changes
SAMPLE_NOTE = "the bundled sample (5 photos), not the paper's data: its numbers say nothing about a model"
PHOTOS = Path(__file__).resolve().parents[2] / "ui" / "examples"


@dataclass(frozen=True)
class SamplePhoto:
    file: str
    question: str  # the example's question (ui/examples/examples.json)
    level: int  # how ambiguous the question is: the strategy the example shows (0 answer ... 3 clarify)


# Each paper adds its own columns to these rows, keyed by file (its package's sample builder).
PHOTO_SET: tuple[SamplePhoto, ...] = (
    SamplePhoto("cat.jpg", "What colour are the cat's eyes?", 0),
    SamplePhoto("rocket.jpg", "What colour is it?", 1),
    SamplePhoto("three-coins.jpg", "Whose head is on the coin?", 2),
    SamplePhoto("coins.jpg", "Whose head is on the coin?", 3),
    SamplePhoto("three-people.jpg", "What is the person wearing?", 3),
)


def sample_folder(dataset: str, build: Callable[[Path], None]) -> Path:
    """The sample of `dataset` in its released layout (written by `build`, its paper's sample builder) in
    the cache, built the first time and after SAMPLE_VERSION changes."""
    root = default_cache_dir() / "samples" / f"v{SAMPLE_VERSION}" / dataset
    if not (root / ".complete").is_file():
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        build(root)
        (root / ".complete").write_text("built from ui/examples\n")
    return root


def photo_regions(file: str, limit: int = 3) -> list[list[int]]:
    """Boxes [x0, y0, x1, y1] of what the offline demo pointer finds on a bundled photo (the largest few),
    or the middle half of the photo when it finds nothing."""
    from PIL import Image

    with Image.open(PHOTOS / file) as opened:
        image = opened.convert("RGB")
    found = [g.box for g in create_pointer("blobs").point(image, "thing") if g.box is not None]
    found.sort(key=lambda b: (b.x1 - b.x0) * (b.y1 - b.y0), reverse=True)
    boxes = [[round(b.x0), round(b.y0), round(b.x1), round(b.y1)] for b in found[:limit]]
    w, h = image.size
    return boxes or [[w // 4, h // 4, 3 * w // 4, 3 * h // 4]]


def copy_photos(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for photo in PHOTO_SET:
        shutil.copyfile(PHOTOS / photo.file, folder / photo.file)


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
