"""Text twins of a reply: the Explain panel, the options list, and the plain status line."""

from __future__ import annotations

from assistant.languages import language_name
from assistant.languages.catalog import ENGLISH, Say
from assistant.languages.say_reply import N_
from assistant.types import Candidates, Level, Reply
from ui.page_language import PAGE_LANGUAGES

LEVEL_WORDS = {
    Level.UNAMBIGUOUS: N_("one clear referent"),
    Level.SALIENT: N_("vague wording, one salient referent"),
    Level.FEW: N_("two or three plausible referents"),
    Level.MANY: N_("many plausible referents"),
}

NO_REPLY_YET = N_("Ask a question about a photo; the reasons for the reply will appear here.")


def explain_markdown(reply: Reply | None, model_label: str = "", say: Say = ENGLISH) -> str:
    """Verdict, level, strategy, the policy's one-line reason, model calls and timings; the headings and
    words in `say`'s language (the page's), the values as the assistant gives them."""
    if reply is None:
        return say(NO_REPLY_YET)
    verdict = reply.verdict.value
    if reply.ambiguity_probability is not None:
        verdict += say(" (P(ambiguous) = {p}, one forward pass)", p=f"{reply.ambiguity_probability:.2f}")
    level_words = say(LEVEL_WORDS[reply.level]) if reply.level in LEVEL_WORDS else ""
    lines = [
        _item(say, N_("Recognition verdict:"), verdict),
        _item(say, N_("Level:"), f"{int(reply.level)} ({level_words})"),
        _item(say, N_("Strategy:"), reply.strategy.value),
        _item(say, N_("Why:"), reply.explanation),
    ]
    if reply.focus is not None and reply.focus.language != "en":  # issue 36; English replies unchanged
        lines.append(_language_line(reply, say))
    if reply.resolved_region is not None:
        lines.append(_item(say, N_("Answered about region:"), say("number {id}", id=reply.resolved_region)))
    if reply.candidates.regions:
        # The pointer's confidence (times the mask's quality) and AQuA's saliency of each candidate.
        found = "; ".join(
            say(
                "{id}: score {score}, saliency {saliency}",
                id=r.id,
                score=f"{r.score:.2f}",
                saliency=f"{r.saliency:.2f}",
            )
            for r in reply.candidates.regions
        )
        lines.append(_item(say, N_("Candidates:"), found))
    none = say("none")
    calls = ", ".join(f"{role} {n}" for role, n in sorted(reply.model_calls.items())) or none
    lines.append(_item(say, N_("Model calls:"), calls))
    timings = ", ".join(f"{stage} {secs:.2f} s" for stage, secs in reply.timings.items()) or none
    lines.append(_item(say, N_("Timings:"), timings))
    if model_label:
        lines.append(_item(say, N_("Models:"), model_label))
    for note in reply.candidates.notes:
        lines.append(_item(say, N_("Note:"), note))
    return "\n".join(lines)


def own_name(code: str) -> str:
    """A language in its own name, where the page has it ("es" -> "Español"), else its English name."""
    return PAGE_LANGUAGES.get(code) or language_name(code)


def _item(say: Say, heading: str, value: str) -> str:
    """One line of the Explain panel: "- **Heading:** value", the heading (a msgid) in `say`'s language."""
    return f"- **{say(heading)}** {value}"


def _language_line(reply: Reply, say: Say) -> str:
    """The Explain panel's line on the question's language and who read its referent (issue 36)."""
    focus = reply.focus
    assert focus is not None
    pointer = ""
    if reply.candidates.phrase:
        pointer = say('; the pointer searched for "{phrase}"', phrase=reply.candidates.phrase)
    read = say(
        "{name} ({code}), detected from the question; its referent read by {reader}{pointer}",
        # English names in English (as before); elsewhere the language's own name ("Español")
        name=language_name(focus.language) if say.lang == "en" else own_name(focus.language),
        code=focus.language,
        reader=focus.reader or say("no one"),
        pointer=pointer,
    )
    return _item(say, N_("Language:"), read)


OPTIONS_LABEL = N_("Which one do you mean?")


def options_label(candidates: Candidates | None, say: Say = ENGLISH) -> str:
    """The candidates list's name, as a screen reader announces the group: how many, in which order, and
    when the list is capped, how many were found ("Which one do you mean? 12 of 24 candidates marked")."""
    if candidates is None or not candidates.regions:
        return say(OPTIONS_LABEL)
    n, found = len(candidates.regions), candidates.found_count
    if found > n:
        return say(
            "Which one do you mean? {count} of the {found} found are marked, the most likely, numbered "
            "row by row from the top, each row left to right; describe another to find it",
            count=n,
            found=found,
        )
    return say.n(
        "Which one do you mean? {count} candidate, numbered row by row from the top, each row left to right",
        "Which one do you mean? {count} candidates, numbered row by row from the top, each row left to right",
        n,
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
