"""AQuA's judge questions (the strategy, PASS after a clarification, factual consistency): the labels, the
LLM judge's rubric and what it reads, how its text is parsed, and the rule judge's rules where it has them
(factual consistency needs the image: only an LLM judge that sees it can answer).

AQuA strategy (levels 0-3, from the response's surface; after step-by-step reasoning, from its final
answer): clarify when it asks which referent is meant (or offers referents to choose from, "the girl on
the left, or the one on the right?"), unless it first answers for referents in places that exclude each
other (then it enumerates); enumerate when it speaks of several referents (class A's plural / place /
"both" cues) or lists two or more items that each name a place or the referent, but a plural that only
says there are several ("There are several women, but the one in the centre ...") before one is singled
out is infer; two clauses answering in the same frame ("is -ing", "is", "says" / "reads", or one verb)
for two definite subjects enumerate ("The pigeon is pecking ..., and the seagull ... is standing"), but
not a subject already named (the answer described), a part or garment, nor the asked referent set
against another kind of thing; infer when it states an assumption ("assuming", "I assume", "if you
mean", "the main ...") or singles out one referent by a description (the B cues: "the dog in the
centre"; a thing described only as evidence, "going by the logo on the lid", singles out nothing), or,
for a question whose referent is only "this" / "it", names what it took the referent to be ("The hot
dog has ..."; "This is a kitchen" for "What room is this?" gives the asked category: an answer); answer
otherwise. Round 3: "you (probably) mean the chef" states an assumption; "That's a whisk" names a bare
"this" (a colour or amount after it names nothing; for a bare "What is this?" it abstains); "the one
..., and the other ..." and an acknowledged plural whose referents are then taken up by places that
exclude each other enumerate; a terse reply's bare place keys ("left guy red, right guy blue") enumerate
unless they name sides of one thing; answers for "the X at ..." and "the one ..." after "which one?"
enumerate, places alone do not; chat spellings "u" / "ur" read as "you" / "your".
AQuA clarification PASS (Section 6.3): PASS when every content word of the reference answer (articles
and stop words dropped, number words as digits; forms, spellings, times and yes / no as answer_match reads
them) occurs in the response and none is negated ("not red"), for any of the reference answers given,
for the hinted referent (not in a clause about another one, nor in a place that excludes the hint's), and
the response gives one answer; FAIL otherwise. One answer: a reply that lists several options ("either
... or", "if you mean ...", "red or blue", "5 or 6", "five to six", answers for several referents) fails,
as it has not answered the clarified question; after step-by-step reasoning (or a self-correction) the
final answer is what is judged; for a question ending in a preposition ("What is the dog lying on?") the
reply's object of that preposition must hold the reference; and in a list keyed by referents the one
item keyed by the hint's own words is the answer; a clause naming the hinted referent that says it has
nothing ("isn't holding anything, but the boy next to it has a rattle") fails. Without the reference's
words the reply fails, except where it may give the reference in other words: part of a reference of
several words ("a teddy" for "a teddy bear") or a word of related form ("motorbike" for "motorcycle")
abstain (unknown), unless it gives another number, time or colour, or the opposite shade. A synonym of
unrelated form ("bike" for "bicycle") still fails: no thesaurus ships offline with a package this
project can install. Short reference answers ("red", "two") suit it; long ones are better judged by an
LLM judge.
AQuA factual consistency needs the image: the rule judge refuses it (JudgeError).
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.evaluation import answer_match, reply_checks
from assistant.evaluation import response_cues as cues
from assistant.evaluation.judgement import (
    UNKNOWN,
    JudgeItem,
    Judgement,
    JudgeQuestion,
    question_and_response,
    texts,
)
from assistant.evaluation.papers.aqua.parse import STRATEGIES, parse_grounded, parse_pass_fail, parse_strategy

_ASSUMPTION = re.compile(
    r"\b(?:assuming|assumption|i assume|i'll assume|i will assume|presumably|"
    r"(?:likely|probably) (?:referring|asking|means?)|if you(?:'re| are)? (?:mean|asking about|referring to)|"
    r"if you mean|i think you mean|you(?:'re| are) (?:probably|likely) (?:asking|referring)|"
    # a statement (the questions back were read before) of what the user means, about one referent that
    # follows: "you probably mean the chef", "I take it you're asking about the red one"; "not sure what
    # you mean" names nothing
    r"(?<!what )(?<!which )(?<!who )you(?:'re| are)? (?:(?:probably|likely|presumably|must|surely) )?"
    r"(?:mean|meant|asking about|referring to|talking about) (?=(?:the|this|that|his|her) )|"
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
_NUMBERS = {w: str(n) for w, n in lx.NUMBER_WORDS.items()}  # "two" -> "2", as in the question analyser
_PASS_STOP = cues.STOPWORDS | cues.word_set("it this there be was were has have color colour answer final")
# "not red", "isn't an umbrella", "isn't holding an umbrella" (one -ing verb between)
_NEGATION = re.compile(
    r"\b(?:not|no|isn't|aren't|wasn't|isnt|arent|wasnt|never|nor)\s+(?:[a-z]+ing\s+)?(?:a\s+|an\s+|the\s+)?$"
)

_LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s+\S", re.M)
_HEDGES = (
    (re.compile(r"\beither\b[^.?!]*\bor\b", re.I), "either ... or"),
    (re.compile(r"\bif you (?:mean|are (?:asking|referring))\b", re.I), "'if you mean'"),
    (re.compile(r"\bdepending on (?:which|what|whether)\b", re.I), "'depending on which'"),
    # "red or blue", never "whether or not" / "or so" / "more or less"
    (
        re.compile(r"\b(?!whether\b|more\b)[a-z]+,? or (?!not\b|so\b|less\b|more\b|other\b)[a-z]+", re.I),
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


def _several_options(response: str, references: list[str]) -> str | None:
    """How a reply offers several answers instead of one (a list of two or more items, "either ... or",
    "if you mean", "red or blue", two numbers around the reference's), or None. AQuA's PASS asks for the
    answer to the clarified question."""
    if len(_LIST_ITEM.findall(response)) >= 2:
        return "a list"
    for pattern, name in _HEDGES:
        if pattern.search(response):
            return name
    numbers = {
        float(t) for r in references for t in answer_match.tokens(r) if re.fullmatch(r"\d+(?:\.\d+)?", t)
    }
    return _number_hedge(response, numbers) if numbers else None


# ------------------------------------------------------------------------------------------ rules


def strategy_rules(item: JudgeItem, response: str) -> Judgement:
    q = cues.question_cues(str(item["question"]))
    response = _chat_spelling(response)
    whole = response
    # after step-by-step reasoning, the final answer has the strategy
    response = final_answer(response, _EXPLICIT_FINAL_MARK)
    asked = cues.clarification_question(response) or _asks_between(q, response)
    if asked:
        answered = _answers_before_asking(q, response)
        if answered:  # "The left one is red, the right one blue - which did you mean?"
            reason = f"answers each, then asks: {answered}"
            return Judgement("enumerate", reason=reason, path="rules:strategy.several")
        return Judgement("clarify", reason=f"asks: {asked!r}", path="rules:strategy.asks")
    several = cues.several_referents(q, response) or cues.several_referents(q, _restored_articles(response))
    text = cues.normalise(response)
    if several and several.startswith("plural mention") and _acknowledged_then_chosen(q, text):
        several = None
    several = several or _one_and_the_other(q, text) or _bare_place_keys(response)
    if several:
        return Judgement("enumerate", reason=several, path="rules:strategy.several")
    listed = [it for it in cues.list_items(response) if _names_place_or_referent(q, it)]
    if len(listed) >= 2:
        return Judgement("enumerate", reason=f"{len(listed)} list items, each naming a referent")
    parallel = _parallel_answers(q, response)
    if parallel:
        return Judgement("enumerate", reason=parallel, path="rules:strategy.parallel")
    judged = _one_referent(q, response, text)
    if judged.label == "answer" and whole != response:  # "Assumption: you mean ... Answer: it's orange."
        return _one_referent(q, whole, cues.normalise(whole))
    return judged


def _one_referent(q: cues.QuestionCues, response: str, text: str) -> Judgement:
    """infer when the reply says which single referent it took, answer otherwise (module docstring)."""
    assumed = _ASSUMPTION.search(text)
    if assumed:
        return Judgement("infer", reason=f"states an assumption: {assumed.group(0)!r}")
    described = cues.identifying_description(q, _without_evidence(q, text))
    if described:
        return Judgement("infer", reason=f"singles out one referent: {described!r}")
    named = _named_referent(q, text) if q.vague or _PRONOUN_REFERENT.search(q.text) else None
    if named:
        return named
    undecided = reply_checks.undecided_reason(response)
    if undecided:
        return Judgement(UNKNOWN, reason=undecided, path="rules:strategy.abstain")
    return Judgement("answer", reason="a direct answer", path="rules:strategy.default")


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

# chat spellings of "you" ("who do u mean?", "is ur question about ..."): the cues read standard words
_CHAT_YOU = (
    (re.compile(r"(?<![\w'-])u(?![\w'-])", re.I), "you"),
    (re.compile(r"(?<![\w'-])ur(?![\w'-])", re.I), "your"),
)


def _chat_spelling(response: str) -> str:
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


def _restored_articles(response: str) -> str:
    return _BARE_PLACE.sub(lambda m: m.group(1) + "the ", response)


# a bare place key and its noun, then the value: "left guy red, right guy blue" answers for two people
# whatever they are called; sides and halves of one thing ("left side red, right side blue") are parts
_BARE_KEY = re.compile(
    r"(?:^|[,;\u2013\u2014]\s*|\s-\s+|\n\s*)(left|right|front|back|top|bottom|upper|lower)\s+([a-z]+)\s+[a-z0-9]",
    re.I,
)
_SIDES = cues.word_set("side sides half end edge corner part section bit")


def _bare_place_keys(response: str) -> str | None:
    keys = [(m.group(1).lower(), m.group(2).lower()) for m in _BARE_KEY.finditer(response)]
    if any(noun in _SIDES or noun in lx.PART_NOUNS for _, noun in keys):
        return None
    places = [cues.place_of(place) or place for place, _ in keys]
    return f"terse keys by place: {', '.join(places)}" if cues.exclusive_places(places) else None


# "the one nearest you is ..., and the other ...": a contrast pair that answers for two referents, whatever
# noun the reply gives them ("two plates" for "this dish"); "the other" must stand for a referent (before a
# verb, "one", or the cut-off end), not "the other end of the rope"
_ONE_THEN_OTHER = re.compile(
    r"\bthe one\b[^.?!;]*?\b(?:is|are|looks|appears|seems|has|shows|says|reads|wears|holds|'s)\b"
    r"[^.?!]*?\b(?:the other|the second)(?:\s+one)?(?=\s+(?:is|are|looks|appears|seems|has|shows|says|reads|"
    r"wears|holds|was|might|may|could)\b|\s*[,.!]?\s*$)"
)


def _one_and_the_other(q: cues.QuestionCues, text: str) -> str | None:
    m = _ONE_THEN_OTHER.search(text)
    return f"answers for one and the other: {m.group(0)[:60]!r}" if m else None


def _named_referent(q: cues.QuestionCues, text: str) -> Judgement | None:
    """infer where the reply names what a vague question's "this" / "it" is ("The bicycle is green", "That's
    a whisk, for beating eggs"); None where it names nothing. A contracted "It's a X" names the referent only
    where the answer follows apart (a comma, a dash, a semicolon): "It's a dollar fifty" or "It's a plate
    with two eggs" may be the answer itself; for a bare "What is this?" it is both, and the rule abstains."""
    named = _NAMED_SUBJECT.match(text) or (
        None if _IDENTITY_QUESTION.match(q.text) else _NAMED_BY_COPULA.match(text)
    )
    taken = cues.content_words(named.group(1)) if named else set()
    # "it's a bit blurry", "it's a lot of fun": an amount, then no thing named
    new_words = set() if taken & _AMOUNTS else taken - q.words - _NOT_NAMES
    if not (named and new_words):
        return None
    if "'s" in named.group(0)[:6]:
        if _BARE_WHAT.match(q.text):
            reason = "names the thing asked about by a bare 'what is this?': its answer or its referent"
            return Judgement(UNKNOWN, reason=reason, path="rules:strategy.abstain")
        if not _SET_APART.match(text, named.end()):
            return None
    return Judgement("infer", reason=f"names the referent of a vague question: {named.group(1)!r}")


_SET_APART = re.compile(r"\s*(?:[,;:\u2013\u2014]|\s-\s)\s*[a-z0-9]")


# the evidence for an answer, up to its clause's end: "going by the logo on the lid", "judging from the
# tag on its collar", "given the tracks", "based on the sign above the door"
_EVIDENCE = re.compile(
    r"\b(?:going\s+by|judging\s+(?:by|from)|based\s+on|given|from\s+the\s+look\s+of|to\s+judge\s+by|"
    r"because\s+of|thanks\s+to|as\s+shown\s+by)\b(?!\s+(?:that|how)\b)[^.;:!?,]*"
)


def _without_evidence(q: cues.QuestionCues, text: str) -> str:
    """The reply without the evidence it cites: a thing described there ("the logo on the lid") is what
    the answer rests on, not the referent the reply singles out. Evidence that names the asked referent
    ("Going by the man in the apron, he ...") says which one it took, and stays."""

    def drop(m: re.Match[str]) -> str:
        return m.group(0) if set(cues.words(m.group(0))) & set(q.referents) else " "

    return _EVIDENCE.sub(drop, text)


# "What room is this?", "What kind of tree is it?": "This is a kitchen" gives the asked category, it does
# not name a referent; a bare "What is this?" ("This is a typewriter": "this" resolved) and an attribute
# question ("What colour is this?") are not such questions
_IDENTITY_QUESTION = re.compile(
    r"^(?:what|which)\s+(?:(?:kind|type|sort) of\s+)?"
    r"(?!colou?r\b|shape\b|size\b|material\b|is\b|are\b)[a-z-]+\s+"
    r"(?:is|are)\s+(?:this|that|it|these|those)\b"
)
_ANSWER_VERB = re.compile(r"\b(?:is|are|was|were|has|have|wears|holds|looks|says|reads|shows)\b")


def _answers_before_asking(q: cues.QuestionCues, response: str) -> str | None:
    """Answers for referents in places that exclude each other, given before the question that asks which
    is meant (each with its own verb): the reply enumerates; it does not ask instead of answering."""
    parts = re.split(r"\s[\u2013\u2014-]\s|[\u2013\u2014;:]|(?<=[.!?])\s+", response)
    said = "; ".join(p.strip() for p in parts if "?" not in p and p.strip())
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
    return _parallel_answers(q, "; ".join(answers), any_frame=True)


_ONLY_WHERE = re.compile(
    r"\b(?:is|are|'s|sits|stands|waits)\s+(?:(?:standing|sitting|seated|waiting)\s+)?(?:near|by|at|beside|behind|"
    r"under|over|next\s+to|in\s+front\s+of|on\s+the\s+(?:left|right)|in\s+the\s+(?:middle|centre|center|corner|"
    r"back|front|background|foreground))\b[^,;]*$"
)


_PLACING = re.compile(
    r"\s+(?:(?:standing|sitting|seated|located|placed)\s+)?(?:on|in|at|near|by|to|behind)\s+(?:the\s+)?"
    r"(?:far\s+)?(?:left|right|front|back|middle|centre|center|top|bottom|foreground|background)\b"
)


def _asks_between(q: cues.QuestionCues, response: str) -> str | None:
    """A question that offers referents to choose from ("would you like the girl on the left, or the one
    on the right?"): each side of its "or" names a place or a referent."""
    for sentence in reply_checks.sentences(cues.normalise(response)):
        if not sentence.endswith("?") or " or " not in sentence:
            continue
        left, right = sentence.rsplit(" or ", 1)
        if _names_place_or_referent(q, left) and _names_place_or_referent(q, right):
            return sentence.strip()
    return None


def _acknowledged_then_chosen(q: cues.QuestionCues, text: str) -> bool:
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
    if cues.several_referents(q, rest) or _one_and_the_other(q, rest):
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
    return bool(cues.identifying_description(q, rest) or singular)


def clarification_rules(item: JudgeItem, response: str) -> Judgement:
    references = [r for r in texts(item["reference"]) if _answer_words(r)]
    if not references:
        return Judgement(UNKNOWN, reason="empty reference answer", path="rules:pass.abstain")
    asked = cues.clarification_question(response)
    if asked:  # the rubric: "still asks for clarification" fails
        return Judgement("FAIL", reason=f"still asks: {asked!r}", path="rules:pass.asks")
    question, hint = str(item["question"]), str(item.get("hint") or "")
    if any(answer_match.is_time(r) for r in references):  # "quarter to four" is 3:45 here, not a range
        response = answer_match.spoken_times(response)
        references = [answer_match.spoken_times(r) for r in references]
    response = final_answer(response)
    keyed = _keyed_by_hint(response, hint, question)
    if keyed is not None:
        response = keyed
    options = _several_options(response, references) or _several_answered(question, hint, response)
    if options:
        return Judgement(
            "FAIL", reason=f"lists several options ({options}), not one answer", path="rules:pass.options"
        )
    return _matched(references, question, hint, response)


def _several_answered(question: str, hint: str, response: str) -> str | None:
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
    named = [c for c in parts if set(hint_words) & set(cues.words(c))]
    return None if named else several


def _matched(references: list[str], question: str, hint: str, response: str) -> Judgement:
    """PASS when the response gives one of the references for the hinted referent (module docstring)."""
    hint_words = _hint_words(hint, question)
    referents = frozenset(cues.question_cues(question).referents | set(hint_words))
    unread = other = None
    for ref in references:
        words = _answer_words(ref)
        if words in (["yes"], ["no"]):
            said = answer_match.yes_no(question, _hinted_part(response, hint_words, referents), _PASS_STOP)
            if said == words[0]:
                return Judgement("PASS", reason=f"answers {said!r}", path="rules:pass.yes-no")
            unread = unread or (None if said else ref)
            continue
        if not answer_match.contains_answer(words, response):
            continue
        elsewhere = _object_elsewhere(question, response, words)
        if elsewhere:
            return Judgement(
                "FAIL",
                reason=f"gives {elsewhere!r}, not {ref!r}, as the asked object",
                path="rules:pass.object",
            )
        place = answer_match.other_place(words, response, hint, referents)
        if place or answer_match.bound_to_hint(words, response, hint_words, referents) is False:
            other = other or (ref, place)
            continue
        if _hint_denied(words, response, hint_words):
            return Judgement(
                "FAIL",
                reason=f"says the hinted referent has none; {ref!r} is given to another",
                path="rules:pass.bound",
            )
        return Judgement("PASS", reason=f"contains the reference answer {ref!r}", path="rules:pass.contains")
    if unread:
        return Judgement(
            UNKNOWN, reason="neither yes nor no can be read from the reply", path="rules:pass.abstain"
        )
    if other:
        where = f" (the one {other[1]})" if other[1] else ""
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
        m.group(1)
        for m in re.finditer(
            rf"\b{asked[-1]}\s+((?:[a-z'-]+\s+){{0,4}}?[a-z'-]+)(?=\s+(?:{stops})\b|\s*[.,;:!?]|\s*$)",
            cues.normalise(response),
        )
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


# a marker that opens the final answer after reasoning, at the start of a line or sentence: "Final
# answer:", "**Answer:**", "So, ...", "Therefore ...", "In conclusion, ..."
_LEAD = r"(?:^|\n|[.!?]\s+)[\s*_#>-]*"  # the start of a line or sentence, markdown allowed
_EXPLICIT_FINAL = (
    r"(?:final\s+)?answer\s*[:\-]|final\s+answer\b|in\s+conclusion\b|in\s+summary\b|"
    r"to\s+(?:conclude|sum\s+up)\b"
)
# a self-correction: "wait", "no wait", "actually no", "correction:", "on second thought": what follows
# replaces what came before ("A suit... actually no, it's a blazer"); a bare "actually" ("it's actually
# red") corrects nothing, so it counts only with its "no"; "looking closer" often only adds detail ("A
# red car. Looking closer, it has a dent."), so it corrects only after a "no"
_CORRECTION = r"wait\b|actually\s*,?\s*no\b|correction\b|scratch\s+that\b|on\s+second\s+thoughts?\b"
_LOOKING_AGAIN = r"looking\s+(?:again|closer|more\s+closely)\b|on\s+closer\s+(?:look|inspection)\b"
_FINAL_MARK = re.compile(
    rf"{_LEAD}(?:{_EXPLICIT_FINAL}|so\s*,|therefore\b|thus\b|hence\b)[\s*_:,]*"
    # a reply that corrects itself ("... string - wait, no, ...", "Correction: ..."): what follows replaces
    # it; "wait" only after a stop or a dash ("they wait, holding umbrellas" corrects nothing)
    # (after "no" the correction needs no stop of its own: "... no wait the hand is on the 11")
    r"|(?:^|[.!?,;\u2013\u2014\u2026]\s*|\s-\s*)(?:no\s*[,.!]?\s*(?:"
    + _CORRECTION
    + "|"
    + _LOOKING_AGAIN
    + r")\s*[,:.!\u2013\u2014-]*"
    r"|(?:" + _CORRECTION + r")\s*[,:.!\u2013\u2014-]+)\s*(?:no\s*[,.!]\s*)?",
    re.IGNORECASE,
)
# only the markers that name the final answer: "So, ..." or "Therefore ..." may just go on enumerating
_EXPLICIT_FINAL_MARK = re.compile(rf"{_LEAD}(?:{_EXPLICIT_FINAL})[\s*_:,]*", re.IGNORECASE)


def final_answer(response: str, marker: re.Pattern[str] = _FINAL_MARK) -> str:
    """The final answer after step-by-step reasoning or a self-correction (what the rubric judges), or the
    whole response when no marker opens one (or nothing follows the last)."""
    marks = list(marker.finditer(response))
    if not marks:
        return response
    tail = response[marks[-1].end() :]
    return tail if re.search(r"[A-Za-z0-9]", tail) else response


# a list item or sentence led by a key: "- **Left:** red", "Man on the left - a phone"
_KEYED_ITEM = re.compile(r"^[\s*_#>-]*(?:\d+[.)]\s*)?([^:\n]{1,40}?)[\s*_]*(?::|\s[-\u2013\u2014]\s)\s*(.+)$")


def _keyed_by_hint(response: str, hint: str, question: str) -> str | None:
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


def _names_place_or_referent(q: cues.QuestionCues, line: str) -> bool:
    toks = set(cues.words(line))
    return bool(toks & cues.PLACE_WORDS or toks & set(q.referents))


def _answer_words(reference: str) -> list[str]:
    return [w for w in answer_match.tokens(reference) if w not in _PASS_STOP]


# ------------------------------------------------------------------------------------------ the questions


def _clarification_values(item: JudgeItem) -> dict[str, str]:
    return {
        **question_and_response(item),
        "reference": " / ".join(texts(item["reference"])),
        "hint": str(item.get("hint") or "(none)"),
    }


STRATEGY_JUDGED = JudgeQuestion(
    name="aqua_strategy",
    labels=STRATEGIES,
    title="strategy",
    prompt="aqua_judge_strategy",
    max_new_tokens=384,
    parse=parse_strategy,
    rules=strategy_rules,
)
PASS_AFTER_CLARIFICATION = JudgeQuestion(
    name="aqua_clarification",
    labels=("PASS", "FAIL"),
    title="answer after the clarification",
    prompt="aqua_judge_clarification",
    max_new_tokens=256,
    fields=("question", "response", "reference"),
    prompt_values=_clarification_values,
    parse=parse_pass_fail,
    rules=clarification_rules,
)
FACTUAL = JudgeQuestion(
    name="aqua_factual",
    labels=("grounded", "ungrounded"),
    title="factual consistency",
    prompt="aqua_judge_factual",
    max_new_tokens=256,
    fields=("question", "response", "image"),
    parse=parse_grounded,
)
QUESTIONS = (STRATEGY_JUDGED, PASS_AFTER_CLARIFICATION, FACTUAL)


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
        words = _answer_words(ref)
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
        related = [(w, t) for w in missing for t in said if answer_match.related_forms(w, t)]
        if related:
            return (
                f"{related[0][1]!r} is not {related[0][0]!r}, but their forms are related (a spelling, "
                "a clipping or a compound): the same answer cannot be ruled out"
            )
    return None


# a clause led by a definite subject: "the seagull on the bollard is ...", "the one near the bar seats ..."
_DEFINITE_LEAD = re.compile(r"^(?:and\s+|whereas\s+|while\s+)?(?:the|this|that)\s+(.+)$")
_BACK_REFERENCES = frozenset(["it", "its", "them", "their", "him", "his", "her"])
_FILLER_ADVERBS = frozenset(["just", "still", "now", "also", "currently", "simply"])
_COPULAS = frozenset(["is", "are", "was", "were", "'s", "looks", "seems", "appears"])
# verbs that give what a display or sign shows: "the clock says 4:10, the display reads 16:12" is one frame
_SHOWING = frozenset(["say", "read", "show", "display", "indicate"])


def _subject_and_frame(clause: str) -> tuple[str, str, str] | None:
    """(head noun, the words before it, the verb frame) of a clause led by a definite subject, or None.
    The head is the word before a preposition or the verb; the frame is how the clause answers: "is
    -ing", "is" (a state), or the verb's lemma ("show" for says / reads / shows)."""
    m = _DEFINITE_LEAD.match(clause)
    if not m:
        return None
    toks = cues.words(m.group(1))
    for k, tok in enumerate(toks[:5]):
        nxt = toks[k + 1] if k + 1 < len(toks) else ""
        verb_at = next((j for j in range(k + 1, len(toks)) if _is_verb(toks[j])), None)
        if verb_at is None:
            return None
        if nxt in cues.PREPOSITIONS or k + 1 == verb_at:
            after = [t for t in toks[verb_at + 1 :] if t not in _FILLER_ADVERBS and not t.endswith("ly")]
            if set(after) & _BACK_REFERENCES:  # "the den is behind it": placed by the other, not answered
                return None
            return tok, " ".join(toks[:k]), _frame(toks[verb_at], after[0] if after else "")
    return None


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
        return "is -ing" if nxt.endswith("ing") else "is"
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


def _parallel_answers(q: cues.QuestionCues, response: str, any_frame: bool = False) -> str | None:
    """Two clauses that answer in the same frame for two different definite subjects ("The pigeon is
    pecking at crumbs, and the seagull on the bollard is standing"; "the clock says 4:10, while the
    display reads 16:12"; "the table by the window seats four, and the one near the bar seats two"): the
    reply enumerates. Not a subject already named in an earlier clause ("holds a ball, and the ball is
    red": the answer described), a part or garment ("the collar is red"), nor the asked referent set
    against another kind of thing ("The dog is asleep; the cat is eating" for "the dog")."""
    parts = answer_match.clauses(response)
    seen: list[tuple[str, str, str]] = []
    for k, clause in enumerate(parts):
        found = _subject_and_frame(clause)
        if found is None or found[0] in lx.PART_NOUNS or found[0] in lx.CLOTHING:
            continue
        if found[0] not in ("one", "other") and any(found[0] in cues.words(p) for p in parts[:k]):
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
            return f"answers for two subjects in turn: {head!r} and {found[0]!r}"
        seen.append(found)
    return None
