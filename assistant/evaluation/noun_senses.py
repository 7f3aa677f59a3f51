"""What a noun names by its most frequent sense in WordNet 3.0: a person, a group of people, a person by
relation to another, or a group. The rule judges ask this of reply words ("her sister", "staff in black
aprons", "two burgers").

The lists are derived once from WordNet by scripts/wordnet_lists.py and committed in
assistant/evaluation/data/wordnet (with WordNet's license); this module reads only them, on first use, so
a judge needs no WordNet installed. Why the first sense and not any: a reply's word mostly means what it
most often means ("fans" blowing air, "a runner" of a drawer, "staff" the stick are rare), and any
sense makes "sets", "bands" and "speakers" people (that script's docstring lists each filter).

Each lookup takes the word as written and its singular (the caller's inflection: assistant.words), so a
plural that WordNet lists as a word of its own wins over its singular ("boxers" are shorts).
"""

from __future__ import annotations

import functools
from importlib import resources


@functools.cache
def _words(name: str) -> frozenset[str]:
    folder = resources.files("assistant.evaluation").joinpath("data", "wordnet")
    text = folder.joinpath(f"{name}.txt").read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def person(word: str, single: str, any_sense: bool = False) -> bool | None:
    """True when WordNet's first sense of the word is a person ("nurse", "sisters"), False when WordNet
    knows it as something else and it looks like an agent noun ("burgers", "sweater", "boxers"), None when
    WordNet cannot say ("paddleboarder", unknown; "stroller", whose senses are untagged: the caller
    guesses by morphology). A word more often an adjective ("major", "native") is a person only in the
    plural ("the natives"). With `any_sense`, for a context that already frames people ("a crowd of
    commuters"), a later person sense will do: "commuters" (first the train), "fans"."""
    for w in dict.fromkeys((word, single)):
        if any_sense and w in _words("person_sense"):
            return True
        if w in _words("not_person"):
            return False
        if w in _words("person"):
            return word != single or w not in _words("adjectival")
    return None


def relation(word: str, single: str) -> bool:
    """A person named by relation to another ("her sister", "his friend", "a teammate", "cousins"): kin,
    associates, friends, neighbours, partners, opponents."""
    return word in _words("relation") or single in _words("relation")


def people_group(word: str, single: str) -> bool:
    """A word for several people at once ("staff", "a couple", "the crew", "her family", "a crowd",
    "a string quartet"); not a body that is a place ("school", "court") nor a word that also names a thing
    or a colour ("band", "navy")."""
    return word in _words("people_group") or single in _words("people_group")


def group(word: str) -> bool:
    """A word whose first sense is a group of anything ("pair", "row", "cluster", "herd", "fleet")."""
    return word in _words("group")


def thing_homonym(word: str, single: str) -> bool:
    """A person word that also names a thing one can see or hold by a later sense ("runners" of a
    drawer, "speakers" on a shelf, "guards" of a machine, "boxers" the dogs)."""
    return word in _words("thing_homonym") or single in _words("thing_homonym")


@functools.cache
def _table(name: str) -> dict[str, tuple[str, ...]]:
    folder = resources.files("assistant.evaluation").joinpath("data", "wordnet")
    rows = folder.joinpath(f"{name}.tsv").read_text("utf-8").splitlines()
    return {key: tuple(value.split()) for key, _, value in (r.partition("\t") for r in rows if r[:1] != "#")}


def senses(word: str) -> tuple[str, ...]:
    """The noun's common senses, most frequent first (synset numbers); () for a word WordNet lacks."""
    return _table("senses").get(word, ())


def hypernyms(synset: str) -> tuple[str, ...]:
    """The synset's direct hypernyms (synset numbers); () at the top."""
    return _table("hypernyms").get(synset, ())


@functools.cache
def ancestors(synset: str) -> frozenset[str]:
    """The synset and all the synsets above it (cached: the judges ask it of the same few senses for every
    reply)."""
    seen: set[str] = set()
    todo = [synset]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(hypernyms(s))
    return frozenset(seen)


