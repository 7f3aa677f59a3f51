"""The models behind the app, loaded once and shared by every browser session.

`ModelPool` builds each model by its registry name the first time it is asked for and keeps it: start-up
loads the choice from the environment, a settings change loads the new one once, and no request ever
loads a model again. Conversations never live here (each browser session keeps its own Session in
gr.State); an `Assistant` holds no conversation state, so one is built per call from the pooled models
and the session's settings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from assistant.settings import settings
from models.base import Describing, Pointer, Segmenter, VisionLanguageModel
from models.catalog import ModelChoice, resolve_choice, stack_name_of
from models.download import DownloadFailed, StackFetch, fetch_with_progress, hub_repos
from models.errors import ModelError, ModelUnavailable
from models.hub import hub_offline, hub_reachable
from models.offline_help import hub_state, missing_weights, unavailable_help
from models.offline_help import what_to_do as offline_what_to_do
from models.registry import create_pointer, create_segmenter, create_vlm, list_models


def _say(line: str) -> None:
    """A progress line for the terminal, at once (a served app's stdout may be a pipe or a log file)."""
    print(line, flush=True)


def choice_from_env() -> ModelChoice:
    """WHICHONE_STACK (default: by CUDA), with WHICHONE_MODEL, WHICHONE_POINTER and WHICHONE_SEGMENTER
    overriding its parts."""
    return stack_from_env()[1]


def stack_from_env() -> tuple[str, ModelChoice]:
    """(stack name, models) as the environment asks (see choice_from_env)."""
    current = settings()
    return resolve_choice(
        current.stack, vlm=current.model, pointer=current.pointer, segmenter=current.segmenter
    )


@dataclass
class LoadedModel:
    kind: str
    name: str
    device: str
    detail: str


class ModelPool:
    """Models by name, each built at most once per process (thread-safe)."""

    def __init__(self) -> None:
        self._vlms: dict[str, VisionLanguageModel] = {}
        self._pointers: dict[tuple[str, str], Pointer] = {}  # (pointer, vlm): a pointer may wrap the VLM
        self._segmenters: dict[str, Segmenter] = {}
        self._grounders: dict[tuple[str, str, str | None], Grounder] = {}
        self._lock = threading.Lock()  # held while a model is built (seconds to minutes)
        self._fetch_lock = threading.Lock()  # held only to start a fetch, never during one
        self.errors: dict[ModelChoice, str] = {}
        self.fetches: dict[ModelChoice, StackFetch] = {}  # background downloads (first start, Apply)

    def fetching(self, choice: ModelChoice) -> StackFetch | None:
        """The background download-and-load of `choice` while it is under way, else None."""
        fetch = self.fetches.get(choice)
        return fetch if fetch is not None and fetch.busy else None

    def load(self, choice: ModelChoice) -> None:
        """Build whatever `choice` needs that is not loaded yet. Raises ModelError with a plain message
        (while `choice` is still being downloaded: how far it has come)."""
        fetch = self.fetching(choice)
        if fetch is not None:
            raise ModelUnavailable(f"{fetch.line()} Ask again when the models are ready.")
        self._load(choice)

    def fetches_first(self, choice: ModelChoice) -> bool:
        """Whether `choice` is to be fetched and loaded in the background (`fetch_then_load`) rather than
        loaded at once: it is not loaded, the Hub may be used, and some of its weights live there (whether
        they are cached is only known once the Hub has been asked: the fetch's first phase)."""

        return not self.is_loaded(choice) and not hub_offline() and bool(hub_repos(choice.models()))

    def fetch_then_load(
        self, choice: ModelChoice, label: str, echo: Callable[[str], None] = _say
    ) -> threading.Thread | None:
        """Download what `choice` needs from the Hub (the files its loaders read; what is cached is kept),
        then load it, in a background thread, so the app is up meanwhile and shows the progress
        (`fetching`). A download that fails (offline, a gated model) still tries what is cached; what
        fails is in `errors`, as for a start-up load. None when `choice` is already being fetched (two
        sessions asking for the same models share one download)."""

        with self._fetch_lock:  # not the build lock: a click must not wait for another stack's load
            if self.fetching(choice) is not None:
                return None
            progress = StackFetch(label)
            self.fetches[choice] = progress

        def fail(message: str) -> None:
            self.errors[choice] = message
            progress.error, progress.phase = message, "failed"
            echo(f"whichone: {choice.label()} not available: {message}")

        def run() -> None:
            download_error = ""
            try:
                fetch_with_progress(hub_repos(choice.models()), progress, echo=echo)
            except DownloadFailed as exc:
                if progress.phase == "downloading":
                    # The Hub answered but a file did not arrive: load nothing half-fetched.
                    fail(f"The download did not finish ({exc}).")
                    return
                if exc.kind in ("unreachable", "offline"):  # nothing was being fetched: say so plainly
                    echo(f"whichone: {hub_state()}; loading {label} from the cache here.")
                else:
                    echo(f"whichone: {exc}. Trying what is cached.")
                if exc.kind not in ("other", "unreachable"):  # gated, missing: the loader would not say
                    download_error = f"{exc}."
            progress.phase = "loading"
            try:
                self._load(choice)
            except ModelError as exc:
                fail(f"{download_error} {exc}".strip())
                return
            except Exception as exc:  # noqa: BLE001 - a loader's own bug must not end silently
                fail(f"{download_error} {choice.label()} could not be loaded: {exc}".strip())
                return
            progress.phase = "ready"
            echo(f"whichone: {label} is loaded")

        thread = threading.Thread(target=run, name="whichone-first-start", daemon=True)
        thread.start()
        return thread

    def _load(self, choice: ModelChoice) -> None:
        with self._lock:
            try:
                self._grounder(choice)
            except ModelError as exc:
                self.errors[choice] = explain_unavailable(choice, exc)
                if self.errors[choice] != str(exc):
                    raise ModelUnavailable(self.errors[choice]) from exc
                raise
            except (ImportError, OSError, RuntimeError, ValueError) as exc:
                # A broken install or a missing file must not take the app down: say what failed.
                message = f"{choice.label()} could not be loaded: {exc}"
                self.errors[choice] = message
                raise ModelUnavailable(message) from exc
            self.errors.pop(choice, None)

    def assistant(self, choice: ModelChoice, config: AssistantConfig) -> Assistant:
        """An Assistant over the pooled models (loading them first if needed)."""
        key = (choice.vlm, choice.pointer, choice.segmenter)
        if key not in self._grounders:
            self.load(choice)
        return Assistant(self._vlms[choice.vlm], self._grounders[key], config)

    def vlm(self, name: str) -> VisionLanguageModel:
        """The VLM `name`, built the first time it is asked for and kept (the benchmark tab runs its
        models through here, so a model the Ask tab already uses is not loaded a second time)."""

        with self._lock:
            if name not in self._vlms:
                try:
                    self._vlms[name] = create_vlm(name)
                except ModelError:
                    raise
                except (ImportError, OSError, RuntimeError, ValueError) as exc:
                    raise ModelUnavailable(f"{name} could not be loaded: {exc}") from exc
            return self._vlms[name]

    def is_loaded(self, choice: ModelChoice) -> bool:
        return (choice.vlm, choice.pointer, choice.segmenter) in self._grounders

    def loaded(self) -> list[LoadedModel]:
        """What is in memory, and on which device."""
        rows = [LoadedModel("vlm", name, *_device_and_detail(m)) for name, m in sorted(self._vlms.items())]
        rows += [
            LoadedModel(
                "pointer", f"{name} (with {vlm})" if name == "vlm-boxes" else name, *_device_and_detail(m)
            )
            for (name, vlm), m in sorted(self._pointers.items())
        ]
        rows += [
            LoadedModel("segmenter", n, *_device_and_detail(m)) for n, m in sorted(self._segmenters.items())
        ]
        return rows

    # ---------------------------------------------------------------- building (under the lock)

    def _grounder(self, choice: ModelChoice) -> Grounder:

        key = (choice.vlm, choice.pointer, choice.segmenter)
        if key in self._grounders:
            return self._grounders[key]
        if choice.vlm not in self._vlms:
            self._vlms[choice.vlm] = create_vlm(choice.vlm)
        vlm = self._vlms[choice.vlm]
        pkey = (choice.pointer, choice.vlm)
        if pkey not in self._pointers:
            self._pointers[pkey] = create_pointer(choice.pointer, vlm=vlm)
        segmenter = None
        if choice.segmenter:
            if choice.segmenter not in self._segmenters:
                self._segmenters[choice.segmenter] = create_segmenter(choice.segmenter)
            segmenter = self._segmenters[choice.segmenter]
        self._grounders[key] = Grounder(self._pointers[pkey], segmenter)
        return self._grounders[key]


def _device_and_detail(model: object) -> tuple[str, str]:
    """(device, a short description) from a model's describe() if it has one."""
    info: dict[str, Any] = {}
    if isinstance(model, Describing):
        try:
            info = dict(model.describe())
        except Exception:  # noqa: BLE001 - a description must never break the settings page
            info = {}
    device = str(info.get("device") or getattr(model, "device", None) or "cpu (no weights)")
    parts = []
    if info.get("model_id"):
        info["model_id"] = shown_model_id(str(info["model_id"]))
    for key in ("model_id", "dtype", "quantisation", "parameters", "backend"):
        if info.get(key) not in (None, ""):
            value = info[key]
            parts.append(f"{key} {value:,}" if isinstance(value, int) else f"{key} {value}")
    return device, ", ".join(parts)


def shown_model_id(model_id: str) -> str:
    """A hub id as it is; a local folder by its last name only (a server path is not for visitors)."""
    path = Path(model_id).expanduser()
    if path.is_absolute() or model_id.startswith((".", "~")) or path.exists():
        return f"local checkpoint {path.name}"
    return model_id


def explain_unavailable(choice: ModelChoice, error: ModelError) -> str:
    """A load that failed because weights are missing and the Hub is not used: which are missing, with
    their sizes, and the ways out, naming the stack; any other failure as it is."""
    names = choice.models()
    known = {spec.name for spec in list_models()}
    if any(name not in known for name in names):
        return str(error)  # a name typed wrong is the failure, whatever else is missing
    hub_used = not hub_offline() and hub_reachable(timeout=2.0)
    if hub_used or not missing_weights(names):
        return str(error)
    return unavailable_help(stack_name_of(choice), names)


def what_to_do(choice: ModelChoice) -> str:
    """The ways out when `choice` cannot load, naming its stack (or its models)."""
    server = (
        " For an OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp's llama-server) choose the "
        "server, ollama or llamacpp stack (`whichone stacks`)."
    )
    return offline_what_to_do(stack_name_of(choice), choice.models()) + server
