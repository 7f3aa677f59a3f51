"""A new grounding family is one module plus one catalog row: tests/toy_family.py's toy family, served by a
local OpenAI-compatible server, is recognised by its model id, asked through the registry's pointer row,
and its reply lands on the right pixels through the real adapter, pointer, reader and grounder."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image, ImageDraw

from assistant.grounding import Grounder
from models import registry
from models.families import family_table
from models.readers import read_grounding
from tests.chat_server import JSONHandler, serve
from tests.toy_family import TOY, TOY_FAMILIES, TOY_POINTER_ROW

SQUARE = (900, 300, 1100, 500)  # in a 1500 x 1000 photo


def photo() -> Image.Image:
    image = Image.new("RGB", (1500, 1000), "white")
    ImageDraw.Draw(image).rectangle(SQUARE, fill=(220, 20, 20))
    return image


class ToyServer(JSONHandler):
    """Answers as a toy-family model: the red region of the image it received, in percent lines."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        url = next(
            part["image_url"]["url"]
            for message in body["messages"]
            if isinstance(message["content"], list)
            for part in message["content"]
            if part.get("type") == "image_url"
        )
        image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")
        pixels = np.asarray(image).astype(int)
        ys, xs = np.nonzero((pixels[:, :, 0] > 150) & (pixels[:, :, 1] < 100))
        box = (xs.min() / image.width, ys.min() / image.height, (xs.max() + 1) / image.width,
               (ys.max() + 1) / image.height)  # fmt: skip
        text = "Here it is:\nred square @ " + " ".join(f"{100 * v:.2f}%" for v in box)
        choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        self._send(
            200, {"id": "c1", "object": "chat.completion", "model": body["model"], "choices": [choice]}
        )


def test_the_toy_family_is_known_by_its_record_alone() -> None:
    assert TOY_FAMILIES.named("TOY") is TOY and TOY_FAMILIES.for_model_id("acme/ToyVLM-2B") is TOY
    assert TOY_FAMILIES.pointer_formats()["toy"].prompt == "grounding_boxes"
    assert "toy" not in family_table().names()  # the built-in table is untouched
    reading = read_grounding("cup @ 10% 20% 30% 40%", TOY, (200, 100))
    assert reading.to_json()["boxes"] == [[20.0, 20.0, 60.0, 40.0]] and reading.to_json()["labels"] == ["cup"]
    assert read_grounding("nothing here", TOY, (200, 100)).notes == [
        "no toy boxes or points could be read from the reply"
    ]


def test_a_served_toy_model_grounds_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WHICHONE_OPENAI_GROUNDING", raising=False)
    # The catalog row, handed to the registry as models/catalog.py's SPECS hands it its rows.
    monkeypatch.setitem(registry._REGISTRY, ("pointer", TOY_POINTER_ROW.name), TOY_POINTER_ROW)
    with serve(ToyServer) as url:
        vlm = registry.create_vlm(
            "openai", model="acme/toyvlm-2b", base_url=url, max_retries=0, families=TOY_FAMILIES
        )
        assert vlm.grounding_family() is TOY  # from the served model's id
        pointer = registry.create_pointer("toy-boxes", vlm=vlm)
        candidates = Grounder(pointer).candidates(photo(), "the red square")
    assert pointer.name == "vlm-boxes:openai:acme/toyvlm-2b" and pointer.describe()["output"] == "toy"
    assert pointer.shape == "boxes"
    assert len(candidates) == 1 and candidates.regions[0].box is not None
    box = candidates.regions[0].box
    assert np.abs(np.array([box.x0, box.y0, box.x1, box.y1]) - np.array(SQUARE, dtype=float)).max() <= 2.0
