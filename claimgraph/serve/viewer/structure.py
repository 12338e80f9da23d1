"""What api/graph adds to a paper's nodes and edges: its document structure and its ontology terms.

Structured input (ARCHE) gives a paper sentences, the viewpoints each states
and the references each cites; drawn alone, the viewpoints are a grid of
unconnected dots. ``structure`` lists sentences and references as nodes with
the edges sentence -> viewpoint (``states``), sentence -> reference
(``cites``) and viewpoint -> reference (``from-reference``), so the viewer
can draw them joined. ``terms`` are the ontology terms ``claimgraph link``
linked each node to.
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from claimgraph.publish.elements import Json, short_label
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import local_name
from claimgraph.store import Row, Store

LOAD_PROVENANCE: Json = {"step": "load", "model": None, "repairs": []}


def structure_node(row: Row) -> Json:
    index = row["index"].value
    if row["kind"].value == "sentence":
        body = row["text"].value
        label, anchor = short_label(f"S{index}: {body}"), f"({index},0,0)"
        return {"id": row["node"].value, "label": label, "type": "Sentence", "role": None, "text": body,
                "confidence": None, "anchor": anchor, "sentence": body, "provenance": LOAD_PROVENANCE}
    return {"id": row["node"].value, "label": f"Reference {index}", "type": "Reference", "role": None,
            "text": f"Reference {index} of the paper", "confidence": None, "anchor": None, "sentence": None,
            "provenance": LOAD_PROVENANCE}


def structure(store: Store, graph: NamedNode, shown: set[str]) -> Json:
    """Sentences, references and the edges that join them to each other and to the ``shown`` nodes."""
    nodes: list[Json] = []
    links: list[Row] = []
    for row in store.select(read_sparql("graphs", "structure.rq"), {"graph": graph}):
        if row["kind"].value in ("sentence", "reference"):
            nodes.append(structure_node(row))
        else:
            links.append(row)
    ends = shown | {node["id"] for node in nodes}
    edges: list[Json] = []
    for row in links:
        source, target, label = row["source"].value, row["target"].value, row["kind"].value
        if source in ends and target in ends:
            edges.append({"id": f"{source}|{label}|{target}", "source": source, "target": target, "label": label,
                          "confidence": None, "provenance": LOAD_PROVENANCE})
    nodes.sort(key=lambda node: (node["type"] != "Sentence", len(node["id"]), node["id"]))
    edges.sort(key=lambda edge: str(edge["id"]))
    return {"nodes": nodes, "edges": edges}


def node_terms(store: Store, graph: NamedNode) -> dict[str, list[Json]]:
    """The ontology terms each node of a paper graph is linked to, by node IRI."""
    terms: dict[str, list[Json]] = {}
    for row in store.select(read_sparql("graphs", "node-terms.rq"), {"graph": graph}):
        term = row["term"].value
        label = row["label"].value if "label" in row else local_name(term)
        terms.setdefault(row["node"].value, []).append({"iri": term, "label": label, "match": local_name(row["match"].value)})
    return terms
