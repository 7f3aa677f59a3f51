"""The web server's limits: the WHICHONE_* variables of public mode, uploads, the queue, proxies, model work
at once and saved conversations, read into typed `ServingSettings` by the one reader
(assistant/env_reader.py). The domain's own variables are in assistant/settings.py.

`VARIABLES` is their table; `ALL_VARIABLES` is every WHICHONE_* variable (the domain's, then these), which
`whichone settings` prints as docs/configuration.md's table (`markdown_table`). `serving_settings()` reads
the environment each time it is called, as `assistant.settings.settings()` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from assistant import settings as domain
from assistant.env_reader import EnvReader, Variable, names_list
from assistant.env_reader import markdown_table as table_of

VARIABLES: tuple[Variable, ...] = (
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
ALL_VARIABLES: tuple[Variable, ...] = domain.VARIABLES + VARIABLES


@dataclass(frozen=True)
class ServingSettings:
    """The server's WHICHONE_* variables, typed. None: not set (the user of the value applies its default)."""

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

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServingSettings:
        """Read `env` (default: os.environ); a number that is not one gives its default."""
        reader = EnvReader(NAMES, env)
        base = cls()  # the defaults, written once: in the fields above
        return cls(
            public=reader.flag("WHICHONE_PUBLIC"),
            allowed_models=names_list(reader.text("WHICHONE_ALLOWED_MODELS")),
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
            trusted_proxies=names_list(reader.text("WHICHONE_TRUSTED_PROXIES")),
            gpu_concurrency=reader.number("WHICHONE_GPU_CONCURRENCY", base.gpu_concurrency),
            gpu_seconds=reader.number("WHICHONE_GPU_SECONDS", base.gpu_seconds),
            decode_concurrency=reader.number("WHICHONE_DECODE_CONCURRENCY", base.decode_concurrency),
            save_conversations=(
                Path(saved).expanduser() if (saved := reader.text("WHICHONE_SAVE_CONVERSATIONS")) else None
            ),
            queue_stats=reader.flag("WHICHONE_QUEUE_STATS") is True,
        )


def serving_settings() -> ServingSettings:
    """The environment now, as ServingSettings."""
    return ServingSettings.from_env()


def markdown_table() -> str:
    """docs/configuration.md's table: every WHICHONE_* variable, the domain's first."""
    return table_of(ALL_VARIABLES)
