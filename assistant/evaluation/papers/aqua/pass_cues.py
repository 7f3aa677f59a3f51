"""The AQuA PASS-after-clarification rules' cues (`judge.clarification_rules`): the patterns and helpers
that read whether a reply offers several options, which item of a keyed list the hint picks, and whether
the reference answer is given for the hinted referent (or may be, in other words). The rules themselves are
described in judge.py's module docstring."""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.evaluation import answer_match
from assistant.evaluation import response_cues as cues
from assistant.evaluation.judgement import UNKNOWN, Judgement

_NUMBERS = {w: str(n) for w, n in lx.NUMBER_WORDS.items()}  # "two" -> "2", as in the question analyser
_PASS_STOP = cues.STOPWORDS | cues.word_set("it this there be was were has have color colour answer final")
# "not red", "isn't an umbrella", "isn't holding an umbrella" (one -ing verb between)
_NEGATION = re.compile(
    r"\b(?:not|no|isn't|aren't|wasn't|isnt|arent|wasnt|never|nor)\s+(?:[a-z]+ing\s+)?(?:a\s+|an\s+|the\s+)?$"
)

_HEDGES = (
    (re.compile(r"\beither\b[^.?!]*\bor\b", re.I), "either ... or"),
    (re.compile(r"\bif you (?:mean|are (?:asking|referring))\b", re.I), "'if you mean'"),
    (re.compile(r"\bdepending on (?:which|what|whether)\b", re.I), "'depending on which'"),
    # "red or blue", "maybe yellow? or orange", "red... or orange", never "whether or not" / "or so" /
    # "more or less"
    (
        re.compile(
            r"\b(?!whether\b|more\b)[a-z]+(?:,|\?|\.\.\.|\u2026)? or "
            r"(?!not\b|so\b|less\b|more\b|other\b)[a-z]+",
            re.I,
        ),
        "'... or ...'",
    ),
)


# two numbers offered: "5 or 6", "five to six", "3-4", "6 - or possibly a 9", "between 3 and 4"; a time
# ("3:45"), a decimal and "or at least 5" (no second option) are not
_NUMBER = r"(?<![\d:.,])(\d+(?:\.\d+)?)(?![\d:]|\.\d)"
_MAYBE = r"(?:maybe|perhaps|possibly|probably|even)"
_NUMBER_HEDGE = re.compile(
    _NUMBER
    + r"(?:\s*(?:[,\u2013\u2014-]\s*)?(to\s|[\u2013\u2014-])"  # a range: "3 to 4", "3-4"
    # or an alternative, a counted noun allowed before it: "5 or 6", "5 birds, maybe 6", "6 - or possibly 9"
    + rf"|(?:\s+[a-z]+)?\s*(?:[,\u2013\u2014-]\s*)?(or\s|(?={_MAYBE})))"
    + rf"\s*(?:{_MAYBE}\s+)?(?:(?:a|an)\s+)?"
    + _NUMBER
)
_BETWEEN = re.compile(r"\bbetween\s+" + _NUMBER + r"\s+and\s+" + _NUMBER)


def _number_hedge(response: str, offered: set[float]) -> str | None:
    """Two different numbers offered as the answer, one of them a reference number (`offered`), or None:
    "There are 5 birds, 2 or 3 of them small" hedges no answer. A range ("to", a dash) runs upwards ("the
    score is 2 to 1" is one answer); "or" offers any two."""
    text = " ".join(answer_match.tokens_text(response).split())
    for m in _NUMBER_HEDGE.finditer(text):
        low, high = float(m.group(1)), float(m.group(4))
        if low != high and (m.group(2) is None or low < high) and {low, high} & offered:
            return f"'{m.group(0)}'"
    between = _BETWEEN.search(text)
    if between and {float(between.group(1)), float(between.group(2))} & offered:
        return f"'{between.group(0)}'"
    return None


