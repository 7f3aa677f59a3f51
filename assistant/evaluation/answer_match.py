"""Does a reply give the reference answer? The word matching behind AQuA's PASS rule (papers/aqua/judge.py).

- Tokens: a time ("10:10", "7:45 pm") and a number ("3.5", "1,000") are one token each; number words are
  digits ("two" -> "2", as the question analyser reads them; "twenty-three" -> "23", one number);
  hyphenated words are their parts. A number sign ("No. 7", "#7") is the number, unless a plural noun
  follows ("No. 2 cats are ...": "No." there answers, and "2 cats" is a count).
- Spoken times (`spoken_times`, applied where the reference is a time): "quarter to four" = 3:45, "half
  past six" = 6:30, "ten past ten" = 10:10, "five o'clock" = 5:00. "five to six" is 5:55 only there: for
  any other reference it is a range of counts.
- Forms: a possessive ("child's") also stands for its owner's word; each word also stands for its
  lemma (simplemma: "sleeping" -> "sleep", "umbrellas" -> "umbrella"; an -ing form also for its verb
  stem, "sitting" -> "sit", "playing" -> "play"), its American spelling (breame's British/American
  list: "grey" -> "gray", "colour" -> "color"), and a predicative a- adjective for its stem ("asleep"
  -> "sleep", when simplemma knows the stem as a word);
  two adjacent words also stand for their compound ("ice cream" = "icecream").
- Negation: "not red", "isn't an umbrella" negate the word that follows.
- Yes / no: a reference "yes" or "no" is read from the reply's first word, else implied by the reply
  restating the question's own words (yes) or restating them negated (no), stating the asked state with
  the subject left implicit ("it's empty"), the asked object with another verb ("has a collar on" for
  "wearing a collar"), or another state on a copula ("The door is closed." for "Is the door open?": no);
  an elliptic answer ("He is - a hard hat", "She isn't."), an opening affirming adverb ("Definitely";
  "Definitely not": no) or "Not really" (no), and a subject said as a pronoun ("It has a collar on" for
  "Is the dog wearing a collar?"); a reply that does none of these ("He's beaming." for "Is he
  smiling?") needs a thesaurus: None. A state
  that is a particle ("Is the light on?") is read from the particle the reply gives as a state
  ("switched off": no; "is on": yes), never from one with its own object ("on the desk").
- Other words (`in_other_words`): a reply word that names the reference's head noun's thing by one of
  its WordNet senses (noun_senses): a synonym ("the fiddle" for "violin", "a bike" for "a bicycle") or a
  kind of it ("a mallard" for "a duck": extra detail), read as the reference where it stands; the
  question's and hint's own words name the referent, never the answer. A synonym only by a rare sense
  ("wheels" for "bicycle", "a cat" for "a guy") is `rare_synonym`, a kind only by a rare sense ("a
  bunny" for "a rabbit") `rare_kind`: maybe the same answer.
- Regional terms (`in_regional_words`): a British or American term for the reference's head noun, by
  breame's lists of terms and of words whose meanings differ ("trainers" for "sneakers", "mobile" read
  as "cell phone" for "phone"), both ways.
- Counts in dozens: "half a dozen" = 6, "a dozen" = 12, "two dozen" = 24 (exact quantities; "a couple"
  is not).
- Related forms (`related_forms`): a spelling variant ("racquet"), a compound sharing its first part
  ("motorbike" / "motorcycle") or ending in the word ("telephone"): not the same answer, but another
  wording of it cannot be ruled out. But a spelling variant that WordNet lists in one of the reference's
  senses is the same word ("racquet" for "racket"), and a compound WordNet lacks, a known word and then
  the reference, is a kind of it ("smartphone" for "phone"; the compounds that are not, "butterfly",
  are in WordNet).
- Opposites (`noun_senses.antonyms`, WordNet's direct antonyms of an adjective's first sense): the
  opposite of the asked state said of the asked subject answers "no" ("The door is shut tight" for "Is
  the door open?"); a subject called by the opposite of a hint word ("the big dog" for "the small dog",
  "the man who's standing" for "the man sitting down") is another referent (`opposed_referent`).
- Place: a clause whose subject stands in a place that excludes the hint's place ("the bus at the front"
  for "the bus behind") is about another referent; a side or part of the object ("on its left side",
  "the left wing") is no place of the referent (`subject_places`).
- Dates (`in_date_words`): a reference day and month ("12 December", "Dec 12th") is given by a numeric
  date in either order ("12/12", "3.4" for "3 April" or "4 March"): the reply is read with the reference
  where that date stands. Month names from the stdlib's calendar.
- Binding: in a reply about several referents ("The biggest umbrella is red; the small one is blue"),
  the reference answer counts only in the clause that speaks of the hinted referent (the one with all
  the hint's words where one has them); a reply that tells referents apart in no word of the hint
  (`unhinted_contrast`) cannot be bound. An "and" before a new subject and its verb ends a clause ("the
  woman's coat is navy and the man's is red"), and a possessive noun names a referent (its owner). A
  clause whose subject tells its referent apart by another modifier than the hint's, in the same slot
  (`other_modifier`: "the big dog" for "the small dog"), is about another referent or the hinted one
  described anew. A clause whose subject is a definite person or animal that is no referent ("and the
  mother is holding a banana" for "the baby monkey") gives the answer to that one.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from functools import lru_cache

from assistant import lexicon as lx
from assistant.evaluation import noun_senses
from assistant.evaluation import response_cues as cues

_NUMBERS = {w: str(n) for w, n in lx.NUMBER_WORDS.items()}  # "two" -> "2", as in the question analyser
_TOKEN = re.compile(r"\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?|\d+(?:[.,]\d+)*|[a-z]+(?:'[a-z]+)?")
_NEGATORS = frozenset(
    [
        "not",
        "no",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "isnt",
        "arent",
        "wasnt",
        "never",
        "nor",
        "doesn't",
        "don't",
    ]
)
_SKIP_AFTER_NEGATION = frozenset(["a", "an", "the", "any", "at", "all", "very", "really"])
_YES = frozenset(["yes", "yeah", "yep", "yup", "correct", "indeed", "affirmative"])
_NO = frozenset(["no", "nope", "negative"])
_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "can",
        "could",
        "has",
        "have",
        "had",
        "will",
        "would",
        "should",
    ]
)
_CLAUSE_BREAK = re.compile(
    r"(?<!\d)\.|\.(?!\d)|[;!?\n]|,\s+(?=(?:and |but |while |whereas )?(?:the|a|an|one|its|his|her)\b)|"
    r"\s(?:while|whereas|but|though|although)\s|"
    # "... is navy and the man's is red": an "and" before a new subject that is another owner's (a
    # possessive noun, then its verb), not one joining two objects ("a phone and the keys"), nor one
    # going on about the same referent ("and its collar is red", "and the collar is red")
    r"\sand\s+(?=(?:the|a|an)\s+(?:[a-z-]+\s+)?[a-z]+'s\s+(?:[a-z-]+\s+)?"
    r"(?:is|are|was|were|has|have|wears|holds|carries)\b)"
)


# "No. 7", "no 7", "nr. 7" (normalise has already turned "#7" into " 7"): the number sign before a number
_NUMBER_SIGN = re.compile(r"\b(?:no|nr)\.?\s*(?=\d)")


def _drop_number_sign(text: str) -> str:
    """ "no. 7 is on his shirt" -> "7 is on his shirt"; "no. 2 cats are ..." stays: a plural noun after the
    number makes it a count, and "no." the answer to a yes / no question."""

    def replace(m: re.Match[str]) -> str:
        after = re.match(r"\d+\s+([a-z]+)", text[m.end() :])
        return m.group(0) if after and cues.is_plural(after.group(1)) else ""

    return _NUMBER_SIGN.sub(replace, text)


def _time_token(token: str) -> str:
    """ "7:45 p.m." -> "7:45pm", "03:45" -> "3:45": one spelling per time."""
    return re.sub(r"\s|\.", "", token).lstrip("0") or token


_TENS = {
    w: 10 * k
    for k, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2)
}
_UNITS = {w: n for w, n in lx.NUMBER_WORDS.items() if 1 <= n <= 9}
# "twenty-three", "forty two": one number, not 20 and 3
_COMPOUND_NUMBER = re.compile(r"\b(" + "|".join(_TENS) + r")(?:[\s-](" + "|".join(_UNITS) + r"))?\b")


# a count in dozens: "half a dozen" (6), "a dozen" (12), "two dozen" / "3 dozen" (24, 36); an exact
# quantity, unlike "a couple of" or "a few"
_DOZENS = re.compile(r"\b(?:(half)\s+a|a|one|(\d+|" + "|".join(_UNITS) + r"))\s+dozen\b")


def _dozens(m: re.Match[str]) -> str:
    if m.group(1):
        return "6"
    many = m.group(2)
    return str(12 * (int(many) if many and many.isdigit() else _UNITS.get(many or "", 1)))


def _compose_numbers(text: str) -> str:
    """ "twenty-three" -> "23", "forty" -> "40" (lexicon's number words stop at twenty), "half a dozen" ->
    "6", "two dozen" -> "24"."""
    text = _COMPOUND_NUMBER.sub(lambda m: str(_TENS[m.group(1)] + _UNITS.get(m.group(2) or "", 0)), text)
    return _DOZENS.sub(_dozens, text)


def tokens(text: str) -> list[str]:
    """The reply's tokens (module docstring): times and numbers whole, number words as digits."""
    found = _TOKEN.findall(_compose_numbers(_drop_number_sign(cues.normalise(text))).replace("-", " "))
    return [_NUMBERS.get(t, _time_token(t) if ":" in t else t) for t in found]


def tokens_text(text: str) -> str:
    """`text` normalised, with number words as digits and number signs dropped ("No. five or six" ->
    "5 or 6"): for patterns over numbers."""
    text = _compose_numbers(_drop_number_sign(cues.normalise(text)))
    return re.sub(r"[a-z]+", lambda m: _NUMBERS.get(m.group(0), m.group(0)), text)


_HOUR_WORDS = {w: n for w, n in lx.NUMBER_WORDS.items() if 1 <= n <= 12}
_MINUTE_WORDS = {**{w: n for w, n in lx.NUMBER_WORDS.items() if 1 <= n <= 20}, "quarter": 15, "half": 30}
_MINUTES = (
    r"(?:twenty[\s-](?:one|two|three|four|five|six|seven|eight|nine)|"
    + "|".join(sorted(_MINUTE_WORDS, key=len, reverse=True))
    + r"|\d{1,2})"
)
_SPOKEN_TIME = re.compile(
    rf"\b(?:a\s+)?(?P<min>{_MINUTES})(?:\s+minutes?)?\s+(?P<dir>past|after|to|before|till)\s+"
    r"(?P<hour>" + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True)) + r"|\d{1,2})\b"
)
_O_CLOCK = re.compile(r"\b(?P<hour>[a-z]+|\d{1,2})\s*o'?\s?clock\b")


