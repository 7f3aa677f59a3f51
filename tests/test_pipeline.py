"""The two-turn pipeline end to end: the tiny Qwen2.5-VL (real transformers path) + the blobs pointer on
synthetic scenes whose number of objects is known by construction. The tiny model's words are noise, so
the tests assert the flow: strategy by count, model-call counts, region choice, second-turn wiring."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

import pytest
from PIL import Image, ImageDraw

from assistant.errors import InputError, SessionError
from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig, ReplyText, TurnDone, UserTurn, grounding_phrase
from assistant.question import analyse_question
from assistant.session import Session
from assistant.types import Level, Reply, Strategy
from models.base import Ability, GenerationSettings, ModelBase
from models.blob_pointer import BlobPointer
from models.errors import ModelError, ModelOutOfMemory, ModelTimeout
from models.vlm_pointer import VLMPointer

COLOURS = ["red", "blue", "green", "orange", "purple", "brown", "black"]


def scene(n: int, size: tuple[int, int] = (640, 480), side: int = 80) -> Image.Image:
    """n equal squares in a row on white, left to right in COLOURS order."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    step = size[0] // n
    for i in range(n):
        x = i * step + step // 2
        y = size[1] // 2
        draw.rectangle((x - side // 2, y - side // 2, x + side // 2, y + side // 2), fill=COLOURS[i])
    return image


# Short generations: the tiny model's output is noise, and the flow does not depend on its length.
FAST = AssistantConfig(
    recognition_settings=GenerationSettings(max_new_tokens=16),
    answer_settings=GenerationSettings(max_new_tokens=16),
)


@pytest.fixture(scope="module")
def assistant(tiny_vlm) -> Assistant:
    return Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)


@pytest.mark.parametrize(
    ("n", "strategy", "level", "vlm_calls"),
    [
        (1, Strategy.ANSWER, Level.UNAMBIGUOUS, 2),  # recognition + answer
        (2, Strategy.ENUMERATE, Level.FEW, 3),  # recognition + one per referent (one batched call)
        (3, Strategy.ENUMERATE, Level.FEW, 4),
        (5, Strategy.CLARIFY, Level.MANY, 1),  # recognition only: the question is built from the list
    ],
)
def test_first_turn_strategy_by_count(assistant, n, strategy, level, vlm_calls) -> None:
    reply, session = assistant.ask(scene(n), "What colour is the cup?")
    assert (reply.strategy, reply.level) == (strategy, level)
    assert len(reply.candidates) == n
    assert reply.model_calls == {"vlm": vlm_calls, "pointer": 1}
    assert set(reply.timings) >= {"load", "recognition", "grounding", "policy", "response", "total"}
    assert reply.timings["total"] >= reply.timings["recognition"]
    assert [t.role for t in session.history] == ["user", "assistant"]
    # Candidates are numbered left to right; the blobs pointer names each by its colour.
    xs = [r.box.centre[0] for r in reply.candidates.regions]
    assert xs == sorted(xs) and [r.id for r in reply.candidates.regions] == list(range(1, n + 1))
    assert [r.label.split()[0] for r in reply.candidates.regions][:4] == COLOURS[: min(n, 4)]


def test_reply_texts_state_the_strategy(assistant) -> None:
    reply, _ = assistant.ask(scene(3), "What colour is the cup?")
    lines = reply.text.splitlines()
    assert lines[0] == "Three cups could be meant."
    assert lines[1].startswith("1. The red cup on the left: ")
    reply, _ = assistant.ask(scene(5), "What colour is the cup?")
    assert reply.text.startswith("I see five cups. Which one do you mean?")
    assert "\n1: the red cup on the left" in reply.text and "\n5: the brown cup" not in reply.text
    assert reply.text.count("\n") == 5


def test_infer_for_vague_pronoun_and_plural_answers(assistant) -> None:
    reply, _ = assistant.ask(scene(1), "What is this?")
    assert reply.strategy is Strategy.INFER
    assert reply.text.startswith("I assume you mean the red object in the centre (number 1).")
    reply, _ = assistant.ask(scene(4), "What colour are the cups?")
    assert reply.strategy is Strategy.ANSWER and reply.model_calls["vlm"] == 2


def test_spatial_descriptor_answers_about_that_region(assistant) -> None:
    reply, _ = assistant.ask(scene(3), "What colour is the cup on the right?")
    assert (reply.strategy, reply.referents) == (Strategy.ANSWER, (3,))
    assert reply.model_calls["vlm"] == 2


def test_second_turn_by_number_click_and_hint(assistant) -> None:
    reply, session = assistant.ask(scene(5), "What colour is the cup?")
    assert reply.strategy is Strategy.CLARIFY
    by_id, session = assistant.resolve(session, 2)
    assert by_id.resolved_region == 2 and by_id.strategy is Strategy.ANSWER
    assert by_id.text.startswith("About the blue cup")
    assert by_id.model_calls == {"vlm": 1}
    centre = session.candidates.by_id(4).box.centre
    by_click, session = assistant.resolve(session, centre)
    assert by_click.resolved_region == 4
    by_hint, session = assistant.resolve(session, "the one on the far right")
    assert by_hint.resolved_region == 5 and by_hint.model_calls == {"vlm": 1}
    roles = [t.role for t in session.history]
    assert roles == ["user", "assistant"] * 4
    assert session.history[-2].region_id == 5


def test_unmatched_hint_asks_the_vlm_then_asks_again(assistant) -> None:
    _, session = assistant.ask(scene(5), "What colour is the cup?")
    reply, session = assistant.resolve(session, "the shiny one")
    # spatial words did not decide, so one VLM call tried to map the hint; the tiny model's noise
    # names a number only by chance: either that candidate is answered (one more call) or it asks again.
    if reply.resolved_region is None:
        assert reply.model_calls == {"vlm": 1}
        assert reply.strategy is Strategy.CLARIFY and "could not tell which one" in reply.text
    else:
        assert reply.model_calls == {"vlm": 2}


@dataclass
class HintServer:
    """An OpenAI-compatible server whose every reply is `reply`; keeps the prompts it was sent."""

    reply: str = "0"
    prompts: list[str] = field(default_factory=list)


def _hint_server_handler(state: HintServer):
    from tests.chat_server import JSONHandler

    class Handler(JSONHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            content = body["messages"][-1]["content"]
            texts = [content] if isinstance(content, str) else [p["text"] for p in content if "text" in p]
            state.prompts.append(" ".join(texts))
            choice = {"index": 0, "message": {"role": "assistant", "content": state.reply}}
            self._send(200, {"id": "x", "object": "chat.completion", "created": 0, "choices": [choice]})

    return Handler


@pytest.mark.parametrize(("model_reply", "resolved"), [("3", 3), ("Number 2.", 2), ("none of them", None)])
def test_hint_the_words_cannot_map_goes_to_the_model_with_the_list(model_reply, resolved) -> None:
    from models.openai_vlm import OpenAICompatibleVLM
    from tests.chat_server import serve

    state = HintServer()
    with serve(_hint_server_handler(state)) as url:
        vlm = OpenAICompatibleVLM("served", base_url=url, api_key="k", timeout=10, max_retries=0)
        a = Assistant(vlm, Grounder(BlobPointer()), FAST)
        first, session = a.ask(scene(4), "What colour is the cup?")
        assert first.strategy is Strategy.CLARIFY
        state.reply = model_reply
        reply, session = a.resolve(session, "the shiny one")
    hint_prompt = state.prompts[-2] if resolved else state.prompts[-1]
    assert '"the shiny one"' in hint_prompt and "1: the red cup on the left" in hint_prompt
    assert "4: the orange cup on the right" in hint_prompt
    assert reply.resolved_region == resolved
    assert reply.model_calls == {"vlm": 2 if resolved else 1}
    if resolved is None:
        assert reply.strategy is Strategy.CLARIFY and "could not tell which one" in reply.text


def test_hint_that_fits_several_equally_asks_among_them_without_a_model_call(assistant) -> None:
    from tests.ui_support import FOUR_SHAPES

    image = Image.new("RGB", (640, 480), "white")
    draw = ImageDraw.Draw(image)
    for box, colour in FOUR_SHAPES:
        draw.rectangle(box, fill=colour)
    first, session = assistant.ask(image, "What colour is the square?")
    assert first.strategy is Strategy.CLARIFY and len(first.candidates) == 4
    reply, session = assistant.resolve(session, "the one on the left")
    assert reply.resolved_region is None and reply.model_calls == {}
    # numbered row by row: the left column is 1 (top) and 3 (bottom)
    assert reply.strategy is Strategy.CLARIFY and reply.referents == (1, 3)
    # The reply says why the other two marked squares are not asked about: its count agrees with the list.
    assert reply.text.startswith(
        "Your words fit more than one. I see two squares. Numbers 2 and 4 are also marked; they do not fit "
        "your words. Which one do you mean?"
    )
    assert "1: the red square at the top left" in reply.text and "2:" not in reply.text
    reply, session = assistant.resolve(session, "the one at the top left")
    assert reply.resolved_region == 1 and reply.model_calls == {"vlm": 1}


def test_bad_choices_are_clear_errors_and_change_nothing(assistant) -> None:
    _, session = assistant.ask(scene(3), "What colour is the cup?")
    with pytest.raises(SessionError, match="outside the photo"):
        assistant.resolve(session, (9999.0, 5.0))
    with pytest.raises(SessionError, match="no region number 9; the numbers are: 1, 2, 3"):
        assistant.resolve(session, 9)
    assert len(session.history) == 2 and len(session.candidates) == 3


def test_click_on_background_makes_a_new_region(assistant) -> None:
    # Without a segmenter the new region is a small box round the click; it joins the numbered list.
    _, session = assistant.ask(scene(3), "What colour is the cup?")
    reply, session = assistant.resolve(session, (20.0, 20.0))
    assert len(session.candidates) == 4
    new = session.candidates.by_id(reply.resolved_region)
    assert new.source == "click" and new.box.contains(20, 20)
    assert reply.text.startswith(f"About {new.description} (number {new.id})")


def test_another_question_about_the_same_image(assistant) -> None:
    _, session = assistant.ask(scene(2), "What colour is the cup?")
    reply, same = assistant.ask(None, "What colour is the box?", session)
    # A new session after the turn; the one given is unchanged.
    assert same is not session and same.id == session.id
    assert len(same.history) == 4 and len(session.history) == 2
    assert same.question == "What colour is the box?" and session.question == "What colour is the cup?"
    assert reply.strategy is Strategy.ENUMERATE


def test_resolve_before_ask_and_ask_without_image(assistant) -> None:
    with pytest.raises(SessionError, match="Ask a question"):
        assistant.resolve(Session(), 1)
    with pytest.raises(SessionError, match="add a photo"):
        assistant.ask(None, "What is it?")


def test_bad_question_and_image_keep_the_session(assistant) -> None:
    _, session = assistant.ask(scene(2), "What colour is the cup?")
    with pytest.raises(InputError, match="Please type a question"):
        assistant.ask(None, "   ", session)
    with pytest.raises(InputError):
        assistant.ask(b"not an image", "What is it?", session)
    assert session.question == "What colour is the cup?" and session.image is not None
    assert assistant.resolve(session, 1)[0].resolved_region == 1


class FailingVLM:
    """A VisionLanguageModel whose calls fail the way real ones do (exception types of models.errors)."""

    name = "failing"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def generate(self, messages, settings=None) -> str:
        raise self.error

    def generate_batch(self, conversations, settings=None) -> list[str]:
        raise self.error

    def describe(self) -> dict:
        return {"name": self.name}


@pytest.mark.parametrize(
    "error", [ModelError("the model failed"), ModelTimeout("timed out"), ModelOutOfMemory("out of memory")]
)
def test_model_faults_fail_the_turn_and_keep_the_session(assistant, error) -> None:
    _, session = assistant.ask(scene(2), "What colour is the cup?")
    broken = Assistant(FailingVLM(error), assistant.grounder)
    with pytest.raises(ModelError, match=str(error)):
        broken.ask(None, "What colour is the box?", session)
    assert session.question == "What colour is the cup?"
    assert assistant.resolve(session, 2)[0].resolved_region == 2


def test_vlm_boxes_pointer_on_noise_gives_no_candidates_and_answers(tiny_vlm) -> None:
    # The tiny model's grounding output is noise, not JSON: no candidates, a note, and a plain answer.
    vlm_assistant = Assistant(tiny_vlm, Grounder(VLMPointer(tiny_vlm)), FAST)
    reply, _ = vlm_assistant.ask(scene(3), "What colour is the cup?")
    assert len(reply.candidates) == 0
    assert any("found no" in n for n in reply.candidates.notes)
    assert reply.strategy in (Strategy.ANSWER, Strategy.CLARIFY)
    assert reply.model_calls["pointer"] == 1


def test_grounding_phrase_keeps_visual_words_only() -> None:
    assert grounding_phrase(analyse_question("What colour is the red cup on the left?")) == "red cup"
    assert grounding_phrase(analyse_question("What is the emotional person wearing?")) == "person"
    assert grounding_phrase(analyse_question("What is the tallest building?")) == "building"


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="recognition prompt"):
        AssistantConfig(recognition_prompt="nope")
    with pytest.raises(ValueError, match="region marking"):
        AssistantConfig(region_marking="glow")


@pytest.mark.parametrize("prompt", ["focus_recognition_zs", "focus_recognition_fs_ecot"])
def test_every_recognition_prompt_runs(tiny_vlm, prompt) -> None:
    a = Assistant(tiny_vlm, Grounder(BlobPointer()), replace(FAST, recognition_prompt=prompt))
    reply, _ = a.ask(scene(2), "What colour is the cup?")
    assert reply.verdict.value in ("ambiguous", "unambiguous", "undecided")
    assert reply.strategy is Strategy.ENUMERATE


def test_second_turn_carries_the_first_turns_verdict(assistant) -> None:
    first, session = assistant.ask(scene(5), "What colour is the cup?")
    second, session = assistant.resolve(session, 1)
    third, session = assistant.resolve(session, "the one on the right")
    assert second.verdict is first.verdict and third.verdict is first.verdict


@pytest.mark.parametrize(
    ("marking", "says"),
    [
        ("marker", "marked in the image with a numbered outline"),
        ("crop", "The image is a crop of the photo around it (in the full photo: box x"),
        ("box", "Nothing is drawn on the image."),
    ],
)
def test_region_prompt_says_how_the_region_is_shown(marking, says) -> None:
    from models.openai_vlm import OpenAICompatibleVLM
    from tests.chat_server import serve

    state = HintServer(reply="It is red.")
    with serve(_hint_server_handler(state)) as url:
        vlm = OpenAICompatibleVLM("served", base_url=url, api_key="k", timeout=10, max_retries=0)
        a = Assistant(vlm, Grounder(BlobPointer()), replace(FAST, region_marking=marking))
        reply, _ = a.ask(scene(2), "What colour is the cup?")
    assert reply.strategy is Strategy.ENUMERATE
    # After the recognition call: one per referent, sent at once (generate_batch), so in either order.
    region_prompts = sorted(state.prompts[1:], key=lambda p: "red cup" not in p)
    assert len(region_prompts) == 2 and all(says in p for p in region_prompts)
    assert "The question is about the red cup on the left" in region_prompts[0]


# ---------------------------------------------------------------- streaming (the turn as events)

# Longer answers than FAST, so the tiny model's reply comes in several pieces.
STREAMED = replace(FAST, answer_settings=GenerationSettings(max_new_tokens=48))


def _drain(events) -> tuple[list[str], Reply, Session]:
    """The texts of a turn's ReplyText events, and its TurnDone's reply and session."""
    texts, done = [], None
    for event in events:
        if isinstance(event, ReplyText):
            texts.append(event.text)
        elif isinstance(event, TurnDone):
            done = event
    assert done is not None
    return texts, done.reply, done.session


def _grows_to(texts: list[str], final: str) -> None:
    """The texts grow (each a prefix of the next; greedy decoding) and the last is the final reply."""
    assert texts and texts[-1] == final
    assert all(b.startswith(a) and b != a for a, b in zip(texts, texts[1:], strict=False)), texts


@pytest.fixture(scope="module")
def streamed(tiny_vlm) -> Assistant:
    return Assistant(tiny_vlm, Grounder(BlobPointer()), STREAMED)


@pytest.mark.parametrize(
    ("question", "strategy", "opening"),
    [
        ("What colour is the cup?", Strategy.ANSWER, None),
        ("What is this?", Strategy.INFER, "I assume you mean the red object in the centre (number 1). "),
    ],
)
def test_events_stream_answer_and_infer_replies_and_change_nothing(
    streamed, question, strategy, opening
) -> None:
    plain, _ = streamed.ask(scene(1), question)
    texts, reply, session = _drain(streamed.ask_events(scene(1), question))
    assert reply.strategy is strategy
    _grows_to(texts, reply.text)
    assert len(texts) > 3  # the model's pieces, not one text at the end
    if opening:
        assert texts[0] == opening  # the fixed opening before the model's first piece
    # The same reply, calls and history as without streaming.
    assert (reply.text, reply.model_calls) == (plain.text, plain.model_calls)
    assert session.history[-1].text == reply.text


def test_events_stream_the_second_turns_answer(streamed) -> None:
    _, plain_session = streamed.ask(scene(5), "What colour is the cup?")
    plain, _ = streamed.resolve(plain_session, 2)
    first_texts, first, session = _drain(streamed.ask_events(scene(5), "What colour is the cup?"))
    assert first.strategy is Strategy.CLARIFY and first_texts == [first.text]  # no model call: once, whole
    before = list(session.history)
    events = list(streamed.resolve_events(session, 2))
    assert events[0] == UserTurn("Number 2")  # the user's turn first, before any of the reply
    texts, reply, after = _drain(events)
    assert session.history == before and len(after.history) == len(before) + 2  # the input is unchanged
    assert (
        texts[0] == "About the blue cup on the left (number 2): " and texts[0] == plain.text[: len(texts[0])]
    )
    _grows_to(texts, reply.text)
    assert len(texts) > 3
    assert (reply.text, reply.model_calls) == (plain.text, plain.model_calls)
    # A hint the words cannot map: a model call picks the number (never streamed), then, by the tiny
    # model's chance, an answer streams or the question comes again, once; either way it ends on the reply.
    clarify_texts, reply, _ = _drain(streamed.resolve_events(session, "the shiny one"))
    assert clarify_texts[-1] == reply.text


def test_enumerate_reply_comes_once_whole(streamed) -> None:
    texts, reply, _ = _drain(streamed.ask_events(scene(2), "What colour is the cup?"))
    assert reply.strategy is Strategy.ENUMERATE and texts == [reply.text]
    assert reply.model_calls == {"vlm": 3, "pointer": 1}


class WholeVLM(ModelBase):
    """A VisionLanguageModel without generate_stream: its replies come whole."""

    name = "whole"

    def __init__(self, reply: str) -> None:
        self.reply = reply

    def generate(self, messages, settings=None) -> str:
        return self.reply

    def generate_batch(self, conversations, settings=None) -> list[str]:
        return [self.reply for _ in conversations]

    def describe(self) -> dict:
        return {"name": self.name}


def test_events_with_a_model_that_does_not_stream(assistant) -> None:
    whole = Assistant(WholeVLM("  It is   red. "), assistant.grounder, FAST)
    texts, reply, _ = _drain(whole.ask_events(scene(1), "What is this?"))
    assert reply.strategy is Strategy.INFER
    assert texts == ["I assume you mean the red object in the centre (number 1). ", reply.text]
    assert reply.text.endswith("(number 1). It is red.")
    silent = Assistant(WholeVLM(""), assistant.grounder, FAST)
    texts, reply, _ = _drain(silent.ask_events(scene(1), "What colour is the cup?"))
    assert texts == [reply.text] == ["(the model gave no answer)"]


def test_a_model_error_in_the_middle_of_a_stream_fails_the_turn(assistant) -> None:
    class BreaksMidway(WholeVLM):
        ABILITIES = frozenset({Ability.STREAM})

        def generate_stream(self, messages, settings=None):
            yield "It is"
            raise ModelTimeout("the model server stopped sending its reply for 5 s")

    _, session = assistant.ask(scene(5), "What colour is the cup?")
    broken = Assistant(BreaksMidway("unused"), assistant.grounder, FAST)
    texts: list[str] = []
    with pytest.raises(ModelTimeout):
        for event in broken.resolve_events(session, 2):
            if isinstance(event, ReplyText):
                texts.append(event.text)
    assert texts == [
        "About the blue cup on the left (number 2): ",
        "About the blue cup on the left (number 2): It is",
    ]


def test_model_text_loses_control_characters_and_extra_space() -> None:
    from assistant.pipeline import _tidy

    assert _tidy("  It is\x01 red.\n\n\x1b[31mReally\x7f \u0085 ") == "It is red. [31mReally"
    assert _tidy("\x00\x02 \n") == "(the model gave no answer)"
    assert _tidy("Café, 红色, ½") == "Café, 红色, ½"  # text in any script stays


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ((float("nan"), 5.0), "position on the photo"),
        ((float("inf"), 5.0), "position on the photo"),
        ("number -1", "no region number -1; the numbers are: 1, 2, 3"),
        ("#2.5", "no region number 2.5; the numbers are: 1, 2, 3"),
        ("-2", "no region number -2"),
    ],
)
def test_non_finite_clicks_and_numbers_that_are_no_region_are_refused(assistant, choice, message) -> None:
    _, session = assistant.ask(scene(3), "What colour is the cup?")
    with pytest.raises(SessionError, match=re.escape(message)):
        assistant.resolve(session, choice)
    assert len(session.history) == 2 and session.candidates is not None and len(session.candidates) == 3


def test_closing_a_turns_events_early_stops_the_models_stream(streamed) -> None:
    """Cancelling is closing the generator: the model's stream is closed with it."""
    closed: list[bool] = []

    class Watched(WholeVLM):
        ABILITIES = frozenset({Ability.STREAM})

        def generate_stream(self, messages, settings=None):
            try:
                yield from ("It", " is", " red", " and", " round")
            finally:
                closed.append(True)

    watched = Assistant(Watched("unused"), streamed.grounder, FAST)
    events = watched.ask_events(scene(1), "What colour is the cup?")
    texts = []
    for event in events:
        if isinstance(event, ReplyText):
            texts.append(event.text)
        if len(texts) == 2:
            break
    events.close()
    assert closed == [True] and texts[-1] == "It is"
