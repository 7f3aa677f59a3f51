"""`whichone bench fetch TASK`: everything a task's run reads from the network, fetched ahead, so the run
itself can go offline (WHICHONE_OFFLINE=1).

The dataset files (AQuA's split folder, ClearVQA's table and images) are downloaded by loading the task's
dataset; each example's image URL is then fetched into the image cache the runner reads. A fetch resumes:
what is cached already is not fetched again, and a rerun after an interruption fetches only the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.evaluation.fetch import ImageFetcher, ImageUnavailable
from assistant.evaluation.runner import RunConfig, _task_examples, get_task_or_fail


@dataclass
class FetchReport:
    """What a fetch did: images already cached, fetched now, failed (with the first reason)."""

    task: str
    examples: int
    cached: int = 0
    fetched: int = 0
    local: int = 0  # images in the dataset's own files (paths or embedded bytes): nothing to fetch
    failed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        parts = [
            f"{self.task}: {self.examples} examples",
            f"{self.cached} images already cached",
            f"{self.fetched} fetched",
        ]
        if self.local:
            parts.append(f"{self.local} in the dataset's own files")
        if self.failed:
            parts.append(f"{len(self.failed)} failed (first: {self.failed[0]})")
        return "; ".join(parts)

    @property
    def complete(self) -> bool:
        return not self.failed


def fetch_task(config: RunConfig, progress: Callable[[int, int], None] | None = None) -> FetchReport:
    """Fetch what task `config.task` reads (its dataset and, for URL images, each image) for the examples a
    run with the same --data / --split / --limit / --seed would use."""
    task = get_task_or_fail(config.task)
    notes: list[str] = []
    examples = _task_examples(task, config, notes)
    report = FetchReport(task.name, len(examples), notes=notes)
    fetcher = ImageFetcher()
    for done, example in enumerate(examples, start=1):
        ref = example.image
        if ref.kind != "url":
            report.local += 1
        elif fetcher.cached_path(ref.location).is_file():
            report.cached += 1
        else:
            try:
                fetcher.fetch(ref)
                report.fetched += 1
            except ImageUnavailable as exc:
                report.failed.append(str(exc))
        if progress is not None:
            progress(done, len(examples))
    return report
