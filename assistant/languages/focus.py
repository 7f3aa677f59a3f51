"""The focus of a question in Spanish, French, German, Portuguese or Italian, by rules, without a model.

The head is the first noun after a determiner ("la taza", "die Tasse", "deste banco") that does not name an
attribute ("el color de la taza", "Welche Farbe hat ...") or the picture ("des Fotos"); else a noun after a
question word ("Welche Tiere ...", "Que animais ..."); a personal pronoun before it ("Trägt er eine Kappe?")
makes the head "person", as in English. German nouns are the capitalised words; in the Romance languages
the noun follows the determiner and any of a few adjectives that stand before nouns ("la gran casa").
The head is its lemma (simplemma), lower case, in the question's language; the number comes from the
determiner, else from the noun (a lemma unlike the word is a plural: "Kühe" -> "kuh"). Descriptors:
adjectives and "de"-phrases next to the head, and the position words anywhere after it, whose English
equivalents ("on the left", "largest") go to `locating` for the policy. A position word in an either/or
question ("links oder rechts") asks about the place and locates nothing.

What the rules cannot give: the English noun for the pointer (`english` stays empty: one VLM call gives it,
assistant.languages.referent) and non-visual descriptors (the model call again).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import simplemma

from assistant.languages.lexicon import RULES, LanguageRules
from assistant.types import GrammaticalNumber, QuestionFocus
from assistant.validation import without_control_characters

MAX_TOKENS = 60
_TOKEN_RE = re.compile(r"(?:[^\W\d_]+')|[^\W_]+(?:-[^\W_]+)*|[?!.;,:¿¡]")
_ALTERNATIVE = frozenset({"o", "ou", "oder", "or", "u"})
_SENTENCE_END = frozenset({"?", "!", ".", ";"})
_SIDE_PHRASES = {
    "left": "on the left",
    "right": "on the right",
    "top": "at the top",
    "bottom": "at the bottom",
    "middle": "in the middle",
}


@dataclass(frozen=True)
class _Tok:
    orig: str
    low: str

    @property
    def is_word(self) -> bool:
        return self.low[:1].isalpha()


def _tokens(question: str) -> list[_Tok]:
    text = without_control_characters(question).replace("\u2019", "'")
    toks = [_Tok(t, t.lower()) for t in _TOKEN_RE.findall(text)]
    # the first sentence that asks something (else the first one), as assistant.question reads
    sentences: list[list[_Tok]] = [[]]
    for tok in toks:
        if tok.low in {"¿", "¡"}:
            continue
        sentences[-1].append(tok)
        if tok.low in _SENTENCE_END:
            sentences.append([])
    asking = [s for s in sentences if s and s[-1].low == "?"]
    for sentence in asking + sentences:
        if any(t.is_word for t in sentence):
            return sentence[:MAX_TOKENS]
    return []


_PLURAL_ENDINGS = {"es": "s", "fr": "sx", "pt": "s", "it": "ie", "de": ""}


@functools.cache
def _lemma(word: str, lang: str) -> str:
    """The noun's singular. simplemma also knows verbs and may read a noun as one ("saia" -> "sair",
    "Rock" -> "rocken"): a lemma longer than the word, or one of a word without a plural ending, is not
    taken."""
    lemma = simplemma.lemmatize(word, lang=lang).lower()
    endings = _PLURAL_ENDINGS.get(lang, "")
    if len(lemma) > len(word) or (endings and word[-1:] not in endings):
        return word
    return lemma


class _Reader:
    def __init__(self, toks: list[_Tok], lang: str) -> None:
        self.toks, self.lang, self.rules = toks, lang, RULES[lang]

    def low(self, i: int) -> str:
        return self.toks[i].low if 0 <= i < len(self.toks) else ""

    def is_noun(self, i: int) -> bool:
        r: LanguageRules = self.rules
        if not 0 <= i < len(self.toks) or not self.toks[i].is_word:
            return False
        w = self.low(i)
        if w in r.stop or w in r.determiners or w in r.positions or w in r.interrogatives:
            return False
        return not r.capitalised_nouns or self.toks[i].orig[:1].isupper()

    def skippable(self, i: int) -> bool:
        """Between a determiner and its noun: another determiner, a numeral, an adjective."""
        r, w = self.rules, self.low(i)
        if not w or not self.toks[i].is_word and not w.isdigit():
            return False
        if w in r.determiners or w.isdigit():
            return True
        if r.capitalised_nouns:
            return not self.toks[i].orig[:1].isupper() and w not in r.stop
        return w in r.prenominal

    def noun_after(self, i: int) -> int | None:
        j = i + 1
        while j < len(self.toks) and self.skippable(j):
            j += 1
        return j if self.is_noun(j) else None

    def head(self) -> tuple[int | None, int | None, str | None]:
        """(determiner index, head index, pronoun word): the first thing-naming noun phrase."""
        r = self.rules
        for i, tok in enumerate(self.toks):
            w = tok.low
            if w in r.person_pronouns or w in r.thing_pronouns and self._alone(i):
                return None, None, w
            if w in r.determiners or w in r.interrogatives:  # "la taza"; "Welche Tiere", "Que animais"
                j = self.noun_after(i)
                if j is not None and not self._attribute(j):
                    dets = [k for k in range(i, j) if self.low(k) in r.determiners]
                    return (dets[-1] if dets else i), j, None
        return None, None, None

    def _alone(self, i: int) -> bool:
        """A demonstrative standing for a thing ("Was ist das?"), not one before a noun ("das Mousepad")."""
        return self.noun_after(i) is None and self.low(i + 1) not in self.rules.determiners

    def _attribute(self, j: int) -> bool:
        w = self.low(j)
        return w in self.rules.attribute_nouns or w in self.rules.image_nouns

    def descriptors(self, det: int | None, head: int, said: set[str]) -> list[str]:
        """Adjectives between determiner and noun, and adjectives / "de"-phrases right after the noun."""
        r, out = self.rules, []
        start = det + 1 if det is not None else head
        out += [self.low(k) for k in range(start, head) if self.low(k) not in r.determiners]
        k = head + 1
        while k < len(self.toks) and self.toks[k].is_word:
            w = self.low(k)
            if w in {"de", "di", "da", "do", "du"} and self.is_noun(k + 1) and not self._attribute(k + 1):
                out.append(f"{w} {self.low(k + 1)}")  # "garrafa de plástico"
                k += 2
                continue
            if w in r.stop or w in r.determiners or w in r.positions or r.capitalised_nouns:
                break
            out.append(w)
            k += 1
        return [d for d in out if d and d not in r.positions and d not in said]

    def positions(self, start: int) -> tuple[list[str], list[str]]:
        """(the position words as written, their English phrases), from the noun phrase's start on."""
        r = self.rules
        words = [t.low for t in self.toks]
        if _ALTERNATIVE & set(words[start:]) and sum(w in r.positions for w in words[start:]) > 1:
            return [], []  # "links oder rechts": asks where, locates nothing
        native: list[str] = []
        english: list[str] = []
        k = start
        while k < len(words):
            pair = f"{words[k]} {words[k + 1]}" if k + 1 < len(words) else ""
            word = pair if pair in r.positions else words[k]
            if word in r.positions:
                native.append(word)
                value = r.positions[word]
                english.append(_SIDE_PHRASES.get(value, value))
            k += 2 if word == pair else 1
        return native, english


