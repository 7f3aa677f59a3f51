"""Configuration read in one place (assistant/settings.py): the table of variables, its twin in
docs/configuration.md, typed values and their errors, and no module but that one reading a WHICHONE_*
variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.errors import ConfigError
from assistant.settings import NAMES, VARIABLES, Settings, markdown_table

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
        if path.name != "settings.py":
            assert not reads, f"{path} reads {reads}: use assistant.settings.settings()"
    assert set(used) - {"WHICHONE_TORCH_PINS"} <= NAMES, set(used) - NAMES
    assert len(VARIABLES) == len(NAMES)  # no name twice


def test_values_are_typed_and_defaults_hold() -> None:
    empty = Settings.from_env({})
    assert (empty.stack, empty.public, empty.queue_max, empty.decode_concurrency) == (None, None, 64, 2)
    assert empty.cache_dir == Path.home() / ".cache" / "whichone" and empty.save_conversations is None
    given = Settings.from_env(
        {
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
    )
    assert (given.stack, given.public, given.allowed_models) == ("cpu-tiny", False, ("tiny", "blobs"))
    assert (given.queue_max, given.gpu_concurrency, given.decode_concurrency) == (3, 1, 2)
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
