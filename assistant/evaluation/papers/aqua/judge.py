"""AQuA's judge questions (the strategy, PASS after a clarification, factual consistency): the labels, the
LLM judge's rubric and what it reads, how its text is parsed, and the rule judge's rules where it has them
(factual consistency needs the image: only an LLM judge that sees it can answer).

AQuA strategy (levels 0-3, from the response's surface): clarify when it asks which referent is meant;
enumerate when it speaks of several referents (class A's plural / place / "both" cues) or lists two
or more items that each name a place or the referent; infer when it states an assumption
("assuming", "I assume", "if you mean", "the main ...") or singles out one referent by a description
(the B cues: "the dog in the centre"), or, for a question whose referent is only "this" / "it", names
what it took the referent to be ("The hot dog has ..."); answer otherwise.
AQuA clarification PASS (Section 6.3): PASS when every content word of the reference answer (articles
and stop words dropped, number words as digits) occurs in the response and none is negated ("not red"),
for any of the reference answers given, and the response gives one answer (a reply that lists several
options, "either ... or", "if you mean ...", "red or blue", fails: it has not answered the clarified
question); FAIL otherwise. Short reference answers ("red", "two") suit it;
long ones are better judged by an LLM judge.
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
    r"\b(?:assuming|i assume|i'll assume|i will assume|presumably|(?:likely|probably) (?:referring|asking|"
    r"means?)|if you(?:'re| are)? (?:mean|asking about|referring to)|if you mean|i think you mean|you(?:'re| "
    r"are) (?:probably|likely) (?:asking|referring)|appears? to be (?:referring|asking)|the main|the most "
    r"(?:prominent|noticeable|visible)|the (?:largest|biggest) (?:one|object))\b"
)
_NAMED_SUBJECT = re.compile(
    r"^(?:the|this|that)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+)\s+(?:is|are|has|have|was|were|looks|appears|seems|"
    r"shows|contains|features|wears|holds)\b"
)
_NAMED_BY_COPULA = re.compile(
    r"^(?:this|that|it)\s+(?:is|looks like|appears to be)\s+(?:a|an|the)\s+([a-z'-]+)"
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


def _several_options(response: str) -> str | None:
    """How a reply offers several answers instead of one (a list of two or more items, "either ... or",
    "if you mean", "red or blue"), or None. AQuA's PASS asks for the answer to the clarified question."""
    if len(_LIST_ITEM.findall(response)) >= 2:
        return "a list"
    for pattern, name in _HEDGES:
        if pattern.search(response):
            return name
    return None


# ------------------------------------------------------------------------------------------ rules


def strategy_rules(item: JudgeItem, response: str) -> Judgement:
    q = cues.question_cues(str(item["question"]))
    asked = cues.clarification_question(response)
    if asked:
        return Judgement("clarify", reason=f"asks: {asked!r}", path="rules:strategy.asks")
    several = cues.several_referents(q, response)
    if several:
        return Judgement("enumerate", reason=several, path="rules:strategy.several")
    listed = [it for it in cues.list_items(response) if _names_place_or_referent(q, it)]
    if len(listed) >= 2:
        return Judgement("enumerate", reason=f"{len(listed)} list items, each naming a referent")
    text = cues.normalise(response)
    assumed = _ASSUMPTION.search(text)
    if assumed:
        return Judgement("infer", reason=f"states an assumption: {assumed.group(0)!r}")
    described = cues.identifying_description(q, text)
    if described:
        return Judgement("infer", reason=f"singles out one referent: {described!r}")
    if q.vague:
        named = _NAMED_SUBJECT.match(text) or _NAMED_BY_COPULA.match(text)
        new_words = cues.content_words(named.group(1)) - q.words if named else set()
        if named and new_words:
            return Judgement("infer", reason=f"names the referent of a vague question: {named.group(1)!r}")
    undecided = reply_checks.undecided_reason(response)
    if undecided:
        return Judgement(UNKNOWN, reason=undecided, path="rules:strategy.abstain")
    return Judgement("answer", reason="a direct answer", path="rules:strategy.default")


def clarification_rules(item: JudgeItem, response: str) -> Judgement:
    references = [r for r in texts(item["reference"]) if _answer_words(r)]
    if not references:
        return Judgement(UNKNOWN, reason="empty reference answer", path="rules:pass.abstain")
    asked = cues.clarification_question(response)
    if asked:  # the rubric: "still asks for clarification" fails
        return Judgement("FAIL", reason=f"still asks: {asked!r}", path="rules:pass.asks")
    options = _several_options(response)
    if options:
        return Judgement(
            "FAIL", reason=f"lists several options ({options}), not one answer", path="rules:pass.options"
        )
    question = str(item["question"])
    hint = [w for w in _answer_words(str(item.get("hint") or "")) if w not in cues.words(question)]
    unread = other = None
    for ref in references:
        words = _answer_words(ref)
        if words in (["yes"], ["no"]):
            said = answer_match.yes_no(question, response, _PASS_STOP)
            if said == words[0]:
                return Judgement("PASS", reason=f"answers {said!r}", path="rules:pass.yes-no")
            unread = unread or (None if said else ref)
            continue
        if not answer_match.contains_answer(words, response):
            continue
        if answer_match.bound_to_hint(words, response, hint) is False:
            other = other or ref
            continue
        return Judgement("PASS", reason=f"contains the reference answer {ref!r}", path="rules:pass.contains")
    if unread:
        return Judgement(
            UNKNOWN, reason="neither yes nor no can be read from the reply", path="rules:pass.abstain"
        )
    if other:
        return Judgement(
            "FAIL",
            reason=f"gives {other!r} for another referent than the hinted one",
            path="rules:pass.bound",
        )
    return Judgement(
        "FAIL", reason=f"does not contain the reference answer {references[0]!r}", path="rules:pass.missing"
    )


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
