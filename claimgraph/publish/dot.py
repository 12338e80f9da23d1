"""Reasoning graphs back to DOT: the format the tolerant materializer reads, so export and parse round-trip.

One ``digraph`` per paper. A node's id is its IRI relative to ``<paper>/node/``
(other IRIs, such as the scaffolding root, relative to the paper), its label
``(x,y,z) role: text``; the root carries ``root=true`` and the scaffolding root
``scaffolding=true``. An edge carries its label (the skos:notation, or the raw
label of an unrepaired one) and its confidence when it has an annotation. The
evaluation view leaves the scaffolding root and its cg:aggregatedInto edges out.
"""

from __future__ import annotations

import urllib.parse

from pyoxigraph import Literal, NamedNode

from claimgraph.context import Context
from claimgraph.profile.ontology import edge_labels
from claimgraph.profile.vocabulary import RAW_LABEL
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import iri_of
from claimgraph.rdf.vocab import CG, XSD

AGGREGATED_INTO = "aggregated-into"


def quote(text: str) -> str:
    """A DOT double-quoted string; the materializer's unquote reverses it."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot_id(paper: NamedNode, node: NamedNode) -> str:
    for prefix in (f"{paper.value}/node/", f"{paper.value}/"):
        if node.value.startswith(prefix):
            return node.value[len(prefix):]
    return node.value


def edge_label(labels: dict[str, str], edge: NamedNode) -> str:
    if edge == CG.aggregatedInto:
        return AGGREGATED_INTO
    if edge.value.startswith(RAW_LABEL.iri):
        return urllib.parse.unquote(edge.value[len(RAW_LABEL.iri):])
    return labels.get(edge.value, edge.value.rsplit("#", 1)[-1])


def _flag(value: object) -> bool:
    return isinstance(value, Literal) and value.value in ("true", "1")


def reasoning_dot(ctx: Context, paper_id: str, evaluation_view: bool = False) -> str:
    """The paper's reasoning graph as one DOT digraph."""
    store, profile = ctx.store, ctx.profile
    paper = ctx.iris.paper(paper_id)
    bindings: dict[str, Term] = {"graph": paper, "scaffolding": Literal("false" if evaluation_view else "true", datatype=XSD.boolean)}
    lines = [f"digraph {quote(paper_id)} {{"]
    for row in store.select(read_internal_query("reasoning-nodes"), bindings):
        source = f"({row['x'].value},{row['y'].value},{row['z'].value}) " if "x" in row else ""
        role = f"{row['role'].value}: " if "role" in row else ""
        attrs = [f"label={quote(source + role + row['text'].value)}"]
        attrs += ["root=true"] if _flag(row.get("root")) else []
        attrs += ["scaffolding=true"] if _flag(row.get("scaffold")) else []
        lines.append(f"  {quote(dot_id(paper, iri_of(row, 'node')))} [{', '.join(attrs)}];")
    labels = {iri: label for label, iri in edge_labels(profile).items()}
    for row in store.select(read_internal_query("reasoning-edges"), bindings):
        attrs = [f"label={quote(edge_label(labels, iri_of(row, 'edge')))}"]
        if "confidence" in row:
            attrs.append(f"confidence={row['confidence'].value}")
        lines.append(f"  {quote(dot_id(paper, iri_of(row, 'source')))} -> {quote(dot_id(paper, iri_of(row, 'target')))} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
