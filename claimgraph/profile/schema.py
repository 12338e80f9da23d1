"""Reading a profile's ShEx schema: loading the .shex files and listing their triple constraints.

Validation uses the constraints for readable reasons; prompt generation turns
them into cardinality sentences, so the .shex file stays the one source.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.errors import ProfileError

if TYPE_CHECKING:
    from ShExJSG import ShExJ

UNBOUNDED = -1
Cardinality = tuple[int, int]  # (min, max); max UNBOUNDED for '*' and '+'


@dataclass(frozen=True)
class TripleConstraint:
    """One ``predicate valueExpr {min,max}`` of a shape; ``target`` is a referenced shape, datatype or value list."""

    shape: str
    predicate: str
    min: int
    max: int  # UNBOUNDED for '*' and '+'
    target_shape: str | None
    datatype: str | None
    values: tuple[str, ...]
    in_optional_group: bool = False

    @property
    def required(self) -> bool:
        """Whether every node of the shape needs this triple (not only when its group is present)."""
        return self.min > 0 and not self.in_optional_group


def load_schema(paths: Iterable[Path]) -> ShExJ.Schema:
    """The shapes of several ShExC files as one schema (later files may reference earlier shapes)."""

    from pyshex.utils.schema_loader import SchemaLoader

    merged: ShExJ.Schema | None = None
    for path in paths:
        schema = SchemaLoader().loads(path.read_text(encoding="utf-8"))
        if schema is None or not schema.shapes:
            raise ProfileError(f"{path}: cannot parse the ShEx schema")
        if merged is None:
            merged = schema
            continue
        known = {shape.id for shape in merged.shapes}
        clash = sorted(shape.id for shape in schema.shapes if shape.id in known)
        if clash:
            raise ProfileError(f"{path}: shapes {clash} are already defined by an earlier schema of the profile")
        merged.shapes.extend(schema.shapes)
    if merged is None:
        raise ProfileError("a profile needs at least one ShEx file")
    return merged


def _constraint(shape_id: str, expr: ShExJ.TripleConstraint, optional: bool) -> TripleConstraint:
    from ShExJSG import ShExJ
    value = expr.valueExpr
    target = str(value) if isinstance(value, str) else None
    datatype = str(value.datatype) if isinstance(value, ShExJ.NodeConstraint) and value.datatype else None
    values = tuple(str(v) for v in value.values) if isinstance(value, ShExJ.NodeConstraint) and value.values else ()
    return TripleConstraint(
        shape=shape_id,
        predicate=str(expr.predicate),
        min=1 if expr.min is None else int(expr.min),
        max=1 if expr.max is None else int(expr.max),
        target_shape=target,
        datatype=datatype,
        values=values,
        in_optional_group=optional,
    )


def triple_constraints(schema: ShExJ.Schema) -> list[TripleConstraint]:
    """Every triple constraint of every shape, with labelled groups (``&:NodeCore``) expanded.

    A constraint inside an optional group (``( ... ) ?``) or a OneOf branch is
    marked ``in_optional_group``; its own min/max are kept as written.
    """
    from ShExJSG import ShExJ

    labeled: dict[str, object] = {}

    def collect(expr: object) -> None:
        if isinstance(expr, (ShExJ.EachOf, ShExJ.OneOf)):
            if expr.id is not None:
                labeled[str(expr.id)] = expr
            for child in expr.expressions:
                collect(child)

    for shape in schema.shapes:
        collect(getattr(shape, "expression", None))

    found: list[TripleConstraint] = []

    def walk(shape_id: str, expr: object, seen: frozenset[str], optional: bool) -> None:
        if isinstance(expr, ShExJ.TripleConstraint):
            found.append(_constraint(shape_id, expr, optional))
        elif isinstance(expr, (ShExJ.EachOf, ShExJ.OneOf)):
            inner = optional or expr.min == 0 or isinstance(expr, ShExJ.OneOf)
            for child in expr.expressions:
                walk(shape_id, child, seen, inner)
        elif isinstance(expr, str) and expr in labeled and expr not in seen:
            walk(shape_id, labeled[expr], seen | {expr}, optional)

    for shape in schema.shapes:
        walk(str(shape.id), getattr(shape, "expression", None), frozenset(), False)
    return found

