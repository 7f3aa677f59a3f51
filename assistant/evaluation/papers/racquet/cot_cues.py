"""RAcQUEt CoT (G.3), round 3: more ways a chain-of-thought step mentions several instances of the
question's entity, and the readings too weak to decide, which abstain rather than default to NO.

G.3 asks whether any step "mentions the existence of multiple entities ... the entity mentioned in the
question". Besides the plural and the shared cues (response_cues), a step can say so by:
  - a count over a noun whose plural is its singular ("several sheep", "two deer", "the fish are");
  - a peer marked by "fellow" ("a fellow teacher") or, for a person, another person of any kind
    ("another adult", "a second woman": G.3's own example counts a catcher as a second player);
  - membership: the referent is "one of" a group ("he is one of several waiting staff");
  - "the others" / "the rest are" standing for more of the referent, when the sentence before offers
    no other thing they could stand for ("The cow at the front has a bell. The others don't have bells");
  - a place in a moving group ("leading the pack", "at the back of the peloton"), or a musical group
    for a person ("seated on the left of a string quartet": response_cues.names_people);
  - for a person, the referent joined by "and" to another person ("a man and his brother are ...");
  - a comparison with an unnamed second instance ("the smaller of the two", "taller than the other");
  - more of a narrower kind the reply renamed the referent by ("the dog is the terrier ... two other
    terriers").
And it is too weak to decide (unknown, never a confident NO) when:
  - "the others" could stand for another thing named just before;
  - the only plural is of the question's indefinite object while a named subject is the entity ("two
    straw hats" for "Is the girl wearing a hat?": G.3's hat example has no named subject, "she");
  - the only plural "people" are words that may not be people at all: -er words WordNet does not know,
    or person words that also name things ("speakers", "runners"), with nothing counting them;
  - a group of another narrow kind follows a renaming ("the dog is the spaniel ... a pair of
    retrievers") and WordNet does not say it is of the referent's kind (where it does, `counted_narrower`
    reads "a couple of collies" as more dogs);
  - other people whose kind may be the asked one (response_cues.people_verdict): "a crowd" for the
    player, "children" for the woman.
Round 9 adds a count before a singular referent in broken English ("there is many sign": `counted_singular`),
an animal's blood kin ("its mother's back": `kin_of_animal`), and a doubt for a counted near broader kind
("multiple aircraft" for the plane: `counted_broader`).
Round 10 reads the asked kind by WordNet more widely (`_names_kind`: a synonym, a person word by any of
its senses, a near broader kind after "other") and adds the count forms G.3 replies use beyond a number
word: "other" before a plural of the kind ("a couple of other skaters": `other_of_kind`), one per owner
("each with its own seller": `each_with_own`), a multiplier ("detected robot x2": `counted_by_multiplier`),
definite plurals of a narrower kind ("the runners"), and takes back a belief in several that the reply
corrects to one ("I thought there were two horses, but ... one horse": `retracted`).
Round 45 reads kinds by WordNet (noun_senses.kind_of): a second person of a narrower kind ("a catcher"
for the player: `narrower_person`), several counted things of one ("many pigeons" for the bird:
`counted_narrower`), and people of another kind for a role are no mention ("spectators" for the player).
"""

from __future__ import annotations

import dataclasses
import re

from assistant import lexicon as lx
from assistant import words as en
from assistant.evaluation import noun_senses
from assistant.evaluation import response_cues as cues

_WORD = r"[a-z]+(?:[-'][a-z]+)*"
_NUMBERS = "|".join(sorted(set(lx.NUMBER_WORDS) - {"one", "zero"}, key=len, reverse=True))
# words that count a noun as more than one; "some" is left out ("some sheep" may be one)
_COUNT = (
    r"(?:several|many|multiple|numerous|various|few|both|all(?:\s+the)?|these|those|other|"
    + _NUMBERS
    + r"|\d+)"
)


def _pattern(names: set[str]) -> str:
    return r"\b(?:" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b"


def counted_same_form(q: cues.QuestionCues, text: str) -> str | None:
    """A referent whose plural is its singular ("sheep", "deer", "fish"), counted as more than one
    ("several sheep", "two grazing deer", "these fish") or agreeing with a plural verb ("the sheep are").
    Not a compound's first word ("two sheep-shearing tools" counts tools)."""
    same = {r for r in q.referents if cues.plural_of(r) == r}
    if not same:
        return None
    names = _pattern(same)
    counted = re.search(r"\b" + _COUNT + r"\s+(?:" + _WORD + r"\s+)?" + names + r"(?![-])", text)
    if counted and not re.match(r"(?:one|no\.?)\s", counted.group(0)):
        return f"counted: {counted.group(0)!r}"
    agrees = re.search(r"\bthe\s+(?:" + _WORD + r"\s+)?" + names + r"\s+(?:are|were|have|all)\b", text)
    return f"plural verb: {agrees.group(0)!r}" if agrees else None


# counts that need a plural after them: "other" ("the other sign"), "all the" ("all the bread") and "both"
# ("both man and dog") do not
_PLURAL_COUNT = r"(?:several|many|multiple|numerous|various|" + _NUMBERS + r")"
# what may follow a noun that heads its phrase: a clause goes on or ends ("many sign on the street", "two
# sign are"), where a noun after it would be the head ("two sign posts", "many bird feeders")
_AFTER_HEAD = (
    r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:"
    + "|".join(sorted(lx.PREPOSITIONS | lx.AUX, key=len, reverse=True))
    + r"|and|or|but|that|which|who|visible|present)\b)"
)


def counted_singular(q: cues.QuestionCues, text: str) -> str | None:
    """A referent in its singular counted as more than one, as broken English writes a plural ("there is
    many sign on the street", "i see two dog in park"): a count that needs a plural right before the
    referent word, which heads its phrase. Not a modifier of another noun ("two sign posts", "many bird
    feeders"), nor "the other sign" or "one sign"."""
    single = {r for r in q.referents if cues.plural_of(r) != r}
    if not single:
        return None
    m = re.search(r"\b" + _PLURAL_COUNT + r"\s+" + _pattern(single) + r"(?![-'])" + _AFTER_HEAD, text)
    return f"counted in the singular: {m.group(0)!r}" if m else None


# "a fellow teacher"; for a person, "another adult", "a second woman", "one other man"
# each captures the two words after the marker: the noun is the first or the second ("a fellow nurse at",
# "a fellow young teacher")
_PEER = re.compile(r"\b(?:an?|the|her|his|their|its|one)\s+fellow\s+(" + _WORD + r")(?:\s+(" + _WORD + r"))?")
_OTHER_PERSON = re.compile(
    r"\b(?:another|a second|one other|the other|an other)\s+(" + _WORD + r")(?:\s+(" + _WORD + r"))?"
)


