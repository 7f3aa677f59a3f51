"""Derive the rule judge's person and group word lists from WordNet 3.0 (assistant/evaluation/data/wordnet).

    python scripts/wordnet_lists.py [--wordnet /usr/share/wordnet] [--out assistant/evaluation/data/wordnet]
    python scripts/wordnet_lists.py --check     exit 1 when the committed lists differ from a fresh derivation

WordNet 3.0 comes with Debian (`apt-get install wordnet-base`: /usr/share/wordnet). Its database is plain
text (wndb(5)): index.noun lists each noun's senses, most frequent first (ordered by the SemCor tag counts
in cntlist.rev); data.noun gives each sense (synset) its lexicographer file (lexnames(5): 14 noun.group,
18 noun.person) and its hypernyms. The judges read only the derived lists (assistant.evaluation.
noun_senses), never WordNet, so a checkout without WordNet judges exactly as one with it.

A word's sense here is its *first common* sense: the first sense in index.noun that is not a proper name
(a synset where WordNet writes the word capitalised, "Burger" the Chief Justice, or that is an instance:
"@i"). First sense, not any sense, because a reply's words mostly mean what they most often mean: with any
sense "burgers", "fans", "speakers", "sets", "bands" and "schools" would all be people or groups of people
(measured in docs/judges.md, round 44).

Lists written (one lowercase word a line, after a comment header):
- person.txt: words whose first common sense is a person (noun.person): "nurse", "sister", "chef",
  "runner", "goalkeeper", "toddler"; not "burger" (food), "fan" (a device). Left out, as unknown, the
  words with both a person and a thing sense and no sense tagged in SemCor: their senses' order is
  then no frequency ("monitor", "stroller", "diner", "trailer", "server", "commuter"), and the judge's
  morphology and its listed non-agents decide them as before (they are in no list here).
- person_sense.txt: the words not in person.txt with a person sense all the same ("commuter": first the
  train, "fan": first the device, "monitor"): where the context already frames people ("a crowd of
  commuters", "a group of fans") any sense will do.
- relation.txt: the person words whose first common sense names someone by relation to another: kin
  (hyponyms of "relative": "sister", "father", "cousin"), associates ("colleague", "teammate"),
  "friend", "classmate", "companion", "neighbor", "partner", "opponent", "rival"; not "baby", "member",
  "bride", "champion" (_RELATION_ROOTS, _RELATION_EXACT, _NOT_RELATION).
- people_group.txt: words whose first common sense is a group of people (noun.group under "people",
  "social group" or "gathering"): "staff", "couple", "family", "crowd", "audience", "crew", "team";
  not the institutions, businesses, governments, courts, boards and communities under "social group"
  that are places or bodies in a reply ("school", "company", "court", "board", "village": the subtrees
  in _NOT_GATHERED), nor a plural listed as a group of its own whose singular is first a thing or an act
  ("strings": a string section, "beats", "reserves"; this holds for group.txt too), nor a word that
  also names a thing or a colour, unless its group sense is by far the more frequent in SemCor
  ("staff" stays; "cast", "outfit", "battery", "navy", "band" go), nor a word more often an adjective
  ("elderly", "rich", "few"); and the ensembles: count words whose other senses are only a group of
  people ("duo", "trio", "quartet").
- group.txt: words whose first common sense is any group (noun.group): "pair", "row", "cluster", "set",
  "herd", "flock", "fleet": the heads of "a pair of dogs", "a row of cars".
- not_person.txt: -er / -or / -ist / -ian words WordNet knows as something other than a person
  ("burger", "sweater", "ladder", "monitor"): the judge's agent-noun guess (a fallback for words WordNet
  does not know, "paddleboarder") must not take them; and plurals WordNet lists as words of their own
  that first name an artifact, a body part or a food, though their singular names a person ("boxers":
  shorts, "bleachers", "fries"; not "twins", whose first sense is a crystal).
- thing_homonym.txt: person words that also name a thing one can see or hold, by a later sense not
  far rarer in SemCor (as for groups: _GROUP_DOMINANCE) ("runner": of a drawer, "speaker": a
  loudspeaker, "guard": of a machine; not "man", whose chess piece is never tagged). A rule that reads
  several people from such a plural alone may abstain where nothing counts it as people.
- adjectival.txt: person words used more often as adjectives than as nouns in SemCor (cntlist.rev):
  "major", "white", "native", "senior". Alone ("the major part") they are no person; plural ("natives")
  they are.

And two tables, for "is this word a kind of that one" (a "catcher" is a player, a "pigeon" a bird) and
"do these words name the same thing" ("fiddle" and "violin", "bike" and "bicycle"):
- senses.tsv: each one-word noun (hyphens allowed), a tab, its common senses (not proper names nor
  instances) most frequent first, as synset numbers (base 36: a synset's rank in data.noun).
- hypernyms.tsv: each synset number, a tab, its hypernyms' numbers (instance hypernyms included); a
  synset with none (the top, "entity") is left out.

And one table for "does this word say the opposite of that one" (read from data.adj, the adjectives):
- antonyms.tsv: each one-word adjective whose first sense (index.adj, most frequent first) is a head
  synset with a direct antonym, a tab, the words of the antonym's synset ("open": "closed shut unopen";
  "awake": "asleep"; "small" and "little": "big large"; "seated": "standing"). Only head synsets and
  their direct antonyms: a satellite's antonym is indirect ("drowsy" is similar to "asleep", but a
  drowsy cat is still awake). Only the first sense: a later sense's opposite is another property that
  may hold together with the asked one (a "dry" wine is no "sweet" one, but a dry cake may be sweet).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assistant" / "evaluation" / "data" / "wordnet"
WORDNET = Path("/usr/share/wordnet")

ANIMAL, ARTIFACT, BODY, FOOD, GROUP, PERSON = 5, 6, 8, 13, 14, 18  # lexnames(5)
# synsets by offset in WordNet 3.0's data.noun
_PEOPLE = "07942152"  # people: (plural) any group of human beings collectively
_SOCIAL_GROUP = "07950920"  # social group: people sharing some social relation
_GATHERING = "07975026"  # gathering, assemblage: a group of persons together in one place
_YOUNG = "01321579"  # young, offspring: any immature animal
# relations: a person named by relation to another ("her sister", "his friend", "a teammate"). Each root
# counts with all its hyponyms, less the subtrees under _NOT_RELATION, which name a person alone ("a
# baby", "a member", "the bride"); peer and rival count only as themselves (their hyponyms "successor",
# "champion", "finalist" need nobody else).
_RELATION_ROOTS = {
    "10235549",  # relative, relation: kin (sister, father, cousin, twin, wife)
    "09816771",  # associate (colleague, co-worker, teammate)
    "10112591",  # friend
    "09763784",  # acquaintance, friend (schoolmate, classmate)
    "09945905",  # companion, comrade, fellow, familiar, associate
    "10352299",  # neighbor, neighbour
    "10640620",  # spouse, partner, married person
    "09935434",  # collaborator, cooperator, partner, pardner
    "09773245",  # adversary, antagonist, opponent, opposer, resister
}
_RELATION_EXACT = {
    "09626238",  # peer, equal, match, compeer
    "10379620",  # opposition, opponent, opposite
    "10533013",  # rival, challenger, competitor, competition, contender
}
_NOT_RELATION = {
    "09827683",  # baby, babe, infant (under "child", an offspring)
    "10356066",  # newlywed, honeymooner
    "10307234",  # member, fellow member
    "10401829",  # participant
}
# bodies under "social group" that a reply names as a place, a firm or an abstraction, not as people
# there: "in front of the school", "the company logo", "a political party", "the government"
_NOT_GATHERED = {
    "08053576",  # institution, establishment (school, church, bank, company, hospital)
    "08056231",  # enterprise (business, firm, agency)
    "08337324",  # agency, bureau, office (government agencies)
    "08050385",  # polity (government, regime)
    "08359949",  # political unit (state, nation)
    "08256968",  # party, political party
    "08163792",  # assembly (court, council, congress, senate): a body that sits, not people seen
    "08077292",  # administrative unit (board, committee, branch, department, division)
    "08223802",  # community (village, hamlet, town): a place in a reply ("through the village")
    "08307589",  # meeting (conference, seminar): an event in a reply ("in a meeting")
    "08252211",  # social gathering (party, reunion, housewarming): an event
    "08358332",  # rally: an event
    "07965085",  # body (college, profession, clergy, settlement): an institution or a place in a reply
}
# lexicographer files of things one can see or hold (animal, artifact, body, food, location, object,
# plant, substance): a group word that also names one of these ("her outfit", "a battery") is read as
# that thing in a reply unless its group sense is far the more frequent one (_GROUP_DOMINANCE); one
# that also names a colour or another attribute (noun.attribute: "navy", "grey") or a food ("cream")
# always is: replies describe colours and food all the time
_CONCRETE = {5, 6, 8, 13, 15, 17, 20, 27}
_ATTRIBUTE = 7
# the group (or person) sense tagged at least this many times as often as all the concrete senses
# together: "staff" (17 personnel : 2 rod) stays a group; "battery" (21 : 9), "board" (28 : 22),
# "band" (12 : 3) do not
_GROUP_DOMINANCE = 5
_AGENT_ENDINGS = ("er", "or", "ist", "ian")
QUANTITY = 23  # noun.quantity: "quartet" is first the number four, never that in a picture


class WordNet:
    """The parts of WordNet 3.0's noun database the lists need, read from its wndb(5) files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lexfile: dict[str, int] = {}
        self.words: dict[str, list[str]] = {}
        self.lex_ids: dict[str, list[int]] = {}
        self.hypernyms: dict[str, list[str]] = {}
        self.instance: set[str] = set()
        self.gloss: dict[str, str] = {}
        for line in (folder / "data.noun").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):  # the license header
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            self.gloss[fields[0]] = gloss.partition('"')[0].strip()
            offset, n_words = fields[0], int(fields[3], 16)
            self.lexfile[offset] = int(fields[1])
            self.words[offset] = [fields[4 + 2 * i] for i in range(n_words)]
            k = 4 + 2 * n_words
            pointers = [fields[k + 1 + 4 * i : k + 5 + 4 * i] for i in range(int(fields[k]))]
            self.hypernyms[offset] = [o for sym, o, pos, _ in pointers if sym in ("@", "@i") and pos == "n"]
            self.lex_ids[offset] = [int(fields[5 + 2 * i], 16) for i in range(n_words)]
            if any(sym == "@i" for sym, *_ in pointers):
                self.instance.add(offset)
        self.senses: dict[str, list[str]] = {}
        self.untagged: set[str] = set()  # no sense tagged in SemCor: the order of its senses is no frequency
        for line in (folder / "index.noun").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            fields = line.split()
            n_senses = int(fields[2])
            self.senses[fields[0]] = fields[-n_senses:]
            if fields[-n_senses - 1] == "0":
                self.untagged.add(fields[0])
        # SemCor tag counts by lemma and part of speech (1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite)
        self.tagged: dict[tuple[str, int], int] = collections.Counter()
        self.sense_tags: dict[str, int] = {}
        for line in (folder / "cntlist.rev").read_text(encoding="latin-1").splitlines():
            key, _, count = line.split()
            lemma, _, rest = key.partition("%")
            self.tagged[lemma, int(rest.split(":")[0])] += int(count)
            self.sense_tags[key] = int(count)

    def first_common(self, lemma: str) -> str | None:
        """The lemma's most frequent sense that is not a proper name (capitalised) nor an instance."""
        return next((o for o in self.senses.get(lemma, []) if _common(self, lemma, o)), None)

    def tags(self, lemma: str, offset: str) -> int:
        """How often SemCor tags the lemma in this sense (its sense key: lemma%1:lexfile:lex_id::)."""
        ids = [i for w, i in zip(self.words[offset], self.lex_ids[offset], strict=True) if w.lower() == lemma]
        keys = (f"{lemma}%1:{self.lexfile[offset]:02d}:{i:02d}::" for i in ids)
        return sum(self.sense_tags.get(k, 0) for k in keys)

    def concrete_homonym(self, lemma: str, first: str) -> bool:
        """The lemma also names an attribute (a colour) or a food, or a thing (_CONCRETE) while its first
        sense is not far the more frequent (_GROUP_DOMINANCE)."""
        if any(self.lexfile[o] in (_ATTRIBUTE, FOOD) for o in self.senses[lemma]):
            return True
        concrete = [o for o in self.senses[lemma] if self.lexfile[o] in _CONCRETE]
        together = sum(self.tags(lemma, o) for o in concrete)
        first_tags = self.tags(lemma, first)
        return bool(concrete) and not (first_tags > together and first_tags >= _GROUP_DOMINANCE * together)

    def closure(self, offset: str) -> set[str]:
        """The synset and all its hypernyms (instance hypernyms included)."""
        seen: set[str] = set()
        todo = [offset]
        while todo:
            o = todo.pop()
            if o not in seen:
                seen.add(o)
                todo.extend(self.hypernyms[o])
        return seen

    def adjectival(self, lemma: str) -> bool:
        """More often tagged as an adjective than as a noun in SemCor."""
        return self.tagged[lemma, 3] + self.tagged[lemma, 5] > self.tagged[lemma, 1]


