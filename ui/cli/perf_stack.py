"""`whichone perf --stack NAME`: what a user of a stack waits for, at full size, on this machine.

Every stage of the `cpu` stack is built from its published architecture with random weights (the same
compute as the real models; nothing is downloaded): SmolVLM-256M (int8, one 512 px tile, models/full_size.py),
OWL-ViT B/32 (int8, 768 px) and SAM 2.1 Hiera-tiny. `cpu-tiny` runs the same code on the tiny local models
(a quick check that the benchmark itself works). The scenario, timed as a user lives it:

1. a photo is uploaded (the segmenter's embedding starts in the background), 3 s of typing;
2. Ask -> first reply: recognition (one forward pass, P(ambiguous)), the detector, one box-prompted mask a
   hit, the policy, and the answer (24 new tokens); the VLM's encoding of the photo (a cached prompt
   prefix, models/prefix_cache.py) is computed on upload, as the app does; then 3 s of reading the reply,
   while the marked copies of its first three candidates are encoded (assistant/ahead.py), as the app does;
3. a region chosen -> its reply (24 new tokens), and 3 s of reading it;
4. the same first turn on a new photo with ZS-ECoT's generated recognition (128 new tokens) instead;
5. the one-pass first turn once more without reusing the photo's encoding: whether the cached prefix pays.

Random weights never stop early (no end-of-sequence token), so the lengths are exactly those. The question
is "What colour are the cups?": a plural question is answered about the whole photo whatever the random
verdict and boxes (the policy's first rule), so both first turns do the same work apart from the
recognition: the detector and a mask for each of the 12 boxes kept, then one answer. (An answer about one
chosen region, as in the second turn, is asked with the region marked on a copy of the photo: the second
turn chooses number 1, whose encoding was made while the user read the first reply.)
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from assistant.errors import WhichoneError
from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig, ReplyText, TurnDone, TurnEvent
from models.base import Describing, GenerationSettings
from models.catalog import get_stack
from models.compute import in_passing_thread
from models.detectors import DetectorPointer
from models.full_size import random_smolvlm_256m
from models.hf_streaming import streaming_classes
from models.hf_vlm import HFVisionLanguageModel
from models.registry import create_pointer, create_segmenter, create_vlm
from models.sam2 import Sam2Segmenter
from ui.cli.perf_memory import StageMemory, format_stages, weights_bytes
from ui.cli.perf_scene import cups_scene

if TYPE_CHECKING:
    from models.base import Pointer, Segmenter, VisionLanguageModel

QUESTION = "What colour are the cups?"
ANSWER_TOKENS, ECOT_TOKENS = 24, 128
READING_S = 3.0  # the user reads each reply, as they type each question (typing_s)
PERF_STACKS = ("cpu", "cpu-tiny")
# Model calls recorded as stages of their own (owner attribute, method, stage name).
_WATCHED = (
    ("vlm", "prepare_image", "upload: VLM photo encoding"),
    ("segmenter", "prepare", "upload: segmenter embedding"),
    ("vlm", "next_token_probabilities", "recognition (VLM)"),
    ("pointer", "point", "grounding: detector"),
    ("segmenter", "candidate_masks", "grounding: masks"),
    ("vlm", "generate_stream", "answer (VLM, streamed)"),
    ("vlm", "generate", "VLM generate (ECoT recognition)"),
)


def _peak_rss_gib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**30 if sys.platform == "darwin" else 2**20)


def build_stack(
    name: str, memory: StageMemory | None = None
) -> tuple[VisionLanguageModel, Pointer, Segmenter]:
    """(vlm, pointer, segmenter) of the stack `name`: full size with random weights for "cpu". Each model's
    build is a stage of `memory` when given."""
    memory = memory or StageMemory()
    if name == "cpu":  # each built in a thread that ends with it, as the registry builds (models/compute.py)
        with memory.stage("build: VLM"):
            vlm = in_passing_thread(_random_smolvlm)
        with memory.stage("build: detector"):
            pointer = in_passing_thread(
                DetectorPointer, "random", family="owlvit", name="owlvit-b32 (random)"
            )
        with memory.stage("build: segmenter"):
            segmenter = in_passing_thread(Sam2Segmenter, "random")
        return vlm, pointer, segmenter
    if name == "cpu-tiny":
        choice = get_stack(name).choice
        with memory.stage("build: VLM"):
            tiny = create_vlm(choice.vlm, device="cpu")
        with memory.stage("build: detector"):
            point = create_pointer(choice.pointer, vlm=tiny)
        with memory.stage("build: segmenter"):
            segment = create_segmenter(choice.segmenter or "")
        return tiny, point, segment
    raise WhichoneError(
        f"perf builds the stacks {', '.join(PERF_STACKS)} at full size; for the gpu stack's CPU-side stage "
        "(SAM 3) use `whichone perf --sam3`"
    )


def _random_smolvlm() -> HFVisionLanguageModel:
    model, processor = random_smolvlm_256m()
    return HFVisionLanguageModel.from_model(model, processor, name="smolvlm-256m (random)", quantise="int8")


class _FirstToken:
    """When the streamed reply's first token came (perf_counter), per turn: the moment its first word can
    be shown. (Random weights' tokens mostly decode to nothing: the 8,192-token tokenizer of a model
    with 49,280 output rows, models/full_size.py; so the first decoded text would come at a random token.)
    Measured where generate() checks whether to stop, once after each new token (models/hf_streaming.py);
    the patch lasts as long as the `with` block."""

    def __init__(self) -> None:
        self.at: float | None = None

    @contextmanager
    def watching(self) -> Iterator[None]:
        stop_when_set = streaming_classes()[1]
        original = stop_when_set.__call__

        def call(criterion: Any, *args: Any, **kwargs: Any) -> Any:
            if self.at is None:
                self.at = time.perf_counter()
            return original(criterion, *args, **kwargs)

        setattr(stop_when_set, "__call__", call)  # noqa: B010 - a class attribute, restored below
        try:
            yield
        finally:
            setattr(stop_when_set, "__call__", original)  # noqa: B010


def _drain(events: Iterator[TurnEvent], t0: float, first: _FirstToken) -> dict[str, Any]:
    """Run a turn's events as the app shows them; the reply, its wall time, when text first showed and
    when the model's first word came (seconds after Enter)."""
    first.at = None
    shown: float | None = None
    done = None
    for event in events:
        if isinstance(event, ReplyText) and shown is None:
            shown = time.perf_counter() - t0
        if isinstance(event, TurnDone):
            done = event
    assert done is not None
    return {
        "done": done,
        "wall_s": time.perf_counter() - t0,
        "first_text_s": shown,
        "first_word_s": None if first.at is None else first.at - t0,
    }


