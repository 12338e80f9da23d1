"""pyshex failure traces as one readable line, e.g. ``cg:arg1: expected exactly 1, found 0``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from claimgraph.profile.schema import Cardinality
from claimgraph.rdf.vocab import short_iri

if TYPE_CHECKING:
    import rdflib

    from claimgraph.quality.shapes import CompiledProfile
from claimgraph.rdf.vocab import PREFIXES, XSD

# ---------------------------------------------------------------- readable reasons

_TESTING = re.compile(r"^\s*Testing (.+?) against shape (\S+)\s*$")
_TRIPLE = re.compile(r"^\s*(\S+) (\S+) (.+?) \.\s*$")


def _expand(curie: str) -> str:
    curie = curie.strip("<>")
    prefix, _, local = curie.partition(":")
    return PREFIXES[prefix] + local if prefix in PREFIXES and not local.startswith("//") else curie


def _expected(cardinality: Cardinality | None) -> str:
    if cardinality is None:
        return "a different number"
    low, high = cardinality
    if low == high:
        return f"exactly {low}"
    if high == -1:
        return f"at least {low}" if low else "any number"
    return f"at most {high}" if low == 0 else f"{low} to {high}"


def clean_reason(raw: str, graph: rdflib.Graph, compiled: CompiledProfile, shape: str) -> str:
    """pyshex's failure trace as one line, e.g. ``cg:arg1: expected exactly 1, found 0``.

    A failure inside a referenced node is reported from the focus node's side:
    ``cg:arg1 <iri>: not a valid FactorShape (rdf:type: expected exactly 1, found 0)``.
    """
    import rdflib

    lines = [line for line in raw.splitlines() if line.strip()]
    tested = [match.groups() for match in map(_TESTING.match, lines) if match]
    detail = [line.strip() for line in lines if not _TESTING.match(line)]
    focus, _ = tested[0] if tested else ("", shape)
    nested = [(node, inner_shape) for node, inner_shape in tested if node != focus]
    if not nested:
        return _describe(detail, graph, compiled, shape, focus) or " ".join(detail)[:300]
    node, inner_shape = nested[-1]
    if node.startswith('"'):
        predicate = _predicate_of(graph, focus, lambda o: isinstance(o, rdflib.Literal) and (o.n3() == node or f'"{o}"' == node))
        return f"{predicate}: expected a node (an IRI) valid for {short_iri(inner_shape)}, found the literal {node[:80]}"
    inner = _describe(detail, graph, compiled, inner_shape, node) or " ".join(detail)[:200]
    link = _link(graph, focus, node)
    return f"{link} {_node_text(node)}: not a valid {short_iri(inner_shape)} ({inner})"


def _node_text(n3: str) -> str:
    return n3 if n3.startswith(("<", '"', "_:")) else f"<{_expand(n3)}>"


def _link(graph: rdflib.Graph, focus: str, node: str) -> str:
    """The predicate that leads from the focus to a referenced node (as the reason's subject)."""
    import rdflib

    subject = graph.namespace_manager.expand_curie(focus) if ":" in focus and not focus.startswith("<") else rdflib.URIRef(focus.strip("<>"))
    target = graph.namespace_manager.expand_curie(node) if ":" in node and not node.startswith("<") else rdflib.URIRef(node.strip("<>"))
    for predicate in graph.predicates(subject, target):
        return short_iri(str(predicate))
    return "reference"


def _describe(detail: list[str], graph: rdflib.Graph, compiled: CompiledProfile, shape: str, node: str) -> str:
    import rdflib
    text = "\n".join(detail)
    shape_iri = _expand(shape)

    def expected(predicate: str) -> str:
        return _expected(compiled.cardinality.get((shape_iri, _expand(predicate))))

    if match := re.search(r"String length violation - minimum: (\d+) actual: (\d+)", text):
        length = int(match.group(2))
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and len(str(o)) == length)
        return f"{predicate}: text shorter than {match.group(1)} character{'s' if match.group(1) != '1' else ''}"
    if match := re.search(r"Numeric value volation - (minimum|maximum) (inclusive|exclusive): (\S+) actual: (\S+)", text):
        bound, _, limit, actual = match.groups()
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and str(o) == actual)
        side = "below the minimum" if bound == "minimum" else "above the maximum"
        return f"{predicate}: {actual} is {side} {limit}"
    if match := re.search(r"Datatype mismatch - expected: (\S+) actual: (\S+)", text):
        expected_type, actual_type = match.groups()
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and str(o.datatype or XSD.string.value) == actual_type.strip("<>"))
        return f"{predicate}: expected {short_iri(expected_type)}, found {short_iri(actual_type)}"
    if "Numeric test on non-number" in text:
        predicate = _predicate_of(graph, node, _not_a_number)
        return f"{predicate}: {_value_of(graph, node, _not_a_number)} is not a number"
    if match := re.search(r"Datatype constraint \((\S+)\)", text):
        return f"value is not a valid {short_iri(match.group(1))}"
    if match := re.search(r"Node: (\S+) not in value set", text):
        value = match.group(1)
        predicate = _predicate_of(graph, node, lambda o: o.n3(graph.namespace_manager) == value or str(o) == value.strip('"<>'))
        shown = short_iri(_expand(value)) if not value.startswith('"') else value
        return f"{predicate}: {shown} is not one of the allowed values"
    if match := re.search(r"Node kind mismatch have: (\S+) expected: (\S+)", text):
        return f"value is a {match.group(1)}, expected {match.group(2).removeprefix('nodeKind.').lower()}"
    if match := re.search(r"No matching triples found for predicate (\S+)", text):
        predicate = short_iri(_expand(match.group(1)))
        return f"{predicate}: expected {expected(predicate)}, found 0"
    if match := re.search(r"(\d+) triples (?:exceeds max|less than) ", text):
        predicate = _first_triple_predicate(detail)
        return f"{predicate}: expected {expected(predicate)}, found {match.group(1)}"
    if "Unmatched triples in CLOSED shape" in text:
        predicates = sorted({short_iri(_expand(m.group(2))) for m in map(_TRIPLE.match, detail) if m})
        return f"{', '.join(predicates)}: not allowed on {short_iri(shape_iri).removesuffix('Shape')} (closed shape)"
    if match := re.search(r"(\d+) triples cannot be partitioned", text):
        return f"{_first_triple_predicate(detail)}: the values do not fit the shape's groups"
    return ""