def derive(wn: WordNet) -> dict[str, list[str]]:
    """Each list's words, sorted (module docstring)."""
    lists: dict[str, set[str]] = {
        k: set()
        for k in ("person", "person_sense", "relation", "people_group", "group", "not_person", "adjectival")
        + ("thing_homonym",)
    }
    for lemma in wn.senses:
        if "_" in lemma or not lemma.replace("-", "").isalpha():
            continue  # one word (hyphens allowed: "co-worker"), the only form a reply's token can have
        first = wn.first_common(lemma)
        if first is None:
            continue
        lexfile = wn.lexfile[first]
        things = any(wn.lexfile[o] in _CONCRETE for o in wn.senses[lemma])
        someone = any(wn.lexfile[o] == PERSON and _common(wn, lemma, o) for o in wn.senses[lemma])
        if someone and lexfile != PERSON or someone and things and lemma in wn.untagged:
            lists["person_sense"].add(lemma)
        if things and someone and lemma in wn.untagged:
            continue  # "monitor", "stroller", "commuter": which comes first is no frequency
        if lexfile == PERSON:
            lists["person"].add(lemma)
            above = wn.closure(first)
            if first in _RELATION_EXACT or (above & _RELATION_ROOTS and not above & _NOT_RELATION):
                lists["relation"].add(lemma)
            if wn.adjectival(lemma):
                lists["adjectival"].add(lemma)
            if wn.concrete_homonym(lemma, first):
                lists["thing_homonym"].add(lemma)
        elif lemma.endswith(_AGENT_ENDINGS):
            lists["not_person"].add(lemma)
        if lexfile == GROUP:
            lists["group"].add(lemma)
            homonym = wn.concrete_homonym(lemma, first) or wn.adjectival(lemma)
            if _people_group(wn, first) and not homonym:
                lists["people_group"].add(lemma)
        elif lexfile == QUANTITY and _ensemble(wn, lemma):
            lists["people_group"].add(lemma)
    # a plural that WordNet lists as a word of its own, meaning a thing: "boxers" (shorts), "bleachers"
    for lemma in wn.senses:
        first = wn.first_common(lemma)
        singular = _singular(lemma, lists["person"])
        thing = first is not None and wn.lexfile[first] in (ARTIFACT, BODY, FOOD)
        if thing and lemma.endswith("s") and singular in lists["person"]:
            lists["not_person"].add(lemma)
    # and the other way: a plural WordNet lists as a group of its own whose singular is first a thing or an
    # act ("strings" a string section: a reply's "strings" are a racket's or a guitar's; "beats",
    # "reserves"); a reply's -s word is the singular's plural far more often than that group
    for name in ("people_group", "group"):
        for lemma in list(lists[name]):
            singular = _singular(lemma, set(wn.senses))
            first = wn.first_common(singular) if lemma.endswith("s") and singular != lemma else None
            if first is not None and wn.lexfile[first] not in (GROUP, PERSON):
                lists[name].discard(lemma)
    return {k: sorted(v) for k, v in lists.items()}


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def derive_tables(wn: WordNet) -> dict[str, list[str]]:
    """senses.tsv and hypernyms.tsv, as lines (module docstring)."""
    number = {o: _base36(i) for i, o in enumerate(sorted(wn.lexfile))}
    senses = []
    for lemma in sorted(wn.senses):
        if "_" in lemma or not lemma.replace("-", "").isalpha():
            continue
        common = [number[o] for o in wn.senses[lemma] if _common(wn, lemma, o)]
        if common:
            senses.append(f"{lemma}\t{' '.join(common)}")
    hypernyms = [
        f"{number[o]}\t{' '.join(number[h] for h in wn.hypernyms[o])}"
        for o in sorted(wn.lexfile)
        if wn.hypernyms[o]
    ]
    return {
        "senses": senses,
        "hypernyms": hypernyms,
        "young_of": _young_of(wn),
        "antonyms": _antonyms(wn.folder),
    }


