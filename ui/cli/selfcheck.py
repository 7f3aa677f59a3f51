"""`whichone selfcheck`: whether whichone works on this machine with these weights, in one command.

It loads a stack (one line per model: where its weights came from, device, dtype, quantisation, load time),
then runs every example photo's question (ui/examples) through the whole two-turn flow, as the Ask tab does:
the first turn; where it enumerates or clarifies, a second turn by number (the first candidate) and one by a
typed hint ("the one on the left"). It writes a report a person can read and send: `report.md` and one
overlay PNG per example in one folder (only the bundled example photos: no photo of the user's own).

Each example's record says what a working stack does with it (`expected`: the strategy it shows, the right
number of candidates, words a right answer contains); the report marks each as met or not, with the real
reply beside it. On a stack whose models are random (cpu-tiny, demo, --random-weights) the answers are
noise: the same flow runs and is timed, and the report says so instead of judging the answers. The flow's
own checks (a second turn is about the region chosen; at most 12 candidates are marked) are judged on
every stack.

It never downloads without saying so first: models missing from the Hugging Face cache are listed with
their sizes (`whichone download`'s plan) and fetched only after a yes (or --yes).
"""

from __future__ import annotations

import os
import platform
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

import typer

from assistant.errors import WhichoneError
from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from assistant.settings import settings
from models.base import Pointer, Segmenter, VisionLanguageModel
from models.catalog import ModelChoice, resolve_choice
from models.download import DownloadFailed, download, hub_repos, plan, size_text
from models.errors import ModelError
from models.hub import hub_offline
from models.offline_help import fetch_command, hub_state, missing_weights, what_to_do
from models.registry import create_pointer, create_segmenter, create_vlm, get_spec
from models.spec import ModelKind
from ui.cli.errors import user_errors
from ui.cli.perf_stack import build_stack
from ui.cli.selfcheck_examples import ExampleRun, found_count, run_example
from ui.cli.selfcheck_languages import language_examples, run_language_example
from ui.example_photos import example_photos

Echo = Callable[[str], None]
NOISE = "not judged: this stack's models are random, so its answers are noise"


@dataclass(frozen=True)
class ModelLoad:
    """One model as loaded: what the report's first table says of it."""

    role: str  # vlm, pointer or segmenter
    name: str
    source: str  # where the weights came from
    device: str
    dtype: str
    quantisation: str
    seconds: float


@dataclass
class SelfcheckReport:
    stack: str
    choice: ModelChoice
    noise: bool
    environment: dict[str, str]
    models: list[ModelLoad]
    examples: list[ExampleRun] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)
    peak_memory: str = ""
    seconds: float = 0.0

    @property
    def all_ran(self) -> bool:
        return all(run.ran for run in self.examples)

    def markdown(self) -> str:
        return render_markdown(self)


# ---------------------------------------------------------------- the machine and the versions


def environment() -> dict[str, str]:
    """The versions and the machine, as a report names them."""
    import torch

    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "not installed"

    facts = {
        "whichone": version("whichone"),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": version("transformers"),
        "gradio": version("gradio"),
        "bitsandbytes": version("bitsandbytes"),
        "os": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "cpu": _cpu_model(),
        "cores": str(os.cpu_count() or "unknown"),
        "cuda": "not available",
    }
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        facts["cuda"] = f"{torch.version.cuda} on {props.name}, {props.total_memory / 2**30:.1f} GiB"
    elif getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        facts["cuda"] = "not available (Apple MPS is)"
    return facts


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _peak_memory() -> str:
    import torch

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (2**30 if sys.platform == "darwin" else 2**20)
    text = f"{peak:.2f} GiB resident (peak of the process)"
    if torch.cuda.is_available():
        text += f"; {torch.cuda.max_memory_allocated() / 2**30:.2f} GiB on the GPU"
    return text


# ---------------------------------------------------------------- loading


def is_noise(choice: ModelChoice, random_weights: bool) -> bool:
    """Whether the answers of these models mean nothing: random weights, built here (tiny, demo)."""

    served = not get_spec("vlm", choice.vlm).on_device
    return random_weights or (not served and not hub_repos([choice.vlm]))


