"""What one answer of SmolVLM-256M costs on this machine's CPU: a benchmark that prints figures.

The real weights cannot be downloaded here, so the model is built from SmolVLM-256M-Instruct's published
architecture (Idefics3: SigLIP-B/16 at 512 px, 12 layers; SmolLM2-135M, 30 layers, hidden 576; pixel
shuffle 4 -> 64 tokens per 512 px tile; images resized to a longest edge of 2048 and cut into 512 px tiles
plus a global view) with random weights: the same compute as the real model. The tokenizer is the tiny
local one (models/tiny_smolvlm.py), so only the image tokens and a short question go in, as in a turn.

    .venv/bin/python scripts/vlm_cpu_cost.py [--size 640x480] [--new-tokens 32] [--longest-edge 2048]

Prints: parameters, image tiles and tokens, prefill (vision encoder + prompt) time, time per new token,
and the time of one answer of --new-tokens tokens, with the peak resident memory.
"""

from __future__ import annotations

import argparse
import resource
import time

import torch
from PIL import Image

from models.full_size import random_smolvlm_256m
from models.smolvlm_architecture import SMOLVLM_TILE as TILE


def build(longest_edge: int):
    return random_smolvlm_256m(longest_edge)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="640x480")
    parser.add_argument("--new-tokens", type=int, default=32)
    parser.add_argument("--longest-edge", type=int, default=4 * TILE)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    t0 = time.perf_counter()
    model, processor = build(args.longest_edge)
    build_s = time.perf_counter() - t0
    image = Image.new("RGB", (width, height), (120, 160, 200))
    messages = [
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What colour is the cup?"}]}
    ]
    prompt = processor.apply_chat_template(messages, add_generation_prompt=True)
    inputs = processor(text=[prompt], images=[[image]], return_tensors="pt")
    tiles = int(inputs["pixel_values"].shape[1])
    tokens = int(inputs["input_ids"].shape[1])

    def answer(n: int) -> float:
        start = time.perf_counter()
        with torch.inference_mode():
            model.generate(**inputs, max_new_tokens=n, min_new_tokens=n, do_sample=False)
        return time.perf_counter() - start

    answer(1)  # warm-up
    prefill_s = min(answer(1) for _ in range(2))
    full_s = answer(args.new_tokens)
    per_token_s = (full_s - prefill_s) / max(1, args.new_tokens - 1)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    params = sum(p.numel() for p in model.parameters())
    print(f"SmolVLM-256M architecture, random weights, float32, {torch.get_num_threads()} threads")
    print(f"  parameters {params / 1e6:.0f} M (built in {build_s:.1f} s)")
    print(f"  {width}x{height} image -> {tiles} tiles of {TILE} px, prompt {tokens} tokens")
    print(f"  prefill (vision encoder + prompt): {prefill_s:.2f} s")
    print(f"  per new token: {per_token_s * 1000:.0f} ms")
    print(f"  one answer of {args.new_tokens} new tokens: {full_s:.2f} s")
    print(f"  peak resident memory: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
