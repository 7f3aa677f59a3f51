"""Configuration read by one reader (assistant/env_reader.py) in two places: the domain's settings
(assistant/settings.py) and the server's limits (ui/serving_settings.py). The table of variables, its twin
in docs/configuration.md, typed values and their errors, and no other module reading a WHICHONE_*
variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.errors import ConfigError
from assistant.settings import VARIABLES as DOMAIN_VARIABLES
from assistant.settings import Settings
from ui.serving_settings import ALL_VARIABLES, ServingSettings, markdown_table
from ui.serving_settings import VARIABLES as SERVING_VARIABLES

REPO = Path(__file__).resolve().parents[1]


def test_the_documented_table_is_the_generated_one() -> None:
    page = (REPO / "docs" / "configuration.md").read_text()
    assert markdown_table() in page, "run `whichone settings` and paste its table into docs/configuration.md"


def test_every_whichone_variable_in_the_code_is_in_the_table_and_read_only_there() -> None:
    used: dict[str, set[str]] = {}
    for path in [*REPO.glob("assistant/**/*.py"), *REPO.glob("models/**/*.py"), *REPO.glob("ui/**/*.py")]:
        text = path.read_text()
        for name in re.findall(r"WHICHONE_[A-Z_]+", text):
            if not name.endswith("_"):  # "WHICHONE_OPENAI_*" in prose
                used.setdefault(name, set()).add(str(path.relative_to(REPO)))
        reads = re.findall(r"(?:environ\.get|getenv)\(\s*\"(WHICHONE_[A-Z_]+)", text)
        assert not reads, f"{path} reads {reads}: use assistant.settings or ui.serving_settings"
    names = {v.name for v in ALL_VARIABLES}
    assert set(used) - {"WHICHONE_TORCH_PINS"} <= names, set(used) - names
    assert len(ALL_VARIABLES) == len(names)  # no name twice


def test_the_domain_keeps_its_own_variables_and_the_server_its_limits() -> None:
    assert ALL_VARIABLES == DOMAIN_VARIABLES + SERVING_VARIABLES
    assert (len(DOMAIN_VARIABLES), len(SERVING_VARIABLES)) == (20, 17)
    serving_fields = set(ServingSettings.__dataclass_fields__)
    assert not serving_fields & set(Settings.__dataclass_fields__)
    assert {"public", "queue_max", "trusted_proxies", "max_upload"} <= serving_fields


def test_values_are_typed_and_defaults_hold() -> None:
    empty, empty_serving = Settings.from_env({}), ServingSettings.from_env({})
    assert (empty.stack, empty_serving.public, empty_serving.queue_max) == (None, None, 64)
    assert empty_serving.decode_concurrency == 2 and empty_serving.save_conversations is None
    assert empty.cache_dir == Path.home() / ".cache" / "whichone"
    env = {
        "WHICHONE_STACK": " cpu-tiny ",
        "WHICHONE_PUBLIC": "0",
        "WHICHONE_ALLOWED_MODELS": "tiny, blobs,,",
        "WHICHONE_QUEUE_MAX": "3",
        "WHICHONE_GPU_CONCURRENCY": "0",  # at least 1
        "WHICHONE_DECODE_CONCURRENCY": "many",  # not a number: the default
        "WHICHONE_OPENAI_TIMEOUT": "2.5",
        "WHICHONE_OPENAI_GROUNDING": "Qwen3-VL",
        "WHICHONE_CACHE_DIR": "~/elsewhere",
        "OPENAI_API_KEY": "sk-library",
    }
    given, serving = Settings.from_env(env), ServingSettings.from_env(env)
    assert (given.stack, serving.public, serving.allowed_models) == ("cpu-tiny", False, ("tiny", "blobs"))
    assert (serving.queue_max, serving.gpu_concurrency, serving.decode_concurrency) == (3, 1, 2)
    assert (given.openai_timeout, given.openai_grounding, given.openai_api_key) == (
        2.5,
        "qwen3-vl",
        "sk-library",
    )
    assert given.cache_dir == Path.home() / "elsewhere"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WHICHONE_OPENAI_TIMEOUT", "soon"),
        ("WHICHONE_OPENAI_TIMEOUT", "0"),
        ("WHICHONE_OPENAI_MAX_RETRIES", "-1"),
    ],
)
def test_a_bad_number_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value})