def plan_downloads(
    choice: ModelChoice, stack: str, yes: bool, echo: Echo, ask: Callable[[str], bool]
) -> list[str]:
    """Say what the stack's models need from the Hub and fetch it after a yes; returns what could not be
    checked (one line each). Raises WhichoneError when the user says no."""

    repos = hub_repos(choice.models())
    if not repos:
        return []
    if hub_offline():
        return [f"{hub_state()}: the models load from the cache or not at all"]
    try:
        plans = [plan(repo) for repo in repos]
    except DownloadFailed as exc:
        if exc.kind == "unreachable":
            return [f"{hub_state()}: the models load from the cache or not at all"]
        return [f"could not ask the Hub what is missing ({exc}); loading what is cached"]
    missing = [p for p in plans if p.missing_bytes]
    if not missing:
        return []
    size = size_text(sum(p.missing_bytes for p in missing))
    echo(f"selfcheck: {len(missing)} of the stack's repositories are not all here ({size} to fetch):")
    for found in missing:
        echo(f"  {found.repo_id}: {size_text(found.missing_bytes)}")
    if not yes and not ask("Download them now into the Hugging Face cache?"):
        raise WhichoneError(
            f"nothing downloaded; run `whichone download --stack {stack}` first, or pass --yes"
        )
    download([p.repo_id for p in missing], echo=echo)
    return []


def load_models(choice: ModelChoice, random_weights: bool, stack: str) -> tuple[Assistant, list[ModelLoad]]:
    """Build the stack's models one by one, timing each; ModelError / WhichoneError say why one cannot."""

    loads: list[ModelLoad] = []
    if random_weights:
        start = time.perf_counter()
        vlm, pointer, segmenter = build_stack(stack)
        seconds = time.perf_counter() - start
        for role, model in (("vlm", vlm), ("pointer", pointer), ("segmenter", segmenter)):
            loads.append(_model_load(role, model, "random weights, the published architecture", seconds / 3))
        return Assistant(vlm, Grounder(pointer, segmenter), AssistantConfig()), loads

    def source(kind: ModelKind, name: str) -> str:
        spec = get_spec(kind, name)
        if name == "openai":
            return "an OpenAI-compatible server (WHICHONE_OPENAI_BASE_URL)"
        if not spec.on_device:
            return f"a server ({name})"
        return f"{spec.hub_id} (Hugging Face cache)" if spec.hub_id else "built here (nothing to download)"

    start = time.perf_counter()
    vlm_model: VisionLanguageModel = create_vlm(choice.vlm)
    loads.append(_model_load("vlm", vlm_model, source("vlm", choice.vlm), time.perf_counter() - start))
    start = time.perf_counter()
    point: Pointer = create_pointer(choice.pointer, vlm=vlm_model)
    loads.append(
        _model_load("pointer", point, source("pointer", choice.pointer), time.perf_counter() - start)
    )
    segment: Segmenter | None = None
    if choice.segmenter:
        start = time.perf_counter()
        segment = create_segmenter(choice.segmenter)
        seconds = time.perf_counter() - start
        loads.append(_model_load("segmenter", segment, source("segmenter", choice.segmenter), seconds))
    return Assistant(vlm_model, Grounder(point, segment), AssistantConfig()), loads


def _model_load(role: str, model: object, source: str, seconds: float) -> ModelLoad:
    describe = getattr(model, "describe", None)
    facts: dict[str, Any] = describe() if callable(describe) else {}
    return ModelLoad(
        role=role,
        name=str(facts.get("name") or getattr(model, "name", type(model).__name__)),
        source=source,
        device=str(facts.get("device", "cpu")),
        dtype=str(facts.get("dtype", "-")),
        quantisation=str(facts.get("quantisation") or "none"),
        seconds=seconds,
    )


# ---------------------------------------------------------------- the examples


def example_line(number: int, run: ExampleRun) -> str:
    """The terminal's line for one example."""
    first = run.first
    if first is None:
        return f"{number}. {run.photo.name}: FAILED: {run.turns[0].error}"
    judged = [c for c in run.checks if c.met is not None]
    met = sum(bool(c.met) for c in judged)
    seconds = sum(t.seconds for t in run.turns)
    return (
        f"{number}. {run.photo.name}: {first.strategy.value}, {len(first.candidates.regions)} marked, "
        f"{met}/{len(judged)} checks met, {seconds:.1f} s"
    )


# ---------------------------------------------------------------- the whole check


