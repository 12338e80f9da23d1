"""DOT-like text: fences and prose around the graph, loose delimiters, missing braces; each statement parsed on its own.

The graph region and how the text leaves it come from ``dot_region``. What the
parser could not read or close is reported on the ``ParsedGraph``:

- a text that ends inside the graph (no closing brace, no closing fence after
  it) or inside a string is ``truncated_response``; the statement it ends
  inside is not admitted (``cut_statements``);
- a quote left open in the middle (it swallows the statements after it; they
  are then read line by line, a string never crossing a line) or a brace
  opened inside the graph and never closed is ``malformed_response``;
- a skipped statement that holds graph material (quotes, arrows, brackets,
  tuples) is ``malformed_response``; skipped prose is only noted.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from claimgraph.reasoning.dot_grammar import unquote
from claimgraph.reasoning.dot_region import Region, next_graph, scan_region
from claimgraph.reasoning.parsed import MALFORMED, TRUNCATED, ParsedGraph

_QUOTED = r'"(?:[^"\\]|\\.)*"'
_NAME = rf'(?:{_QUOTED}|[\w.\-]+)'
_ARROW = r"(?:-->|->|--|→|=>)"
_EDGE = re.compile(rf"^\s*({_NAME}(?:\s*{_ARROW}\s*{_NAME})+)\s*(.*)$", re.DOTALL)
_NODE = re.compile(rf"^\s*({_NAME})\s*(\[.*)$", re.DOTALL)
_NODE_LABEL = re.compile(rf"^\s*([\w.\-]+)\s*[:=]\s*({_QUOTED})\s*$", re.DOTALL)  # unquoted id: a JSON "key": "value" is no node
_UNQUOTED = r"(?:\([^()]*\)|[^,;\]\s])(?:\([^()]*\)|[^,;\]])*?"
_ATTR = re.compile(rf'([A-Za-z_][\w-]*)\s*[=:]\s*({_QUOTED}|{_UNQUOTED})\s*(?=[,;\]]|\s+[A-Za-z_][\w-]*\s*[=:]|$)', re.DOTALL)
_IGNORED = re.compile(r"(?:(?:graph|node|edge)\s*\[.*|\w+\s*=\s*\S+|subgraph(?:\s+[\w\"].*)?|strict)", re.DOTALL | re.IGNORECASE)
_MATERIAL = re.compile(rf'["\[\]=]|{_ARROW}|\(\s*\d+\s*,\s*\d+')
_COMPLETE_END = re.compile(r'(?:[;\]"]|\w)\s*$')
_OPEN_END = re.compile(rf"(?:{_ARROW}|[=:,\[])\s*$")


def split_statements(region: str, line_strings: bool = False) -> Iterator[tuple[str, bool]]:
    """Statements split at ';', newlines and braces outside quotes and brackets, each with whether a
    separator ended it (the last one may run to the end of the text). ``line_strings``: a string left
    open at the end of a line ends there (for a response whose open quote swallowed later lines)."""
    current: list[str] = []
    in_string = escaped = False
    brackets = 0
    for char in region:
        if in_string:
            if char == "\n" and line_strings:
                in_string = escaped = False
                brackets = 0
                yield "".join(current) + '"', True
                current = []
                continue
            escaped = char == "\\" and not escaped
            in_string = not (char == '"' and not escaped)
        elif char == '"':
            in_string = True
        elif char == "[":
            brackets += 1
        elif char == "]":
            brackets = max(0, brackets - 1)
        elif char in ";\n{}" and brackets == 0:
            yield "".join(current), True
            current = []
            continue
        elif char == "\n" and line_strings:
            brackets = 0
            yield "".join(current), True
            current = []
            continue
        current.append(char)
    yield "".join(current), not (in_string or brackets)


def _name(text: str) -> str:
    text = text.strip()
    return unquote(text) if text.startswith('"') and text.endswith('"') and len(text) > 1 else text.strip('"')


def tolerant_attributes(text: str) -> dict[str, str]:
    """``[k=v, k: "v" k2=v2]`` (one or more bracket groups) as a dict; loose separators accepted."""
    attrs: dict[str, str] = {}
    for group in re.findall(r"\[((?:[^\]\"]|" + _QUOTED + r")*)\]?", text):
        for key, value in _ATTR.findall(group):
            attrs[key.lower()] = _name(value)
    return attrs


def parse_dot_tolerant(text: str) -> ParsedGraph:
    graph = _parse_region(text)
    _later_graphs(graph, text)
    return graph


def _parse_region(text: str) -> ParsedGraph:
    graph = ParsedGraph("dot-tolerant")
    region = scan_region(text)
    graph.region_end = next_graph(text, region)
    graph.recognized = region.state != "headless"
    statements = list(split_statements(region.body, line_strings=region.swallowed))
    if region.truncated and statements:
        statements = _drop_cut_statement(graph, statements)
    for statement, _ in statements:
        stripped = statement.strip().rstrip(",")
        if not stripped or _IGNORED.fullmatch(stripped):
            continue
        if not parse_tolerant_statement(graph, stripped):
            graph.skip(stripped, bool(_MATERIAL.search(stripped)))
    _report(graph, region)
    return graph


def _later_graphs(graph: ParsedGraph, text: str) -> None:
    """Graphs stated after the first one: an identical copy is a note, a different graph a malformed response
    (only the first is read, and what the others state is said to be lost, never dropped in silence)."""
    copies = different = 0
    start = graph.region_end
    while start >= 0:
        later = _parse_region(text[start:])
        if not later.empty:
            if _same_graph(graph, later):
                copies += 1
            else:
                different += 1
                graph.lost_graph_statements += len(later.nodes) + len(later.edges)
        start = later.region_end + start if later.region_end >= 0 else -1
    graph.extra_graphs = copies + different
    if copies:
        graph.problem(None, f"the response states the same graph {copies + 1} times; it was read once")
    if different:
        graph.problem(MALFORMED, f"the response holds {different} more graph(s) after the first, different from it "
                                 f"({graph.lost_graph_statements} node and edge statements); only the first graph was read")


def _same_graph(first: ParsedGraph, other: ParsedGraph) -> bool:
    """The same nodes with the same attributes and the same edges, in any order."""
    nodes = {node.id: node.attrs for node in first.nodes.values()}
    return nodes == {node.id: node.attrs for node in other.nodes.values()} and set(first.edges) == set(other.edges)


def _drop_cut_statement(graph: ParsedGraph, statements: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The last statement of a text that ends inside the graph is dropped when it is visibly unfinished:
    inside a string or a bracket, or ending on an arrow, '=', ':', ',' or '['."""
    while statements and not statements[-1][0].strip():
        statements = statements[:-1]
    if not statements:
        return statements
    last, separated = statements[-1]
    unfinished = not separated or _OPEN_END.search(last) or not _COMPLETE_END.search(last)
    if unfinished:
        graph.cut_statements += 1
        return statements[:-1]
    return statements


