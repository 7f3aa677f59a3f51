"""The grounding families, one module each (models/families/spec.py says what a record holds).

`grounding_families()` finds the records: every module of this package but `spec` gives its `FAMILIES`, in
the order of the modules' names and then of each module's tuple (the order names are listed and served
model ids are matched in). Nothing is imported until it is first asked. Adding a family is one module here;
a family defined elsewhere (tests/toy_family.py) is passed where it is used (`FamilyTable(extra)`).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from functools import cache

from models.families.spec import Coords, GroundingFamilySpec, PointerFormat

__all__ = ["FamilyTable", "GroundingFamilySpec", "PointerFormat", "family_table", "grounding_families"]


@cache
def grounding_families() -> tuple[GroundingFamilySpec, ...]:
    """Every family record of this package (see the module's doc for the order)."""
    found: list[GroundingFamilySpec] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name != "spec":
            found.extend(importlib.import_module(f"{__name__}.{module.name}").FAMILIES)
    return tuple(found)


class FamilyTable:
    """Look-ups over a list of family records (by default this package's, plus any `extra`)."""

    def __init__(self, extra: Iterable[GroundingFamilySpec] = (), *, builtin: bool = True) -> None:
        self.families = (*(grounding_families() if builtin else ()), *extra)

    def __iter__(self) -> Iterator[GroundingFamilySpec]:
        return iter(self.families)

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.families)

    def named(self, name: GroundingFamilySpec | str) -> GroundingFamilySpec:
        """The family `name` names (in any case); ValueError naming the known ones when none is."""
        if isinstance(name, GroundingFamilySpec):
            return name
        text = str(name).strip().lower()
        for family in self.families:
            if family.name == text:
                return family
        raise ValueError(f"unknown grounding family {text!r}; known: {', '.join(self.names())}")

    def for_model_type(self, model_type: str) -> GroundingFamilySpec | None:
        """The family of a checkpoint whose config's model_type is `model_type`, or None."""
        return next((f for f in self.families if model_type in f.model_types), None)

    def for_model_id(self, model_id: str) -> GroundingFamilySpec | None:
        """The family a served model's id names (lower-cased, "_" read as "-"), or None."""
        text = model_id.lower().replace("_", "-")
        return next((f for f in self.families if f.matches_id(text)), None)

    def pointer_formats(self) -> dict[str, PointerFormat]:
        """Every output format the VLM pointer can ask for, by name, in the table's order."""
        return {f.pointer.output: f.pointer for f in self.families if f.pointer is not None}

    def to_read(
        self, output: str, reported: GroundingFamilySpec | None, coords: Coords
    ) -> tuple[GroundingFamilySpec, ...]:
        """The families a reply to `output`'s prompt is read as: the one the VLM reports when it answers in
        that format; else the format's fallback for `coords`; else each family of the format (the reading
        that finds most is kept)."""
        answering = tuple(f for f in self.families if f.pointer is not None and f.pointer.output == output)
        if reported is not None and reported in answering:
            return (reported,)
        fallback = tuple(f for f in answering if coords in f.fallback_for)
        return fallback[:1] or answering


@cache
def family_table() -> FamilyTable:
    """This package's families (built once, when first asked)."""
    return FamilyTable()
