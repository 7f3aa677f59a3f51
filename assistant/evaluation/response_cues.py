"""Surface cues in a question and a response, for the rule judge (no model, deterministic).

Its words come from the English module the question analyser uses: word lists in assistant.lexicon,
plural and singular forms by inflection in assistant.words (inflect), so a noun is plural here exactly when
it is plural to the question analyser. Only the phrases that start a description and the regular
expressions of asking and acknowledging live here.

A question's *referent words* are what a response must talk about to be about the question's referent:
its head noun ("dog" in "What breed is the dog?"), a possessor ("player" in "the player's role"), the
object of a preposition ("car" in "the number on the car"), and, for a possessive or bare pronoun ("his
t-shirt", "What is he holding?"), the nouns that can stand for that person ("man", "boy", ...). A subject
pronoun with an object noun ("Does she wear a hat?") refers through the object: RAcQUEt G.3 counts
mentions of hats there, not of people.

A referent must be of the asked kind (`of_asked_kind`, the one gate): a reply's subject, list key,
quantified set ("both of them") or singled-out phrase counts as a referent only when its noun is the
referent word, "one", a synonym or narrower kind (WordNet's first sense: "rowboat" for the boat, "kids"
for the child), a broader word pointing back ("the animal"), people `people_verdict` counts, or, where the
question asks about a thing, its owner; "the load" beside "the crane", "the groom" beside "the bride" and
"the bench" the woman sits on are no referents. A near sense ("the monitor" for the screen) or a word
WordNet lacks leaves the cue's own reading.

Cues found in a response:
- plural mention: a referent word in the plural ("dogs", "the flowers are", "females"), unless the word
  was already plural in the question ("his pants") or the -s form stands where only a verb can ("the
  screen displays a map"); a question's own verb or predicate ("does it show", "is it open") is no
  referent word;
- located mentions: each referent word (or "one") followed within a few words by a place ("on the left",
  "in the foreground", "(right side)"), preceded by one ("the left dog"), or placed by the lead of its
  clause ("In the foreground a brown horse ..."); two places that exclude each other (left / right /
  middle, foreground / background, top / bottom) mean two referents;
- referents told apart by different ordinals ("the first cyclist ..., the second");
- quantified mentions: "both", "each", "the other", "another" right before a referent word ("both
  hands", "each paw" quantify one referent's parts: not several);
- lists keyed by different referents in the reply's own words ("The grey cat: ... / The tabby: ...",
  "Top-left lamp: ... / Bottom-right lamp: ...", "4 (keeper), 17 (winger)"), but not keys for one
  referent's parts ("Head: ... / Top: ... / Bottom: ...", "In his left hand: ..."), a further referent
  ("a second cyclist", "a mug too"), a list of singular referents ("a chestnut horse in front and a
  grey horse behind it");
- several of the asked kind in other words (CoT only, `same_kind_mention`): a collective ("a flock", "a
  group of skiers", "the rest of the team"), and for a person question people of its kind, read by
  WordNet (`people_verdict`: "catchers" and "teammates" for the player, "several people" for the man;
  "spectators" for the player are none, "children" for the woman unsure);
- clarification question: a sentence ending in "?" that asks which one is meant, or who / what the
  question's pronoun is ("who is 'he'?");
- acknowledged ambiguity: "not possible to know which", "ambiguous", "without further context", ...;
- identifying description: a referent word followed by a descriptor ("with a blue t-shirt", "that is
  jumping in the pond", "on the right", "in the red shirt", "wearing ...") or preceded by a
  distinguishing adjective ("the black dog", "the taller man"), whose content words are not all already in
  the question (repeating "the person on the left" is no description) and which is not "in the image",
  "in the picture", "in question".
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from assistant import lexicon as lx
from assistant import words as en
from assistant.evaluation import noun_senses, reply_checks
from assistant.lexicon import (
    DISTINGUISHING_ADJECTIVES,
    FEMALE_NOUNS,
    MALE_NOUNS,
    NOT_AGENTS,
    PERSON_NOUNS,
    PLACE_GROUPS,
    PLACE_WORDS,
    word_set,
)
from assistant.question import analyse_question

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
# places by what they exclude: near / far is one axis however it is said ("in the foreground", "closest",
# "in front" / "in the background", "further back", "behind")
_CANON_PLACE = {
    "centre": "middle",
    "center": "middle",
    "leftmost": "left",
    "rightmost": "right",
    "front": "foreground",
    "closest": "foreground",
    "nearest": "foreground",
    "back": "background",
    "behind": "background",
    "farthest": "background",
    "furthest": "background",
}
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
DESCRIPTOR_STARTS = (
    "who is",
    "who's",
    "that is",
    "that's",
    "which is",
    "who",
    "that",
    "which",
    "with",
    "wearing",
    "in",
    "on",
    "at",
    "near",
    "by",
    "holding",
    "sitting",
    "standing",
    "closest",
    "nearest",
    "furthest",
    "farthest",
    "to the",
    "next to",
    "behind",
    "in front",
    "(",
    "worn by",
    "of the",
    "belonging to",
)

_WORD = r"[a-z]+(?:[-'][a-z]+)*"


def normalise(text: str) -> str:
    """Lower case, straight quotes, markdown emphasis removed, whitespace collapsed."""
    text = (
        normalise_keys(text)
        .replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
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
    glasses?", "Is he carrying bags?"): the verb's direct object, or None."""
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


def _alias_pattern(names: set[str]) -> str:
    alts = sorted((re.escape(n) for n in names), key=len, reverse=True)
    return r"\b(?:" + "|".join(alts) + r")\b"


def plural_mentions(q: QuestionCues, response: str) -> list[str]:
    """Referent words that the response uses in the plural (not where the -s form is a verb)."""
    text = normalise(response)
    found = []
    for noun in sorted(q.referents):
        plural = plural_of(noun)
        compound = _compound_plural(q, noun)
        if compound and re.search(r"\b" + re.escape(compound) + r"\b", text):
            found.append(compound)
        if plural == noun:  # "sheep", "deer": plural by a number or quantifier before, or a plural verb after
            counted = (
                m
                for m in re.finditer(r"\b" + re.escape(noun) + r"\b(?!-)", text)  # not "sheep-dogs"
                if _COUNTED_BEFORE.search(text[max(0, m.start() - 25) : m.start()])
                or re.match(r"\s+(?:are|were|have)\b", text[m.end() :])
            )
            found += [m.group(0) for m in itertools.islice(counted, 1)]
            continue
        if any(not _verb_position(text, m) for m in re.finditer(r"\b" + re.escape(plural) + r"\b", text)):
            found.append(plural)
    return found


def _compound_plural(q: QuestionCues, noun: str) -> str | None:
    """The plural of a compound the question names by its first word ("Is the traffic light green?": the
    analyser reads "light green" as a colour and takes "traffic"): "traffic lights" in a reply counts more
    of the compound, as "lights" would of "the light". None where the referent ends its phrase."""
    nxt = re.search(r"\b" + re.escape(noun) + r" (" + _WORD + r")\b", q.text)
    if nxt is None or nxt.group(1) in STOPWORDS | VERBS | PREPOSITIONS:
        return None
    if set(re.findall(_WORD, q.text[: nxt.start()])) & lx.DO:  # "What time does the clock show?": a verb
        return None
    plural = plural_of(nxt.group(1))
    return f"{noun} {plural}" if plural != nxt.group(1) else None


# what follows a verb and never a plural noun: its object's determiner or number ("shows a quarter past",
# "displays the menu", "signs his name", "lights 3 candles"), or its particle ("points out")
_AFTER_VERB = (
    lx.ARTICLES
    | lx.DEICTICS
    | lx.POSSESSIVE_PRONOUNS
    | lx.SPEAKER_POSSESSIVES
    | frozenset(lx.NUMBER_WORDS)
    | word_set("up down out off away")
)
# what a plural noun follows and a verb does not: a determiner, number, quantifier, preposition,
# conjunction or modifier ("the two displays", "of the signs", "and signs")
_BEFORE_NOUN = (
    DETERMINERS
    | lx.OTHER_DETERMINERS
    | lx.PREDETERMINERS
    | lx.PLURAL_QUANTIFIERS
    | frozenset(lx.NUMBER_WORDS)
    | PREPOSITIONS
    | lx.CONJUNCTIONS
    | lx.COLORS
    | lx.COLOR_SHADES
    | lx.VISUAL_ADJECTIVES
    | lx.AUX
)


def _verb_position(text: str, m: re.Match[str]) -> bool:
    """Whether an -s form stands where only a verb can: right after its subject (a word that opens no noun
    phrase: "the clock on the tower shows", "it shows") and right before a determiner, number or
    particle ("shows a quarter past three"). "The screen displays the menu" has a verb, "two displays"
    and "the displays, the signs" have nouns."""
    before = re.search(r"(" + _WORD + r"|\d+) $", text[: m.start()])
    after = re.match(r" (" + _WORD + r"|\d+)\b", text[m.end() :])
    if not (before and after):
        return False
    prev, nxt = before.group(1), after.group(1)
    if prev.isdigit() or prev in _BEFORE_NOUN or prev.endswith("ly"):
        return False
    return nxt.isdigit() or nxt in _AFTER_VERB


def _places_in(fragment: str) -> list[str]:
    """Every place word of a fragment, canonical; "top-left" is two places, each on its own axis."""
    found = (_CANON_PLACE.get(w, w) for w in re.findall(r"[a-z]+", fragment))
    return [w for w in found if any(w in g for g in PLACE_GROUPS)]


def _place_of(fragment: str) -> str | None:
    """The first place word in `fragment`, canonical ("centre" -> "middle", "behind" -> "background")."""
    places = _places_in(fragment)
    return places[0] if places else None


place_of = _place_of  # public: PASS compares the hint's place with the reply's (answer_match)


def located_places(q: QuestionCues, response: str) -> list[str]:
    """The places attached to mentions of the referent (or of "one"), in order of appearance."""
    text = normalise(response)
    names = set(q.referents) | {"one"}
    places = []
    for m in re.finditer(_alias_pattern(names), text):
        if m.group(0) == "one" and _about_other_things(q, text[: m.start()], counted=False):
            continue  # "two people, one in the foreground and one in the background" for a hat
        after = text[m.end() : m.end() + 40]
        hit = re.match(
            r"\s*(?:\(|,)?\s*(?:who is |that is |which is |sitting |standing |is )?"
            r"(?:on|in|at|to|towards|near)\s+(?:the\s+)?(?:far\s+)?(\w+)",
            after,
        )
        hit = hit or re.match(r"\s*\(\s*(\w+)", after)
        place = _place_of(hit.group(1)) if hit else None
        if place is None:
            before = text[max(0, m.start() - 20) : m.start()]
            pre = re.search(r"\bthe\s+(\w+)\s*$", before)
            place = _place_of(pre.group(1)) if pre else None
        if place is None and not text[m.end() :].startswith("'s"):
            place = _clause_lead_place(text[: m.start()])
        if place:
            places.append(place)
    return places


