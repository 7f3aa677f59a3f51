"""The final answer of a chain-of-thought reply: the part after its last "final answer" / "therefore"
marker, as written or normalised.
"""

from __future__ import annotations

import re

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


# a reasoning model's trace: "<think>...</think>" (Kimi-VL: "◁think▷...◁/think▷") before the reply, or the
# reply inside "<answer>...</answer>"
_THINK = re.compile(r"(?:<think>|\u25c1think\u25b7).*?(?:</think>|\u25c1/think\u25b7|$)", re.S | re.I)
_ANSWER_TAG = re.compile(r"<answer>(.*?)(?:</answer>|$)", re.S | re.I)


def without_trace(response: str) -> str:
    """The reply less a reasoning model's trace: the text inside its "<answer>" tags, else the text outside
    its "<think>" block, else the whole reply. The trace is the model thinking aloud (G.3 reads it for the
    CoT question); the answer is what it says to the user, what the class rubric weighs: a trace that notes
    two trains before an answer about the arriving one answers for one train."""
    tagged = _ANSWER_TAG.search(response)
    if tagged and re.search(r"[A-Za-z]", tagged.group(1)):
        return tagged.group(1).strip()
    rest = _THINK.sub(" ", response).strip()
    return rest if re.search(r"[A-Za-z]", rest) else response