def _not_a_number(value: object) -> bool:
    """A literal whose lexical form does not read as a number (pyshex's numeric facets then fail)."""
    import rdflib

    if not isinstance(value, rdflib.Literal):
        return False
    try:
        float(str(value))
    except ValueError:
        return True
    return False


def _first_passing(graph: rdflib.Graph, node: str, test: Callable[[rdflib.term.Node], bool]) -> tuple[str, str] | None:
    """(predicate, value) of the node's first value, in sorted order, that passes ``test``; None if none does."""
    import rdflib

    try:
        subject = graph.namespace_manager.expand_curie(node) if not node.startswith("<") else rdflib.URIRef(node.strip("<>"))
    except ValueError:
        return None
    for predicate, value in sorted(graph.predicate_objects(subject)):
        if test(value):
            return str(predicate), str(value)
    return None


def _value_of(graph: rdflib.Graph, node: str, test: Callable[[rdflib.term.Node], bool]) -> str:
    """The first value of the node that passes ``test``, as written in N-Triples (shortened)."""
    found = _first_passing(graph, node, test)
    return f'"{found[1][:60]}"' if found else "a value"


def _first_triple_predicate(detail: list[str]) -> str:
    for line in detail:
        match = _TRIPLE.match(line)
        if match:
            return short_iri(_expand(match.group(2)))
    return "(property)"


def _predicate_of(graph: rdflib.Graph, node: str, test: Callable[[rdflib.term.Node], bool]) -> str:
    """The predicate of the node's first value that passes ``test`` (pyshex does not name it)."""
    found = _first_passing(graph, node, test)
    return short_iri(found[0]) if found else "(property)"