# a clause that opens with a place and then names its subject: "In the foreground a brown horse ...",
# "further back, near the fence, the grey horse ..."; the lead runs from the clause's start to the
# subject's article and holds no verb
_LEAD = re.compile(r"^\s*([a-z][a-z ,'-]{0,60}?)\s*,?\s*(?:an?|the|another)\s+(?:[a-z-]+\s+){0,2}$")
_LEAD_OPENERS = lx.SPATIAL_PREPOSITIONS | PLACE_WORDS | word_set("further farther closer nearer far way")


def placed_by_lead(q: QuestionCues, response: str) -> str | None:
    """A mention of the referent whose clause opens with its place ("In front, a white goat ..."): one
    referent said by place, as "the goat in front" would be; None when there is none."""
    text = normalise(response)
    for m in re.finditer(_alias_pattern(set(q.referents)), text) if q.referents else ():
        place = None if text[m.end() :].startswith("'s") else _clause_lead_place(text[: m.start()])
        if place:
            return f"{m.group(0)}, placed by its clause: {place}"
    return None


def _clause_lead_place(before: str) -> str | None:
    """The place that opens the clause of a mention whose own phrase has none (`before`: the text up to
    the mention), or None: the lead must start with a place word or spatial preposition and hold no
    verb, so that it places the subject ("On the left a man walks a dog" places the man, and the dog
    only as the object of a clause whose lead already has its subject)."""
    clause = re.split(r"[.;:!?\n]|\s(?:and|while|whereas|but)\s", before)[-1]
    lead = _LEAD.match(clause)
    if lead is None:
        return None
    toks = re.findall(_WORD, lead.group(1))
    if not toks or toks[0] not in _LEAD_OPENERS or any(t in VERBS or t.endswith("ing") for t in toks):
        return None
    return _place_of(lead.group(1))


def exclusive_places(places: list[str]) -> bool:
    """Two places of one group that exclude each other (left and right, ...)."""
    for group in PLACE_GROUPS:
        canon = {_CANON_PLACE.get(p, p) for p in places if p in group or _CANON_PLACE.get(p, p) in group}
        if len(canon) >= 2:
            return True
    return False


def quantified_mention(q: QuestionCues, response: str) -> bool:
    """ "both dogs", "the other man", "each person", "another one", "both of them", "one of the ..."."""
    text = normalise(response)
    names = _alias_pattern(set(q.referents) | {plural_of(n) for n in q.referents} | {"one", "ones"})
    bare = (
        m
        for m in re.finditer(r"\bboth (?:of them|are|have|wear|were)\b", text)
        if not _stands_for_other_kind(q, text[: m.start()])
    )
    found = itertools.chain(
        re.finditer(r"\b(?:both|each|the other|another)\s+(?:of (?:the|them)\s*)?" + names, text), bare
    )
    return any(not (m.group(0).startswith(("both", "each")) and _only_places_them(q, text, m)) for m in found)


_PAIR = re.compile(r"\b(?:two|2|both|a pair of|a couple of)\s+(?:" + _WORD + r"\s+){0,2}?(" + _WORD + r")\b")


def _stands_for_other_kind(q: QuestionCues, before: str) -> bool:
    """Whether a bare "both" ("both of them", "both are") stands for things of another kind than the
    question's: the last pair counted in its sentence or the one before ("Two people are walking ... one
    umbrella above both of them" for the umbrella) is not of the asked kind (`of_asked_kind`); no pair
    there ("the captain ... and the first officer ... Both wear headsets") or unknown: it may be."""
    said = [s for s in re.split(r"(?<=[.!?])\s+", before.strip()) if len(re.findall(_WORD, s)) > 1]
    pairs = [m.group(1) for m in _PAIR.finditer(" ".join(said[-2:])) if is_plural(m.group(1))]
    return bool(pairs) and of_asked_kind(q, pairs[-1]) is False


def _only_places_them(q: QuestionCues, text: str, m: re.Match[str]) -> bool:
    """ "Both adults are near the board, but the teacher holding the marker ...": a quantified subject
    whose clause only says where they are is a mention; the answer is in the contrast that follows."""
    rest = text[m.end() :] if not m.group(0).endswith(("are", "were")) else " are" + text[m.end() :]
    clause = re.split(r",?\s+(?:but|though|although|yet|while|whereas)\s", rest, maxsplit=1)[0]
    return _only_placed(q, clause)


_IF_YOU_MEAN = re.compile(
    r"\bif (?:you(?:'re| are)? (?:mean|meant|asking about|referring to|talking about)|it'?s|it is)\b"
)


# an offer to change the referent, not an answer under an assumption: "Let me know if you meant something
# else!", "tell me if you mean another one"
_OFFER_TO_CHANGE = re.compile(r"\b(?:let me know|tell me|say so|just say|ask again|ask me)\W*$")
_NOTHING_NAMED = re.compile(
    r"\s*(?:something|anything|someone|anyone|somebody|anybody)\s+else\b|"
    r"\s*(?:otherwise|another one|a different)\b"
)


def conditional_answers(response: str) -> str | None:
    """ "If you mean the dog on the left, it is ...; if you mean the one on the right, ...": two or more
    answers, each under its own assumption, enumerate the referents. An offer to change the referent
    ("Let me know if you meant something else!") answers for none: one conditional answer and an offer
    is one referent taken (infer)."""
    text = normalise(response)
    found = [
        m
        for m in _IF_YOU_MEAN.finditer(text)
        if not _OFFER_TO_CHANGE.search(text[max(0, m.start() - 20) : m.start()])
        and not _NOTHING_NAMED.match(text, m.end())
    ]
    return f"{len(found)} answers, each for an assumed referent" if len(found) >= 2 else None


def several_referents(q: QuestionCues, response: str, plural: bool = True) -> str | None:
    """Why the response speaks of several referents of the question, or None: the one cue set that the
    class, CoT, strategy and bias rules share (several answered, plural mentions unless `plural` is
    False, exclusive places, quantifiers, place-led list items, one ... another, numbered referents,
    answers under several assumptions)."""
    return (
        several_answered(q, response)
        or (multiple_referents(q, response) if plural else _several_not_plural(q, response))
        or conditional_answers(response)
    )


def _several_not_plural(q: QuestionCues, response: str) -> str | None:
    """multiple_referents without its plural mention (the class rule reads a plural only after checking
    that the answer does not single one referent out)."""
    return multiple_referents(q, response, plural=False)


def multiple_referents(q: QuestionCues, response: str, plural: bool = True) -> str | None:
    """Why the response speaks of several referents of the question, or None (`plural` False: without
    its plural mentions)."""
    plurals = plural_mentions(q, response) if plural else []
    if plurals:
        return f"plural mention: {plurals[0]}"
    places = located_places(q, response)
    if exclusive_places(places):
        return f"referents in places that exclude each other: {', '.join(dict.fromkeys(places))}"
    if quantified_mention(q, response):
        return "quantified mention (both / each / the other)"
    led = place_led_items(response, q.words | q.referents)
    if exclusive_places(led):
        return f"items led by places that exclude each other: {', '.join(dict.fromkeys(led))}"
    people = person_led_items(response)
    if people and (q.referents & PERSON_NOUNS or q.pronoun in PRONOUN_PEOPLE):
        return f"items led by different people: {', '.join(dict.fromkeys(people))}"
    keyed = referent_keyed_items(q, response) or values_keyed_in_brackets(q, response)
    if keyed:
        return f"items keyed by different referents: {', '.join(keyed)}"
    text = normalise(response)
    another = one_and_another(q, text) or another_instance(q, text)
    if another:
        return another
    numbered = numbered_referents(q, text)
    if numbered:
        return f"numbered referents: {', '.join(numbered)}"
    return None


# A list item or sentence led by a short key and ":", ",", " - " or a dash: "Left: a red car", "- **On the
# right**, the man ...", "Player on the left:", "Leftmost person:", "Left woman -", "Further back, ..."
_KEYED = re.compile(
    r"^\s*(?:[-*\u2022]|\d+[.)])?\s*((?:[a-z'-]+\s+){0,7}[a-z'-]+)\s*(:|,|\s[-\u2013\u2014]\s|[\u2013\u2014])"
)
# a key set off by ":" or a dash may be a described referent of up to eight words ("Chef at the far
# counter:"); one set off by a comma is more often a sentence's own opening, and a place key is a place
# only when short, so these stay at four words
_COMMA_KEY_WORDS = 4


def _keyed_segments(response: str, commas: bool = True) -> list[str]:
    """The keys that lead the response's list items or sentences ("player on the left", "woman"); with
    commas False, only keys set off by ":" or a dash (a sentence's subject is often followed by a comma)."""
    return [key for key, _ in _keyed_pairs(response, commas)]


def _keyed_pairs(response: str, commas: bool = True) -> list[tuple[str, str]]:
    """(key, what follows it) of the response's keyed list items or sentences (`_keyed_segments`)."""
    text = response.replace("*", "").replace("_", " ").lower()
    pairs = []
    for segment in re.split(r"\n|;|(?<=[.!?])\s+", text):
        # an aside inside the key ("Right shoe (the hiking boot): ...") is no part of it
        segment = re.sub(r"^([^:\n]{0,60}?)\s*\([^()]{0,40}\)(?=\s*:)", r"\1", segment)
        m = _KEYED.match(segment)
        if m and m.group(2) == "," and len(m.group(1).split()) > _COMMA_KEY_WORDS:
            continue
        if m and (commas or m.group(2) != ","):
            pairs.append((m.group(1), segment[m.end() :].strip()))
    return pairs


def keyed_items(response: str) -> list[tuple[str, str]]:
    """(key, value) of the items or sentences keyed by ":" or a dash ("By the gate: a goat"), once each."""
    found = {key.strip(): value for key, value in _keyed_pairs(normalise_keys(response), commas=False)}
    return list(found.items())


def place_led_items(response: str, asked: frozenset[str] = frozenset()) -> list[str]:
    """The places that lead the response's list items or sentences, in order ("left", "right"); not the
    keys of one referent's parts (`_part_keys`), unless the question asks about those parts (`asked`)."""
    # a long key is a clause, not a place ("Counting candles from left to right: 1, 2, 3")
    keys = [k.strip() for k in _keyed_segments(response) if len(k.split()) <= _COMMA_KEY_WORDS]
    parts = _part_keys(keys, asked)
    return [p for k in keys if k not in parts for p in _places_in(k)]


