"""Typed reads of SELECT rows: a value of the type the caller needs, or an error naming the variable and what was there.

A row from ``Store.select`` maps variable names to RDF terms. ``text_of``,
``integer_of``, ``number_of``, ``iri_of`` and ``flag_of`` read one binding;
``read_rows`` maps every row to a dataclass whose fields name the variables
and whose annotations (``str``, ``int``, ``float``, ``bool``, ``NamedNode``,
``Term``, each optionally ``| None``) say how to read them. A missing binding
of a field that is not optional, or a value that is not of the declared type
(a literal where an IRI is needed, "abc" for an integer), raises ``RowError``
with the query's variable and the value found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar, cast, get_type_hints

from pyoxigraph import BlankNode, Literal, NamedNode

from claimgraph.errors import ClaimgraphError

Term = NamedNode | BlankNode | Literal
Row = Mapping[str, Term]
T = TypeVar("T")


class RowError(ClaimgraphError):
    """A query row lacks a binding the reader needs, or holds a value of another type."""


def _bound(row: Row, name: str) -> Term:
    term = row.get(name)
    if term is None:
        raise RowError(f"query row has no binding for ?{name} (bound: {', '.join(sorted(row)) or 'nothing'})")
    return term


def text_of(row: Row, name: str) -> str:
    """The lexical value of ?name (an IRI's string, a literal's text)."""
    return _bound(row, name).value


def integer_of(row: Row, name: str) -> int:
    """?name as an integer (a decimal or double that is whole counts too: SUM and AVG give those)."""
    value = text_of(row, name)
    try:
        number = float(value)
    except ValueError:
        raise RowError(f"?{name} = {value!r} is not a number") from None
    if not number.is_integer():
        raise RowError(f"?{name} = {value!r} is not a whole number")
    return int(number)


def number_of(row: Row, name: str) -> float:
    value = text_of(row, name)
    try:
        return float(value)
    except ValueError:
        raise RowError(f"?{name} = {value!r} is not a number") from None


def flag_of(row: Row, name: str) -> bool:
    value = text_of(row, name)
    if value in ("true", "1"):
        return True
    if value in ("false", "0"):
        return False
    raise RowError(f"?{name} = {value!r} is not a boolean")


def iri_of(row: Row, name: str) -> NamedNode:
    term = _bound(row, name)
    if not isinstance(term, NamedNode):
        raise RowError(f"?{name} = {term} is not an IRI")
    return term


def subject_of(row: Row, name: str) -> NamedNode | BlankNode:
    """?name as a triple's subject (an IRI or a blank node)."""
    term = _bound(row, name)
    if isinstance(term, Literal):
        raise RowError(f"?{name} = {term} is a literal, not a subject")
    return term


_READERS: dict[Any, Any] = {str: text_of, int: integer_of, float: number_of, bool: flag_of, NamedNode: iri_of}


def read_rows(rows: Iterable[Row], kind: type[T]) -> list[T]:
    """Each row as a ``kind`` (a dataclass whose field names are the query's variables)."""
    if not is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not a dataclass")
    hints = get_type_hints(kind)
    plan = [(item.name, *_reader(hints[item.name])) for item in fields(kind)]
    result: list[T] = []
    for row in rows:
        values = {}
        for name, reader, optional in plan:
            values[name] = None if optional and row.get(name) is None else reader(row, name)
        result.append(cast(T, kind(**values)))
    return result


def _reader(hint: Any) -> tuple[Any, bool]:
    """The reader of a field's type, and whether the field may be unbound (``X | None``)."""
    options = [option for option in getattr(hint, "__args__", (hint,)) if option is not type(None)]
    optional = len(options) < len(getattr(hint, "__args__", (hint,)))
    if len(options) == 1 and options[0] in _READERS:
        return _READERS[options[0]], optional
    if set(options) <= {NamedNode, BlankNode, Literal}:
        return _bound, optional
    raise TypeError(f"no row reader for {hint}")
