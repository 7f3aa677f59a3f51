"""The two-turn assistant: `ask(image, question)` and `resolve(session, choice)`.

VLM calls per turn (what `Reply.model_calls` counts):
- first turn: 1 recognition call (by default one forward pass: P(ambiguous) is the probability of "Yes"
  against "No" as the reply's first token, the verdict that probability against `ambiguity_threshold`; or
  one of the five VQ-FocusAmbiguity prompts, generated and its verdict parsed from free text);
  1 pointer call (the VLM's own boxes, or Molmo when configured); then the response: answer / infer
  1 call, enumerate 1 batched call of k = 2-3 generations (one per referent, each with that referent
  marked), clarify 0 calls (the question is built from the candidate list, which is what the user must
  choose from anyway).
- second turn: 1 call about the chosen region (marked on the image and named with its box in the prompt);
  a typed hint that spatial words cannot map costs 1 more call to pick the candidate number.

A turn is a stream of events (`ask_events`, `resolve_events`): `UserTurn` (a second turn: the user's choice
as the conversation records it), `ReplyText` (the reply's whole text so far, each new text once, growing)
and, last, `TurnDone` with the finished reply and the session after the turn. The session given is never
changed: TurnDone carries a new one. Where the reply is one model call (answer, infer, the second turn's
answer about the chosen region) and `stream=True`, it gets the fixed opening first ("I assume you mean ...
(number 1). ", "About ... (number 2): "), then the text as the model streams it
(models.base.stream_generate); an enumerate reply (one batched call) and a clarify reply (no call) come
once, whole. The last ReplyText is always the reply's final text. Closing the stream early stops the turn
(the model's stream at its next piece). `ask()` and `resolve()` drain the stream for callers that want one
result. Streaming changes no call count and no reply.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import Counter
from collections.abc import Generator, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Literal, cast

from PIL import Image

from assistant.ahead import ahead, listed_choices
from assistant.errors import ConfigError, SessionError
from assistant.grounding import Grounder
from assistant.images import MAX_SIDE, ImageSource, load_image
from assistant.languages import language_name
from assistant.languages.catalog import ENGLISH, Say
from assistant.languages.hints import hint_in_english
from assistant.languages.question import analyse_any
from assistant.languages.referent import read_referent
from assistant.languages.say_reply import count_text, localise_candidates
from assistant.marking import MARK_MODES, MarkMode, box_text, image_for_region
from assistant.policy import PolicyConfig, noun_for, strategy_for
from assistant.regions import regions_for_hint
from assistant.session import Session
from assistant.types import Candidates, Decision, Level, QuestionFocus, Region, Reply, Strategy, Verdict
from assistant.validation import MAX_QUESTION_CHARS, clean_hint, clean_question, without_control_characters
from assistant.verdict import parse_verdict
from assistant.words import is_unique_descriptor
from models.base import (
    Ability,
    ChatMessage,
    Conversation,
    GenerationSettings,
    ImagePreparingModel,
    VisionLanguageModel,
    answer_probabilities,
    can,
    stream_generate,
)
from models.errors import ModelError
from models.memory import release_free_memory
from models.registry import create_pointer, create_segmenter, create_vlm
from prompts import render_prompt

ONE_PASS_RECOGNITION = "focus_recognition_yesno"  # P(ambiguous) from one forward pass: Yes against No
log = logging.getLogger(__name__)
RECOGNITION_PROMPTS = (
    ONE_PASS_RECOGNITION,
    "focus_recognition_zs",
    "focus_recognition_zs_cot",
    "focus_recognition_zs_ecot",
    "focus_recognition_fs",
    "focus_recognition_fs_ecot",
)

Choice = int | tuple[float, float] | str


@dataclass(frozen=True)
class UserTurn:
    """A second turn's user message as the conversation records it ("Number 2", "(clicked at 120, 80)",
    the hint), before the reply."""

    text: str


@dataclass(frozen=True)
class ReplyText:
    """The reply's whole text so far."""

    text: str


@dataclass(frozen=True)
class TurnDone:
    """The finished reply and the session after the turn (a new Session; the one given is unchanged)."""

    reply: Reply
    session: Session