def peer_mention(q: cues.QuestionCues, text: str) -> str | None:
    """A second instance named as a peer: "fellow" before the referent (or, for a person, any person
    noun); for a question about a person, "another" / "a second" / "the other" before a person noun that
    may be of the asked kind (`response_cues.of_asked_kind`). Not "a fellow of the society" (a title, no
    noun after), nor "another cup" for a person, nor "another customer" for the waiter."""
    person = cues.asks_about_person(q)
    for m in _PEER.finditer(text):
        if any(n in q.referents or (person and cues.names_person(n)) for n in m.groups() if n):
            return f"a peer: {m.group(0)!r}"
    if not person:
        return None
    for m in _OTHER_PERSON.finditer(text):
        nouns = [n for n in m.groups() if n]
        # of the asked kind (`response_cues.of_asked_kind`): "another guest" is no second bride
        if any(_another_of_kind(q, n) for n in nouns):
            return f"another person: {m.group(0)!r}"
    return None


def _another_of_kind(q: cues.QuestionCues, noun: str) -> bool:
    """A singular person word that may be one more of the asked person (not a part, not of another kind)."""
    person = not cues.is_plural(noun) and cues.names_person(noun) and not _part(noun)
    return person and cues.of_asked_kind(q, noun) is not False


def _part(noun: str) -> bool:
    return noun in lx.PART_NOUNS


# "he is one of several waiting staff", "she's one of the crew", "the waiter is one of many"
_MEMBER = re.compile(
    r"(?:\bis|'s|\bwas|\bas|\bbe|\bseems to be|\bappears to be)\s+(?:just\s+|only\s+)?one\s+of\s+"
    r"(?:the|these|those|their|its|his|her|our)?\s*(?:(?:several|many|multiple|numerous|various|a few|"
    r"a number of|a group of|a team of|" + _NUMBERS + r")\s+)?((?:" + _WORD + r"\s+){0,2}" + _WORD + r")\b"
)
_RANKING = re.compile(r"(?:est|most|best|least|first|last|only|few|main|major|key)$")


def member_of_group(q: cues.QuestionCues, text: str) -> str | None:
    """The referent said to be one member of a group: "X is one of ..." whose subject is the referent (or
    a pronoun for it) and whose group is its own kind: the referent's plural, people for a person, or a
    collective without a plural -s ("staff", "crew", "team"). Not a ranking ("one of the best"), nor a
    group of other things ("it is one of the reasons", "she holds one of the menus": no "is")."""
    for m in _MEMBER.finditer(text):
        phrase = _noun_phrase(m.group(1).split())
        if not phrase:
            continue
        modifiers, head = phrase[:-1], phrase[-1]
        if any(_RANKING.search(w) for w in [*modifiers, head]) or not _subject_is_referent(
            q, text, m.start()
        ):
            continue
        single = cues._single(head)
        if single in q.referents or (cues.asks_about_person(q) and cues.names_person(head)):
            return f"one of a group of its kind: {m.group(0).strip()!r}"
        collective = not cues.is_plural(head) and head not in cues.STOPWORDS and len(head) > 3
        if collective and cues.asks_about_person(q) and head not in q.referents:
            return f"one of a group: {m.group(0).strip()!r}"
    return None


def _noun_phrase(toks: list[str]) -> list[str]:
    """The words up to a preposition, verb or participle: "security staff" of "security staff at the"."""
    phrase: list[str] = []
    for w in toks:
        # a participle first modifies the noun ("waiting staff"); after a noun it starts a clause
        participle = bool(phrase) and w.endswith(("ing", "ed"))
        if w in lx.PREPOSITIONS or w in cues.VERBS or participle or w in lx.AUX:
            break
        phrase.append(w)
    return phrase


# what opens a clause with a subject of its own after "and"
_NEW_SUBJECT = (
    r"(?:the|an?|this|that|these|those|his|her|its|their|my|your|our|he|she|it|they|i|we|you|there)"
)


def _subject_is_referent(q: cues.QuestionCues, text: str, end: int) -> bool:
    """The clause before `end` is about the referent: it names it, or is a pronoun that can stand for it
    (he / she / they for a person, it for a thing). "and" opens a new clause only before a subject of its
    own ("and the peloton ...", "and he ..."): between two modifiers ("in the blue and yellow kit") or two
    verbs ("has broken away and is leading ...") the clause and its subject go on."""
    clause = re.split(r"[.;:!?\n]|,\s|\b(?:but|while)\s|\band\s+(?=" + _NEW_SUBJECT + r"\b)", text[:end])[-1]
    toks = re.findall(_WORD, clause)
    if set(toks) & q.referents:
        return True
    person = cues.asks_about_person(q)
    pronouns = {"he", "she", "they", "he's", "she's"} if person else {"it", "it's"}
    return bool(set(toks) & pronouns) and len(toks) <= 4


# "the others", "the other ones", "the rest are": more of something named just before
_OTHERS = re.compile(
    r"\b(?:the others|the other ones|the rest(?=\s+(?:are|were|have|do|don't|seem|look|stand)\b))\b"
)
_NEXT_IS_VERB = (
    r"(?:is|are|has|have|was|were|at|in|on|by|with|around|near|behind|beside|next|from|of|and|,|"
    r"[a-z]+(?:ing|ed)|[a-z]+s(?=\s+(?:an?|the|his|her|its|their|by|in|on|at|near|next|behind|beside)\b))\b"
)
_LED = re.compile(
    r"(?:^|[^a-z'])(?P<prep>"
    + _WORD
    + r"\s+)?(?P<det>an?|the|his|her|its|their|two|three|several|some|many)\s+"
    r"(?:" + _WORD + r"\s+){0,2}?(?P<noun>" + _WORD + r")(?=\s+" + _NEXT_IS_VERB + r"|[.,;:!?]|$)"
)


def the_others(q: cues.QuestionCues, text: str) -> tuple[str | None, str | None]:
    """("the others" as more of the referent, None) or (None, why unsure) or (None, None). The others
    stand for a thing the sentence before names as a subject or an object (not a place after a
    preposition, not a part), less the things their own clause says they have or lack ("The others
    don't have bells" are no bells). One candidate, the referent: a mention; others too: unsure."""
    for m in _OTHERS.finditer(text):
        before = _antecedent_span(text[: m.start()])
        own = re.split(r"[.;!?\n]", text[m.end() :], maxsplit=1)[0]
        candidates = {
            c
            for c in _candidates(before)
            if not re.search(r"\b(?:" + re.escape(c) + r"|" + re.escape(cues.plural_of(c)) + r")\b", own)
        }
        singular = {cues._single(c) for c in candidates}
        if singular and singular <= set(q.referents):
            return f"more of the referent: {m.group(0)!r}", None
        named = re.search(_pattern(set(q.referents)), before) if q.referents else None
        if singular & set(q.referents) or not singular or named:
            return None, f"{m.group(0)!r} may stand for something other than the referent"
    return None, None