def _part_keys(keys: list[str], asked: frozenset[str]) -> set[str]:
    """The keys that name parts of one referent: owned by a pronoun ("his left hand"), ending in a part
    that is no place ("left paw", "right hand"), and, in a list that has such a key or one for a garment
    ("Head: ... / Top: ... / Bottom: ... / Feet: ..."), the bare place words that are parts too ("top",
    "bottom": the outfit's halves, not two people)."""
    parts = set()
    for key in keys:
        toks = re.findall(_WORD, key)
        if not toks or set(toks) & asked:
            continue
        if set(toks) & POSSESSIVE_PRONOUNS or (toks[-1] in lx.PART_NOUNS and toks[-1] not in PLACE_WORDS):
            parts.add(key)
    outfit = any(k in lx.CLOTHING and k not in PLACE_WORDS for k in keys)
    if parts or outfit:
        parts |= {k for k in keys if k in lx.PART_NOUNS | lx.CLOTHING and k not in asked}
    return parts


_PERSON_KEY = re.compile(r"^(?:the |a |an )?(?:[a-z'-]+ )?([a-z'-]+)$")


def person_led_items(response: str) -> list[str]:
    """The different people that lead list items or sentences ("Woman: ...", "The man - ...", "Chef:
    ... / Waiter: ..."): a list keyed by person, or []."""
    people = []
    for key in _keyed_segments(response, commas=False):
        m = _PERSON_KEY.match(key.strip())
        noun = m.group(1) if m else ""
        if noun and names_person(noun):
            people.append(_single(noun))
    return people if len(set(people)) >= 2 else []


def referent_keyed_items(q: QuestionCues, response: str) -> list[str]:
    """Two or more list items or sentences keyed (":" or a dash) by different referents, in the reply's
    own words: "The brown dog: ... / The spotted dog: ...", "Horse by the fence: ... / Horse in the
    field: ...", "The grey cat: ... / The tabby: ...". A key names a referent when its head (the words
    before any preposition) holds a referent word or "one", or when it is a "the ..." phrase whose words
    are not the question's (the question's own "collar" keys a part, not a second dog); at least one key
    must hold a referent word. "Colour of the dog: ... / Breed of the dog: ..." keys attributes of one
    dog (the referent follows "of"), and a key repeated is one referent. [] when not so."""
    names = set(q.referents) | {"one"}
    keys: list[str] = []
    named = False
    for key in dict.fromkeys(k.strip() for k in _keyed_segments(response, commas=False)):
        toks = re.findall(_WORD, key)
        head = _key_head(toks, names)
        if set(head) & names and _noun_phrase_key(head):
            named = True
            keys.append(key)
        elif _other_referent_key(q, toks, head):
            keys.append(key)
    return keys if named and len(keys) >= 2 else []


# "4 (goalkeeper)", "red (the left one)": a value and, in brackets, whose it is
_BRACKET_KEYED = re.compile(r"([a-z0-9#'-]+)\s*\(([^()]{1,40})\)(?=\s*(?:,|;|\band\b|\.|$))")


def values_keyed_in_brackets(q: QuestionCues, response: str) -> list[str]:
    """A list of values each keyed in brackets by a different referent, in one sentence: "4 (goalkeeper),
    17 (striker) and 22 (defender)", "red (left one) and blue (right one)". A key names a referent when
    its last word is the question's referent word, "one", or a person (a player for his jersey); an
    attribute in brackets ("a jacket (navy) and jeans (denim)") keys none. [] when not so."""
    names = set(q.referents) | {"one"}
    for sentence in reply_checks.sentences(normalise(response)):
        keys: dict[str, str] = {}
        for m in _BRACKET_KEYED.finditer(sentence):
            toks = re.findall(_WORD, m.group(2))
            if toks and (toks[-1] in names or names_person(toks[-1])) and not is_plural(toks[-1]):
                keys.setdefault(" ".join(toks), m.group(1))
        if len(keys) >= 2 and len(set(keys.values())) >= 2:
            return list(keys)
    return []


def _key_head(toks: list[str], names: set[str]) -> list[str]:
    """A key's head: its words before a preposition, up to its first referent word; what follows that
    word describes it ("Dog lying on the mat" -> "dog", "Umbrella held by the man" -> "umbrella")."""
    head = list(itertools.takewhile(lambda t: t not in PREPOSITIONS, toks))
    named = next((k for k, t in enumerate(head) if t in names), None)
    return head if named is None else head[: named + 1]


def _other_referent_key(q: QuestionCues, toks: list[str], head: list[str]) -> bool:
    """A "the ..." key in words the question does not use ("The tabby:"), that is not a part or a thing
    worn ("The collar:" keys the dog's collar, not a second dog) nor a thing of another kind (`of_asked_kind`:
    "The load:" beside "The crane:" keys what the crane lifts, "The board:" what the chef cuts on; an owner
    keys its thing: "The man: ... / The woman: ..." for the hat)."""
    if len(head) != len(toks) or len(toks) < 2 or toks[0] != "the" or set(toks[1:]) & q.words:
        return False
    if toks[-1] in lx.PART_NOUNS or toks[-1] in lx.CLOTHING:
        return False
    return of_asked_kind(q, toks[-1], owner=True) is not False


_KEY_STARTS = lx.ARTICLES | lx.DEICTICS | DISTINGUISHING_ADJECTIVES | lx.COLORS | lx.VISUAL_ADJECTIVES


def _noun_phrase_key(head: list[str]) -> bool:
    """A key that is a noun phrase naming a referent ("The brown dog", "Horse", "Top-left clock",
    "Spotted dog"), not a step's title ("Identify the woman", "Examine her hair": a verb first, or the
    referent owned by a pronoun, which is one person's part)."""
    if any(t in POSSESSIVE_PRONOUNS for t in head):
        return False
    first = head[0]
    return first in _KEY_STARTS or first.endswith("ed") or len(head) == 1 or bool(_places_in(first))


# "a second skier", "the third dog" (not "the second dog from the left": an ordinal that picks one of a row)
_ORDINAL = r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th)"


def another_instance(q: QuestionCues, text: str) -> str | None:
    """A further referent introduced beside the first: "a second skier", "the second teacher", "another
    dog", "her friend has a jacket too" (the referent as the object of "has / wears ... too"). An ordinal
    counted from a place ("the second dog from the left") picks one out and is no second referent."""
    if not q.referents:
        return None
    names = _alias_pattern(set(q.referents))
    for m in re.finditer(r"\b(?:an?|the)\s+" + _ORDINAL + r"\s+(?:" + _WORD + r"\s+)?" + names, text):
        if not re.match(r"\s*(?:\(\s*)?(?:from|counting|in (?:the )?(?:row|line|queue))\b", text[m.end() :]):
            return f"a further referent: {m.group(0)!r}"
    paired = ordinal_pair(names, text)
    if paired:
        return paired
    too = re.search(
        r"\b(?:is|are|wears|wearing|has|have|holds|holding|carries|carrying)\s+an?\s+(?:"
        + _WORD
        + r"\s+){0,2}?"
        + names
        + r"\s*,?\s+(?:too|as well)\b",
        text,
    )
    return f"a further referent: {too.group(0)!r}" if too else None


# ordinals that count referents ("final" is left out: "the final answer")
_COUNTED = "|".join(sorted(lx.ORDINALS - {"final"}, key=len, reverse=True))


def ordinal_pair(names: str, text: str) -> str | None:
    """Two referents told apart by different ordinals, the second often with its noun left out: "the first
    cyclist ..., the second.", "the third dog is asleep; the last one is eating" (`names`: the referent
    words as an alias pattern). One ordinal alone picks one out ("the second dog from the left"), and an
    ordinal before another noun counts something else ("the second time", "his second race")."""
    first = re.search(r"\bthe\s+(" + _COUNTED + r")\s+(?:" + _WORD + r"\s+)?" + names, text)
    if first is None:
        return None
    ends = r"(?=\s*(?:[.,;:!?)]|$|" + names + r"|\bone\b|(?:" + _SUBJECT_VERB_WORDS + r")\b))"
    for m in re.finditer(r"\b(?:the|a)\s+(" + _COUNTED + r")\b" + ends, text[first.end() :]):
        if m.group(1) != first.group(1):
            return f"referents told apart by ordinals: {first.group(0)!r} ... {m.group(0)!r}"
    return None


def one_and_another(q: QuestionCues, text: str) -> str | None:
    """ "One plate has pasta, another has a salad": "one" before the question's referent, then "another"
    or "the other" (in "one is in the foreground, the other ..." about people, for a question about a
    hat, the referent is not named, so it is not this)."""
    if not q.referents:
        return None
    names = _alias_pattern(set(q.referents) | {plural_of(n) for n in q.referents})
    one = r"\bone\s+(?:of (?:the|them)\s+)?"
    if re.search(one + names + r"[^.?!]*?\b(?:the other|another)\b", normalise(text)):
        return "one ... the other / another"
    return None


def numbered_referents(q: QuestionCues, text: str) -> list[str]:
    """Referents told apart by numbers ("child 1 ... child 2", "dog #1 and dog #2"): two or more, or []."""
    for noun in sorted(q.referents):
        found = re.findall(r"\b" + re.escape(noun) + r"\s*(?:#|no\.?\s*|number\s+)?(\d+)\b", text)
        if len(set(found)) >= 2:
            return [f"{noun} {n}" for n in dict.fromkeys(found)]
    return []


# Heads that gather several things of one kind ("a group of skiers", "a pair of dogs", "a herd of cows"):
# WordNet's group words, and the quantity words that gather as well. The kinds that a specific collective
# gathers ("a flock of seagulls" is several birds); a collective of people is any of WordNet's
# (`noun_senses.people_group`: "a crowd", "the crew", "a string quartet"), read in `same_kind_mention`.
_QUANTITY_HEADS = word_set("group number lot handful few several")
KIND_COLLECTIVES: dict[str, frozenset[str]] = {
    "bird": word_set("flock"),
    "sheep": word_set("flock herd"),
    "animal": word_set("herd pack"),
    "cow": word_set("herd"),
    "horse": word_set("herd"),
    "elephant": word_set("herd"),
    "zebra": word_set("herd"),
    "dog": word_set("pack"),
    "wolf": word_set("pack"),
    "fish": word_set("school shoal"),
    "bee": word_set("swarm"),
    "insect": word_set("swarm"),
    "boat": word_set("fleet"),
    "ship": word_set("fleet"),
    "car": word_set("fleet"),
    "vehicle": word_set("fleet"),
}


def _collective_head(word: str) -> bool:
    return word in _QUANTITY_HEADS or noun_senses.group(word)


def _single(noun: str) -> str:
    return en.lemma(noun) if is_plural(noun) else noun