def _minutes(said: str) -> int | None:
    if said.isdigit():
        return int(said) if 0 < int(said) < 60 else None
    parts = re.split(r"[\s-]", said)
    if len(parts) == 2 and parts[0] == "twenty" and parts[1] in _HOUR_WORDS:
        return 20 + _HOUR_WORDS[parts[1]]
    return _MINUTE_WORDS.get(said)


def _hour(said: str) -> int | None:
    n = int(said) if said.isdigit() else _HOUR_WORDS.get(said)
    return n if n is not None and 1 <= n <= 12 else None


def _say_time(m: re.Match[str]) -> str:
    minutes, hour = _minutes(m.group("min")), _hour(m.group("hour"))
    if (
        minutes is None
        or hour is None
        or (m.group("min") == "half" and m.group("dir") not in ("past", "after"))
    ):
        return m.group(0)
    counted = re.match(r"\s+([a-z]+)", m.string[m.end() :])
    if counted and cues.is_plural(counted.group(1)):  # "five to six people": a range of counts
        return m.group(0)
    if m.group("dir") in ("past", "after"):
        return f"{hour}:{minutes:02d}"
    return f"{hour - 1 or 12}:{60 - minutes:02d}"


def spoken_times(text: str) -> str:
    """`text` with its spoken times as digits ("quarter to four" -> "3:45", "five o'clock" -> "5:00").
    Only for a reference that is a time: elsewhere "five to six" is a range of counts."""
    text = cues.normalise(text)
    text = _SPOKEN_TIME.sub(_say_time, text)
    return _O_CLOCK.sub(lambda m: f"{h}:00" if (h := _hour(m.group("hour"))) else m.group(0), text)