def _antonyms(folder: Path) -> list[str]:
    """antonyms.tsv, as lines (module docstring): data.adj's antonym pointers ("!") between head synsets
    ("a"), each word of the source synset given all the one-word words of the target synset."""
    words: dict[str, list[str]] = {}
    heads: dict[str, list[str]] = {}
    for line in (folder / "data.adj").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue
        fields = line.partition(" | ")[0].split()
        offset, n_words = fields[0], int(fields[3], 16)
        words[offset] = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(n_words)]
        k = 4 + 2 * n_words
        pointers = [fields[k + 1 + 4 * i : k + 5 + 4 * i] for i in range(int(fields[k]))]
        if fields[2] == "a":
            heads[offset] = [o for sym, o, pos, _ in pointers if sym == "!" and pos == "a"]
    lines = []
    for line in (folder / "index.adj").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue
        fields = line.split()
        lemma, first = fields[0], fields[-int(fields[2])]
        opposite = {w for t in heads.get(first, []) for w in words[t] if w.isalpha() and w != lemma}
        if lemma.isalpha() and opposite:
            lines.append(f"{lemma}\t{' '.join(sorted(opposite))}")
    return lines


def _young_of(wn: WordNet) -> list[str]:
    """young_of.tsv: each word whose first common sense is an animal's young (under "young, offspring":
    "calf", "puppy", "kitten", "foal"), a tab, the animals its young senses' glosses name ("young of
    domestic cattle", "young of various large placental mammals e.g. whale or giraffe or elephant"): the
    gloss words, singular, whose first common sense is an animal. WordNet files every young under "young
    mammal" or "young bird", never under its parent's kind, so only the gloss says whose young it is.
    A word first of another sense ("kid": a child, "cub": a novice) is left out: a reply means that one."""
    rows = []
    for lemma in sorted(wn.senses):
        if "_" in lemma or not lemma.replace("-", "").isalpha():
            continue
        first = wn.first_common(lemma)
        if first is None or _YOUNG not in wn.closure(first):
            continue
        parents: set[str] = set()
        for offset in wn.senses[lemma]:
            if not _common(wn, lemma, offset) or _YOUNG not in wn.closure(offset):
                continue
            for token in re.findall(r"[a-z]+", wn.gloss[offset].lower()):
                word = _singular(token, set(wn.senses)) if token.endswith("s") else token
                animal = wn.first_common(word) if word in wn.senses else None
                if word not in (lemma, "young") and animal is not None and wn.lexfile[animal] == ANIMAL:
                    parents.add(word)
        if parents:
            rows.append(f"{lemma}\t{' '.join(sorted(parents))}")
    return rows


