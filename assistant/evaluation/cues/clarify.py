"""Asking and acknowledging: the regular expressions of a reply that asks which referent is meant or says
it cannot tell.

- clarification question: a sentence ending in "?" that asks which one is meant, or who / what the
  question's pronoun is ("who is 'he'?");
- acknowledged ambiguity: "not possible to know which", "ambiguous", "without further context", ....
"""

from __future__ import annotations

import re

from assistant.evaluation import noun_senses, reply_checks
from assistant.evaluation.cues.counting import answers_nothing
from assistant.evaluation.cues.people import of_asked_kind
from assistant.evaluation.cues.places import _places_in
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import _WORD, _single, normalise

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
# an imperative that asks the asker which one: "please specify which umbrella", "tell me who you mean",
# "specify whom you mean" (the wh-word is the asked referent's, or what the asker means)
_ASK_WHICH = re.compile(
    r"\b(?:please|kindly)?\s*(?:specify|clarify|tell me|let me know|indicate) "
    r"(?:which\b|(?:who|whom|what) you (?:mean|are (?:asking|referring|talking))\b)"
)


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


# a bold step heading that is a question, answered on its own line right after it: "2. **Which one seems
# determined?** The woman with the white cane ...": the reply puts the question to itself, as a step
_SELF_ANSWERED = re.compile(r"\*\*([^*\n]{1,120}\?)\*\*(?=[ \t]*[\w\"'\u201c(])")


def _unless_to_the_asker(m: re.Match[str]) -> str:
    """The heading blanked, unless it speaks to the asker ("**Which object are you pointing at?** ...")."""
    return m.group(0) if re.search(r"\byou", m.group(1), re.I) else ""


def clarification_question(response: str, q: QuestionCues | None = None) -> str | None:
    """The first sentence that asks which referent is meant ("Which one?", or "Please specify which
    umbrella you mean.", "who is 'he'?"), or None. Given the question, a question the reply puts to itself
    about its answer ("Which breed is it? It looks like a terrier.": "which" before a noun of another kind
    than the referent, and no "you") asks nothing of the asker (`doubts_the_answer`)."""
    text = normalise(_SELF_ANSWERED.sub(_unless_to_the_asker, response))
    said = reply_checks.sentences(text)
    # a real sentence splitter: "e.g." / "i.e." inside a question do not cut it
    for sentence in said:
        if _asks_about_pronoun(sentence, said):
            return sentence.strip()
        if sentence.endswith("?") and (_CLARIFY.search(sentence) or re.search(r"\bwhich\b", sentence)):
            if q is not None and not re.search(r"\byou", sentence) and doubts_the_answer(q, sentence):
                continue
            return sentence.strip()
        if _ASKS_UNMARKED.match(sentence):  # a question written without its "?" (or cut off before it)
            return sentence.strip()
        if sentence.endswith("?") and _offers_referents(sentence):
            return sentence.strip()
    asked = _ASK_WHICH.search(text)
    return asked.group(0).strip() if asked else None


def acknowledges_ambiguity(response: str, q: QuestionCues | None = None) -> str | None:
    """The first phrase that says the reply cannot tell which referent is meant ("not possible to know
    which", "ambiguous", "depends on which"), or None. Given the question, a "which" before a noun of
    another kind than its referent is a doubt about the answer, not about the referent: "not sure which
    breed it is" for the dog, "hard to say which shade" for the car (`doubts_the_answer`)."""
    text = normalise(response)
    for m in _ACKNOWLEDGE.finditer(text):
        if q is None or "which" not in m.group(0) or not doubts_the_answer(q, text[m.start() :]):
            return m.group(0)
    return None


def doubts_the_answer(q: QuestionCues, said: str) -> bool:
    """Whether the first "which" of `said` asks about another thing than the question's referent: the noun
    after it is one WordNet knows and of another kind ("which breed", "which colour", "which outfit"), so
    the reply doubts its own answer; "which dog", "which one", "which of them", "which you mean" and a
    noun WordNet lacks keep their reading as a doubt about the referent, as does any noun the asker is said
    to mean ("which pot you're pointing at" for the yogurt: the referent by its container)."""
    m = re.search(r"\bwhich\s+(" + _WORD + r")((?:\s+[a-z']+){0,3})", said)
    if m is None or re.search(r"\byou", m.group(2)):
        return False
    noun = m.group(1)
    if not noun_senses.senses(_single(noun)):
        return False
    return of_asked_kind(q, noun, owner=True) is False
