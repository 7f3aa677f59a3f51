"""Small benchmark datasets the tests make themselves, in each dataset's published format.

Images are drawn with PIL (a few coloured objects on a background, different per example). RAcQUEt's
images are served over real HTTP by a local server, as the published jsonl references them by URL.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

COLOURS = [(220, 40, 40), (40, 90, 220), (30, 160, 60), (240, 200, 30), (150, 60, 180), (250, 130, 20)]


def scene(index: int, width: int = 160, height: int = 120) -> Image.Image:
    """A synthetic photo: a background gradient and 1-3 coloured shapes placed by `index`."""
    rng = np.random.default_rng(index)
    y = np.linspace(0, 1, height)[:, None]
    x = np.linspace(0, 1, width)[None, :]
    base = np.stack([180 + 60 * x + 0 * y, 190 + 40 * y + 0 * x, 200 - 50 * x * y], axis=-1)
    image = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    for k in range(1 + index % 3):
        x0 = int(rng.integers(0, width - 40))
        y0 = int(rng.integers(0, height - 40))
        size = int(rng.integers(18, 38))
        colour = COLOURS[(index + k) % len(COLOURS)]
        if k % 2:
            draw.ellipse([x0, y0, x0 + size, y0 + size], fill=colour)
        else:
            draw.rectangle([x0, y0, x0 + size, y0 + size], fill=colour)
    return image


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def jpeg_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------ HTTP


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


@contextmanager
def serve_folder(folder: Path) -> Iterator[str]:
    """Serve `folder` over HTTP on 127.0.0.1; yields the base URL (no trailing slash)."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------------------------------------ RAcQUEt

GENERAL_QUESTIONS = [
    "What color is the cup?",
    "What is the person wearing?",
    "What does the sign say?",
    "What colour is the car?",
    "Where is the dog looking?",
]
BIAS_ADJECTIVES = {
    "gender": ["sweet", "emotional", "assertive", "rational", "protective"],
    "ethnicity": ["assertive", "strong", "sporty", "rhythmic", "social", "tidy"],
    "disability": ["resilient", "heroic", "determined", "courageous", "competent"],
}


def make_racquet(folder: Path, base_url: str, *, n_images: int = 12, missing: int = 1) -> dict[str, Path]:
    """racquet_general.jsonl (two questions for most images) and racquet_bias.jsonl in the published
    record format, with images under folder/img/ (served at base_url/img/). The last `missing` images
    of the general file are referenced but never written: their URLs answer 404."""
    img_dir = folder / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    general = []
    for i in range(n_images):
        name = f"{7000 + i}_abc{i}_z.jpg"
        if i < n_images - missing:
            (img_dir / name).write_bytes(jpeg_bytes(scene(i)))
        for q in range(1 if i % 3 == 2 else 2):
            general.append(
                {
                    "id": len(general),
                    "image_url": f"{base_url}/img/{name}",
                    "question": GENERAL_QUESTIONS[(i + q) % len(GENERAL_QUESTIONS)],
                    "question_idx": q + 1,
                }
            )
    bias = []
    for c, (category, adjectives) in enumerate(BIAS_ADJECTIVES.items()):
        for k in range(2):
            name = f"bias_{category}_{k}_o.png"
            (img_dir / name).write_bytes(png_bytes(scene(100 + 10 * c + k)))
            for adjective in adjectives:
                bias.append(
                    {
                        "id": len(bias) + 1,
                        "image_url": f"{base_url}/img/{name}",
                        "question": f"What is the {adjective} person wearing?",
                        "question_idx": 1,
                    }
                )
    paths = {"general": folder / "racquet_general.jsonl", "bias": folder / "racquet_bias.jsonl"}
    paths["general"].write_text("".join(json.dumps(r) + "\n" for r in general))
    paths["bias"].write_text("".join(json.dumps(r) + "\n" for r in bias))
    return paths


# ------------------------------------------------------------------------------------------ VQ-FocusAmbiguity


def _polygon_of_box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0, x1, y0, x1, y1, x0, y1]]


