"""What events the app has, who may call them, and which values their inputs take.

The gatekeeper (ui.gatekeeper) checks every event a client sends, whatever the route, against this table
before Gradio sees it: an event the page uses privately is not an API endpoint, and a value of the wrong
shape for its input (a file sent as a plain string, an example index past the list, a question sent as a
number) is one 400 with one sentence instead of a traceback in the server's log.

`EndpointTable.of(blocks)` reads Gradio's Blocks once (its `fns`: id, api_name, api_visibility, inputs).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import gradio as gr

InputKind = Literal["file", "example", "text", "number", "flag", "choice", "state", "any"]


@dataclass(frozen=True)
class Endpoint:
    """One event of the app. `public`: callable by name (/call, gradio_client); the page's own events are
    reached only by their index from the page (/queue/join)."""

    fn_index: int
    api_name: str | None
    public: bool
    inputs: tuple[InputKind, ...]
    example_count: tuple[int, ...]  # per input: how many examples a Dataset input holds (0 elsewhere)
    api_inputs: int  # inputs a client sends (State inputs are filled in by the server)
    parameters: tuple[tuple[str, bool], ...] = ()  # /call/v2's named inputs: (name, required), in order
    queued: bool = True  # False: the page runs it at once through /run/predict (gr.Examples' loading)

    def check(self, data: object, by_name: bool) -> str | None:
        """None when `data` fits this event's inputs, else the one sentence a client gets.

        `by_name`: sent to /call (State inputs may be left out, as Gradio's simple format allows)."""
        if not isinstance(data, list):
            return "The request's data must be a list of the event's inputs."
        counts = {len(self.inputs), self.api_inputs} if by_name else {len(self.inputs)}
        if len(data) not in counts:
            return f"This event takes {self.api_inputs} inputs; {len(data)} were sent."
        kinds = self.inputs
        examples = self.example_count
        if len(data) != len(self.inputs):  # the simple format: State inputs left out
            kept = [i for i, kind in enumerate(self.inputs) if kind != "state"]
            kinds = tuple(self.inputs[i] for i in kept)
            examples = tuple(self.example_count[i] for i in kept)
        for value, kind, count in zip(data, kinds, examples, strict=True):
            problem = value_problem(kind, value, count)
            if problem:
                return problem
        return None

    def check_named(self, values: object) -> str | None:
        """check() for /call/v2, which names each input: {parameter name: value}."""
        if not isinstance(values, Mapping):
            return "The request must be an object of the endpoint's named inputs."
        names = [name for name, _ in self.parameters]
        unknown = sorted(set(values) - set(names) - {"oauth_token"})  # Gradio drops a stray token itself
        if unknown:
            return f"This endpoint has no input named {unknown[0]!r}; it takes: {', '.join(names) or 'none'}."
        missing = [name for name, required in self.parameters if required and name not in values]
        if missing:
            return f"The input {missing[0]!r} is missing."
        return self.check([values.get(name) for name in names], by_name=True)


def value_problem(kind: InputKind, value: object, example_count: int = 0) -> str | None:
    """Why `value` cannot be an input of this kind (None: it can; None is always allowed)."""
    if value is None or kind in ("state", "any"):
        return None
    if kind == "file":
        if isinstance(value, Mapping) and isinstance(value.get("path"), str):
            return None
        return 'A file must be sent as {"path": ...} naming a file uploaded to this page.'
    if kind == "example":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < example_count:
            return None
        return f"There is no such example; pick one of the {example_count}."
    if kind == "text":
        return None if isinstance(value, str) else "Text must be sent as a string."
    if kind == "number":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return None
        return "A number must be sent as a finite number."
    if kind == "flag":
        return None if isinstance(value, bool) else "A checkbox must be sent as true or false."
    if kind == "choice":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return None
        return "A choice must be sent as one of the options."
    return None


def input_kind(component: Any) -> InputKind:
    if isinstance(component, gr.State):
        return "state"
    if isinstance(component, (gr.File, gr.Image)):
        return "file"
    if isinstance(component, gr.Dataset):
        return "example"
    if isinstance(component, gr.Textbox):
        return "text"
    if isinstance(component, gr.Number):
        return "number"
    if isinstance(component, gr.Checkbox):
        return "flag"
    if isinstance(component, (gr.Radio, gr.Dropdown)):
        return "choice"
    return "any"


def _example_count(component: Any) -> int:
    samples = getattr(component, "raw_samples", None) or getattr(component, "samples", None) or []
    return len(samples) if isinstance(component, gr.Dataset) else 0


@dataclass(frozen=True)
class EndpointTable:
    by_index: Mapping[int, Endpoint]
    by_name: Mapping[str, Endpoint]  # public endpoints only

    @classmethod
    def of(cls, blocks: gr.Blocks) -> EndpointTable:
        named = blocks.get_api_info().get("named_endpoints", {})
        endpoints = [cls._endpoint(fn_index, fn, named) for fn_index, fn in blocks.fns.items()]
        return cls(
            by_index={e.fn_index: e for e in endpoints},
            by_name={e.api_name: e for e in endpoints if e.public and e.api_name},
        )

    @staticmethod
    def _endpoint(fn_index: int, fn: Any, named: Mapping[str, Any]) -> Endpoint:
        inputs: Sequence[Any] = list(fn.inputs or [])
        kinds = tuple(input_kind(c) for c in inputs)
        info = named.get(f"/{fn.api_name}", {}) if isinstance(fn.api_name, str) else {}
        return Endpoint(
            fn_index=int(fn_index),
            api_name=fn.api_name if isinstance(fn.api_name, str) else None,
            public=bool(fn.fn) and getattr(fn, "api_visibility", "public") != "private",
            inputs=kinds,
            example_count=tuple(_example_count(c) for c in inputs),
            api_inputs=sum(kind != "state" for kind in kinds),
            queued=getattr(fn, "queue", True) is not False,
            parameters=tuple(
                (str(p["parameter_name"]), not p.get("parameter_has_default"))
                for p in info.get("parameters", [])
            ),
        )
