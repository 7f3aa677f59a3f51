"""`whichone perf --stack NAME`: what a user of a stack waits for, at full size, on this machine.

Every stage of the `cpu` stack is built from its published architecture with random weights (the same
compute as the real models; nothing is downloaded): SmolVLM-256M (int8, one 512 px tile, models/full_size.py),
OWL-ViT B/32 (int8, 768 px) and SAM 2.1 Hiera-tiny. `cpu-tiny` runs the same code on the tiny local models
(a quick check that the benchmark itself works). The scenario, timed as a user lives it:

1. a photo is uploaded (the segmenter's embedding starts in the background), 3 s of typing;
2. Ask -> first reply: recognition (one forward pass, P(ambiguous)), the detector, one box-prompted mask a
   hit, the policy, and the answer (24 new tokens); the VLM's encoding of the photo (a cached prompt
   prefix, models/prefix_cache.py) is computed on upload, as the app does;
3. a region chosen -> its reply (24 new tokens);
4. the same first turn on a new photo with ZS-ECoT's generated recognition (128 new tokens) instead;
5. the one-pass first turn once more without reusing the photo's encoding: whether the cached prefix pays.

Random weights never stop early (no end-of-sequence token), so the lengths are exactly those. The question
is "What colour are the cups?": a plural question is answered about the whole photo whatever the random
verdict and boxes (the policy's first rule), so both first turns do the same work apart from the
recognition: the detector and a mask for each of the 12 boxes kept, then one answer. (An answer about one
chosen region, as in the second turn, is asked with the region marked on a copy of the photo, which has no
cached encoding.)
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from assistant.errors import WhichoneError
from assistant.grounding import Grounder
from assistant.perf_scene import cups_scene
from assistant.pipeline import Assistant, AssistantConfig
from models.base import Describing, GenerationSettings
from models.detectors import DetectorPointer
from models.full_size import random_smolvlm_256m
from models.hf_vlm import HFVisionLanguageModel
from models.registry import create_pointer, create_segmenter, create_vlm
from models.sam2 import Sam2Segmenter
from models.stacks import get_stack

if TYPE_CHECKING:
    from models.base import Pointer, Segmenter, VisionLanguageModel

QUESTION = "What colour are the cups?"
ANSWER_TOKENS, ECOT_TOKENS = 24, 128
TARGETS = {"first_turn_s": 6.0, "second_turn_s": 3.0, "recognition_speedup": 5.0, "peak_rss_gib": 4.0}
PERF_STACKS = ("cpu", "cpu-tiny")


def _peak_rss_gib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**30 if sys.platform == "darwin" else 2**20)


def build_stack(name: str) -> tuple[VisionLanguageModel, Pointer, Segmenter]:
    """(vlm, pointer, segmenter) of the stack `name`: full size with random weights for "cpu"."""
    if name == "cpu":
        model, processor = random_smolvlm_256m()
        vlm = HFVisionLanguageModel.from_model(
            model, processor, name="smolvlm-256m (random)", quantise="int8"
        )
        return (
            vlm,
            DetectorPointer("random", family="owlvit", name="owlvit-b32 (random)"),
            Sam2Segmenter("random"),
        )
    if name == "cpu-tiny":
        choice = get_stack(name).choice
        tiny = create_vlm(choice.vlm, device="cpu")
        return tiny, create_pointer(choice.pointer, vlm=tiny), create_segmenter(choice.segmenter or "")
    raise WhichoneError(
        f"perf builds the stacks {', '.join(PERF_STACKS)} at full size; for the gpu stack's CPU-side stage "
        "(SAM 3) use `whichone perf --sam3`"
    )


def stack_cost(
    stack: str = "cpu",
    *,
    typing_s: float = 3.0,
    size: tuple[int, int] = (640, 480),
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Run the scenario of the module doc; returns the figures (seconds, GiB)."""

    log(f"building the {stack} stack ({'full size, random weights' if stack == 'cpu' else 'tiny'}) ...")
    start = time.perf_counter()
    vlm, pointer, segmenter = build_stack(stack)
    build_s = time.perf_counter() - start
    grounder = Grounder(pointer, segmenter)
    one_pass = AssistantConfig(answer_settings=GenerationSettings(max_new_tokens=ANSWER_TOKENS))
    ecot = replace(
        one_pass,
        recognition_prompt="focus_recognition_zs_ecot",
        recognition_settings=GenerationSettings(max_new_tokens=ECOT_TOKENS),
    )
    width, height = size

    def turn(config: AssistantConfig, variant: int, second: bool) -> dict[str, Any]:
        assistant = Assistant(vlm, grounder, config)
        session = assistant.open_image(cups_scene(width, height, n=4, variant=variant))  # the upload
        time.sleep(typing_s)
        t0 = time.perf_counter()
        reply, session = assistant.ask(None, QUESTION, session)
        first_s = time.perf_counter() - t0
        out: dict[str, Any] = {
            "first_turn_s": first_s,
            "stages": {k: v for k, v in reply.timings.items() if k != "total"},
            "strategy": reply.strategy.value,
            "regions": len(reply.candidates.regions),
            "probability": reply.ambiguity_probability,
        }
        if second and reply.candidates.regions:
            t0 = time.perf_counter()
            again, _ = assistant.resolve(session, reply.candidates.regions[0].id)
            out["second_turn_s"] = time.perf_counter() - t0
            out["second_stages"] = {k: v for k, v in again.timings.items() if k != "total"}
        return out

    log("warm-up turn (one-off costs: first calls of each model) ...")
    turn(one_pass, 100, second=False)
    log(f"first and second turn, one-pass recognition ({typing_s:.0f} s of typing simulated) ...")
    main = turn(one_pass, 101, second=True)
    log(f"the same first turn with ZS-ECoT recognition ({ECOT_TOKENS} generated tokens) ...")
    with_ecot = turn(ecot, 102, second=False)
    no_reuse = None
    if isinstance(vlm, HFVisionLanguageModel) and vlm.reuse_image_prefix:
        log("the one-pass first turn again without reusing the photo's encoding (cached prefix) ...")
        vlm.reuse_image_prefix = False
        no_reuse = turn(one_pass, 103, second=False)
        vlm.reuse_image_prefix = True
    grounder.close()
    recognition_s = main["stages"]["recognition"]
    ecot_s = with_ecot["stages"]["recognition"]
    return {
        "stack": stack,
        "image": f"{width}x{height}",
        "models": {
            "vlm": vlm.describe(),
            "pointer": pointer.describe() if isinstance(pointer, Describing) else {"name": pointer.name},
            "segmenter": segmenter.describe()
            if isinstance(segmenter, Describing)
            else {"name": segmenter.name},
        },
        "build_s": build_s,
        "one_pass": main,
        "ecot": with_ecot,
        "first_turn_s": main["first_turn_s"],
        "second_turn_s": main.get("second_turn_s"),
        "recognition_s": recognition_s,
        "ecot_recognition_s": ecot_s,
        "recognition_speedup": ecot_s / recognition_s if recognition_s else float("inf"),
        "ecot_first_turn_s": with_ecot["first_turn_s"],
        "without_prefix_reuse": no_reuse,
        "peak_rss_gib": _peak_rss_gib(),
    }


