"""The AQuA strategy rules' cues (`judge.strategy_rules`): the patterns and helpers that read which
referent a reply takes, whether it asks, answers for several referents in turn, states an assumption or
names what a vague "this" / "it" is. The rules themselves are described in judge.py's module docstring."""

from __future__ import annotations

import dataclasses
import re

from assistant import lexicon as lx
from assistant import words as en
from assistant.evaluation import answer_match, noun_senses, reply_checks
from assistant.evaluation import response_cues as cues
from assistant.evaluation.cues import structured
from assistant.evaluation.cues.final import split_trace
from assistant.evaluation.cues.mentions import ON_THE_QUESTION
from assistant.evaluation.judgement import UNKNOWN, Judgement

_ASSUMPTION = re.compile(
    r"\b(?:assuming|assumption|i assume|i'll assume|i will assume|presumably|"
    r"(?:likely|probably) (?:referring|asking|means?)|if you(?:'re| are)? (?:mean|asking about|referring to)|"
    r"if you mean|i think you mean|you(?:'re| are) (?:probably|likely) (?:asking|referring)|"
    # a condition on what the question is about, one referent answered for on it: "If the question is
    # about the calf, yes"
    rf"{ON_THE_QUESTION}|"
    # a statement (the questions back were read before) of what the user means, about one referent that
    # follows: "you probably mean the chef", "I take it you're asking about the red one"; "not sure what
    # you mean" names nothing
    r"(?<!what )(?<!which )(?<!who )you(?:'re| are)? (?:(?:probably|likely|presumably|must|surely) )?"
    r"(?:mean|meant|asking about|referring to|talking about) (?=(?:the|this|that|his|her) )|"
    # a referent described by what the user does to it: "the sign you're probably pointing at", "the mug
    # you're holding"
    r"(?:the|that|this) [a-z'-]+ (?:that )?you(?:'re| are) (?:(?:probably|likely|presumably) )?"
    r"(?:pointing (?:at|to)|looking at|gesturing (?:at|to)|holding|showing)|"
    r"appears? to be (?:referring|asking)|the main|the most "
    r"(?:prominent|noticeable|visible)|the (?:largest|biggest) (?:one|object))\b"
)
_NAMED_SUBJECT = re.compile(
    r"^(?:the|this|that)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+)\s+(?:is|are|has|have|was|were|looks|appears|seems|"
    r"shows|contains|features|wears|holds)\b"
)
# "This is a typewriter", "That's a mortar and pestle", "It's a kettle": the reply's pronoun is the
# question's, and what follows names it; an attribute ("It's a deep blue", "It's a bright red one") names
# nothing, so the words taken skip colours, shades and visual adjectives
_NAMED_BY_COPULA = re.compile(
    r"^(?:this|that|it)(?:'s|\s+is|\s+looks like|\s+appears to be|'s probably)\s+(?:a|an|the)\s+"
    r"((?:[a-z][a-z'-]*\s+){0,2}[a-z][a-z'-]*)"
)


# "How many horses are there?": the counted noun, written in the plural after "how many"
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:[a-z'-]+\s+){0,2}?([a-z'-]+)\b")


_COUNT_WORD = re.compile(r"(?:\d+|" + "|".join(sorted(lx.NUMBER_WORDS, key=len, reverse=True)) + r")\b")
_ONE = re.compile(r"\bone\b")


def counts(q: cues.QuestionCues) -> bool:
    """Whether the question asks "how many" of something."""
    return _HOW_MANY.search(q.text) is not None


def uncounted(q: cues.QuestionCues) -> cues.QuestionCues:
    """The question's cues without the noun that a "how many" question counts: "How many horses are
    there?" asks for a number of horses, so "five horses" in the reply is the answer, not several
    referents. The question's referent is then what holds the counted things ("How many people are in
    the car?": the car), as the shared cues already read "people"."""
    m = _HOW_MANY.search(q.text)
    if m is None or not cues.is_plural(m.group(1)):
        return q
    counted = {m.group(1), en.lemma(m.group(1))}
    return dataclasses.replace(
        q,
        referents=q.referents - counted,
        heads=tuple(h for h in q.heads if h not in counted),
    )


_PLURAL_SUBJECT = re.compile(r"^plural subject: '([a-z'-]+)'")


def plural_subject_aside(q: cues.QuestionCues, several: str) -> bool:
    """Whether the shared cues' "plural subject" (`several`) names things other than the referents: the
    noun a "how many" question counts ("How many people are on the bus?" - "... The people on the bus are
    holding on": the answer's own things, as `uncounted` reads them), or people where the question asks
    about nothing a person could own or be ("What is the weather like?" - "The people in the park are
    wearing light clothing": the weather is no physical object, so the people are evidence, not several
    referents)."""
    m = _PLURAL_SUBJECT.match(several)
    if m is None:
        return False
    noun = m.group(1)
    counted = _HOW_MANY.search(q.text)
    if counted and en.lemma(counted.group(1)) == en.lemma(noun):
        return True
    if not cues.is_person(noun) or q.pronoun or q.vague:
        return False
    return bool(q.referents) and not any(
        cues.is_person(r) or noun_senses.kind_of(en.lemma(r), "object") for r in q.referents
    )


def one_referent(q: cues.QuestionCues, response: str, text: str) -> Judgement:
    """infer when the reply says which single referent it took, answer otherwise (judge.py's docstring)."""
    assumed = _ASSUMPTION.search(text)
    if assumed and _guess_only_checked(text, assumed.start()):
        reason = f"checks its guess as a question and answers nothing: {assumed.group(0)!r}"
        return Judgement("clarify", reason=reason, path="rules:strategy.asks")
    if assumed:
        return Judgement("infer", reason=f"states an assumption: {assumed.group(0)!r}")
    picked = picked_against(text)
    if picked:
        return Judgement("infer", reason=picked)
    described = singled_out(q, _without_evidence(q, text))
    if (
        described
        and counts(q)
        and (_COUNT_WORD.match(described.removeprefix("the ")) or _ONE.search(described))
    ):
        # "Five horses: three in the paddock and two by the barn", "two on the left and one on the right":
        # the count broken down by where the counted things are (a number, or "one", as the described
        # noun), one answer or an answer per group; the rule cannot tell
        reason = f"a count broken down by place: {described!r}"
        return Judgement(UNKNOWN, reason=reason, path="rules:strategy.abstain")
    if described:
        return Judgement("infer", reason=f"singles out one referent: {described!r}")
    display = bare_display(q, text)
    if display:
        return Judgement(UNKNOWN, reason=display, path="rules:strategy.abstain")
    vague = q.vague or bool(_PRONOUN_REFERENT.search(q.text))
    named = _named_referent(q, text) if vague else None
    taken_subject = (subject_names_referent(q, text) or owner_names_referent(q, text)) if not named else None
    if taken_subject:
        return Judgement("infer", reason=taken_subject)
    if named:
        return named
    taken = (_echoed_referent(q, text) or _owner_in_evidence(q, text)) if vague else None
    if taken:
        return Judgement("infer", reason=taken)
    source = _source_in_evidence(q, text)
    if source:
        return Judgement("infer", reason=source)
    cited = _thing_in_evidence(q, text) if vague else None
    if cited:
        return Judgement(UNKNOWN, reason=cited, path="rules:strategy.abstain")
    undecided = reply_checks.undecided_reason(response)
    if undecided:
        return Judgement(UNKNOWN, reason=undecided, path="rules:strategy.abstain")
    return Judgement("answer", reason="a direct answer", path="rules:strategy.default")


def _guess_only_checked(text: str, at: int) -> bool:
    """Whether the assumption at `at` is put as a question ("I think you mean the bigger boat with the
    sail? Please confirm first, because there is also a small motor boat") and nothing is answered: each
    other sentence asks, requests (`_REQUEST`) or only says what is there. The rubric's clarify asks
    which referent is meant instead of answering; a guess checked and then answered for ("You mean the
    red one? It's a ketch.") infers."""
    said = reply_checks.sentences(text.lower())
    start = 0
    checked = False
    for sentence in said:
        where = text.lower().find(sentence, start)
        start = max(start, where + len(sentence)) if where >= 0 else start
        if where >= 0 and where <= at < where + len(sentence):
            checked = sentence.endswith("?")
            continue
        if sentence.endswith("?") or _REQUEST.search(sentence):
            continue
        if cues.answers_nothing(_LEADING_FILLER.sub("", sentence)) or _MENTION_ONLY.match(sentence):
            continue
        return False
    return checked


# the question's "this" / "it" standing alone, before a participle or a preposition ("What is this used
# for?", "What is it made of?"): the referent is only the pronoun, though the cues may read "this used"
# as a noun phrase
_PRONOUN_REFERENT = re.compile(
    r"\b(?:this|that|it)\b(?=\s*(?:[?.!]|$)|\s+(?:[a-z]+ed|made|worn|done|called|for|of|in|on|at|with|from)\b)"
)

_BARE_WHAT = re.compile(r"^what(?:'s|\s+is)\s+(?:this|that|it)\s*\??$")

# words that name no referent after "it's a": a colour or shade ("a deep blue"), a look ("a shiny one"), an
# amount ("a lot of", "a bit")
_NOT_NAMES = lx.COLORS | lx.COLOR_SHADES | lx.VISUAL_ADJECTIVES | cues.word_set("one")
_AMOUNTS = cues.word_set("lot lots bit little few couple")

# one thing picked against another: "your phone, not the TV behind it", "the mug rather than the jug",
# "the kettle instead of the pot"
_PICKED = re.compile(
    r"\b(?:the|your|this|that)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+)\s*,?\s+(?:and\s+)?"
    r"(?:not|rather\s+than|instead\s+of)\s+(?:the|your|this|that)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+)"
    r"(?=\s*(?:[,.;:!?\u2013\u2014]|\s-\s|$)|\s+(?:behind|beside|next|near|by|on|in|at|over|under)\b)"
)
_NOT_THINGS = (
    _NOT_NAMES | lx.ATTRIBUTE_NOUNS | lx.PLACE_WORDS | lx.PART_NOUNS | lx.IMAGE_WORDS | lx.VAGUE_NOUNS
)


def picked_against(text: str) -> str | None:
    """One thing picked against another ("Going by what's in focus - your phone, not the TV behind it -
    the screen shows ..."): the reply says which of two candidates it took, the rubric's infer. Both
    must be things (WordNet nouns), not colours, places, parts or the image ("the red one, not the blue"
    and "the left, not the right" contrast values or places; "one" names nothing of its own)."""
    for m in _PICKED.finditer(text):
        heads = [m.group(k).split()[-1] for k in (1, 2)]
        if heads[0] == heads[1] or any(h in _NOT_THINGS for h in heads):
            continue
        if all(noun_senses.senses(en.lemma(h)) for h in heads):
            return f"picks one thing against another: {m.group(0)!r}"
    return None


# chat spellings of "you" ("who do u mean?", "is ur question about ..."): the cues read standard words
_CHAT_YOU = (
    (re.compile(r"(?<![\w'-])u(?![\w'-])", re.I), "you"),
    (re.compile(r"(?<![\w'-])ur(?![\w'-])", re.I), "your"),
)


def chat_spelling(response: str) -> str:
    for pattern, word in _CHAT_YOU:
        response = pattern.sub(word, response)
    return response