TurnEvent = UserTurn | ReplyText | TurnDone


# A hint that is only a negative or fractional "number": refused with the list, never read as a region.
_NOT_A_REGION_NUMBER = re.compile(
    r"^\s*(?:#|number|no\.?|region|option|candidate)?\s*(-\s*\d+(?:[.,]\d+)?|\d+[.,]\d+)\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class AssistantConfig:
    # One forward pass (P(ambiguous) read from the first reply token) instead of a generated chain of
    # thought: on a CPU the ECoT prompt costs 256 tokens before the answer starts. The five
    # VQ-FocusAmbiguity prompts (zs_ecot was best for Qwen2.5-VL in its Table 2) stay selectable.
    recognition_prompt: str = ONE_PASS_RECOGNITION
    ambiguity_threshold: float = 0.5  # P(ambiguous) at or above this is the verdict "ambiguous"
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    answer_settings: GenerationSettings = GenerationSettings(max_new_tokens=128)
    recognition_settings: GenerationSettings = GenerationSettings(max_new_tokens=256)
    region_marking: MarkMode = "marker"  # how the model is told which region: see assistant.marking
    max_question_chars: int = MAX_QUESTION_CHARS
    max_image_side: int = MAX_SIDE
    # After a reply that lists candidates, the marked copies of the first this many are encoded while the
    # user reads it (assistant/ahead.py); 0 for the benchmark's scoring, where nobody reads.
    choices_ahead: int = 3

    def __post_init__(self) -> None:
        if self.recognition_prompt not in RECOGNITION_PROMPTS:
            raise ConfigError(
                f"unknown recognition prompt {self.recognition_prompt!r}; "
                f"known: {', '.join(RECOGNITION_PROMPTS)}"
            )
        if not 0.0 <= self.ambiguity_threshold <= 1.0:
            raise ConfigError(f"ambiguity_threshold must be within 0 and 1, not {self.ambiguity_threshold}")
        if self.choices_ahead < 0:
            raise ConfigError(f"choices_ahead must be 0 or more, not {self.choices_ahead}")
        if self.region_marking not in MARK_MODES:
            raise ConfigError(
                f"unknown region marking {self.region_marking!r}; known: {', '.join(MARK_MODES)}"
            )


class Assistant:
    """Ties the VLM, the grounding stage and the policy together. Holds no conversation state."""

    def __init__(
        self, vlm: VisionLanguageModel, grounder: Grounder, config: AssistantConfig | None = None
    ) -> None:
        self.vlm = vlm
        self.grounder = grounder
        self.config = config or AssistantConfig()

    @classmethod
    def from_names(
        cls,
        vlm: str = "tiny",
        pointer: str = "vlm-boxes",
        segmenter: str | None = None,
        config: AssistantConfig | None = None,
        **vlm_kwargs,
    ) -> Assistant:
        """Build from registry names (see `whichone models`)."""

        model = create_vlm(vlm, **vlm_kwargs)
        point = create_pointer(pointer, vlm=model)
        segment = create_segmenter(segmenter) if segmenter else None
        return cls(model, Grounder(point, segment), config)

    # --- turn 1 -------------------------------------------------------------------------------------

    def open_image(self, source: ImageSource, session: Session | None = None) -> Session:
        """Decode an image into a session and start its segmentation embedding in the background."""
        session = session or Session()
        image = load_image(source, max_side=self.config.max_image_side)
        session.set_image(image)
        self.grounder.prepare(image, owner=session.id)
        if can(self.vlm, Ability.PREPARE_IMAGE):
            # The VLM's encoding of the photo too (a cached prompt prefix), while the user types.
            ahead().photo(cast(ImagePreparingModel, self.vlm), session.id, image)
        return session

    def _read_ahead(self, events: Generator[TurnEvent, None, None]) -> Generator[TurnEvent, None, None]:
        """`events`; at TurnDone, the choices its reply lists are queued for encoding while the user reads
        (assistant/ahead.py). Closing this closes `events`."""
        with closing(events):
            for event in events:
                if isinstance(event, TurnDone) and can(self.vlm, Ability.PREPARE_IMAGE):
                    image = event.session.image
                    regions = listed_choices(event.reply, self.config.choices_ahead)
                    if regions and image is not None:
                        vlm = cast(ImagePreparingModel, self.vlm)
                        ahead().choices(vlm, image, regions, self.config.region_marking)
                yield event

    def ask(
        self, image: ImageSource | None, question: str, session: Session | None = None
    ) -> tuple[Reply, Session]:
        """First turn, all at once: (reply, the session after it). See ask_events."""
        done = _last(self.ask_events(image, question, session, stream=False))
        return done.reply, done.session

    def ask_events(
        self, image: ImageSource | None, question: str, session: Session | None = None, *, stream: bool = True
    ) -> Generator[TurnEvent, None, None]:
        """First turn as events (see the module's notes). `image` may be None to ask another question about
        the session's image. `stream`: the answer's text as the model writes it (else one ReplyText)."""
        ahead().step(session.id if session is not None else None)  # drops queued guesses
        yield from self._read_ahead(_turn_events(self._ask_steps(image, question, session, stream)))

    def _ask_steps(
        self, image: ImageSource | None, question: str, session: Session | None, stream: bool
    ) -> Generator[TurnEvent, None, None]:
        timer = _Timer()
        with timer("load"):
            session = self._turn_session(image, session)
            question = clean_question(question, self.config.max_question_chars)
            focus = analyse_any(question)
        img = session.image
        assert img is not None
        calls: Counter[str] = Counter()
        if focus.language != "en":  # the referent in English for the pointer: one short text-only call
            with timer("referent"):
                focus = read_referent(self.vlm, focus)
                calls["vlm"] += 1
        say = Say(focus.language)
        chosen = session.chosen()
        if chosen is not None and points_back(focus):
            yield from self._follow_up(session, question, focus, chosen, timer, calls, stream, say)
            return
        session.chosen_region = None  # a question that names a thing starts afresh

        with timer("recognition"):
            verdict, probability, raw = self._recognise(img, question)
            calls["vlm"] += 1
        with timer("grounding"):
            phrase = grounding_phrase(focus)
            candidates = self._candidates(img, phrase, calls)
            candidates = localise_candidates(candidates, say, noun_for(focus, candidates.regions))
        with timer("policy"):
            decision = strategy_for(focus, verdict, candidates, self.config.policy)
        with timer("response"):
            text = yield from self._respond(img, question, focus, decision, candidates, calls, stream, say)

        reply = Reply(
            text=text,
            strategy=decision.strategy,
            level=decision.level,
            candidates=candidates,
            explanation=decision.explanation,
            verdict=verdict,
            focus=focus,
            referents=decision.referents,
            verdict_raw=raw,
            ambiguity_probability=probability,
            timings=timer.finish(),
            model_calls=dict(calls),
        )
        session.question, session.focus, session.candidates = question, focus, candidates
        session.last_reply = reply
        session.add("user", question)
        session.add("assistant", text)
        yield ReplyText(reply.text)
        yield TurnDone(reply, session)

    def _turn_session(self, image: ImageSource | None, session: Session | None) -> Session:
        """The session a first turn works on (a copy; the one given is unchanged): a new photo opens in it,
        else it must hold one already."""
        if image is not None:
            return self.open_image(image, session.copy() if session is not None else None)
        if session is None or session.image is None:
            raise SessionError("Please add a photo first.")
        return session.copy()

    def _follow_up(
        self,
        session: Session,
        question: str,
        focus: QuestionFocus,
        region: Region,
        timer: _Timer,
        calls: Counter[str],
        stream: bool,
        say: Say = ENGLISH,
    ) -> Generator[TurnEvent, None, None]:
        """A question that points back ("what is he holding?", "and its colour?") after a choice: about the
        chosen region, saying so in one phrase; no recognition or grounding call (the candidates stay)."""
        img, candidates = session.image, session.candidates
        assert img is not None and candidates is not None
        opening = say(
            "About {description} (number {id}), the one you chose: ",
            description=region.description,
            id=region.id,
        )
        with timer("response"):
            answer = yield from self._answer_region(
                img, question, region, candidates, calls, stream, opening, say.lang
            )
        previous = session.last_reply
        said = focus.pronoun_word or say("the question")
        reply = Reply(
            text=opening + answer,
            strategy=Strategy.ANSWER,
            level=Level.UNAMBIGUOUS,
            candidates=candidates,
            explanation=say(
                "Your question points back ('{said}') to number {id}, which you chose; "
                "a question that names a thing starts afresh.",
                said=said,
                id=region.id,
            ),
            verdict=previous.verdict if previous else Verdict.UNDECIDED,
            ambiguity_probability=previous.ambiguity_probability if previous else None,
            focus=focus,
            referents=(region.id,),
            timings=timer.finish(),
            model_calls=dict(calls),
            resolved_region=region.id,
        )
        session.question, session.focus, session.last_reply = question, focus, reply
        session.add("user", question)
        session.add("assistant", reply.text, region.id)
        yield ReplyText(reply.text)
        yield TurnDone(reply, session)

    # --- turn 2 -------------------------------------------------------------------------------------

    def resolve(self, session: Session, choice: Choice) -> tuple[Reply, Session]:
        """Second turn, all at once: (reply, the session after it). See resolve_events."""
        done = _last(self.resolve_events(session, choice, stream=False))
        return done.reply, done.session

    def resolve_events(
        self, session: Session, choice: Choice, *, stream: bool = True
    ) -> Generator[TurnEvent, None, None]:
        """Second turn as events: answer the session's question about the region the user chose.

        choice: a region id (int), a click (x, y) in working-image pixels, or a typed hint (str).
        """
        ahead().step(session.id)  # drops queued guesses
        yield from self._read_ahead(_turn_events(self._resolve_steps(session, choice, stream)))

    def _resolve_steps(
        self, session: Session, choice: Choice, stream: bool
    ) -> Generator[TurnEvent, None, None]:
        image, question, candidates = session.image, session.question, session.candidates
        say = Say(session.focus.language) if session.focus else ENGLISH
        if image is None or question is None or candidates is None:
            raise SessionError(say("Ask a question about a photo first; then choose which one you mean."))
        session = session.copy()
        timer = _Timer()
        calls: Counter[str] = Counter()
        with timer("choose"):
            chosen = self._choose(session, choice, calls, say)
        session.candidates = chosen.candidates
        session.chosen_region = chosen.region.id if chosen.region else None
        session.add("user", chosen.user_text, session.chosen_region)
        yield UserTurn(chosen.user_text)
        if chosen.region is None:
            reply = _ask_again_reply(session, chosen.fitting, timer, calls, say)
        else:
            reply = yield from self._answer_chosen(session, chosen.region, timer, calls, stream, say)
        session.last_reply = reply
        session.add("assistant", reply.text, reply.resolved_region)
        yield ReplyText(reply.text)
        yield TurnDone(reply, session)

    def _choose(self, session: Session, choice: Choice, calls: Counter[str], say: Say) -> _Chosen:
        """The region the user's choice names: by its number, a click on the photo, or a typed hint."""
        candidates = session.candidates
        assert candidates is not None
        if isinstance(choice, bool):
            raise SessionError(say("Choose a region by its number, a click on the photo, or a few words."))
        if isinstance(choice, int):
            region = candidates.by_id(choice)
            if region is None:
                raise _no_region_number(choice, candidates, say)
            return _Chosen(region, candidates, say("Number {id}", id=region.id))
        if isinstance(choice, tuple):
            return self._chosen_by_click(session, choice, calls, say)
        return self._chosen_by_hint(session, choice, calls, say)

    def _chosen_by_click(
        self, session: Session, click: tuple[float, float], calls: Counter[str], say: Say
    ) -> _Chosen:
        """The region at a click (the segmenter finds one there when no candidate holds the point)."""
        image, candidates = session.image, session.candidates
        assert image is not None and candidates is not None
        if len(click) != 2 or not all(math.isfinite(float(v)) for v in click):
            raise SessionError(say("A click needs a position on the photo, in pixels."))
        region, candidates = self._region_from_click(image, candidates, click, calls)
        candidates = localise_candidates(candidates, say, noun_for(session.focus, candidates.regions))
        region = candidates.by_id(region.id) or region
        return _Chosen(
            region, candidates, say("(clicked at {x}, {y})", x=f"{click[0]:.0f}", y=f"{click[1]:.0f}")
        )

    def _chosen_by_hint(self, session: Session, typed: str, calls: Counter[str], say: Say) -> _Chosen:
        """The region a typed hint names: by its position words, else by asking the VLM; None when the
        words fit several equally (the reply asks among those, no model call) or the VLM names none."""
        question, candidates = session.question, session.candidates
        assert question is not None and candidates is not None
        hint = clean_hint(typed)
        not_a_number = _NOT_A_REGION_NUMBER.match(hint)
        if not_a_number:  # "number -1", "#2.5": not one of the numbers, and no guess at one
            raise _no_region_number(not_a_number.group(1), candidates, say)
        # a hint in the question's language is read by its position words ("la de la izquierda")
        fitting = regions_for_hint(candidates, hint if say.lang == "en" else hint_in_english(hint, say.lang))
        if len(fitting) == 1:
            region: Region | None = fitting[0]
        elif fitting:
            region = None
        else:
            region = self._region_from_hint_vlm(question, candidates, hint, calls)
        return _Chosen(region, candidates, hint, tuple(fitting))

    def _answer_chosen(
        self, session: Session, region: Region, timer: _Timer, calls: Counter[str], stream: bool, say: Say
    ) -> Generator[TurnEvent, None, Reply]:
        """The second turn's answer about the chosen region, carrying the first turn's verdict forward."""
        image, question, candidates = session.image, session.question, session.candidates
        assert image is not None and question is not None and candidates is not None
        opening = say("About {description} (number {id}): ", description=region.description, id=region.id)
        with timer("response"):
            answer = yield from self._answer_region(
                image, question, region, candidates, calls, stream, opening, say.lang
            )
        verdict, probability = _carried_verdict(session)
        return Reply(
            text=opening + answer,
            strategy=Strategy.ANSWER,
            level=Level.UNAMBIGUOUS,
            candidates=candidates,
            explanation=say(
                "You chose number {id}, {description}.", id=region.id, description=region.description
            ),
            verdict=verdict,
            ambiguity_probability=probability,
            focus=session.focus,
            referents=(region.id,),
            timings=timer.finish(),
            model_calls=dict(calls),
            resolved_region=region.id,
        )

    # --- parts --------------------------------------------------------------------------------------

    def _recognise(self, image: Image.Image, question: str) -> tuple[Verdict, float | None, str]:
        """(verdict, P(ambiguous) or None, what the model said): one VLM call either way."""
        prompt = render_prompt(self.config.recognition_prompt, question=question)
        conversation = [ChatMessage("user", prompt, [image])]
        if self.config.recognition_prompt != ONE_PASS_RECOGNITION:
            raw = self.vlm.generate(conversation, self.config.recognition_settings)
            return parse_verdict(raw), None, raw
        scores = answer_probabilities(self.vlm, conversation, ("Yes", "No"))
        if not scores.probabilities:
            return Verdict.UNDECIDED, None, f"neither Yes nor No ({scores.source})"
        probability = scores.probabilities["Yes"]
        ambiguous = probability >= self.config.ambiguity_threshold
        raw = f"P(ambiguous) = {probability:.3f} ({scores.source}; Yes and No held {scores.covered:.0%})"
        return (Verdict.AMBIGUOUS if ambiguous else Verdict.UNAMBIGUOUS), probability, raw

    def _candidates(self, image: Image.Image, phrase: str, calls: Counter[str]) -> Candidates:
        try:
            candidates = self.grounder.candidates(image, phrase)
        except ModelError as exc:
            # No candidates is a usable outcome (the policy then answers or asks plainly).
            return Candidates([], image.size, phrase, [f"Finding candidates failed: {exc}"])
        finally:
            calls["pointer"] += 1
        if candidates.regions and any(r.mask is not None for r in candidates.regions):
            calls["segmenter"] += 1
        return candidates

    def _region_from_click(
        self, image: Image.Image, candidates: Candidates, point: tuple[float, float], calls: Counter[str]
    ) -> tuple[Region, Candidates]:
        """The grounder checks the click and picks or segments the region; a new one costs a SAM call."""
        new_candidates, region = self.grounder.region_from_click(
            image, candidates, float(point[0]), float(point[1])
        )
        if new_candidates is not candidates and self.grounder.segmenter is not None:
            calls["segmenter"] += 1
        return region, new_candidates

    def _region_from_hint_vlm(
        self, question: str, candidates: Candidates, hint: str, calls: Counter[str]
    ) -> Region | None:
        if not candidates.regions:
            return None
        prompt = render_prompt(
            "hint_to_region", question=question, candidate_list=_candidate_list(candidates.regions), hint=hint
        )
        raw = self.vlm.generate([ChatMessage("user", prompt)], GenerationSettings(max_new_tokens=8))
        calls["vlm"] += 1
        m = re.search(r"\d+", raw)
        return candidates.by_id(int(m.group())) if m else None

    def _respond(
        self,
        image: Image.Image,
        question: str,
        focus: QuestionFocus,
        decision: Decision,
        candidates: Candidates,
        calls: Counter[str],
        stream: bool,
        say: Say = ENGLISH,
    ) -> Generator[ReplyText, None, str]:
        """Yields the reply's text as it grows; returns the reply's text (use with `yield from`)."""
        referents = [r for i in decision.referents if (r := candidates.by_id(i)) is not None]
        lang = say.lang
        if decision.strategy is Strategy.CLARIFY:
            return _clarify_text(focus, candidates, referents, say=say)
        if decision.strategy is Strategy.ENUMERATE:
            convs = [self._region_conversation(image, question, r, candidates, lang) for r in referents]
            answers = self.vlm.generate_batch(convs, self.config.answer_settings)
            calls["vlm"] += len(convs)
            count = count_text(say, len(referents), noun_for(focus, referents))
            opening = say("{count} could be meant.", count=count)
            lines = [" ".join([opening, *_marked_beyond(candidates, referents, say=say)])]
            lines += [
                f"{r.id}. {_capital(r.description)}: {_tidy(a, say)}"
                for r, a in zip(referents, answers, strict=True)
            ]
            return "\n".join(lines)
        if decision.strategy is Strategy.INFER and referents:
            first = referents[0]
            opening = say(
                "I assume you mean {description} (number {id}). ", description=first.description, id=first.id
            )
            answer = yield from self._answer_region(
                image, question, first, candidates, calls, stream, opening, lang
            )
            return opening + answer
        if len(referents) == 1 and len(candidates) > 1:
            return (
                yield from self._answer_region(
                    image, question, referents[0], candidates, calls, stream, "", lang
                )
            )
        prompt = _in_language(render_prompt("answer", question=question), lang)
        calls["vlm"] += 1
        return (yield from self._answer([ChatMessage("user", prompt, [image])], stream, "", say))

    def _region_conversation(
        self, image: Image.Image, question: str, region: Region, candidates: Candidates, lang: str = "en"
    ) -> list[ChatMessage]:
        prompt = render_prompt(
            f"answer_region_{self.config.region_marking}",  # each mode says what the image shows
            question=question,
            target=region.description,
            box_text=box_text(region, candidates.image_size),
        )
        marked = image_for_region(image, region, self.config.region_marking)
        return [ChatMessage("user", _in_language(prompt, lang), [marked])]

    def _answer_region(
        self,
        image: Image.Image,
        question: str,
        region: Region,
        candidates: Candidates,
        calls: Counter[str],
        stream: bool,
        opening: str = "",
        lang: str = "en",
    ) -> Generator[ReplyText, None, str]:
        conv = self._region_conversation(image, question, region, candidates, lang)
        calls["vlm"] += 1
        return (yield from self._answer(conv, stream, opening, Say(lang)))

    def _answer(
        self, conversation: Conversation, stream: bool, opening: str = "", say: Say = ENGLISH
    ) -> Generator[ReplyText, None, str]:
        """Yields `opening` + the text so far as the model streams it (nothing unless `stream`); returns the
        model's tidied answer."""
        if not stream:
            return _tidy(self.vlm.generate(conversation, self.config.answer_settings), say)
        yield ReplyText(opening)
        so_far = ""
        with closing(stream_generate(self.vlm, conversation, self.config.answer_settings)) as pieces:
            for piece in pieces:
                so_far += piece
                yield ReplyText(opening + " ".join(without_control_characters(so_far).split()))
        return _tidy(so_far, say)


def points_back(focus: QuestionFocus) -> bool:
    """Whether a question refers back instead of naming a thing: a pronoun ("he", "it", "its colour",
    "that one") or no noun at all ("What colour?")."""
    return focus.pronoun or not focus.head


def grounding_phrase(focus: QuestionFocus) -> str:
    """What to point at: the head noun with the descriptors a pixel can show, e.g. "red cup".

    Spatial descriptors are left out (the policy applies them to the candidates), and so are ordinals
    and superlatives ("second", "tallest": they choose among the candidates, they do not find them);
    descriptors a photo cannot show ("emotional") are left out so they never select a person.
    """
    if focus.english:  # a question in another language: the model's English phrase (issue 36)
        return focus.english
    skip = set(focus.spatial_descriptors) | set(focus.non_visual_descriptors)
    words = [
        d for d in focus.descriptors if d not in skip and len(d.split()) == 1 and not is_unique_descriptor(d)
    ]
    head = focus.head or "object"
    return " ".join([*words, head])


@dataclass(frozen=True)
class _Chosen:
    """What a second turn's choice named: the region (None: not one), the candidates (a click may add
    one), what the user's turn says, and the regions a typed hint fits equally well."""

    region: Region | None
    candidates: Candidates
    user_text: str
    fitting: tuple[Region, ...] = ()


def _no_region_number(number: object, candidates: Candidates, say: Say) -> SessionError:
    ids = ", ".join(str(r.id) for r in candidates.regions) or say("none")
    return SessionError(
        say("There is no region number {number}; the numbers are: {ids}.", number=number, ids=ids)
    )


def _carried_verdict(session: Session) -> tuple[Verdict, float | None]:
    """The second turn makes no recognition call: it carries the first turn's verdict forward."""
    previous = session.last_reply
    return (previous.verdict, previous.ambiguity_probability) if previous else (Verdict.UNDECIDED, None)


def _ask_again_reply(
    session: Session, fitting: tuple[Region, ...], timer: _Timer, calls: Counter[str], say: Say
) -> Reply:
    """A second turn whose choice named no one region: ask again, among the regions the hint fits when it
    fits several, else among all."""
    candidates = session.candidates
    assert candidates is not None
    if fitting:
        text = say("Your words fit more than one. ") + _clarify_text(
            session.focus, candidates, list(fitting), others_why="not fitting", say=say
        )
        numbers = ", ".join(str(r.id) for r in fitting)
        why = say("Your hint fits numbers {numbers} equally, so I ask again.", numbers=numbers)
    else:
        text = say("I could not tell which one you mean. ") + _clarify_text(
            session.focus, candidates, say=say
        )
        why = say("Your hint did not match any candidate, so I ask again.")
    verdict, probability = _carried_verdict(session)
    return Reply(
        text=text,
        strategy=Strategy.CLARIFY,
        level=Level.MANY,
        candidates=candidates,
        explanation=why,
        referents=tuple(r.id for r in fitting),
        verdict=verdict,
        ambiguity_probability=probability,
        focus=session.focus,
        timings=timer.finish(),
        model_calls=dict(calls),
    )


def _clarify_text(
    focus: QuestionFocus | None,
    candidates: Candidates,
    referents: list[Region] | None = None,
    others_why: _Why = "less likely",
    say: Say = ENGLISH,
) -> str:
    regions = referents or candidates.regions
    noun = say.noun(noun_for(focus, regions))
    if not regions:
        return say("Which {noun} do you mean? Please describe it, or click on it in the photo.", noun=noun)
    if len(regions) == len(candidates.regions) and candidates.found_count > len(regions):
        opening = say(
            "I see {count}; the {marked} most likely are marked (describe another to find it).",
            count=count_text(say, candidates.found_count, noun, lower=True),
            marked=len(regions),
        )
    else:
        beyond = _marked_beyond(candidates, regions, others_why, say)
        opening = " ".join(
            [say("I see {count}.", count=count_text(say, len(regions), noun, lower=True)), *beyond]
        )
    ask = say("Which one do you mean? Choose a number, click on it, or describe it.")
    return f"{opening} {ask}\n{_candidate_list(regions)}"


_Why = Literal["less likely", "not fitting"]


def _marked_beyond(
    candidates: Candidates, meant: list[Region], why: _Why = "less likely", say: Say = ENGLISH
) -> list[str]:
    """What the reply says of the marked candidates it does not name, so that the count it says agrees
    with the list: the others marked and why they are left out, and a list capped below what was found."""
    named = {r.id for r in meant}
    others = [r for r in candidates.regions if r.id not in named]
    said: list[str] = []
    if len(others) == 1:
        one = others[0]
        if why == "less likely":
            text = say(
                "Number {id}, {description}, is also marked; it seems less likely.",
                id=one.id,
                description=one.description,
            )
        else:
            text = say(
                "Number {id}, {description}, is also marked; it does not fit your words.",
                id=one.id,
                description=one.description,
            )
        said.append(text)
    elif others:
        numbers = say(
            "{numbers} and {last}", numbers=", ".join(str(r.id) for r in others[:-1]), last=others[-1].id
        )
        if why == "less likely":
            said.append(say("Numbers {numbers} are also marked; they seem less likely.", numbers=numbers))
        else:
            said.append(
                say("Numbers {numbers} are also marked; they do not fit your words.", numbers=numbers)
            )
    found, marked = candidates.found_count, len(candidates.regions)
    if found > marked:
        said.append(
            say(
                "{found} were found; the {marked} most likely are marked (describe another to find it).",
                found=found,
                marked=marked,
            )
        )
    return said


def _in_language(prompt: str, lang: str) -> str:
    """A reply prompt, asking for the answer in the question's language (English prompts are unchanged)."""
    if lang == "en":
        return prompt
    return f"{prompt}\n\n{render_prompt('reply_language', language=language_name(lang))}"


def _candidate_list(regions: list[Region]) -> str:
    """One "number: description" line per region: the text twin of the overlay."""
    return "\n".join(f"{r.id}: {r.description}" for r in regions)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tidy(text: str, say: Say = ENGLISH) -> str:
    """The model's text as one line for the chat: control characters (a screen reader may read them out,
    a terminal may act on them) removed, whitespace collapsed."""
    text = " ".join(without_control_characters(text).split())
    return text or say("(the model gave no answer)")


def _turn_events(events: Generator[TurnEvent, None, None]) -> Generator[TurnEvent, None, None]:
    """`events` without empty texts or a text equal to the one before it; closing this closes them.

    Before the turn's TurnDone, the memory its models freed is handed back to the system (malloc_trim):
    once per turn, not per tensor, which keeps each call's allocations fast (models/memory.py)."""
    last: str | None = None
    with closing(events):
        for event in events:
            if isinstance(event, ReplyText):
                if not event.text or event.text == last:
                    continue
                last = event.text
            elif isinstance(event, TurnDone):
                release_free_memory()
            yield event


def _last(events: Iterator[TurnEvent]) -> TurnDone:
    """The TurnDone that ends `events` (draining them)."""
    done = None
    for event in events:
        if isinstance(event, TurnDone):
            done = event
    assert done is not None, "a turn always ends with TurnDone"
    return done


class _Timer:
    def __init__(self) -> None:
        self._start = time.perf_counter()
        self.timings: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.timings[stage] = self.timings.get(stage, 0.0) + time.perf_counter() - t0

    def finish(self) -> dict[str, float]:
        self.timings["total"] = time.perf_counter() - self._start
        return dict(self.timings)


__all__ = [
    "Assistant",
    "AssistantConfig",
    "Choice",
    "ReplyText",
    "TurnDone",
    "TurnEvent",
    "UserTurn",
    "grounding_phrase",
]