def _antecedent_span(before: str) -> str:
    """The sentence so far and the one before it, less list markers ("2.", "Step 2:"), which split off
    as sentences of their own."""
    pieces = [re.sub(r"\b(?:step\s*)?\d+\s*[.:)]", " ", p) for p in re.split(r"(?<=[.!?\n])\s*", before)]
    partial = pieces[-1] if pieces else ""
    full = [p for p in pieces[:-1] if re.search(r"[a-z]{2,}", p)]
    return " ".join([*full[-1:], partial])


def _candidates(sentence: str) -> set[str]:
    """Head nouns of a sentence's subject and objects: after an article or possessive, not after a
    preposition (a place: "at the front of the line", "around her neck") and not a part."""
    found = set()
    for m in _LED.finditer(sentence):
        prep = (m.group("prep") or "").strip()
        noun = m.group("noun")
        # a counted plural after a preposition is still a candidate: "stands by two dogs. The others ..."
        counted = m.group("det") in {"two", "three", "several", "some", "many"}
        if (
            (prep in lx.PREPOSITIONS and not counted)
            or noun in lx.PART_NOUNS
            or noun in cues.PLACE_WORDS
            or noun in cues.STOPWORDS
        ):
            continue
        found.add(noun)
    return found


# a person's place in a moving group: "leading the pack", "at the back of the peloton"
_IN_GROUP = re.compile(
    r"\b(?:lead(?:s|ing)?|ahead of|chasing|(?:front|back|rear|head|middle|tail) of|behind)\s+the\s+"
    r"(?:" + _WORD + r"\s+)?(?:pack|peloton|bunch)\b(?!\s+of\b|-)"
)
_PACK_AS_THING = re.compile(r"\b(?:an?|his|her|their|its|my)\s+(?:" + _WORD + r"\s+)?(?:pack|bunch)\b")


def place_in_group(q: cues.QuestionCues, text: str) -> str | None:
    """The referent placed in a group that moves together ("the runner is leading the pack", "the horse
    at the back of the bunch"): the group is others of its kind, whatever the kind. The clause must be
    about the referent, and the reply must have no pack or bunch as a thing ("a pack on his back", "a
    bunch of keys")."""
    if _PACK_AS_THING.search(text):
        return None
    for m in _IN_GROUP.finditer(text):
        if _subject_is_referent(q, text, m.start()):
            return f"placed in a group of its kind: {m.group(0)!r}"
    return None


def subject_only(q: cues.QuestionCues) -> cues.QuestionCues | None:
    """`q` without the indefinite object of a question that names its subject ("Is the girl wearing a
    hat?" -> the girl), or None when the question has no such pair ("Does she wear a hat?" asks about the
    hat: no subject is named; "Is there a dog on the sofa?": the sofa is a place after a preposition)."""
    toks = re.findall(_WORD, q.text)
    subject = None
    objects = set()
    for k, tok in enumerate(toks[:-1]):
        nxt_run = [w for w in toks[k + 1 : k + 4] if w in q.referents]
        if not nxt_run:
            continue
        after_prep = k > 0 and toks[k - 1] in lx.PREPOSITIONS
        if tok in {"the", "his", "her", "their", "its"} and subject is None and not after_prep:
            subject = nxt_run[0]
        elif tok in {"a", "an"} and subject is not None and not after_prep and nxt_run[0] != subject:
            objects.add(nxt_run[0])
    if subject is None or not objects:
        return None
    return dataclasses.replace(q, referents=q.referents - objects)


# a bare word for people set off by a comma before "!" or "?", as a speaker addresses listeners: "Let's
# break down the action, folks!", "Ready, kids?"
_ADDRESS = re.compile(r",\s+(" + _WORD + r")(?=\s*[!?])")


