"""Boxes from an OpenAI-compatible server land on the right pixels.

A local HTTP server stands where vLLM would: it decodes the image it received, resizes it with Qwen2.5-VL's
rule (transformers' smart_resize, as vLLM's processor does), finds the red square in that frame, and
answers with a Qwen2.5-VL box in the frame's pixels (or, as a Qwen3-VL, on 0-1000). whichone's pointer
through the OpenAI adapter must put the box back on the square in the original photo's pixels.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw
from transformers.models.qwen2_vl.image_processing_qwen2_vl import smart_resize

from models.registry import create_vlm
from models.vlm_pointer import VLMPointer
from tests.chat_server import JSONHandler, serve

SQUARE = (1380, 820, 1480, 960)  # near the far corner of a 1500 x 1000 photo, where a wrong frame shows most


def photo() -> Image.Image:
    image = Image.new("RGB", (1500, 1000), "white")
    ImageDraw.Draw(image).rectangle(SQUARE, fill=(220, 20, 20))
    return image


class GroundingServer(JSONHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        model = body["model"]
        url = next(
            part["image_url"]["url"]
            for message in body["messages"]
            if isinstance(message["content"], list)
            for part in message["content"]
            if part.get("type") == "image_url"
        )
        received = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")
        height, width = smart_resize(received.height, received.width, factor=28, max_pixels=12845056)
        frame = received.resize((width, height), Image.Resampling.BICUBIC)
        red = np.asarray(frame).astype(int)
        ys, xs = np.nonzero((red[:, :, 0] > 150) & (red[:, :, 1] < 100))
        box = [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]
        if "qwen3" in model.lower():
            box = [round(box[0] / width * 1000), round(box[1] / height * 1000),
                   round(box[2] / width * 1000), round(box[3] / height * 1000)]  # fmt: skip
        text = "```json\n" + json.dumps([{"bbox_2d": box, "label": "red square"}]) + "\n```"
        choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        reply = {"id": "chatcmpl-1", "object": "chat.completion", "model": model, "choices": [choice]}
        self._send(200, reply)


def located(model: str, **options: Any) -> list[float]:
    with serve(GroundingServer) as url:
        # Through the registry, as the app builds it: WHICHONE_OPENAI_* reach the adapter as values.
        vlm = create_vlm("openai", model=model, base_url=url, max_retries=0, **options)
        hits = VLMPointer(vlm, output="qwen", coords="pixels").point(photo(), "the red square")
    assert len(hits) == 1 and hits[0].box is not None
    return [hits[0].box.x0, hits[0].box.y0, hits[0].box.x1, hits[0].box.y1]


@pytest.mark.parametrize("model", ["Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen3-VL-4B-Instruct"])
def test_a_served_models_box_lands_on_the_square(model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WHICHONE_OPENAI_GROUNDING", raising=False)
    box = located(model)
    # Within 2 px (the frame's resampling). Read in the sent image's pixels, as before, the Qwen2.5-VL box
    # was 11 px off here (1512 x 1008 frame for a 1500 x 1000 photo); a Qwen3-VL's 0-1000 was read as pixels.
    assert np.abs(np.array(box) - np.array(SQUARE, dtype=float)).max() <= 2.0, box


def test_a_served_model_whose_name_says_nothing_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WHICHONE_OPENAI_GROUNDING", "qwen2.5-vl")
    box = located("my-finetune", max_image_side=1200)  # sent at 1200 x 800: the frame is 1204 x 812
    assert np.abs(np.array(box) - np.array(SQUARE, dtype=float)).max() <= 2.5, box