def several_options(response: str, references: list[str]) -> str | None:
    """How a reply offers several answers instead of one (a list whose items are alternatives, "either ...
    or", "if you mean", "red or blue", two numbers around the reference's, or a bare "23 and 8"), or None.
    AQuA's PASS asks for the answer to the clarified question."""
    if listed_options(response, references) == "options":
        return "a list"
    for pattern, name in _HEDGES:
        if any(
            _hedges_answer(m, response, references)
            and (name != "'... or ...'" or _alternative(m, response, references))
            for m in pattern.finditer(response)
        ):
            return name
    numbers = {
        float(t) for r in references for t in answer_match.tokens(r) if re.fullmatch(r"\d+(?:\.\d+)?", t)
    }
    return (_number_hedge(response, numbers) if numbers else None) or _bare_values(response, references)


# a sentence that is itself unsure of what it says
_UNSURE = re.compile(
    r"\b(?:might|could|may|maybe|perhaps|possibly|probably|likely|unsure|guess|not\s+(?:sure|certain)|"
    r"hard\s+to|difficult\s+to|can'?t\s+(?:tell|be\s+sure|say)|cannot\s+(?:tell|be\s+sure|say))\b",
    re.I,
)


def settled_after_options(response: str, references: list[str]) -> str | None:
    """The last sentence of a reply that offers options before it (`several_options` on the sentences
    before) and then states one reference answer plainly, with no option or doubt of its own ("Could be a
    cat or a dog ... The ears are pointed. It's a cat."), or None: options, then one settled on. The
    rubric judges the final answer, but whether the annotators read the options or the settled answer
    differs by reply, so the rules abstain."""
    sentences = [
        s for s in re.split(r"(?<=[.!?])\s+|\n+", response.strip()) if re.search(r"[a-z0-9]", s, re.I)
    ]
    if len(sentences) < 2:
        return None
    last, head = sentences[-1], " ".join(sentences[:-1])
    words = [answer_words(r) for r in references]
    if not any(answer_match.contains_answer(w, last) for w in words) or _UNSURE.search(last):
        return None
    if several_options(last, references) or not several_options(head, references):
        return None
    return last


# what ends the stretch of text whose alternatives an "or" offers: a sentence or a dash, not a comma
_HEDGE_SPAN_END = re.compile(r"[.;:!?\n\u2013\u2014]\s|\s[-\u2013\u2014]\s|\n")


def _hedges_answer(m: re.Match[str], response: str, references: list[str]) -> bool:
    """Whether the alternatives matched by `m` are alternatives for the answer: the stretch they stand in
    (up to a sentence end or a dash) holds a reference word, or the reply gives no reference at all. "is
    eating - it looks like mashed banana, or maybe some fruit puree" gives one answer ("eating") and
    hedges only a detail; a yes / no is answered by whole clauses ("he might be wearing glasses or it
    might be a reflection"), so its hedges always count."""
    words = [answer_words(r) for r in references]
    if any(w in (["yes"], ["no"]) for w in words) or all(
        answer_match.missing_words(w, response) for w in words
    ):
        return True
    starts = [e.end() for e in _HEDGE_SPAN_END.finditer(response, 0, m.start())]
    end = _HEDGE_SPAN_END.search(response, m.end())
    span = response[starts[-1] if starts else 0 : end.start() + 1 if end else len(response)]
    return any(len(answer_match.missing_words(w, span)) < len(w) for w in words)


_ALTERNATIVE_END = re.compile(r"[,.;:!?()\n\u2013\u2014]|\s-\s")
_FILLER = cues.word_set("maybe perhaps possibly probably even a an the some")


def _alternative(m: re.Match[str], response: str, references: list[str]) -> bool:
    """Whether the two sides of a bare "X or Y" (up to three words each, to a comma, a stop or a dash)
    give a reference word, or the reply gives none at all: then the "or" offers answers; where the answer
    stands outside both ("soup, probably tomato or carrot" for "soup") it hedges a detail of one answer."""
    words = [answer_words(r) for r in references]
    if all(answer_match.missing_words(w, response) for w in words):
        return True
    cut = m.start() + m.group(0).lower().index(" or ")
    # a series reaches back over its commas ("green, teal, or blue"), unless the part next to the "or" is
    # hedged on its own ("soup, probably tomato or carrot": a detail of what came before)
    series = re.split(r"[.;:!?()\n\u2013\u2014]|\s-\s", response[:cut].rstrip(" ,.?\u2026"))[-1].split(",")
    before = series[-1].split()[-3:]
    if before and before[0].lower() not in _FILLER and all(len(p.split()) <= 3 for p in series):
        before = " ".join(series).split()
    after = [t for t in _ALTERNATIVE_END.split(response[cut + 4 :])[0].split() if t.lower() not in _FILLER]
    sides = " ".join(before + after[:3])
    return any(len(answer_match.missing_words(w, sides)) < len(w) for w in words)


