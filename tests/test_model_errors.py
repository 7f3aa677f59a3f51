"""models.errors: how a library's exception becomes one line for a user, and how the telling error is
found under the one a library raised (models.hub.is_gated reads the chain)."""

from __future__ import annotations

import pytest

from models.errors import error_chain, first_line
from models.hub import gated_help, is_gated


def _raised_from(outer: Exception, inner: Exception) -> Exception:
    try:
        try:
            raise inner
        except Exception as error:
            raise outer from error
    except Exception as caught:
        return caught


def test_the_chain_runs_from_the_raised_error_to_its_causes() -> None:
    inner = KeyError("x")
    outer = _raised_from(OSError("could not load"), inner)
    assert list(error_chain(outer)) == [outer, inner]


def test_a_chain_with_a_cycle_ends() -> None:
    first, second = ValueError("a"), ValueError("b")
    first.__cause__, second.__cause__ = second, first  # a library that re-raises in a loop
    assert list(error_chain(first)) == [first, second]
    assert not is_gated(first)


def test_a_gated_refusal_is_found_under_a_wrapping_error() -> None:
    from huggingface_hub.errors import GatedRepoError

    try:  # the HTTP client huggingface_hub's errors are built on (httpx2 since huggingface_hub 2)
        import httpx2 as http
    except ImportError:
        import httpx as http  # type: ignore[no-redef]
    url = "https://huggingface.co/facebook/sam3/resolve/main/config.json"
    refused = http.Response(403, request=http.Request("GET", url))
    gated = GatedRepoError("Access to model facebook/sam3 is restricted", response=refused)
    outer = _raised_from(OSError("You are trying to access a private repository"), gated)
    assert is_gated(outer)
    assert not is_gated(OSError("file not found"))
    assert gated_help("facebook/sam3", then="run this again").endswith("and run this again")


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (OSError("first\nsecond"), "first"),
        (ValueError(""), "ValueError"),  # an empty message: its type, never an IndexError
        (RuntimeError("x" * 300), "x" * 197 + "..."),
    ],
)
def test_first_line(error: Exception, line: str) -> None:
    assert first_line(error) == line
