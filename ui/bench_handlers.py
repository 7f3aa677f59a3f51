"""The benchmark tab's event logic: run a task (progress bar, report), then page through its examples.

Runs use the app's ModelPool for their VLMs (a model the Ask tab holds is not loaded again) and the
benchmark's shared response cache (a rerun asks no model again). Each browser session writes its runs to
a folder of its own under the cache dir: <cache>/bench/ui/<session>/<task>/<model>. Any failure becomes
one line in the status; the tab keeps showing the previous run.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.errors import WhichoneError
from assistant.evaluation.datasets import DatasetUnavailable
from assistant.evaluation.fetch import default_cache_dir
from assistant.evaluation.judges import RULE_JUDGES
from assistant.evaluation.report import all_failed, failure_line, unread_judgings
from assistant.evaluation.runner import RunConfig, RunResult, get_task_or_fail, run_benchmark
from assistant.evaluation.runs import Run
from assistant.evaluation.samples import SAMPLE, SAMPLE_NOTE
from assistant.validation import finite_number
from models.catalog import NO_SEGMENTER
from models.errors import ModelError
from ui.bench_browser import BenchView
from ui.bench_inspect import N_VIEW_OUTPUTS, examples_of, results_outputs, status_html, view_outputs
from ui.engine import ModelPool
from ui.handlers import user_message
from ui.privacy import temp_root
from ui.public import check_bench_request, check_models_allowed, check_new_tokens, public_mode
from ui.state import own_folder

log = logging.getLogger(__name__)

# Small batches: the pooled model serves one generate at a time, so an Ask request waits for at most one
# benchmark batch of this many conversations.
UI_BATCH_SIZE = 4
SKIPPED = 5 + N_VIEW_OUTPUTS  # the run's outputs after its status


def session_dir(request: gr.Request | None) -> Path:
    """This browser session's folder for benchmark runs: under the cache dir, kept for the researcher; in
    public mode a folder in Gradio's temp folder, deleted when the session ends (a visitor's runs leave
    nothing behind)."""
    session = _safe_name(getattr(request, "session_hash", None) or "no-session")
    if public_mode():
        folder = temp_root() / f"bench-run-{session}"
        own_folder(request, folder)
        return folder
    return default_cache_dir() / "bench" / "ui" / session


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "run"


def _int_or_none(value: object, what: str, minimum: int) -> int | None:
    """A whole number >= minimum, or None for an empty box / 0; raises WhichoneError otherwise."""
    if value in (None, ""):
        return None
    number = finite_number(value)
    if number is None:
        raise WhichoneError(f"{what} must be a whole number, not {value!r}")
    if number != int(number) or int(number) < 0:
        raise WhichoneError(f"{what} must be a whole number of at least {minimum} (0 or empty: the default)")
    return int(number) or None


class BenchmarkHandlers:
    def __init__(self, pool: ModelPool) -> None:
        self.pool = pool

    # ---------------------------------------------------------------- running

    def config(
        self,
        task: str,
        model: str,
        judge: str,
        limit: object,
        data: str,
        variants: list[str] | None,
        max_new_tokens: object,
        seed: object,
        segmenter: str,
        pointer: str,
        request: gr.Request | None,
        on_progress: Callable[[str, int, int], None] | None = None,
    ) -> RunConfig:
        """The RunConfig of the form's values; raises WhichoneError with one line for a bad value."""
        found = get_task_or_fail(str(task or ""))
        model = str(model or "").strip()
        if not model:
            raise WhichoneError("choose a model")
        judge_name = str(judge or "").strip()
        # A public demo: only the models it serves, the published datasets, a capped limit (ui/public.py).
        check_models_allowed(
            model,
            None if judge_name in ("", *RULE_JUDGES, "none") else judge_name,
            (pointer or "vlm-boxes") if found.uses_pointer else None,
            segmenter if found.kind.uses_segmenter else None,
        )
        limit = check_bench_request(data, _int_or_none(limit, "the limit", 1))
        max_new = check_new_tokens(_int_or_none(max_new_tokens, "max new tokens", 1))
        return RunConfig(
            task=found.name,
            models=[model],
            judge=(str(judge).strip() or None) if judge else None,
            data=str(data or "").strip() or None,
            variants=list(variants) if variants else None,
            limit=limit,
            seed=_int_or_none(seed, "the seed", 0) or 0,
            out_dir=session_dir(request) / _safe_name(found.name) / _safe_name(model),
            batch_size=UI_BATCH_SIZE,
            max_new_tokens=max_new,
            segmenter=segmenter or NO_SEGMENTER,
            pointer=pointer or "vlm-boxes",
            progress=False,  # no tqdm bar on the server's stderr; the page draws its own
            on_progress=on_progress,
            vlm_factory=self.pool.vlm,
        )

    def run(
        self,
        task: str,
        model: str,
        judge: str,
        limit: object,
        data: str,
        variants: list[str] | None,
        max_new_tokens: object,
        seed: object,
        segmenter: str,
        pointer: str,
        request: gr.Request,
        progress: gr.Progress = gr.Progress(),  # noqa: B008 - Gradio's way to ask for a progress bar
    ) -> tuple[Any, ...]:
        """(status, table, plot, plot text, files, view, *bench_inspect.view_outputs)."""

        def report(model_name: str, done: int, total: int) -> None:
            progress((done, total), desc=f"{model_name}: {done} of {total} answered", unit="answers")

        try:
            progress(0.0, desc="Loading the dataset and the model")
            config = self.config(
                task, model, judge, limit, data, variants, max_new_tokens, seed, segmenter, pointer,
                request, report,
            )  # fmt: skip
            result, config, fallback = _run_or_sample(config)
            made = Run(result.out_dir, result.task, result.summary.to_json(), result.records)
            new_view = BenchView.of_run(made, examples_of(made)[0])
        except (WhichoneError, ModelError) as exc:
            return (status_html(web_words(user_message(exc)), error=True), *[gr.skip()] * SKIPPED)
        except Exception as exc:  # noqa: BLE001 - the app must stay up; the log has the traceback
            log.exception("benchmark run failed")
            first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
            return (
                status_html(f"the run failed ({type(exc).__name__}: {first})", error=True),
                *[gr.skip()] * SKIPPED,
            )
        failed = all_failed(result.records)
        line = _done_line(result, config)
        if fallback is not None:
            line = f"The published data could not be had ({fallback}), so this ran on {SAMPLE_NOTE}. " + line
        return (
            status_html(line, error=failed),
            *results_outputs(new_view, request),
            new_view,
            *view_outputs(new_view),
        )


