"""One benchmark example at a time: its image (gold and predicted regions drawn), question, response,
judgement, gold and whether it is right, in the slice a researcher chose (assistant/evaluation/runs.Slice),
beside the same example in a second run when two are compared.

`BenchView` is what a browser session keeps of its last run (in gr.State). Nothing here writes a file:
pictures are drawn in memory. Benchmark images are dataset images, not users' photos.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from assistant.errors import WhichoneError
from assistant.evaluation import masks as mask_codec
from assistant.evaluation.fetch import ImageFetcher
from assistant.evaluation.outcomes import UNJUDGED
from assistant.evaluation.records import ResponseRecord
from assistant.evaluation.runs import Run, Slice, compare
from assistant.evaluation.schema import Example
from assistant.evaluation.tasks import Task
from assistant.images import load_image
from assistant.types import Candidates, Region
from models.types import Box
from ui.bench_results import ERROR, RIGHT, WRONG
from ui.overlay import draw_overlay

DISPLAY_SIDE = 640  # small dataset images are enlarged to this longer side, so drawn labels stay legible


@dataclass
class BenchView:
    """A run as the browser pages through it: the run just made, or a finished one opened again, and
    optionally a second run of the same task to compare with (`other`, paired by example and prompt)."""

    task: Task
    records: list[ResponseRecord]
    examples: dict[str, Example]  # by Example.key, the run's examples only
    out_dir: Path
    summary: dict[str, Any] = field(default_factory=dict)  # summary.json
    other: Run | None = None
    partner: dict[int, int] = field(default_factory=dict)  # index here -> index in `other`
    differ: frozenset[int] = frozenset()  # indices here whose partner was judged differently
    run: Run = field(init=False)

    def __post_init__(self) -> None:
        self.run = Run(self.out_dir, self.task, self.summary, self.records)
        self.run.with_gold_masks({key: self.gold_masks_of(key) for key in self.examples})

    @classmethod
    def of_run(cls, run: Run, examples: dict[str, Example]) -> BenchView:
        return cls(run.task, run.records, examples, run.folder, run.summary)

    def compared_with(self, other: Run) -> BenchView:
        """This view, paired with `other` (a run of the same task; raises WhichoneError otherwise)."""
        other.with_gold_masks({key: self.gold_masks_of(key) for key in self.examples})
        pairs = compare(self.run, other)
        view = BenchView(self.task, self.records, self.examples, self.out_dir, self.summary)
        view.other, view.partner = other, dict(pairs.pairs)
        view.differ = frozenset(i for i, _ in pairs.disagreements())
        return view

    @property
    def outcomes(self) -> list[str]:
        return self.run.outcomes

    def example_of(self, record: ResponseRecord) -> Example | None:
        return self.examples.get(record.key)

    def gold_masks_of(self, key: str) -> list[dict[str, Any]]:
        example = self.examples.get(key)
        return self.task.scoring.gold_masks(example) if example is not None else []

    def gold_masks(self, record: ResponseRecord) -> list[dict[str, Any]]:
        return self.gold_masks_of(record.key)

    def disagrees(self, index: int) -> bool:
        """Whether the compared run judged record `index`'s partner differently (runs.Comparison's rule)."""
        return index in self.differ

    def shown(self, chosen: Slice | None = None, disagree: bool = False) -> list[int]:
        """Indices of the records the browser shows: those in the slice `chosen` (all when None); when
        comparing, only records the other run has too (with `disagree`, only where the two differ)."""
        indices = self.run.slice(chosen or Slice())
        if self.other is not None:
            indices = [i for i in indices if i in self.partner and (not disagree or self.disagrees(i))]
        return indices

    def tally(self) -> str:
        """Right / wrong / error counts over the records. A record is one example asked with one prompt
        (and model), so a run of 4 examples and 3 prompts has 12: they are not called examples here."""
        counts = {k: self.outcomes.count(k) for k in (RIGHT, WRONG, UNJUDGED, ERROR)}
        unjudged = f", {counts[UNJUDGED]} not judged" if counts[UNJUDGED] else ""
        line = (
            f"{len(self.records)} example-prompt pairs: {counts[RIGHT]} right, {counts[WRONG]} wrong"
            f"{unjudged}, {counts[ERROR]} errors."
        )
        if self.other is not None:
            differ = len(self.differ)
            line += (
                f" Compared with {self.other.folder.name} ({', '.join(sorted(_models(self.other)))}): "
                f"{len(self.partner)} on the same example and prompt, {differ} judged differently."
            )
        return line


def _models(run: Run) -> set[str]:
    return {r.model for r in run.records}


def position_line(view: BenchView, position: int, chosen: Slice | None = None, disagree: bool = False) -> str:
    """ "Example 2 of 12 (all)" (or "of 9 in the slice outcome wrong"), then the run's tally."""
    chosen = chosen or Slice()
    shown = view.shown(chosen, disagree)
    which = chosen.describe() if chosen != Slice() else "all"
    if disagree and view.other is not None:
        which = "judged differently" + ("" if which == "all" else f", {which}")
    if not shown:
        return f"No examples in this slice ({which}). {view.tally()}"
    return f"Example {position} of {len(shown)} ({which}). {view.tally()}"