def names_person(noun: str, any_sense: bool = False) -> bool:
    """A word for a person, more strictly than `is_person`: a person or relation noun, a word whose most
    frequent sense in WordNet is a person ("nurse", "sister", "chefs"; not "burgers", "sweater"), or, for
    a word WordNet cannot say of, an agent noun whose stem is a known word ("paddleboarder" from
    "paddleboard"); not a comparative ("larger": simplemma reads it as "large") or a listed non-agent, and
    not an -er word with no word under it. `any_sense` where the context already frames people ("a
    crowd of commuters", "a group of fans"): any of WordNet's senses will do."""
    single = _single(noun)
    if single in PERSON_NOUNS or single == "people" or is_relation(noun):
        return True
    known = noun_senses.person(noun, single, any_sense)
    if known is not None:
        return known
    if single in NOT_AGENTS or len(single) <= 4:
        return False
    import simplemma  # its dictionaries load on first use, as in answer_match

    if simplemma.lemmatize(single, lang="en") != single:  # an inflected form: "larger", "bigger"
        return False
    if single.endswith(("ist", "ian")):
        return True
    # a compound's agent head counts: "goalkeeper" is a keeper, "firefighter" a fighter
    return any(_agent_stem(single[i:]) for i in range(0, len(single) - 4) if i == 0 or _known(single[:i]))


def _known(word: str) -> bool:
    import simplemma

    return len(word) >= 3 and simplemma.is_known(word, lang="en")


def _agent_stem(word: str) -> bool:
    """An -er / -or word whose stem is a known word ("skier": "ski", "rider": "ride")."""
    return word.endswith(("er", "or")) and (_known(word[:-2]) or _known(word[:-1]))


def is_relation(noun: str) -> bool:
    """A person named by relation to another, who is so a second person ("her sister", "his friend",
    "teammates", "her cousin"): WordNet's kin, associates, friends, neighbours, partners and opponents,
    and the "-mate" compounds it lacks ("bandmate")."""
    single = _single(noun)
    hyphened = single.startswith("co") and noun_senses.relation("co-" + single[2:], "")  # "coworker"
    return noun_senses.relation(noun, single) or hyphened or (single.endswith("mate") and len(single) > 5)


def names_people(noun: str) -> bool:
    """A word for several people at once: a collective of people ("staff", "a couple", "the crew", "her
    family", "a quartet"), or "people"."""
    return noun == "people" or noun_senses.people_group(noun, _single(noun))


def asks_about_person(q: QuestionCues) -> bool:
    """The question's referent (or its owner: "the man's hat") is a person; "Does she wear a hat?" asks
    about the hat (the people are not its referents)."""
    return any(names_person(r) for r in q.referents) or (
        q.pronoun in PRONOUN_PEOPLE and bool(q.referents & PERSON_NOUNS)
    )


def person_referents(q: QuestionCues) -> frozenset[str]:
    """The question's referents that are people, as narrowly as it names them: "person" (a pronoun's and
    `racquet.judge._as_person`'s catch-all) and, for a pronoun, its "player" alias only where nothing
    narrower is left ("What is he holding?": man, boy, guy, ...)."""
    people = {r for r in q.referents if names_person(r) or noun_senses.kind_of(r, "person")}
    aliases = {"person", "player"} if q.pronoun in PRONOUN_PEOPLE else {"person"}
    return frozenset(people - aliases or people)


SEVERAL, UNSURE, NONE = "several", "unsure", "none"


def people_verdict(q: QuestionCues, noun: str) -> str:
    """Whether a mention of other people (`noun`: "spectators", "a catcher", "her dad", "people", or a
    collective: "a crowd") is more of the question's person: SEVERAL, UNSURE or NONE. RAcQUEt G.3 counts
    more of "the entity mentioned in the question": a catcher for "the player" (the same kind or a narrower
    one: noun_senses.kind_of; or a peer, "teammates", who shares the referent's group), "several people"
    for "the man" (a broader person word or a collective, for a referent named only by age or sex:
    noun_senses.generic_person). Other kinds are no mention for a role ("spectators", "students",
    "a patient" for the player, the teacher, the doctor: G.3's "man ... does not mention several people"
    reads people of the asked kind, and the annotators count no others), and a generic word for a role
    ("a crowd", "two people" for the player) or another kind for a generic referent ("children" for the
    woman, "her dad" for the girl) is ambiguous: the annotators split on these."""
    referents = person_referents(q)
    if not referents:
        return NONE
    single = "person" if noun == "people" else _single(noun)
    group = names_people(noun) and not names_person(noun)
    # a fellow member of the referent's class, team or crew ("classmates", "teammates", "bandmate")
    mate = single.endswith("mate") and len(single) > 5
    same = single in referents or mate or any(_same_person(single, r) for r in referents)
    if not group and same:
        return SEVERAL
    # "the twins" for the baby, the girl: siblings of one birth, so of one age, as two people named by age
    # or sex alone would be; no second teacher
    if is_plural(noun) and noun_senses.multiple_birth(single):
        alike_kind = all(noun_senses.generic_person(r) or noun_senses.young(r) for r in referents)
        return SEVERAL if alike_kind else NONE
    generic = [r for r in referents if noun_senses.generic_person(r)]
    if not generic:
        return UNSURE if group or noun_senses.generic_person(single) else NONE
    broader = group or any(noun_senses.kind_of(r, single) for r in generic)
    alike = noun_senses.generic_person(single) and any(_alike(single, r) for r in generic)
    return SEVERAL if broader or alike else UNSURE


def _same_person(word: str, referent: str) -> bool:
    """The same kind of person as the referent, or a narrower one ("catcher" for "player", "girl" for
    "woman"), or its peer ("teammate", "opponent": noun_senses.peer). Both singular."""
    return bool(noun_senses.kind_of(word, referent)) or noun_senses.peer(word, referent)


def _alike(word: str, referent: str) -> bool:
    """Two generic person words that agree in age and sex where WordNet gives them ("children" and "the
    boy", of no age in WordNet; not "children" and "the woman", nor "men" and "the girl")."""
    (ages, sexes), (r_ages, r_sexes) = noun_senses.age_and_sex(word), noun_senses.age_and_sex(referent)
    return not (ages and r_ages and ages != r_ages) and not (sexes and r_sexes and sexes != r_sexes)


def _of_kind(q: QuestionCues, noun: str, framed: bool = False) -> str:
    """How `noun` (plural) names things of the question's kind: its referent's plural (SEVERAL), or, for a
    question about a person, people by `people_verdict`; `framed` after a collective of people ("a crowd
    of commuters", "a team of fans"), which frames them: any sense of the word will do."""
    single = en.lemma(noun) if is_plural(noun) else noun
    if single in q.referents or noun in q.referents:
        return SEVERAL
    if asks_about_person(q) and names_person(noun, any_sense=framed):
        return people_verdict(q, noun)
    # a narrower kind or a synonym of the asked thing ("a troop of macaques" for the monkey); a broader one
    # ("a group of animals" for the dog) may be of other kinds
    if q.referents and of_asked_kind(q, noun, broader=False) is True:
        return SEVERAL
    return _worn_pair(q, noun)


def _worn_pair(q: QuestionCues, noun: str) -> str:
    """How things worn in pairs (the lexicon's pair nouns: "sneakers", "trainers", "gloves"), gathered by
    a collective ("a pair of trainers"), count for an asked thing that is worn in pairs too ("the shoe"):
    SEVERAL where any WordNet sense is of its kind ("sneaker": first the shoe), NONE where a sense is
    another worn thing ("gloves": handwear), UNSURE where WordNet has no worn sense at all though the
    lexicon lists the word as worn ("trainer": a person or a simulator): it may be the asked kind."""
    worn = {r for r in q.referents if plural_of(r) in lx.PAIR_NOUNS}
    if noun not in lx.PAIR_NOUNS or not worn:
        return NONE
    single = noun.removesuffix("s")
    if any(noun_senses.any_kind_of(single, r) for r in worn):
        return SEVERAL
    other = any(noun_senses.any_kind_of(single, k, any_kind_sense=True) for k in ("covering", "adornment"))
    return NONE if other else UNSURE


def of_asked_kind(q: QuestionCues, noun: str, owner: bool = False, broader: bool = True) -> bool | None:
    """Whether a noun the reply uses for a subject, a list key, a quantified set or a singled-out phrase can
    name a referent of the question: the one gate for the cues that count referents ("answers for several",
    "keyed by different referents", "both of them") or single one out ("the dog on the sofa"). A referent
    noun is of the asked kind: the question's referent word (any form), the pro-form "one", a synonym or a
    narrower kind ("kids" for the child, "a rowboat" for the boat, "the tabby" for the cat: WordNet's
    first sense), a broader word that can point back at it ("the animal" for the dog; not with `broader`
    False, where a second subject so named would be counted as a second referent), or, for a person, the
    people `people_verdict` counts (SEVERAL; UNSURE keeps the caller's reading). With `owner`, for a
    question about a thing, a person or an animal may stand for it as its owner ("the skier on the right
    has red boots"). A question with no concrete referent ("What is this?") takes any noun. True / False /
    None, None where WordNet lacks the noun or every referent (the caller keeps its reading): why the crane's
    "load", the chef's "board" or the bride's "groom" are no second referent, while "the striker" is no
    goalkeeper either."""
    word = noun.removesuffix("'s")
    single = _single(word)
    if not q.referents or word in ("one", "ones", "other") or {word, single} & q.referents:
        return True
    people = person_referents(q)
    things = {r for r in q.referents if r not in people and not names_person(r)}
    person = names_person(word) or names_people(word)
    verdicts: list[bool | None] = []
    if people and person and broader and any(noun_senses.kind_of(r, single) for r in people):
        return True  # "the athlete with the red poles" for the skier
    if people and person:
        verdict = people_verdict(q, word)
        verdicts.append(True if verdict == SEVERAL else None if verdict == UNSURE else False)
    if things and (person or noun_senses.kind_of(single, "animal")) and owner and not people:
        return True
    for ref in things:
        narrower = noun_senses.kind_of(single, ref)
        if narrower is None:
            verdicts.append(None)
        elif (
            narrower
            or noun_senses.same_thing(single, ref)
            or bool(broader and noun_senses.kind_of(ref, single))
        ):
            return True
        else:  # a near sense ("the monitor" for the screen) may be another word for it
            verdicts.append(None if noun_senses.near(single, ref) else False)
    if people and not person:
        verdicts.append(False if noun_senses.senses(single) else None)
    if True in verdicts:
        return True
    return None if None in verdicts or not verdicts else False


_INSIDE_GROUP = (
    r"\b(?:left|right|front|back|middle|centre|center|end|edge|head|rear)\s+of\s+(?:an?|the|his|her|their)\s+"
    r"(?:" + _WORD + r"\s+)?$"
)


_OTHER_OF_THEM = r"\b(?:the|her|his|their|its|two|three|several|some|many)\s+other\s+(?:" + _WORD + r"\s+)?$"