def _common(wn: WordNet, lemma: str, offset: str) -> bool:
    written = [w for w in wn.words[offset] if w.lower() == lemma]
    return offset not in wn.instance and any(w == w.lower() for w in written)


def _singular(plural: str, nouns: set[str]) -> str:
    """The singular of an -s plural among `nouns`: "fries" "fry", "boxes" "box", "boxers" "boxer"."""
    for cut, add in (("ies", "y"), ("es", ""), ("s", "")):
        if plural.endswith(cut) and plural[: -len(cut)] + add in nouns:
            return plural[: -len(cut)] + add
    return plural[:-1]


def _people_group(wn: WordNet, offset: str) -> bool:
    above = wn.closure(offset)
    return bool(above & {_PEOPLE, _SOCIAL_GROUP, _GATHERING}) and not above & _NOT_GATHERED


def _ensemble(wn: WordNet, lemma: str) -> bool:
    """A count word that is otherwise only a group of people ("duo", "trio", "quartet": first the number,
    then the performers), with no sense one can see or hold, and no person or colour sense."""
    senses = wn.senses[lemma]
    if any(wn.lexfile[o] in _CONCRETE | {_ATTRIBUTE, PERSON} for o in senses):
        return False
    return any(wn.lexfile[o] == GROUP and _people_group(wn, o) for o in senses)