# a terse reply drops its articles: "left shoe nike, right one adidas" is "the left shoe ..., the right
# one ..."; a place word that opens a clause (the reply's start, or after a comma, semicolon or dash) and
# is followed by a noun gets its "the" back, so that the place cues read it
_BARE_PLACE = re.compile(
    r"(^|[,;\u2013\u2014]\s*|\s-\s+|\n\s*)(?=(?:left|right|front|back|top|bottom|middle|centre|center|"
    r"near|far|nearest|farthest|closest|furthest|upper|lower)\s+[a-z])",
    re.I,
)


# a bare place after a preposition ("kid on left", "guy at back"): "on the left", as the place cues read it
_BARE_PREPOSITION_PLACE = re.compile(
    r"\b((?:on|at|to|in)\s+)(?=(?:left|right|front|back|middle|centre|center|top|bottom|foreground|"
    r"background)\b)",
    re.I,
)
# a comparison that opens a clause before a noun ("Older boy maybe 10, the smaller boy 5"): "the older boy"
_COMPARED = "|".join(sorted(w for w in lx.DISTINGUISHING_ADJECTIVES if w.endswith(("er", "est", "most"))))
_BARE_COMPARED = re.compile(
    r"(^|[,;\u2013\u2014]\s*|\s-\s+|\n\s*|[.!?]\s+)(?=(?:" + _COMPARED + r")\s+[a-z])", re.I
)


def restored_articles(response: str) -> str:
    """A terse reply with the articles it dropped given back ("left shoe nike" is "the left shoe ...",
    "kid on left" is "kid on the left", "older boy" opening a clause is "the older boy"), so that the place
    and description cues read it."""
    response = _BARE_PLACE.sub(lambda m: m.group(1) + "the ", response)
    response = _BARE_PREPOSITION_PLACE.sub(lambda m: m.group(1) + "the ", response)
    return _BARE_COMPARED.sub(lambda m: m.group(1) + "the ", response)


# a bare place key and its noun, then the value: "left guy red, right guy blue" answers for two people
# whatever they are called; sides and halves of one thing ("left side red, right side blue") are parts
_BARE_KEY = re.compile(
    r"(?:^|[,;\u2013\u2014]\s*|\s-\s+|\n\s*)(left|right|front|back|top|bottom|upper|lower)\s+([a-z]+)\s+[a-z0-9]",
    re.I,
)
_SIDES = cues.word_set("side sides half end edge corner part section bit")


def bare_place_keys(response: str) -> str | None:
    keys = [(m.group(1).lower(), m.group(2).lower()) for m in _BARE_KEY.finditer(response)]
    if any(noun in _SIDES or noun in lx.PART_NOUNS for _, noun in keys):
        return None
    places = [cues.place_of(place) or place for place, _ in keys]
    return f"terse keys by place: {', '.join(places)}" if cues.exclusive_places(places) else None


# a value, then the place of the referent it is for: "9:15 on the left clock, 2:15 on the right", "red on
# the left, blue on the right"
_VALUE_THEN_PLACE = re.compile(
    r"^\s*((?:[\w:./$\u20ac\u00a3%-]+\s+){0,2}?[\w:./$\u20ac\u00a3%-]+)\s+(?:on|in|at|to)\s+the\s+(?:far\s+)?"
    r"([a-z]+)(?:\s+([a-z]+))?\s*$"
)


def values_then_places(text: str) -> str | None:
    """A terse reply whose items each give a value and then the place of its referent ("9:15 on the left
    clock, 2:15 on the right"): one answer per referent, as "left clock 9:15, right clock 2:15" would be.
    A value is a few words with no verb or article (a clause, "it hangs on the left", is no item), and an
    item must name what is there ("clock"): "red on the front, blue on the back" may be one thing's sides."""
    places, named = [], False
    for part in re.split(r"[,;.!?](?:\s|$)|\s+(?:and|while|whereas)\s+|\n", text):
        m = _VALUE_THEN_PLACE.match(part)
        if m is None or set(cues.words(m.group(1))) & (lx.AUX | cues.VERBS | lx.ARTICLES | lx.DEICTICS):
            continue
        place = cues.place_of(m.group(2))
        if place:
            places.append(place)
            noun = m.group(3) or ""
            named = named or (bool(noun) and noun not in _SIDES and noun not in lx.PART_NOUNS)
    if named and cues.exclusive_places(places):
        return f"values keyed by the places after them: {', '.join(places)}"
    return None


# the clauses of a reply's answers: a sentence, or a part of one after a comma, a semicolon, a colon or a
# conjunction ("The woman's scarf is yellow and the child's is red"; "Tags: $4.99 on the apples, $2.49 on
# the pears")
_ANSWER_PARTS = re.compile(
    r"[.;:!?\n]\s*|,\s*(?:and\s+|while\s+|whereas\s+|but\s+)?|\s+(?:and|while|whereas|but)\s+"
)
# a clause keyed by its owner: "the woman's scarf is mustard yellow", "the child's is a red tartan"
_OWNER_CLAUSE = re.compile(
    r"^the\s+(?:[a-z-]+\s+){0,2}?([a-z-]+)'s(?:\s+([a-z-]+))?\s+"
    r"(?:is|are|was|were|looks|seems|appears|has|have|wears|holds|says|reads|shows|costs)\s+(\S.*)$"
)
# a literal value, then the thing it is on or for: "$4.99/lb on the apples", "$2.49 on the bunch of
# bananas", "red for the kite"
_VALUE_FOR_THING = re.compile(
    r"^((?:[\w$\u20ac\u00a3%.:/-]+\s+){0,2}?[\w$\u20ac\u00a3%.:/-]+)\s+(?:on|for)\s+the\s+(?:[a-z-]+\s+){0,3}?"
    r"([a-z-]+)$"
)
_LITERAL = re.compile(r"[\d$\u20ac\u00a3]")


def answers_by_key(q: cues.QuestionCues, text: str) -> str | None:
    """Answers each bound to a referent of its own, counted whatever their wording: clauses keyed by
    different owners ("The woman's scarf is mustard yellow and the child's is a red tartan") or literal
    values each tied to a different thing ("$4.99/lb on the apples, $2.49 on the bunch of bananas"). Two or
    more such answers enumerate, also before a closing question ("Which one did you mean?"), which then
    only asks which of the answers the user wanted. Not counted: an owner the question names (its own
    referent), a possessive with no answer after it ("the man's shirt and the boy's shirt": candidates),
    a clause that only places its owner, and a value on a part or side ("red on the roof"); where the
    question names a thing, the things valued must be of its kind (WordNet: "the taxi" for "the car")."""
    owners: list[str] = []
    things: list[str] = []
    concrete = q.referents - lx.ATTRIBUTE_NOUNS
    for part in _ANSWER_PARTS.split(text):
        part = part.strip()
        owned = _OWNER_CLAUSE.match(part)
        asked = owned is not None and (owned.group(1) in q.words or f"{owned.group(1)}'s" in q.words)
        if owned and not asked and not _ONLY_WHERE.search(part):
            said = cues.content_words(owned.group(3)) - q.words
            thing = owned.group(2)
            if said and (thing is None or thing in q.referents or not concrete or thing in lx.PRO_NOUNS):
                owners.append(owned.group(1))
            continue
        valued = _VALUE_FOR_THING.match(part)
        if valued is None:
            continue
        value, head = valued.group(1), valued.group(2)
        said_words = set(cues.words(value))
        literal = _LITERAL.search(value) or (said_words and said_words <= lx.COLORS | lx.COLOR_SHADES)
        if not literal or said_words & (lx.AUX | cues.VERBS | lx.ARTICLES | lx.DEICTICS):
            continue
        if head in _SIDES or head in lx.PART_NOUNS or head in lx.PLACE_WORDS or head in lx.IMAGE_WORDS:
            continue
        single = en.lemma(head)
        if concrete and not any(single == r or noun_senses.kind_of(single, r) for r in concrete):
            continue
        things.append(single)
    for keys, how in ((owners, "owners"), (things, "things")):
        if len(set(keys)) >= 2:
            return f"answers keyed by different {how}: {', '.join(dict.fromkeys(keys))}"
    return None


# "the one nearest you is ..., and the other ...": a contrast pair that answers for two referents, whatever
# noun the reply gives them ("two plates" for "this dish"); "the other" must stand for a referent (before a
# verb, "one", or the cut-off end), not "the other end of the rope"
_ONE_THEN_OTHER = re.compile(
    r"\bthe one\b[^.?!;]*?\b(?:is|are|looks|appears|seems|has|shows|says|reads|wears|holds|'s)\b"
    r"[^.?!]*?\b(?:the other|the second)(?:\s+one)?(?=\s+(?:is|are|looks|appears|seems|has|shows|says|reads|"
    r"wears|holds|was|might|may|could)\b|\s*[,.!]?\s*$)"
)


def one_and_the_other(q: cues.QuestionCues, text: str) -> str | None:
    m = _ONE_THEN_OTHER.search(text)
    return f"answers for one and the other: {m.group(0)[:60]!r}" if m else None


def _named_referent(q: cues.QuestionCues, text: str) -> Judgement | None:
    """infer where the reply names what a vague question's "this" / "it" is ("The bicycle is green", "That's
    a whisk, for beating eggs"); None where it names nothing. A contracted "It's a X" names the referent only
    where the answer follows apart (a comma, a dash, a semicolon): "It's a dollar fifty" or "It's a plate
    with two eggs" may be the answer itself; for a bare "What is this?" the name is the answer
    (`_named_for_what_is_this`)."""
    named = _NAMED_SUBJECT.match(text) or (
        None if _IDENTITY_QUESTION.match(q.text) else _NAMED_BY_COPULA.match(text)
    )
    if named and _BARE_WHAT.match(q.text) and named.re is _NAMED_BY_COPULA:
        return _named_for_what_is_this(text, named)
    taken = cues.content_words(named.group(1)) if named else set()
    # "it's a bit blurry", "it's a lot of fun": an amount, then no thing named
    new_words = set() if taken & _AMOUNTS else taken - q.words - _NOT_NAMES
    if not (named and new_words):
        return None
    if "'s" in named.group(0)[:6] and not _SET_APART.match(text, named.end()):
        return None
    return Judgement("infer", reason=f"names the referent of a vague question: {named.group(1)!r}")


# the subject of the reply's first clause: a definite noun phrase ("the bag of crisps in the middle", "the
# pasta packet (fusilli)", "the player serving, in the pink skirt") up to its verb, or a topic phrase that
# names the container answered about ("In the egg box, 4 eggs are left"); for an elliptic "how many" the
# counted noun ("4 eggs are left") too
_SUBJECT_LEAD = re.compile(
    r"^(?:(?:in|on|inside|for)\s+(?:the|this|that|your)\s+([^,;:.!?\u2013\u2014]+?)\s*[,:\u2013\u2014]\s*)?"
)
_DEFINITE = re.compile(r"(?:the|this|that|your)\s+")
_ELLIPTIC_COUNT = re.compile(r"^how\s+many\s+(?:are|is|were|was|do|does|did|can|have|has|will)\b")
# words that name no referent as a subject: the image itself, a generic "thing", the answer's own word
_NO_REFERENT = lx.IMAGE_WORDS | lx.VAGUE_NOUNS | cues.word_set("answer one ones")


def _pronoun_only(q: cues.QuestionCues) -> bool:
    """Whether the question's referent is only a pronoun or left out: "this" / "it" ("What flavour is
    it?"), a person's pronoun with no noun ("Is she winning?"), or an elliptic "How many are left?"."""
    person = q.pronoun in cues.SUBJECT_PRONOUNS and not any(h not in lx.PLACE_WORDS for h in q.heads)
    return (
        q.vague
        or bool(_PRONOUN_REFERENT.search(q.text))
        or person
        or bool(_ELLIPTIC_COUNT.match(q.text))
        or _reading_only(q)
    )


