"""The strategy decision: from the question's wording, the VLM's verdict and the candidate regions to an
AQuA level and a strategy, with one plain sentence saying why.

The rule, in order (every threshold is a PolicyConfig field):
1. A plural question ("the cups", "how many dogs") asks about all of them: level 0, answer.
2. No candidate found: answer about the whole image (level 0); but if the VLM judged the question
   ambiguous, ask which one is meant (level 3) since we cannot offer options.
3. A spatial descriptor in the question ("the cup on the left") that picks out one candidate: level 0,
   answer about it.
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
    noun = noun_for(focus, candidates.regions, candidates.phrase or "thing")
    regions = candidates.regions
    caveat = _non_visual_caveat(focus, len(regions))

    if focus.plural and config.plural_resolves:
        return _decide(
            Level.UNAMBIGUOUS,
            f"The question asks about {plural(noun)} in general, so one answer covers all of them.",
            tuple(r.id for r in regions),
        )
    if not regions:
        if verdict is Verdict.AMBIGUOUS and config.clarify_without_candidates:
            return _decide(
                Level.MANY,
                f"The model judged the question ambiguous but I could not locate any {noun}, "
                "so I ask which one you mean.",
            )
        return _decide(
            Level.UNAMBIGUOUS,
            f"I could not locate a {noun} to point at, so I answer about the whole image.",
        )
    if config.spatial_resolves and focus.spatial_descriptors and len(regions) > 1:
        for phrase in focus.spatial_descriptors:
            picked = regions_matching_position(candidates, phrase)
            if len(picked) == 1:
                return _decide(
                    Level.UNAMBIGUOUS,
                    f'"{phrase}" picks out one {noun} (number {picked[0].id}), so I answer about it.',
                    (picked[0].id,),
                )

    salient = [r for r in regions if r.salient] or [max(regions, key=lambda r: r.saliency)]
    n = len(salient)
    if n == 1:
        only = salient[0]
        others = f" of {len(regions)} found" if len(regions) > 1 else ""
        if focus.pronoun or verdict is Verdict.AMBIGUOUS:
            why = (
                f'"{focus.pronoun_word}" is vague'
                if focus.pronoun and focus.pronoun_word
                else "The wording is vague"
            )
            return _decide(
                Level.SALIENT,
                f"{why}, but only one {noun} stands out{others} (number {only.id}), so I assume you mean it.",
                (only.id,),
            )
        return _decide(
            Level.UNAMBIGUOUS,
            f"There is one clear {noun}{others} (number {only.id}), so I answer directly.",
            (only.id,),
        )
    if n <= config.enumerate_max:
        if config.trust_unambiguous_verdict and verdict is Verdict.UNAMBIGUOUS:
            top = max(salient, key=lambda r: r.saliency)
            return _decide(
                Level.UNAMBIGUOUS,
                f"The model judged the question unambiguous, so I answer about the most prominent {noun} "
                f"(number {top.id}).",
                (top.id,),
            )
        ids = tuple(r.id for r in sorted(salient, key=lambda r: r.id))
        return _decide(
            Level.FEW,
            f"{count_word(n)} {plural(noun)} could be meant, so I answer for each.{caveat}",
            ids,
        )
    return _decide(
        Level.MANY,
        f"{count_word(n)} {plural(noun)} could be meant, too many to list, so I ask which one.{caveat}",
        tuple(r.id for r in sorted(salient, key=lambda r: r.id)),
    )


def _decide(level: Level, explanation: str, referents: tuple[int, ...] = ()) -> Decision:
    return Decision(
        level=level, strategy=STRATEGY_FOR_LEVEL[level], explanation=explanation, referents=referents
    )


def noun_for(focus: QuestionFocus | None, regions: Sequence[Region], fallback: str = "thing") -> str:
    """The noun to name the candidates by: the question's head, else the first region label."""
    if focus and focus.head and focus.head != "object":
        return focus.head
    return next((r.label for r in regions if r.label), fallback)


def _non_visual_caveat(focus: QuestionFocus, n_regions: int) -> str:
    if not focus.non_visual_descriptors or n_regions < 2:
        return ""
    words = ", ".join(f'"{w}"' for w in focus.non_visual_descriptors)
    verb = "is" if len(focus.non_visual_descriptors) == 1 else "are"
    return f" {words} {verb} not something a photo shows, so it does not tell them apart."