# ------------------------------------------------------------------------------------------ picture


def example_picture(view: BenchView, record: ResponseRecord) -> tuple[Image.Image, str]:
    """The example's image with its gold focus regions outlined (G1, G2 ...) and predicted regions filled
    and numbered, and its alt text. Raises WhichoneError (ImageUnavailable, InputError) with one line."""
    example = view.example_of(record)
    if example is None:
        raise WhichoneError(f"example {record.id} is no longer in the dataset; its image cannot be shown")
    image = load_image(ImageFetcher().fetch(example.image))
    scale = max(1.0, DISPLAY_SIDE / max(image.size))
    size = (round(image.width * scale), round(image.height * scale))
    base = image.resize(size, Image.Resampling.LANCZOS) if size != image.size else image
    predicted = _regions(view.task.kind.predicted_masks(record), size)
    picture = draw_overlay(base, Candidates(predicted, size), max_side=max(size))
    gold = [m for m in _masks(view.gold_masks(record), size) if m.any()]
    _draw_gold(picture, gold)
    return picture, _alt(example, image.size, gold, predicted, size)


def _masks(rles: list[dict[str, Any]], size: tuple[int, int]) -> list[np.ndarray]:
    """COCO RLEs (any image size) -> h x w bool masks at display `size` (w, h)."""
    out = []
    for m in mask_codec.decode(rles) if rles else []:
        img = Image.fromarray(m.astype(np.uint8) * 255).resize(size, Image.Resampling.NEAREST)
        out.append(np.asarray(img) > 127)
    return out


def _regions(rles: list[dict[str, Any]], size: tuple[int, int]) -> list[Region]:
    regions: list[Region] = []
    for mask in _masks(rles, size):
        box = Box.from_mask(mask)
        if box is not None:
            regions.append(Region(id=len(regions) + 1, box=box, mask=mask, label="predicted"))
    return regions


def _draw_gold(picture: Image.Image, gold: list[np.ndarray]) -> None:
    """A black band with a white band inside it along each gold region's edge (visible on any colour,
    and unlike the predicted regions' colour fills), and a "G<k>" label at its top left."""
    width = max(2, round(min(picture.size) / 160))
    pixels = np.asarray(picture).copy()
    for mask in gold:
        img = Image.fromarray(mask.astype(np.uint8) * 255)
        inner = np.asarray(img.filter(ImageFilter.MinFilter(2 * width + 1))) > 127
        core = np.asarray(img.filter(ImageFilter.MinFilter(4 * width + 1))) > 127
        pixels[mask & ~inner] = (0, 0, 0)
        pixels[inner & ~core] = (255, 255, 255)
    picture.paste(Image.fromarray(pixels))
    draw = ImageDraw.Draw(picture)
    font = ImageFont.load_default(size=max(14, round(min(picture.size) / 24)))
    for k, mask in enumerate(gold, start=1):
        box = Box.from_mask(mask)
        assert box is not None  # empty masks were left out
        x, y = box.x0 + 2 * width, box.y0 + 2 * width
        left, top, right, bottom = draw.textbbox((x, y), f"G{k}", font=font)
        draw.rectangle((left - 3, top - 3, right + 3, bottom + 3), fill=(0, 0, 0))
        draw.text((x, y), f"G{k}", fill=(255, 255, 255), font=font)


def _where(box: Box, size: tuple[int, int]) -> str:
    cx, cy = box.centre
    col = "left" if cx < size[0] / 3 else "right" if cx > 2 * size[0] / 3 else "centre"
    row = "top" if cy < size[1] / 3 else "bottom" if cy > 2 * size[1] / 3 else "middle"
    return "centre" if (row, col) == ("middle", "centre") else f"{row} {col}"