def _reading_only(q: cues.QuestionCues) -> bool:
    """A question for a reading (time, score, price ...) that names no thing of its own ("What's the
    time?"): its referent, the display the reading is taken from, is left out (see `_source_in_evidence`)."""
    return bool(q.words & _READINGS) and not q.referents - lx.ATTRIBUTE_NOUNS


def _names_thing(word: str) -> bool:
    """Whether WordNet knows the word as a noun, or it is a closed compound whose tail is one
    ("whiteboard", "noticeboard": a board), which WordNet 3.0 often lacks."""
    lemma = en.lemma(word)
    return bool(noun_senses.senses(lemma)) or any(
        noun_senses.senses(lemma[k:]) for k in range(3, len(lemma) - 3)
    )


def subject_names_referent(q: cues.QuestionCues, text: str) -> str | None:
    """For a question whose referent is only a pronoun (or left out), a reply whose first clause's subject
    (or opening topic phrase) names a thing the question does not ("The bag of crisps in the middle is
    Salt & Vinegar" for "What flavour is it?"; "In the egg box, 4 eggs are left" for "How many are
    left?"; "On the whiteboard: ..." for "What's written on it?"; "The large clock above the departures
    board reads 7:45" for "What's the time?", whose display is left out): the subject is the referent the
    reply took, the rubric's infer ("The hot dog has mustard and
    onions"). The name in subject position is the referent; a name after the question's own pronoun
    ("This is a bicycle" for "What is this?") is the answer, read by `_named_referent`. Words the question
    has ("The colour is red"), the image, a generic "thing", and a person's generic noun for "he" / "she"
    ("The woman is winning": no more than "she") name nothing new; a subject that also describes its
    person ("the player serving, in the pink skirt") does."""
    if not _pronoun_only(q):
        return None
    lead = _SUBJECT_LEAD.match(text)
    topic = lead.group(1) if lead and lead.group(1) else ""
    rest = text[lead.end() if lead else 0 :]
    count = _COUNT_WORD.match(rest) if _ELLIPTIC_COUNT.match(q.text) else None
    definite = _DEFINITE.match(rest)
    subject = ""
    start = definite or count
    if start:
        toks = re.findall(r"[a-z][a-z'-]*|[(),]", rest[start.end() :])
        # the verb, not a plural after a preposition ("the bag of crisps") nor the counted noun ("three
        # biscuits are left"); right after "this" / "that" it is the pronoun's ("This is a bathroom")
        verb = next(
            (
                k
                for k, t in enumerate(toks[:12])
                if (_is_verb(t) or t in lx.AUX)
                and not (k and toks[k - 1] in cues.PREPOSITIONS)
                and not (k == 0 and count and not definite)
            ),
            None,
        )
        subject = " ".join(toks[:verb]) if verb else ""
    people = cues.PRONOUN_PEOPLE.get(q.pronoun or "", frozenset())
    said = set(cues.words(f"{topic} {subject}"))
    new = {
        w
        for w in said - q.words - _NO_REFERENT - _NOT_NAMES - lx.ATTRIBUTE_NOUNS - lx.PLACE_WORDS
        if w not in cues.STOPWORDS and w not in cues.PREPOSITIONS and _names_thing(w)
    }
    new -= people  # "the woman" for "she" names no more than the pronoun; "the woman in red" does
    if _reading_only(q) and not q.vague and not _PRONOUN_REFERENT.search(q.text):
        # a reading is taken from a display, a made thing ("the clock", "the scoreboard"); "the home team
        # leads 2-1" names who the reading is about, not where it was read
        new = {w for w in new if noun_senses.kind_of(en.lemma(w), "artifact")}
    if new:
        said_subject = (topic + " " + subject).strip()
        return f"the subject names the referent the question left to a pronoun or left out: {said_subject!r}"
    return None


# a display named bare as the reply's subject, right before the verb that reads it: "The clock reads 3:45"
_BARE_DISPLAY = re.compile(
    r"^(?:the|this|that)\s+([a-z'-]+)\s+(?:[a-z]+ly\s+)?(?:reads?|says?|shows?|displays?|indicates?)\b"
)


_SHOWN = re.compile(r"\b(?:show|shows|say|says|read|reads|display|displays|indicate|indicates)\b")


def bare_display(q: cues.QuestionCues, text: str) -> str | None:
    """A reading question naming no display ("What time is it?") answered from a display named by its bare
    noun ("The clock reads approximately 3:45"): the obvious display, named as the question could have
    left it (an answer), or the one the reply took (infer, as "The large clock above the departures board
    reads 7:45" is); annotators read it both ways, so the rules abstain. A described display is read by
    `subject_names_referent`."""
    # "What time does it show?": "it" is a display left vague, which a name resolves; the "it" of "What
    # time is it?" stands for no thing
    if not _reading_only(q) or _SHOWN.search(q.text):
        return None
    m = _BARE_DISPLAY.match(text)
    if m is None or m.group(1) in q.words or not noun_senses.kind_of(en.lemma(m.group(1)), "artifact"):
        return None
    return f"reads the answer off a display named bare: {m.group(0)!r}"


# the question's thing owned by a pronoun ("What's wrong with its ear?", "What colour is her scarf?"), and the
# reply's opening subject owned by a noun phrase ("The puppy's left ear ...")
_OWNED_BY_PRONOUN = re.compile(r"\b(its|his|her|their)\s+(?:[a-z'-]+\s+){0,2}?[a-z'-]+\b")
_OWNER_SUBJECT = re.compile(r"^(?:the|this|that|your)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+?)'s?\s+[a-z]")


def owner_names_referent(q: cues.QuestionCues, text: str) -> str | None:
    """For a question whose thing is owned by a pronoun ("What's wrong with its ear?"), a reply whose
    opening subject puts the thing on an owner the question does not name ("The puppy's left ear looks
    red"): the owner is the referent the reply took for the pronoun, as a subject naming a thing is for a
    bare "it" (`subject_names_referent`). A person's generic noun for "his" / "her" ("The man's shirt is
    blue") names no more than the pronoun, and words the question has name nothing new."""
    asked = _OWNED_BY_PRONOUN.search(q.text)
    opening = _OWNER_SUBJECT.match(text)
    if asked is None or opening is None:
        return None
    owner = opening.group(1).split()
    people = cues.PRONOUN_PEOPLE.get(asked.group(1), frozenset())
    head = owner[-1]
    if head in q.words or head in people or head in _NO_REFERENT or not _names_thing(head):
        return None
    return f"puts the question's {asked.group(0)!r} on an owner it names: {opening.group(1)!r}"


# a place in the scene after the name, in its sentence or a later one: "It's a lamp on the desk", "That's a
# globe! The round ball on the teacher's desk is ..."; a place phrase with "a" describes the thing itself
# ("with black figures painted on a red background")
_PLACED_AFTER = re.compile(
    r".*?\b(?:" + "|".join(sorted(lx.SPATIAL_PREPOSITIONS, key=len, reverse=True)) + r")\s+the\s",
    re.S,
)


def _named_for_what_is_this(text: str, named: re.Match[str]) -> Judgement:
    """A bare "What is this?" answered by naming the thing with the question's own pronoun ("This is a
    bicycle.", "It's a French press"): the name is the answer (Level 0), not a referent taken. A reply that
    also places what it named in the scene, there or in a later sentence ("It's a lamp on the desk",
    "That's a globe! The ball on the teacher's desk is ...") may be saying which one it took: it abstains.
    A subject that places or describes the thing ("That bird on the railing is ...") is read before."""
    # "in the photo", "visible in the image" say where the picture is, not where in it the thing is
    scene = text
    for said in cues.NON_IDENTIFYING:
        scene = re.sub(r"\b" + re.escape(said) + r"\b", lambda m: " " * len(m.group(0)), scene, flags=re.I)
    if _PLACED_AFTER.match(scene, named.start(1)):
        reason = "names the thing a bare 'what is this?' asks about and places it: its answer or its referent"
        return Judgement(UNKNOWN, reason=reason, path="rules:strategy.abstain")
    return Judgement("answer", reason=f"names what a bare 'what is this?' asks: {named.group(1)!r}")


_SET_APART = re.compile(r"\s*(?:[,;:\u2013\u2014]|\s-\s)\s*[a-z0-9]")


# the evidence for an answer, up to its clause's end: "going by the logo on the lid", "judging from the
# tag on its collar", "given the tracks", "based on the sign above the door"
_EVIDENCE = re.compile(
    r"\b(?:going\s+by|judging\s+(?:by|from)|based\s+on|given|from\s+the\s+look\s+of|to\s+judge\s+by|"
    r"because\s+of|thanks\s+to|as\s+shown\s+by|(?<=[,\u2013\u2014-]\s)(?:there's|there\s+is|you\s+can\s+see)(?=\s+the\b))"
    r"\b(?!\s+(?:that|how)\b)[^.;:!?,]*"
)


# a clause set apart after the answer whose things are cited as its evidence, by a verb of pointing back at
# the answer ("- the glass facade, the control tower on the right and the jet bridges all point to that",
# "; the coat and the build give it away", "- the stripes suggest so")
_EVIDENCE_CLAUSE = re.compile(
    r"(?:[;\u2013\u2014]|\s-\s)[^.;!?\u2013\u2014]*?\b(?:all\s+|both\s+)?"
    r"(?:points?\s+to|suggests?|indicates?|gives?\s+(?:it|this|that)\s+away|confirms?|tells?\s+(?:me|you|us))"
    r"\s+(?:that|it|this|so|as\s+much)\s*(?=[.;!?]|$)"
)


def _without_evidence(q: cues.QuestionCues, text: str) -> str:
    """The reply without the evidence it cites: a thing described there ("the logo on the lid") is what
    the answer rests on, not the referent the reply singles out; so is a clause after the answer whose
    things all point back at it ("This is an airport terminal - the control tower on the right and the jet
    bridges all point to that"). Evidence that names the asked referent
    ("Going by the man in the apron, he ...") says which one it took, and stays."""

    def drop(m: re.Match[str]) -> str:
        return m.group(0) if set(cues.words(m.group(0))) & set(q.referents) else " "

    return _EVIDENCE_CLAUSE.sub(" ", _EVIDENCE.sub(drop, text))


# "The shop door? Yes, ...": the reply opens by naming, as a question to itself, what it takes "it" to be
_ECHO = re.compile(r"^(?:the|this|that|your)\s+((?:[a-z'-]+\s+){0,2}[a-z'-]+)\s*\?\s*(?=\S)")


def _echoed_referent(q: cues.QuestionCues, text: str) -> str | None:
    """A reply to a vague question that opens by checking its guess ("The shop door? Yes, the sign says
    OPEN.") and then answers: it names the referent it took (the rubric's infer). A bare echo with
    nothing after may be a question back, and words the question already has name nothing new."""
    m = _ECHO.match(text)
    if m is None or not cues.content_words(m.group(1)) - q.words - _NOT_NAMES:
        return None
    return f"checks the referent it took, then answers: {m.group(0).strip()!r}"