# ------------------------------------------------------------------------------------------ helpers


def _run_or_sample(config: RunConfig) -> tuple[RunResult, RunConfig, str | None]:
    """The run, or, where the published data cannot be had (offline, not downloaded, by request only) and
    no data was named, the run on the bundled sample with why (said first on the page)."""
    echo = lambda line: log.info("benchmark: %s", line)  # noqa: E731
    try:
        return run_benchmark(config, echo=echo), config, None
    except DatasetUnavailable as exc:
        if config.data is not None:
            raise
        fallback = web_words(str(exc))
        config = replace(config, data=SAMPLE)
        return run_benchmark(config, echo=echo), config, fallback


_CLI_DATA = re.compile(r"pass --data (?:PATH|FOLDER)( to a local copy)?")


def web_words(message: str) -> str:
    """A dataset error as the page says it: the Data field where the CLI's message names `--data` (on a
    public demo, which runs the published data only, that there is no other)."""
    if public_mode():
        said = "this public demo runs on the published data only"
    else:
        said = "put a local copy's path (or URL) in the Data field above"
    return _CLI_DATA.sub(said, message)


def _done_line(result: RunResult, config: RunConfig) -> str:
    errors = [r.error for r in result.records if r.error]
    if all_failed(result.records):  # no result: said first, as an error, never as "Done"
        return (
            f"Every one of the {len(errors)} answers failed, so the run has no result "
            f"({failure_line(result.records, result.summary.n_examples)}), e.g. {errors[0]}"
        )
    # The time of day tells one run from the next when both read the same (a rerun served from the cache).
    line = (
        f"Done: {result.task.name} with {', '.join(config.models)}, {len(result.records)} answers "
        f"({result.summary.n_examples} examples x {len(result.summary.variants)} prompts) "
        f"at {time.strftime('%H:%M:%S')}. {result.model_calls} model calls, {result.cache_hits} answers from "
        "the cache."
    )
    if not public_mode():  # the operator's own machine: where the run's files are kept
        line += f" Files in {result.out_dir}."
    if errors:
        line += f" {len(errors)} failed, e.g. {errors[0]}"
    judge_errors = sum(result.summary.judge_errors.values())
    if judge_errors:  # the judge, not the model, failed: those answers count as unknown in the table
        line += f" {judge_errors} judgement(s) failed and count as unknown."
    unread = unread_judgings(result.records)
    if unread:  # the CLI exits 1 on this: the page says the table holds no result
        which = ", ".join(f"{judging} (all {n} unknown)" for judging, n in unread)
        line += f" Not a result: the judge could read none of the answers for {which}."
    return line
