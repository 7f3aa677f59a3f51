"""whichone's configuration: every WHICHONE_* environment variable, read in this one place into typed
`Settings`.

`VARIABLES` is the table of them (name, default, meaning); the README's "Environment" table is generated
from it (`whichone settings`) and tests/test_settings.py checks that the two agree. `settings()` reads the
environment each time it is called (a few dictionary lookups), so the CLI, the app and a Space all see the
values they were started with, and a test that sets a variable sees it at once. Models never read the
environment: importing this module installs `Settings.models` (a models.config.ModelConfig) as where the
model factories take their configuration from, and the app passes values from here.

The libraries' own variables (HF_HOME, HF_HUB_OFFLINE, HF_ENDPOINT, GRADIO_SERVER_NAME, GRADIO_TEMP_DIR,
SPACE_ID, OPENAI_API_KEY ...) are theirs and are read where they are used.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from assistant.errors import ConfigError
from models.config import DEFAULT_CACHE_DIR, ModelConfig, OpenAIOptions, use_configuration
from models.errors import ModelUnavailable
from models.openai_vlm import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S

Number = TypeVar("Number", int, float)


@dataclass(frozen=True)
class Variable:
    name: str
    default: str  # as the README shows it; "" when unset means "not given"
    meaning: str


VARIABLES: tuple[Variable, ...] = (
    Variable("WHICHONE_STACK", "cpu / gpu", "the stack (models/catalog.py): cpu without CUDA, gpu with it"),
    Variable("WHICHONE_MODEL", "", "the VLM, overriding the stack's (see `whichone models`)"),
    Variable("WHICHONE_POINTER", "", "the pointer, overriding the stack's"),
    Variable("WHICHONE_SEGMENTER", "", "the segmenter, overriding the stack's; `none`: boxes only"),
    Variable("WHICHONE_DEVICE", "cuda > mps > cpu", "where models run: cuda, cuda:1, mps or cpu"),
    Variable("WHICHONE_CACHE_DIR", "~/.cache/whichone", "benchmark data and runs, tiny checkpoints"),
    Variable("WHICHONE_OFFLINE", "0", "1: never download benchmark data (AQuA, ClearVQA)"),
    Variable("WHICHONE_SAM_CHECKPOINT", "", "a segment-anything checkpoint file for sam-vit-*"),
    Variable("WHICHONE_SMOLVLM_LONGEST_EDGE", "512 on a CPU", "SmolVLM's photo edge (a multiple of 512)"),
    Variable("WHICHONE_OPENAI_BASE_URL", DEFAULT_BASE_URL, "the server (else OPENAI_BASE_URL)"),
    Variable("WHICHONE_OPENAI_API_KEY", "", "its key (else OPENAI_API_KEY)"),
    Variable("WHICHONE_OPENAI_MODEL", "", "the served model's id (default: the server's first)"),
    Variable("WHICHONE_OPENAI_TIMEOUT", str(DEFAULT_TIMEOUT_S), "seconds per attempt"),
    Variable("WHICHONE_OPENAI_MAX_RETRIES", str(DEFAULT_MAX_RETRIES), "retries after the first attempt"),
    Variable("WHICHONE_OPENAI_GROUNDING", "", "the served model's grounding family, if its id says none"),
    Variable("WHICHONE_OPENAI_MIN_PIXELS", "3136", "the server processor's min pixels (Qwen2.5-VL's frame)"),
    Variable("WHICHONE_OPENAI_MAX_PIXELS", "12845056", "the server processor's max pixels"),
    Variable("WHICHONE_OLLAMA_BASE_URL", "http://localhost:11434/v1", "the ollama stack's Ollama"),
    Variable("WHICHONE_OLLAMA_MODEL", "qwen2.5vl:3b", "the vision model Ollama serves it"),
    Variable("WHICHONE_LLAMACPP_BASE_URL", "http://localhost:8080/v1", "the llamacpp stack's llama-server"),
    Variable("WHICHONE_PUBLIC", "on a Space", "1 / 0: public-demo limits on / off"),
    Variable("WHICHONE_ALLOWED_MODELS", "the start-up choice", "public mode: the models a visitor may pick"),
    Variable("WHICHONE_PUBLIC_BENCH_LIMIT", "20", "public mode: examples per benchmark run"),
    Variable("WHICHONE_PUBLIC_MAX_NEW_TOKENS", "256", "public mode: a benchmark's max new tokens"),
    Variable("WHICHONE_PUBLIC_UPLOADS_PER_MINUTE", "20", "public mode: uploads a minute per client"),
    Variable("WHICHONE_PUBLIC_EVENTS_PER_MINUTE", "120", "public mode: events a minute per client"),
    Variable("WHICHONE_PUBLIC_WAITING_PER_CLIENT", "4", "public mode: one client's events waiting at once"),
    Variable("WHICHONE_UPLOADS_PER_CLIENT_MB", "100", "uploads held per client"),
    Variable("WHICHONE_UPLOADS_MAX_MB", "1024", "uploads held in all"),
    Variable("WHICHONE_MAX_UPLOAD", "20mb", "one upload's size"),
    Variable("WHICHONE_QUEUE_MAX", "64", "requests waiting at once"),
    Variable("WHICHONE_TRUSTED_PROXIES", "", "proxies whose X-Forwarded-For counts (addresses, networks)"),
    Variable("WHICHONE_GPU_CONCURRENCY", "1", "model work at once (the `gpu` queue group)"),
    Variable("WHICHONE_GPU_SECONDS", "60", "ZeroGPU: GPU seconds per call"),
    Variable("WHICHONE_DECODE_CONCURRENCY", "2", "photos decoded at once"),
    Variable("WHICHONE_SAVE_CONVERSATIONS", "", "a folder: lets users save a conversation (off when unset)"),
    Variable("WHICHONE_QUEUE_STATS", "0", "1: /models also reports the gpu group's counts (tests)"),
)  # fmt: skip
NAMES = frozenset(v.name for v in VARIABLES)


@dataclass(frozen=True)
class Settings:
    """The WHICHONE_* variables, typed. None: not set (the user of the value applies its own default)."""

    stack: str | None = None
    model: str | None = None
    pointer: str | None = None
    segmenter: str | None = None
    device: str | None = None
    cache_dir: Path = DEFAULT_CACHE_DIR
    offline: bool = False
    sam_checkpoint: str | None = None
    smolvlm_longest_edge: int = 0  # 0: the catalog's choice (512 on a CPU, the model's own on a GPU)
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    openai_model: str | None = None
    openai_timeout: float | None = None
    openai_max_retries: int | None = None
    openai_grounding: str | None = None
    openai_min_pixels: int | None = None
    openai_max_pixels: int | None = None
    ollama_base_url: str | None = None
    ollama_model: str | None = None
    llamacpp_base_url: str | None = None
    public: bool | None = None  # None: public exactly on a Hugging Face Space
    allowed_models: tuple[str, ...] = ()
    public_bench_limit: int = 20
    public_max_new_tokens: int = 256
    public_uploads_per_minute: int = 20
    public_events_per_minute: int = 120
    public_waiting_per_client: int = 4
    uploads_per_client_mb: int = 100
    uploads_max_mb: int = 1024
    max_upload: str = "20mb"
    queue_max: int = 64
    trusted_proxies: tuple[str, ...] = ()
    gpu_concurrency: int = 1
    gpu_seconds: int = 60
    decode_concurrency: int = 2
    save_conversations: Path | None = None
    queue_stats: bool = False

    @property
    def models(self) -> ModelConfig:
        """What the model factories take (models/config.py)."""
        return ModelConfig(
            stack=self.stack,
            model=self.model,
            device=self.device,
            cache_dir=self.cache_dir,
            sam_checkpoint=self.sam_checkpoint,
            smolvlm_longest_edge=self.smolvlm_longest_edge,
            openai=OpenAIOptions(
                base_url=self.openai_base_url,
                api_key=self.openai_api_key,
                model=self.openai_model,
                timeout=self.openai_timeout,
                max_retries=self.openai_max_retries,
                grounding=self.openai_grounding,
                min_pixels=self.openai_min_pixels,
                max_pixels=self.openai_max_pixels,
            ),
            ollama=OpenAIOptions(base_url=self.ollama_base_url, model=self.ollama_model),
            llamacpp=OpenAIOptions(base_url=self.llamacpp_base_url),
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read `env` (default: os.environ). A number that is not one is a ConfigError naming the variable."""
        env = os.environ if env is None else env
        reader = _Reader(env)
        base = cls()  # the defaults, written once: in the fields above
        return cls(
            stack=reader.text("WHICHONE_STACK"),
            model=reader.text("WHICHONE_MODEL"),
            pointer=reader.text("WHICHONE_POINTER"),
            segmenter=reader.text("WHICHONE_SEGMENTER"),
            device=reader.text("WHICHONE_DEVICE"),
            cache_dir=Path(reader.text("WHICHONE_CACHE_DIR") or base.cache_dir).expanduser(),
            offline=reader.flag("WHICHONE_OFFLINE") is True,
            sam_checkpoint=reader.text("WHICHONE_SAM_CHECKPOINT"),
            smolvlm_longest_edge=reader.number(
                "WHICHONE_SMOLVLM_LONGEST_EDGE", base.smolvlm_longest_edge, minimum=0
            ),
            # The openai library's own variables are the fallback, as its client has them.
            openai_base_url=reader.text("WHICHONE_OPENAI_BASE_URL") or env.get("OPENAI_BASE_URL") or None,
            openai_api_key=reader.text("WHICHONE_OPENAI_API_KEY") or env.get("OPENAI_API_KEY") or None,
            openai_model=reader.text("WHICHONE_OPENAI_MODEL"),
            openai_timeout=reader.optional("WHICHONE_OPENAI_TIMEOUT", float, positive=True),
            openai_max_retries=reader.optional("WHICHONE_OPENAI_MAX_RETRIES", int),
            openai_grounding=(reader.text("WHICHONE_OPENAI_GROUNDING") or "").lower() or None,
            openai_min_pixels=reader.optional("WHICHONE_OPENAI_MIN_PIXELS", int, positive=True),
            openai_max_pixels=reader.optional("WHICHONE_OPENAI_MAX_PIXELS", int, positive=True),
            ollama_base_url=reader.text("WHICHONE_OLLAMA_BASE_URL"),
            ollama_model=reader.text("WHICHONE_OLLAMA_MODEL"),
            llamacpp_base_url=reader.text("WHICHONE_LLAMACPP_BASE_URL"),
            public=reader.flag("WHICHONE_PUBLIC"),
            allowed_models=_names(reader.text("WHICHONE_ALLOWED_MODELS")),
            public_bench_limit=reader.number("WHICHONE_PUBLIC_BENCH_LIMIT", base.public_bench_limit),
            public_max_new_tokens=reader.number("WHICHONE_PUBLIC_MAX_NEW_TOKENS", base.public_max_new_tokens),
            public_uploads_per_minute=reader.number(
                "WHICHONE_PUBLIC_UPLOADS_PER_MINUTE", base.public_uploads_per_minute
            ),
            public_events_per_minute=reader.number(
                "WHICHONE_PUBLIC_EVENTS_PER_MINUTE", base.public_events_per_minute
            ),
            public_waiting_per_client=reader.number(
                "WHICHONE_PUBLIC_WAITING_PER_CLIENT", base.public_waiting_per_client
            ),
            uploads_per_client_mb=reader.number("WHICHONE_UPLOADS_PER_CLIENT_MB", base.uploads_per_client_mb),
            uploads_max_mb=reader.number("WHICHONE_UPLOADS_MAX_MB", base.uploads_max_mb),
            max_upload=reader.text("WHICHONE_MAX_UPLOAD") or base.max_upload,
            queue_max=reader.number("WHICHONE_QUEUE_MAX", base.queue_max),
            trusted_proxies=_names(reader.text("WHICHONE_TRUSTED_PROXIES")),
            gpu_concurrency=reader.number("WHICHONE_GPU_CONCURRENCY", base.gpu_concurrency),
            gpu_seconds=reader.number("WHICHONE_GPU_SECONDS", base.gpu_seconds),
            decode_concurrency=reader.number("WHICHONE_DECODE_CONCURRENCY", base.decode_concurrency),
            save_conversations=(
                Path(saved).expanduser() if (saved := reader.text("WHICHONE_SAVE_CONVERSATIONS")) else None
            ),
            queue_stats=reader.flag("WHICHONE_QUEUE_STATS") is True,
        )