# a part and the whole it belongs to: "the laptop lid", "the lid of the laptop"
_PART_OF = "|".join(sorted((re.escape(p) for p in lx.PART_NOUNS), key=len, reverse=True))
_OWNED_PART = re.compile(
    r"\b(?=([a-z][a-z-]+)\s+(?:" + _PART_OF + r")\b)|\b(?:" + _PART_OF + r")\s+of\s+the\s+([a-z][a-z-]+)\b"
)
_NOT_OWNERS = (
    _NOT_NAMES
    | lx.PLACE_WORDS
    | lx.PART_NOUNS
    | lx.IMAGE_WORDS
    | lx.DISTINGUISHING_ADJECTIVES
    | lx.NON_VISUAL_ADJECTIVES
    | cues.STOPWORDS
    | cues.DETERMINERS
    | cues.PREPOSITIONS
)


def _owner_in_evidence(q: cues.QuestionCues, text: str) -> str | None:
    """The whole named in the evidence a reply cites for a vague question ("Going by the logo on the
    laptop lid, this is a Lenovo"): the part's owner is what "it" was taken to be. "the logo on the lid"
    names no owner, and a material or look before the part ("the metal lid") is no owner."""
    for evidence in _EVIDENCE.finditer(text):
        for m in _OWNED_PART.finditer(evidence.group(0)):
            owner = m.group(1) or m.group(2)
            if owner in _NOT_OWNERS or owner in q.words or owner.endswith("ly"):
                continue
            # a whole is a noun: "the lobed leaves" are leaves of a shape (a participle or an adjective
            # WordNet has no noun for), not the leaves of a lobed thing
            participle = owner.endswith("ed") and not noun_senses.senses(owner)
            if _names_thing(owner) and not participle:
                return f"names what the question's pronoun is, by a part of it in the evidence: {owner!r}"
    return None


# attributes read off a thing that shows them (a clock, a scoreboard, a price tag, a thermometer), not seen
# in the scene as a whole
_READINGS = (
    frozenset(
        {
            "time",
            "score",
            "price",
            "cost",
            "number",
            "text",
            "writing",
            "wording",
            "temperature",
            "speed",
            "date",
        }
    )
    & lx.ATTRIBUTE_NOUNS
)
# the thing cited, up to a place phrase after it: "the big scoreboard [above the stands]", "the clock tower"
_SOURCE = re.compile(
    r"^\W*(?:[a-z]+\s+){1,3}?the\s+(?:[a-z'-]+\s+){0,2}?([a-z'-]+)(?=\s*$|\s+(?:"
    + "|".join(sorted(lx.SPATIAL_PREPOSITIONS, key=len, reverse=True))
    + r")\s)"
)


def _source_in_evidence(q: cues.QuestionCues, text: str) -> str | None:
    """The thing a reading was taken from, cited as evidence ("Going by the big scoreboard above the
    stands, it's 2-1", "Going by the clock tower, it's about 4:20") for a question that asks for a
    reading (a time, a score, a price ...) and names no thing of its own ("What is the score?", "What time
    is it?"): the question could fit any display that shows one, and the reply says which one it read
    (the rubric's infer). The thing must be one made to be read or looked at (WordNet's artifact, by its
    first sense: "clock", "scoreboard", "tower"); what the answer only rests on ("judging by the light",
    "the shadows", "the sun") names no referent, and a question that names its thing ("What brand is the
    laptop?") is answered about that one whatever the evidence."""
    if not q.words & _READINGS or q.referents - lx.ATTRIBUTE_NOUNS:
        return None
    for evidence in _EVIDENCE.finditer(text):
        cited = _SOURCE.match(evidence.group(0))
        if cited is None:
            continue
        head = cited.group(1)
        if (
            head in q.words
            or head in lx.PART_NOUNS
            or head in lx.IMAGE_WORDS
            or head in lx.PLACE_WORDS
            or cues.is_plural(head)
        ):
            continue
        if noun_senses.kind_of(head, "artifact"):
            return f"names the thing it read the answer from: {head!r}"
    return None


_CITED = re.compile(r"^\W*(?:[a-z]+\s+){1,3}?the\s+((?:[a-z'-]+\s+){0,2}[a-z'-]+)\s*$")


def _thing_in_evidence(q: cues.QuestionCues, text: str) -> str | None:
    """Evidence for a vague question that names one whole thing ("Going by the clock tower, it's about
    4:20"): it may name what "it" was read from (infer), or only what the answer rests on ("judging by the
    light, it's evening": an answer); with no sense of which words name things here, the rule abstains.
    A part ("the logo on the lid"), a plural ("the shadows"), a list ("you can see the stove, the sink and
    ...") or the question's own word decides nothing."""
    for evidence in _EVIDENCE.finditer(text):
        if re.match(r"\s*,\s*(?:the|a|an|and)\b", text[evidence.end() :]):
            continue
        cited = _CITED.match(evidence.group(0))
        if cited is None:
            continue
        head = cited.group(1).split()[-1]
        if head in q.words or head in lx.PART_NOUNS or head in lx.IMAGE_WORDS or cues.is_plural(head):
            continue
        return (
            f"cites one thing as its evidence for a vague question ({cited.group(1)!r}): its referent or not"
        )
    return None


# "What room is this?", "What kind of tree is it?": "This is a kitchen" gives the asked category, it does
# not name a referent; a bare "What is this?" ("This is a typewriter": "this" resolved) and an attribute
# question ("What colour is this?") are not such questions
_IDENTITY_QUESTION = re.compile(
    r"^(?:what|which)\s+(?:(?:kind|type|sort) of\s+)?"
    r"(?!colou?r\b|shape\b|size\b|material\b|is\b|are\b)[a-z-]+\s+"
    r"(?:is|are)\s+(?:this|that|it|these|those)\b"
)
_ANSWER_VERB = re.compile(r"\b(?:is|are|was|were|has|have|wears|holds|looks|says|reads|shows)\b")


def _candidates_named(response: str, said: str) -> str:
    """`said` with a candidate the question back offered ("Do you mean the cake or the pudding?") given its
    article back where a clause opens on its bare noun ("Cake is chocolate, pudding looks like mango"): a
    bare noun naming an offered candidate is that candidate, as "the cake" is, so its clause answers for
    it."""
    offered = _offered(response)
    if not offered:
        return said
    nouns = "|".join(sorted(map(re.escape, offered), key=len, reverse=True))
    return re.sub(rf"(^|[.;,:!]\s*|\band\s+)({nouns})\b(?=\s+[a-z])", r"\1the \2", said, flags=re.I)


def answers_before_asking(q: cues.QuestionCues, response: str) -> str | None:
    """Answers for referents in places that exclude each other, given before the question that asks which
    is meant (each with its own verb): the reply enumerates; it does not ask instead of answering."""
    parts = re.split(r"\s[\u2013\u2014-]\s|[\u2013\u2014;:]|(?<=[.!?])\s+", response)
    said = "; ".join(p.strip() for p in parts if "?" not in p and p.strip())
    said = _candidates_named(response, said)
    places = cues.located_places(q, said)
    # a verb that only places its subject ("one is on the left") answers nothing
    verbs = [
        m for m in _ANSWER_VERB.finditer(cues.normalise(said)) if not _PLACING.match(said.lower(), m.end())
    ]
    if cues.exclusive_places(places) and len(verbs) >= 2:
        return ", ".join(dict.fromkeys(places))
    # after "which one?" a clause for "the one at the door" is the other referent, whatever its verb
    # ("The man at the bar is in a jacket; the one at the door wears a suit"); a clause that only says
    # where its subject is ("the short one is by the door") answers nothing
    answers = [c for c in answer_match.clauses(said) if not _ONLY_WHERE.search(c)]
    answered = "; ".join(answers)
    return (
        parallel_answers(q, answered, any_frame=True)
        or several_described(q, cues.normalise(answered))
        or answers_by_key(q, cues.normalise(said))
        # "Do you mean the man at the till or the one stocking shelves? The one at the till is scanning
        # ... and the other one is restocking ...": asked, then answered for both all the same
        or one_and_the_other(q, cues.normalise(answered))
        or keyed_answers(q, response)
    )


def table_by_referent(q: cues.QuestionCues, response: str) -> str | None:
    """A markdown table whose first column is headed by the question's referent ("| car | color |" for
    "What color is the car?", "| Worker | Location | Activity |"), with two or more rows each keyed
    differently and answered: one row per referent, an answer for each (the rubric's enumerate), as a
    list keyed by referents is. A first column headed by anything else ("| Item | Colour |", "| Part |")
    lists things or parts of one referent, and a question with no referent word ("What is this?") has
    no column of its own."""
    if not q.referents:
        return None
    for header, rows in structured.tables(response):
        words = cues.words(header[0]) if header else []
        if not words or cues.of_asked_kind(q, words[-1]) is not True:
            continue
        keyed = {row[0].lower() for row in rows if row[0] and any(c for c in row[1:])}
        if len(keyed) >= 2:
            return f"a table with a row for each {header[0]!r}: {', '.join(sorted(keyed)[:3])}"
    return None


def keyed_answers(q: cues.QuestionCues, response: str) -> str | None:
    """Two or more items keyed by the referent or a place, each with an answer of its own ("**Girl on the
    swing:** a red raincoat ... / **Girl by the slide:** a grey jumper ..."): answers for each, whatever
    the reply asks after them ("If you meant just one, let me know which"). Keys with nothing said after
    them beyond the question's words, or a question, are candidates, not answers."""
    keys = [
        key
        for key, value in cues.keyed_items(response)
        if names_place_or_referent(q, key)
        and "?" not in value
        and cues.content_words(value) - q.words - set(cues.words(key))
    ]
    return f"items keyed by referents, each answered: {', '.join(keys[:3])}" if len(set(keys)) >= 2 else None


_ONLY_WHERE = re.compile(
    r"\b(?:is|are|'s|sits|stands|waits)\s+(?:(?:standing|sitting|seated|waiting)\s+)?(?:near|by|at|beside|behind|"
    r"under|over|next\s+to|in\s+front\s+of|on\s+the\s+(?:left|right)|in\s+the\s+(?:middle|centre|center|corner|"
    r"back|front|background|foreground))\b[^,;]*$"
)


_PLACING = re.compile(
    r"\s+(?:(?:standing|sitting|seated|located|placed)\s+)?(?:on|in|at|near|by|to|behind)\s+(?:the\s+)?"
    r"(?:far\s+)?(?:left|right|front|back|middle|centre|center|top|bottom|foreground|background)\b"
)


def asks_between(q: cues.QuestionCues, response: str) -> str | None:
    """A question that offers referents to choose from ("would you like the girl on the left, or the one
    on the right?"): each side of its "or" names a place or a referent."""
    for sentence in reply_checks.sentences(cues.normalise(response)):
        if not sentence.endswith("?") or " or " not in sentence:
            continue
        left, right = sentence.rsplit(" or ", 1)
        if names_place_or_referent(q, left) and names_place_or_referent(q, right):
            return sentence.strip()
    return None


