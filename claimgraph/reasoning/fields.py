"""Nodes and edges given as named fields: XML-like elements, plist dicts, JSON objects (read with json.loads, never eval).

Each branch also says when the text is cut (``truncated_response``): XML or a
plist whose root element is never closed or that ends inside a tag; JSON whose
braces or brackets are still open at the end, or that ends inside a string.
From cut JSON the complete node and edge objects before the cut are salvaged.
An item that is neither a node nor an edge is skipped and counted as lost
graph material.
"""

from __future__ import annotations

import json
import re

from claimgraph.reasoning.parsed import MALFORMED, TRUNCATED, ParsedGraph

_XML_ELEMENT = re.compile(r"<(node|edge)\b([^>]*?)(/>|>(.*?)</\1\s*>|>)", re.DOTALL | re.IGNORECASE)
_XML_ATTR = re.compile(r'([A-Za-z_][\w-]*)\s*=\s*("[^"]*"|\'[^\']*\')')
_XML_CHILD = re.compile(r"<([A-Za-z_][\w-]*)\b[^>]*>(.*?)</\1\s*>", re.DOTALL)
_XML_ENTITIES = {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&amp;": "&"}
_XML_ROOT = re.compile(r"<(?!\?|!|node\b|edge\b|/)([A-Za-z_][\w:.-]*)", re.IGNORECASE)
_JSON_LIST = re.compile(r'"(nodes|edges)"\s*:\s*\[')

NODE_ID_KEYS = ("id", "name", "key")
EDGE_SOURCE_KEYS = ("source", "from", "src", "head")
EDGE_TARGET_KEYS = ("target", "to", "dst", "tail")


def xml_text(text: str) -> str:
    text = re.sub(r"<!\[CDATA\[(.*?)\]\]>", r"\1", text, flags=re.DOTALL)
    return re.sub(r"&(?:lt|gt|quot|apos|amp);", lambda match: _XML_ENTITIES[match.group()], text).strip()


def _first(fields: dict[str, str], keys: tuple[str, ...]) -> str | None:
    return next((fields.pop(key) for key in keys if fields.get(key)), None)


def add_fields(graph: ParsedGraph, kind: str, fields: dict[str, str]) -> None:
    """A node or edge given as named fields; one without its id (or ends) is skipped. ``kind`` ``any`` (a plist
    dict) is an edge when it names both ends, else a node (a node's ``source`` field is its source tuple)."""
    fields = {key.lower(): value for key, value in fields.items()}
    ends = any(key in fields for key in EDGE_SOURCE_KEYS) and any(key in fields for key in EDGE_TARGET_KEYS)
    if kind == "edge" or (kind == "any" and ends):
        source, target = _first(fields, EDGE_SOURCE_KEYS), _first(fields, EDGE_TARGET_KEYS)
        if source and target:
            graph.add_edge(source, target, fields)
            return
    else:
        node_id = _first(fields, NODE_ID_KEYS)
        if node_id:
            graph.add_node(node_id, fields)
            return
    graph.skip(f"{kind} {fields}", material=True)


def _xml_cut(text: str) -> str | None:
    """Why an XML-like text is cut, else None: it ends inside a tag, or its root element is never closed."""
    body = re.sub(r"<!\[CDATA\[.*?\]\]>", "", text, flags=re.DOTALL).rstrip().removesuffix("```").rstrip()
    if body.rfind("<") > body.rfind(">"):
        return "the response ends inside an XML tag"
    root = _XML_ROOT.search(body)
    if root and not re.search(rf"</{re.escape(root.group(1))}\s*>", body[root.end():]):
        return f"the root element <{root.group(1)}> is never closed"
    return None


def _report(graph: ParsedGraph, cut: str | None) -> ParsedGraph:
    if cut:
        graph.problem(TRUNCATED, cut)
    if graph.skipped_material:
        examples = "; ".join(graph.skipped_examples)
        graph.problem(MALFORMED, f"{graph.skipped_material} item(s) neither a node nor an edge: {examples}")
    return graph


def parse_xml_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("xml")
    for kind, attributes, _, body in _XML_ELEMENT.findall(text):
        fields = {key: xml_text(value[1:-1]) for key, value in _XML_ATTR.findall(attributes)}
        fields.update({key: xml_text(value) for key, value in _XML_CHILD.findall(body or "")})
        add_fields(graph, kind.lower(), fields)
    return _report(graph, _xml_cut(text) if not graph.empty else None)


_PLIST_DICT = re.compile(r"<dict>((?:(?!<dict>).)*?)</dict>", re.DOTALL)
_PLIST_PAIR = re.compile(r"<key>(.*?)</key>\s*<(string|integer|real|true|false)\s*(?:/>|>(.*?)</\2>)", re.DOTALL)


def parse_plist_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("plist")
    for body in _PLIST_DICT.findall(text):
        fields = {xml_text(key): (kind if kind in ("true", "false") else xml_text(value)) for key, kind, value in _PLIST_PAIR.findall(body)}
        if fields:
            add_fields(graph, "any", fields)
    return _report(graph, _xml_cut(text) if not graph.empty else None)


def _field_value(value: object) -> str | None:
    """A JSON field as text: scalars as written, a list of integers as a tuple ``(5,0,1)``; else None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list) and value and all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        return "(" + ",".join(str(item) for item in value) + ")"
    return None


def _add_json_items(graph: ParsedGraph, kind: str, items: object) -> None:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            fields = {str(key): text for key, value in item.items() if (text := _field_value(value)) is not None}
            add_fields(graph, kind, fields)
        else:
            graph.skip(repr(item), material=True)


def json_open_at_end(text: str) -> str | None:
    """Why a JSON text starting at its first '{' is cut, else None: open string, or open braces/brackets."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            escaped = char == "\\" and not escaped
            in_string = not (char == '"' and not escaped)
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return None
    if in_string:
        return "the JSON ends inside a string"
    return "the JSON ends with braces or brackets still open" if depth > 0 else None


def _salvage(graph: ParsedGraph, text: str) -> None:
    """The complete objects of the "nodes" and "edges" lists of a cut JSON text, in order."""
    decoder = json.JSONDecoder()
    for match in _JSON_LIST.finditer(text):
        kind, position = match.group(1)[:-1], match.end()
        while True:
            while position < len(text) and text[position] in " \t\r\n,":
                position += 1
            try:
                item, position = decoder.raw_decode(text, position)
            except json.JSONDecodeError:
                break
            _add_json_items(graph, kind, [item])


def parse_json_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("json")
    start, end = text.find("{"), text.rfind("}")
    if start == -1:
        return graph
    graph.recognized = bool(_JSON_LIST.search(text, start))
    cut = json_open_at_end(text[start:])
    if cut:
        _salvage(graph, text[start:])
        graph.problem(TRUNCATED, cut)
        return _report(graph, None)
    try:
        data = json.loads(text[start:end + 1])
    except (json.JSONDecodeError, RecursionError):
        return graph
    if not isinstance(data, dict):
        return graph
    for kind in ("node", "edge"):
        _add_json_items(graph, kind, data.get(f"{kind}s"))
    return _report(graph, None)