def _values(text: str) -> list[str]:
    """The numbers and times a text gives (`answer_match.tokens`)."""
    return [t for t in answer_match.tokens(text) if re.fullmatch(r"\d+(?:\.\d+)?|\d{1,2}:\d\d[ap]?m?", t)]


def _bare_values(response: str, references: list[str]) -> str | None:
    """A reply that is nothing but two or more different values, one of them the reference's, for a
    reference of one value ("23 and 8", "It's 23, 8." for "23"): two answers to one question, no referent
    named that would tie either to the hinted one. A value with a word of its own ("23 on the left and 8
    on the right", "2 cats and 3 dogs") is left to the binding rules."""
    given = _values(response)
    if len(set(given)) < 2:
        return None
    content = [
        t for t in answer_match.tokens(response) if t.split("'")[0] not in _PASS_STOP and t not in given
    ]
    if content:
        return None
    for ref in references:
        value = _values(ref)
        if len(set(value)) == 1 and value[0] in given:
            return f"two values for one question: {' and '.join(dict.fromkeys(given))}"
    return None


def listed_options(response: str, references: list[str]) -> str | None:
    """What a list of two or more items (`cues.list_items`) is to the answer, or None for no list:
    "evidence" when no item gives a reference answer and the text around the list does (observed
    features, then "That's a red squirrel"): one answer, supported; "picked" when an item gives it and
    the text after the list gives it again (options, then one chosen; or features that name the answer
    word): the rules cannot tell which; "options" otherwise: the items are alternatives for the answer."""
    items = cues.list_items(response)
    if len(items) < 2:
        return None
    lines = [ln.strip() for ln in response.replace("\r", "").split("\n")]
    outside = [ln for ln in lines if ln and ln not in items]
    last = max(k for k, ln in enumerate(lines) if ln in items)
    after = [ln for ln in lines[last + 1 :] if ln]
    words = [answer_words(r) for r in references]

    def gives(text: str) -> bool:
        return any(answer_match.contains_answer(w, text) for w in words)

    if not any(gives(it) for it in items):
        return "evidence" if gives("\n".join(outside)) else "options"
    return "picked" if gives("\n".join(after)) else "options"


def several_answered(question: str, hint: str, response: str) -> str | None:
    """Answers for several referents, none of them tied to the hinted one ("Both children wear raincoats:
    one in yellow and one in green"): not the answer to the clarified question."""
    q = cues.question_cues(question)
    several = cues.several_answered(q, response)
    if several and several.startswith("quantified"):  # "All the kids hold sparklers": one answer for all,
        quantifier = several.split("'")[1]  # unless they are then told apart ("one in yellow, one in green")
        several = cues.several_answered(q, cues.normalise(response).replace(quantifier, " ", 1))
    if not several or several.startswith("plural subject"):  # "The Lakers are ahead": one team's name
        return None
    parts = answer_match.clauses(response)
    hint_words = _hint_words(hint, question)
    # forms, not bare words: a possessive names its owner ("The girl's umbrella is yellow")
    named = [c for c in parts if any(not answer_match.missing_words([w], c) for w in hint_words)]
    return None if named else several


