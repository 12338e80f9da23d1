"""GraphML for Gephi, Cytoscape and networkx: the papers' nodes and edges with their attributes.

One directed ``<graph>`` holds the chosen papers (node ids are IRIs, which
differ between papers); every node carries its paper, type, role, label, text,
confidence, anchor and the step that produced it; every edge its label,
confidence and paper. Missing values are left out, as GraphML allows.

Texts are kept exactly. A carriage return is written as ``&#13;`` (a raw one
would be read back as a line end). A value holding a character XML 1.0 cannot
carry at all (control characters other than tab, line feed and carriage
return; U+FFFE, U+FFFF) is written escaped: each such character as
``\\uXXXX`` and each backslash as ``\\\\``, and the element gets the boolean
``<name>_escaped`` data (key ``n_<name>_escaped`` or ``e_<name>_escaped``) set
to true; ``unescape`` reads such a value back. A value without that flag is the
text itself.
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
_ESCAPED = re.compile(r"\\(\\|u[0-9a-f]{4})")
ESCAPED_SUFFIX = "_escaped"


def xml_text(value: object) -> tuple[str, bool]:
    """The value as text XML 1.0 can carry, and whether it had to be escaped (see the module docstring)."""
    text = str(value)
    if not _NOT_XML.search(text):
        return text, False
    return _NOT_XML.sub(lambda found: f"\\u{ord(found.group()):04x}", text.replace("\\", "\\\\")), True


def unescape(text: str) -> str:
    """The original of a value written escaped (its ``<name>_escaped`` data is true)."""
    return _ESCAPED.sub(lambda found: "\\" if found.group(1) == "\\" else chr(int(found.group(1)[1:], 16)), text)


def _key(parent: ElementTree.Element, owner: str, name: str, kind: str) -> None:
    ElementTree.SubElement(parent, "key", {"id": f"{owner[0]}_{name}", "for": owner, "attr.name": name, "attr.type": kind})
    if kind == "string":
        flag = name + ESCAPED_SUFFIX
        ElementTree.SubElement(parent, "key", {"id": f"{owner[0]}_{flag}", "for": owner, "attr.name": flag, "attr.type": "boolean"})


def _data(element: ElementTree.Element, owner: str, values: dict[str, object]) -> None:
    for name, value in values.items():
        if value is not None and value != "":
            text, escaped = xml_text(value)
            ElementTree.SubElement(element, "data", {"key": f"{owner[0]}_{name}"}).text = text
            if escaped:
                ElementTree.SubElement(element, "data", {"key": f"{owner[0]}_{name}{ESCAPED_SUFFIX}"}).text = "true"


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
    written = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
    return written.replace(b"\r", b"&#13;")  # only text holds a raw CR (attributes are escaped by ElementTree)