HEADER = (
    "# Derived from WordNet 3.0 (Princeton University; license: LICENSE in this folder) by\n"
    "# scripts/wordnet_lists.py; do not edit by hand. {what}\n"
)
WHAT = {
    "person": "Words whose first common sense is a person (noun.person).",
    "person_sense": "Words not in person.txt that have a person sense all the same (a later one).",
    "relation": "Person words naming someone by relation to another: kin, peers, friends, rivals.",
    "people_group": "Words whose first common sense is a group of people (not an institution).",
    "group": "Words whose first common sense is a group (noun.group).",
    "not_person": "-er/-or/-ist/-ian words, and plurals of person words, whose first sense is no person.",
    "adjectival": "Person words tagged more often as adjectives than as nouns (SemCor).",
    "thing_homonym": "Person words that also name a thing one can see or hold (a later sense).",
    "senses": "Each noun, a tab, its common senses most frequent first (synset numbers, base 36).",
    "hypernyms": "Each synset number, a tab, its hypernyms' numbers.",
    "young_of": "Each word first for an animal's young, a tab, the animals its glosses name.",
    "antonyms": "Each head adjective with a direct antonym, a tab, the antonym synset's words.",
}


def render(name: str, words: list[str]) -> str:
    return HEADER.format(what=WHAT[name]) + "".join(w + "\n" for w in words)


def file_name(name: str) -> str:
    return f"{name}.tsv" if name in ("senses", "hypernyms", "young_of", "antonyms") else f"{name}.txt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=WORDNET)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare with the committed lists")
    args = parser.parse_args()
    if not (args.wordnet / "index.noun").exists():
        print(f"no WordNet 3.0 at {args.wordnet} (apt-get install wordnet-base)", file=sys.stderr)
        return 2
    wordnet = WordNet(args.wordnet)
    lists = derive(wordnet) | derive_tables(wordnet)
    stale = []
    for name, words in lists.items():
        path = args.out / file_name(name)
        text = render(name, words)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(words)} words")
    if stale:
        print(f"stale: {', '.join(stale)} (run scripts/wordnet_lists.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