def acknowledged_then_chosen(q: cues.QuestionCues, text: str) -> bool:
    """ "There are several women, but the one in the centre is ...": the plural only says that there are
    several (after "there are", "I see", "among", "of the"), and one of them is singled out and answered."""
    plurals = "|".join(re.escape(p) for p in cues.plural_mentions(q, text))
    acknowledged = re.search(
        r"\b(?:there(?:'s| is| are| were|s)|i (?:can )?see|among|of the)\s+(?:[a-z0-9]+\s+){0,3}?(?:"
        + plurals
        + r")\b",
        text,
    )
    if not (plurals and acknowledged):
        return False
    rest = text[: acknowledged.start()] + text[acknowledged.end() :]  # the cues, without that plural
    if cues.several_referents(q, rest) or one_and_the_other(q, rest):
        return False
    # "there are two buses: the front one shows 42 and the back one 17": two taken up, by places that
    # exclude each other, is an answer for each, not one chosen; the places of the acknowledging clause
    # itself ("two dogs, one on the left and one on the right; the left one is ...") only place them
    said = re.split(r"[:;.!?]", text[acknowledged.start() :])[0]
    taken_up = list(cues.located_places(q, text))
    for place in cues.located_places(q, said):
        if place in taken_up:
            taken_up.remove(place)
    if cues.exclusive_places(taken_up):
        return False
    # one of them taken up in the singular: described ("the one in the centre"), or only "the dog" (then
    # the reply answers for one without saying which: the strategy rules read it as a direct answer)
    names = "|".join(re.escape(r) for r in sorted(q.referents | {"one"}))
    singular = (
        re.search(rf"\b(?:the|this|that)\s+(?:[a-z]+\s+){{0,2}}?(?:{names})\b", rest) if names else None
    )
    # or answered in the question's own pronoun ("There are a lot of people on the platform. Her scarf is
    # yellow." for "What color is her scarf?"): one answer, as the question put it
    own = bool(q.pronoun) and re.search(rf"\b{re.escape(q.pronoun or '')}\b", rest) is not None
    return bool(cues.identifying_description(q, rest) or singular or own)


_PLURAL_PRONOUN = re.compile(r"\b(?:they|them|these|those)\b")


# a sentence that only says another referent is there, by a place and nothing else: "There is another woman
# on the right too.", "There's also a man by the door."
_MENTION_ONLY = re.compile(
    r"(?:^|(?<=[.!?]\s))there(?:'s|\s+is|\s+are)\s+(?:also\s+)?(?:another|a\s+second|an?|one|two|some)\s+"
    r"(?:[a-z'-]+\s+){0,2}?(?:"
    + "|".join(sorted(lx.SPATIAL_PREPOSITIONS, key=len, reverse=True))
    + r")\s+(?:the\s+)?[a-z' -]+?(?:,?\s+(?:too|as\s+well|also))?\s*[.!]"
)


def without_mentions(response: str) -> str:
    """The reply without sentences that only mention another referent by its place ("There is another
    woman on the right too."): such a sentence answers nothing for it, so its place is no second
    referent answered for (the rubric's enumerate answers for each). A sentence that says more ("There's
    another woman on the right, holding a bag") is kept."""
    return _MENTION_ONLY.sub(" ", cues.normalise(response))


# an existential sentence whose relative clause says something of what it introduces: "There's also a clock on
# the oven, which shows 7:08"
_EXISTENTIAL_RELATIVE = re.compile(
    r"(^|[.!?]\s+)there(?:'s|\s+is|\s+are)\s+(?:also\s+)?(another|a\s+second|an?|one)\s+"
    r"((?:[a-z'-]+\s+){0,6}?[a-z'-]+),?\s+(?:which|that|who)\s+(?=[a-z])",
    re.I,
)


def existentials_as_clauses(response: str) -> str:
    """`response` with each existential sentence whose relative clause predicates of what it introduces said
    as a clause of its own ("There's also a clock on the oven, which shows 7:08" as "the clock on the oven
    shows 7:08"): "there is an X which Ys" says what "the X Ys" says, an answer for X, so the thing it
    introduces is a referent answered for, not only mentioned (`without_mentions`)."""

    def clause(m: re.Match[str]) -> str:
        the = "the other" if m.group(2).lower() in ("another", "a second") else "the"
        return f"{m.group(1)}{the} {m.group(3)} "

    return _EXISTENTIAL_RELATIVE.sub(clause, response)


def plural_pronoun(q: cues.QuestionCues) -> bool:
    """Whether the question asks about a group by a plural pronoun ("Are they happy?", "What are these?"):
    a "both" or "each" in the reply ("Both are beaming") then counts the members of the group asked
    about, one answer for it, not answers for several referents in turn (those are read by their own
    places, subjects or keys: "the one on the left ..., the other ...")."""
    return bool(_PLURAL_PRONOUN.search(q.text))


def part_keyed(item: str) -> bool:
    """A list item keyed by a part of the one referent ("**Upper body:** an orange hi-vis vest", "**Feet:**
    brown boots"): it describes that referent part by part, whatever place words its key or answer
    holds; such items answer for one referent, not several. A referent placed by a part of the scene
    ("Student at the back:") is keyed by the student."""
    keyed = cues.keyed_items(item)
    if not keyed:
        return False
    # the key's head: its last word before a preposition ("student at the back" is a student)
    toks = cues.words(keyed[0][0])
    head = next((k for k, t in enumerate(toks) if t in cues.PREPOSITIONS), len(toks))
    return head > 0 and toks[head - 1] in lx.PART_NOUNS


def names_place_or_referent(q: cues.QuestionCues, line: str) -> bool:
    toks = set(cues.words(line))
    return bool(toks & cues.PLACE_WORDS or toks & set(q.referents))


# a clause led by a definite subject: "the seagull on the bollard is ...", "the one near the bar seats ..."
_DEFINITE_LEAD = re.compile(r"^(?:and\s+|whereas\s+|while\s+)?(?:the|this|that)\s+(.+)$")
_BACK_REFERENCES = frozenset(["it", "its", "them", "their", "him", "his", "her"])
_FILLER_ADVERBS = frozenset(["just", "still", "now", "also", "currently", "simply"])
_COPULAS = frozenset(["is", "are", "was", "were", "'s", "looks", "seems", "appears"])
# verbs that give what a display or sign shows: "the clock says 4:10, the display reads 16:12" is one frame
_SHOWING = frozenset(["say", "read", "show", "display", "indicate"])


def _subject_and_frame(clause: str) -> tuple[str, str, str] | None:
    """(head noun, the words before it, the verb frame) of a clause led by a definite subject, or None.
    The head is the word before a preposition or the verb; the frame is how the clause answers: "is"
    (an activity or a state alike: "is playing a shot" and "is crouched ready" both say what a player is
    doing), or the verb's lemma ("show" for says / reads / shows)."""
    m = _DEFINITE_LEAD.match(clause)
    if not m:
        return None
    toks = cues.words(m.group(1))
    for k, tok in enumerate(toks[:5]):
        nxt = toks[k + 1] if k + 1 < len(toks) else ""
        # a plural after a determiner or a preposition is a noun ("behind the stumps"), not an -s verb
        verb_at = next(
            (j for j in range(k + 1, len(toks)) if _is_verb(toks[j]) and toks[j - 1] not in _BEFORE_NOUNS),
            None,
        )
        if verb_at is None:
            return None
        if nxt in cues.PREPOSITIONS or k + 1 == verb_at:
            after = [t for t in toks[verb_at + 1 :] if t not in _FILLER_ADVERBS and not t.endswith("ly")]
            if set(after) & _BACK_REFERENCES:  # "the den is behind it": placed by the other, not answered
                return None
            return tok, " ".join(toks[:k]), _frame(toks[verb_at], after[0] if after else "")
    return None


_BEFORE_NOUNS = cues.DETERMINERS | cues.PREPOSITIONS


def _is_verb(tok: str) -> bool:
    """A copula, a reply verb, or an -s form with a lemma of its own ("faces", "seats"): a plural noun read
    as a verb here is harmless, as two clauses must share the frame it gives."""
    return (
        tok in _COPULAS
        or tok in lx.RESPONSE_VERBS
        or (tok.endswith("s") and not tok.endswith("ss") and _lemma(tok) != tok)
    )


def _lemma(tok: str) -> str:
    import simplemma

    return str(simplemma.lemmatize(tok, lang="en"))


def _frame(verb: str, nxt: str) -> str:
    if verb in _COPULAS:
        return "is"
    lemma = _lemma(verb)
    return "show" if lemma in _SHOWING else lemma


def _described(clause: str) -> bool:
    """ "the one at the door ...", "the one with the beard ...": "one" told apart by a phrase of its own."""
    return bool(
        re.match(
            r"^(?:and\s+|while\s+|whereas\s+)?the one\s+(?:[a-z]+ing|who|that|with|in|at|on|by|near|"
            r"next|behind|beside|under|holding|wearing)\b",
            clause,
        )
    )


# candidates offered as alternatives: "either the teapot or the vase", "the kettle or the pot"
_ALTERNATIVES = re.compile(r"\b(?:either\s+)?(?:the|a|an)\s+([a-z-]+)\s*,?\s+or\s+(?:the|a|an)\s+([a-z-]+)\b")


# a conjunction before a definite subject, or a colon after an introduction ("The case holds two objects:
# the helmet ..."), opens a clause
_AND_THE = re.compile(r"\s+(?=(?:and|while|whereas)\s+(?:the|this|that)\s)|:\s+(?=(?:the|this|that)\s)")


def _offered(response: str) -> set[str]:
    """Nouns offered as alternatives for the referent ("Could be either the teapot or the vase"): a later
    clause about one of them answers for that candidate; it does not describe an answer already given."""
    return {w for m in _ALTERNATIVES.finditer(cues.normalise(response)) for w in m.groups()}


def parallel_answers(q: cues.QuestionCues, response: str, any_frame: bool = False) -> str | None:
    """Two clauses that answer in the same frame for two different definite subjects ("The pigeon is
    pecking at crumbs, and the seagull on the bollard is standing"; "the clock says 4:10, while the
    display reads 16:12"; "the table by the window seats four, and the one near the bar seats two"): the
    reply enumerates. Not a subject already named in an earlier clause ("holds a ball, and the ball is
    red": the answer described; but a candidate offered as an alternative, "either the teapot or the vase",
    is answered in turn), a part or garment ("the collar is red"), the question's asked noun that is no
    referent ("the sport is cricket" for "What sport is being played?": the answer restated), nor the
    asked referent set against another kind of thing ("The dog is asleep; the cat is eating" for "the
    dog")."""
    # "the scooter is green and the helmet is white": a conjunction before a definite subject opens a clause
    parts = [c for clause in answer_match.clauses(response) for c in _AND_THE.split(clause) if c.strip()]
    offered = _offered(response)
    # garments are one person's outfit ("the jacket is red and the hat is blue" for "What is she
    # wearing?"), but things in their own right for a "this" / "it" that names no person ("What's this
    # made of?": "the helmet ..., and the sword ...")
    worn = lx.CLOTHING if not q.vague or q.referents & cues.PERSON_NOUNS else frozenset()
    seen: list[tuple[str, str, str]] = []
    for k, clause in enumerate(parts):
        found = _subject_and_frame(clause)
        if found is None or found[0] in lx.PART_NOUNS or found[0] in worn:
            continue
        if found[0] in q.words and found[0] not in q.referents:  # "the sport is cricket": the asked noun
            continue
        named_before = any(found[0] in cues.words(p) for p in parts[:k])
        if found[0] not in ("one", "other") and named_before and found[0] not in offered:
            continue
        for head, described, frame in seen:
            # `any_frame`: a described "the one ..." after a described referent needs no shared frame
            # ("the tall one is holding ..., the short one has ..."): both the referent or "one"
            names = set(q.referents) | {"one"}
            other_one = any_frame and {head, found[0]} <= names and (_described(clause) or bool(found[1]))
            if (frame != found[2] and not other_one) or (head == found[0] and not (described and found[1])):
                continue
            heads = {head, found[0]} - {"one", "other"}
            asked = heads & set(q.referents)
            if asked and asked != heads:
                continue
            if head != found[0] and (head in found[0] or found[0] in head):
                continue  # "the lamp ... and the lampshade ...": a compound on the other's noun is its part
            return f"answers for two subjects in turn: {head!r} and {found[0]!r}"
        seen.append(found)
    return None


