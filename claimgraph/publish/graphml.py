"""GraphML for Gephi, Cytoscape and networkx: the papers' nodes and edges with their attributes.

One directed ``<graph>`` holds the chosen papers (node ids are IRIs, which
differ between papers); every node carries its paper, type, role, label, text,
confidence, anchor and the step that produced it; every edge its label,
confidence and paper. Missing values are left out, as GraphML allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.etree import ElementTree

from claimgraph.context import Context
from claimgraph.publish.elements import Json, graph_elements

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
NODE_KEYS = (("paper", "string"), ("type", "string"), ("role", "string"), ("label", "string"), ("text", "string"),
             ("confidence", "double"), ("anchor", "string"), ("sentence", "string"), ("step", "string"))
EDGE_KEYS = (("paper", "string"), ("label", "string"), ("confidence", "double"), ("step", "string"))
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: object) -> str:
    """The value as text XML 1.0 can carry: characters it forbids (most control characters) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(value))


def _key(parent: ElementTree.Element, owner: str, name: str, kind: str) -> None:
    ElementTree.SubElement(parent, "key", {"id": f"{owner[0]}_{name}", "for": owner, "attr.name": name, "attr.type": kind})


def _data(element: ElementTree.Element, owner: str, values: dict[str, object]) -> None:
    for name, value in values.items():
        if value is not None and value != "":
            ElementTree.SubElement(element, "data", {"key": f"{owner[0]}_{name}"}).text = xml_text(value)


def paper_elements(ctx: Context, paper_id: str) -> tuple[list[Json], list[Json]]:
    paper = ctx.iris.paper(paper_id)
    return graph_elements(ctx.store, paper, paper, ctx.iris.audit_graph(paper_id), f"{ctx.iris.base}graph/vocabulary/", "paper")


def to_graphml(ctx: Context, paper_ids: Iterable[str]) -> bytes:
    """The papers' graphs as one GraphML document."""
    ElementTree.register_namespace("", GRAPHML_NS)
    root = ElementTree.Element("graphml", {"xmlns": GRAPHML_NS})
    for name, kind in NODE_KEYS:
        _key(root, "node", name, kind)
    for name, kind in EDGE_KEYS:
        _key(root, "edge", name, kind)
    graph = ElementTree.SubElement(root, "graph", {"id": "claimgraph", "edgedefault": "directed"})
    edge_number = 0
    for paper_id in paper_ids:
        nodes, edges = paper_elements(ctx, paper_id)
        for node in nodes:
            element = ElementTree.SubElement(graph, "node", {"id": node["id"]})
            _data(element, "node", {"paper": paper_id, **{name: node.get(name) for name, _ in NODE_KEYS[1:-1]}, "step": node["provenance"]["step"]})
        for edge in edges:
            edge_number += 1
            element = ElementTree.SubElement(graph, "edge", {"id": f"e{edge_number}", "source": edge["source"], "target": edge["target"]})
            _data(element, "edge", {"paper": paper_id, "label": edge["label"], "confidence": edge["confidence"], "step": edge["provenance"]["step"]})
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