def is_time(text: str) -> bool:
    """A reference that is a time of day ("3:45", "10:10 am", "five o'clock")."""
    return bool(re.search(r"\d:\d\d", spoken_times(text)))


@lru_cache(maxsize=4096)
def forms(word: str) -> frozenset[str]:
    """Every form `word` stands for: itself, its lemma, its American spelling, an a- adjective's stem."""
    import simplemma
    from breame.spelling import get_american_spelling

    if ":" in word:  # a time: "7:45pm" is also 7:45
        return frozenset({word, re.sub(r"[ap]m$", "", word)})
    if word.endswith("'s") and word[:-2].isalpha():  # a possessive names its owner: "the child's umbrella"
        return frozenset({word}) | forms(word[:-2])
    if not word.isalpha():
        return frozenset({word})
    out = {word, get_american_spelling(word)}
    out |= {simplemma.lemmatize(w, lang="en") for w in list(out)}
    out |= _ing_stems(word)
    if word.startswith("a") and len(word) > 4 and simplemma.is_known(word[1:], lang="en"):
        out.add(word[1:])  # "asleep" -> "sleep", "afloat" -> "float"
    return frozenset(out | {get_american_spelling(w) for w in out})


def _ing_stems(word: str) -> set[str]:
    """The verb of an -ing form that simplemma reads as a noun ("sitting" -> "sit") or lemmatises wrongly
    ("playing" -> "playe"): the stem without -ing, undoubled ("sitt" -> "sit") or with its -e ("mak" ->
    "make"), where simplemma knows it as a word."""
    import simplemma

    if not word.endswith("ing") or len(word) < 6:
        return set()
    stem = word[:-3]
    candidates = [stem, stem + "e"] + ([stem[:-1]] if stem[-1] == stem[-2] else [])
    return {c for c in candidates if len(c) > 2 and simplemma.is_known(c, lang="en")}


def _token_forms(toks: Sequence[str]) -> set[str]:
    """The forms of every token and of every two adjacent tokens written as one ("ice cream")."""
    found: set[str] = set()
    for t in toks:
        found |= forms(t)
    for a, b in zip(toks, toks[1:], strict=False):
        if a.isalpha() and b.isalpha():
            found |= forms(a + b)
    return found


def _missing(reference_words: Sequence[str], toks: Sequence[str]) -> list[str]:
    """The reference words the tokens do not contain in any form (a compound may be split or joined)."""
    have = _token_forms(toks)
    missing = []
    i = 0
    while i < len(reference_words):
        word = reference_words[i]
        if forms(word) & have:
            i += 1
            continue
        pair = word + reference_words[i + 1] if i + 1 < len(reference_words) else ""
        if pair and forms(pair) & have:
            i += 2
            continue
        missing.append(word)
        i += 1
    return missing


def negated(toks: Sequence[str], word: str) -> bool:
    """Whether a form of `word` occurs right after a negator ("not red", "isn't a red ...": one
    article or -ing verb between)."""
    wanted = forms(word)
    for k, t in enumerate(toks):
        if not forms(t) & wanted:
            continue
        back = [w for w in toks[max(0, k - 3) : k] if w not in _SKIP_AFTER_NEGATION]
        if back and (
            back[-1] in _NEGATORS or (len(back) > 1 and back[-2] in _NEGATORS and back[-1].endswith("ing"))
        ):
            return True
    return False


def contains_answer(reference_words: Sequence[str], text: str) -> bool:
    """Every reference word occurs in `text` in some form, none of them negated in its own clause ("No.
    2 cats are on the sofa": the "No." ends before the count); or one clause gives them all, none negated
    ("The baby is eating; the older child isn't eating": whose answer it is, binding decides)."""
    if _missing(reference_words, tokens(text)):
        return False
    parts = clauses(text)
    if not any(negated(tokens(c), w) for c in parts for w in reference_words):
        return True
    return any(
        not _missing(reference_words, tokens(c)) and not any(negated(tokens(c), w) for w in reference_words)
        for c in parts
    )


def yes_no(question: str, reply: str, stop: frozenset[str]) -> str | None:
    """ "yes" / "no" as the reply gives it (module docstring), or None when it cannot be read."""
    toks = tokens(reply)
    if not toks:
        return None
    opening = opening_yes_no(reply)
    if opening:
        return opening
    asked = tokens(question)
    if not asked or asked[0] not in _AUXILIARIES:
        return None
    elliptic = _elliptic_answer(asked[0], reply)
    if elliptic:
        return elliptic
    if asked[-1] in _OPPOSITE_PARTICLE:
        return _particle_state(asked[-1], reply)
    content = [w for w in asked[1:] if w not in stop and w not in _AUXILIARIES]
    if not content:
        return None
    missing = _missing(content, toks)
    if set(toks) & _SUBJECT_PRONOUNS and content[0] in cues.question_cues(question).referents:
        # the question's subject (its first content word, a referent) said as a pronoun: "It has a
        # collar on" for "Is the dog wearing a collar?"
        missing = [w for w in missing if w != content[0]]
    negative = any(negated(toks, w) for w in content if w not in missing) or any(t in _NEGATORS for t in toks)
    if not missing or _implied(asked, content, missing):
        return "no" if negative else "yes"
    if not negative and _another_state(asked, content, missing, reply):
        return "no"
    if not negative and _opposite_state(asked, content, missing, reply):
        return "no"
    return None


# an affirming adverb that opens a reply answers yes ("Definitely - its fur is soaked"), unless a negator
# follows ("Definitely not"); "not really" / "not at all" opening a reply answer no
_AFFIRMING = frozenset(["definitely", "absolutely", "certainly", "sure"])
_HEDGED_NO = frozenset(["really", "at", "quite"])
_SUBJECT_PRONOUNS = lx.PERSON_PRONOUNS | lx.PLURAL_PRONOUNS | frozenset(["it", "its"])