def matched(references: list[str], question: str, hint: str, response: str) -> Judgement:
    """PASS when the response gives one of the references for the hinted referent (judge.py's docstring)."""
    hint_words = _hint_words(hint, question)
    asked_nouns = cues.question_cues(question).referents
    referents = frozenset(asked_nouns | set(hint_words))
    unread = aside = None
    other: tuple[str, str | None] | None = None
    for ref in references:
        words = answer_words(ref)
        if words in (["yes"], ["no"]):
            # a clause about the hinted referent that reads neither way leaves the reply's opening word,
            # which answers the clarified question ("No, the man at the podium has an open collar")
            said = answer_match.yes_no(
                question, _hinted_part(response, hint_words, referents), _PASS_STOP
            ) or answer_match.opening_yes_no(response)
            if said == words[0]:
                return Judgement("PASS", reason=f"answers {said!r}", path="rules:pass.yes-no")
            unread = unread or (None if said else ref)
            continue
        said, via, word = response, "", ""
        if not answer_match.contains_answer(words, response):
            other_words = _in_other_words(words, question, hint, response) or _as_date(ref, response)
            if other_words is None or not answer_match.contains_answer(words, other_words[0]):
                continue
            said, via, word = other_words
        counted = _counted_other(question, said, words)
        if counted:
            return Judgement(
                "FAIL",
                reason=f"counts {counted!r}, not {ref!r}, of the asked things",
                path="rules:pass.count",
            )
        elsewhere = _object_elsewhere(question, said, words)
        if elsewhere:
            return Judgement(
                "FAIL",
                reason=f"gives {elsewhere!r}, not {ref!r}, as the asked object",
                path="rules:pass.object",
            )
        place = answer_match.other_place(words, said, hint, referents)
        opposed = None if place else answer_match.opposed_referent(words, said, hint_words, referents)
        if place or opposed or answer_match.bound_to_hint(words, said, hint_words, referents) is False:
            other = other or (ref, f"the one {place}" if place else opposed)
            continue
        if answer_match.unhinted_contrast(words, said, hint_words, referents):
            aside = aside or "the reply tells referents apart and no clause has the hint's words"
            continue
        described = answer_match.other_modifier(words, said, hint, asked_nouns)
        if described and described[0]:
            other = other or (ref, None)
            continue
        if described:
            aside = aside or f"{described[1]}: another referent, or the hinted one in other words"
            continue
        if _hint_denied(words, said, hint_words):
            return Judgement(
                "FAIL",
                reason=f"says the hinted referent has none; {ref!r} is given to another",
                path="rules:pass.bound",
            )
        if via and not _where_answered(word, question, response):
            aside = aside or f"{via} stands in a clause that does not answer the question"
            continue
        if via:
            reason = f"gives the reference {ref!r} as {via}"
            return Judgement("PASS", reason=reason, path="rules:pass.synonym")
        return Judgement("PASS", reason=f"contains the reference answer {ref!r}", path="rules:pass.contains")
    if unread:
        return Judgement(
            UNKNOWN, reason="neither yes nor no can be read from the reply", path="rules:pass.abstain"
        )
    if aside:
        return Judgement(UNKNOWN, reason=aside, path="rules:pass.abstain")
    if other:
        where = f" ({other[1]})" if other[1] else ""
        return Judgement(
            "FAIL",
            reason=f"gives {other[0]!r} for another referent than the hinted one{where}",
            path="rules:pass.bound",
        )
    related = _related_wording(references, question, response)
    if related:
        return Judgement(UNKNOWN, reason=related, path="rules:pass.abstain")
    return Judgement(
        "FAIL", reason=f"does not contain the reference answer {references[0]!r}", path="rules:pass.missing"
    )


def _in_other_words(words: list[str], question: str, hint: str, response: str) -> tuple[str, str, str] | None:
    """The reply read with the reference's head noun where a synonym or a kind of it stands
    (`answer_match.in_other_words`: "the fiddle" for "violin", "a mallard" for "duck") or a British or
    American term for it (`answer_match.in_regional_words`: "trainers" for "sneakers"), and how it was
    said; the question's and hint's words name the referent, not the answer. Not for a colour: its
    shades are a closed class (`_clashes`), "teal" is no sure "green"."""
    if not words:
        return None
    shade = _in_shade_words(words, response)
    if shade is not None or words[-1] in lx.COLORS:
        return shade
    found = answer_match.in_other_words(words, response, answer_match.tokens(f"{question} {hint}"))
    if found is None:
        regional = answer_match.in_regional_words(words, response)
        if regional is None:
            return None
        return regional[0], f"{regional[1]!r}, the other variety's word for {words[-1]!r}", regional[1]
    reading, word, how = found
    return reading, f"{word!r}, {how} of {words[-1]!r}", word