def without_address(text: str) -> str:
    """`text` with the words that address the reply's listeners blanked (offsets kept): a bare people word
    (no determiner) set off by a comma right before "!" or "?" ("Here's the breakdown, folks!", "Ready,
    kids?") names whom the speaker talks to, not people in the image, as G.3 asks. Not a list's last item
    ("fans, photographers and officials"), nor a phrase with a determiner ("... wave at the crowd, the
    fans!"), nor a word for no people."""

    def blank(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        people = cues.names_people(word) or cues.names_person(word)
        return " " * len(m.group(0)) if people and word not in cues.STOPWORDS else m.group(0)

    return _ADDRESS.sub(blank, text)


# "What type of window is in the room?", "Which breed of dog is on the sofa?": a question for a sort of thing
_SORT_OF = re.compile(
    r"^\s*(?:what|which)\s+(?:kind|type|sort|variety|style|breed|species|make|model|brand)\s+of\s+"
    r"((?:" + _WORD + r"\s+){0,2})"
)


def sort_asked(q: cues.QuestionCues) -> cues.QuestionCues:
    """`q` with the thing a "what kind of X" question asks about among its referents: "What type of window
    is in the room?" asks about a window (G.3: "the entity mentioned in the question"), which the question
    reader, taking the subject's sort for an attribute, leaves out for the room it is in. X is the last
    word of the noun run after "of" (up to a verb, an auxiliary or a preposition), singular; a plural
    ("what kind of flowers") or a run with no noun leaves `q` as it is."""
    m = _SORT_OF.match(q.text)
    if m is None:
        return q
    run = _noun_phrase(m.group(1).split())
    noun = run[-1] if run else ""
    if not noun or noun in q.referents or cues.is_plural(noun) or noun in cues.STOPWORDS:
        return q
    return dataclasses.replace(q, referents=q.referents | {noun}, heads=(*q.heads, noun))


_COUNTED_BEFORE = r"\b(?:the|these|those|other|some|" + _COUNT + r")\s+(?:" + _WORD + r"\s+)?"


def weak_people(reason: str, text: str) -> str | None:
    """Why a "several people" reading rests only on a plural that may name no one, or None: a word WordNet
    does not know that was taken for an agent noun by its ending ("divided into quarters"), or a person
    word that also names a thing ("speakers" on a shelf, "runners" of a drawer, "guards" on a machine),
    which nothing counts as things of a kind ("two hikers", "the other skiers")."""
    m = re.match(r"several people: '(" + _WORD + r")'$", reason)
    if m is None:
        return None
    word = m.group(1)
    single = cues._single(word)
    known = noun_senses.person(word, single)
    sure = known and not noun_senses.thing_homonym(word, single)
    if single in lx.PERSON_NOUNS or cues.is_relation(word) or sure or single.endswith(("ist", "ian")):
        return None
    if re.search(_COUNTED_BEFORE + re.escape(word) + r"\b", text):
        return None
    return f"{word!r} may not name people (a word that may name a thing, and nothing counts it)"


def extra_mention(q: cues.QuestionCues, text: str) -> str | None:
    """Round 3's ways of mentioning several instances (module docstring), on normalised text."""
    return (
        counted_same_form(q, text)
        or counted_singular(q, text)
        or peer_mention(q, text)
        or member_of_group(q, text)
        or place_in_group(q, text)
        or coordinated_people(q, text)
        or compared_instance(q, text)
        or the_others(q, text)[0]
        or renamed_kind(q, text)[0]
        or narrower_person(q, text)
        or counted_narrower(q, text)
        or other_of_kind(q, text)
        or each_with_own(q, text)
        or counted_by_multiplier(q, text)
        or counted_pronoun(q, text)
        or young_of_referent(q, text)
        or kin_of_animal(q, text)
        or sibling_of_an_age(q, text)
    )


# a young animal as an individual of its own: owned ("her calf", "its puppies"), counted ("two kittens") or
# introduced ("a small calf"); the determiner up to two words before the noun
_YOUNG_DET = re.compile(r"\b(her|his|its|their|an?|" + _COUNT + r")\s+(?:" + _WORD + r"\s+){0,2}$")
_OWNERS = {"her", "his", "its", "their"}


def young_of_referent(q: cues.QuestionCues, text: str) -> str | None:
    """The young of the asked animal beside it ("a mother elephant and her calf", "an adult elephant ...
    and a small calf", "two puppies" for the dog: noun_senses.young_of): a calf is an elephant, so a
    second one. Owned or counted young are others; an introduced one ("a calf") only after the referent
    is named in its sentence and not as its predicate ("the elephant is a calf", "the dog, a puppy,",
    "I find the cat: a kitten": the referent renamed). Not a referent that is itself young ("What is the
    calf doing?")."""
    for m in re.finditer(_WORD, text):
        noun = m.group(0)
        plural = cues.is_plural(noun)
        single = en.lemma(noun) if plural else noun
        if not any(noun_senses.young_of(single, r) for r in q.referents):
            continue
        det = _YOUNG_DET.search(text[max(0, m.start() - 40) : m.start()])
        if det is None:
            continue
        word = det.group(1)
        sentence = re.split(r"[.;!?\n]", text[: m.start() - len(det.group(0))])[-1]
        owned = word in _OWNERS and not plural
        counted = plural and word not in {"a", "an"}
        named = re.search(_pattern(set(q.referents)), sentence)
        # "I find the cat: a kitten on a rug" renames the referent, as "the cat is a kitten" does
        renamed = _PREDICATE_BEFORE.search(sentence[-40:]) or sentence.rstrip().endswith(":")
        introduced = word in {"a", "an"} and named and not renamed
        if owned or counted or introduced:
            return f"the young of the referent: {det.group(0) + noun!r}"
    return None


def kin_of_animal(q: cues.QuestionCues, text: str) -> str | None:
    """Kin owned by the asked animal ("the baby monkey clings to its mother's back", "the foal stands by
    the horse's sister"): WordNet files kin under people, but an animal's mother, sibling or offspring is
    of its own kind, so a second one. Only blood kin (not a spouse or partner: "the dog and its partner"
    may be its handler), owned by "its" in a clause about the referent or by the referent's own
    possessive. Not a person's kin (`response_cues.people_verdict` reads those), nor "its owner"."""
    animals = {r for r in q.referents if not cues.names_person(r) and noun_senses.kind_of(r, "animal")}
    if not animals:
        return None
    names = "|".join(sorted(map(re.escape, animals), key=len, reverse=True))
    owner = r"\b(?:its|(?:the\s+)?(?:" + names + r")'s)\s+(" + _WORD + r")"
    for m in re.finditer(owner, text):
        noun = m.group(1).removesuffix("'s")
        single = cues._single(noun)
        kin = noun_senses.kind_of(single, "relative") and not noun_senses.kind_of(single, "spouse")
        if kin and (not m.group(0).startswith("its") or _subject_is_referent(q, text, m.start())):
            return f"kin of the asked animal: {m.group(0)!r}"
    return None


# a sibling owned by someone, marked as of the owner's age: "her twin sister", "his little brother", "their
# younger sibling", "her twin"
_SIBLING_OF_AGE = re.compile(
    r"\b(?:her|his|their|(?:the\s+)?[a-z]+'s)\s+(?:(twin|younger|little|baby|kid|small)\s+)?("
    + _WORD
    + r")\b(?![-'])"
)


def sibling_of_an_age(q: cues.QuestionCues, text: str) -> str | None:
    """For a referent named by its youth ("the girl", "the child", "the boy": noun_senses.young), a sibling
    of hers marked as of her age ("her twin sister", "her younger brother", "his little sister", "her
    twin"): a younger or twin sibling of a child is a child, so a second one of the asked kind (a sibling
    of the other sex is no second girl: "her little brother"). An unmarked or older sibling ("her sister",
    "his older brother") may be an adult: `response_cues.people_verdict` leaves those unsure. WordNet files
    "brother" and "sister" under kinsman and kinswoman, not under "sibling", so the two are named here."""
    referents = cues.person_referents(q)
    if not referents or not all(noun_senses.young(r) for r in referents):
        return None
    for m in _SIBLING_OF_AGE.finditer(text):
        mark, noun = m.group(1), cues._single(m.group(2))
        if mark == "twin" and not _sibling(noun):  # "the boy's twin waves": the twin is the noun
            mark, noun = None, "twin"
        of_age = mark is not None or noun == "twin"
        if _sibling(noun) and of_age and not cues.other_sex(q, noun):
            return f"a sibling of the referent's age: {m.group(0)!r}"
    return None


def _sibling(noun: str) -> bool:
    """A singular word for a sibling: WordNet's hyponyms of "sibling" ("twin"), "brother" and "sister"."""
    return noun in {"brother", "sister"} or noun_senses.kind_of(noun, "sibling") is True


def doubt(q: cues.QuestionCues, text: str) -> str | None:
    """Why a reply with no mention is too weakly read to say NO (module docstring), or None."""
    return (
        the_others(q, text)[1]
        or renamed_kind(q, text)[1]
        or counted_broader(q, text)
        or untyped_person(q, text)
        or activity_associate(q, text)
        or counted_other_sense(q, text)
    )


def counted_other_sense(q: cues.QuestionCues, text: str) -> str | None:
    """Why several things of a narrower kind by a sense other than their word's first leave the mention
    open: "a pair of cranes ... the crane nearest the camera" for the bird (a crane is first a machine, then
    a bird). `counted_narrower` reads only first senses (WordNet orders senses by frequency in prose, not in
    a photo's description), so which sense the reply means no kind test can tell. Counted only
    (`_COUNTED_PHRASE`); a thing for a thing, as `_names_kind` reads a person word by any sense already."""
    asked = re.match(r"\s*(?:what|which)\s+(" + _WORD + r")", q.text)
    referents = set(q.referents) - {asked.group(1) if asked else ""}
    if not referents or cues.asks_about_person(q):
        return None
    for m in _COUNTED_PHRASE.finditer(text):
        noun = next((w for w in m.group(1).split() if cues.is_plural(w)), "")
        if not noun or noun in lx.PART_NOUNS or noun in cues.STOPWORDS:
            continue
        single = en.lemma(noun)
        if single in referents or cues.names_person(single):
            continue
        # the counted word is the reply's word for its subject ("the crane nearest the camera ...") or the
        # reply never names the referent; else the referent named apart from them tells them apart ("the
        # dog plays; there are two toys": a toy is also a small dog)
        named = re.search(_pattern(set(referents) | {cues.plural_of(r) for r in referents}), text)
        if named and not re.search(r"\bthe\s+(?:" + _WORD + r"\s+)?" + re.escape(single) + r"\b", text):
            continue
        if any(
            noun_senses.kind_of(single, r) is False and noun_senses.any_kind_of(single, r) for r in referents
        ):
            return f"{m.group(0)!r} may be of the asked kind by a sense other than its first"
    return None


# a person noun heading its phrase: after an article or a possessive, one modifier between at most ("her
# doubles partner", "a colleague"); not a role predicated of the subject ("she is a partner at a firm")
_ASSOCIATE_LED = re.compile(
    r"(?<!\bis )(?<!\bas )(?<!\bwas )\b(?:an?|the|his|her|their|its|my|your|our)\s+(?:("
    + _WORD
    + r")\s+)?("
    + _WORD
    + r")\b(?![-'])"
)


def activity_associate(q: cues.QuestionCues, text: str) -> str | None:
    """Why a person named as someone's associate in an activity leaves a question about a role open: a
    word one of whose WordNet senses is an associate ("a person who joins with others in some activity":
    "her partner", "his colleague", "a friend") shares some activity with someone, which may be the asked
    role ("the officer stands next to her partner": another officer; "the player and her doubles
    partner") or not (a spouse, a friend), which no kind test can tell. `response_cues.people_verdict`
    reads these as no person of the role's kind. Not for a referent named by age or sex alone (read there
    by relation), nor the referent's own word."""
    referents = cues.person_referents(q)
    if not referents or any(noun_senses.generic_person(r) for r in referents):
        return None
    for m in _ASSOCIATE_LED.finditer(text):
        for noun in filter(None, m.groups()):  # the head, or the modifier before a preposition
            single = cues._single(noun)
            if single in q.referents or not cues.is_relation(noun) or cues.is_plural(noun):
                continue
            if noun_senses.any_kind_of(single, "associate"):
                return f"{m.group(0)!r}: an associate in some activity, maybe the asked role"
    return None


# a determiner up to two words before a noun: "the second baseman", "a young paddleboarder"
_LEADS = re.compile(r"\b(?:the|an?|another|two|three|several)\s+(?:" + _WORD + r"\s+){0,2}$")


def untyped_person(q: cues.QuestionCues, text: str) -> str | None:
    """Why a person whose kind WordNet does not give leaves a question about a role open: a word read as a
    person by its form alone ("the second baseman", "a paddleboarder": an agent noun or a person noun
    head, `response_cues.names_person`) heading a noun phrase may or may not be of the asked role ("the
    player"), which no kind test can tell. Not the referent's own word, nor for a referent named by age or
    sex alone (people of any role may be "the man": `response_cues.people_verdict`)."""
    referents = cues.person_referents(q)
    if not referents or any(noun_senses.generic_person(r) for r in referents):
        return None
    for m in re.finditer(_WORD, text):
        noun = m.group(0)
        single = cues._single(noun)
        if (
            single in q.referents
            or noun in q.referents
            or noun in cues.STOPWORDS
            or noun_senses.senses(single)
        ):
            continue
        led = _LEADS.search(text[max(0, m.start() - 40) : m.start()])
        if led and cues.names_person(noun) and not cues.is_relation(noun):
            return f"{led.group(0) + noun!r}: a person of a kind WordNet does not give, maybe the asked one"
    return None


_AND_PERSON = r"\s+(?:an?|the|his|her|their|its)\s+"


def coordinated_people(q: cues.QuestionCues, text: str) -> str | None:
    """For a question about a person, the referent joined by "and" to another person ("a man and his
    brother are ...", "her sister and the girl"): two people, as G.3's "several people" counts. Not a
    thing or an animal ("the man and his dog"), nor an owner ("the girl and her father's car"), nor a person
    of another kind for a role ("the nurse and a patient": `response_cues.of_asked_kind`)."""
    if not cues.asks_about_person(q) or not q.referents:
        return None
    names = _pattern(set(q.referents) - {"person"} or set(q.referents))
    pairs = (
        r"\b(?:an?|the)\s+(?:"
        + _WORD
        + r"\s+)?"
        + names
        + r"\s+and"
        + _AND_PERSON
        + r"(?:("
        + _WORD
        + r")\s+)?("
        + _WORD
        + r")",
        r"\b(?:an?|the|his|her|their)\s+(?:("
        + _WORD
        + r")\s+)?("
        + _WORD
        + r")\s+and"
        + _AND_PERSON
        + r"(?:"
        + _WORD
        + r"\s+)?"
        + names,
    )
    for pattern in pairs:
        for m in re.finditer(pattern, text):
            # the head is the last word before "and" / the first noun after it: test both words
            others = [w for w in m.groups() if w]
            if any("'" not in w and _another_of_kind(q, w) and not cues.other_sex(q, w) for w in others):
                return f"two people joined: {m.group(0)!r}"
    return None


# the referent renamed by a narrower kind: "the dog in question is the spaniel", "the bird is a robin"
_RENAMED = (
    r"\bthe\s+{names}\s+(?:in question\s+|here\s+)?(?:is|appears to be|seems to be|looks like)\s+"
    r"(?:the|a|an)\s+(" + _WORD + r")(?:\s+(" + _WORD + r"))?"
)
_GROUPED = re.compile(
    r"\b(?:(?:a\s+)?(?:pair|couple|group|trio|handful)\s+of|two|three|four|several|many|other|some)\s+"
    r"(" + _WORD + r")(?:\s+(" + _WORD + r"))?"
)


def renamed_kind(q: cues.QuestionCues, text: str) -> tuple[str | None, str | None]:
    """(a mention, None) / (None, why unsure) / (None, None) for a reply that renames the referent by a
    narrower kind ("The dog in question is the spaniel"): more of that kind ("two other spaniels") are
    more of the referent; a group of another narrow kind ("a pair of retrievers") may be the same broad
    kind (G.3 counts a catcher as a second player), which no rule here can tell: unsure."""
    if not q.referents:
        return None, None
    m = re.search(_RENAMED.format(names=_pattern(set(q.referents))), text)
    if m is None:
        return None, None
    alias = _alias_head(m.group(1), m.group(2))
    if alias is None or alias in q.referents or cues.names_person(alias) != cues.asks_about_person(q):
        return None, None
    for g in _GROUPED.finditer(text, m.end()):
        # the counted noun is the first word, or the second after one modifier ("two other terriers")
        noun = g.group(2) if g.group(2) and not cues.is_plural(g.group(1)) else g.group(1)
        if not cues.is_plural(noun) or noun in lx.PART_NOUNS or noun in cues.PLACE_WORDS:
            continue
        if noun == cues.plural_of(alias):
            return f"more of the referent's narrower kind: {g.group(0)!r}", None
        # only a collective ("a pair of", "a group of") over another narrow kind is unsure: a bare count
        # ("two cushions") is as often of things
        # (people are no narrower kind of an animal or a thing, nor a thing of a person)
        people = cues.names_person(noun) != cues.asks_about_person(q)
        if " of " in g.group(0) and not people:
            return None, f"{g.group(0)!r} may be more of the referent's kind (it was renamed {alias!r})"
    return None, None


def _alias_head(first: str, second: str | None) -> str | None:
    """The noun of "the spaniel lying ...", "a small robin": the second word where it is a noun."""

    def noun_like(w: str | None) -> bool:
        return (
            w is not None
            and bool(w)
            and not w.endswith(("ing", "ed"))
            and w not in lx.PREPOSITIONS
            and w not in cues.STOPWORDS
            and w not in cues.VERBS
        )

    if noun_like(second):
        return second
    return first if noun_like(first) else None


_COUNTED_BARE = r"(?:two|three|four|both|pair|group|others|other one|rest)"
# "the taller of the two", "the older of the pair"; "bigger than the other", "darker than the others"
_COMPARED = re.compile(
    r"\bthe\s+(?:"
    + _WORD
    + r"(?:er|est)|more\s+"
    + _WORD
    + r"|most\s+"
    + _WORD
    + r")\s+of\s+the\s+"
    + _COUNTED_BARE
    + r"(?=\s*(?:[.,;:!?)]|$|and\b|but\b|is\b|has\b|was\b))"
    r"|\b(?:"
    + _WORD
    + r"er|more\s+"
    + _WORD
    + r"|less\s+"
    + _WORD
    + r")\s+than\s+(?:the\s+other(?:s|\s+one)?|another(?:\s+one)?)"
    r"(?=\s*(?:[.,;:!?)]|$|and\b|but\b|in\b|on\b|by\b))"
)


def compared_instance(q: cues.QuestionCues, text: str) -> str | None:
    """The referent compared with more of itself, left unnamed ("the dog is the smaller of the two",
    "the woman is taller than the other"): the comparison needs a second instance. The clause must be
    about the referent; a noun after the comparison ("than the other door", "of the two doors") is left
    to the plural and quantifier cues."""
    for m in _COMPARED.finditer(text):
        # predicated of the clause's subject ("the man is the older of the two"), not of its object ("the
        # man holds the bigger of the two": the two are what he holds)
        copula = re.search(
            r"\b(?:is|are|was|looks|appears|seems)\s+(?:to be\s+)?(?:" + _WORD + r"\s+)?$", text[: m.start()]
        )
        if copula and _subject_is_referent(q, text, m.start()):
            return f"compared with another instance: {m.group(0)!r}"
    return None


# what makes an indefinite a predicate, not a second individual: "the player is a batter", "plays as a
# pitcher", "the role of a catcher", "a pitcher or a catcher", "the player, a batter,"
_PREDICATE_BEFORE = re.compile(
    r"(?:\b(?:is|are|was|were|be|been|being|as|like|of|or|nor|either|than|become|becomes|seem|seems|appear|"
    r"appears|look|looks|play|plays|playing|called|named)\s+(?:" + _WORD + r"ly\s+)?|[,\u2013\u2014-]\s*)$"
)
_INDEFINITE = re.compile(r"\b(?:an?|one)\s+((?:" + _WORD + r"\s+){0,2}?)(" + _WORD + r")\b")


def narrower_person(q: cues.QuestionCues, text: str) -> str | None:
    """For a question about a person, a second individual of its kind under another word, introduced by
    "a" ("a catcher crouches behind him" for "the player": G.3's own example; "an opponent marks him"),
    as `response_cues.people_verdict` reads kinds. Not the referent renamed by a predicate ("the player
    is a batter", "his role is that of a pitcher", "a pitcher or a catcher", "the player, a batter,"), nor
    a narrower word for a referent named by age or sex alone, which is as often the referent's own role
    ("the woman, a nurse, ...", "the person ... a jogger on the path")."""
    if not cues.asks_about_person(q):
        return None
    referents = cues.person_referents(q)
    if any(noun_senses.generic_person(r) for r in referents):
        return None
    for m in _INDEFINITE.finditer(text):
        noun = m.group(2)
        if noun in referents or cues.is_plural(noun) or not cues.names_person(noun):
            continue
        before = text[max(0, m.start() - 40) : m.start()]
        if _PREDICATE_BEFORE.search(before) and not re.search(r"\bthere\s+(?:is|was)\s+$", before):
            continue
        # a clause of its own ("a catcher crouches behind him"), not a bare answer ("Final answer: a
        # pitcher", "2. A batter.")
        rest = re.split(r"[.;:!?\n]", text[m.end() :], maxsplit=1)[0].split()
        if not any(w in cues.VERBS or w in lx.AUX or w.endswith(("s", "ing", "ed")) for w in rest):
            continue
        if any(n in referents for n in m.group(1).split()):  # "a player catcher"? a modifier of the referent
            continue
        if cues.people_verdict(q, noun) == cues.SEVERAL:
            return f"another person of the asked kind: {m.group(0)!r}"
    return None


_KIND_COUNTS = (
    r"there\s+(?:are|were)|" + _COUNT + r"|(?:a|the)\s+(?:flock|group|pair|herd|pack|row|crowd|bunch|"
    r"couple|handful|number|lot)\s+of"
)
_COUNTED_KIND = re.compile(r"\b(?:" + _KIND_COUNTS + r")\s+(" + _WORD + r")(?:\s+(" + _WORD + r"))?\b(?!-)")


def counted_narrower(q: cues.QuestionCues, text: str) -> str | None:
    """Several things of a narrower kind than the referent, counted or definite ("many pigeons" for "the
    bird", "two taxis" for "the car", "the runners have crossed the line" for the athlete: `_names_kind`,
    which reads a person word by any of its senses), as G.3 counts a catcher as a second player. Only
    counted or definite: a bare plural of a narrower kind is as often a kind in general ("breeds such as
    Akitas or Huskies"). Not a referent the question asks to name ("What fruit is in the bowl?" asks
    which fruit: several apples are its answer, not more of its entity)."""
    asked = re.match(r"\s*(?:what|which)\s+(" + _WORD + r")", q.text)
    referents = set(q.referents) - {asked.group(1) if asked else ""}
    if not referents:
        return None
    narrow = dataclasses.replace(q, referents=frozenset(referents))
    for m in _DEFINITE_KIND.finditer(text):
        # the counted noun is the first word, or the second after one modifier ("many grey pigeons")
        noun = m.group(1) if cues.is_plural(m.group(1)) or not m.group(2) else m.group(2)
        if not cues.is_plural(noun) or noun in lx.PART_NOUNS:
            continue
        single = en.lemma(noun)
        # "the runners of the sled": a definite plural owned by a thing may be its parts, by another sense
        part = re.match(r"\s+of\b", text[m.end(1) if noun == m.group(1) else m.end(2) :])
        if part and m.group(0).startswith("the "):
            continue
        if single not in referents and _names_kind(narrow, single):
            return f"several of a narrower kind: {m.group(0)!r}"
    return None


# counted, or definite: "the runners have crossed the line" are runners in the image, where a bare plural
# may be a kind in general
_DEFINITE_KIND = re.compile(
    r"\b(?:the|" + _KIND_COUNTS + r")\s+(" + _WORD + r")(?:\s+(" + _WORD + r"))?\b(?![-'])"
)


# a counted phrase, up to three words: "there are two red-crowned cranes", "a pair of cranes" (not "the" nor
# "other": "among other toys" says nothing of how many)
_COUNTED_PHRASE = re.compile(
    r"\b(?:there\s+(?:are|were)|several|many|multiple|numerous|both|" + _NUMBERS + r"|\d+|(?:a|the)\s+"
    r"(?:flock|group|pair|herd|pack|row|crowd|bunch|couple|handful|number|lot)\s+of)\s+((?:"
    + _WORD
    + r"\s+){0,2}"
    + _WORD
    + r")\b(?![-'])"
)


def counted_broader(q: cues.QuestionCues, text: str) -> str | None:
    """Why several things of a near broader kind, counted, leave the mention open ("multiple aircraft are
    parked" for the plane, "several animals" for the dog, "two vehicles" for the car): the referent may be
    one of them or not, which the kind alone cannot tell. A noun whose plural is its singular ("aircraft")
    is plural after a count. Only a kind near the referent (noun_senses.near: "objects" and "things" say
    nothing of it), and not for a referent the question asks to name ("What animal ...?")."""
    asked = re.match(r"\s*(?:what|which)\s+(" + _WORD + r")", q.text)
    referents = set(q.referents) - {asked.group(1) if asked else ""}
    if not referents or cues.asks_about_person(q):
        return None
    for m in _COUNTED_KIND.finditer(text):
        first, second = m.group(1), m.group(2)
        noun = second if second and not cues.is_plural(first) and not _same_form(first) else first
        if noun in lx.PART_NOUNS or not (cues.is_plural(noun) or _same_form(noun)):
            continue
        single = cues._single(noun)
        broader = [r for r in referents if single != r and noun_senses.kind_of(r, single)]
        if any(noun_senses.near(r, single) for r in broader):
            return f"{m.group(0)!r} may or may not include the referent (a broader kind)"
    return None


def _same_form(noun: str) -> bool:
    """A noun whose plural is its singular ("aircraft", "sheep") that WordNet knows."""
    return cues.plural_of(noun) == noun and bool(noun_senses.senses(noun))


_PLACE_SAID = r"(?:visible|present|here|there|in (?:the |this )?(?:image|photo|picture|frame|scene|shot))"


def denied_several(q: cues.QuestionCues, text: str) -> str | None:
    """Where the reply says there is one referent and no more ("there's only one dog visible", "a single
    dog", "the only dog in the photo", "just one dog is present"), and counts none of its plural ("two
    dogs", "the other dogs"), the phrase that says so: its bare plural elsewhere ("Count the dogs - ...")
    names a step to take, not dogs in the image, as denied things are no mentions (racquet.judge:
    present_mentions). "Only one dog is eating" singles one out of several: no denial."""
    if not q.referents:
        return None
    names = _pattern(set(q.referents))
    plurals = {cues.plural_of(r) for r in q.referents} - set(q.referents)
    if plurals and re.search(r"\b" + _COUNT + r"\s+(?:" + _WORD + r"\s+)?" + _pattern(plurals), text):
        return None
    one = r"(?:only|just)\s+(?:one|a single)\s+(?:" + _WORD + r"\s+)?" + names
    denials = (
        r"\b(?:there(?:'s|\s+is|\s+was)|i\s+(?:can\s+)?see)\s+" + one,
        r"\b" + one + r"\s+(?:(?:is|was)\s+)?" + _PLACE_SAID,
        r"\b(?:a single|one single|the only|the lone|the sole)\s+(?:" + _WORD + r"\s+)?" + names,
    )
    for pattern in denials:
        m = re.search(pattern, text)
        if m:
            return m.group(0)
    return None


def _names_kind(q: cues.QuestionCues, single: str, broader: bool = False) -> bool:
    """Whether a noun (singular) names the asked entity's own kind by WordNet: its word, a synonym
    ("seller" for the vendor: noun_senses.same_thing), a narrower kind ("pigeon" for the bird), for a
    person a role one of whose senses is narrower ("runner" for the athlete: a runner is first a
    traveller on foot, then an athlete), and with `broader` a near broader kind ("skater" for the
    skateboarder: noun_senses.near). Never a word for people by age or sex alone for a role ("people" for
    the player: `response_cues.people_verdict` reads those), nor a person for a thing or a thing for a
    person."""
    for r in q.referents - {"person"}:
        if single == r:
            return True
        person = bool(cues.names_person(r))
        if cues.names_person(single) != person or (person and noun_senses.generic_person(single)):
            continue
        if noun_senses.same_thing(single, r) or noun_senses.kind_of(single, r):
            return True
        if person and noun_senses.any_kind_of(single, r):
            return True
        if broader and noun_senses.kind_of(r, single) and noun_senses.near(r, single):
            return True
    return False


# "other" before a plural, with one modifier between at most: "a couple of other skaters", "other vendors
# wait", "two other small dogs"
_OTHER_PLURAL = re.compile(r"\bother\s+(?:(" + _WORD + r")\s+)?(" + _WORD + r")\b(?![-'])")


def other_of_kind(q: cues.QuestionCues, text: str) -> str | None:
    """More of the referent's kind marked by "other": "other" says the referent is one of them, so
    "a couple of other skaters" for the skateboarder (a skateboarder is a skater: a near broader kind
    counts here), "other sellers" for the vendor (a synonym). Denied ("no other dogs") and generic ("like
    other dogs") others are blanked before (racquet.judge.present_mentions). Not "other people" for a
    role (people_verdict), nor "other cars" for the dog, nor "each other", nor a compound's first word
    ("other dog-walkers" are walkers)."""
    for m in _OTHER_PLURAL.finditer(text):
        first, second = m.group(1), m.group(2)
        noun = second if first and not cues.is_plural(first) else first or second
        if not cues.is_plural(noun) or noun in lx.PART_NOUNS:
            continue
        if _names_kind(q, cues._single(noun), broader=True):
            return f"others of the asked kind: {m.group(0)!r}"
    return None


# a distributive possessive: "a row of stalls, each with its own seller", "every table has its own waiter",
# "several stalls, each run by a different vendor"
_EACH_OWN = re.compile(
    r"\b(?:each|every)\b[^.;:!?\n]{0,40}?\b(?:(?:its|his|her|their)\s+own|an?\s+(?:different|separate))\s+(?:("
    + _WORD
    + r")\s+)?("
    + _WORD
    + r")\b(?![-'])"
)


def each_with_own(q: cues.QuestionCues, text: str) -> str | None:
    """The referent's kind given to each of several owners ("a row of stalls, each with its own seller",
    "every table has its own waiter", "stalls, each run by a different vendor"): one per owner, so several
    of them. Only the asked kind
    (`_names_kind`, no broader word): "each stall has its own awning" says nothing of vendors."""
    for m in _EACH_OWN.finditer(text):
        first, second = m.group(1), m.group(2)
        for noun in (second, first):
            if noun and not cues.is_plural(noun) and _names_kind(q, noun):
                return f"one for each of several: {m.group(0)!r}"
    return None


# a count written as a multiplier, as a log or a tally writes it: "robot x2", "2x robot", "dogs ×3"
_TIMES = r"[x\u00d7]\s?"


def counted_by_multiplier(q: cues.QuestionCues, text: str) -> str | None:
    """The referent counted by a multiplier above one, as a detector's log or a tally writes a count
    ("detected robot x2", "cup ×3", "2x dog"). Not "x1", nor a size ("a 2x4 plank"), nor a zoom ("3x
    zoom"): the multiplier must stand right by the referent's own word."""
    if not q.referents:
        return None
    names = _pattern(set(q.referents) | {cues.plural_of(r) for r in q.referents})
    after = re.search(names + r"\s*(?:\(\s*)?" + _TIMES + r"(?:[2-9]|[1-9]\d+)\b(?![x\u00d7.,]\d)", text)
    before = re.search(r"(?<![\w.])(?:[2-9]|[1-9]\d+)\s?[x\u00d7]\s+" + names, text)
    m = after or before
    return f"counted by a multiplier: {m.group(0)!r}" if m else None


# a belief the reply takes back: "At first glance I thought there were two horses ..., but", "I initially
# assumed two dogs; however", "It looked like two cups at first, but actually"
_BELIEF = re.compile(
    r"\b(?:(?:at first(?: glance| sight)?|initially|first),?\s+)?(?:i|it)\s+(?:first\s+|initially\s+)?"
    r"(?:thought|assumed|believed|guessed|took it|seemed|looked|appeared)\b[^.;!?\n]{0,120}?"
    r"(?=[,;]?\s*(?:but|however|though|yet|actually|in fact|on closer)\b)",
    re.I,
)

_EXISTENCE = re.compile(
    r"\bthere\s+(?:were|was|are|is|might be|could be)\b|\b(?:like|be)\s+" + _COUNT + r"\b|"
    r"\b(?:saw|counted|spotted|see|seeing)\b",
    re.I,
)


def retracted(q: cues.QuestionCues, text: str) -> str:
    """`text` with a belief in several referents the reply takes back blanked (offsets kept): "At first
    glance I thought there were two horses in front of the cart, but the second shape is only the first
    horse's shadow. So: one horse": the plural was a mistake, not a mention (G.3 asks whether a step says
    several exist). Only where the correction, in its own sentence or the next, counts one of the referent
    ("one horse", "only one", "a single horse"); a belief taken back without a count of one ("I thought
    there were two dogs, but there are three") is left as written."""
    if not q.referents:
        return text
    names = _pattern(set(q.referents))
    out = text
    for m in _BELIEF.finditer(text):
        rest = text[m.end() :]
        after = re.match(r"[^.!?\n]*[.!?]?[^.!?\n]*", rest)
        correction = after.group(0) if after else ""
        one = re.search(
            r"\b(?:only|just|exactly)\s+(?:one|a single)\b|\b(?:one|a single|the only|the lone)\s+(?:"
            + _WORD
            + r"\s+)?"
            + names,
            correction,
            re.I,
        )
        # a belief that several exist ("there were two", "looked like two", "I counted three"), not one
        # about what they do ("I thought the two horses were pulling, but only one is harnessed")
        if one and _EXISTENCE.search(m.group(0)):
            out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end() :]
    return out