def opening_yes_no(reply: str) -> str | None:
    """ "yes" / "no" as the reply's first word gives it ("Yes,", "Nope", "Definitely", "Not really"), or
    None: the answer to the clarified question, before any clause that names a referent."""
    toks = tokens(reply)
    if not toks:
        return None
    first, second = toks[0], toks[1] if len(toks) > 1 else ""
    if first in _YES or (first in _AFFIRMING and second not in _NEGATORS):
        return "yes"
    if first in _NO or (first in _AFFIRMING and second in _NEGATORS):
        return "no"
    if first == "not" and (not second or second in _HEDGED_NO):
        return "no"
    return None


# an elliptic short answer: a subject pronoun and the question's own auxiliary, nothing after it in its
# clause ("He is - a yellow hard hat", "She isn't.", "It does not.")
_ELLIPTIC = re.compile(
    r"^(?:yes\W+|no\W+)?(?:he|she|it|they|that|this)\s+([a-z]+)(n't|\s+not)?\s*(?:[.,;:!\u2013\u2014-]|$)"
)


def _elliptic_answer(auxiliary: str, reply: str) -> str | None:
    """ "yes" / "no" where the reply opens with its subject and the question's auxiliary alone ("Is he
    wearing a helmet?" "He is - a hard hat."), the negated auxiliary saying no; None otherwise."""
    m = _ELLIPTIC.match(cues.normalise(reply).strip())
    if m is None or m.group(1) != auxiliary:
        return None
    return "no" if m.group(2) else "yes"


# "Is the light on?": the state is a particle with no object, whose opposite says "no" ("switched off")
_OPPOSITE_PARTICLE = {"on": "off", "off": "on", "up": "down", "down": "up"}
# the particle as a state: after a word, before the clause's end or a conjunction ("is off.", "switched on
# and glowing"), never before its own object ("on the desk", "off the table")
_PARTICLE_STATE = re.compile(
    r"\b([a-z']+)\s+(on|off|up|down)\b(?=\s*(?:[.,;:!?\u2013\u2014)]|$|\s+(?:and|but|now|again|already|"
    r"right now|at the moment|too)\b))"
)


def _particle_state(particle: str, reply: str) -> str | None:
    """ "yes" when the reply gives the asked particle as the state ("The desk lamp is switched on"),
    "no" when it gives the opposite one ("It's off") or negates the asked one ("isn't on"), None when it
    gives neither or both."""
    found = {
        p if w not in _NEGATORS and w != "not" else "not " + p
        for w, p in _PARTICLE_STATE.findall(cues.normalise(reply).replace("n't", " not"))
    }
    yes = particle in found
    no = _OPPOSITE_PARTICLE[particle] in found or "not " + particle in found
    if yes != no:
        return "yes" if yes else "no"
    return None


def _state_word(asked: Sequence[str], content: Sequence[str]) -> str | None:
    """The state a yes / no question asks about: its last word, right after the subject ("open" in "Is
    the door open?"), never a noun after an article ("a hat") or an -ing verb ("smiling")."""
    last = asked[-1]
    if last != content[-1] or len(asked) < 3 or asked[-2] in _SKIP_AFTER_NEGATION or last.endswith("ing"):
        return None
    return last


def _implied(asked: Sequence[str], content: Sequence[str], missing: Sequence[str]) -> bool:
    """The reply states the asked state or object in other words around it: "it's empty" for "Is the glass
    empty?" (the state given, the subject left implicit), "has a red collar on" for "Is the dog wearing a
    collar?" (the object given, only the -ing verb missing)."""
    state = _state_word(asked, content)
    if state and state not in missing:
        return True
    return content[-1] not in missing and all(w.endswith("ing") for w in missing)


def _another_state(asked: Sequence[str], content: Sequence[str], missing: Sequence[str], reply: str) -> bool:
    """The reply gives its subject another state than the one asked ("The door is closed." for "Is the
    door open?", or "It is shut."): the asked state word is all that is missing (but for a subject said as
    a pronoun), and a clause ends on a copula and one other word. Read as "no"; a synonym ("ajar") would
    be misread, which the copula frame keeps rare."""
    state = _state_word(asked, content)
    if state is None or state not in missing:
        return False
    # a colour answers no state question ("Is the door open?" "The door is red."): not read as "no"
    other = (lx.COLORS | cues.STOPWORDS | cues.PREPOSITIONS) - {state}
    named = list(missing) == [state]
    return any(
        w not in content and w not in other and (named or subject in _PRONOUNS)
        for subject, w in _COPULA_STATE.findall(cues.normalise(reply))
    )


# a word said of a subject: after a linking verb, up to three words between that neither negate nor open a
# noun phrase ("is shut tight", "seems to be fast asleep", "looks fast asleep"; not "is a closed box")
_LINKING = re.compile(
    r"\b([a-z]+)(?:\s+(?:is|are|was|were|looks?|seems?|appears?|remains?|stays?)|'s|'re)\s+"
)


def _opposite_state(asked: Sequence[str], content: Sequence[str], missing: Sequence[str], reply: str) -> bool:
    """The reply says of its subject the opposite of the asked state, by WordNet's antonym of the state's
    first sense (`noun_senses.antonyms`): "The garage door is shut tight" for "Is the door open?", "it
    seems to be asleep" for "Is the cat awake?": "no". The word must be said of the asked subject (after a
    linking verb, `_LINKING`, whose subject is the question's noun or a pronoun), never of another ("the
    window is closed") nor as a noun's modifier ("next to a closed window")."""
    state = _state_word(asked, content)
    if state is None or state not in missing:
        return False
    opposite = noun_senses.antonyms(state)
    if not opposite:
        return False
    blocked = _NEGATORS | _SKIP_AFTER_NEGATION | lx.ARTICLES | lx.POSSESSIVE_PRONOUNS
    text = cues.normalise(reply)
    subjects = {f for w in content if w != state for f in forms(w)} | _PRONOUNS
    for m in _LINKING.finditer(text):
        before = re.findall(r"[a-z']+", text[max(0, m.start() - 40) : m.start()])[-1:]  # the word before
        if not forms(m.group(1)) & subjects or set(before) & cues.PREPOSITIONS:  # "beside it is shut"
            continue
        for k, word in enumerate(re.findall(r"[a-z']+", text[m.end() :])[:4]):
            if word in blocked or k and word in lx.AUX and word != "be":
                break
            if forms(word) & opposite:
                return True
    return False