def kind_of(word: str, kind: str) -> bool | None:
    """Whether the word's first common sense is the kind's first common sense or one of its hyponyms
    ("catcher" is a player, "pigeons" birds, "goalkeeper" a player; "spectator" is no player, "children"
    no women). Both words singular. None when WordNet lacks either word."""
    mine, theirs = senses(word), senses(kind)
    if not mine or not theirs:
        return None
    return theirs[0] in ancestors(mine[0])


def any_kind_of(word: str, kind: str, any_kind_sense: bool = False) -> bool | None:
    """Whether any of the word's common senses is the kind's first common sense (any of its senses, with
    `any_kind_sense`) or one of its hyponyms: for a word whose frame already says what it is ("a pair of
    trainers" are worn), where its first sense may be another ("trainer": first a person). None when
    WordNet lacks either word."""
    mine, theirs = senses(word), senses(kind)
    if not mine or not theirs:
        return None
    kinds = set(theirs if any_kind_sense else theirs[:1])
    return any(kinds & ancestors(s) for s in mine)


def same_thing(word: str, reference: str) -> bool:
    """Whether one of the word's senses is the reference's first common sense: a synonym as the reference
    is most often meant ("fiddle" for "violin", "bike" for "bicycle"). Both singular."""
    theirs = senses(reference)
    return bool(theirs) and theirs[0] in senses(word)


# a person by age or by sex alone: "person", the classes right under it by age ("adult", "juvenile") and by
# sex ("male person", "female person": the senses of "male" and "female" under "person", not the animals),
# and the nouns a reply uses for people by both ("man", "woman", "boy", "girl", "child")
_BY_AGE = ("adult", "juvenile")
_BY_SEX = ("male", "female")
_BY_BOTH = ("man", "woman", "boy", "girl", "child")


@functools.cache
def _person_sense() -> str:
    return senses("person")[0]


@functools.cache
def _by_sex() -> frozenset[str]:
    """The generic classes a narrower generic person sits under: the sexes and the nouns by age and sex
    ("lady" under woman, "toddler" under child); not "adult" or "juvenile" alone, under which WordNet
    also puts roles ("professional", "teacher" under it; "schoolchild")."""
    top = _person_sense()
    sexes = {s for w in _BY_SEX for s in senses(w) if top in _table("hypernyms").get(s, ())}
    return frozenset(sexes | {senses(w)[0] for w in _BY_BOTH})


@functools.cache
def _generic_senses() -> frozenset[str]:
    return _by_sex() | {_person_sense()} | {senses(w)[0] for w in _BY_AGE}


def generic_person(word: str) -> bool:
    """Whether the word's first common sense names a person by nothing but age or sex: "person",
    "individual", "adult", "man", "woman", "girl", "boy", "child", "kid", or a sense whose every hypernym
    is a sex or such a noun ("lady", "guy", "gentleman", "toddler"); not a role ("player", "teacher":
    an educator, though WordNet puts educators under "adult"; "waitress": under "waiter"), nor kin
    ("mother": under "parent"), nor "baby" (WordNet's first baby is an offspring). Singular."""
    mine = senses(word)
    if not mine:
        return False
    above = _table("hypernyms").get(mine[0], ())
    return mine[0] in _generic_senses() or (bool(above) and all(h in _by_sex() for h in above))


def age_and_sex(word: str) -> tuple[frozenset[str], frozenset[str]]:
    """The age classes ("adult", "juvenile") and sexes ("male person", "female person") above the word's
    first common sense: "man" adult and male, "boy" male (WordNet says no age), "children" juvenile,
    "girl" adult and female (WordNet's girl is a young woman), "cousin" neither. Two generic people who
    differ on one of them ("children" and "the woman", "men" and "the girl") are not of one kind. Singular."""
    mine = senses(word)
    if not mine:
        return frozenset(), frozenset()
    top, above = _person_sense(), ancestors(mine[0])
    ages = {s for w in _BY_AGE for s in senses(w)[:1]}
    sexes = {s for w in _BY_SEX for s in senses(w) if top in _table("hypernyms").get(s, ())}
    return frozenset(above & ages), frozenset(above & sexes)


