"""The final answer of a chain-of-thought reply: the part after its last "final answer" / "therefore"
marker, as written or normalised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.evaluation.cues.text import normalise

_GAP = r"[\s*_`#]+"  # between a marker's words: spaces, or markdown emphasis ("**Final** answer")
_FINAL = re.compile(
    rf"\b(?:final{_GAP}answer|in{_GAP}conclusion|to{_GAP}conclude|to{_GAP}summari[sz]e|in{_GAP}summary|"
    rf"therefore|thus|so,|based{_GAP}on{_GAP}(?:this|these|the|my|that){_GAP}(?:\w+{_GAP})?"
    r"(?:analysis|observations?|steps|information|reasoning))",
    re.IGNORECASE,
)


def final_answer_as_written(response: str) -> str:
    """The part after the last "final answer" / "therefore" / "based on this analysis" marker, in the
    response's own words (case and formatting kept), or the whole response when it has none: what RAcQUEt's
    judge reads of a chain-of-thought reply (Fig. 4, bottom: the final answer is classified)."""
    matches = list(_FINAL.finditer(response))
    if not matches:
        return response
    tail = response[matches[-1].end() :].lstrip(" :,.-)*_`#\n")
    return tail if re.search(r"[A-Za-z]", tail) else response


def final_answer(response: str) -> str:
    """`final_answer_as_written`, normalised (what the rule judge reads)."""
    return normalise(final_answer_as_written(response))


# a reasoning model's trace: a block in its own tags ("<think>...</think>", "<thinking>", "<reasoning>";
# Kimi-VL "\u25c1think\u25b7...\u25c1/think\u25b7"; "[think]...[/think]"). A block left open runs to the end;
# a closing tag without its opening one (the chat template wrote the opening) closes all before it
_TRACE_OPEN = r"<\s*(?:think|thinking|reasoning)\s*>|\u25c1think\u25b7|\[think\]"
_TRACE_CLOSE = r"</\s*(?:think|thinking|reasoning)\s*>|\u25c1/think\u25b7|\[/think\]"
_TRACE = re.compile(
    rf"(?:{_TRACE_OPEN}).*?(?:{_TRACE_CLOSE}|$)|\A(?:(?!{_TRACE_OPEN}).)*?(?:{_TRACE_CLOSE})", re.S | re.I
)
# what the model says to the user, when it tags it: "<answer>...</answer>"
_ANSWER_TAGGED = re.compile(r"<\s*answer\s*>(.*?)(?:</\s*answer\s*>|$)", re.S | re.I)
_ANSWER_TAG = re.compile(r"</?\s*answer\s*>", re.I)
# a trace written as labelled fields, an agent's "Thought: ... / Answer: ..." (also "reasoning:",
# "analysis:", "rationale:"; a YAML or key-value reply): the reply opens with the trace's label, and an
# "answer:" label, at a line's or a sentence's start, opens the answer
_FIELD_TRACE_OPEN = re.compile(
    r"\A[\s*_#>`-]*(?:thoughts?|thinking|reasoning|rationale|analysis)[\s*_]*[:=]", re.I
)
# the answer field's label; a bounded run of markup before it keeps the search linear in the reply's
# length (an unbounded one retried every newline against the rest of a long blank tail)
_FIELD_ANSWER = re.compile(
    r"(?:\n|[.!?]\s)[\s*_#>`-]{0,16}(?P<label>(?:final[\s*_]+)?answer)[\s*_]*[:=][\s*_]*", re.I
)


def _field_trace(response: str) -> Traced | None:
    """A reply of labelled fields that opens with its thought, split at its last "answer:" label (the
    module's `_FIELD_TRACE_OPEN` and `_FIELD_ANSWER`), or None."""
    opened = _FIELD_TRACE_OPEN.match(response)
    if opened is None:
        return None
    labels = list(_FIELD_ANSWER.finditer(response, opened.end()))
    if not labels:
        return None
    last = labels[-1]
    # the trace runs to the last break before the label: "... one brown.\n\n**Answer:**" keeps its "."
    gap = response[last.start() : last.start("label")]
    breaks = [i for i, c in enumerate(gap) if c == "\n" or c in ".!?" and gap[i + 1 : i + 2].isspace()]
    end = last.start() + breaks[-1]
    return Traced(response[opened.end() : end].strip(), response[last.end() :].strip())


@dataclass(frozen=True)
class Traced:
    """A reply split into a reasoning model's trace (its thinking aloud, "" when it has none) and its
    answer (what it says to the user)."""

    trace: str
    answer: str


def split_trace(response: str) -> Traced:
    """`response` split into its trace and its answer. The answer is the text inside "<answer>" tags, else
    the text outside the trace blocks (tags dropped), else, in a reply of labelled fields that opens with
    its thought ("Thought: ... Answer: ..."), the answer field; a reply that would leave no answer (a trace
    alone, or no trace at all) is all answer. G.3 reads the trace for the CoT question; the class, bias,
    strategy and PASS rubrics weigh the answer: a trace that notes two trains before an answer about the
    arriving one answers for one train."""
    tagged = _ANSWER_TAGGED.search(response)
    blocks = [m.group(0) for m in _TRACE.finditer(response)]
    if tagged and re.search(r"[A-Za-z0-9]", tagged.group(1)):
        return Traced(" ".join(blocks), tagged.group(1).strip())
    rest = re.sub(r"[ \t]+", " ", _ANSWER_TAG.sub(" ", _TRACE.sub(" ", response))).strip()
    if blocks and re.search(r"[A-Za-z0-9]", rest):
        return Traced(" ".join(blocks), rest)
    fields = _field_trace(response)
    if fields and re.search(r"[A-Za-z0-9]", fields.answer):
        return fields
    return Traced("", response)


def without_trace(response: str) -> str:
    """The reply less a reasoning model's trace (`split_trace`)."""
    return split_trace(response).answer