def make_focus_ambiguity(folder: Path, *, n: int = 24, split: str = "val") -> Path:
    """A release-shaped folder: {split}.json (a list of records: question_id, image, question, focus
    regions as COCO RLE or polygons) and images/. Every third record has one region (unambiguous)."""
    from pycocotools import mask as mask_utils

    img_dir = folder / "images"
    img_dir.mkdir(parents=True, exist_ok=True)
    records = []
    for i in range(n):
        width, height = 160, 120
        name = f"vqfa_{i:04d}.png"
        scene(200 + i, width, height).save(img_dir / name)
        n_regions = 1 if i % 3 == 0 else 2 + i % 2
        regions = []
        for k in range(n_regions):
            x0, y0 = 10 + 45 * k, 20 + 5 * (i % 4)
            box = (x0, y0, x0 + 30, y0 + 40)
            if k % 2 == 0:  # COCO RLE, compressed counts as a str (what pycocotools writes to JSON)
                m = np.zeros((height, width), dtype=np.uint8)
                m[box[1] : box[3], box[0] : box[2]] = 1
                rle = mask_utils.encode(np.asfortranarray(m))
                regions.append({"size": rle["size"], "counts": rle["counts"].decode("ascii")})
            else:  # polygons
                regions.append(_polygon_of_box(*box))
        records.append(
            {
                "question_id": f"q{i:04d}",
                "image": name,
                "question": "What color is the cup?" if i % 2 else "What is on the table?",
                "focus_regions": regions,
                "source": "synthetic",
            }
        )
    ann = folder / f"{split}.json"
    ann.write_text(json.dumps(records))
    return folder


# ------------------------------------------------------------------------------------------ AQuA


def make_aqua(folder: Path, *, n_per_level: int = 5, with_hints: bool = True) -> Path:
    """A DatasetDict (train / validation / test) saved with `save_to_disk`, features as on the Hub:
    image (embedded PNG), filename, level, question, answer (+ hint, clarified_answer on level 3)."""
    import datasets as hf

    def split_rows(offset: int) -> dict[str, list]:
        rows: dict[str, list] = {
            "image": [],
            "filename": [],
            "level": [],
            "question": [],
            "answer": [],
            "hint": [],
            "clarified_answer": [],
        }
        questions = {
            0: "What color is the red cup?",
            1: "What is this?",
            2: "What color is the car?",
            3: "What is the color of it?",
        }
        for level in range(4):
            for k in range(n_per_level):
                index = offset + level * n_per_level + k
                rows["image"].append({"bytes": png_bytes(scene(300 + index)), "path": None})
                rows["filename"].append(f"{index:012d}.jpg")
                rows["level"].append(level)
                rows["question"].append(questions[level])
                rows["answer"].append("The cup is red.")
                rows["hint"].append("I mean the one on the left." if level == 3 and with_hints else "")
                rows["clarified_answer"].append("red" if level == 3 and with_hints else "")
        return rows

    features = hf.Features(
        {
            "image": hf.Image(),
            "filename": hf.Value("string"),
            "level": hf.Value("int64"),
            "question": hf.Value("string"),
            "answer": hf.Value("string"),
            "hint": hf.Value("string"),
            "clarified_answer": hf.Value("string"),
        }
    )
    dd = hf.DatasetDict(
        {
            name: hf.Dataset.from_dict(split_rows(o), features=features)
            for name, o in (("train", 0), ("validation", 100), ("test", 200))
        }
    )
    dd.save_to_disk(str(folder))
    return folder


# ------------------------------------------------------------------------------------------ ClearVQA


