"""`whichone download`: fetch every file a stack's (or a model's) loaders read into the Hugging Face cache
ahead of time, so an offline machine starts with `HF_HUB_OFFLINE=1`.

huggingface_hub does the work (`snapshot_download`, which resumes an interrupted file and honours HF_HOME,
HF_ENDPOINT for a mirror and HF_TOKEN / `hf auth login` for gated models such as SAM 3); only the
files the transformers loaders read are fetched (LOADER_FILES: configs, safetensors weights, tokenizer and
processor files), never a repository's duplicate `.bin` / ONNX / TF weights. `dry_run` lists each
repository's files and sizes (and what is already cached) without downloading.

Every failure a user can meet is one line (DownloadFailed): a gated model without access, a repository that
does not exist, a Hub or mirror that cannot be reached, a full disk.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from models.catalog import get_stack
from models.errors import ModelError, error_chain, first_line
from models.hub import gated_help
from models.offline_help import catalog_gigabytes, catalog_size, hub_cache, hub_state, is_cached
from models.registry import list_models

# What transformers' from_pretrained reads for the models whichone registers.
LOADER_FILES = ("*.json", "*.safetensors", "*.txt", "*.jinja", "*.model", "*.tiktoken")


DownloadFailure = Literal["gated", "missing", "offline", "unreachable", "disk", "other"]


class DownloadFailed(ModelError):
    """A download that cannot be done; the message says why and what to do, in one line. `kind` says which
    failure ("unreachable": the Hub or mirror could not be reached; "other": a transfer broke off)."""

    def __init__(self, message: str, kind: DownloadFailure = "other") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class RepoFiles:
    """One repository's files as the loaders need them: (name, bytes or None, already cached)."""

    repo_id: str
    files: tuple[tuple[str, int | None, bool], ...]

    @property
    def total_bytes(self) -> int:
        return sum(size or 0 for _, size, _ in self.files)

    @property
    def missing_bytes(self) -> int:
        return sum(size or 0 for _, size, cached in self.files if not cached)


def repos_for(names: Sequence[str], stack: str | None) -> list[str]:
    """The Hub repositories of a stack's models and of the named models (any kind), without repeats.
    Models built locally (tiny, blobs) and served ones (openai) have none; a segment-anything checkpoint
    is a plain file, not a repository: ModelError says so."""

    wanted = (get_stack(stack).choice.models() if stack else []) + list(names)
    by_name = {spec.name: spec for spec in list_models()}
    for name in wanted:
        spec = by_name.get(name)
        if spec is None:
            raise DownloadFailed(f"there is no model named {name!r}; see `whichone models`")
        if spec.hub_id and _plain_file(spec.hub_id):
            raise DownloadFailed(
                f"{name} is a plain file, not a Hub repository: download {spec.hub_id} by hand"
            )
    return hub_repos(wanted)


def hub_repos(names: Sequence[str]) -> list[str]:
    """The Hub repositories among these models' weights, without repeats; unknown names, models built
    here or served elsewhere, and plain-file checkpoints have none."""

    by_name = {spec.name: spec for spec in list_models()}
    repos: list[str] = []
    for name in names:
        spec = by_name.get(name)
        hub = spec.hub_id if spec is not None else None
        if hub and not _plain_file(hub) and hub not in repos:
            repos.append(hub)
    return repos


def _plain_file(hub_id: str) -> bool:
    return hub_id.startswith(("http://", "https://"))


def plan(repo_id: str) -> RepoFiles:
    """What `fetch(repo_id)` would download, from the Hub's file listing (nothing is downloaded)."""
    from huggingface_hub import snapshot_download

    with _plain_errors(repo_id):
        infos = snapshot_download(repo_id, allow_patterns=list(LOADER_FILES), dry_run=True)
    files = tuple(sorted((i.filename, i.file_size, i.is_cached) for i in infos))
    return RepoFiles(repo_id, files)


def fetch(repo_id: str) -> str:
    """Download (or finish downloading) the loader files of `repo_id` into the Hugging Face cache, with
    huggingface_hub's progress bars; returns the local snapshot folder."""
    from huggingface_hub import snapshot_download

    with _plain_errors(repo_id):
        return str(snapshot_download(repo_id, allow_patterns=list(LOADER_FILES)))