def selfcheck(
    stack: str | None,
    out: Path,
    *,
    yes: bool = False,
    random_weights: bool = False,
    languages: bool = False,
    echo: Echo = print,
    ask: Callable[[str], bool] = lambda question: False,
) -> SelfcheckReport:
    """Load the stack, run every example, write `out`/report.md and the overlays; returns the report.
    Raises WhichoneError / ModelError (one line) when the stack cannot load."""
    from tqdm import tqdm

    began = time.perf_counter()
    current = settings()
    stack_name, choice = resolve_choice(
        stack or current.stack, vlm=current.model, pointer=current.pointer, segmenter=current.segmenter
    )
    if random_weights and stack_name != "cpu":
        raise WhichoneError("--random-weights builds the cpu stack's published architecture; use --stack cpu")
    noise = is_noise(choice, random_weights)
    not_run = [] if random_weights else plan_downloads(choice, stack_name, yes, echo, ask)
    echo(f"selfcheck: loading the {stack_name} stack ({choice.label()})")
    try:
        assistant, loads = load_models(choice, random_weights, stack_name)
    except (ModelError, WhichoneError) as exc:
        report_path = write_not_loaded(out, stack_name, choice, exc, not_run, time.perf_counter() - began)
        raise StackNotLoaded(not_loaded_line(stack_name, choice, exc, report_path)) from exc
    for load in loads:
        echo(
            f"  {load.role}: {load.name} from {load.source}; {load.device}, {load.dtype}, "
            f"quantisation {load.quantisation}; {load.seconds:.1f} s"
        )
    out.mkdir(parents=True, exist_ok=True)
    report = SelfcheckReport(stack_name, choice, noise, environment(), loads, not_run=not_run)
    photos = example_photos()
    in_languages = language_examples() if languages else ()
    with tqdm(total=len(photos) + len(in_languages), desc="examples", unit="photo", file=sys.stderr) as bar:
        for number, photo in enumerate(photos, start=1):
            run = run_example(assistant, photo, number, out, noise)
            report.examples.append(run)
            bar.write(example_line(number, run))
            bar.update(1)
        for number, example in enumerate(in_languages, start=len(photos) + 1):
            run = run_language_example(assistant, example, number, out, noise)
            report.examples.append(run)
            bar.write(example_line(number, run))
            bar.update(1)
    report.not_run.append(BENCHMARKS_NOT_RUN)
    report.peak_memory = _peak_memory()
    report.seconds = time.perf_counter() - began
    (out / "report.md").write_text(report.markdown(), encoding="utf-8")
    return report


# ---------------------------------------------------------------- the report

# The benchmarks are not part of a selfcheck; the bundled sample lets a user run each task offline.
BENCHMARKS_NOT_RUN = (
    "the benchmarks: a small sample of each paper's data is bundled (5 photos; its numbers say nothing "
    "about a model): `whichone bench run TASK --model NAME --data sample` runs a task on it offline; the "
    "papers' own data is fetched with `whichone bench fetch TASK` (`whichone bench list` names the tasks)"
)


class StackNotLoaded(WhichoneError):
    """The stack could not load; the message ends with where the report that lists what is missing went."""


def not_loaded_line(stack: str, choice: ModelChoice, error: BaseException, report: Path) -> str:
    """The one line the terminal shows when the stack could not load."""
    missing = missing_weights(choice.models())
    if not missing:
        return f"{error} (report: {report})"
    listed = ", ".join(m.line() for m in missing)
    return (
        f"the {stack} stack could not load: {hub_state()}, and {len(missing)} of its models are not here: "
        f"{listed}. The report says what to do and the commands that fetch them: {report}"
    )


def write_not_loaded(
    out: Path, stack: str, choice: ModelChoice, error: BaseException, notes: list[str], seconds: float
) -> Path:
    """report.md for a stack that could not load: why, each missing model with its size and the command
    that fetches it, and the ways out."""
    missing = missing_weights(choice.models())
    lines = [
        f"# whichone selfcheck: the {stack} stack could not load",
        "",
        f"Models: {choice.label()}. Took {seconds:.0f} s. No example ran.",
        "",
        "## Why",
        "",
        str(error),
        "",
        "## Missing models",
        "",
    ]
    if missing:
        lines += ["| model | Hub repository | size | fetch with |", "|---|---|---|---|"]
        lines += [f"| {m.name} | {m.repo} | {m.size} | `whichone download {m.name}` |" for m in missing]
        lines += ["", f"All of the stack's at once: `{fetch_command(stack)}`.", ""]
    else:
        lines += ["- none: every model's weights are in the Hugging Face cache here.", ""]
    lines += ["## What to do", "", what_to_do(stack, choice.models()).removeprefix("What to do: ")]
    lines += ["", "## Notes", ""]
    lines += [f"- {note}" for note in [*notes, BENCHMARKS_NOT_RUN]]
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(report: SelfcheckReport) -> str:
    lines = [
        f"# whichone selfcheck: the {report.stack} stack",
        "",
        f"Models: {report.choice.label()}. Took {report.seconds:.0f} s; {report.peak_memory}.",
        "",
    ]
    if report.noise:
        lines += [
            f"**The answers are noise**: {NOISE.split(': ', 1)[1]}. The flow ran and is timed; the "
            "examples' expected outcomes are not judged.",
            "",
        ]
    judged = [c for run in report.examples for c in run.checks if c.met is not None]
    met = sum(bool(c.met) for c in judged)
    ran = sum(run.ran for run in report.examples)
    lines += [
        "## Summary",
        "",
        f"- {ran} of {len(report.examples)} examples ran through every turn.",
        f"- {met} of {len(judged)} judged checks met.",
        "",
        "## Machine and versions",
        "",
        "| | |",
        "|---|---|",
        *[f"| {key} | {_cell(value)} |" for key, value in report.environment.items()],
        "",
        "## Models",
        "",
        "| role | model | from | device | dtype | quantisation | load (s) |",
        "|---|---|---|---|---|---|---|",
        *[
            f"| {m.role} | {_cell(m.name)} | {_cell(m.source)} | {m.device} | {m.dtype} | {m.quantisation} "
            f"| {m.seconds:.1f} |"
            for m in report.models
        ],
        "",
    ]
    for number, run in enumerate(report.examples, start=1):
        lines += _example_markdown(number, run)
    lines += ["## Not run", ""]
    lines += [f"- {item}" for item in report.not_run] or ["- nothing"]
    return "\n".join(lines) + "\n"