# "two of them", "both of them", "several of those": a count over a pronoun for things named before
_COUNTED_PRONOUN = re.compile(r"\b(?:both|several|" + _NUMBERS + r")\s+of\s+(?:them|those|these)\b")


def counted_pronoun(q: cues.QuestionCues, text: str) -> str | None:
    """A count above one over a pronoun whose only antecedent is the referent ("A cat sits on the sofa; I
    can see two of them in total"): the pronoun counts the referent, as "the others" stands for more of
    it (`the_others` finds the antecedents the same way: the subjects and objects of the sentence so far
    and the one before). Not where another thing may be what is counted ("a cat by two cushions; two of
    them are red", "a cat with its toys; two of them are red": any other plural before it blocks)."""
    for m in _COUNTED_PRONOUN.finditer(text):
        before = _antecedent_span(text[: m.start()])
        singular = {cues._single(c) for c in _candidates(before)}
        # any other plural before may be what "them" counts, after a preposition too ("with its toys")
        plurals = {
            cues._single(w)
            for w in re.findall(_WORD, before)
            if cues.is_plural(w) and w not in cues.STOPWORDS and noun_senses.senses(cues._single(w))
        }
        if singular and singular <= set(q.referents) and plurals <= set(q.referents):
            return f"a count over the referent: {m.group(0)!r}"
    return None


# words after which a noun phrase is due: a determiner, a count, "other", a preposition ("next to the",
# "and another", "sits at a table with", "one of")
_OPENS_NOUN = (
    r"(?:"
    + "|".join(sorted(lx.PREPOSITIONS, key=len, reverse=True))
    + r"|the|an?|this|that|these|those|his|her|its|their|my|your|our|other|another|second|more|some|"
    r"several|many|multiple|numerous|various|few|both|all|each|every|" + _NUMBERS + r"|\d+)"
)
_CUT_IN_NOUN = re.compile(r"\b" + _OPENS_NOUN + r"[\s*_`#]*$", re.I)


def cut_in_noun_phrase(response: str) -> bool:
    """Whether a reply cut off mid-sentence stops where a noun phrase is due, after a determiner, a count
    or a preposition ("standing beside the", "and another", "sits at a table with", "one of"): the missing
    noun may be a second referent, so what was written cannot say NO. A cut after a verb, a conjunction
    or a colon ("he is", "a yellow raincoat and", "Step 3:") leaves the written steps to say it."""
    return bool(_CUT_IN_NOUN.search(response))