def download(
    repo_ids: Sequence[str],
    *,
    dry_run: bool = False,
    echo: Callable[[str], None] = print,
    stack: str | None = None,
) -> list[RepoFiles]:
    """Plan every repository, print the sizes, then (unless dry_run) fetch each; returns the plans. A dry
    run that cannot ask the Hub says what the catalog knows and what only the Hub can say."""
    plans: list[RepoFiles] = []
    for repo_id in repo_ids:
        try:
            found = plan(repo_id)
        except DownloadFailed as exc:
            if not dry_run or exc.kind not in ("offline", "unreachable"):
                raise
            _dry_run_without_hub(repo_ids, stack, echo)
            return []
        plans.append(found)
        cached = sum(1 for _, _, c in found.files if c)
        echo(
            f"{repo_id}: {len(found.files)} files, {size_text(found.total_bytes)}"
            + (f" ({cached} already here; {size_text(found.missing_bytes)} to fetch)" if cached else "")
        )
        if dry_run:
            for name, size, is_cached in found.files:
                echo(f"  {name}  {size_text(size or 0)}{'  (cached)' if is_cached else ''}")
    total = sum(p.total_bytes for p in plans)
    missing = sum(p.missing_bytes for p in plans)
    echo(f"total: {size_text(total)} in {len(plans)} repositories; {size_text(missing)} not yet here")
    if not dry_run:
        for found in plans:
            echo(f"fetching {found.repo_id} ...")
            fetch(found.repo_id)
        echo("done: start with HF_HUB_OFFLINE=1 to use only what is here")
    return plans


def _dry_run_without_hub(repo_ids: Sequence[str], stack: str | None, echo: Callable[[str], None]) -> None:
    """What a dry run knows without the Hub: each repository's size from the catalog and whether its
    weights are in the cache here; the exact file list and sizes need the Hub."""
    echo(f"{hub_state()}: the sizes below are whichone's catalog figures, not the Hub's file list.")
    known = 0.0
    for repo_id in repo_ids:
        here = "in the cache here" if is_cached(repo_id) else "not in the cache here"
        echo(f"{repo_id}: {catalog_size(repo_id)} of weights; {here}")
        known += catalog_gigabytes(repo_id) or 0.0
    missing = [r for r in repo_ids if not is_cached(r)]
    echo(
        f"total: about {known:.2f} GB in {len(repo_ids)} repositories; {len(missing)} not in the cache. "
        "The exact files and sizes need the Hub: run this again where it can be reached."
    )
    if missing:
        command = f"whichone download --stack {stack}" if stack else "whichone download"
        echo(
            f"To get them: `{command}` on a machine with internet, then copy its Hugging Face cache "
            f"({hub_cache()}) here; or set HF_ENDPOINT to a mirror you can reach."
        )


FetchPhase = Literal["checking", "downloading", "loading", "ready", "failed"]


@dataclass
class StackFetch:
    """How far a first start has come in fetching and loading its models: what the app's banner and the
    terminal show. One thread (the one fetching) writes it; anyone may read it."""

    label: str  # what is being fetched, e.g. "the cpu stack"
    phase: FetchPhase = "checking"
    plans: list[RepoFiles] = field(default_factory=list)
    current: str | None = None  # the repository being fetched
    done_bytes: int = 0  # of `missing_bytes`, fetched so far
    error: str | None = None

    @property
    def missing_bytes(self) -> int:
        return sum(p.missing_bytes for p in self.plans)

    @property
    def fetched_bytes(self) -> int:
        """Bytes fetched so far, at most `missing_bytes` (the blob folders may hold a few more)."""
        return min(self.done_bytes, self.missing_bytes)

    @property
    def busy(self) -> bool:
        return self.phase in ("checking", "downloading", "loading")

    def line(self) -> str:
        """One sentence: what is being fetched, how much, how far."""
        if self.phase == "checking":
            return f"Checking which files {self.label} needs from the Hugging Face Hub..."
        if self.phase == "downloading":
            missing = self.missing_bytes
            share = round(100 * self.fetched_bytes / missing) if missing else 100
            names = [p.repo_id for p in self.plans if p.missing_bytes]
            where = (
                f" {self.current} ({names.index(self.current) + 1} of {len(names)})"
                if self.current in names
                else ""
            )
            return (
                f"Downloading {self.label}:{where} {size_text(self.fetched_bytes)} of "
                f"{size_text(missing)} ({share}%). This happens once; an interrupted download resumes."
            )
        if self.phase == "loading":
            return f"Loading {self.label} into memory..."
        if self.phase == "failed":
            return self.error or f"{self.label} could not be fetched"
        return f"{self.label} is ready"