def _names(text: str | None) -> tuple[str, ...]:
    """A comma-separated list, trimmed, without empty items."""
    return tuple(n.strip() for n in (text or "").split(",") if n.strip())


def settings() -> Settings:
    """The environment now, as Settings."""
    return Settings.from_env()


def _model_config() -> ModelConfig:
    """The models' configuration from the environment now; a bad value is ModelUnavailable naming it (a
    model cannot be made with it)."""
    try:
        return settings().models
    except ConfigError as error:
        raise ModelUnavailable(str(error)) from None


def install() -> None:
    """Make WHICHONE_* (read again at each model creation) what models/ take their configuration from.
    Nothing does this on import: the edges call it as they start (the command line, the server, app.py,
    build_app), and so does a program built on the assistant that wants the environment's settings
    (otherwise models/ use their defaults, or what it hands models.config.use_configuration)."""
    use_configuration(_model_config)


def markdown_table() -> str:
    """The README's "Environment" table, from VARIABLES."""
    rows = ["| variable | default | what |", "|---|---|---|"]
    rows += [f"| `{v.name}` | {v.default or '-'} | {v.meaning} |" for v in VARIABLES]
    return "\n".join(rows)


class _Reader:
    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env

    def text(self, name: str) -> str | None:
        assert name in NAMES, name  # every variable is in the table
        value = self.env.get(name, "").strip()
        return value or None

    def flag(self, name: str) -> bool | None:
        value = (self.text(name) or "").lower()
        if not value:
            return None
        return value in ("1", "true", "yes", "on")

    def optional(self, name: str, kind: Callable[[str], Number], *, positive: bool = False) -> Number | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            number = kind(value)
        except ValueError:
            raise ConfigError(f"{name} must be a number, got {value!r}") from None
        if number < 0 or (positive and number == 0):
            raise ConfigError(f"{name} must be {'positive' if positive else 'zero or more'}, got {value!r}")
        return number

    def number(self, name: str, default: int, *, minimum: int = 1) -> int:
        """An int of at least `minimum`; a value that is not a number, or is smaller, gives the default."""
        value = self.text(name)
        try:
            return max(minimum, int(value)) if value is not None else default
        except ValueError:
            return default