def multiple_birth(word: str) -> bool:
    """A sibling born at one birth with others ("twin", "triplet", "quadruplet"): a sense right under
    WordNet's "sibling" that no sex narrows ("brother" sits under "male sibling"). Singular."""
    sibling = senses("sibling")[:1]
    return bool(sibling) and any(sibling[0] in hypernyms(s) for s in senses(word))


def young(word: str) -> bool:
    """A person named by youth: a sense under "juvenile" ("child", "toddler") or under the offspring
    sense of "child" that WordNet's first "baby" sits under. Singular."""
    marks = [s for k in ("juvenile", "offspring") for s in senses(k)[:1]]
    return any(m in ancestors(s) for s in senses(word) for m in marks)


def young_of(word: str, kind: str) -> bool:
    """Whether the word names the young of the kind or of a narrower one ("calf" of the elephant, "puppy"
    of the dog, "kitten" of the cat): the animals its WordNet glosses name (young_of.tsv; WordNet files
    every young under "young mammal", not under its parent). Not of a broader one ("calf" names "mammal"
    in its gloss: no calf is a dog). Both singular."""
    parents = _table("young_of").get(word, ())
    return any(p == kind or kind_of(p, kind) is True for p in parents)


def peer(word: str, of: str) -> bool:
    """A person of the referent's own standing by relation, not by name: someone equal in a group with it
    ("teammate", "colleague", "co-worker": WordNet's "peer" and its hyponyms), or, where the referent
    competes (a contestant: "player", "runner"), another contestant ("an opponent", "the rivals",
    "competitors"), who takes part in the same contest. A peer in a group must be named by that relation
    (`relation`): "groom", a participant that WordNet files under "peer", is no second bride. A contestant
    of another role is a peer only of a referent named as a contestant and no more ("a striker" for the
    player; not for the goalkeeper, a role of its own, where only "an opponent" or "a rival" is). Both
    singular."""
    related = relation(word, word)
    contest = kind_of(word, "contestant") is True and kind_of(of, "contestant") is True
    mine = senses(of)
    broad = bool(mine) and senses("contestant")[0] in hypernyms(mine[0])  # "player", "competitor"
    return (related and kind_of(word, "peer") is True) or (contest and (related or broad))


def _within(synset: str, steps: int) -> dict[str, int]:
    """The synset and its hypernyms up to `steps` links up, each with its distance."""
    found = {synset: 0}
    layer = [synset]
    for step in range(1, steps + 1):
        layer = [h for s in layer for h in _table("hypernyms").get(s, ()) if h not in found]
        found.update(dict.fromkeys(layer, step))
    return found


def near(word: str, other: str) -> bool:
    """Whether some sense of the word and some sense of the other are at most two links apart through a
    common hypernym: siblings ("monitor" and "screen", both displays), a parent and its child, or one
    synset. A reply may then use the word for the other though their first senses are unrelated (WordNet
    orders senses by frequency in prose, not in a photo's description). Both singular."""
    theirs = [_within(s, 2) for s in senses(other)]
    for mine in (_within(s, 2) for s in senses(word)):
        if any(mine[c] + up[c] <= 2 for up in theirs for c in mine.keys() & up.keys()):
            return True
    return False


def antonyms(adjective: str) -> frozenset[str]:
    """The words WordNet gives as the direct antonym of the adjective's first sense (antonyms.tsv: "open"
    -> closed, shut, unopen; "small" -> big, large); empty for one with none. A reply that calls its
    subject by one of them says the asked state does not hold ("The door is shut" for "Is the door
    open?") or names another referent than the hint's ("the big dog" for "the small dog")."""
    return frozenset(_table("antonyms").get(adjective, ()))