def fetch_with_progress(
    repo_ids: Sequence[str],
    progress: StackFetch,
    *,
    echo: Callable[[str], None] = print,
    poll_s: float = 0.5,
) -> None:
    """Plan, then fetch what is missing of each repository, keeping `progress` up to date (the bytes in the
    cache's blob folders, polled every `poll_s`: huggingface_hub writes each file there as it arrives).
    Raises DownloadFailed with the line to show; `progress.phase` is left to the caller."""
    progress.phase = "checking"
    progress.plans = [plan(repo_id) for repo_id in repo_ids]
    missing = progress.missing_bytes
    if not missing:
        return
    echo(f"whichone: downloading {progress.label}, {size_text(missing)} (once; a rerun resumes)")
    progress.phase = "downloading"
    start = {p.repo_id: _blob_bytes(p.repo_id) for p in progress.plans}
    done_before = 0
    for found in progress.plans:
        if not found.missing_bytes:
            continue
        progress.current = found.repo_id
        stop = threading.Event()

        def poll(repo: str = found.repo_id, base: int = done_before, stop: threading.Event = stop) -> None:
            while not stop.wait(poll_s):
                progress.done_bytes = base + max(0, _blob_bytes(repo) - start[repo])

        poller = threading.Thread(target=poll, name="whichone-download-progress", daemon=True)
        poller.start()
        try:
            echo(f"whichone: fetching {found.repo_id} ({size_text(found.missing_bytes)})")
            fetch(found.repo_id)
        finally:
            stop.set()
            poller.join()
        done_before += found.missing_bytes
        progress.done_bytes = done_before
    progress.current = None
    echo(f"whichone: {progress.label} is downloaded")


def _blob_bytes(repo_id: str) -> int:
    """Bytes in `repo_id`'s blob folder of the Hugging Face cache, partial downloads included."""
    from huggingface_hub import constants
    from huggingface_hub.file_download import repo_folder_name

    blobs = Path(constants.HF_HUB_CACHE) / repo_folder_name(repo_id=repo_id, repo_type="model") / "blobs"
    total = 0
    try:
        entries = list(blobs.iterdir())
    except OSError:
        return 0
    for entry in entries:
        try:
            total += entry.stat().st_size
        except OSError:
            continue
    return total


def size_text(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n} B"


@contextmanager
def _plain_errors(repo_id: str) -> Iterator[None]:
    """Turns huggingface_hub's and the disk's errors into one DownloadFailed line."""
    try:
        yield
    except DownloadFailed:
        raise
    except Exception as error:
        found = _message(repo_id, error)
        if found is None:
            raise
        raise DownloadFailed(found[1], found[0]) from error


def _message(repo: str, error: BaseException) -> tuple[DownloadFailure, str] | None:
    """The line for `error`, judged by the most telling error in its chain (huggingface_hub wraps a gated
    repository's 403 in a dry-run or cache-lookup error)."""
    chain = list(error_chain(error))
    for kind in _KINDS:
        for link in chain:
            message = _message_for(repo, link, kind)
            if message is not None:
                return kind, message
    return None


_KINDS: tuple[DownloadFailure, ...] = ("gated", "missing", "offline", "unreachable", "disk", "other")


def _message_for(repo: str, error: BaseException, kind: DownloadFailure) -> str | None:
    from huggingface_hub import constants
    from huggingface_hub.errors import (
        DryRunError,
        GatedRepoError,
        HfHubHTTPError,
        LocalEntryNotFoundError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
    )

    if kind == "gated" and isinstance(error, GatedRepoError):
        return gated_help(repo, then="run this again")
    if (
        kind == "missing"
        and isinstance(error, RepositoryNotFoundError)
        and not isinstance(error, GatedRepoError)
    ):
        return f"{repo} is not on {constants.ENDPOINT} (or is private: log in first)"
    if kind == "offline" and isinstance(error, OfflineModeIsEnabled):
        return "HF_HUB_OFFLINE is set: unset it to download (and set it again to run offline)"
    if kind == "unreachable" and isinstance(error, (DryRunError, *_connect_errors())):
        # the Hub's file listing never came: nothing was being fetched, so nothing is to resume
        return (
            f"the model hub ({constants.ENDPOINT}) cannot be reached, so {repo} cannot be fetched: fetch it "
            "on a machine with internet and copy its Hugging Face cache here, or set HF_ENDPOINT to a "
            "mirror you can reach"
        )
    if kind == "disk" and isinstance(error, OSError) and error.errno == errno.ENOSPC:
        return f"the disk is full while downloading {repo}; free space (or set HF_HOME) and run this again"
    network = _network_errors()
    if kind == "other" and isinstance(
        error, (LocalEntryNotFoundError, HfHubHTTPError, OSError, DryRunError, *network)
    ):
        reason = first_line(error).rstrip(".")
        return (
            f"could not download {repo} from {constants.ENDPOINT}: {reason}. Run this again to resume "
            "(what is already here is kept)"
        )
    return None


def _connect_errors() -> tuple[type[BaseException], ...]:
    """The HTTP client's errors for a connection that never opened (no network, a mirror that is down)."""
    try:
        import httpx2
    except ImportError:  # pragma: no cover - older huggingface_hub uses httpx or requests
        return ()
    return (httpx2.ConnectError, httpx2.ConnectTimeout)


def _network_errors() -> tuple[type[BaseException], ...]:
    """The HTTP client's transport errors (a connection that breaks off, a mirror that is down)."""
    try:
        import httpx2  # huggingface_hub 2.x's HTTP client
    except ImportError:  # pragma: no cover - older huggingface_hub uses httpx or requests
        return ()
    return (httpx2.HTTPError,)