def stack_cost(
    stack: str = "cpu",
    *,
    typing_s: float = 3.0,
    reading_s: float = READING_S,
    size: tuple[int, int] = (640, 480),
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Run the scenario of the module doc; returns the figures (seconds, GiB) with the memory and CPU time
    of each stage."""
    log(f"building the {stack} stack ({'full size, random weights' if stack == 'cpu' else 'tiny'}) ...")
    with StageMemory() as memory:
        start = time.perf_counter()
        vlm, pointer, segmenter = build_stack(stack, memory)
        build_s = time.perf_counter() - start
        weights = {
            kind: weights_bytes(model) / 2**30
            for kind, owner in (("vlm", vlm), ("pointer", pointer), ("segmenter", segmenter))
            if (model := getattr(owner, "_model", None)) is not None
        }
        figures = _scenario(vlm, pointer, segmenter, memory, typing_s, size, log, reading_s)
    return {
        "stack": stack,
        "image": f"{size[0]}x{size[1]}",
        "models": {
            "vlm": vlm.describe(),
            "pointer": pointer.describe() if isinstance(pointer, Describing) else {"name": pointer.name},
            "segmenter": segmenter.describe()
            if isinstance(segmenter, Describing)
            else {"name": segmenter.name},
        },
        "build_s": build_s,
        **figures,
        "weights_gib": weights,
        "stages": memory.as_dict(),
        "sampled_peak_gib": memory.peak / 2**30,
        "peak_rss_gib": _peak_rss_gib(),
    }


@dataclass
class _Scene:
    """The built models and what a turn of the scenario needs to run and be measured."""

    vlm: VisionLanguageModel
    grounder: Grounder
    memory: StageMemory
    first: _FirstToken
    typing_s: float
    reading_s: float
    size: tuple[int, int]

    def turn(self, config: AssistantConfig, variant: int, second: bool, label: str) -> dict[str, Any]:
        """Upload, typing, the first turn, reading; with `second`, a region chosen and its reply, then
        reading again. The figures of the turns."""
        assistant = Assistant(self.vlm, self.grounder, config)
        with self.memory.stage(f"{label}: upload + {self.typing_s:g} s typing"):
            session = assistant.open_image(cups_scene(*self.size, n=4, variant=variant))  # the upload
            time.sleep(self.typing_s)
        with self.memory.stage(f"{label}: first turn"):
            asked = _drain(assistant.ask_events(None, QUESTION, session), time.perf_counter(), self.first)
        reply, session = asked["done"].reply, asked["done"].session
        self._read(label)
        out: dict[str, Any] = {
            "first_turn_s": asked["wall_s"],
            "first_word_s": asked["first_word_s"],
            "first_text_s": asked["first_text_s"],
            "stages": {k: v for k, v in reply.timings.items() if k != "total"},
            "strategy": reply.strategy.value,
            "regions": len(reply.candidates.regions),
            "probability": reply.ambiguity_probability,
        }
        if second and reply.candidates.regions:
            with self.memory.stage(f"{label}: second turn"):
                events = assistant.resolve_events(session, reply.candidates.regions[0].id)
                again = _drain(events, time.perf_counter(), self.first)
            self._read(label)
            out["second_turn_s"] = again["wall_s"]
            out["second_first_word_s"] = again["first_word_s"]
            out["second_stages"] = {k: v for k, v in again["done"].reply.timings.items() if k != "total"}
        return out

    def _read(self, label: str) -> None:
        """The user reads the reply (the choices it lists are encoded meanwhile: assistant/ahead.py)."""
        with self.memory.stage(f"{label}: {self.reading_s:g} s reading"):
            time.sleep(self.reading_s)


def _scenario(
    vlm: VisionLanguageModel,
    pointer: Pointer,
    segmenter: Segmenter,
    memory: StageMemory,
    typing_s: float,
    size: tuple[int, int],
    log: Callable[[str], None],
    reading_s: float = READING_S,
) -> dict[str, Any]:
    """The turns of the module doc on built models; their figures."""
    owners = {"vlm": vlm, "pointer": pointer, "segmenter": segmenter}
    for owner, method, name in _WATCHED:
        if hasattr(owners[owner], method):
            memory.watch(owners[owner], method, name)
    scene = _Scene(vlm, Grounder(pointer, segmenter), memory, _FirstToken(), typing_s, reading_s, size)
    one_pass = AssistantConfig(answer_settings=GenerationSettings(max_new_tokens=ANSWER_TOKENS))
    ecot = replace(
        one_pass,
        recognition_prompt="focus_recognition_zs_ecot",
        recognition_settings=GenerationSettings(max_new_tokens=ECOT_TOKENS),
    )
    log("warm-up turn (one-off costs: first calls of each model) ...")
    scene.turn(one_pass, 100, second=False, label="warm-up")
    log(f"first and second turn, one-pass recognition ({typing_s:g} s typing, {reading_s:g} s reading) ...")
    with scene.first.watching():
        main = scene.turn(one_pass, 101, second=True, label="one-pass")
    log(f"the same first turn with ZS-ECoT recognition ({ECOT_TOKENS} generated tokens) ...")
    with_ecot = scene.turn(ecot, 102, second=False, label="ZS-ECoT")
    no_reuse = None
    if isinstance(vlm, HFVisionLanguageModel) and vlm.reuse_image_prefix:
        log("the one-pass first turn again without reusing the photo's encoding (cached prefix) ...")
        vlm.reuse_image_prefix = False
        no_reuse = scene.turn(one_pass, 103, second=False, label="no prefix reuse")
        vlm.reuse_image_prefix = True
    scene.grounder.close()
    return _scenario_figures(main, with_ecot, no_reuse)


def _scenario_figures(
    main: dict[str, Any], with_ecot: dict[str, Any], no_reuse: dict[str, Any] | None
) -> dict[str, Any]:
    recognition_s, ecot_s = main["stages"]["recognition"], with_ecot["stages"]["recognition"]
    return {
        "one_pass": main,
        "ecot": with_ecot,
        "first_turn_s": main["first_turn_s"],
        "second_turn_s": main.get("second_turn_s"),
        "first_word_s": main["first_word_s"],
        "recognition_s": recognition_s,
        "ecot_recognition_s": ecot_s,
        "recognition_speedup": ecot_s / recognition_s if recognition_s else float("inf"),
        "ecot_first_turn_s": with_ecot["first_turn_s"],
        "without_prefix_reuse": no_reuse,
    }


def format_stack_report(fig: dict[str, Any]) -> str:
    """The figures as lines (without the targets' verdict: ui/cli/perf_check.py adds it)."""
    main, ecot, models = fig["one_pass"], fig["ecot"], fig["models"]

    def stages(parts: dict[str, float]) -> str:
        return ", ".join(f"{k} {v:.2f} s" for k, v in parts.items())

    def seconds(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f} s"

    second, speedup = fig["second_turn_s"], fig["recognition_speedup"]
    lines = [
        f"stack {fig['stack']} on a {fig['image']} photo; built in {fig['build_s']:.1f} s",
        "  models: "
        + "; ".join(
            f"{kind} {m.get('name')} ({m.get('quantisation') or 'float32'})" for kind, m in models.items()
        ),
        "  weights: "
        + ", ".join(f"{kind} {gib * 1024:.0f} MiB" for kind, gib in fig.get("weights_gib", {}).items()),
        f"  question: {QUESTION!r}; answers {ANSWER_TOKENS} tokens, ECoT recognition {ECOT_TOKENS} tokens",
        f"first turn (one-pass recognition): {main['first_turn_s']:.2f} s; first word (the reply's first "
        f"token) {seconds(main['first_word_s'])}; {main['strategy']}, {main['regions']} regions",
        "  stages: " + stages(main["stages"]),
        f"second turn (a region chosen): {second:.2f} s; the model's first word "
        f"{seconds(main.get('second_first_word_s'))}"
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
        f"({speedup:.1f}x)",
        "memory and CPU time by stage (resident set sampled every 5 ms; CPU: user + system, all threads):",
        *format_stages(fig["stages"]),
        f"peak resident memory: {fig['peak_rss_gib']:.2f} GiB (sampled: {fig['sampled_peak_gib']:.2f} GiB)",
    ]
    return "\n".join(lines)