def _report(graph: ParsedGraph, region: Region) -> None:
    """What the region scan and the statements say about the text, as problems on the graph."""
    if region.swallowed:
        graph.problem(MALFORMED, f"a quote opened near line {region.line_of_problem} is never closed and swallows the "
                                 "statements after it; they were read line by line")
    elif region.stray_brace:
        graph.problem(MALFORMED, f"a brace opened inside the graph (near line {region.line_of_problem}) is never closed")
    elif region.truncated:
        where = "inside a string" if region.open_string else "inside the graph, before its closing brace"
        cut = "; the statement it ends inside was not admitted" if graph.cut_statements else ""
        graph.problem(TRUNCATED, f"the response ends {where}{cut}")
    elif region.state == "fenced":
        graph.problem(None, "the graph's closing brace is missing; the closing code fence ends it")
    if graph.skipped_material:
        examples = "; ".join(repr(example) for example in graph.skipped_examples)
        graph.problem(MALFORMED, f"{graph.skipped_material} statement(s) holding graph material could not be read: {examples}")
    prose = graph.skipped - graph.skipped_material
    if prose:
        graph.problem(None, f"{prose} line(s) of prose inside the graph skipped")


def parse_tolerant_statement(graph: ParsedGraph, statement: str) -> bool:
    """Admit one edge or node statement; False when the statement is neither (prose)."""
    edge = _EDGE.match(statement)
    if edge:
        names = [_name(part) for part in re.split(rf"\s*{_ARROW}\s*", edge.group(1).strip())]
        rest = edge.group(2).strip()
        attrs = tolerant_attributes(rest) if rest.startswith("[") else {}
        if not rest.startswith("["):
            if rest and not rest.startswith(":"):
                return False
            label = rest[1:].strip().strip('"')
            if label:
                attrs["label"] = label
        for source, target in itertools.pairwise(names):
            graph.add_edge(source, target, dict(attrs))
        return True
    labelled = _NODE_LABEL.match(statement)
    if labelled:
        graph.add_node(_name(labelled.group(1)), {"label": _name(labelled.group(2))})
        return True
    node = _NODE.match(statement)
    if node:
        attrs = tolerant_attributes(node.group(2))
        if not attrs:
            return False
        graph.add_node(_name(node.group(1)), attrs)
        return True
    return False