def same_kind_mention(q: QuestionCues, response: str) -> tuple[str | None, str | None]:
    """(why, None) for several instances of the question's entity said in other words, (None, why unsure)
    for other people whose kind may or may not be the asked one (`people_verdict`), or (None, None).
    RAcQUEt G.3 counts any mention: a collective head over them ("a group of skiers", "a pair of dogs"),
    membership ("one of the players", "the rest of the crew": the referent is one of them, so they are
    of its kind), a collective of their kind ("a flock" for a bird), or, for a question about a person,
    other people in the plural ("several people", "catchers"), by relation ("her friend") or as a
    collective ("a crowd", "staff"), as `people_verdict` reads them. Plurals of other kinds ("two people"
    for a helmet) are no mention."""
    text = normalise(response)
    unsure: str | None = None
    for m in re.finditer(
        r"\b(?:an?|the|one|two|three|several)\s+(" + _WORD + r")\s+of\s+(?:the\s+)?(" + _WORD + ")", text
    ):
        head, noun = m.group(1), m.group(2)
        membership = head in ("one", "rest")
        # "the rest of the team", "one of the crew": a collective the referent is a member of
        crew = membership and asks_about_person(q) and names_people(noun) and not is_plural(noun)
        if not (_collective_head(head) or membership) or not (is_plural(noun) or crew):
            continue
        kind = UNSURE if crew else _of_kind(q, noun, framed=names_people(head))
        member = membership and kind != NONE  # the referent is one of them: they are of its kind
        if kind == SEVERAL or member:
            return f"several of the asked kind: {m.group(0)!r}", None
        if kind == UNSURE:
            unsure = unsure or f"{m.group(0)!r} may or may not be of the asked kind"
    kinds = {k for r in q.referents for k in (r, en.lemma(r))}
    for kind in kinds & set(KIND_COLLECTIVES):
        gathered = _alias_pattern(set(KIND_COLLECTIVES[kind]))
        for m in re.finditer(r"\b(?:an?|the|of the)\s+(?:" + _WORD + r"\s+)?" + gathered, text):
            if _gathers(q, text[m.end() :]):
                return f"a collective of the asked kind: {m.group(0)!r}", None
    if not asks_about_person(q):
        return None, unsure
    for m in re.finditer(_WORD, text):
        w = m.group(0)
        # "a farmers' market" names a kind of place; "her father's shoulders" a part of someone
        owned = re.search(r"(?:'s|\b(?:his|her|their|its))\s+$", text[: m.start()])
        classifier = text[m.end() : m.end() + 1] == "'"
        # "she is a partner at a law firm": a role she has, no second person
        role = re.search(r"\b(?:is|was|be|as)\s+an?\s+(?:" + _WORD + r"\s+)?$", text[: m.start()])
        if is_relation(w) and not role:
            why = f"another person, by relation: {w!r}"
        elif (
            is_plural(w)
            and (names_person(w) or noun_senses.multiple_birth(_single(w)))
            and not owned
            and not classifier
        ):
            why = f"several people: {w!r}"
        # "staff in black aprons", "a couple on a beach", "there is a family": heading its phrase ("a
        # team jersey", "she is a crew member" only modify a noun)
        elif names_people(w) and not classifier and _gathers(q, text[m.end() :]):
            why = f"a group of people: {w!r}"
        else:
            continue
        # placed inside the group ("seated on the left of a string quartet", "at the back of the crew"):
        # the referent is a member, so they are of its kind
        inside = why.startswith("a group") and _placed_inside(q, text[: m.start()])
        # "the woman leads the other hikers": "other" makes her one of them
        inside = inside or (why.startswith("several") and bool(re.search(_OTHER_OF_THEM, text[: m.start()])))
        listed = _members_verdict(q, text[m.end() :]) if why.startswith("a group") and not inside else None
        verdict = SEVERAL if inside else listed or people_verdict(q, w)
        if verdict == SEVERAL:
            return why, None
        if verdict == UNSURE:
            unsure = unsure or f"{why[0].upper()}{why[1:]}, may or may not be of the asked person's kind"
    return None, unsure


# a group's members listed right after it: "a family on a crossing: a man, a woman and a boy", "a couple (a
# man and a woman)", "a crew, including two divers and a pilot"
_MEMBER_LIST = re.compile(
    r"^[^.;!?\n:(]{0,40}?(?::|\(|\s[\u2013\u2014-]\s|,?\s(?:including|consisting of|made up of)\s)"
    r"([^.;!?\n)]*)"
)


def _members_verdict(q: QuestionCues, rest: str) -> str | None:
    """How a group of people whose members the reply lists right after it (`rest`) counts, by those
    members rather than by the group word: SEVERAL where two or more are of the asked kind (its word, or
    a narrower kind: "two catchers" in a team for the player), NONE where at most one is and the others
    are named by other generic words ("a family: a man, a woman and a boy" has one man: the reply's own
    words tell them apart), UNSURE where a role may be of the asked kind ("a nurse" for the woman); None
    where no two people are listed (the group word decides)."""
    listing = _MEMBER_LIST.match(rest)
    if listing is None:
        return None
    referents = person_referents(q)
    counted = unsure = people = 0
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", listing.group(1)):
        toks = re.findall(_WORD, item)
        noun = next((t for t in toks[:4] if t not in STOPWORDS and names_person(t)), None)
        if noun is None:
            continue
        n = next((lx.NUMBER_WORDS[t] for t in toks[:2] if t in lx.NUMBER_WORDS), 2 if is_plural(noun) else 1)
        people += n
        single = _single(noun)
        if single in referents or any(noun_senses.kind_of(single, r) for r in referents):
            counted += n
        elif not noun_senses.generic_person(single):
            unsure += n
    if people < 2:
        return None
    return SEVERAL if counted >= 2 else UNSURE if counted + unsure >= 2 else NONE


def _placed_inside(q: QuestionCues, before: str) -> bool:
    """Whether the referent is placed inside the group named next ("the cellist is seated on the left of a
    string quartet"): `before` ends in a place inside a group, and its clause's subject is the referent, a
    pronoun for it or another noun of its kind; "the ball is at the back of the ruck" places the ball."""
    if not re.search(_INSIDE_GROUP, before):
        return False
    clause = re.split(r"[.;:!?\n]|\s(?:and|while|whereas|but)\s", before)[-1]
    pronouns = {"he", "she", "they", "who", "it"}
    said = re.findall(_WORD, clause)
    first = next((w for w in said if w in pronouns or w not in STOPWORDS | DETERMINERS), None)
    return first is None or first in pronouns or of_asked_kind(q, first) is not False


def _gathers(q: QuestionCues, rest: str) -> bool:
    """Whether a collective noun, followed by `rest`, gathers things of the asked kind: it heads its
    phrase ("a crew-neck sweater", "a team jersey" only modify a noun), and what it is "of" is not
    another kind ("a team of huskies" for a person, "a flock of sheep" for a bird)."""
    nxt = re.match(r"(-|\s*(" + _WORD + r"))(?:\s+(" + _WORD + "))?", rest)
    if nxt is None:
        return True
    if nxt.group(1) == "-":
        return False
    word, after = nxt.group(2), nxt.group(3) or ""
    if word == "of":
        single = en.lemma(after) if is_plural(after) else after
        other_kind = single in KIND_COLLECTIVES and single not in q.referents
        people = names_person(after, any_sense=True)  # "a crowd of commuters": the crowd frames people
        return not (other_kind or (asks_about_person(q) and after and not people))
    function = word in STOPWORDS or word in PREPOSITIONS or word in VERBS or word in lx.AUX
    return function or word.endswith(("s", "ing", "ed"))


def the_nouns(text: str) -> set[str]:
    """Words of the noun phrases that follow "the" in normalised text (up to three words each)."""
    found: set[str] = set()
    for m in re.finditer(r"\bthe\s+((?:" + _WORD + r"\s+){0,2}" + _WORD + ")", text):
        for w in m.group(1).split():
            if w in PREPOSITIONS or w in VERBS or w in DETERMINERS:
                break
            found.add(w)
    return found - STOPWORDS - PLACE_WORDS


def is_person(noun: str) -> bool:
    """A word for a person, by its singular form, more loosely than `names_person`: the person nouns, a
    word whose most frequent sense in WordNet is a person, or, for a word WordNet does not know, any
    agent-like ending ("paddleboarders": -er / -or / -ist), plural or not ("peoples", "skiers")."""
    single = _single(noun)
    if single in PERSON_NOUNS or single == "people":
        return True
    known = noun_senses.person(noun, single)
    if known is not None:
        return known
    return len(single) > 4 and single.endswith(("er", "or", "ist")) and single not in NOT_AGENTS


_SUBJECT_VERB_WORDS = (
    "is|are|was|were|has|have|wears|wear|carries|carry|holds|hold|looks|look|appears|appear|seems|seem|says|"
    "reads|shows|displays"
)
_SUBJECT_VERBS = f"(?:{_SUBJECT_VERB_WORDS})"


def several_answered(q: QuestionCues, answer: str) -> str | None:
    """Why the answer speaks about several referents at once, or None: a quantifier over them ("both
    cyclists", "each of the hikers", "one ... the other"), a list of singular referents ("a chestnut
    horse in front and a grey horse behind it", "one by the door and one by the window"), a plural
    subject that is the referents or their owners ("the skiers are", "the peoples in the photo have"), or
    two or more subjects that are the referent or its owner, each given its own answer ("the woman wears
    a red scarf and the man a grey one", "the girl on the swing ...; the girl by the slide ...")."""
    text = normalise(answer)
    return (
        _quantified(q, text)
        or _one_and_other(q, text)
        or _singular_list(q, text)
        or _plural_subject(q, text)
        or _answered_subjects(q, text)
    )


_NUMBERS = "|".join(sorted(lx.NUMBER_WORDS, key=len, reverse=True))
# "both dogs", "each of the hikers", "all three kids"
_QUANTIFIED = re.compile(
    r"\b(?:both|each|all)\s+(?:of\s+(?:the|them|these|those)\s+)?(?:(?:" + _NUMBERS + r")\s+)?(" + _WORD + ")"
)


