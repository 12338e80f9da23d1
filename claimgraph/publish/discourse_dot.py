"""Discourse graphs as DOT (Graphviz): typed nodes, labelled edges whose width follows their confidence.

One ``digraph`` per paper. A node's id is its IRI relative to ``<paper>/node/``
(like the reasoning export), its label ``Type: text`` (cut to about forty
characters, the full text in ``tooltip``), with ``type``, ``confidence`` and
``anchor`` attributes; an edge carries its label, its confidence and a pen
width from 1 (confidence 0) to 4 (confidence 1). Nodes of one type share a
fill colour, listed in ``TYPE_COLOURS``.
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.publish.dot import dot_id, quote
from claimgraph.publish.graphml import paper_elements

TYPE_COLOURS = {
    "Claim": "#0072b2", "Evidence": "#009e73", "Hypothesis": "#e69f00", "ResearchQuestion": "#f0e442",
    "Association": "#cc79a7", "Factor": "#56b4e9", "Variable": "#999999", "StudyDesign": "#d55e00",
    "StatisticalMethod": "#8c6d31", "Viewpoint": "#bcbd22",
}


def _number(value: float) -> str:
    return format(value, "g")


def discourse_dot(ctx: Context, paper_id: str) -> str:
    """The paper's discourse graph (its nodes and edges as the viewer shows them) as one DOT digraph."""
    paper = ctx.iris.paper(paper_id)
    nodes, edges = paper_elements(ctx, paper_id)
    lines = [f"digraph {quote(paper_id)} {{", '  node [shape=box, style="rounded,filled", fontname="Helvetica"];']
    for node in nodes:
        kind = node["type"] or ""
        attrs = [f"label={quote(kind + ': ' + node['label'])}", f"tooltip={quote(node['text'])}", f"type={quote(kind)}",
                 f"fillcolor={quote(TYPE_COLOURS.get(kind, '#ffffff'))}"]
        if node["confidence"] is not None:
            attrs.append(f"confidence={_number(node['confidence'])}")
        if node["anchor"]:
            attrs.append(f"anchor={quote(node['anchor'])}")
        lines.append(f"  {quote(dot_id(paper, NamedNode(node['id'])))} [{', '.join(attrs)}];")
    for edge in edges:
        attrs = [f"label={quote(edge['label'])}"]
        if edge["confidence"] is not None:
            attrs += [f"confidence={_number(edge['confidence'])}", f"penwidth={_number(round(1 + 3 * edge['confidence'], 2))}"]
        else:
            attrs.append('style="dashed"')
        source, target = (quote(dot_id(paper, NamedNode(edge[end]))) for end in ("source", "target"))
        lines.append(f"  {source} -> {target} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
