"""`whichone perf`: the grounding stage's figures on this machine (a benchmark that prints, not a test).

(a) a further click on an image already embedded vs the first query on it (embedding + one point);
(b) a first turn with the embedding started on upload, in the background, overlapping the user's typing
    and the VLM's recognition call: its wall time beside the sum of its parts;
(c) K points batched in one call vs K calls of one point;
(d) a lighter segmenter's embedding time beside the main one's;
(e) with --sam3: SAM 3 (the gpu stack's one-model grounder) at full size, one call (phrase -> instances) on
    this CPU, first and second call, and the process's resident memory after it;
and the peak memory (resident set of the process, and Python's own allocations by tracemalloc; torch's
tensors are not Python allocations, so the resident peak is the one that counts).

The scene is synthetic (coloured cups on a plain background, drawn here), so the blobs pointer finds real
regions and nothing is read from disk. With random weights (the default here: no checkpoints on this machine)
the compute and so the timings are those of the real weights; the masks are noise.
"""

from __future__ import annotations

import json
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from PIL import Image

from assistant.errors import WhichoneError
from assistant.grounding import Grounder
from models.base import ChatMessage, Describing, GenerationSettings
from models.errors import ModelError
from models.registry import create_pointer, create_segmenter, create_vlm
from models.tiny import default_cache_dir
from prompts import render_prompt
from ui.cli.perf_check import CHECKS, Targets, check_stack
from ui.cli.perf_scene import cups_scene
from ui.cli.perf_stack import format_stack_report, stack_cost

if TYPE_CHECKING:
    from models.base import Segmenter


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _best_time(fn: Callable[[], object], repeats: int) -> float:
    # Best of N, as timeit does: the slower runs measure other processes on the machine, not this code.
    return min(_time(fn) for _ in range(max(1, repeats)))