def _in_shade_words(words: list[str], response: str) -> tuple[str, str, str] | None:
    """The reply read with the reference's shade where it gives another word of the same shade before the
    reference's colour ("pale blue" for "light blue": `_LIGHT_SHADES`, a closed class like the colours),
    and how it was said; None otherwise."""
    for k, w in enumerate(words[:-1]):
        group = next((g for g in (_LIGHT_SHADES, _DARK_SHADES) if w in g), None)
        if group is None or words[k + 1] not in lx.COLORS:
            continue
        for other in sorted(group - {w}):
            pattern = rf"\b{other}(?=[\s-]+{words[k + 1]}\b)"
            if re.search(pattern, response, re.IGNORECASE):
                reading = re.sub(pattern, w, response, flags=re.IGNORECASE)
                return reading, f"{other!r}, the same shade as {w!r}", other
    return None


def _as_date(reference: str, response: str) -> tuple[str, str, str] | None:
    """The reply read with the reference date where a numeric date gives it (`answer_match.in_date_words`:
    "12/12" for "12 December"), how it was said, and the date's first token (where it stands)."""
    found = answer_match.in_date_words(reference, response)
    if found is None:
        return None
    reading, numeric = found
    return reading, f"{numeric!r}, a numeric date", answer_match.tokens(numeric)[0]


_WH = cues.word_set("what which who whose whom where when how")


def _where_answered(word: str, question: str, response: str) -> bool:
    """Whether `word` stands where the reply answers: in its first clause, or in a clause with the
    question's own predicate ("playing", "riding"; not its referent, a pronoun or a wh-word). "He rides a
    scooter; his brother has a bike" gives a bike to no one asked about."""
    referents = cues.question_cues(question).referents
    skip = _PASS_STOP | cues.PREPOSITIONS | _WH | lx.PERSON_PRONOUNS | lx.PLURAL_PRONOUNS
    asked = [w for w in cues.words(question) if w not in skip and w not in referents]
    for k, clause in enumerate(answer_match.clauses(response)):
        if word in answer_match.tokens(clause) and (
            k == 0 or any(not answer_match.missing_words([w], clause) for w in asked)
        ):
            return True
    return False


# "isn't holding anything", "has nothing", "no one is ...": the clause gives its subject no answer at all
# ("nothing but a rattle", "nothing else than" give one)
_NONE_SAID = re.compile(
    r"\b(?:nothing|nobody|no\s+one)\b(?!\s+(?:but|except|else|other|apart|besides))|"
    r"\b(?:not|n't|never)\s+(?:[a-z]+\s+){0,2}?(?:anything|anyone|anybody|any)\b"
    r"(?![^.;]*\b(?:but|except|apart\s+from|besides|other\s+than)\b)"
)

_NONE_BUT = re.compile(
    r"\b(?:nothing|anything|anyone|anybody|no one|nobody)\s+(?:but|except|else|other|apart|besides)\b"
)


def _hint_denied(words: list[str], response: str, hint_words: list[str]) -> bool:
    """The clause naming the hinted referent says it has no answer ("The child in the pram isn't holding
    anything, but the boy next to it has a rattle"), and the reference is only in another clause: the
    reply gives the reference to another referent."""
    if not hint_words:
        return False
    parts = answer_match.clauses(response.replace("n\u2019t", "n't"))
    hinted = [c for c in parts if set(hint_words) & set(cues.words(c))]
    if _NONE_BUT.search(cues.normalise(response)):  # "nothing but a rattle": the clause break hides the "but"
        return False
    denying = [c for c in hinted if _NONE_SAID.search(c.replace("n't", " n't"))]
    answering = [c for c in parts if answer_match.contains_answer(words, c)]
    return bool(denying and answering) and not set(answering) & set(hinted)


def _object_elsewhere(question: str, response: str, words: list[str]) -> str | None:
    """For a question ending in a preposition ("What is the dog lying on?"), the object the reply gives to
    that preposition when the reference is not in it ("lying on the floor next to the couch": the couch
    is only nearby), or None. Places ("on the left") and the picture ("in the image") are no such object."""
    asked = cues.words(question.split("?")[0])
    if not asked or asked[-1] not in cues.PREPOSITIONS:
        return None
    stops = "|".join(sorted(cues.PREPOSITIONS | {"and", "but", "while", "which", "that", "where"}))
    objects = [
        m.group(2)
        for m in re.finditer(
            rf"(?:\b([a-z'-]+)\s+)?\b{asked[-1]}\s+((?:[a-z'-]+\s+){{0,4}}?[a-z'-]+)"
            rf"(?=\s+(?:{stops})\b|\s*[.,;:!?]|\s*$)",
            cues.normalise(response),
        )
        if asked[-1] != "of" or _governed_by(m.group(1) or "", asked[-2:-1])
    ]
    pronouns = {
        "it",
        "them",
        "this",
        "that",
        "him",
        "her",
        "these",
        "those",
        "top",
    }  # "on it", "on top of it"
    objects = [
        o
        for o in objects
        if cues.place_of(o) is None and not _the_picture(o) and cues.content_words(o) - pronouns
    ]
    if not objects or any(answer_match.contains_answer(words, o) for o in objects):
        return None
    return objects[0]