def format_stack_report(fig: dict[str, Any]) -> str:
    main, ecot, models = fig["one_pass"], fig["ecot"], fig["models"]

    def stages(parts: dict[str, float]) -> str:
        return ", ".join(f"{k} {v:.2f} s" for k, v in parts.items())

    def target(key: str, value: float | None, at_least: bool = False) -> str:
        if value is None:
            return "not measured"
        goal = TARGETS[key]
        met = value >= goal if at_least else value <= goal
        return f"target {'>=' if at_least else '<='} {goal:g}: {'met' if met else 'NOT met'}"

    second, speedup, rss = fig["second_turn_s"], fig["recognition_speedup"], fig["peak_rss_gib"]
    lines = [
        f"stack {fig['stack']} on a {fig['image']} photo; built in {fig['build_s']:.1f} s",
        "  models: "
        + "; ".join(
            f"{kind} {m.get('name')} ({m.get('quantisation') or 'float32'})" for kind, m in models.items()
        ),
        f"  question: {QUESTION!r}; answers {ANSWER_TOKENS} tokens, ECoT recognition {ECOT_TOKENS} tokens",
        f"first turn (one-pass recognition): {main['first_turn_s']:.2f} s "
        f"({target('first_turn_s', main['first_turn_s'])}); {main['strategy']}, {main['regions']} regions",
        "  stages: " + stages(main["stages"]),
        f"second turn (a region chosen): {second:.2f} s ({target('second_turn_s', second)})"
        if second is not None
        else "second turn: no region to choose",
    ]
    if "second_stages" in main:
        lines.append("  stages: " + stages(main["second_stages"]))
    if fig.get("without_prefix_reuse"):
        plain = fig["without_prefix_reuse"]
        lines += [
            f"the photo's encoding reused (a cached prompt prefix, made while the user types): first turn "
            f"{main['first_turn_s']:.2f} s with it vs {plain['first_turn_s']:.2f} s without "
            f"(recognition {main['stages']['recognition']:.2f} s vs {plain['stages']['recognition']:.2f} s)",
        ]
    lines += [
        f"first turn with ZS-ECoT recognition: {fig['ecot_first_turn_s']:.2f} s; {ecot['strategy']}",
        "  stages: " + stages(ecot["stages"]),
        f"recognition: one pass {fig['recognition_s']:.2f} s vs ECoT {fig['ecot_recognition_s']:.2f} s "
        f"({speedup:.1f}x; {target('recognition_speedup', speedup, True)})",
        f"peak resident memory: {rss:.2f} GiB ({target('peak_rss_gib', rss)})",
        f"summary: first turn {fig['first_turn_s']:.1f} s; second turn {second or 0.0:.1f} s; recognition "
        f"{fig['recognition_s']:.2f} s vs ECoT recognition {fig['ecot_recognition_s']:.1f} s "
        f"({speedup:.1f}x); first turn with ECoT recognition {fig['ecot_first_turn_s']:.1f} s",
    ]
    return "\n".join(lines)
