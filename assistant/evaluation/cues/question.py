"""Question cues: what the rule judge needs from a question (`QuestionCues`, `question_cues`).

A question's *referent words* are what a response must talk about to be about the question's referent:
its head noun ("dog" in "What breed is the dog?"), a possessor ("player" in "the player's role"), the
object of a preposition ("car" in "the number on the car"), and, for a possessive or bare pronoun ("his
t-shirt", "What is he holding?"), the nouns that can stand for that person ("man", "boy", ...). A subject
pronoun with an object noun ("Does she wear a hat?") refers through the object: RAcQUEt G.3 counts
mentions of hats there, not of people.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant import lexicon as lx
from assistant.evaluation import noun_senses
from assistant.evaluation.cues.text import (
    _WORD,
    DETERMINERS,
    ING_NOUNS,
    ING_VERBS,
    POSSESSIVE_PRONOUNS,
    PREPOSITIONS,
    PRONOUN_PEOPLE,
    QUESTION_WORDS,
    STOPWORDS,
    SUBJECT_PRONOUNS,
    VAGUE_WORDS,
    VERBS,
    is_plural,
    normalise,
)
from assistant.lexicon import PLACE_WORDS, word_set
from assistant.question import analyse_question


def _is_verb_ing(toks: list[str], j: int) -> bool:
    """An -ing word that ends a noun phrase ("the person wearing ...", "what is he doing?"), unlike the
    modifier in "the baking tray": it is last, or followed by a determiner, preposition or verb."""
    tok = toks[j]
    if not tok.endswith("ing") or tok in ING_NOUNS:
        return False
    if tok in ING_VERBS:
        return True
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    return nxt is None or nxt in DETERMINERS or nxt in PREPOSITIONS or nxt in VERBS


@dataclass(frozen=True)
class QuestionCues:
    """What the rule judge needs from a question."""

    text: str  # normalised first question sentence
    words: frozenset[str]
    referents: frozenset[str]  # singular referent words (head, possessor, prepositional objects, people)
    plural_in_question: frozenset[str]  # head nouns already plural in the question ("pants")
    pronoun: str | None = None
    vague: bool = False  # "this", "it", "that" stand for the referent
    heads: tuple[str, ...] = field(default_factory=tuple)


def _noun_run(toks: list[str], start: int) -> tuple[list[str], int]:
    """The words from `start` up to the next preposition, verb, determiner or conjunction, and where
    that run ends."""
    j = start
    while (
        j < len(toks)
        and toks[j] not in PREPOSITIONS | VERBS | DETERMINERS | {"and", "or"}
        and not (_is_verb_ing(toks, j))
    ):
        j += 1
    return toks[start:j], j


_SUBJECT_PRONOUNS = word_set("it this that these those he she they")
_DEICTIC_SUBJECTS = word_set("this that these those")


def _verb_slots(toks: list[str]) -> set[int]:
    """Where the question's syntax puts a verb or a predicate, never a noun: the word after a do-support
    auxiliary and its pronoun subject ("What time does it show?", "What does he hold?": "does" needs a
    bare verb after its subject), the last word of a yes / no question opened by "is" and a pronoun ("Is
    it open?", "Is that real?": a predicate), and a participle after "is" and a pronoun ("What is this
    used for?": passive). After "does this" / "does that" the verb is the clause's last word before the
    end or a preposition ("does this dog bark?": the noun "dog", the verb "bark")."""
    slots: set[int] = set()
    for k in range(len(toks) - 2):
        aux, subject, word = toks[k], toks[k + 1], toks[k + 2]
        if aux not in lx.DO | lx.BE or subject not in _SUBJECT_PRONOUNS or word in DETERMINERS:
            continue
        nxt = toks[k + 3] if k + 3 < len(toks) else None
        last = nxt is None or nxt in PREPOSITIONS
        if aux in lx.DO and subject in _DEICTIC_SUBJECTS:
            end = next((j for j in range(k + 2, len(toks)) if toks[j] in PREPOSITIONS), len(toks))
            slots.add(end - 1)
        elif aux in lx.DO or (k == 0 and nxt is None) or (last and _participle(word)):
            slots.add(k + 2)
    return slots


def _participle(word: str) -> bool:
    """A past participle ("used", "made", "worn"): "What is this used for?" is passive, not "this used"."""
    import simplemma

    regular = word.endswith("ed") and simplemma.lemmatize(word, lang="en") != word
    return regular or word in lx.IRREGULAR_PARTICIPLES


def question_cues(question: str) -> QuestionCues:
    """Referent words of a question (see the module docstring)."""
    text = normalise(question)
    first = text.split("?")[0] + "?" if "?" in text else text  # "... ? Please explain ..." -> first part
    toks = re.findall(_WORD, first)
    # The question analyser's head noun: "What time does the clock show?" -> clock (the run after "the"
    # ends in the verb), "What kind of tree is it?" -> tree (no determiner before it)
    analysed = analyse_question(first).head
    analysed = analysed if analysed not in ("", "object", "person") else ""
    referents: set[str] = set()
    plural_in_q: set[str] = set()
    heads: list[str] = []
    pronoun = next((t for t in toks if t in PRONOUN_PEOPLE), None)
    oblique: set[str] = set()  # nouns only owned by a pronoun or after a preposition: "in her hand"
    vague = False
    slots = _verb_slots(toks)
    if analysed in {toks[k] for k in slots}:  # "What time does it show?": the analyser's head is the verb
        analysed = ""
    analysed = _agent_of_last_ing(toks, analysed)
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok == "it":  # a pronoun, never a determiner: "does it show", "is it open" name no noun
            vague = True
            i += 1
            continue
        if tok in DETERMINERS or (tok in VAGUE_WORDS and i > 0):
            run, j = _noun_run(toks, i + 1)
            verb = next((k for k in range(i + 1, j) if k in slots), None)
            if verb is not None:  # "does this show?", "is that open?": a verb or a predicate
                run, j = toks[i + 1 : verb], verb
            if tok in VAGUE_WORDS and not run:
                vague = True
            for k, w in enumerate(run):
                if w.endswith("'s") and k < len(run) - 1:  # "the player's role": the player is the referent
                    referents.add(w[:-2])
                    heads.append(w[:-2])
            if run:
                head = analysed if analysed in run else run[-1].removesuffix("'s")
                if head not in PLACE_WORDS and head not in QUESTION_WORDS:
                    heads.append(head)
                    if tok in POSSESSIVE_PRONOUNS or (i > 0 and toks[i - 1] in PREPOSITIONS):
                        oblique.add(head)
                    if is_plural(head):
                        plural_in_q.add(head)
                    else:
                        referents.add(head)
            i = max(j, i + 1)
            continue
        if tok in VAGUE_WORDS and i == len(toks) - 1:
            vague = True
        i += 1
    # "What is she holding in her hand?": the person is the referent, her hand only where she holds it;
    # "Does she wear a hat?" asks about the hat (a direct object), so the people are not added there, nor
    # for a bare plural object ("Does she wear glasses?", "Is he holding flowers?"), which the question
    # names in the plural
    bare = _bare_plural_object(toks, slots)
    if bare:
        plural_in_q.add(bare)
    if pronoun in POSSESSIVE_PRONOUNS or (pronoun in SUBJECT_PRONOUNS and referents <= oblique and not bare):
        referents |= PRONOUN_PEOPLE[pronoun]
    if pronoun in {"it", "this", "that"}:
        vague = True
    if analysed and analysed not in referents and analysed not in plural_in_q and not is_plural(analysed):
        referents.add(analysed)
        heads.append(analysed)
    if any(t in VAGUE_WORDS for t in toks) and not referents:
        vague = True
    referents.discard("people")
    return QuestionCues(
        first, frozenset(toks), frozenset(referents), frozenset(plural_in_q), pronoun, vague, tuple(heads)
    )


def _bare_plural_object(toks: list[str], slots: set[int]) -> str | None:
    """The plural noun that ends a question right after its verb, with no determiner ("Does she wear
    glasses?", "Is he carrying bags?"): the verb's direct object, or None. A preposition that ends the
    question has no object of its own: it is the verb's particle ("Does he have glasses on?", "Is she
    taking gloves off?"), and the object before it ends the question all the same."""
    if toks and toks[-1] in PREPOSITIONS:
        toks = toks[:-1]
    if len(toks) < 3 or toks[-1] in STOPWORDS or not is_plural(toks[-1]):
        return None
    verb = toks[-2] in VERBS or toks[-2].endswith("ing") or len(toks) - 2 in slots
    return toks[-1] if verb and toks[-3] in SUBJECT_PRONOUNS | lx.AUX | lx.DO else None


def _agent_of_last_ing(toks: list[str], head: str) -> str:
    """The referent of "What is the child building?" / "What is the man painting?": an -ing word that ends
    the question right after a living thing (WordNet: an organism) is that one's verb, though it may be a
    noun elsewhere ("the tall building"); the head is the agent before it. Else the analyser's head."""
    last = len(toks) >= 3 and toks[-1] == head and head.endswith("ing") and toks[-3] in DETERMINERS
    return toks[-2] if last and noun_senses.kind_of(toks[-2], "organism") else head