_PRONOUNS = frozenset(["it", "he", "she", "they"])
# "is closed.", "looks completely shut,", "it's bare-headed": a copula after its subject's last word, an
# adverb or none, and a clause's last word
_COPULA_STATE = re.compile(
    r"\b([a-z]+)(?:\s+(?:is|are|was|were|looks|seems|appears|remains|stays)|'s)\s+(?:[a-z]+ly\s+|still\s+|now\s+)?"
    r"([a-z]+(?:-[a-z]+)?)\s*(?:[.!,;]|$)"
)


def clauses(text: str) -> list[str]:
    """The reply's clauses: sentences, and the parts of one joined by ";", "while", "but", "though", or a
    comma before a new subject ("the big one is red, the small one is blue")."""
    return [c.strip() for c in _CLAUSE_BREAK.split(cues.normalise(text)) if c and c.strip()]


def bound_to_hint(
    reference_words: Sequence[str],
    reply: str,
    hint_words: Sequence[str],
    referents: frozenset[str] = frozenset(),
) -> bool | None:
    """In a reply of several clauses: True when a clause that names the hinted referent gives the answer,
    False when only clauses about another referent give it, None when no clause names the hint or an
    answering clause names no referent at all ("In his right hand, | a phone."). `referents`: the
    question's and hint's nouns."""
    if not hint_words:
        return None
    parts = clauses(reply)
    if len(parts) < 2:
        return None
    hinted = _hinted_clauses(parts, hint_words)
    if not hinted or len(hinted) == len(parts):
        return None
    answering = [c for c in parts if contains_answer(reference_words, c)]
    if not answering:
        return None
    if any(c in hinted for c in answering):
        return True
    names = referents | {"one"}
    if any(
        not subject_places(c, referents)
        and not names & set(cues.words(c))
        and not _owner(c)
        and not _other_agent(c, referents, reference_words)
        for c in answering
    ):
        return None
    return False


_CLAUSE_OPENERS = frozenset(
    ["and", "but", "while", "whereas", "though", "although", "so", "then", "meanwhile"]
)


def _other_agent(clause: str, referents: frozenset[str], reference_words: Sequence[str]) -> str | None:
    """The clause's subject when it is a definite person or animal ("the mother is holding a banana")
    that is none of the referents nor a synonym or kind of one ("the infant" for "baby") nor the answer's
    own thing: another one who does or has the answer, as surely as a possessive owner names one. None
    otherwise ("the plate holds a sandwich": a thing, which may still be the hinted one's)."""
    toks = cues.words(clause)
    while toks and toks[0] in _CLAUSE_OPENERS:  # "and the mother is ..."
        toks = toks[1:]
    end = next((k for k, t in enumerate(toks) if t in _SUBJECT_ENDS or t in lx.AUX), None)
    if end is None or end < 2 or toks[0] != "the" or end > 4:
        return None
    noun = toks[end - 1]
    single = sorted(forms(noun) & set(_nouns(noun)), key=len)
    if not single or forms(noun) & (_token_forms(reference_words) | {f for r in referents for f in forms(r)}):
        return None
    agent = noun_senses.person(noun, single[0]) or noun_senses.kind_of(single[0], "animal")
    known = [r for r in referents if _nouns(r)]
    if not agent or any(
        noun_senses.same_thing(single[0], _nouns(r)[0]) or noun_senses.kind_of(single[0], _nouns(r)[0])
        for r in known
    ):
        return None
    return noun


_CONTRACTED = (
    lx.PERSON_PRONOUNS | lx.THING_PRONOUNS | lx.WH | lx.DEICTICS | frozenset(["there", "let", "here"])
)


def _owner(clause: str) -> str | None:
    """The owner a clause names by a possessive noun ("the man's is red" -> "man"), which names another
    referent as surely as its noun would; not a contraction ("it's", "that's", "there's")."""
    for tok in cues.words(clause):
        stem = tok[:-2] if tok.endswith("'s") else ""
        if stem.isalpha() and stem not in _CONTRACTED and _is_noun(stem):
            return stem
    return None


def _hinted_clauses(parts: Sequence[str], hint_words: Sequence[str]) -> list[str]:
    """The clauses that name the hinted referent: those with all the hint's words where any has them all
    ("the red-hat kid is eating popcorn" for "the kid in the red hat", not "the kid in the green hat has
    the hot dog", which shares only "hat"), else those with the most of its words but -ing verbs, else
    those with any of them."""
    said = [set(w for w in hint_words if not _missing([w], tokens(c))) for c in parts]
    whole = [c for c, s in zip(parts, said, strict=True) if len(s) == len(set(hint_words))]
    if whole:
        return whole
    # else the clauses with the most of the hint's words other than an -ing verb: an action ("the one
    # the girl is holding") is shared by other referents ("the one the man holds"), a noun names one
    named = [len([w for w in s if not w.endswith("ing")]) for s in said]
    best = max(named, default=0)
    if best:
        return [c for c, n in zip(parts, named, strict=True) if n == best]
    return [c for c, s in zip(parts, said, strict=True) if s]


def unhinted_contrast(
    reference_words: Sequence[str], reply: str, hint_words: Sequence[str], referents: frozenset[str]
) -> bool:
    """The reply tells referents apart, each in a clause of its own that names one ("The standing man
    wears a suit; the seated man is in a hoodie"), the answer stands in one of them, and no clause has a
    word of the hint ("the man sitting down"): the hint is in other words, and which clause it picks
    cannot be read."""
    if not hint_words:
        return False
    parts = clauses(reply)
    if any(not _missing([w], tokens(c)) for c in parts for w in hint_words):
        return False
    naming = [c for c in parts if referents & set(cues.words(c))]
    return len(naming) >= 2 and any(contains_answer(reference_words, c) for c in naming)


_OWNERS = frozenset(["its", "his", "her", "their", "my", "your", "our"])
# the verbs that end a clause's subject ("the bus at the front | is red")
_SUBJECT_ENDS = lx.RESPONSE_VERBS | frozenset(
    ["appears", "seems", "sits", "stands", "shows", "lies", "looks"]
)