def _quantified(q: QuestionCues, text: str) -> str | None:
    """A quantifier over several referents: over the question's referents or people, or as a clause's
    subject ("Both animals are asleep"); not over the answer's things ("the child holds both flags") nor
    over one referent's parts ("both hands")."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    for m in _QUANTIFIED.finditer(text):
        noun = m.group(1)
        if not (is_plural(noun) or " of " in m.group(0)) or _parts_of_one(q, noun):
            continue
        if _only_places_them(q, text, m):
            continue
        subject = re.search(
            r"(?:^|[.;:!?,\u2013\u2014]\s*|\b(?:and|but|while|whereas)\s+)$", text[: m.start()]
        )
        if " of " in m.group(0) or noun in referent_like or names_person(noun) or subject:
            return f"quantified: {m.group(0)!r}"
    return None


# "one" as a clause's subject, then a further pro-form as a later clause's subject, with its verb or place:
# "one has a hose, another grips an axe, and the third ...", "one by the door, a second by the window"
_PRO_SERIES = re.compile(
    r"(?:^|[.;:,!?\u2013\u2014]\s*|\b(?:and|while|whereas)\s+)(?P<one>one\b[^.?!]*?"
    r"(?:[,;:]\s*(?:and\s+|while\s+|whereas\s+)?|\b(?:and|while|whereas)\s+)"
    r"(?:another|the (?:second|third|fourth|last)|a (?:second|third|fourth))"
    r"(?=\s+(?:[a-z]+s|is|was|has|had|can|could|seems?|appears?|looks?|[a-z]+ing|[a-z]+ed|"
    r"by|near|on|in|at|behind|beside)\b)[^.?!]*)"
)


def _one_and_other(q: QuestionCues, text: str) -> str | None:
    """ "one ... the other", or a series of pro-forms, each a clause's subject ("one has a hose, another grips
    an axe, and the third ..."), unless the pair is of other things named just before ("two people, one ...
    the other ..." for a hat); the pair is the referents' when its own sentence names the referent ("the
    one in front wears a red collar, the other a blue one")."""
    other = re.search(r"\bone\b[^.?!]*\bthe other\b[^.?!]*", text)
    series = None if other else _PRO_SERIES.search(text)
    if other:
        said, start, end = other.group(0), other.start(), other.end()
    elif series:
        said, start, end = series.group("one"), series.start("one"), series.end("one")
    else:
        return None
    # "a cup in one hand and a phone in the other": one referent's two parts, not two referents
    part = re.match(r"one\s+(" + _WORD + ")", said)
    if part and _parts_of_one(q, part.group(1)):
        return None
    names = _alias_pattern(set(q.referents)) if q.referents else None
    own = bool(names and re.search(names, said))
    if own or not (_about_other_things(q, text[:start]) or pair_of_other_things(q, text, start, end)):
        return "one ... the other" if other else "one ... another, each a clause's subject"
    return None


def pair_of_other_things(q: QuestionCues, text: str, start: int, end: int) -> bool:
    """Whether the "one ... the other" at text[start:end] (from "one") tells apart the parts of one
    referent, not referents: a part noun after either word ("a sign in one hand and a coffee in the
    other", "one end of the banner ... the other end"), or, with no verb after "one", right before it
    ("two different coloured eyes, one blue and the other brown"). A part the question asks about
    ("Which hand ...?") still counts as a referent."""
    after_one = re.match(r"one\s+(" + _WORD + ")", text[start:])
    after_other = re.search(r"\bthe other\s+(" + _WORD + ")", text[start:end])
    nouns = [m.group(1) for m in (after_one, after_other) if m]
    if not (after_one and (after_one.group(1) in lx.AUX or after_one.group(1) in VERBS)):
        before = re.search(r"(" + _WORD + r")\s*,\s*$", text[:start])
        nouns += [before.group(1)] if before else []
    return any(_parts_of_one(q, w) for w in nouns)


def _singular_list(q: QuestionCues, text: str) -> str | None:
    """The rubric's "list of singular nouns": "one by the door and one by the window", "a gold one on the
    left and a silver one on the right", "a chestnut horse in front and a grey horse behind it"; not when
    the ones are of other things named just before ("two people, one rowing and one sitting")."""
    nouns = r"(?:one|" + "|".join(sorted(map(re.escape, q.referents))) + ")" if q.referents else "one"
    single = r"(?:\bone\b|\b(?:an?|another)\s+(?:" + _WORD + r"\s+){1,2}?" + nouns + r"\b)"
    listed = re.search(single + r"[^.?!]{1,80}?(?:\band\b|,|;)\s+" + single, text)
    if listed and not _about_other_things(q, text[: listed.start()], counted=False):
        return "a list of singular referents"
    return None