# a key that says where its referent is or what it does there: "By the gate:", "On the wall:", "Grazing
# at the back:", "Parked nearest the door -"
_OBJECT_PLACE = lx.SPATIAL_PREPOSITIONS | lx.PLACE_WORDS


def described_keys(response: str) -> str | None:
    """Two or more list items or sentences keyed by different places or descriptions of a referent
    ("1. **Grazing at the back:** a sheep / 2. **By the gate:** a goat"): an answer for each referent so
    described, whatever the question calls it. A key is a spatial phrase ("by the gate") or a participle
    and one ("grazing at the back"); at least one key must say where in the image by a place word or a
    participle, so that conditions ("in the sun: red / in the shade: maroon") stay apart. Keys owned by a
    pronoun ("in his left hand") or a bare place on a part ("on the lid:") are one referent's parts; a
    participle says what a referent does there ("hanging by the window"). Each key must lead a short
    answer with no verb ("a sheep", "two goats"): a step's title ("Looking at the image: it shows ...")
    leads a sentence."""
    described: list[str] = []
    placed = False
    for key, value in cues.keyed_items(response):
        toks = cues.words(key)
        if len(toks) < 2 or set(toks) & cues.POSSESSIVE_PRONOUNS or not _short_answer(value):
            continue
        participle = toks[0].endswith(("ing", "ed")) or toks[0] in lx.POSTURE_VERBS
        if participle and _lemma(toks[0]) in lx.SPEAKER_VERBS | lx.IMPERATIVES:
            continue  # "Looking at the image:", "Checking the corner:": a step the speaker takes
        if toks[-1] in lx.PART_NOUNS and toks[-1] not in lx.PLACE_WORDS and not participle:
            continue
        lead = toks[1] if participle else toks[0]
        if lead not in lx.SPATIAL_PREPOSITIONS:
            continue
        described.append(key)
        placed = placed or participle or bool(set(toks[1:]) & lx.PLACE_WORDS)
    if len(described) >= 2 and placed:
        return f"items keyed by described referents: {', '.join(described[:3])}"
    return None


_THING_KEY = re.compile(r"^(?:the|your|my|this|that)\s+(?:[a-z'-]+\s+){0,2}?([a-z'-]+)$")


def things_keyed(response: str) -> str | None:
    """Two or more items keyed by definite things of different kinds, each with a short answer ("Your
    phone: yes (78%) / Your tablet: no - the cable isn't plugged in"): an answer for each thing, the
    rubric's enumerate. The keys must be physical objects by WordNet (not parts, places, attributes or
    the image: "The colour: red / The size: large" are one thing's fields) and differ in their head."""
    heads: dict[str, str] = {}
    for key, value in cues.keyed_items(response):
        m = _THING_KEY.match(" ".join(cues.words(key)))
        if m is None or not _short_answer(value):
            continue
        head = m.group(1)
        if head in lx.PART_NOUNS | lx.PLACE_WORDS | lx.ATTRIBUTE_NOUNS | lx.IMAGE_WORDS | _NOT_KEYS:
            continue
        if noun_senses.kind_of(en.lemma(head), "object"):
            heads.setdefault(head, key)
    if len(heads) >= 2:
        return f"items keyed by things: {', '.join(list(heads.values())[:3])}"
    return None


def _short_answer(value: str) -> bool:
    """A value that is an answer, not a sentence: a few words with no verb ("a sheep", "brown"), or the
    key's referent named by a copula ("it's a goat", "that is a wren")."""
    value = re.sub(
        r"^(?:it|this|that)(?:'s|\s+is|\s+looks\s+like|\s+appears\s+to\s+be)\s+", "", cues.normalise(value)
    )
    toks = cues.words(value)
    return 0 < len(toks) <= 6 and not any(t in lx.AUX or t in cues.VERBS or t.endswith("'s") for t in toks)


# a demonstrative that opens a clause before a noun ("That bird on the railing is a cormorant"): a referent
# phrase as much as one after "the"; before a verb ("that is", "this looks") it is the pronoun itself
_DEMONSTRATIVE = re.compile(r"(^|[.;!?]\s+|[,\u2013\u2014]\s*|\s-\s+)(?:this|that)\s+(?=([a-z][a-z'-]*))")


def demonstratives_as_the(text: str) -> str:
    def the(m: re.Match[str]) -> str:
        nxt = m.group(2)
        if nxt in lx.AUX or nxt in cues.VERBS or nxt in cues.STOPWORDS or nxt.endswith("'s"):
            return m.group(0)
        return m.group(1) + "the "

    return _DEMONSTRATIVE.sub(the, text)


def singled_out(q: cues.QuestionCues, text: str) -> str | None:
    """The first description that singles out the referent the reply answers for ("the dog on the sofa"),
    or None. A description of a thing the reply has already given as its answer ("is holding a guitar ...
    holding the guitar with both hands") singles out no referent: it describes the answer; nor does a
    side or place described ("runs in from the far end"), which says where, not which referent."""
    predicate = _asked_predicate(q)
    for found in cues.identifying_descriptions(q, demonstratives_as_the(text)):
        if found.noun in _SIDES or found.noun in lx.PLACE_WORDS:  # "from the far end": where, not who
            continue
        after = found.text.split()[len(found.noun.split()) :]
        if predicate and predicate in (found.noun, after[0] if after else ""):
            continue  # "chef cooking noodles in wok", "taken in a station": the question and its answer
        # a plural picks out a group, not the one referent a singular question asks about ("The people in
        # the park are wearing light clothing" for the weather); "these" / "they" ask about a group
        if cues.is_plural(found.noun) and not (q.plural_in_question or plural_pronoun(q)):
            continue
        if _in_offered_alternatives(cues.normalise(text), found):
            continue
        if _refers(found, text):
            return found.text
    return None


def _in_offered_alternatives(text: str, found: cues.Description) -> bool:
    """Whether a description stands in a question that offers alternatives ("Number 7, number 4, or the
    keeper diving at the back?"): it is a candidate asked about, not the referent answered for."""
    opens = max(text.rfind(c, 0, found.start) for c in ".!?\n") + 1
    closes = min((k for k in (text.find(c, found.end) for c in ".!?\n") if k >= 0), default=len(text))
    sentence = text[opens : closes + 1]
    return sentence.rstrip().endswith("?") and re.search(r"\bor\b", sentence) is not None


# an indefinite article and up to three modifiers right before a noun: "an attached two-car garage"
_INDEFINITE_BEFORE = re.compile(r"\b(?:a|an)\s+(?:[\w'-]+\s+){0,3}$")


def _refers(found: cues.Description, text: str) -> bool:
    """Whether a description read by the shared cues is a referent phrase the reply answers for. A noun
    phrase introduced by "a" / "an" ("Yes - an attached two-car garage with interior access") or a noun
    given so before ("holding a guitar ... the guitar with both hands") is a new thing the answer brings,
    not one referent picked out among candidates (the rubric's infer picks out with "the ... in the
    centre"). A "noun" that is the verb of its clause ("the cable isn't plugged in", "the original hangs in
    the Louvre": an auxiliary, a negated contraction, or an -s verb right after a noun WordNet knows) is
    no referent phrase: the clause's subject is the noun before it. `text` is read as the shared cues
    read it (normalised), where the description's offsets point."""
    normal = cues.normalise(text)
    before = normal[: found.start]
    if _given_before(found.noun, before) or _INDEFINITE_BEFORE.search(before):
        return False
    noun = found.noun
    if noun in lx.AUX or noun.endswith("n't") or "'" in noun:
        return False
    # the words between the description's "the" and its noun, or before it where it opens without one
    opening = r"(?:the|this|that)\s+((?:[a-z'-]+\s+){0,2}?)" + re.escape(noun) + r"\b"
    led = re.match(opening, normal[found.start :])
    lead = led.group(1).split() if led else re.findall(r"\bthe\s+([a-z'-]+)\s+$", before)
    if lead and _is_verb(noun) and noun != "one":
        word = lead[-1]
        modifier = word in lx.DISTINGUISHING_ADJECTIVES or word in lx.COLORS or word in lx.PLACE_WORDS
        if not modifier and noun_senses.senses(en.lemma(word)):
            return False
    return True


def _asked_predicate(q: cues.QuestionCues) -> str | None:
    """The question's last participle, its predicate ("cooking" of "What is the chef cooking?", "taken" of
    "Where was the photo taken?"). A reply that repeats it after the referent ("chef cooking noodles in
    wok", "taken in a train station") restates the question with its answer: what follows the participle
    is the answer, not a description that singles out a referent. A participle before the predicate ("the
    woman sitting on the bench" of "What is the woman sitting on the bench reading?") describes the
    referent, and one in the reply that the question lacks ("the woman sitting by the window") still
    singles one out."""
    toks = cues.words(q.text)
    participles = [t for t in toks if t.endswith(("ing", "ed", "en")) and _lemma(t) != t and t not in lx.AUX]
    return participles[-1] if participles and participles[-1] == toks[-1] else None


def _given_before(noun: str, before: str) -> bool:
    return bool(re.search(rf"\b(?:a|an)\s+(?:[a-z'-]+\s+){{0,2}}?{re.escape(noun)}\b", before))


# where the answer for a described referent ends: a sentence's end, or a conjunction or comma before the
# next definite subject ("the bike near the door is blue and the one on the fence is yellow")
_ANSWER_END = re.compile(
    r"[.;:!?\n]|,?\s+(?:and|while|whereas|but)\s+(?=(?:the|this|that)\s)|,\s+(?=(?:the|this|that)\s)"
)


# a terse item's key and its answer in one phrase: "kid on the left eating a pear" (place, then what it does)
_TERSE_ANSWER = re.compile(
    r"^.*?\b(?:on|in|at|by|near)\s+the\s+(?:far\s+)?[a-z]+\s+(?=[a-z]+ing\s)|^.*$", re.S
)


def _apposed(text: str, first: cues.Description, other: cues.Description) -> bool:
    """Whether `other` is an apposition renaming `first` ("The red-brick building on the corner, the one
    with the clock tower, looks Victorian"): a "the one ..." set off by a comma right after the first's
    description, with nothing between them but the first's own prepositional phrases (no verb, no value),
    so the first has no predicate of its own and the clause's answer after the apposition is the one
    answer for both."""
    if other.noun != "one":
        return False
    between = text[first.end : other.start].strip()
    if not between.endswith(","):
        return False
    toks = cues.words(between)
    return (not toks or toks[0] in cues.PREPOSITIONS) and not any(_is_verb(t) or t[0].isdigit() for t in toks)


