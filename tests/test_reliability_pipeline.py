"""Reliability at the pipeline level: the bad-input corpus, model faults, and privacy (nothing written).

Each input of the corpus goes through `Assistant.ask` with the real tiny model; a crash is any exception
that is not one of the user-facing kinds (WhichoneError, ModelError). The count must be 0.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import pytest

from assistant.errors import WhichoneError
from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Strategy
from models.base import GenerationSettings
from models.blob_pointer import BlobPointer
from models.errors import ModelError
from models.vlm_pointer import VLMPointer
from tests.corpus import BAD_QUESTIONS, corpus
from tests.test_pipeline import scene

FAST = AssistantConfig(
    recognition_settings=GenerationSettings(max_new_tokens=8),
    answer_settings=GenerationSettings(max_new_tokens=8),
)


class RecordingVLM:
    """Wraps the real tiny model and records the images it is sent (a spy, not a stand-in)."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.images = inner, inner.name, []

    def generate(self, messages, settings=None) -> str:
        self.images += [im for m in messages for im in m.images]
        return self.inner.generate(messages, settings)

    def generate_batch(self, conversations, settings=None) -> list[str]:
        self.images += [im for c in conversations for m in c for im in m.images]
        return self.inner.generate_batch(conversations, settings)

    def describe(self) -> dict:
        return self.inner.describe()


class ScriptedVLM:
    """Returns fixed texts: used only to make the model return empty or garbage output on purpose."""

    name = "scripted"

    def __init__(self, text: str) -> None:
        self.text = text

    def generate(self, messages, settings=None) -> str:
        return self.text

    def generate_batch(self, conversations, settings=None) -> list[str]:
        return [self.text for _ in conversations]

    def describe(self) -> dict:
        return {"name": self.name}


def run_corpus(assistant: Assistant) -> tuple[int, dict[str, str]]:
    crashes, outcomes = 0, {}
    for name, data, _ in corpus():
        try:
            reply, _ = assistant.ask(data, "What colour is the cup?")
            outcomes[name] = f"ok: {reply.strategy.value}"
        except (WhichoneError, ModelError) as exc:
            outcomes[name] = f"message: {exc}"
        except Exception as exc:  # noqa: BLE001 - counting crashes is the point
            crashes += 1
            outcomes[name] = f"CRASH {type(exc).__name__}: {exc}"
    for question, _ in BAD_QUESTIONS:
        try:
            assistant.ask(scene(2), question)
            outcomes[f"q:{question[:20]!r}"] = "ok"
        except WhichoneError as exc:
            outcomes[f"q:{question[:20]!r}"] = f"message: {exc}"
        except Exception as exc:  # noqa: BLE001
            crashes += 1
            outcomes[f"q:{question[:20]!r}"] = f"CRASH {type(exc).__name__}: {exc}"
    return crashes, outcomes


def test_corpus_through_the_pipeline_never_crashes(tiny_vlm) -> None:
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    crashes, outcomes = run_corpus(assistant)
    print("\n".join(f"{k}: {v}" for k, v in outcomes.items()))
    assert crashes == 0, outcomes
    expected = {name: expect for name, _, expect in corpus()}
    for name, expect in expected.items():
        assert outcomes[name].startswith("ok" if expect == "ok" else "message"), (name, outcomes[name])
    for question, error in BAD_QUESTIONS:
        outcome = outcomes[f"q:{question[:20]!r}"]
        assert (error in outcome) if error else outcome == "ok"


def test_exif_rotated_photo_reaches_the_model_upright(tiny_vlm) -> None:
    spy = RecordingVLM(tiny_vlm)
    data = dict((n, d) for n, d, _ in corpus())["exif_rotated.jpg"]
    _, session = Assistant(spy, Grounder(BlobPointer()), FAST).ask(data, "What colour is the top?")
    assert session.image.size == (100, 200)
    assert spy.images and all(im.size == (100, 200) for im in spy.images[:1])
    assert session.image.getpixel((50, 10))[0] > 200  # red is at the top of the upright photo


@pytest.mark.parametrize("text", ["", "   ", "\x00\x00", "<points coords='oops'>", "{" * 500])
def test_empty_or_garbage_model_output_still_answers(text: str) -> None:
    vlm = ScriptedVLM(text)
    assistant = Assistant(vlm, Grounder(VLMPointer(vlm)), FAST)
    reply, session = assistant.ask(scene(3), "What colour is the cup?")
    assert reply.verdict.value == "undecided"  # nothing parseable as a verdict
    assert len(reply.candidates) == 0  # nothing parseable as boxes: no candidates, no crash
    assert reply.strategy is Strategy.ANSWER
    assert reply.text  # "(the model gave no answer)" for empty output
    assert len(session.history) == 2


def test_pointer_that_raises_gives_no_candidates_and_a_note(tiny_vlm) -> None:
    class BrokenPointer:
        name = "broken"

        def point(self, image, phrase):
            raise ModelError("the pointer's server is down")

    reply, _ = Assistant(tiny_vlm, Grounder(BrokenPointer()), FAST).ask(scene(3), "What colour is the cup?")
    assert len(reply.candidates) == 0
    assert any("the pointer's server is down" in n for n in reply.candidates.notes)


def _snapshot(*dirs: Path) -> dict[str, float]:
    out = {}
    for d in dirs:
        if d.exists():
            for p in d.rglob("*"):
                if p.is_file():
                    out[str(p)] = p.stat().st_mtime
    return out


def test_a_full_session_writes_nothing_and_logs_no_question(tiny_vlm, tmp_path, caplog, monkeypatch) -> None:
    # Our own temp and cache dirs must stay empty; anything else that changed under /tmp or the home
    # cache meanwhile (other processes use them too) must not contain the question.
    own_tmp, own_cache, work = tmp_path / "tmp", tmp_path / "cache", tmp_path / "work"
    for d in (own_tmp, own_cache, work):
        d.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own_tmp))
    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(own_cache))
    monkeypatch.chdir(work)
    shared = [Path("/tmp"), Path.home() / ".cache"]
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    secret = "xyzzy-7f3a"
    before = _snapshot(*shared)
    with caplog.at_level(logging.DEBUG):
        _, session = assistant.ask(scene(5), f"What colour is the {secret} cup?")
        _, session = assistant.resolve(session, 2)
        _, session = assistant.resolve(session, "the one on the left")
        _, session = assistant.resolve(session, (20.0, 20.0))
    after = _snapshot(*shared)
    assert [p for d in (own_tmp, own_cache, work) for p in d.rglob("*")] == []
    changed = [p for p, m in after.items() if before.get(p) != m and not p.startswith(str(tmp_path))]
    leaks = [p for p in changed if _contains(Path(p), secret.encode())]
    assert not leaks, leaks
    assert secret not in caplog.text


def _contains(path: Path, needle: bytes) -> bool:
    try:
        return needle in path.read_bytes()
    except OSError:
        return False