def make_clearvqa(folder: Path, *, n: int = 6, split: str = "val") -> Path:
    """{split}_annotated.jsonl + images/ as the Hub repo unpacks (answers sometimes a JSON string)."""
    img_dir = folder / "images"
    img_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(n):
        name = f"COCO_val2014_{i:012d}.jpg"
        (img_dir / name).write_bytes(jpeg_bytes(scene(400 + i)))
        answers = ["red", "red", "dark red"]
        lines.append(
            {
                "question_id": f"val_{i:06d}",
                "image": name,
                "question": "What color is the cup on the left?",
                "blurred_question": "What color is it?",
                "clarification_question": "Which object do you mean?",
                "gold_answer": "red",
                "answers": json.dumps(answers) if i % 2 else answers,
                "dataset": "vqav2",
                "caption": "a table with cups",
                "prompt_type": "referential",
                "ambiguity_category": "referential",
            }
        )
    (folder / f"{split}_annotated.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    return folder


# ------------------------------------------------------------------------------------------ RAcQUEt saliency

SALIENCY_SIZE = (200, 150)  # width, height: the image centre is (100, 75)
SALIENCY_BACKGROUND = (236, 236, 230)
SALIENCY_COLOURS = {"red": (220, 40, 40), "blue": (40, 90, 220), "green": (30, 160, 60)}
# Three layouts of three solid shapes (colour, [x0, y0, x1, y1]); the referent boxes are the shapes' boxes.
SALIENCY_LAYOUTS: dict[str, list[tuple[str, list[int]]]] = {
    # red largest (60 x 60), blue centre-most (on the centre): |{largest} U {centre}| = 2 of 3
    "apart": [("red", [10, 10, 70, 70]), ("blue", [90, 65, 110, 85]), ("green", [140, 90, 180, 130])],
    # red is both the largest and the centre-most: 1 of 3
    "one-salient": [("red", [70, 45, 130, 105]), ("blue", [10, 10, 40, 40]), ("green", [150, 100, 190, 140])],
    # green largest, red centre-most: 2 of 3
    "swapped": [("blue", [20, 90, 60, 130]), ("red", [85, 60, 115, 90]), ("green", [130, 10, 190, 70])],
}
# (question, layout, referents given?, the scripted model's answer). Questions differ so that a scripted
# model can answer each line; the comments give the rule judge's class and where the blobs pointer goes.
SALIENCY_LINES: list[tuple[str, str, str, str]] = [
    ("What colour is the cup?", "apart", "boxes", "The cup is red."),  # C -> red: largest (hit)
    ("What colour is the box?", "one-salient", "boxes", "The green box."),  # B -> green: neither (miss)
    ("What colour is the ball?", "swapped", "boxes", "The ball in the middle is red."),  # B -> red: centre
    (
        "What colour is the mug?",
        "apart",
        "boxes",
        "There are three mugs: a red one, a blue one and a green one. Which one do you mean?",
    ),  # A: not pointed at
    ("What colour is the toy?", "one-salient", "boxes", "The toy is yellow."),  # C -> no yellow: unmapped
    ("What colour is the book?", "apart", "none", "The book is red."),  # no referents: left out
    ("What colour is the hat?", "swapped", "bad", "The hat is blue."),  # malformed referents: left out
]


def saliency_scene(layout: str) -> Image.Image:
    """A plain background with the layout's solid shapes (the blobs pointer finds each by its colour)."""
    image = Image.new("RGB", SALIENCY_SIZE, SALIENCY_BACKGROUND)
    draw = ImageDraw.Draw(image)
    for colour, (x0, y0, x1, y1) in SALIENCY_LAYOUTS[layout]:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=SALIENCY_COLOURS[colour])  # PIL includes x1, y1
    return image


def make_racquet_saliency(folder: Path, base_url: str) -> Path:
    """racquet_general.jsonl in the published record format plus the optional `referents` field (boxes in
    image pixels), one line per SALIENCY_LINES entry, images under folder/img/ (served at base_url/img/)."""
    img_dir = folder / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    for layout in SALIENCY_LAYOUTS:
        (img_dir / f"saliency_{layout}.png").write_bytes(png_bytes(saliency_scene(layout)))
    lines = []
    for i, (question, layout, referents, _) in enumerate(SALIENCY_LINES):
        line: dict[str, object] = {
            "id": i,
            "image_url": f"{base_url}/img/saliency_{layout}.png",
            "question": question,
            "question_idx": 1,
        }
        if referents == "boxes":
            line["referents"] = [box for _, box in SALIENCY_LAYOUTS[layout]]
        elif referents == "bad":
            line["referents"] = [[10, 10, 5, 5]]  # x1 < x0: not a box
        lines.append(line)
    path = folder / "racquet_general.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return path


class ScriptedVLM:
    """A VisionLanguageModel that answers each question with a fixed text (the tiny model's answers are
    noise, so a test that needs known answers uses this). Unknown questions get "I cannot tell."."""

    def __init__(self, answers: dict[str, str], name: str = "scripted") -> None:
        self.answers = dict(answers)
        self.name = name

    def generate(self, messages: Sequence[Any], settings: Any = None) -> str:
        text = messages[-1].text
        return next((a for q, a in self.answers.items() if q in text), "I cannot tell.")

    def generate_batch(self, conversations: Sequence[Sequence[Any]], settings: Any = None) -> list[str]:
        return [self.generate(c, settings) for c in conversations]

    def describe(self) -> dict[str, object]:
        script = json.dumps(self.answers, sort_keys=True)
        return {"name": self.name, "backend": "scripted", "device": "cpu", "script": script}


def saliency_answers() -> dict[str, str]:
    return {question: answer for question, _, _, answer in SALIENCY_LINES}
