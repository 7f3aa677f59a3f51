"""Text twins of a reply: the Explain panel, the options list, and the plain status line."""

from __future__ import annotations

from assistant.languages import language_name
from assistant.languages.catalog import Say
from assistant.languages.say_reply import N_
from assistant.types import Candidates, Level, Reply

LEVEL_WORDS = {
    Level.UNAMBIGUOUS: "one clear referent",
    Level.SALIENT: "vague wording, one salient referent",
    Level.FEW: "two or three plausible referents",
    Level.MANY: "many plausible referents",
}

NO_REPLY_YET = "Ask a question about a photo; the reasons for the reply will appear here."


def explain_markdown(reply: Reply | None, model_label: str = "") -> str:
    """Verdict, level, strategy, the policy's one-line reason, model calls and timings."""
    if reply is None:
        return NO_REPLY_YET
    verdict = reply.verdict.value
    if reply.ambiguity_probability is not None:
        verdict += f" (P(ambiguous) = {reply.ambiguity_probability:.2f}, one forward pass)"
    lines = [
        f"- **Recognition verdict:** {verdict}",
        f"- **Level:** {int(reply.level)} ({LEVEL_WORDS.get(reply.level, '')})",
        f"- **Strategy:** {reply.strategy.value}",
        f"- **Why:** {reply.explanation}",
    ]
    if reply.focus is not None and reply.focus.language != "en":  # issue 36; English replies unchanged
        focus = reply.focus
        pointer = f'; the pointer searched for "{reply.candidates.phrase}"' if reply.candidates.phrase else ""
        lines.append(
            f"- **Language:** {language_name(focus.language)} ({focus.language}), detected from the "
            f"question; its referent read by {focus.reader or 'no one'}{pointer}"
        )
    if reply.resolved_region is not None:
        lines.append(f"- **Answered about region:** number {reply.resolved_region}")
    if reply.candidates.regions:
        # The pointer's confidence (times the mask's quality) and AQuA's saliency of each candidate.
        found = "; ".join(
            f"{r.id}: score {r.score:.2f}, saliency {r.saliency:.2f}" for r in reply.candidates.regions
        )
        lines.append(f"- **Candidates:** {found}")
    calls = ", ".join(f"{role} {n}" for role, n in sorted(reply.model_calls.items())) or "none"
    lines.append(f"- **Model calls:** {calls}")
    timings = ", ".join(f"{stage} {secs:.2f} s" for stage, secs in reply.timings.items()) or "none"
    lines.append(f"- **Timings:** {timings}")
    if model_label:
        lines.append(f"- **Models:** {model_label}")
    for note in reply.candidates.notes:
        lines.append(f"- **Note:** {note}")
    return "\n".join(lines)


OPTIONS_LABEL = "Which one do you mean?"


def options_label(candidates: Candidates | None) -> str:
    """The candidates list's name, as a screen reader announces the group: how many, in which order, and
    when the list is capped, how many were found ("Which one do you mean? 12 of 24 candidates marked")."""
    if candidates is None or not candidates.regions:
        return OPTIONS_LABEL
    n, found = len(candidates.regions), candidates.found_count
    if found > n:
        return (
            f"{OPTIONS_LABEL} {n} of the {found} found are marked, the most likely, numbered row by row from "
            "the top, each row left to right; describe another to find it"
        )
    return (
        f"{OPTIONS_LABEL} {n} candidate{'s' if n != 1 else ''}, numbered row by row from the top, each row "
        "left to right"
    )


def option_choices(candidates: Candidates | None) -> list[tuple[str, int]]:
    """Radio options: ("2: the blue square on the right, large", 2)."""
    if candidates is None:
        return []
    return [(f"{r.id}: {r.description or r.label or 'region'}", r.id) for r in candidates.regions]


STRATEGY_WORDS = {
    "answer": N_("an answer"),
    "infer": N_("an answer about the most likely one"),
    "enumerate": N_("an answer for each"),
    "clarify": N_("a question: which one do you mean"),
}
ANY_REPLY = N_("a reply")


def reply_language(reply: Reply) -> str:
    """The language the reply is in: the question's (ISO 639-1; "en" when nothing was read)."""
    return reply.focus.language if reply.focus is not None else "en"


def status_line(reply: Reply) -> str:
    """One plain sentence for the live status line, in the reply's language: what kind of reply arrived and
    where the candidates are (no internal words: "an answer for each", not "strategy: enumerate")."""
    say = Say(reply_language(reply))
    if reply.resolved_region is not None:
        return say("Answer about number {id} is ready.", id=reply.resolved_region)
    kind = say(STRATEGY_WORDS.get(reply.strategy.value, ANY_REPLY))
    n, found = len(reply.candidates), reply.candidates.found_count
    if not n:
        return say("Reply ready: {kind}.", kind=kind)
    if found > n:
        marked = say("{marked} of the {found} found are marked", marked=n, found=found)
    else:
        marked = say.n("{count} candidate marked", "{count} candidates marked", n)
    return say("Reply ready: {kind}. {marked}, listed after the reply.", kind=kind, marked=marked)
