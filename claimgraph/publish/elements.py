"""A paper's nodes and edges as plain objects (docs/viewer-api.md), built from the queries in sparql/graphs/.

The viewer API, the GraphML and DOT exports and the nanopublications read
papers through this one view, so they agree on what a node and an edge are.

Provenance comes from the paper's audit graph: the step is the first
producing activity that touched the IRI (an extraction step by its name,
otherwise the activity kind: ``materialize``, ``canonicalize``, ``link``); a
node nothing touched came with the input (``load``) when it is a Viewpoint.
The repairs are the repair scripts that touched it, in run order (the raw
view lists none).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from pyoxigraph import Literal, NamedNode

from claimgraph.profile.vocabulary import RAW_LABEL
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import local_name
from claimgraph.store import Row, Store

LABEL_LENGTH = 40
GENERIC_TYPES = frozenset({"DiscourseNode", "ReasoningNode"})
PRODUCING_KINDS = frozenset({"extract", "materialize", "load", "canonicalize", "link"})
INPUT_TYPES = frozenset({"Viewpoint"})

Json = dict[str, Any]


@dataclass(frozen=True)
class Touch:
    """One audit activity that touched an IRI."""

    sequence: int
    kind: str
    name: str
    model: str | None
    activity: str = ""


def short_label(text: str) -> str:
    """The text cut to about LABEL_LENGTH characters for drawing on the node."""
    return text if len(text) <= LABEL_LENGTH else text[: LABEL_LENGTH - 1].rstrip() + "…"


def number(term: object) -> float | None:
    """A numeric literal as a float (None when absent or not a number)."""
    if not isinstance(term, Literal):
        return None
    try:
        return float(Decimal(term.value))
    except (InvalidOperation, ValueError):
        return None


def text(term: object) -> str | None:
    return term.value if isinstance(term, (Literal, NamedNode)) else None


def provenance_index(store: Store, audit: NamedNode) -> dict[str, list[Touch]]:
    """Touched IRI -> the activities of the audit graph that touched it, in run order."""
    index: dict[str, list[Touch]] = {}
    for row in store.select(read_sparql("graphs", "provenance.rq"), {"audit": audit}):
        touch = Touch(int(row["sequence"].value), row["kind"].value, row["name"].value, text(row.get("model")), row["activity"].value)
        touches = index.setdefault(row["touched"].value, [])
        if touch not in touches:
            touches.append(touch)
    return index


def producer(touches: Iterable[Touch]) -> Touch | None:
    """The first activity that produced the IRI (an extraction step, materialize, load, canonicalize, link)."""
    return next((touch for touch in sorted(touches, key=lambda touch: touch.sequence) if touch.kind in PRODUCING_KINDS), None)


def provenance(touches: Iterable[Touch], view: str, default_step: str | None = None) -> Json:
    """``{"step", "model", "repairs"}`` of an IRI from the activities that touched it."""
    ordered = sorted(touches, key=lambda touch: touch.sequence)
    producer_touch = producer(ordered)
    step = default_step if producer_touch is None else (producer_touch.name if producer_touch.kind == "extract" else producer_touch.kind)
    repairs = [] if view == "raw" else list(dict.fromkeys(touch.name for touch in ordered if touch.kind == "repair"))
    return {"step": step, "model": producer_touch.model if producer_touch else None, "repairs": repairs}


def anchor(row: Row) -> str | None:
    if not all(name in row for name in ("x", "y", "z")):
        return None
    return f"({row['x'].value},{row['y'].value},{row['z'].value})"


def preferred_type(types: list[str]) -> str | None:
    """The most specific of a node's class local names (DiscourseNode/ReasoningNode only when nothing else)."""
    specific = [name for name in types if name not in GENERIC_TYPES]
    chosen = specific or types
    return chosen[0] if chosen else None


def nodes_from_rows(rows: list[Row], touches: dict[str, list[Touch]], view: str) -> dict[str, Json]:
    """Node objects by IRI, in the order of the rows; a node's repeated rows (several types) are folded."""
    nodes: dict[str, Json] = {}
    types: dict[str, list[str]] = {}
    for row in rows:
        iri = row["node"].value
        types.setdefault(iri, [])
        type_name = local_name(row["type"].value)
        if type_name not in types[iri]:
            types[iri].append(type_name)
        if iri in nodes:
            continue
        body = row["text"].value
        nodes[iri] = {
            "id": iri, "label": short_label(body), "type": None, "role": None, "text": body,
            "confidence": number(row.get("confidence")), "anchor": anchor(row), "sentence": text(row.get("sentence")),
        }
    for iri, node in nodes.items():
        node["type"] = preferred_type(types[iri])
        default = "load" if node["type"] in INPUT_TYPES else None
        node["provenance"] = provenance(touches.get(iri, []), view, default)
    return nodes


def edge_label(row: Row) -> str:
    if "notation" in row:
        return str(row["notation"].value)
    predicate = row["predicate"].value
    if predicate.startswith(RAW_LABEL.iri):
        return urllib.parse.unquote(predicate[len(RAW_LABEL.iri):])
    return local_name(predicate)


def edges_from_rows(rows: list[Row], touches: dict[str, list[Touch]], view: str) -> tuple[list[Json], dict[str, set[str]]]:
    """Edge objects (one per id) and, per source node, the labels of its outgoing reasoning edges."""
    edges: dict[str, Json] = {}
    reasoning_labels: dict[str, set[str]] = {}
    for row in rows:
        source, target, label = row["source"].value, row["target"].value, edge_label(row)
        identifier = f"{source}|{label}|{target}"
        if "family" in row:
            reasoning_labels.setdefault(source, set()).add(label)
        annotation = text(row.get("annotation"))
        edge = edges.get(identifier)
        if edge is None:
            edges[identifier] = edge = {
                "id": identifier, "source": source, "target": target, "label": label, "confidence": None,
                "provenance": provenance(touches.get(annotation or "", []), view),
            }
        if edge["confidence"] is None:
            edge["confidence"] = number(row.get("confidence"))
    return list(edges.values()), reasoning_labels


def graph_elements(store: Store, graph: NamedNode, paper: NamedNode, audit: NamedNode, vocabulary_prefix: str, view: str) -> tuple[list[Json], list[Json]]:
    """The nodes and edges of one paper graph (or its raw graph) for the viewer."""
    touches = provenance_index(store, audit)
    node_rows = store.select(read_sparql("graphs", "nodes.rq"), {"graph": graph, "paper": paper})
    nodes = nodes_from_rows(node_rows, touches, view)
    edge_rows = store.select(read_sparql("graphs", "edges.rq"), {"graph": graph, "vocabularyPrefix": Literal(vocabulary_prefix)})
    edges, reasoning_labels = edges_from_rows(edge_rows, touches, view)
    for source, labels in reasoning_labels.items():
        if source in nodes and len(labels) == 1:
            nodes[source]["role"] = next(iter(labels))
    return list(nodes.values()), edges