def _example_markdown(number: int, run: ExampleRun) -> list[str]:
    photo, first = run.photo, run.first
    lines = [f'## {number}. {photo.name}: "{photo.question}"', ""]
    if first is not None:
        probability = (
            "" if first.ambiguity_probability is None else f", P(ambiguous) {first.ambiguity_probability:.2f}"
        )
        lines += [
            f"Verdict {first.verdict.value}{probability}; strategy **{first.strategy.value}**; "
            f"{len(first.candidates.regions)} candidates marked ({found_count(first)} found).",
            "",
        ]
        if run.overlay:
            lines += [f"![{_cell(photo.alt)} With the candidates numbered.]({run.overlay})", ""]
        for region in first.candidates.regions:
            lines.append(f"- {region.id}: {_cell(region.description)}, box {region.box.as_list()}")
        lines.append("")
    lines += ["| check | met | seen |", "|---|---|---|"]
    for check in run.checks:
        met = "not judged" if check.met is None else ("met" if check.met else "**not met**")
        lines.append(f"| {_cell(check.what)} | {met} | {_cell(check.seen)} |")
    lines += ["", "| turn | reply | time (s) | stages (s) |", "|---|---|---|---|"]
    for turn in run.turns:
        if turn.reply is None:
            lines.append(f"| {turn.label} | failed: {_cell(turn.error)} | {turn.seconds:.2f} | |")
            continue
        stages = ", ".join(f"{k} {v:.2f}" for k, v in sorted(turn.reply.timings.items()) if k != "total")
        lines.append(f"| {_cell(turn.label)} | {_cell(turn.reply.text)} | {turn.seconds:.2f} | {stages} |")
    return [*lines, ""]


@user_errors
def selfcheck_command(
    stack: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Stack (default: WHICHONE_STACK, else cpu or gpu by CUDA)."),
    ] = None,
    out: Annotated[Path, typer.Option(help="The report's folder (report.md and the overlays).")] = Path(
        "whichone-selfcheck"
    ),
    yes: Annotated[bool, typer.Option("--yes", help="Download missing models without asking.")] = False,
    random_weights: Annotated[
        bool,
        typer.Option(
            "--random-weights",
            help="The cpu stack's published architecture, random weights (timings only; answers are noise).",
        ),
    ] = False,
    languages: Annotated[
        bool,
        typer.Option(
            "--languages",
            help="Also ask the example photos in es, fr, de, pt, it and zh (ui/examples/languages.json).",
        ),
    ] = False,
) -> None:
    """Whether whichone works here: load a stack, run every example photo through both turns, and write a
    report (markdown and overlays) that says what was expected, what happened and how long it took.

    Exit status: 0 every example ran; 1 some example failed (the report says which); 2 the stack could not
    load (report.md still lists each missing model, its size and the command that fetches it) or an
    option was wrong."""

    report = selfcheck(
        stack,
        out,
        yes=yes,
        random_weights=random_weights,
        languages=languages,
        echo=typer.echo,
        ask=lambda q: typer.confirm(q),
    )
    judged = [c for run in report.examples for c in run.checks if c.met is not None]
    typer.echo(
        f"selfcheck: {sum(run.ran for run in report.examples)} of {len(report.examples)} examples ran; "
        f"{sum(bool(c.met) for c in judged)} of {len(judged)} judged checks met"
        + (" (answers are noise: not judged)" if report.noise else "")
        + f"; {report.seconds:.0f} s; report: {out / 'report.md'}"
    )
    if not report.all_ran:
        raise typer.Exit(1)