def _alt(
    example: Example,
    original: tuple[int, int],
    gold: list[np.ndarray],
    predicted: list[Region],
    size: tuple[int, int],
) -> str:
    text = f"Benchmark image of example {example.id} ({original[0]} x {original[1]} pixels)"
    parts = []
    if gold:
        where = ", ".join(
            f"G{k} {_where(b, size)}" for k, m in enumerate(gold, 1) if (b := Box.from_mask(m)) is not None
        )
        parts.append(f"{len(gold)} gold focus region(s) outlined in black and white ({where})")
    if predicted:
        where = ", ".join(f"{r.id} {_where(r.box, size)}" for r in predicted)
        parts.append(f"{len(predicted)} predicted region(s) filled in colour and numbered ({where})")
    return text + (" with " + " and ".join(parts) if parts else "") + "."


# ------------------------------------------------------------------------------------------ text


def example_html(view: BenchView, index: int, picture_error: str | None = None) -> str:
    """Question, response(s), judgement, gold and the outcome of record `index`, as an escaped HTML table
    (one row per field, its name as the row header); when comparing, a column per run, the fields the two
    share (example, question, gold) once."""
    record = view.records[index]
    shared: list[tuple[str, str]] = [
        ("Example id", escape(record.id)),
        ("Question", escape(record.question)),
        (
            "Gold",
            escape(", ".join(f"{k}: {v}" for k, v in record.gold.items()) or "(none: not in this dataset)"),
        ),
    ]
    if picture_error:
        shared.append(("Image", escape(picture_error)))
    mine = _record_rows(view, record, view.outcomes[index])
    if view.other is None or index not in view.partner:
        rows = mine[:3] + shared[:2] + mine[3:] + shared[2:]
        body = "".join(f'<tr><th scope="row">{name}</th><td>{value}</td></tr>' for name, value in rows)
        return f'<table class="wh-example"><caption>This example</caption><tbody>{body}</tbody></table>'
    j = view.partner[index]
    theirs = dict(_record_rows(view, view.other.records[j], view.other.outcomes[j]))
    names = [n for n, _ in mine] + [n for n in theirs if n not in dict(mine)]
    ours = dict(mine)
    head = (
        f'<tr><td></td><th scope="col">This run ({escape(record.model)})</th>'
        f'<th scope="col">Compared run ({escape(view.other.records[j].model)})</th></tr>'
    )
    body = "".join(f'<tr><th scope="row">{n}</th><td colspan="2">{v}</td></tr>' for n, v in shared)
    body += "".join(
        f'<tr><th scope="row">{n}</th><td>{ours.get(n, "-")}</td><td>{theirs.get(n, "-")}</td></tr>'
        for n in names
    )
    return (
        '<table class="wh-example wh-compare"><caption>This example in both runs</caption>'
        f"<thead>{head}</thead><tbody>{body}</tbody></table>"
    )


def _record_rows(view: BenchView, record: ResponseRecord, result: str) -> list[tuple[str, str]]:
    """The rows one record has of its own: result, model, prompt, reply, error, judgement, the judge's
    reasons and texts, and the kind's own parts."""
    rows: list[tuple[str, str]] = [
        (
            "Result",
            f"<strong>{escape(result)}</strong> (right means: {escape(view.task.scoring.right_means)})",
        ),
        ("Model", escape(record.model)),
        ("Prompt", escape(record.variant)),
    ]
    turns = record.turns
    if len(turns) > 2:  # two-turn tasks: the whole exchange
        conv = "".join(f"<li>{escape(t['role'])}: {escape(t['text'])}</li>" for t in turns[1:])
        rows.append(("Conversation", f"<ol>{conv}</ol>"))
    else:
        rows.append(("Response", escape(record.response or "(none)")))
    if record.error:
        rows.append(("Error", escape(record.error)))
    judged = record.judgement
    own = ("_text", "_reason", "_prompt")
    short = {k: v for k, v in judged.items() if not k.endswith(own)}
    rows.append(("Judgement", escape(", ".join(f"{k}: {v}" for k, v in short.items()) or "(none)")))
    for key, text in judged.items():
        if key.endswith("_reason"):  # the rule judge's reason: which cue decided
            rows.append((escape(f"Judge's reason ({key.removesuffix('_reason')})"), escape(str(text))))
        if key.endswith("_text"):  # a judge model's whole reply: what its label was read from
            judging = key.removesuffix("_text")
            prompt = judged.get(f"{judging}_prompt")
            name = f"Judge's text ({judging}" + (f", prompt {prompt})" if prompt else ")")
            rows.append((escape(name), f'<div class="wh-judge-text">{escape(str(text))}</div>'))
    for heading, text in view.task.kind.detail_rows(record, view.gold_masks(record)):
        rows.append((escape(heading), escape(text)))
    return rows
