"""Tolerant materialization of graph-like LLM responses (PEARL stage 1): nodes and edges, never more.

Branches, tried in order; the first that recovers at least one node or edge wins
and its name is kept as audit metadata (``ParsedGraph.branch``):

- ``dot-strict``: the whole response is one DOT graph (``digraph``/``graph``),
  parsed by the DOT grammar (semicolons optional, as in DOT).
- ``dot-tolerant``: DOT-like text: code fences and prose around the graph,
  a missing closing brace, ``:`` for ``=`` in attributes, attributes without
  commas, ``→``/``=>``/``-->`` arrows, ``A -> B : label`` edges. Each statement
  is parsed on its own; a statement that is not a node or an edge (prose) is
  skipped and counted.
- ``xml``: ``<node .../>`` and ``<edge .../>`` elements, fields as attributes or
  child elements.
- ``plist``: ``<dict>`` entries with ``<key>``/``<string>`` pairs; a dict with
  source and target is an edge, one with an id a node.
- ``json``: a JSON object (possibly inside prose or a code fence) with
  ``nodes`` and ``edges`` lists of objects, read with ``json.loads`` (never eval).

When no branch recovers anything, what the failed branches that recognized
their format found wrong with the text (a graph header followed by nothing,
JSON cut before its first object) is kept on the failed result, so a cut response is ``parse_failed``
and ``truncated_response`` at once.

Only what the response states is admitted: an edge to an undeclared node keeps
its endpoint id (repair drops it as dangling), and a node without a label is
not given one. Duplicate edges (same ends and label) are collapsed and counted.
"""

from __future__ import annotations

from collections.abc import Callable

from claimgraph.reasoning.dot_grammar import parse_dot_strict
from claimgraph.reasoning.fields import parse_json_fields, parse_plist_fields, parse_xml_fields
from claimgraph.reasoning.parsed import PARSE_FAILED, DotSyntaxError, ParsedEdge, ParsedGraph, ParsedNode, ParseProblem
from claimgraph.reasoning.tolerant_dot import parse_dot_tolerant

__all__ = ["PARSE_FAILED", "ParsedEdge", "ParsedGraph", "ParsedNode", "ParseProblem", "materialize", "no_graph_reason"]


def materialize(text: str) -> ParsedGraph:
    """The graph stated by a response, from the first parser branch that recovers anything."""
    branches: list[tuple[str, Callable[[str], ParsedGraph]]] = [
        ("dot-strict", parse_dot_strict),
        ("dot-tolerant", parse_dot_tolerant),
        ("xml", parse_xml_fields),
        ("plist", parse_plist_fields),
        ("json", parse_json_fields),
    ]
    problems: dict[str | None, ParseProblem] = {}
    for name, parser in branches:
        try:
            graph = parser(text)
        except DotSyntaxError:
            continue
        if not graph.empty:
            graph.branch = name
            return graph
        for problem in graph.problems if graph.recognized else ():
            problems.setdefault(problem.residual, problem)
    failed = ParsedGraph(PARSE_FAILED)
    failed.problems = [problem for residual, problem in problems.items() if residual]
    return failed


def no_graph_reason(text: str) -> str | None:
    """Why a reply is not a reasoning graph (an LLM call that gets it fails and is not cached), or None."""
    return "no node or edge recovered from the reply" if materialize(text).empty else None