def _rss_mib() -> float:
    # Linux reports ru_maxrss in KiB, macOS in bytes.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def run_perf(
    segmenter: str = "sam-vit-b",
    light: str | None = "sam2-hiera-tiny",
    checkpoint: str | None = "random",
    light_checkpoint: str | None = "random",
    vlm: str | None = "tiny",
    size: tuple[int, int] = (640, 480),
    k: int = 5,
    typing_s: float = 3.0,
    repeats: int = 5,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Measure (a)-(d) and peak memory; returns the figures as a dict (seconds, ratios, MiB)."""

    tracemalloc.start()
    width, height = size
    out: dict[str, Any] = {"image": f"{width}x{height}", "segmenter": segmenter, "k": k}

    log(f"loading {segmenter} ({checkpoint or 'default weights'}) ...")
    seg = create_segmenter(segmenter, **({"checkpoint": checkpoint} if checkpoint else {}))
    out["segmenter_name"] = seg.name
    image = cups_scene(width, height, n=k, variant=1)
    point = np.array([[width * 0.5, height * 0.55]])
    out["a"] = _first_query_vs_click(seg, image, point, repeats, log)
    out["c"] = _batched_vs_singles(seg, image, k, repeats, log)
    out["b"] = _first_turn(seg, image, vlm, k, typing_s, out["a"]["embedding_s"], log)
    if light:
        out["d"] = _lighter_segmenter(light, light_checkpoint, point, size, k, repeats, out["a"], log)
    _, py_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out["memory"] = {"peak_rss_mib": _rss_mib(), "python_peak_mib": py_peak / 2**20}
    return out


def _first_query_vs_click(
    seg: Segmenter, image: Image.Image, point: np.ndarray, repeats: int, log: Callable[[str], None]
) -> dict[str, float]:
    """(a) the first query on a new image (embedding + one point) against a further click on it."""
    log("(a) first query: embedding + one point ...")
    embed_s = _time(lambda: seg.prepare(image))
    first_point_s = _time(lambda: seg.segment_points(image, point))
    click_s = _best_time(
        lambda: seg.segment_points(image, point + np.random.uniform(-20, 20, (1, 2))), repeats
    )
    first_s = embed_s + first_point_s
    return {
        "embedding_s": embed_s,
        "first_query_s": first_s,
        "further_click_s": click_s,
        "ratio": first_s / click_s,
        "required_ratio": 100.0,
    }


def _batched_vs_singles(
    seg: Segmenter, image: Image.Image, k: int, repeats: int, log: Callable[[str], None]
) -> dict[str, Any]:
    """(c) K points batched against K single calls, on the same embedded image."""

    width, height = image.size
    points = np.array([[width * (i + 1) / (k + 1), height * 0.55] for i in range(k)])
    log(f"(c) {k} points batched vs one by one ...")
    # Interleaved, so a burst of load from elsewhere hits both figures alike; best of each.
    batched_runs, singles_runs = [], []
    for _ in range(max(1, repeats)):
        batched_runs.append(_time(lambda: seg.segment_points(image, points)))
        singles_runs.append(_time(lambda: [seg.segment_points(image, points[i : i + 1]) for i in range(k)]))
    batched_s, singles_s = min(batched_runs), min(singles_runs)
    return {
        "batched_s": batched_s,
        "singles_s": singles_s,
        "batched_over_singles": batched_s / singles_s,
        # how many prompts one decoder call takes: "all" on CUDA, a small batch on a CPU (segment_common)
        "prompts_per_batch": (
            seg.describe().get("prompts_per_batch", "all") if isinstance(seg, Describing) else "all"
        ),
    }


def _first_turn(
    seg: Segmenter,
    image: Image.Image,
    vlm: str | None,
    k: int,
    typing_s: float,
    embed_s: float,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """(b) a first turn: upload -> typing -> recognition (VLM) -> pointer -> masks, the embedding in the
    background; its parts one at a time, then as they run in the turn."""

    width, height = image.size
    model = create_vlm(vlm) if vlm else None
    grounder = Grounder(create_pointer("blobs"), seg)
    settings = GenerationSettings(max_new_tokens=32)
    prompt = render_prompt("focus_recognition_zs", question="What colour is the cup?")

    def recognition(img: Image.Image) -> None:
        if model is not None:
            model.generate([ChatMessage("user", prompt, [img])], settings)

    if model is not None:
        recognition(image)  # warm-up: the first generate pays one-off costs the figure should not carry
    log("(b) the parts one at a time ...")
    parts = {
        "typing_s": typing_s,
        "embedding_s": embed_s,
        "recognition_s": _best_time(lambda: recognition(image), 3),
        # the embedding cached: pointer + masks
        "pointer_and_masks_s": _best_time(lambda: grounder.candidates(image, "cup"), 3),
    }
    turn_image = cups_scene(width, height, n=k, variant=2)  # a new hash: nothing cached for it yet
    log(f"(b) the first turn, embedding in the background, {typing_s:.1f} s of typing simulated ...")
    turn = _turn_in_background(grounder, turn_image, recognition, typing_s)
    grounder.close()
    return {
        "parts_alone": parts,
        "sequential_s": sum(parts.values()),
        **turn,
        "vlm": getattr(model, "name", None),
    }


def _turn_in_background(
    grounder: Grounder, image: Image.Image, recognition: Callable[[Image.Image], None], typing_s: float
) -> dict[str, Any]:
    """(b)'s turn on a new photo: its embedding started on upload, typing, recognition, then the grounding
    (which waits for the embedding if it is still running); its wall time beside the sum of its parts."""
    start = time.perf_counter()
    done_at: list[float] = []
    future = grounder.prepare(image)  # on upload
    if future is not None:
        future.add_done_callback(lambda _: done_at.append(time.perf_counter()))
    time.sleep(typing_s)  # the user types the question
    t = time.perf_counter()
    recognition(image)
    turn_recognition_s = time.perf_counter() - t
    t = time.perf_counter()
    candidates = grounder.candidates(image, "cup")  # waits for the background embedding if still running
    turn_grounding_s = time.perf_counter() - t
    wall_s = time.perf_counter() - start
    background_s = (done_at[0] - start) if done_at else 0.0
    # The same turn's parts as they ran (the embedding in the background, queued with the recognition call
    # on the compute thread, models/compute.py), and the grounding after it minus the wait for the embedding.
    waited_s = max(0.0, background_s - (typing_s + turn_recognition_s))
    turn_parts = {
        "typing_s": typing_s,
        "embedding_s": background_s,
        "recognition_s": turn_recognition_s,
        "pointer_and_masks_s": max(0.0, turn_grounding_s - waited_s),
    }
    return {
        "parts_in_turn": turn_parts,
        "sum_of_parts_s": sum(turn_parts.values()),
        "wall_s": wall_s,
        "saved_s": sum(turn_parts.values()) - wall_s,
        "regions": len(candidates),
    }


def _lighter_segmenter(
    light: str,
    light_checkpoint: str | None,
    point: np.ndarray,
    size: tuple[int, int],
    k: int,
    repeats: int,
    main: dict[str, float],
    log: Callable[[str], None],
) -> dict[str, Any]:
    """(d) the lighter segmenter's embedding and click against the main one's from (a)."""

    log(f"(d) lighter segmenter {light} ...")
    width, height = size
    light_seg = create_segmenter(light, **({"checkpoint": light_checkpoint} if light_checkpoint else {}))
    light_image = cups_scene(width, height, n=k, variant=3)
    # The first image compares like for like with the main segmenter's first embedding in (a); a second,
    # new image shows how much of that was one-off warm-up.
    light_embed_s = _time(lambda: light_seg.prepare(light_image))
    light_second_s = _time(lambda: light_seg.prepare(cups_scene(width, height, n=k, variant=4)))
    light_click_s = _best_time(lambda: light_seg.segment_points(light_image, point), repeats)
    return {
        "light": light_seg.name,
        "light_embedding_s": light_embed_s,
        "light_second_embedding_s": light_second_s,
        "main_embedding_s": main["embedding_s"],
        "speedup": main["embedding_s"] / light_embed_s,
        "light_click_s": light_click_s,
        "main_click_s": main["further_click_s"],
    }


def sam3_cost(log: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """(e) One SAM 3 call at full size (transformers' Sam3Config defaults: the published architecture,
    random weights, the same compute): a 1008 x 1008 input and a 32-token phrase, as Sam3Processor makes
    them, timed twice (the first includes one-off warm-up)."""
    import torch
    from transformers import Sam3Config, Sam3Model

    log("(e) SAM 3 at full size, random weights ...")
    start = time.perf_counter()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = Sam3Model(Sam3Config()).eval()
    build_s = time.perf_counter() - start
    size = model.config.image_size
    pixels = torch.randn(1, 3, size, size)
    ids = torch.randint(0, model.config.text_config.vocab_size, (1, 32))
    mask = torch.ones_like(ids)

    def call() -> None:
        with torch.inference_mode():
            model(pixel_values=pixels, input_ids=ids, attention_mask=mask)

    first_s = _time(call)
    second_s = _time(call)
    return {
        "parameters_m": sum(p.numel() for p in model.parameters()) / 1e6,
        "input": f"{size}x{size}",
        "build_s": build_s,
        "first_call_s": first_s,
        "second_call_s": second_s,
        "peak_rss_mib": _rss_mib(),
    }


def format_report(fig: dict[str, Any]) -> str:
    a, b, c = fig["a"], fig["b"], fig["c"]
    met = "met" if a["ratio"] >= a["required_ratio"] else "NOT met"
    lines = [
        f"grounding performance on a {fig['image']} image, segmenter {fig['segmenter_name']}",
        "",
        "(a) first query vs a further click on the same image",
        f"    embedding {a['embedding_s']:.2f} s; "
        f"first query (embedding + 1 point) {a['first_query_s']:.2f} s",
        f"    further click {a['further_click_s'] * 1000:.0f} ms  ->  {a['ratio']:.0f}x cheaper "
        f"(required >= {a['required_ratio']:.0f}x: {met})",
        "(b) first turn, embedding started on upload in the background",
        "    its parts: " + _parts(b["parts_in_turn"]),
        f"    sum of its parts {b['sum_of_parts_s']:.2f} s; wall time {b['wall_s']:.2f} s; overlap saved "
        f"{b['saved_s']:.2f} s ({b['regions']} regions; recognition VLM: {b['vlm']})",
        "    the parts alone, one after another: "
        + _parts(b["parts_alone"])
        + f" = {b['sequential_s']:.2f} s",
        f"(c) {fig['k']} points: batched {c['batched_s'] * 1000:.0f} ms "
        f"vs one by one {c['singles_s'] * 1000:.0f} ms"
        f"  ->  ratio {c['batched_over_singles']:.2f} (<= 1 means batching is no slower; "
        f"prompts per decoder call: {c.get('prompts_per_batch', 'all')})",
    ]
    if "d" in fig:
        d = fig["d"]
        lines.append(
            f"(d) lighter segmenter {d['light']}: embedding {d['light_embedding_s']:.2f} s vs "
            f"{d['main_embedding_s']:.2f} s ({d['speedup']:.1f}x faster; a second image "
            f"{d['light_second_embedding_s']:.2f} s); click {d['light_click_s'] * 1000:.0f} ms "
            f"vs {d['main_click_s'] * 1000:.0f} ms"
        )
    if "e" in fig:
        e = fig["e"]
        lines.append(
            f"(e) SAM 3 ({e['parameters_m']:.0f}M parameters, {e['input']} input) one call, phrase -> every "
            f"instance: {e['first_call_s']:.1f} s, again {e['second_call_s']:.1f} s; "
            f"resident {e['peak_rss_mib']:.0f} MiB"
        )
    m = fig["memory"]
    lines.append(
        f"peak memory: {m['peak_rss_mib']:.0f} MiB resident; "
        f"Python allocations {m['python_peak_mib']:.1f} MiB"
    )
    return "\n".join(lines)


def _parts(parts: dict[str, float]) -> str:
    return ", ".join(f"{name.removesuffix('_s')} {seconds:.2f} s" for name, seconds in parts.items())


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise WhichoneError(f"--size takes WIDTHxHEIGHT, e.g. 640x480; got {text!r}.") from None
    if not (16 <= w <= 4096 and 16 <= h <= 4096):
        raise WhichoneError("--size must be between 16 and 4096 pixels a side.")
    return w, h


def run_stack_check(
    stack: str, targets: Targets, check: str, typing_s: float, size: str, as_json: bool
) -> int:
    """`whichone perf --stack`: measure, print beside the previous run, save; the exit status (0 when the
    checked targets are met, 1 when one is missed, 2 on an error)."""
    try:
        if check not in CHECKS:
            raise WhichoneError(f"--check takes one of {', '.join(CHECKS)}; got {check!r}.")
        figures = stack_cost(
            stack,
            typing_s=max(0.0, typing_s),
            size=_size(size),
            log=lambda m: typer.echo(m, err=True),
        )
    except (WhichoneError, ModelError) as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    lines, missed = check_stack(figures, targets, check, default_cache_dir())
    if as_json:
        typer.echo(json.dumps(figures, indent=2, default=str))
    else:
        typer.echo(format_stack_report(figures))
        typer.echo("\n".join(lines))
    if missed:
        typer.echo(f"perf: {', '.join(missed)} missed the target", err=True)
        return 1
    return 0


def run_grounding_report(options: dict[str, Any], sam3: bool, as_json: bool) -> int:
    """`whichone perf` without --stack: measure (a)-(d) (and (e) with `sam3`) with the command's `options`
    as typed, print the report; the exit status (0, or 2 on an error)."""

    def log(message: str) -> None:
        typer.echo(message, err=True)

    def given(name: str, none: str) -> Any:
        return None if options[name] == none else options[name]

    try:
        if not 1 <= options["k"] <= 64:
            raise WhichoneError("--k must be between 1 and 64.")
        figures = run_perf(
            segmenter=options["segmenter"],
            light=given("light", "none"),
            checkpoint=given("checkpoint", "default"),
            light_checkpoint=given("light_checkpoint", "default"),
            vlm=given("vlm", "none"),
            size=_size(options["size"]),
            k=options["k"],
            typing_s=max(0.0, options["typing_s"]),
            repeats=options["repeats"],
            log=log,
        )
        if sam3:
            figures["e"] = sam3_cost(log=log)
    except (WhichoneError, ModelError) as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    typer.echo(json.dumps(figures, indent=2) if as_json else format_report(figures))
    return 0


def perf(
    segmenter: Annotated[str, typer.Option(help="Main segmenter registry name.")] = "sam-vit-b",
    light: Annotated[
        str, typer.Option(help="Lighter segmenter for (d); 'none' to skip.")
    ] = "sam2-hiera-tiny",
    checkpoint: Annotated[
        str, typer.Option(help="Main segmenter weights: a path, 'random' or 'default'.")
    ] = "random",
    light_checkpoint: Annotated[
        str, typer.Option(help="Light segmenter weights: 'random' or 'default'.")
    ] = "random",
    vlm: Annotated[
        str, typer.Option(help="VLM for the recognition call in (b); 'none' to skip it.")
    ] = "tiny",
    size: Annotated[str, typer.Option(help="Image size WIDTHxHEIGHT.")] = "640x480",
    k: Annotated[int, typer.Option(help="Points for the batching figure (c).")] = 5,
    typing_s: Annotated[float, typer.Option(help="Seconds of simulated typing in (b).")] = 3.0,
    repeats: Annotated[int, typer.Option(help="Repeats of each short measurement (best of).")] = 5,
    sam3: Annotated[
        bool, typer.Option("--sam3", help="Also (e): SAM 3 at full size on this CPU (about a minute).")
    ] = False,
    stack: Annotated[
        str | None,
        typer.Option(help="Instead: a whole stack's first and second turn at full size (cpu; cpu-tiny)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    max_first_turn_s: Annotated[float, typer.Option(help="--stack target: first turn, seconds.")] = 2.0,
    max_second_turn_s: Annotated[float, typer.Option(help="--stack target: second turn, seconds.")] = 1.2,
    max_first_word_s: Annotated[
        float, typer.Option(help="--stack target: the reply's first word after Enter, seconds.")
    ] = 1.5,
    max_peak_gib: Annotated[float, typer.Option(help="--stack target: peak resident memory, GiB.")] = 2.5,
    check: Annotated[
        str, typer.Option(help="--stack: targets that decide the exit status: all, memory or none.")
    ] = "all",
) -> None:
    """Measure the grounding stage: (a) click vs first query, (b) background embedding overlap,
    (c) batched points, (d) a lighter segmenter, and peak memory. With --stack: what a user of that stack
    waits for and the memory of each stage (ui/cli/perf_stack.py), beside the previous run; exits 1
    when a target is missed (ui/cli/perf_check.py)."""
    if stack:
        targets = Targets(max_first_turn_s, max_second_turn_s, max_first_word_s, max_peak_gib)
        code = run_stack_check(stack, targets, check, typing_s, size, as_json)
    else:
        options = {"segmenter": segmenter, "light": light, "checkpoint": checkpoint, "vlm": vlm, "k": k}
        options |= {"light_checkpoint": light_checkpoint, "size": size, "typing_s": typing_s}
        code = run_grounding_report(options | {"repeats": repeats}, sam3, as_json)
    if code:
        raise typer.Exit(code)
