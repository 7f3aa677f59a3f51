"""Text normalisation and words for the rule judge's cues: `normalise`, `words`, plural and singular forms,
the word lists the judge reads with, and the small patterns the other cue modules share.

Its words come from the English module the question analyser uses: word lists in assistant.lexicon,
plural and singular forms by inflection in assistant.words (inflect), so a noun is plural here exactly when
it is plural to the question analyser.
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant import words as en
from assistant.lexicon import FEMALE_NOUNS, MALE_NOUNS, PERSON_NOUNS, PLACE_WORDS, word_set

VERBS = lx.RESPONSE_VERBS
QUESTION_WORDS = lx.QUESTION_FRAME_WORDS
STOPWORDS = lx.JUDGE_STOPWORDS
# The question analyser's lists where the judge needs the same words
DETERMINERS = lx.ARTICLES | lx.DEICTICS | lx.POSSESSIVE_PRONOUNS | lx.SPEAKER_POSSESSIVES
PREPOSITIONS = lx.PREPOSITIONS
ING_NOUNS = lx.ING_NOUNS
ING_VERBS = lx.COMMON_ING_VERBS
_HE, _SHE = MALE_NOUNS | {"person", "player"}, FEMALE_NOUNS | {"person", "player"}
PRONOUN_PEOPLE = {
    "he": _HE,
    "him": _HE,
    "his": _HE,
    "she": _SHE,
    "her": _SHE,
    "they": PERSON_NOUNS,
    "their": PERSON_NOUNS,
    "them": PERSON_NOUNS,
}
POSSESSIVE_PRONOUNS = word_set("his her their its")
SUBJECT_PRONOUNS = word_set("he she they him them")
VAGUE_WORDS = word_set("this that it these those")
NON_IDENTIFYING = (
    "in the image",
    "in the picture",
    "in the photo",
    "in this image",
    "in this picture",
    "in this photo",
    "in the scene",
    "in question",
    "shown",
    "visible",
    "pictured",
    "in the photograph",
    "here",
)

_WORD = r"[a-z]+(?:[-'][a-z]+)*"


def normalise(text: str) -> str:
    """Lower case, straight quotes, "..." for "\u2026", markdown emphasis removed, whitespace collapsed."""
    text = (
        normalise_keys(text)
        .replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
        .replace("\u2026", "...")  # a typographic ellipsis, a pause in spoken style: a break as "..." is
    )
    text = re.sub(r"[*_`#]+", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def words(text: str) -> list[str]:
    return re.findall(_WORD, normalise(text))


def plural_of(noun: str) -> str:
    return en.plural(noun)


def is_plural(noun: str) -> bool:
    """A plural form, by inflection (the question analyser's test): "dogs", "people", "skiers", "pants"."""
    return noun in lx.PLURALIA_TANTUM or en.is_plural_noun(noun)


def _alias_pattern(names: set[str]) -> str:
    alts = sorted((re.escape(n) for n in names), key=len, reverse=True)
    return r"\b(?:" + "|".join(alts) + r")\b"


def is_ing_form(word: str) -> bool:
    """An -ing form that is no noun ("watching", not "wing", "ring" or "clothing"): a verb's participle or
    gerund, by its ending, its length and lexicon.ING_NOUNS."""
    return word.endswith("ing") and len(word) > 5 and word not in ING_NOUNS


def _single(noun: str) -> str:
    return en.lemma(noun) if is_plural(noun) else noun


_PRONOUNS = lx.SPEAKER_PRONOUNS | lx.PERSON_PRONOUNS | lx.THING_PRONOUNS | lx.PLURAL_PRONOUNS


def the_nouns(text: str) -> set[str]:
    """Words of the noun phrases that follow "the" in normalised text (up to three words each); a pronoun
    ends the phrase ("the maroon you might expect", "the one I saw": the clause after it is no noun)."""
    found: set[str] = set()
    for m in re.finditer(r"\bthe\s+((?:" + _WORD + r"\s+){0,2}" + _WORD + ")", text):
        for w in m.group(1).split():
            if w in PREPOSITIONS or w in VERBS or w in DETERMINERS or w in _PRONOUNS:
                break
            found.add(w)
    return found - STOPWORDS - PLACE_WORDS


_SUBJECT_VERB_WORDS = (
    "is|are|was|were|has|have|wears|wear|carries|carry|holds|hold|looks|look|appears|appear|seems|seem|says|"
    "reads|shows|displays"
)
_SUBJECT_VERBS = f"(?:{_SUBJECT_VERB_WORDS})"


def content_words(fragment: str) -> set[str]:
    return {w for w in re.findall(_WORD, fragment) if w not in STOPWORDS}


def normalise_keys(response: str) -> str:
    """The response with "w/" read as "with" (a note-style key: "woman w/ sunglasses: ...")."""
    return re.sub(r"(?<![a-z])w/\s*", "with ", response, flags=re.I)


# a spoken transcript's hesitation sounds ("uh", "um", "erm", "hmm"), with the commas that set one off
_HESITATION = re.compile(r"(?:,\s*)?\b(?:u+h+|u+m+|uhm|e+r+m+|hm+)\b(?:\s*,)?", re.I)
# a word said again as the speaker restarts: set off by a comma, dash or ellipsis ("the, the one", "is -
# is"), or an article or pronoun said twice ("the the"); "that that" and "had had" can be grammar
_RESTART = re.compile(
    r"\b([a-z']+)(?:\s*(?:,|\.\.\.|\s-)\s*\1\b)+|\b(the|a|an|he|she|it|one)(?:\s+\2\b)+", re.I
)
# a speaker's self-repair, set off as its own phrase mid-reply: "..., no wait, right, the man on the
# right ...", "..., I mean, ...", "... - scratch that - ..."; a bare "sorry" is an apology as often as a
# repair ("I can't tell which dog you mean. Sorry, the dog on the left is brown.")
_REPAIR = re.compile(
    r"(?<=[,.;!?\u2013\u2014-])\s*(?:no,?\s+wait|wait,?\s+no|scratch that|i mean|actually,?\s+no|"
    r"correction)\s*(?=[,.;!?\u2013\u2014-])",
    re.I,
)


def spoken_plainly(text: str) -> str:
    """A spoken transcript as its speaker meant it to be written: hesitation sounds dropped and a restarted
    word said once ("two umbrellas, uh, one's yellow and the, the one further down is black"). A voice
    assistant's reply carries both; read as they stand they cut a clause's subject from its verb."""
    # "left, uh, no wait" keeps one comma: a repair marker after it is still set off
    text = _HESITATION.sub(
        lambda m: "," if m.group(0).startswith(",") and m.group(0).endswith(",") else "", text
    )
    return _RESTART.sub(lambda m: m.group(1) or m.group(2), text)


def after_self_repair(text: str) -> str | None:
    """What a speaker said after the last self-repair ("The man, the one on the left, no wait, right, the
    man on the right is holding a leash" -> "right, the man on the right is holding a leash"), or None
    where no repair marker stands as a phrase of its own after something was said: what comes before it
    is taken back, so a reading of both sides would count a referent the speaker withdrew."""
    found = list(_REPAIR.finditer(text))
    if not found:
        return None
    rest = text[found[-1].end() :].lstrip(" ,.;!?\u2013\u2014-")
    return rest or None
