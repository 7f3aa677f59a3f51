"""The referent of a question in another language, read by the VLM: one short call that returns the thing
asked about as an English noun phrase for the pointer (which reads English), its number, descriptors and
non-visual descriptors, as one line of JSON (prompts/referent_english.txt).

The reply is parsed strictly: one JSON object, the fields of the right types and lengths, an English
referent in Latin letters. Anything else is a fallback, said in the focus's `reader`: the rules' focus
stays ("rules; the model's reading was unusable"), and the pointer gets the head in the question's own
language, which a pointer reading English may not find.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from assistant.languages import language_name
from assistant.types import QuestionFocus
from models.base import ChatMessage, GenerationSettings, VisionLanguageModel
from models.errors import ModelError
from prompts import render_prompt

MAX_NEW_TOKENS = 96
_ENGLISH_PHRASE = re.compile(r"[A-Za-z][A-Za-z' -]{0,58}")
_EXAMPLE_HEADS = {
    "es": "taza",
    "fr": "tasse",
    "de": "Tasse",
    "pt": "xícara",
    "it": "tazza",
    "zh": "杯子",
    "ja": "カップ",
}


@dataclass(frozen=True)
class ModelReferent:
    referent: str  # "red cup"; "" when the question is about the whole photo
    head: str
    number: str
    descriptors: tuple[str, ...]
    non_visual: tuple[str, ...]
    head_in_question_language: str


def referent_prompt(question: str, language: str) -> str:
    return render_prompt(
        "referent_english",
        question=question,
        language=language_name(language),
        example_head=_EXAMPLE_HEADS.get(language, "cup"),
    )


def parse_referent(raw: str) -> ModelReferent | None:
    """The model's JSON line, or None when it is not exactly what the prompt asked for."""
    match = re.search(r"\{.*\}", raw, re.DOTALL)
    if match is None:
        return None
    try:
        data = json.loads(match.group())
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("referent"), str):
        return None
    referent = " ".join(data["referent"].split()).lower()
    if referent == "":
        return ModelReferent("", "", "singular", (), (), "")
    head = data.get("head")
    number = data.get("number")
    if (
        not _ENGLISH_PHRASE.fullmatch(referent)
        or not isinstance(head, str)
        or number not in ("singular", "plural")
    ):
        return None
    head = " ".join(head.split()).lower()
    if not _ENGLISH_PHRASE.fullmatch(head) or head.split()[-1] not in referent.split():
        return None
    descriptors = _strings(data.get("descriptors", []))
    non_visual = _strings(data.get("non_visual", []))
    native = data.get("head_in_question_language", "")
    if descriptors is None or non_visual is None or not isinstance(native, str) or len(native) > 40:
        return None
    return ModelReferent(referent, head, number, descriptors, non_visual, " ".join(native.split()))


def _strings(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list) or len(value) > 8:
        return None
    if not all(isinstance(v, str) and 0 < len(v) <= 60 for v in value):
        return None
    return tuple(" ".join(v.split()).lower() for v in value)


def read_referent(vlm: VisionLanguageModel, focus: QuestionFocus) -> QuestionFocus:
    """The focus with the model's reading merged in (one call, text only); the focus as it was, with the
    fallback said in `reader`, when the call fails or its reply is unusable."""
    prompt = referent_prompt(focus.question, focus.language)
    try:
        raw = vlm.generate([ChatMessage("user", prompt)], GenerationSettings(max_new_tokens=MAX_NEW_TOKENS))
    except ModelError:
        raw = ""
    reading = parse_referent(raw)
    if reading is None:
        said = focus.reader or "none"
        return replace(focus, reader=f"{said}; the model's reading was unusable")
    return merge_reading(focus, reading)


def merge_reading(focus: QuestionFocus, reading: ModelReferent) -> QuestionFocus:
    """The rules keep the head in the question's language where they found one (they read the user's own
    words); the model adds the English phrase, and the number, descriptors and non-visual descriptors the
    rules could not tell. With no rules (Chinese, Japanese) the model's reading is the focus."""
    if not reading.referent:
        return replace(focus, reader=_reader(focus, "model: about the whole photo"))
    locating = focus.locating or tuple(d for d in reading.descriptors if _locating(d))
    non_visual = tuple(dict.fromkeys((*focus.non_visual_descriptors, *reading.non_visual)))
    if focus.head and focus.reader == "rules":
        return replace(focus, english=reading.referent, non_visual_descriptors=non_visual,
                       locating=locating, reader="rules + model")  # fmt: skip
    head = reading.head_in_question_language.lower() or reading.head
    return replace(
        focus,
        focus=reading.head_in_question_language or reading.referent,
        head=head,
        number=reading.number,  # type: ignore[arg-type]
        descriptors=reading.descriptors,
        non_visual_descriptors=non_visual,
        locating=locating,
        english=reading.referent,
        reader="model",
    )


def _reader(focus: QuestionFocus, said: str) -> str:
    return f"{focus.reader} + {said}" if focus.reader and focus.reader != "none" else said


_LOCATING = frozenset({"left", "right", "top", "bottom", "middle", "centre", "center", "largest", "smallest",
                       "tallest", "first", "second", "third", "front", "back", "biggest"})  # fmt: skip


def _locating(descriptor: str) -> bool:
    return bool(set(descriptor.split()) & _LOCATING)


__all__ = ["ModelReferent", "merge_reading", "parse_referent", "read_referent", "referent_prompt"]