def subject_places(clause: str, referents: frozenset[str]) -> list[str]:
    """The places of the clause's subject, canonical ("the bus at the front is red" -> ["foreground"]; a
    hint, having no verb, is all subject). A side or part of the object is no place of it: a place after a
    possessive ("on its left side", "her left wrist") or before another noun ("the left wing", but "the
    left bus" / "the left one"), and "in front of" / "at the back of" something else."""
    toks = cues.words(clause)
    end = next((k for k, t in enumerate(toks) if t in _SUBJECT_ENDS), len(toks))
    subject = toks[:end]
    found = []
    for k, tok in enumerate(subject):
        place = cues.place_of(tok)
        if place is None or (k > 0 and subject[k - 1] in _OWNERS):
            continue
        nxt = subject[k + 1] if k + 1 < len(subject) else ""
        if nxt == "of" and place in ("foreground", "background"):
            continue  # "in front of the car": a place relative to another object
        if nxt and nxt not in referents | {"one", "of"} and cues.place_of(nxt) is None and _is_noun(nxt):
            continue  # "the left wing": a part
        found.append(place)
    return found


def _is_noun(word: str) -> bool:
    """A word that can head a noun phrase here: not a function word or a preposition, and a noun by
    WordNet in some form ("wing", "sleeve"); a verb after the place ("the one in the middle depicts a
    ship") ends the subject, it names no part."""
    return (
        word.isalpha() and word not in cues.STOPWORDS and word not in cues.PREPOSITIONS and bool(_nouns(word))
    )


def other_place(
    reference_words: Sequence[str], reply: str, hint: str, referents: frozenset[str]
) -> str | None:
    """The place of the referent a reply answers for, when it excludes the hint's place (the answer is
    about another referent), or None."""
    wanted = subject_places(hint, referents)
    if not wanted:
        return None
    answering = [c for c in clauses(reply) if contains_answer(reference_words, c)]
    places = [subject_places(c, referents) for c in answering]
    if not answering or not all(places):
        return None
    if all(cues.exclusive_places(wanted + p) and not set(p) & set(wanted) for p in places):
        return places[0][0]
    return None


_DETERMINERS = lx.ARTICLES | lx.DEICTICS | lx.POSSESSIVE_PRONOUNS | lx.SPEAKER_POSSESSIVES


def _modifiers(toks: Sequence[str], referents: frozenset[str]) -> tuple[list[str], list[str]] | None:
    """The modifiers of the first referent noun (or "one") in `toks`, a subject or a hint: the words
    between its determiner and it ("big" in "the big dog", "woman's" in "the woman's coat"), and the
    content words of a phrase after it led by a preposition ("sea lion enclosure" in "the keeper at the
    sea lion enclosure"); None when no referent noun stands there."""
    wanted = {f for r in referents | {"one"} for f in forms(r)}
    k = next((k for k, t in enumerate(toks) if forms(t) & wanted), None)
    if k is None:
        return None
    before = []
    for t in reversed(toks[:k]):
        if t in _DETERMINERS or t in cues.STOPWORDS or not t.replace("'", "").isalpha():
            break
        before.append(t)
    after: list[str] = []
    if k + 1 < len(toks) and toks[k + 1] in cues.PREPOSITIONS:
        after = [t for t in toks[k + 2 :] if t not in cues.STOPWORDS and t not in _DETERMINERS]
    return before[::-1], after


def other_modifier(
    reference_words: Sequence[str], reply: str, hint: str, referents: frozenset[str]
) -> tuple[bool, str] | None:
    """The reply names its referent with a modifier in the slot where the hint has its own (before the
    noun: "the big dog" for "the small dog", "the man's" for "the woman's"; a phrase after it: "the keeper
    at the sea lion enclosure" for "the keeper at the penguin pool"), in every clause that gives the
    answer, and the hint's modifier words that the reply's lacks stand nowhere in the reply: it picks out
    a referent in other words than the hint's. (True, why) when the two modifiers are different colours
    ("in the green shirt" for "in the red shirt"): another referent; (False, why) otherwise: another
    referent, or the hinted one described anew ("the little one" for "the small one"), which the rules
    cannot tell apart. `referents`: the question's nouns; places are `other_place`'s."""
    hinted = _modifiers(cues.words(hint), referents)
    answering = [c for c in clauses(reply) if contains_answer(reference_words, c)]
    if hinted is None or not answering:
        return None
    have = _token_forms(tokens(reply))
    found = []
    for clause in answering:
        toks = cues.words(clause)
        end = next((k for k, t in enumerate(toks) if t in _SUBJECT_ENDS or t in lx.AUX), None)
        said = (
            _modifiers(toks[:end], referents) if end else None
        )  # no verb: no subject ("A stick - a big one")
        if said is None:
            return None
        slots = [(h, r) for h, r in zip(hinted, said, strict=True) if h and r]
        if not slots or any(cues.place_of(w) for h, r in slots for w in h + r):
            return None
        sure = False
        for h, r in slots:
            colours = ({w for w in h if w in lx.COLORS}, {w for w in r if w in lx.COLORS})
            clash = bool(colours[0] and colours[1] and not colours[0] & colours[1])
            lacking = [w for w in h if not forms(w) & _token_forms(r)]
            if not lacking or any(forms(w) & have for w in lacking) or (lacking != h and not clash):
                return None
            if any(related_forms(w, t) for w in lacking for t in r):  # "the sill" for "the windowsill"
                return None
            sure = sure or clash
        found.append(
            (sure, " ".join(w for _, r in slots for w in r), " ".join(w for h, _ in slots for w in h))
        )
    return all(s for s, _, _ in found), f"the reply's {found[0][1]!r} where the hint says {found[0][2]!r}"


# what may stand between a noun and a word said of it in a reduced or full relative clause ("the man
# standing", "the man who's standing", "the dog that is bigger")
_RELATIVE = frozenset(["who", "who's", "that", "that's", "which", "is", "was", "are", "were"])


