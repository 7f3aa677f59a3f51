"""Free-text model replies read as a focus-ambiguity verdict or an AQuA level.

VQ-FocusAmbiguity (Section 4, "post-processing") asks for one word, "ambiguous" or "unambiguous", and sorts
whatever comes back into ambiguous / unambiguous / undecided; undecided replies are counted in the
"undecided rate" and typically say "I'm unable to fulfill this request" or "I need more information".
`parse_verdict` does that sorting for messy replies:

- each mention of "ambiguous" / "unambiguous" gets a polarity; a negation close before it flips it
  ("not ambiguous" is unambiguous, "not unambiguous" is ambiguous; "No, it is ambiguous" is not negated);
- mentions that are no claim are ignored: the prompt's own options ("ambiguous or unambiguous"),
  conditions and definitions ("it would be ambiguous if ...", "whether it is ambiguous"), questions
  ("Is it ambiguous?"), and the prompt's rules echoed back ("If ..., it is an ambiguous question.");
- the verdict is the first mention after the last conclusion marker ("Prediction:", "Therefore",
  "Final answer", ...), else the last plain mention, else the last hedged one ("it could be ambiguous");
- a refusal or a hedge with no plain claim ("I cannot determine ...", "I need more information"), empty
  text and text without a claim are undecided.
"""

from __future__ import annotations

import re

from assistant.types import Verdict

__all__ = ["parse_level", "parse_verdict"]

MAX_CHARS = 20000  # replies longer than this are read from their last part, where the conclusion is