def _plural_subject(q: QuestionCues, text: str) -> str | None:
    """A plural subject that is the referents ("the skiers are ...", "the cows near the fence are
    Holsteins"), their pro-form ("the ones near the fence look like Holsteins") or, through the gate
    (`of_asked_kind`), people of the asked kind or owners of the asked thing: "the students are seated"
    is no second teacher; for a thing, people count as its owners only where their clause speaks of it
    or of nothing else ("the hikers have orange jackets"; not "the two people are on a beach" for the
    hat, as G.3's hat example reads)."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    place = r"(?:\s+(?:in|on|at|of|near|by)\s+(?:the\s+)?" + _WORD + r"(?:\s+" + _WORD + r")?)?"
    pattern = (
        r"\bthe\s+(?:" + _WORD + r"\s+){0,2}?(" + _WORD + ")" + place + r"\s+(?=" + _SUBJECT_VERBS + r"\b)"
    )
    for m in re.finditer(pattern, text):
        noun = m.group(1)
        if noun in q.plural_in_question or not is_plural(noun):
            continue
        if noun in referent_like or (noun == "ones" and _ones_for_referents(q, text[: m.start()])):
            return f"plural subject: {noun!r}"
        if not is_person(noun) or of_asked_kind(q, noun, owner=True) is False:
            continue
        if (
            not q.referents
            or asks_about_person(q)
            or _owner_clause_about_referent(referent_like, text[m.end() :])
        ):
            return f"plural subject: {noun!r}"
    return None


def _ones_for_referents(q: QuestionCues, before: str) -> bool:
    """Whether "the ones" stands for the referents: it points back at the last plural noun before it ("several
    cows ... the ones near the fence"), or, with none, at the question's referent; "the big rear wheels and
    the smaller front ones" are wheels, not tractors."""
    plurals = [w for w in re.findall(_WORD, before) if w not in STOPWORDS and w not in VERBS and is_plural(w)]
    if not plurals:
        return True
    last = plurals[-1]
    return last in {plural_of(n) for n in q.referents} or (asks_about_person(q) and is_person(last))


# a clause's subject: after a sentence start, a comma or a conjunction, "the / one ..." (and "a ..." after
# a contrast: "while a defender behind him wears #7"), up to its verb
_SUBJECT = re.compile(
    r"(?:(?:^|[.;:!?\u2013\u2014]\s*|,\s*|\s-\s+|\s(?:and|while|whereas|but)\s+)(?:the\s+|(?=one\b))"
    r"|\s(?:while|whereas)\s+an?\s+)"
    r"((?:" + _WORD + r"\s+){0,1}?" + _WORD + r")\b([^.;:!?,]{0,40}?)"
    r"(?=\s+(?:" + _SUBJECT_VERB_WORDS + r")\b|\s+a\s|\s+an\s|,|;|$)"
)


def _answered_subjects(q: QuestionCues, text: str) -> str | None:
    """Two or more subjects that are the referent or its owner, each with its own answer. For a thing
    (the question's "helmet"), people count as owners apart from the thing itself, and only where their
    clause says nothing of another thing ("the rider is wearing a helmet; the passenger has a cap" is one
    helmet; "the player wears #23, while a defender wears #7" two jerseys). A subject set off by a comma
    right after another ("the sign, the big one above the door, reads ...") is an apposition: the same."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    things: list[tuple[str, str]] = []
    owners: list[tuple[str, str]] = []
    last_end = -1
    antecedent: tuple[str, int] | None = None  # the last subject noun, for a pro-form "one" after it
    for m in _SUBJECT.finditer(text):
        apposition = m.group(0).startswith(",") and m.start() == last_end
        last_end = m.end()
        noun = _subject_noun(q, referent_like, m.group(1) + m.group(2))
        if noun == "one" and pair_of_other_things(q, text, m.start(1), m.end()):
            continue  # "two different coloured eyes, one blue and the other brown": eyes, not referents
        if noun == "ones" and not _ones_for_referents(q, text[: text.rfind("ones", m.start(), m.end())]):
            continue  # "the rear doors and the front ones": doors, not vans
        if (
            noun in ("one", "ones")
            and antecedent
            and not re.search(r"[.!?\n]", text[antecedent[1] : m.start()])
        ):
            # a pro-form takes the kind of the subject before it in its sentence: "the hiker in front wears a
            # jacket; the one behind has a vest" is a second hiker, not a second jacket
            noun = antecedent[0]
        elif noun is not None and noun not in ("one", "ones"):
            antecedent = (noun, m.end())
        if apposition or noun is None or _only_placed(q, text[m.end() :]):
            continue
        phrase = m.group(0).strip(" ,;:.")
        # a person subject of a person question, or a narrower kind of the asked thing ("the rowboat" for
        # the boat), is a referent when of the asked kind: "the groom" is no second bride
        named = noun in referent_like or noun in ("one", "ones")
        # a question with no concrete referent ("What sport is being played?") counts no person subject as
        # one: "the batsman ..., while the bowler ..." answers the sport once
        kind = True if named else of_asked_kind(q, noun, broader=False) if q.referents else None
        if kind is True or (kind is None and asks_about_person(q)):
            things.append((noun, phrase))
        # "one" stands for whichever came before: "the player on the left ... the one on the right"
        owner = kind is not True and not asks_about_person(q)
        if owner and _owner_clause_about_referent(referent_like, text[m.end() :]):
            owners.append((noun, phrase))
    # the question's own owner and owned thing ("the player's shirt", "the number on the car") are one
    # referent: "The player is shown from behind. The shirt is red" answers for one
    linked = set(q.heads) & set(q.referents) if len(set(q.heads) & set(q.referents)) >= 2 else set()
    for subjects in (things, owners):
        # the same referent named again ("the t-shirt in question ... the t-shirt") is one referent: two
        # subjects count when their nouns differ or each carries its own identifying words
        distinct = {("", d) if n in linked else (n, d) for n, d in _distinct_subjects(subjects)}
        described = {d for _, d in distinct if d}
        if len(distinct) >= 2 and (len({n for n, _ in distinct}) >= 2 or len(described) >= 2):
            return f"{len(subjects)} referents answered: {', '.join(p for _, p in subjects[:3])}"
    return None


# a clause that only places its subject ("The first woman is by the bus."): a mention, not an answer
_ONLY_PLACED = re.compile(
    r"\s*(?:is|are|was|were|stands|sits|waits)\s+(?:(?:right|just)\s+)?"
    r"(?:by|near|next\s+to|beside|behind|at|in\s+front\s+of|on|in)\s+(?:" + _WORD + r"\s*){1,4}(?:[.;!?]|$)"
)


def _only_placed(q: QuestionCues, rest: str) -> bool:
    """Whether the subject's clause (`rest`, from its verb on) says only where the subject is, where the
    question does not ask where: that names a referent but gives it no answer."""
    return "where" not in q.words and _ONLY_PLACED.match(rest) is not None


def _distinct_subjects(subjects: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """(noun, identifying words) of each subject, once; "one" is a pro-form, so "the one on the left" is
    the same referent as "the girl on the left" and is dropped where a noun has its identifying words."""
    distinct = {(noun, _identifying(phrase, noun)) for noun, phrase in subjects}
    named = {d for n, d in distinct if d and n not in ("one", "ones")}
    return {(n, d) for n, d in distinct if n not in ("one", "ones") or d not in named}


def _subject_noun(q: QuestionCues, referent_like: set[str], phrase: str) -> str | None:
    """The subject's referent word, "one", or person (its owner), before any preposition, or its head noun
    where that is a narrower kind of the asked thing ("the small rowboat" for the boat); else None."""
    toks = list(itertools.takewhile(lambda t: t not in PREPOSITIONS, re.findall(_WORD, phrase)))
    named = next((t for t in toks if t in referent_like or t in ("one", "ones")), None)
    named = named or next((t for t in toks if names_person(t)), None)
    if named or not q.referents:  # a question with no concrete referent takes no other noun as one here
        return named
    # not a possessor ("the woman's face": her part, no second woman)
    heads = (t for t in toks if t not in STOPWORDS and not t.endswith("'s"))
    return next((t for t in heads if of_asked_kind(q, t, broader=False) is True), None)


def _owner_clause_about_referent(referent_like: set[str], rest: str) -> bool:
    """The owner's clause (up to its end) names the referent or another of it ("a grey one"), or names no
    other thing at all ("wears #7"); "is the one we need" points back, it names no referent."""
    clause = re.split(r"[.;!?,]|\s(?:and|while|whereas|but)\s", rest, maxsplit=1)[0]
    if re.search(r"\b(?:none|no|not|without|nothing)\b|n't\b", clause):
        return False  # "the person on the right has none": an owner without one adds no referent
    toks = re.findall(_WORD, clause)
    if set(toks) & referent_like or re.search(r"\ban?\s+(?:" + _WORD + r"\s+){0,2}ones?\b", clause):
        return True
    return not any(t in lx.ARTICLES or t in POSSESSIVE_PRONOUNS for t in toks)


def _parts_of_one(q: QuestionCues, noun: str) -> bool:
    """ "both hands", "each paw", "both feet": a quantifier over the parts of one referent (the lexicon's
    part nouns), not over several referents, unless the question asked about those parts."""
    single = en.lemma(noun) if is_plural(noun) else noun
    asked = q.words | q.referents | q.plural_in_question
    return (noun in lx.PART_NOUNS or single in lx.PART_NOUNS) and not {noun, single} & asked


def _identifying(phrase: str, noun: str) -> str:
    """The words of a subject phrase that could tell its referent apart ("on the left"), without the
    noun, articles and the phrases that identify nothing ("in question", "in the image")."""
    for said in NON_IDENTIFYING:
        phrase = re.sub(r"(?:^|\s)" + re.escape(said) + r"(?=\s|$)", " ", phrase)
    return " ".join(sorted(content_words(phrase) - {noun, "one", "ones"}))


_COUNTING = lx.PLURAL_QUANTIFIERS | frozenset(lx.NUMBER_WORDS) | word_set("these those other some")


def _counted_plurals(scope: str) -> list[str]:
    """Plural nouns that a scope introduces as things ("two people", "several young kids", "the
    players"), not a verb's -s ("the paddock contains"): right after a number, quantifier or "the", or
    after one word that follows a number or quantifier."""
    toks = re.findall(_WORD, scope)
    found = []
    for k, w in enumerate(toks):
        if w in STOPWORDS or len(w) <= 3 or not is_plural(w):
            continue
        prev, prev2 = (toks[k - 1] if k >= 1 else ""), (toks[k - 2] if k >= 2 else "")
        if prev in _COUNTING or prev == "the" or prev2 in _COUNTING:
            found.append(w)
    return found


def _about_other_things(q: QuestionCues, before: str, counted: bool = True) -> bool:
    """The sentence before "one ... the other" names plural things that are not the question's referents
    ("The image shows two people. One is ..." for "Does she wear a hat?"): the pair is of those. With
    `counted` False the question's own plurals are other things too ("How many people are on the boat?":
    "two people, one rowing and one sitting" counts them, it does not tell boats apart)."""
    scope = " ".join(re.split(r"(?<=[.!?])\s+", before.strip())[-2:])  # this sentence and the last
    plurals = _counted_plurals(scope)
    mine = {plural_of(n) for n in q.referents} | (set(q.plural_in_question) if counted else set())
    if any(w in mine or (is_person(w) and q.referents & PERSON_NOUNS) for w in plurals):
        return False
    return bool(plurals)


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
    r"unclear which|depend(?:s|ing)? (?:on )?which|multiple (?:possible )?(?:referents|candidates|options))"
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


def answers_nothing(sentence: str) -> bool:
    """A sentence that only says that there are several: presentational ("there are two men") or a count
    with no verb ("2 guys in the pic"); "A kettle." and "There's a brass lamp." may be the answer."""
    toks = re.findall(_WORD + r"|\d+", sentence)
    several = any(t.isdigit() and t != "1" or (t in _COUNTING and t != "one") for t in toks)
    if _PRESENTATIONAL.match(sentence):
        return several or any(len(t) > 3 and is_plural(t) for t in toks)
    counted = bool(toks) and (toks[0].isdigit() or toks[0] in _COUNTING) and several
    return counted and not any(t in lx.AUX or t in VERBS or t.endswith("'s") for t in toks)


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


def content_words(fragment: str) -> set[str]:
    return {w for w in re.findall(_WORD, fragment) if w not in STOPWORDS}


# modifiers that tell no referent apart ("the same dog", "the only cat", "the whole group")
_NOT_DISTINGUISHING = (
    word_set("same only whole entire very other such own certain particular") | lx.IMAGE_WORDS
)


_KEY_ENDS = PREPOSITIONS | PLACE_WORDS | lx.RELATIVISERS  # "runner nearest the camera": the runner


def _key_nouns(response: str) -> set[str]:
    """The nouns that key list items or sentences with no article ("Player on the left: 10", "woman with
    sunglasses: iced coffee"): each is a referent phrase as much as one after "the"."""
    found = set()
    for key in _keyed_segments(normalise_keys(response), commas=False):
        if len(key.split()) > _COMMA_KEY_WORDS:  # a long key may be a clause ("There's a cat curled up -")
            continue
        toks = list(itertools.takewhile(lambda t: t not in _KEY_ENDS, re.findall(_WORD, key)))
        if toks and toks[0] not in DETERMINERS and toks[-1] not in STOPWORDS and not is_plural(toks[-1]):
            found.add(toks[-1])
    return found - PLACE_WORDS


def normalise_keys(response: str) -> str:
    """The response with "w/" read as "with" (a note-style key: "woman w/ sunglasses: ...")."""
    return re.sub(r"(?<![a-z])w/\s*", "with ", response, flags=re.I)


def _distinguishes(q: QuestionCues, word: str, noun: str) -> bool:
    """A modifier between "the" and a noun that tells the referent apart: a distinguishing adjective, or,
    before the question's own referent word, any attribute the question does not have ("the ginger cat"
    for "the cat", "the spotted dog"): the rubric's description by attribute."""
    if word in q.words or word in STOPWORDS or word in DETERMINERS or word in _NOT_DISTINGUISHING:
        return False
    if word in lx.NON_VISUAL_ADJECTIVES:  # a trait no photo shows ("the friendly dog") tells none apart
        return False
    if word in DISTINGUISHING_ADJECTIVES:
        return True
    return noun in q.referents and word.isalpha() and word not in VERBS and word not in PREPOSITIONS


# where a clause's subject starts: the text's start, a sentence or clause break, a conjunction (not the
# "." of "i.e." / "e.g.", which opens an apposition to the answer's object)
_CLAUSE_START = re.compile(
    r"(?:^|(?<!\bi\.e)(?<!\be\.g)[.;:!?,(\u2013\u2014]\s*|\s-\s+|\n|\b(?:and|but|while|whereas)\s+)the\s+"
)


def _subject_nouns(text: str) -> set[str]:
    """`the_nouns` of the "the ..." phrases that open a clause (its subject), less possessive forms."""
    found: set[str] = set()
    for m in _CLAUSE_START.finditer(text):
        phrase = re.match(r"(?:" + _WORD + r"\s+){0,2}" + _WORD, text[m.end() :])
        found |= the_nouns("the " + phrase.group(0)) if phrase else set()
    return _possessor_free(found)


# a pronoun that stands for the referent, equated with a noun phrase: "that's the guy lining up the free
# kick", "it's the one on the left", "he is the man in the red cap"
_IDENTIFIES = re.compile(r"\b(?:that|it|this|he|she)(?:'s|\s+is|\s+was)\s+the\s+")


def _predicate_nouns(text: str) -> set[str]:
    """The nouns of a "the ..." phrase that a pronoun is equated with ("#10 - that's the guy lining up the
    kick"): the reply names the referent there, as it does in a subject or a list key, so a description of
    that phrase tells which one it is, though the noun is a generic word for it ("guy" for the player).
    Only words WordNet knows as nouns: "it's the bone he got from ..." reads no noun "got"."""
    found: set[str] = set()
    for m in _IDENTIFIES.finditer(text):
        phrase = re.match(r"(?:" + _WORD + r"\s+){0,2}" + _WORD, text[m.end() :])
        found |= the_nouns("the " + phrase.group(0)) if phrase else set()
    return {n for n in _possessor_free(found) if noun_senses.senses(_single(n))}


def _possessor_free(nouns: set[str]) -> set[str]:
    return {n for n in nouns if not n.endswith("'s")}


def identifying_description(q: QuestionCues, response: str, subjects: bool = False) -> str | None:
    """A description that singles out the referent the response talks about (see module docstring).
    With `subjects`, another noun than the question's counts only as a described clause subject."""
    found = next(identifying_descriptions(q, response, subjects), None)
    return found.text if found else None


@dataclass(frozen=True)
class Description:
    """A referent phrase told apart by a description: its noun, the description as read ("the left
    clock", "dog on the sofa"), its distinguishing words, and where it ends in the normalised text."""

    noun: str
    text: str
    words: frozenset[str]
    start: int
    end: int


def identifying_descriptions(q: QuestionCues, response: str, subjects: bool = False) -> Iterator[Description]:
    """Every description that singles out a referent in the response, in order (`identifying_description`
    is the first): a reply may single out one referent, or several in turn (each its own)."""
    text = normalise(response)
    # The referent phrase may use the question's noun, another noun for the same thing ("the vehicle"
    # for "the car") or the noun of its owner ("the skier on the right has red boots"): any noun phrase
    # after "the" is a candidate, as are the question's own referent words and "one". A possessor or an
    # "'s" contraction ("the girl's wearing") is no referent phrase (the question's word is found inside).
    # For the class (`subjects`), a noun of the answer's own things ("reading a paper, i.e. the back
    # pages") is no referent either: there another noun counts only as a clause's subject with a verb.
    # A noun of another kind than the referent ("the bench" for the woman, "the lid" for the laptop) or than
    # its owner singles out no referent (`of_asked_kind`).
    # Where the class's reply names the referent bare by its own word ("the helmet is white"), a noun whose
    # kind WordNet cannot tell ("the main shell is pale") is another thing, a part or a neighbour: the reply
    # has its own name for the referent. Nouns of the asked kind (an owner, a synonym) still count.
    named = _key_nouns(response) | _predicate_nouns(text)
    keys = {k for k in named if of_asked_kind(q, k, owner=True) is not False}
    others = (_subject_nouns(text) if subjects else _possessor_free(the_nouns(text))) - keys
    unsure = not (subjects and _named_bare(q, text))
    others = {
        n
        # for the class, "the front ones" singles out no one referent: it is several, or other things
        for n in others - set(q.referents) - ({"one", "ones"} if subjects else {"one"})
        if (kind := of_asked_kind(q, n, owner=True)) is True or (kind is None and unsure)
    }
    names = set(q.referents) | {"one"} | others | keys
    for m in re.finditer(_alias_pattern(names), text):
        before = text[max(0, m.start() - 25) : m.start()]
        if _COUNTED_BEFORE.search(before):  # "multiple sheep in this field": the set, no one of it
            continue
        # only after "the": "a red t-shirt" describes the answer, "the red t-shirt" picks one out
        pre = re.search(r"\bthe\s+((?:\w+\s+){0,2})$", before)
        if pre:
            new = [w for w in pre.group(1).split() if _distinguishes(q, w, m.group(0))]
            if new:
                said = f"the {' '.join(new)} {m.group(0)}"
                yield Description(m.group(0), said, frozenset(new), m.start() - len(pre.group(0)), m.end())
                continue
        after = text[m.end() :]
        if after.startswith("'s"):  # "the catcher's glove, behind home plate": the thing owned is described
            continue
        after = re.sub(
            r"^\s*,(?=\s*(?:who|which|behind|near|next|in|on|at|by)\b)", "", after
        )  # an apposition
        # a place phrase by any spatial preposition ("the sign above the door", "the cup beside the
        # laptop"), as well as the descriptor openings
        starts = any(
            re.match(r"\s*" + re.escape(s) + (r"" if s == "(" else r"(?:\W|$)"), after)
            for s in DESCRIPTOR_STARTS
        ) or bool(re.match(r"\s*(?:" + "|".join(sorted(lx.SPATIAL_PREPOSITIONS)) + r")\s+\w", after))
        # or a participle: "the car parked closest to the camera", "the cat sleeping on the sofa"
        if not starts and not re.match(r"\s+[a-z]+(?:ed|ing)\s+[a-z]", after):
            continue
        # the descriptor runs to the main verb: "the dog [that is jumping in the pond] is a retriever"
        lead = re.match(r"\s*(?:who is|who's|that is|that's|which is)\s", after)
        rest = after[lead.end() :] if lead else after
        pieces = re.split(r"([.;:!?,]|\s(?:" + _SUBJECT_VERB_WORDS + r"|wears)\s)", rest, maxsplit=1)
        fragment = pieces[0][:80].strip()
        if subjects and m.group(0) in others and (len(pieces) < 2 or not pieces[1].strip().isalpha()):
            continue  # another noun describes the referent only as a subject: "the kind with a tail." no
        for phrase in NON_IDENTIFYING:  # "in the image" says where the photo is, not which referent
            fragment = re.sub(r"(?:^|\s)" + re.escape(phrase) + r"(?=\s|$)", " ", fragment).strip()
        content = content_words(fragment)
        if content and not content <= q.words:
            start = m.start() - len(pre.group(0)) if pre else m.start()
            end = len(text) - len(rest) + len(pieces[0])
            yield Description(m.group(0), f"{m.group(0)} {fragment}", frozenset(content), start, end)


def _named_bare(q: QuestionCues, text: str) -> bool:
    """Whether the reply names the referent by the question's own word with no description, as a clause's
    subject right before its verb ("the helmet is white", "..., and the dog has a collar")."""
    if not q.referents:
        return False
    start = r"(?:^|[.;:!?,\u2013\u2014]\s*|\b(?:and|but|while|whereas|so)\s+)the\s+"
    bare = start + _alias_pattern(set(q.referents)) + r"\s+" + _SUBJECT_VERBS + r"\b"
    return re.search(bare, text) is not None


# a sentence that only says what is there ("There are two boys.", "I can see three dogs", "The image shows
# several cars"): it introduces the referents, it answers nothing about them
_PRESENTATIONAL = re.compile(
    r"^(?:there (?:are|is|seem to be|appear to be)|i (?:can )?(?:see|notice|count)|"
    r"(?:the|this|in the) (?:image|picture|photo|photograph|scene)\b(?: (?:shows|has|contains|features|"
    r"includes|depicts))?)\b"
)


# an indefinite plural subject introduces things ("Several trees line the path", "Two boys are on the
# swings"); "both" and "all" speak of the whole set, which is an answer for all of them
_INTRODUCING = (
    r"(?:a few|a couple of|some|lots of|a number of|\d+|"
    + "|".join(
        sorted((lx.PLURAL_QUANTIFIERS - {"both", "all"}) | set(lx.NUMBER_WORDS), key=len, reverse=True)
    )
    + ")"
)


# a number or plural quantifier right before a noun (one adjective may come between): "multiple sheep",
# "two deer", "several brown cows" name a set, even where the noun has no plural form of its own
_COUNTED_BEFORE = re.compile(
    r"\b(?:(?:"
    + "|".join(sorted(_COUNTING - {"one", "other", "these", "those"}, key=len, reverse=True))
    + r")|a few|a couple of|lots of|a number of|[2-9]|\d\d+)\s+(?:"
    + _WORD
    + r"\s+)?$"
)


def _introduces(q: QuestionCues, sentence: str) -> bool:
    """A sentence that only says what is there: presentational ("There are two boys", "I can see three
    dogs") or opening with an indefinite plural of the referent ("Several trees line the path")."""
    if _PRESENTATIONAL.match(sentence):
        return True
    plurals = _alias_pattern({plural_of(n) for n in q.referents}) if q.referents else None
    return bool(plurals and re.match(_INTRODUCING + r"\s+(?:" + _WORD + r"\s+){0,2}?" + plurals, sentence))


def plural_then_one(q: QuestionCues, answer: str) -> str | None:
    """ "There are several boys in the photo. The boy is holding a football.", "Several trees line the path.
    It's an oak.": the plural only says what is there, and the answer is then about one referent named bare
    (no description: the referent word, or "he" / "she" / "it"). The rubric's A needs the answer itself to
    treat the ambiguity; this one answers for one without saying which: class C. "They" speaks of all."""
    said = reply_checks.sentences(normalise(answer))
    plural = [s for s in said if plural_mentions(q, s)]
    if not plural or not all(_introduces(q, s) for s in plural):
        return None
    singular = {"he", "she", "him", "her", "his"} if asks_about_person(q) else {"it", "it's", "its"}
    names = _alias_pattern(set(q.referents) | singular)
    later = said[said.index(plural[-1]) + 1 :]
    bare = [s for s in later if re.match(r"(?:the\s+)?" + names, s) and not identifying_description(q, s)]
    return (
        f"a plural that only says what is there, then one referent named bare: {bare[0]!r}" if bare else None
    )


def named_by_role(q: QuestionCues, answer: str) -> str | None:
    """The answer names the person it is about by a role the question does not have ("The batter is
    swinging" for "What is the player doing?", "the goalkeeper wears ..."): a description by what that
    one does, which singles it out; for a thing ("What color is the jersey?"), its owner named by a role
    ("the goalkeeper wears a green jersey"). A generic person word ("the man" for "the person") is no
    role, and the role must act ("is swinging", "wears", "holds"): "the blazer is navy" names a thing. For a
    thing, the owner's clause must be about it ("the goalkeeper wears a green jersey"): "the cyclist is
    coming down the road" only sets the scene, and names no helmet."""
    acts = r"\s+(?:(?:is|was)\s+[a-z]+ing|wears|holds|carries|has)\b"
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    opens = r"(?:^|[.;!?,]\s+|\s[-\u2013\u2014]\s+|[\u2013\u2014])"  # a clause's start, or after a dash
    for m in re.finditer(opens + r"the\s+(" + _WORD + r")" + acts, answer):
        noun = m.group(1)
        if noun in q.words or noun in PERSON_NOUNS or noun in lx.CLOTHING or is_plural(noun):
            continue
        thing = not asks_about_person(q) and q.referents
        if thing and not _owner_clause_about_referent(referent_like, answer[m.end(1) :]):
            continue
        if names_person(noun):
            return f"the {noun}"
    return None


_GAP = r"[\s*_`#]+"  # between a marker's words: spaces, or markdown emphasis ("**Final** answer")
_FINAL = re.compile(
    rf"\b(?:final{_GAP}answer|in{_GAP}conclusion|to{_GAP}conclude|to{_GAP}summari[sz]e|in{_GAP}summary|"
    rf"therefore|thus|so,|based{_GAP}on{_GAP}(?:this|these|the|my|that){_GAP}(?:\w+{_GAP})?"
    r"(?:analysis|observations?|steps|information|reasoning))",
    re.IGNORECASE,
)


def final_answer_as_written(response: str) -> str:
    """The part after the last "final answer" / "therefore" / "based on this analysis" marker, in the
    response's own words (case and formatting kept), or the whole response when it has none: what RAcQUEt's
    judge reads of a chain-of-thought reply (Fig. 4, bottom: the final answer is classified)."""
    matches = list(_FINAL.finditer(response))
    if not matches:
        return response
    tail = response[matches[-1].end() :].lstrip(" :,.-)*_`#\n")
    return tail if re.search(r"[A-Za-z]", tail) else response


def final_answer(response: str) -> str:
    """`final_answer_as_written`, normalised (what the rule judge reads)."""
    return normalise(final_answer_as_written(response))


def list_items(response: str) -> list[str]:
    """Lines that start as list items ("- ...", "* ...", "1. ...", "2) ...")."""
    lines = response.replace("\r", "").split("\n")
    return [ln.strip() for ln in lines if re.match(r"\s*(?:[-*\u2022]|\d+[.)])\s+\S", ln)]