def opposed_referent(
    reference_words: Sequence[str], reply: str, hint_words: Sequence[str], referents: frozenset[str]
) -> str | None:
    """Why every clause that gives the answer is about another referent than the hint's, or None: its
    subject (before its verb) calls a referent noun by WordNet's antonym of a hint word
    (`noun_senses.antonyms`), next to the noun ("the big dog", "the big brown dog" for "the small dog";
    "the man who's standing" for "the man sitting down"), and has none of the hint's words. An opposite
    excludes the hinted referent as surely as another place or another colour does; a word elsewhere in
    the clause ("chasing a big ball") describes something else."""
    if not hint_words:
        return None
    opposite = {a: h for h in hint_words for f in forms(h) for a in noun_senses.antonyms(f)}
    answering = [c for c in clauses(reply) if contains_answer(reference_words, c)]
    if not opposite or not answering:
        return None
    nouns = {f for r in referents | {"one"} for f in forms(r)}
    found = []
    for clause in answering:
        toks = cues.words(clause)
        if any(not _missing([w], toks) for w in hint_words):
            return None
        # the subject ends at the clause's verb, not at one inside a relative clause ("who is standing")
        end = next(
            (
                k
                for k, t in enumerate(toks)
                if (t in _SUBJECT_ENDS or t in lx.AUX)
                and toks[k - 1 : k] not in (["who"], ["that"], ["which"])
            ),
            len(toks),
        )
        subject = toks[:end]
        said = None
        for k, tok in enumerate(subject):
            hit = next((opposite[f] for f in forms(tok) if f in opposite), None)
            if hit is None:
                continue
            back = next((j for j in range(k - 1, -1, -1) if subject[j] not in _RELATIVE), None)
            if any(forms(t) & nouns for t in subject[k + 1 : k + 3]) or (
                back is not None and forms(subject[back]) & nouns
            ):
                said = (tok, hit)
                break
        if said is None:
            return None
        found.append(said)
    return f"the reply's {found[0][0]!r} where the hint says {found[0][1]!r}, its opposite"


def missing_words(reference_words: Sequence[str], text: str) -> list[str]:
    """The reference words `text` does not contain in any form (`_missing` over its tokens)."""
    return _missing(reference_words, tokens(text))


def related_forms(word: str, other: str) -> bool:
    """Two different words whose forms say they may name the same thing: a spelling variant ("racquet" /
    "racket": the same first letters, most letters shared), a compound sharing its first part of five or
    more letters ("motorbike" / "motorcycle") or ending in the other word ("telephone" / "phone"). Not
    evidence of the same meaning ("football" / "ball"), only that another wording cannot be ruled out."""
    from difflib import SequenceMatcher

    for a in forms(word):
        for b in forms(other):
            if a == b or not (a.isalpha() and b.isalpha()):
                continue
            short, long_ = sorted((a, b), key=len)
            if len(short) >= 4 and long_.endswith(short):
                return True
            if len(short) >= 5 and long_.startswith(short[:5]):
                return True
            if len(short) >= 5 and a[:2] == b[:2] and SequenceMatcher(None, a, b).ratio() >= 0.75:
                return True
    return False


def _nouns(word: str) -> list[str]:
    """The word's forms that WordNet knows as nouns, the word itself first ("bikes" -> "bike")."""
    return [w for w in sorted(forms(word), key=lambda w: w != word) if w.isalpha() and noun_senses.senses(w)]


def _close_synonym(word: str, reference: str) -> bool:
    """A synonym (`noun_senses.same_thing`) whose own first sense is the reference's thing or stands under
    the reference's nearest kind: "bike" (first a motorcycle, then a bicycle) for "bicycle", both wheeled
    vehicles; not "wheel" (a machine part; a bicycle by its seventh sense) nor "cat" (a man by its
    second) for "guy"."""
    if not noun_senses.same_thing(word, reference):
        return False
    mine, theirs = noun_senses.senses(word)[0], noun_senses.senses(reference)[0]
    return mine == theirs or bool(set(noun_senses.hypernyms(theirs)) & noun_senses.ancestors(mine))


def _names_reference(word: str, reference: str, skip: frozenset[str] | set[str] = frozenset()) -> str | None:
    """How `word` names the reference noun's thing: "a synonym", "a kind" of it, "a spelling" of it (a
    spelling variant, `_spelling_variant`, that WordNet lists in one of the reference's senses, whatever its
    rank: the same word), "a compound" headed by it, or None. `skip`: forms
    that name something else here (the hint's "grill" is no reading of "grilling")."""
    for w in _nouns(word):
        if w in skip:
            continue
        for r in _nouns(reference):
            if w == r:
                return None
            if _close_synonym(w, r):
                return "a synonym"
            if noun_senses.kind_of(w, r):
                return "a kind"
            if _spelling_variant(w, r) and set(noun_senses.senses(w)) & set(noun_senses.senses(r)):
                return "a spelling"  # "racquet": WordNet lists it in a sense of "racket", one word
    if not _nouns(word) and any(_compound_of(word, r) for r in _nouns(reference)):
        return "a compound"
    return None


def _spelling_variant(word: str, other: str) -> bool:
    """Two spellings of one word: the same first two letters, most letters shared ("racquet" / "racket"),
    neither a part of the other ("earphone" is a compound of "phone", no spelling of it)."""
    from difflib import SequenceMatcher

    short, long_ = sorted((word, other), key=len)
    return word[:2] == other[:2] and short not in long_ and SequenceMatcher(None, word, other).ratio() >= 0.75


def _compound_of(word: str, head: str) -> bool:
    """Whether `word`, a noun WordNet lacks, is a compound headed by `head`: a known word of three letters
    or more, then the head ("smartphone" for "phone"). English compounds name a kind of their last part;
    the ones that do not ("butterfly", "hotdog", "seahorse") are established words that WordNet lists, and
    there its hypernyms decide."""
    if len(head) < 3 or not word.endswith(head):
        return False
    first = word[: -len(head)]
    return len(first) >= 3 and bool(noun_senses.senses(first) or noun_senses.antonyms(first))


def in_other_words(
    reference_words: Sequence[str], reply: str, own: Sequence[str] = ()
) -> tuple[str, str, str] | None:
    """The reply read with the reference's head noun (its last word) where it names the head's thing in
    other words (module docstring), the word it replaced and how it names it ("a synonym" / "a kind"); None
    when the reply gives the head itself or no such word. `own`: the question's and hint's words, which
    name the referent, not the answer."""
    if not reference_words or not reference_words[-1].isalpha():
        return None
    head = reference_words[-1]
    toks = tokens(reply)
    if forms(head) & _token_forms(toks):
        return None
    skip = _token_forms(own)
    for t in dict.fromkeys(toks):
        if not t.isalpha() or t in cues.STOPWORDS or t in skip:
            continue
        how = _names_reference(t, head, skip)
        if how:
            return re.sub(rf"\b{re.escape(t)}\b", head, cues.normalise(reply)), t, how
    return None