def _number(reader: _Reader, det: int | None, head: int) -> GrammaticalNumber:
    fixed = reader.rules.determiners.get(reader.low(det)) if det is not None else None
    if fixed is not None:
        return fixed
    word = reader.low(head)
    return "plural" if _lemma(word, reader.lang) != word else "singular"


def _head_lemma(reader: _Reader, head: int, number: GrammaticalNumber) -> str:
    word = reader.low(head)
    lemma = _lemma(word, reader.lang)
    if lemma == word and number == "plural" and reader.lang in {"es", "fr", "pt"} and word.endswith("s"):
        return word[:-1]  # a plural simplemma does not know ("calças"): its "-s" is the plural's
    return lemma


def analyse_in_language(question: str, lang: str) -> QuestionFocus:
    """The focus of a question in one of the rule languages (assistant.languages.RULE_LANGUAGES)."""
    reader = _Reader(_tokens(question), lang)
    det, head, pronoun = reader.head()
    base = {"question": question, "language": lang, "reader": "rules"}
    if pronoun is not None:
        person = pronoun in reader.rules.person_pronouns
        return QuestionFocus(
            focus=pronoun,
            head="person" if person else "object",
            number="plural"
            if pronoun in {"ellos", "ellas", "ils", "elles", "eles", "elas", "loro"}
            else "singular",
            pronoun=True,
            pronoun_word=pronoun,
            english="person" if person else "",
            **base,  # type: ignore[arg-type]
        )
    if head is None:
        return QuestionFocus(focus="", head="", number="singular", pronoun=False, **base)  # type: ignore[arg-type]
    start = det if det is not None and reader.low(det) not in reader.rules.interrogatives else head
    native, english = reader.positions(start)
    said = {w for phrase in native for w in phrase.split()}
    descriptors = reader.descriptors(det, head, said)
    end = max([head, *[i for i in range(head, len(reader.toks)) if reader.low(i) in said]]) + 1
    deictic = det is not None and reader.low(det) in reader.rules.deictic
    number = _number(reader, det, head)
    return QuestionFocus(
        focus=" ".join(t.orig for t in reader.toks[start:end] if t.is_word).lower(),
        head=_head_lemma(reader, head, number),
        number=number,
        pronoun=deictic,
        pronoun_word=reader.low(det) if deictic and det is not None else None,
        descriptors=tuple(dict.fromkeys([*descriptors, *native])),
        spatial_descriptors=tuple(dict.fromkeys(native)),
        locating=tuple(dict.fromkeys(english)),
        **base,  # type: ignore[arg-type]
    )


__all__ = ["analyse_in_language"]
