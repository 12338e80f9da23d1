"""DOT-like text: fences and prose around the graph, loose delimiters, missing braces; each statement parsed on its own."""

from __future__ import annotations

import re
from collections.abc import Iterator

from claimgraph.reasoning.dot_grammar import unquote
from claimgraph.reasoning.parsed import ParsedGraph

_FENCE = re.compile(r"^\s*```[^\n]*$", re.MULTILINE)
_GRAPH_START = re.compile(r"\b(?:strict\s+)?(?:di)?graph\b[^{\n]*\{", re.IGNORECASE)
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_NAME = rf'(?:{_QUOTED}|[\w.\-]+)'
_ARROW = r"(?:-->|->|--|→|=>)"
_EDGE = re.compile(rf"^\s*({_NAME}(?:\s*{_ARROW}\s*{_NAME})+)\s*(.*)$", re.DOTALL)
_NODE = re.compile(rf"^\s*({_NAME})\s*(\[.*)$", re.DOTALL)
_NODE_LABEL = re.compile(rf"^\s*([\w.\-]+)\s*[:=]\s*({_QUOTED})\s*$", re.DOTALL)  # unquoted id: a JSON "key": "value" is no node
_UNQUOTED = r"(?:\([^()]*\)|[^,;\]\s])(?:\([^()]*\)|[^,;\]])*?"
_ATTR = re.compile(rf'([A-Za-z_][\w-]*)\s*[=:]\s*({_QUOTED}|{_UNQUOTED})\s*(?=[,;\]]|\s+[A-Za-z_][\w-]*\s*[=:]|$)', re.DOTALL)
_COMMENT = re.compile(rf'({_QUOTED})|/\*.*?\*/|^[ \t]*(?://|#)[^\n]*', re.DOTALL | re.MULTILINE)


def graph_region(text: str) -> str:
    """The DOT-like part of a response: code fences removed, from the first graph header (or the start)
    to its matching closing brace (or the end when the brace is missing)."""
    text = _COMMENT.sub(lambda match: match.group(1) or "", _FENCE.sub("", text))
    start = _GRAPH_START.search(text)
    if not start:
        return text
    depth, in_string, escaped = 1, False, False
    for index in range(start.end(), len(text)):
        char = text[index]
        if in_string:
            escaped = char == "\\" and not escaped
            in_string = not (char == '"' and not escaped)
            continue
        if char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start.end():index]
    return text[start.end():]


def split_statements(region: str) -> Iterator[str]:
    """Statements split at ';', newlines and braces outside quotes and brackets."""
    current: list[str] = []
    in_string = escaped = False
    brackets = 0
    for char in region:
        if in_string:
            escaped = char == "\\" and not escaped
            in_string = not (char == '"' and not escaped)
        elif char == '"':
            in_string = True
        elif char == "[":
            brackets += 1
        elif char == "]":
            brackets = max(0, brackets - 1)
        elif char in ";\n{}" and brackets == 0:
            yield "".join(current)
            current = []
            continue
        current.append(char)
    yield "".join(current)


def _name(text: str) -> str:
    text = text.strip()
    return unquote(text) if text.startswith('"') else text


def tolerant_attributes(text: str) -> dict[str, str]:
    """``[k=v, k: "v" k2=v2]`` (one or more bracket groups) as a dict; loose separators accepted."""
    attrs: dict[str, str] = {}
    for group in re.findall(r"\[((?:[^\]\"]|" + _QUOTED + r")*)\]?", text):
        for key, value in _ATTR.findall(group):
            attrs[key.lower()] = _name(value)
    return attrs


def parse_dot_tolerant(text: str) -> ParsedGraph:
    graph = ParsedGraph("dot-tolerant")
    for statement in split_statements(graph_region(text)):
        stripped = statement.strip().rstrip(",")
        if not stripped or re.fullmatch(r"(?:graph|node|edge)\s*\[.*", stripped, re.DOTALL | re.IGNORECASE) or re.fullmatch(r"\w+\s*=\s*\S+", stripped):
            continue
        if not parse_tolerant_statement(graph, stripped):
            graph.skipped += 1
    return graph


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
        for source, target in zip(names, names[1:]):
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
