"""The strategy decision: from the question's wording, the VLM's verdict and the candidate regions to an
AQuA level and a strategy, with one plain sentence saying why.

The rule, in order (every threshold is a PolicyConfig field):
1. A plural question ("the cups", "how many dogs") asks about all of them: level 0, answer.
2. No candidate found: answer about the whole image (level 0); but if the VLM judged the question
   ambiguous, ask which one is meant (level 3) since we cannot offer options.
3. Descriptors that locate the referent among the candidates by place, order or size ("the cup on the
   left", "the second car from the left", "the tallest building"; a bare ordinal counts from the left)
   and fit exactly one candidate: level 0, answer about it. When they fit several equally ("on the
   left" with two cups level on the left), only those stay candidates for step 4. Descriptors naming
   another object ("next to the car") or a quality ("the happiest") are left to the model.
4. Count the salient candidates (AQuA saliency > threshold; see assistant.regions). If none passes, the
   most salient one stands for the referent.
   - one: level 1 (infer) when the wording is vague (a pronoun such as "it", "this", "he") or the VLM
     judged the question ambiguous; otherwise level 0 (answer).
   - 2 .. enumerate_max (3): level 2, enumerate them. With trust_unambiguous_verdict, an "unambiguous"
     verdict overrides this and answers about the most salient one.
   - more: level 3, clarify.
Descriptors that cannot be seen in a photo ("emotional", "heroic") never pick a referent; when they are
the only thing that could tell candidates apart, the explanation says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from assistant import lexicon as lx
from assistant.languages.catalog import Say
from assistant.regions import SaliencyConfig, regions_matching_position
from assistant.types import (
    STRATEGY_FOR_LEVEL,
    Candidates,
    Decision,
    Level,
    QuestionFocus,
    Region,
    Verdict,
)
from assistant.words import count_word, plural

# Words that locate a referent among the candidates by place, order or size, which the candidates' boxes
# can check (assistant.regions.regions_for_hint reads them). "the cup next to the car" names another
# object and "the happiest person" a quality: neither is read here.
_SIDES = frozenset({"left", "right", "top", "bottom"})
_ORDINAL_WORDS = frozenset(lx.ORDINALS) - {"last", "final", "penultimate"}
_LOCATING_WORDS = (
    _SIDES
    | _ORDINAL_WORDS
    | {"leftmost", "rightmost", "topmost", "bottommost", "uppermost", "lowermost", "upper", "lower"}
    | {"middle", "centre", "center", "central", "foreground", "background", "front", "back"}
    | {"largest", "biggest", "smallest", "tiniest", "tallest", "shortest", "closest", "nearest"}
    | {"farthest", "furthest", "top-left", "top-right", "bottom-left", "bottom-right", "far"}
    | {"on", "at", "in", "from", "to", "of", "the", "one", "side", "corner", "edge", "very"}
)


@dataclass(frozen=True)
class PolicyConfig:
    saliency: SaliencyConfig = field(default_factory=SaliencyConfig)
    enumerate_max: int = 3  # 2..enumerate_max salient candidates -> enumerate; more -> clarify
    plural_resolves: bool = True  # a plural question is answered about all candidates at once
    spatial_resolves: bool = True  # "on the left" in the question picks one candidate
    trust_unambiguous_verdict: bool = False  # let the VLM's "unambiguous" override several salient regions
    clarify_without_candidates: bool = True  # ambiguous verdict + no candidates -> ask


def strategy_for(
    focus: QuestionFocus,
    verdict: Verdict,
    candidates: Candidates,
    config: PolicyConfig = PolicyConfig(),
) -> Decision:
    """Choose level and strategy; `Decision.referents` lists the region ids the reply is about."""
    regions = candidates.regions
    say = Say(focus.language)  # the explanation in the question's language (issue 36)
    noun = say.noun(noun_for(focus, regions, candidates.phrase or "thing"))
    if focus.plural and config.plural_resolves:  # rule 1
        return _about_all(regions, noun, say)
    if not regions:  # rule 2
        return _none_found(verdict, noun, config, say)
    if config.spatial_resolves and len(regions) > 1:  # rule 3
        placed = _by_position(focus, candidates, noun, config, say)
        if placed is not None:
            return placed
    return _by_saliency(focus, verdict, regions, noun, config, say)  # rule 4


def _about_all(regions: Sequence[Region], noun: str, say: Say) -> Decision:
    """Rule 1: a plural question asks about all of them."""
    return _decide(
        Level.UNAMBIGUOUS,
        say(
            "The question asks about {nouns} in general, so one answer covers all of them.",
            nouns=_nouns(say, noun),
        ),
        tuple(r.id for r in regions),
    )


def _none_found(verdict: Verdict, noun: str, config: PolicyConfig, say: Say) -> Decision:
    """Rule 2: no candidate: answer about the whole image, or ask when the VLM judged it ambiguous."""
    if verdict is Verdict.AMBIGUOUS and config.clarify_without_candidates:
        return _decide(
            Level.MANY,
            say(
                "The model judged the question ambiguous but I could not locate any {noun}, "
                "so I ask which one you mean.",
                noun=noun,
            ),
        )
    return _decide(
        Level.UNAMBIGUOUS,
        say("I could not locate a {noun} to point at, so I answer about the whole image.", noun=noun),
    )


def _by_position(
    focus: QuestionFocus, candidates: Candidates, noun: str, config: PolicyConfig, say: Say
) -> Decision | None:
    """Rule 3: locating words that fit one candidate pick it; fitting some of them, those could be meant.
    None: no locating words, or they fit none or all (rule 4 decides)."""
    phrase = locating_phrase(focus)
    if not phrase:
        return None
    picked = regions_matching_position(candidates, phrase)
    said = _said_place(focus, phrase)
    if len(picked) == 1:
        return _decide(
            Level.UNAMBIGUOUS,
            say(
                '"{phrase}" picks out one {noun} (number {id}), so I answer about it.',
                phrase=said,
                noun=noun,
                id=picked[0].id,
            ),
            (picked[0].id,),
        )
    if 1 < len(picked) < len(candidates.regions):
        return _among_fitting(said, picked, noun, config, say)
    return None


def _by_saliency(
    focus: QuestionFocus,
    verdict: Verdict,
    regions: Sequence[Region],
    noun: str,
    config: PolicyConfig,
    say: Say,
) -> Decision:
    """Rule 4: count the salient candidates (the most salient one stands in when none passes)."""
    salient = [r for r in regions if r.salient] or [max(regions, key=lambda r: r.saliency)]
    if len(salient) == 1:
        return _one_salient(focus, verdict, salient[0], len(regions), noun, say)
    if (
        len(salient) <= config.enumerate_max
        and config.trust_unambiguous_verdict
        and verdict is Verdict.UNAMBIGUOUS
    ):
        top = max(salient, key=lambda r: r.saliency)
        return _decide(
            Level.UNAMBIGUOUS,
            say(
                "The model judged the question unambiguous, so I answer about the most prominent {noun} "
                "(number {id}).",
                noun=noun,
                id=top.id,
            ),
            (top.id,),
        )
    ids = tuple(r.id for r in sorted(salient, key=lambda r: r.id))
    fields = {
        "Count": _count(say, len(salient)),
        "nouns": _nouns(say, noun),
        "caveat": _non_visual_caveat(focus, len(regions), say),
    }
    if len(salient) <= config.enumerate_max:
        return _decide(
            Level.FEW, say("{Count} {nouns} could be meant, so I answer for each.{caveat}", **fields), ids
        )
    return _decide(
        Level.MANY,
        say("{Count} {nouns} could be meant, too many to list, so I ask which one.{caveat}", **fields),
        ids,
    )


def _one_salient(
    focus: QuestionFocus, verdict: Verdict, only: Region, n_regions: int, noun: str, say: Say
) -> Decision:
    others = say(" of {n} found", n=n_regions) if n_regions > 1 else ""
    if focus.pronoun or verdict is Verdict.AMBIGUOUS:
        if focus.pronoun:
            why = (
                say('"{word}" is vague', word=focus.pronoun_word)
                if focus.pronoun_word
                else say("The wording is vague")
            )
        else:
            why = say("The model judged the question ambiguous")
        return _decide(
            Level.SALIENT,
            say(
                "{why}, but only one {noun} stands out{others} (number {id}), so I assume you mean it.",
                why=why,
                noun=noun,
                others=others,
                id=only.id,
            ),
            (only.id,),
        )
    return _decide(
        Level.UNAMBIGUOUS,
        say(
            "There is one clear {noun}{others} (number {id}), so I answer directly.",
            noun=noun,
            others=others,
            id=only.id,
        ),
        (only.id,),
    )


def _count(say: Say, n: int) -> str:
    """ "Three" in English (inflect's word); the digits in another language."""
    return count_word(n) if say.lang == "en" else str(n)


def _nouns(say: Say, noun: str) -> str:
    """ "cups" in English (inflect's plural); the user's own noun elsewhere, whose plural is not known."""
    return plural(noun) if say.lang == "en" else noun


def _said_place(focus: QuestionFocus, phrase: str) -> str:
    """The locating words as the user said them ("izquierda"), else the English phrase the policy read."""
    if focus.language == "en" or not focus.spatial_descriptors:
        return phrase
    return " ".join(focus.spatial_descriptors)


def _among_fitting(phrase: str, fitting: list[Region], noun: str, config: PolicyConfig, say: Say) -> Decision:
    """The question's locating words fit several candidates equally: those are the ones that could be
    meant (enumerate them, or ask which when there are too many)."""
    ids = tuple(r.id for r in fitting)
    numbers = _and_list([str(i) for i in ids], say)
    count = count_word(len(ids)).lower() if say.lang == "en" else str(len(ids))
    fields = {"phrase": phrase, "count": count, "nouns": _nouns(say, noun), "numbers": numbers}
    if len(ids) <= config.enumerate_max:
        return _decide(
            Level.FEW,
            say('"{phrase}" fits {count} {nouns} (numbers {numbers}), so I answer for each.', **fields),
            ids,
        )
    return _decide(
        Level.MANY,
        say(
            '"{phrase}" fits {count} {nouns} (numbers {numbers}), too many to list, so I ask which one.',
            **fields,
        ),
        ids,
    )


def locating_phrase(focus: QuestionFocus) -> str:
    """The question's descriptors that say where, in which order or how big the referent is, joined in
    the question's order ("second from the left"); "" when there are none. A bare ordinal ("the third
    cup") counts from the left, as the candidates are numbered."""
    parts = [
        d
        for d in (*focus.descriptors, *focus.locating)  # locating: English words of another language's
        if d not in focus.non_visual_descriptors and all(w in _LOCATING_WORDS for w in d.lower().split())
    ]
    words = " ".join(parts).split()
    if any(w in _ORDINAL_WORDS for w in words) and not any(w in _SIDES for w in words):
        parts.append("from the left")
    return " ".join(parts)


def _and_list(items: list[str], say: Say) -> str:
    if len(items) == 1:
        return items[0]
    return say("{numbers} and {last}", numbers=", ".join(items[:-1]), last=items[-1])


def _decide(level: Level, explanation: str, referents: tuple[int, ...] = ()) -> Decision:
    return Decision(
        level=level, strategy=STRATEGY_FOR_LEVEL[level], explanation=explanation, referents=referents
    )


def noun_for(focus: QuestionFocus | None, regions: Sequence[Region], fallback: str = "thing") -> str:
    """The noun to name the candidates by: the question's head, else the first region label."""
    if focus and focus.head and focus.head != "object":
        return focus.head
    return next((r.label for r in regions if r.label), fallback)


def _non_visual_caveat(focus: QuestionFocus, n_regions: int, say: Say) -> str:
    if not focus.non_visual_descriptors or n_regions < 2:
        return ""
    words = ", ".join(f'"{w}"' for w in focus.non_visual_descriptors)
    if len(focus.non_visual_descriptors) == 1:
        return say(" {words} is not something a photo shows, so it does not tell them apart.", words=words)
    return say(" {words} are not something a photo shows, so it does not tell them apart.", words=words)