def several_described(q: cues.QuestionCues, text: str) -> str | None:
    """Two or more referents, each singled out by a description of its own and each given an answer of its
    own ("The baby in the high chair is looking at the spoon, and the baby on the play mat ... at the
    mobile"; "the older boy about 10, the smaller boy maybe 5"): the reply enumerates, though each alone
    would single one out. The descriptions must differ (one is not the other's words again), each must be
    followed by an answer in its clause, and both must be of the asked kind: the question's referent,
    "one", or one noun twice ("the kettle on the stove ..., the one on the counter ..."); a described
    thing of another kind ("the cup in her hand") is part of an answer. Each description opens a clause of
    its own: "the man in the centre is the only one facing the camera" describes one man twice."""
    text = demonstratives_as_the(text)
    kinds = set(q.referents) | {"one"}
    answered: list[tuple[cues.Description, int]] = []  # with where its answer ends
    for found in cues.identifying_descriptions(q, text):
        end = _ANSWER_END.search(text, found.end)
        stop = end.start() if end else len(text)
        answer = text[found.end : stop]
        said = cues.content_words(answer) - q.words - found.words
        if not cues.content_words(
            answer
        ):  # a terse item answers within its key: "kid on the left eating a pear"
            said = cues.content_words(_TERSE_ANSWER.sub("", found.text)) - q.words
        # an answer that only asks the user to say so ("If you meant the little one sleeping by the door,
        # just let me know") offers that referent; it answers nothing for it
        if said and _refers(found, text) and not _REQUEST.search(answer):
            answered.append((found, stop))
    for k, (first, stop) in enumerate(answered):
        for other, _ in answered[k + 1 :]:
            # the other opens a clause of its own ("the man in the centre is the only one facing the
            # camera" says more of the first)
            if other.start < stop or first.words <= other.words or other.words <= first.words:
                continue
            if _apposed(text, first, other):
                continue
            nouns = {first.noun, other.noun}
            if nouns <= kinds or len(nouns) == 1 or "one" in nouns:
                return f"answers for referents described in turn: {first.text!r} and {other.text!r}"
    return None


# alternatives each answered inline: "either the teapot on the tray, which is white ceramic, or the sugar
# bowl next to it, which is glass"
_EITHER_OR = re.compile(
    r"\beither\s+((?:the|this|that|a|an)\s[^.;!?]+?)\s+or\s+((?:the|this|that|a|an)\s[^.;!?]+)"
)
_ANSWERED = re.compile(r"\b(?:is|are|was|were|'s|looks|seems|appears|reads|says|shows)\b|\(")


def answered_alternatives(text: str) -> str | None:
    """Candidates offered as alternatives, each with its own answer ("either the teapot ..., which is
    white ceramic, or the sugar bowl ..., which is glass"): an answer for each, the rubric's enumerate.
    Bare alternatives ("either the teapot or the vase", "either red or orange") answer nothing."""
    for m in _EITHER_OR.finditer(text):
        if all(_ANSWERED.search(side) for side in m.groups()):
            return f"alternatives, each answered: {m.group(0)[:70]!r}"
    return None


# a question back that offers the referents for the question's pronoun: "what's \"it\" - the mug, the
# t-shirt or the poster?", "Is \"it\" the banana or the avocado?", "is it the kettle or the pot?"
_QUOTED_PRONOUN = re.compile(r"[\"'](?:it|this|that|he|she|they|these|those|him|her|them)[\"']")
_PRONOUN_ASKED = re.compile(
    r"^(?:is|was|are|were)\s+(?:it|this|that|he|she|they|these|those)\s+(?:the|your)\s"
)
_OR_OFFERED = re.compile(
    r"\b(?:the|your|a|an)\s+[a-z][\w'-]*(?:\s+[\w'-]+){0,5}?\s*,?\s+or\s+(?:the|your|a|an)\s+[a-z]"
)


def offers_for_pronoun(response: str) -> str | None:
    """A question back that asks what the question's pronoun stands for by offering the candidates (the
    pronoun quoted, or "is it the X or the Y?"): it asks which referent is meant, without a "which"."""
    for sentence in reply_checks.sentences(cues.normalise(response)):
        if not sentence.endswith("?") or not _OR_OFFERED.search(sentence):
            continue
        if _QUOTED_PRONOUN.search(sentence) or _PRONOUN_ASKED.match(sentence):
            return sentence.strip()
    return None


# a question made only of candidates: "the bus, the jersey or the door?", "hmm, the red one or the blue
# one?"; each a definite noun phrase of a few words
# each a definite noun phrase of a few words, a place or participle phrase after it ("the one standing in
# the kitchen doorway"); a finite verb makes it a question about the answer
_CANDIDATE = r"(?:the|your|this|that)\s+[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,8}"
_CANDIDATES_ASKED = re.compile(
    rf"^(?:(?:{'|'.join(sorted(lx.FILLERS | {'hmm', 'oh', 'ah', 'er', 'erm'}))})\b\W*)*"
    rf"({_CANDIDATE}(?:\s*,\s*{_CANDIDATE})*\s*,?\s+or\s+{_CANDIDATE})\s*\?+$"
)


def offered_candidates(response: str) -> str | None:
    """A question back that only offers the candidates ("on what exactly? the bus, the jersey or the
    door?"), with nothing answered: the rubric's clarify ("it may list the candidates in its question").
    The question has no verb (a verb makes it a question about the answer: "is the bus or the jersey
    red?"), its candidates are definite (things in the scene; "a fox or a dog?" is a hedged answer), and
    every other sentence is a question too or answers nothing."""
    said = reply_checks.sentences(cues.normalise(response))
    for sentence in said:
        m = _CANDIDATES_ASKED.match(sentence)
        if m is None or set(cues.words(m.group(1))) & (lx.AUX | cues.VERBS):
            continue
        if all(s == sentence or s.endswith("?") or cues.answers_nothing(s) or speaker_aside(s) for s in said):
            return sentence.strip()
    return None


# the speaker's own act of answering, wanted, declined or offered: "I don't want to describe the wrong
# person", "I'd rather not guess", "I'll describe that one", "I need to know which"
_SPEAKER_ASIDE = re.compile(
    r"^(?:just\s+|so\s+)?i('d|'ll|'m)?\s+((?:(?:do\s+not|don't|would\s+not|wouldn't|rather|not|want|"
    r"wanna|need|would|will|can|just|am|going|happy|glad)\s+)*)(?:to\s+)?([a-z]+)\b"
)
# perception reports what is there ("I don't see a hat"): an answer, not an aside
_PERCEIVING = cues.word_set("see spot notice find count identify read locate recognise recognize look check")


def speaker_aside(sentence: str) -> bool:
    """A sentence about the speaker's own answering, wanted, declined or offered ("I don't want to
    describe the wrong person", "I'll describe that one"): it answers nothing about the scene, so it
    leaves a question back or a "not sure which you mean" a clarification. A perception ("I don't see a
    hat") reports the scene."""
    m = _SPEAKER_ASIDE.match(sentence.strip())
    if m is None or not (m.group(1) or m.group(2)):  # "I describe ..." with no modal is a statement
        return False
    return m.group(3) not in _PERCEIVING and _lemma(m.group(3)) in lx.SPEAKER_VERBS


# a statement that the reply cannot tell which referent the user means: "I can't tell which player you
# mean", "not sure which one you're asking about"
_CANNOT_TELL = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|could not|unable to|not sure|don't know|do not know|no way to)\s+"
    r"(?:(?:tell|know|say|determine|work out|figure out|be sure)\s+)?which\s+(?:one|[a-z'-]+)\s+"
    r"(?:you(?:'re| are)?\s+(?:mean|meant|asking|referring|talking)|is meant|you have in mind)\b"
)
_CLAUSE_BREAK = re.compile(r"[.;:!?\u2013\u2014]\s*|\s*-\s+|,?\s+(?:so|but|and|because)\s+|,\s+")


def cannot_tell_which(response: str) -> str | None:
    """A reply that says it cannot tell which referent is meant and answers nothing (its other clauses only
    say what is there: "There are several players on the pitch, so I can't tell which player you mean."):
    the rubric's clarify, though it asks no question. With an answer besides, it is no clarification."""
    text = cues.normalise(response)
    m = _CANNOT_TELL.search(text)
    if m is None:
        return None
    rest = [c.strip() for c in _CLAUSE_BREAK.split(text[: m.start()] + " . " + text[m.end() :]) if c.strip()]
    rest = [c for c in rest if not re.fullmatch(r"(?:i|sorry|so|but|and|,|\W)*", c)]
    if all(cues.answers_nothing(c) or _REQUEST.search(c) or speaker_aside(c) for c in rest):
        return m.group(0)
    return None


_REQUEST = re.compile(r"\b(?:let me know|please|could you|can you|tell me|point (?:out|to))\b")


# ------------------------------------------------------------------ markup, and what the rules do not read


@dataclasses.dataclass(frozen=True)
class Unmarked:
    """A reply without its markup: the text the rules read and how many phrases it grounded in the image."""

    text: str
    grounded: int


def without_markup(response: str) -> Unmarked:
    """The reply as prose: a reasoning model's trace dropped where an answer follows it (`without_trace`: the
    rubric judges the final answer after step-by-step reasoning), and a grounded caption's
    phrases kept as words, their boxes dropped ("<phrase>The person</phrase><object>...</object> is
    holding a surfboard" reads "The person is holding a surfboard"). Each grounded phrase is a thing the
    model located; the count says how many (see `unread_layout`). A reply of fields with no trace
    (`structured.fields`: "<referent>the mug</referent><answer>coffee</answer>", "intent: clarify") is
    read as prose first: its fields besides the answer say which referent it took or that it asks, and
    an answer tag alone would drop them."""
    traced = split_trace(response)
    laid_out = not traced.trace and structured.fields(response) is not None
    answer = structured.as_prose(response) if laid_out else traced.answer
    text, grounded = structured.without_grounding(answer)
    return Unmarked(text, grounded)


# markup the rules do not parse: a tag left, an arrow from what was resolved to what it is ("object
# nearest your pointing direction -> ceramic mug")
_UNREAD_MARKUP = re.compile(r"</?[a-z_][\w-]*>|->|\u2192|=>|\u25c1|\u25b7|^\s*\|", re.I | re.M)
# the user spoken of: "your pointing direction", "the sign you're pointing at"; a generic "you" before a modal
# ("you can see the logo", "not the maroon you might expect") is the speaker's evidence or aside, and text
# in quotes is what a sign or screen says
_USER = re.compile(r"\b(?:you(?!\s+(?:can|could|may|might|would|will|should)\b)|your|you're|you've)\b")
_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")
_VALUE_TOKEN = re.compile(r"[\w:./$\u20ac\u00a3%'-]+")


def unnamed_answer(response: str) -> str | None:
    """Why a reply of fields (`structured.fields`) that no rule read may still infer, enumerate or ask, or
    None: its field names are not read, only their values, and where no field is named as the answer
    ("ref=shop_door(centre) inferred_from=gaze_point state=open", or a JSON object's keys) the names are
    all that say which field is the answer and which the referent it took, or that it asks
    ("status=awaiting_user"); a record per thing (two or more objects of fields) answers for each. A reply
    with an answer field ("answer: tabby / confidence: 0.74") says which value answers; a list of plain
    values (["red", "blue"]) is no record of fields."""
    value = structured.fields(response)
    if isinstance(value, list) and sum(isinstance(v, dict) for v in value) >= 2:
        return f"{len(value)} records of fields, one per thing perhaps"
    if isinstance(value, dict) and not any("answer" in str(k).lower().split("_") for k in value):
        return f"fields with no answer field: {', '.join(str(k) for k in list(value)[:4])}"
    return None


