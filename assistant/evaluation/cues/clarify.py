"""Asking and acknowledging: the regular expressions of a reply that asks which referent is meant or says
it cannot tell.

- clarification question: a sentence ending in "?" that asks which one is meant, or who / what the
  question's pronoun is ("who is 'he'?");
- acknowledged ambiguity: "not possible to know which", "ambiguous", "without further context", ....
"""

from __future__ import annotations

import re

from assistant.evaluation import reply_checks
from assistant.evaluation.cues.counting import answers_nothing
from assistant.evaluation.cues.places import _places_in
from assistant.evaluation.cues.text import _WORD, normalise

_CLARIFY = re.compile(
    r"\b(?:which (?:one|of|person|\w+)|who (?:do|are) you|do you mean|did you mean|"
    r"are you (?:asking|referring|talking)|you(?:'re| are) (?:asking|referring|talking)|"
    r"could you (?:please )?(?:specify|clarify|tell|let me know|point|indicate)|"
    r"can you (?:please )?(?:specify|clarify|tell me which|point|indicate)|"
    r"please (?:specify|clarify)|what (?:\w+ )?(?:do you mean|are you referring))"
)
_ACKNOWLEDGE = re.compile(
    r"\b(?:not (?:[a-z]+ly )?(?:possible|clear|sure) (?:to (?:know|tell|determine|say|identify) )?which|"
    r"(?:impossible|not possible) to (?:know|tell|determine|say|identify)(?: which)?|"
    r"(?:hard|difficult|unclear) to (?:know|tell|determine|say|identify) (?:which|who)\b|"
    r"(?:cannot|can't|can not|unable to|could not|couldn't) (?:tell|determine|know|identify|say) "
    r"(?:which|who)|"
    r"ambiguous|ambiguity|without (?:further|more|additional) (?:context|information)|more than one|"
    r"unclear which|depend(?:s|ing)? (?:on )?which|multiple (?:possible )?(?:referents|candidates|options)|"
    # an indirect question about the asker's choice ("without knowing which pot you're pointing at", "not
    # sure which one you mean"): the reply says the referent turns on what the asker means; a relative
    # "which" follows a comma (", which means you ...") and "in which case you" is no question
    r"(?<!, )(?<!; )(?<!\bin )which (?:ones?|of (?:them|these|those|the " + _WORD + r")|" + _WORD + r") "
    r"(?:you|you're|you've|you'd)\b)"
)


# a sentence that opens as a question about which one is meant, with or without its "?"
_ASKS_UNMARKED = re.compile(
    r"^(?:which (?:one|" + _WORD + r") (?:do|did|are|were) you\b|(?:do|did) you mean\b|"
    r"are you (?:asking|referring|talking) about\b)"
)
_ASK_WHICH = re.compile(r"\b(?:please|kindly)?\s*(?:specify|clarify|tell me|let me know|indicate) which\b")


_OFFER = re.compile(r"\b(?:would you like|do you want|shall i|should i)\b[^?]*\bor\b")


def _offers_referents(sentence: str) -> bool:
    """An offer to choose between referents ("would you like me to describe the girl on the left, or the
    one on the right?"); an offer of more or less detail ("more details or a summary?") names none."""
    return bool(_OFFER.search(sentence)) and bool(re.search(r"\bones?\b", sentence) or _places_in(sentence))


# a question back about the question's own pronoun: "who is 'he'?", "what's 'it'?", "which is 'that'?"
_ASKS_PRONOUN = re.compile(
    r"^(?:who|what|which)(?:'s|\s+is|\s+are)?\s+(['\"]?)(?:he|she|it|they|him|her|them|this|that)\1\s*\?$"
)


def _asks_about_pronoun(sentence: str, said: list[str]) -> bool:
    """ "who is 'he'? 2 guys in the pic": a question back about what the question's pronoun stands for,
    when quoted (the word is the question's) or when no other sentence answers ("Who is he? He's the
    goalkeeper, in green" and "What is it? A kettle." ask only for effect; "there are two men" and "2 guys
    here" answer nothing)."""
    m = _ASKS_PRONOUN.match(sentence)
    if m is None:
        return False
    return bool(m.group(1)) or all(answers_nothing(s) for s in said if s != sentence)


def clarification_question(response: str) -> str | None:
    """The first sentence that asks which referent is meant ("Which one?", or "Please specify which
    umbrella you mean.", "who is 'he'?"), or None."""
    text = normalise(response)
    said = reply_checks.sentences(text)
    # a real sentence splitter: "e.g." / "i.e." inside a question do not cut it
    for sentence in said:
        if _asks_about_pronoun(sentence, said):
            return sentence.strip()
        if sentence.endswith("?") and (_CLARIFY.search(sentence) or re.search(r"\bwhich\b", sentence)):
            return sentence.strip()
        if _ASKS_UNMARKED.match(sentence):  # a question written without its "?" (or cut off before it)
            return sentence.strip()
        if sentence.endswith("?") and _offers_referents(sentence):
            return sentence.strip()
    asked = _ASK_WHICH.search(text)
    return asked.group(0).strip() if asked else None


def acknowledges_ambiguity(response: str) -> str | None:
    m = _ACKNOWLEDGE.search(normalise(response))
    return m.group(0) if m else None