_HOW_MANY = re.compile(r"\bhow\s+many\s+([a-z]+)")


def _counted_other(question: str, response: str, words: list[str]) -> str | None:
    """For "How many suitcases ...?", the count the reply puts on the asked noun itself when no such count
    is the reference number ("She has three suitcases: two large ones and a carry-on" for "2"): the
    reference's number then counts a part, not the asked things. A number counts the noun it stands
    before, up to two words between ("three large leather suitcases")."""
    asked = _HOW_MANY.search(cues.normalise(question))
    if asked is None or len(words) != 1 or not words[0].isdigit():
        return None
    noun = answer_match.forms(asked.group(1))
    toks = answer_match.tokens(response)
    counts = [
        (t, toks[k + j])
        for k, t in enumerate(toks)
        if t.isdigit()
        for j in (1, 2, 3)
        if k + j < len(toks)
        and answer_match.forms(toks[k + j]) & noun
        and not any(x.isdigit() for x in toks[k + 1 : k + j])
    ]
    if not counts or any(t == words[0] for t, _ in counts):
        return None
    return f"{counts[0][0]} {counts[0][1]}"


def _governed_by(before: str, governor: list[str]) -> bool:
    """Whether an "of" after the word `before` is the question's own ("What is the painting of?": "the
    painting of a ship"): "of" completes the noun right before it, so "a field full of sunflowers" or "a
    shaft of light" gives what fills the field or the shaft, not what the painting is of."""
    return bool(governor) and bool(answer_match.forms(before) & answer_match.forms(governor[0]))


def _the_picture(phrase: str) -> bool:
    return bool(set(cues.words(phrase)) & {"image", "picture", "photo", "photograph", "scene", "frame"})


def _hinted_part(response: str, hint_words: list[str], referents: frozenset[str]) -> str:
    """The clauses that name the hinted referent, where the others name another ("Yes, the left door is
    open, but the right one is closed" for the right door): a yes / no is read there; else the whole
    reply (a bare "Yes," before the hinted clause names nothing)."""
    parts = answer_match.clauses(response)
    hinted = [c for c in parts if hint_words and set(hint_words) <= set(cues.words(c))]
    others = [c for c in parts if c not in hinted and len(cues.words(c)) > 1]  # not a bare "yes"
    if not hinted or not others:
        return response
    names = referents | {"one"}
    if all(names & set(cues.words(c)) or cues.place_of(c) for c in others):
        return ". ".join(hinted)
    return response


def _hint_words(hint: str, question: str) -> list[str]:
    """The hint's own words, those the question lacks ("small" in "the small one"); "one" there stands
    for the referent, not the number 1."""
    asked = set(cues.words(question))
    return [w for w in cues.words(hint) if w not in _PASS_STOP and w not in asked and w != "ones"]


# a list item or sentence led by a key: "- **Left:** red", "Man on the left - a phone"
_KEYED_ITEM = re.compile(r"^[\s*_#>-]*(?:\d+[.)]\s*)?([^:\n]{1,40}?)[\s*_]*(?::|\s[-\u2013\u2014]\s)\s*(.+)$")


def keyed_by_hint(response: str, hint: str, question: str) -> str | None:
    """In a list keyed by referents, the value of the one item whose key names the hint's place or its own
    words ("Left: red" for "the one on the left"); None when no single item does (the list then still
    offers several options)."""
    items = [m.groups() for m in map(_KEYED_ITEM.match, re.split(r"\n|;|(?<=[.!?])\s+", response)) if m]
    if len(items) < 2:
        return None
    wanted = set(_hint_words(hint, question)) - cues.PLACE_WORDS
    referents = frozenset(cues.question_cues(question).referents | wanted)
    places = answer_match.subject_places(hint, referents)
    place = places[0] if places else None
    chosen = [v for k, v in items if _key_matches(k, wanted, place)]
    return chosen[0] if len(chosen) == 1 else None


