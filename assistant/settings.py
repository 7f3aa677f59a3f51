"""The domain's configuration: its WHICHONE_* environment variables (models, stacks, data), read into
typed `Settings` by the one reader (assistant/env_reader.py). The web server's limits (public mode,
uploads, queue, proxies) are the server's: ui/serving_settings.py.

`VARIABLES` is the table of them (name, default, meaning); docs/configuration.md's table is generated from
it and the server's (`whichone settings`), and tests/test_settings.py checks that the two agree.
`settings()` reads the environment each time it is called (a few dictionary lookups), so the CLI, the app
and a Space all see the values they were started with, and a test that sets a variable sees it at once.
Models never read the environment: `install()` makes `Settings.models` (a models.config.ModelConfig) where
the model factories take their configuration from, and the app passes values from here.

The libraries' own variables (HF_HOME, HF_HUB_OFFLINE, HF_ENDPOINT, GRADIO_SERVER_NAME, GRADIO_TEMP_DIR,
SPACE_ID, OPENAI_API_KEY ...) are theirs and are read where they are used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from assistant.env_reader import EnvReader, Variable
from assistant.errors import ConfigError
from models.config import DEFAULT_CACHE_DIR, ModelConfig, OpenAIOptions, use_configuration
from models.errors import ModelUnavailable
from models.openai_vlm import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S

VARIABLES: tuple[Variable, ...] = (
    Variable("WHICHONE_STACK", "cpu / gpu", "the stack (models/catalog.py): cpu without CUDA, gpu with it"),
    Variable("WHICHONE_MODEL", "", "the VLM, overriding the stack's (see `whichone models`)"),
    Variable("WHICHONE_POINTER", "", "the pointer, overriding the stack's"),
    Variable("WHICHONE_SEGMENTER", "", "the segmenter, overriding the stack's; `none`: boxes only"),
    Variable("WHICHONE_DEVICE", "cuda > mps > cpu", "where models run: cuda, cuda:1, mps or cpu"),
    Variable("WHICHONE_CACHE_DIR", "~/.cache/whichone", "benchmark data and runs, tiny checkpoints"),
    Variable("WHICHONE_OFFLINE", "0", "1: never download benchmark data (`whichone bench list` names it)"),
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
)  # fmt: skip
NAMES = frozenset(v.name for v in VARIABLES)


@dataclass(frozen=True)
class Settings:
    """The domain's WHICHONE_* variables, typed. None: not set (the user of the value applies its default)."""

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
        reader = EnvReader(NAMES, env)
        env = reader.env
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
        )


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