# "(US: sneakers)", "(UK: trainer, plimsoll)", "(US similar: sneaker)": the other variety's word in breame's
# definitions of British-only and American-only terms and of words whose meaning differs
_REGIONAL = re.compile(r"\((?:US|UK)\b[^:()]*:\s*([^()]*)\)")


@lru_cache(maxsize=1)
def _regional_terms() -> dict[str, frozenset[str]]:
    """Each British or American term with the other variety's words for it ("trainers" -> "sneakers",
    "sneaker" -> "trainer", "mobile" -> "cell phone"), from breame's lists (Wikipedia's lists of British-
    and American-only terms, both ways; and of words whose meanings differ, only from the word to the
    counterpart of its regional sense: "truck" lists "trolley" among several, so a trolley is no truck);
    a counterpart is a word or a phrase of up to three words, as written there."""
    from breame.meanings import DIFFERENT_MEANINGS_US_UK_COMMON
    from breame.terminology import AMERICAN_ENGLISH_ONLY_TERMS, BRITISH_ENGLISH_ONLY_TERMS

    entries = [(k, v, True) for k, v in {**BRITISH_ENGLISH_ONLY_TERMS, **AMERICAN_ENGLISH_ONLY_TERMS}.items()]
    entries += [
        (k, d, False)
        for k, senses in DIFFERENT_MEANINGS_US_UK_COMMON.items()
        for variety, d in senses.items()
        if variety != "Common" and isinstance(d, str)
    ]
    found: dict[str, set[str]] = {}
    for keys, definition, both_ways in entries:
        for m in _REGIONAL.finditer(definition):
            for other in re.split(r"[,;/]|\bor\b", m.group(1)):
                other = " ".join(other.lower().split())
                if not re.fullmatch(r"[a-z]+(?: [a-z]+){0,2}", other):
                    continue
                for key in (k.strip().lower() for k in keys.split(",")):
                    if key and key != other:
                        found.setdefault(key, set()).add(other)
                        if both_ways:
                            found.setdefault(other, set()).add(key)
    return {k: frozenset(v) for k, v in found.items()}


def in_regional_words(reference_words: Sequence[str], reply: str) -> tuple[str, str] | None:
    """The reply read with the other variety's word where it uses a British or American term for the
    reference's head noun (`_regional_terms`: "trainers" for "sneakers", "mobile" for "phone", read as
    "cell phone"), and the word as written; None when the reply gives the head itself or no such term.
    A term is looked up as written and by its lemma ("trainers" / "trainer")."""
    if not reference_words or not reference_words[-1].isalpha():
        return None
    head = forms(reference_words[-1])
    toks = tokens(reply)
    if head & _token_forms(toks):
        return None
    table = _regional_terms()
    for t in dict.fromkeys(toks):
        if not t.isalpha() or t in cues.STOPWORDS:
            continue
        for key in sorted(forms(t), key=lambda w: w != t):
            heads = [o for o in table.get(key, ()) if forms(o.split()[-1]) & head]
            if heads:
                return re.sub(rf"\b{re.escape(t)}\b", heads[0], cues.normalise(reply)), t
    return None


def rare_synonym(word: str, reference: str) -> bool:
    """A synonym by a rare sense only ("wheels" for "bicycle"; `_close_synonym` fails): maybe the same
    answer, maybe another thing."""
    pairs = [(w, r) for w in _nouns(word) for r in _nouns(reference)]
    return any(noun_senses.same_thing(w, r) and not _close_synonym(w, r) for w, r in pairs)


def rare_kind(word: str, reference: str) -> bool:
    """A kind of the reference by a rare sense only ("bunny", first a club hostess, for "rabbit";
    `noun_senses.kind_of` reads the first): maybe the same answer, maybe another thing."""
    pairs = [(w, r) for w in _nouns(word) for r in _nouns(reference) if w != r]
    return any(
        noun_senses.any_kind_of(w, r) and not noun_senses.kind_of(w, r) and not noun_senses.same_thing(w, r)
        for w, r in pairs
    )


# English month names and abbreviations, by number (the stdlib's, in the C locale the judges run in)
_MONTHS = {
    n.lower(): k for names in (calendar.month_name, calendar.month_abbr) for k, n in enumerate(names) if n
}
_DATE_FILLERS = frozenset(["st", "nd", "rd", "th", "the", "of", "on"])
# "12/12", "3.4.2024", "12-03-24"; not a time ("12:30") nor a decimal inside a longer number
_NUMERIC_DATE = re.compile(r"(?<![\d/.:-])(\d{1,2})([/.-])(\d{1,2})(?:\2(?:\d{4}|\d{2}))?(?![\d/:-]|\.\d)")


def day_and_month(reference: str) -> tuple[int, int] | None:
    """(day, month) of a reference that is only a date ("12 December", "December 12th", "the 3rd of
    May", a year allowed), or None."""
    days, months = [], []
    for tok in tokens(reference):
        if tok in _MONTHS:
            months.append(_MONTHS[tok])
        elif tok.isdigit() and 1 <= int(tok) <= 31:
            days.append(int(tok))
        elif not (tok in _DATE_FILLERS or (tok.isdigit() and len(tok) == 4)):
            return None
    return (days[0], months[0]) if len(days) == 1 and len(months) == 1 else None


def in_date_words(reference: str, reply: str) -> tuple[str, str] | None:
    """The reply read with the reference where a numeric date in it gives the reference's day and month
    in either order ("expires on 12/12" for "12 December"), and the date as written; None otherwise."""
    wanted = day_and_month(reference)
    if wanted is None:
        return None
    for m in _NUMERIC_DATE.finditer(reply):
        a, b = int(m.group(1)), int(m.group(3))
        if wanted in ((a, b), (b, a)):
            return f"{reply[: m.start()]}{reference}{reply[m.end() :]}", m.group(0)
    return None