def _key_matches(key: str, wanted: set[str], place: str | None) -> bool:
    said = set(cues.words(key.replace("-", " ")))
    if place is not None:
        return cues.place_of(" ".join(said)) == place
    return bool(wanted and wanted <= said)


def answer_words(reference: str) -> list[str]:
    return [w for w in answer_match.tokens(reference) if w not in _PASS_STOP]


# shades that exclude each other ("light blue" / "dark blue"); "pale" for "light" is another wording
_LIGHT_SHADES = frozenset(["light", "pale", "pastel"])
_DARK_SHADES = frozenset(["dark", "deep"])


def _clashes(missing: list[str], said: list[str], words: list[str]) -> bool:
    """The reply gives another member of the closed class of a missing reference word: another colour
    ("white" for "gray"), the opposite shade ("dark" for "light"): a different answer, no other wording."""
    shades = _LIGHT_SHADES | _DARK_SHADES  # "pale" next to "blue" is a shade of it, not another colour
    if any(w in lx.COLORS for w in missing) and any(
        t in lx.COLORS and t not in words and t not in shades for t in said
    ):
        return True
    return any(
        w in group and set(said) & other
        for w in missing
        for group, other in ((_LIGHT_SHADES, _DARK_SHADES), (_DARK_SHADES, _LIGHT_SHADES))
    )


def _modifies_another(present: list[str], words: list[str], response: str) -> bool:
    """Whether the reply uses the reference's head noun (its last word), which it gives, as a modifier of
    another noun, the next word with no punctuation between ("a cream cake" for "ice cream"): then it
    names another thing, not the reference in other words ("on the phone, chatting" and "a toy truck" for
    "a toy fire engine" still may be)."""
    for w in [w for w in present if w == words[-1]]:
        for m in re.finditer(r"\b" + re.escape(w) + r"\s+([a-z]+)\b", response.lower()):
            after = m.group(1)
            verb = after in cues.VERBS or after.endswith(("ing", "ed"))  # "a teddy wearing a bow"
            if after not in words and after not in _PASS_STOP and not verb:
                return True
    return False


def _related_wording(references: list[str], question: str, response: str) -> str | None:
    """Why a reply without the reference's words may still give it in other words, or None (then FAIL):
    it gives part of a reference of several words ("a teddy" for "a teddy bear", "pale blue" for "light
    blue"), or a word of related form (`answer_match.related_forms`: "motorbike" for "motorcycle"). Not
    for numbers, times or yes / no, which have no other wording, nor where the reply negates the
    reference or gives another member of its closed class (`_clashes`)."""
    asked = set(answer_match.tokens(question))
    toks = answer_match.tokens(response)
    said = [t for t in toks if t.isalpha() and t not in _PASS_STOP and t not in asked]
    for ref in references:
        words = answer_words(ref)
        if words in (["yes"], ["no"]) or not all(w.isalpha() for w in words):
            continue
        missing = answer_match.missing_words(words, response)
        if any(answer_match.negated(toks, w) for w in words) or _clashes(missing, said, words):
            continue
        present = [w for w in words if w not in missing and w not in asked]
        if present and missing and not _modifies_another(present, words, response):
            return (
                f"gives part of {ref!r} ({' '.join(present)}) without {' '.join(missing)!r}: "
                "another wording of the rest cannot be ruled out"
            )
        rare = [
            (w, t)
            for w in missing
            for t in said
            if answer_match.rare_synonym(t, w) or answer_match.rare_kind(t, w)
        ]
        if rare:
            return (
                f"{rare[0][1]!r} names {rare[0][0]!r} only by a rare sense: the same answer cannot be "
                "ruled out"
            )
        related = [(w, t) for w in missing for t in said if answer_match.related_forms(w, t)]
        if related:
            return (
                f"{related[0][1]!r} is not {related[0][0]!r}, but their forms are related (a spelling, "
                "a clipping or a compound): the same answer cannot be ruled out"
            )
    return None