def unread_layout(q: cues.QuestionCues, response: str, grounded: int) -> str | None:
    """Why a reply that no rule read as inferring, enumerating or asking may still do so, in a shape the
    rules do not parse, or None. The default label ("answer") holds only where the reply has no such
    shape: a question opening the reply that no question-back cue read; two or more grounded phrases (the
    model located several things: "<phrase>A boy</phrase> building a sandcastle and <phrase>a
    girl</phrase> flying a kite"); markup, an arrow or a table row left after the known tags were read;
    the user spoken of (what the user points at, asks or means, in words the assumption cues do not
    read: "the sign you're probably pointing at"); two or more items keyed by something other than the
    asked referent's parts or attributes, each a short value ("Tokyo: 7:40 / London: 23:40": a value per
    clock, or one thing's fields); a definite mention of a kind of the asked referent or of the asked
    noun in the plural (`_unread_mention`). Each is a reading of which referent the reply took that no
    rule made; the rules abstain there rather than call it a direct answer."""
    if grounded >= 2:
        return f"{grounded} grounded phrases: the reply located several things"
    markup = _UNREAD_MARKUP.search(response)
    if markup:
        return f"markup the rules do not read: {markup.group(0)!r}"
    text = _QUOTED.sub(" ", cues.normalise(response)).lower()
    # a question that opens the reply, before anything is answered, is where a question back stands; no
    # cue read it as one ("on what exactly? the bus, the jersey or the door?" is read; others may not be).
    # One after the answer offers more ("The kite is red. Do you want the pattern too?")
    asked = re.match(r"[^.!\n]*?\?", text)
    if asked:
        return f"opens with a question no rule read: {asked.group(0).strip()!r}"
    # so is a question after sentences that only say what is there ("Hold on, there are three lads in the
    # frame here! Number 7, number 4, or the keeper?")
    for sentence in (x.strip() for x in re.split(r"(?<=[.!?])\s+|\n", text) if x.strip()):
        if sentence.endswith("?"):
            return f"asks before answering anything, in a question no rule read: {sentence!r}"
        if not (cues.answers_nothing(_LEADING_FILLER.sub("", sentence)) or speaker_aside(sentence)):
            break
    # what the reply says, not what it asks or offers after the answer ("Do you want the pattern too?",
    # "Let me know if you meant the other one")
    said = reply_checks.sentences(text)
    stated = " ".join(x for x in said if not x.endswith("?") and not _REQUEST.search(x))
    user = _USER.search(stated)
    if user:
        return f"speaks of the user ({user.group(0)!r}) in a way no rule reads"
    mention = _unread_mention(q, text) or _placed_referent(q, text)
    if mention:
        return mention
    keys = []
    for key, value in cues.keyed_items(response):
        toks = cues.words(key)
        said = _VALUE_TOKEN.findall(cues.normalise(value))
        if not toks or toks[0] in _NOT_KEYS or toks[-1] in lx.PART_NOUNS | lx.ATTRIBUTE_NOUNS:
            continue
        if 0 < len(said) <= 4 and not set(said) & (lx.AUX | cues.VERBS):
            keys.append(key)
    if len(set(keys)) >= 2:
        return f"short values keyed by {', '.join(keys[:3])}: one per referent, or one thing's fields"
    return None


# an interjection or a "hold on" before what a sentence says: "Hold on, there are three ..."
_LEADING_FILLER = re.compile(
    r"^(?:(?:oh|ah|hmm+|um+|uh|ok(?:ay)?|well|so|wow|hold on|wait|hey|oops|sorry)\b\W*)+"
)
_DEFINITE_WORDS = re.compile(r"\b(?:the|this|that|these|those)\s+((?:[a-z][a-z'-]*\s+){0,2}[a-z][a-z'-]*)")


# the image's own sides and depths, which tell referents apart ("on the left", "in the background"); a
# place in the scene ("in the middle of the road", "at the back of the room") says where, not which
_FRAME_PLACE = re.compile(
    r"\b(?:on|in|at|to)\s+the\s+(?:far\s+)?(left|right|leftmost|rightmost|foreground|background)\b"
)
_CLAUSE = re.compile(r"[.;!?\n]\s*|,\s*(?:and\s+|but\s+)?|\s+(?:and|but|while)\s+")
_REFERENT_PRONOUNS = cues.word_set("he she it they he's she's it's they're")


def _placed_referent(q: cues.QuestionCues, text: str) -> str | None:
    """A clause about the asked referent (its noun or its pronoun as the subject) that places it on a side
    or at a depth of the image the question does not name ("The man is standing by the van on the left,
    unloading boxes", "He's in the background, waving"): it may say which one the reply took (infer) or
    only where the one asked about is (answer); no rule reads which. For a "where" question the place is
    the answer ("It sits on the left")."""
    if re.search(r"\bwhere\b", q.text):
        return None
    for clause in _CLAUSE.split(text):
        toks = cues.words(clause)
        if not toks:
            continue
        subject = toks[0] in _REFERENT_PRONOUNS or (
            toks[0] in cues.DETERMINERS and len(toks) > 1 and en.lemma(toks[1]) in q.referents
        )
        placed = _FRAME_PLACE.search(clause)
        if subject and placed and placed.group(1) not in q.words:
            return f"the asked referent placed, which no rule read: {placed.group(0)!r}"
    return None


_ENDS_NOUN_PHRASE = lx.AUX | cues.VERBS | lx.ARTICLES | cues.PREPOSITIONS | cues.STOPWORDS


def _unread_mention(q: cues.QuestionCues, text: str) -> str | None:
    """A definite mention of the asked referent that no rule classified: a kind of it ("the batsman" for
    "What is the player doing?", WordNet's hyponym; not the person a pronoun already names, "the woman"
    for "she"), which may say which one the reply took or only call it by its name; or the asked noun in
    the plural ("The numbers are 10 and 23" for "What number is on the jersey?"), which may answer for
    several. Either way the direct answer is a guess."""
    people = cues.PRONOUN_PEOPLE.get(q.pronoun or "", frozenset())
    things = [r for r in q.referents if noun_senses.kind_of(r, "object")]  # not "weather", "room"'s kinds
    for m in _DEFINITE_WORDS.finditer(text):
        for word in m.group(1).split():
            if word in _ENDS_NOUN_PHRASE:  # "this is a kitchen": the pronoun, then its verb
                break
            single = en.lemma(word)
            if word in q.words or single in people or word in people:
                continue
            if single in q.words & (q.referents | lx.ATTRIBUTE_NOUNS) and cues.is_plural(word):
                return f"the asked noun in the plural: {m.group(0)!r}"
            kinds = [r for r in things if single != r and noun_senses.kind_of(single, r)]
            if kinds:
                return f"a kind of the asked {kinds[0]!r} that no rule read: {m.group(0)!r}"
    return None


# keys that title a step or the answer itself, not a referent: "Step 1:", "Answer:", "Note:"
_NOT_KEYS = cues.word_set("step answer final note summary overview reasoning conclusion result")


# a question back written without its "?" (chat style): a sentence or clause that opens with "which" and a
# noun or "one", no verb after ("which one lol, there's like 4 cones in this pic")
_WHICH_UNMARKED = re.compile(r"^which\s+(one|[a-z][a-z'-]*)\b(?:\s+([a-z][a-z'-]*))?")
_CLAUSES = re.compile(r"[.;!?\u2013\u2014]\s*|\s-\s|,\s*|\n")


def unmarked_which(response: str) -> str | None:
    """A question back that asks which referent is meant, written without its question mark ("which one
    lol, there's like 4 cones in this pic"): a clause that opens with "which" before "one" or a noun, not
    followed by a verb ("which is why ..." and "which one is red" are no such clause), with every other
    clause only saying what is there or asking nothing. A reply that answers besides is left to the other
    rules."""
    text = cues.normalise(response).lower()
    clauses = [c.strip() for c in _CLAUSES.split(text) if c.strip()]
    for k, clause in enumerate(clauses):
        m = _WHICH_UNMARKED.match(clause)
        if m is None or m.group(1) in lx.AUX or m.group(1) in cues.VERBS:
            continue
        verb = m.group(2) or ""
        # "which animal are you asking about": the auxiliary before "you" inverts a question to the user,
        # a question back as much as "which one?"; "which one is red" is about a referent
        asks_user = verb in lx.AUX and re.match(r"\s*you\b", clause[m.end() :]) is not None
        if (verb in lx.AUX or verb in cues.VERBS) and not asks_user:
            continue
        rest = [c for j, c in enumerate(clauses) if j != k]
        if all(_says_only_what_is_there(c) for c in rest):
            return clause
    return None


def _says_only_what_is_there(clause: str) -> bool:
    """A clause that only says what is there ("there's like 4 cones in this pic", "there are two"): it
    answers nothing about a referent. Chat fillers ("like", "kinda") after "there's" are dropped."""
    clause = re.sub(r"^there's\b", "there is", clause)
    clause = re.sub(
        r"^(there (?:is|are))\s+(?:like|kinda|kind of|sort of|about|around|maybe)\s+", r"\1 ", clause
    )
    return cues.answers_nothing(clause) or speaker_aside(clause)


# a question back that proposes one referent ("Are you asking about the passenger with the red suitcase?",
# "Do you mean the dog on the sofa?"), with no second candidate, then an answer for it on that condition
_PROPOSES_ONE = re.compile(
    r"^(?:(?:do|did) you mean|are you (?:asking|talking) about|are you referring to|is it|you mean)\s+"
    r"(?:the|this|that|your)\s+[^?]*\?$"
)
_IF_SO = re.compile(r"^(?:if so|if yes|if that's the one|if that is the one|assuming so|in that case)\b\W*")
_ABOUT_REFERENT = re.compile(r"^(?:he|she|it|they|this|that|the|his|her|its|their)\b|^(?:it|that|he|she)'s\b")


def checked_then_answered(response: str) -> str | None:
    """A reply that checks the one referent it took, as a question, and answers for it on that condition
    ("Are you asking about the passenger with the red suitcase? If so, she's wearing a beige trench coat"):
    the rubric's infer (one referent inferred, made clear, and answered for), not a clarification, which
    asks instead of answering. The question offers one candidate (no "or"), and what follows "if so" speaks
    of the referent ("she's wearing ..."), not of the speaker ("If so, I'll need a closer shot": asks)."""
    said = reply_checks.sentences(cues.normalise(response).lower())
    for k, sentence in enumerate(said[:-1]):
        if not _PROPOSES_ONE.match(sentence) or " or " in sentence:
            continue
        follow = _IF_SO.match(said[k + 1])
        if follow and _ABOUT_REFERENT.match(said[k + 1][follow.end() :]):
            return f"checks the referent it took, then answers for it: {sentence!r}"
    return None


# a clause led by a definite subject, then a colon and what follows it up to the sentence's end: "The avocado
# on the chopping board looks ripe: dark skin, and the flesh is soft"
_COLON_AFTER_CLAUSE = re.compile(r"(^|[.!?]\s+)((?:the|this|that)\s[^.:;!?\n]*?):\s[^.!?\n]*", re.I)


def without_evidence_after_answer(q: cues.QuestionCues, response: str) -> str:
    """The reply without what follows a colon after a clause that already answers the question for one
    subject ("The avocado on the chopping board looks ripe: dark skin, and the flesh is soft" for "Is it
    ripe?"): the clause says the question's own predicate ("ripe") of its subject, so what the colon opens
    is its evidence, whose subjects ("the flesh") are no second referent answered for. A colon after an
    introduction ("The case holds two objects: the helmet ..., the sword ...") or after a plural ("The
    bananas are ripe: the big one ...") opens answers, and stays."""
    predicate = (
        set(q.words)
        - set(q.referents)
        - lx.QUESTION_FRAME_WORDS
        - cues.STOPWORDS
        - lx.AUX
        - lx.ATTRIBUTE_NOUNS
        - lx.DEICTICS
    )
    if not predicate:
        return response

    def drop(m: re.Match[str]) -> str:
        clause = m.group(2)
        found = _subject_and_frame(cues.normalise(clause).lower())
        if found is None or cues.is_plural(found[0]) or not set(cues.words(clause)) & predicate:
            return m.group(0)
        return f"{m.group(1)}{clause}."

    return _COLON_AFTER_CLAUSE.sub(drop, response)