_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"', "`": "'"}
)
_MARKDOWN_RE = re.compile(r"[*_#>|~]+")
_SPACE_RE = re.compile(r"\s+")
_NON_AMBIGUOUS_RE = re.compile(r"\b(?:non|un)\s*-\s*ambiguous\b|\bnonambiguous\b")
_MENTION_RE = re.compile(r"\b(un)?ambiguous\b")
_OPTIONS_RE = re.compile(
    r"\b(?:un)?ambiguous\W{0,3}\s*(?:or|/|nor|vs\.?|versus|and)\s*\W{0,3}(?:(?:un)?ambiguous|not)\b"
)
_CLAUSE_BREAK_RE = re.compile(
    r"[.;:!?,()\n]|\b(?:and|but|so|because|since|which|making|thus|therefore|"
    r"hence|while|whereas|however)\b"
)
_NEGATION_RE = re.compile(
    r"(?:\bnot|n't|\bnever|\bno longer|\bhardly|\bneither|\bnor|\bno)\b"
    r"(?:\s+[\w']+){0,3}\s*[\"']?\s*$"
)
_HEDGE_RE = re.compile(
    r"\b(?:could|might|may|can|would|possibly|potentially|perhaps|maybe)\b"
    r"(?:\s+[\w']+){0,3}\s*[\"']?\s*$"
)
_CONDITION_BEFORE_RE = re.compile(r"\b(?:whether|if)\b(?:\s+[\w']+){0,5}\s*[\"']?\s*$")
_CONDITION_AFTER_RE = re.compile(
    r"^\W{0,3}\s*(?:(?:even |only )?if|when|unless|in case|as long as|provided)\b"
)
_QUESTION_AFTER_RE = re.compile(r"^\W{0,2}\s*\?")
_ANSWER_AFTER_RE = re.compile(r"^\s*[\"']?\s*[?:=\-]?\s*[\"']?\s*(yes|no|true|false)\b")
_RULE_SENTENCE_RE = re.compile(r"(?:^|[.!?\n]\s*)(?:if|otherwise|unless|when|a question is)\b[^.!?\n]*$")
_CONCLUSION_IN_SENTENCE_RE = re.compile(r"\b(?:so|therefore|thus|hence|then)\b")
_MARKER_RE = re.compile(
    r"\b(?:final\s+(?:answer|prediction|verdict|classification|label)|prediction|predicted|predict|"
    r"answer|verdict|conclusion|conclude|in summary|therefore|thus|hence|overall|label|classification|"
    r"output|result|i would say|i'd say|my answer|i classify|i predict|so the question is|so it is|"
    r"so this is|making (?:the question|it|this)|which makes (?:the question|it|this))\b"
)
_MARKER_REACH = 160  # characters after a marker in which its verdict must start
_REFUSAL_RE = re.compile(
    r"unable to|can ?not|can't|could not|couldn't|not able to|need more (?:information|context|details)|"
    r"more information|not enough information|insufficient|not sure|unsure|uncertain|it depends|"
    r"impossible to (?:tell|say|determine|know)|i'm sorry|i am sorry|i apologi[sz]e|as an ai|"
    r"no image|don't see (?:an|the|any) image|cannot be determined|hard to say|difficult to (?:say|tell)"
)
_NO_AMBIGUITY_RE = re.compile(r"\b(?:no|not any|without|free of|lacks?)\s+(?:\w+\s+)?ambiguity\b")
_AMBIGUITY_RE = re.compile(
    r"\b(?:there is|there's|has|have|shows?|involves?|contains?|presents?)\s+"
    r"(?:some|an?|clear|real|genuine|definite|focus|referential)?\s*ambiguity\b"
)
_NOT_A_LIST = r"(?!\s*(?:,|or|to|-)\s*[0-3]\b)"  # "Level: <0, 1, 2 or 3>" is the form, not an answer
_LEVEL_COLON_RE = re.compile(r"\blevel\s*[:=]\s*[\"'(\[<{]?\s*([0-3]|zero|one|two|three)\b" + _NOT_A_LIST)
_LEVEL_RE = re.compile(r"\blevel\s*[\"'(\[<{#-]?\s*([0-3]|zero|one|two|three)\b" + _NOT_A_LIST)
_LEVEL_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3}


def _normalise(text: str) -> str:
    text = text[-MAX_CHARS:].translate(_QUOTES)
    text = _MARKDOWN_RE.sub(" ", text.lower())
    text = _NON_AMBIGUOUS_RE.sub("unambiguous", text)
    # keep line breaks: they end sentences and clauses
    return "\n".join(_SPACE_RE.sub(" ", line).strip() for line in text.splitlines() if line.strip())


def _clause_before(text: str, start: int) -> str:
    before = text[max(0, start - 80) : start]
    breaks = list(_CLAUSE_BREAK_RE.finditer(before))
    return before[breaks[-1].end() :] if breaks else before


class _Mention:
    __slots__ = ("start", "end", "verdict", "hedged")

    def __init__(self, start: int, end: int, verdict: Verdict, hedged: bool) -> None:
        self.start, self.end, self.verdict, self.hedged = start, end, verdict, hedged


def _mentions(text: str) -> list[_Mention]:
    """The claims "ambiguous" / "unambiguous" in the text, with polarity; non-claims left out."""
    options = [m.span() for m in _OPTIONS_RE.finditer(text)]
    found: list[_Mention] = []
    for m in _MENTION_RE.finditer(text):
        if any(a <= m.start() < b for a, b in options):
            continue
        after = text[m.end() : m.end() + 40]
        clause = _clause_before(text, m.start())
        answer = _ANSWER_AFTER_RE.match(after)
        positive = m.group(1) is None  # "ambiguous"
        if answer:  # "Ambiguous: no", "Is it ambiguous? Yes."
            positive = positive == (answer.group(1) in {"yes", "true"})
        else:
            if _QUESTION_AFTER_RE.match(after) or _CONDITION_AFTER_RE.match(after):
                continue
            if _CONDITION_BEFORE_RE.search(clause):
                continue
            sentence_start = max(text.rfind(c, 0, m.start()) for c in ".!?;\n")
            sentence = text[sentence_start + 1 : m.start()].lstrip(" \"')(")
            if _RULE_SENTENCE_RE.search(sentence) and not _CONCLUSION_IN_SENTENCE_RE.search(sentence):
                continue  # "If there are multiple regions ..., it is an ambiguous question."
            if _NEGATION_RE.search(clause):
                positive = not positive
        verdict = Verdict.AMBIGUOUS if positive else Verdict.UNAMBIGUOUS
        found.append(_Mention(m.start(), m.end(), verdict, bool(_HEDGE_RE.search(clause))))
    return found


def parse_verdict(text: str) -> Verdict:
    """ambiguous / unambiguous / undecided from a model's free-text focus-ambiguity reply."""
    if not isinstance(text, str) or not text.strip():
        return Verdict.UNDECIDED
    norm = _normalise(text)
    mentions = _mentions(norm)
    concluded: _Mention | None = None
    for marker in _MARKER_RE.finditer(norm):
        nxt = next((m for m in mentions if marker.end() <= m.start <= marker.end() + _MARKER_REACH), None)
        if nxt is not None:
            concluded = nxt  # the last marker with a claim after it wins
    if concluded is not None:
        return concluded.verdict
    plain = [m for m in mentions if not m.hedged]
    if plain:
        return plain[-1].verdict
    if _REFUSAL_RE.search(norm):
        return Verdict.UNDECIDED
    if mentions:
        return mentions[-1].verdict
    if _NO_AMBIGUITY_RE.search(norm):
        return Verdict.UNAMBIGUOUS
    if _AMBIGUITY_RE.search(norm):
        return Verdict.AMBIGUOUS
    return Verdict.UNDECIDED


def parse_level(text: str) -> int | None:
    """The AQuA level (0-3) of a reply to prompts/aqua_strategy.txt ("Level: 2"), or None without one.

    The reply form puts "Level: <n>" first, so its first "Level:" counts; without a colon the last
    "level n" mention does ("This is not level 1 but level 2").
    """
    if not isinstance(text, str) or not text:
        return None
    norm = _normalise(text[:MAX_CHARS])
    m = _LEVEL_COLON_RE.search(norm)
    if m is None:
        found = list(_LEVEL_RE.finditer(norm))
        m = found[-1] if found else None
    if m is None:
        return None
    value = m.group(1)
    return int(value) if value.isdigit() else _LEVEL_WORDS[value]
