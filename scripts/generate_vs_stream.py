"""Quick timing (issue 37): the full-size SmolVLM-256M architecture (int8, random weights), `generate`
against `models.base.stream_generate` (the app's path, consumed in the caller's thread), 24 tokens each
with the photo's prefix cached; prints the median wall and CPU seconds of N runs of each (default 5).

    PYTHONPATH=. .venv/bin/python scripts/generate_vs_stream.py [N]

Runs on code before models/compute.py too (the model is then built in the main thread), so the same file
times both sides of the change. See docs/perf.md.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from models.base import ChatMessage, GenerationSettings, stream_generate
from models.full_size import random_smolvlm_256m
from models.hf_vlm import HFVisionLanguageModel


def build() -> HFVisionLanguageModel:
    model, processor = random_smolvlm_256m()
    return HFVisionLanguageModel.from_model(model, processor, name="smolvlm-256m (random)", quantise="int8")


def built() -> HFVisionLanguageModel:
    try:
        from models.compute import in_passing_thread
    except ImportError:  # the code before the compute thread
        return build()
    return in_passing_thread(build)


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), cpu_s()
    call()
    return time.perf_counter() - wall, cpu_s() - cpu


def main(runs: int) -> None:
    vlm = built()
    pixels = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    photo = Image.fromarray(pixels)
    conversation = [ChatMessage("user", "What colour are the cups?", [photo])]
    settings = GenerationSettings(max_new_tokens=24, temperature=0.0)
    vlm.prepare_image(photo)

    def generate() -> None:
        vlm.generate(conversation, settings)

    def stream() -> None:
        "".join(stream_generate(vlm, conversation, settings))

    generate(), stream()  # warm-up
    figures: dict[str, list[tuple[float, float]]] = {"generate": [], "stream": []}
    for _ in range(runs):  # interleaved, so a burst of load elsewhere hits both alike
        figures["generate"].append(timed(generate))
        figures["stream"].append(timed(stream))
    for name, runs_of in figures.items():
        walls = [wall for wall, _ in runs_of]
        cpu = statistics.median(c for _, c in runs_of)
        print(
            f"{name}: wall median {statistics.median(walls):.2f} s, min {min(walls):.2f} s; CPU median "
            f"{cpu:.2f} s (walls {', '.join(f'{w:.2f}' for w in walls)})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
