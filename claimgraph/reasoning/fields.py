"""Nodes and edges given as named fields: XML-like elements, plist dicts, JSON objects (read with json.loads, never eval)."""

from __future__ import annotations

import json
import re

from claimgraph.reasoning.parsed import ParsedGraph

_XML_ELEMENT = re.compile(r"<(node|edge)\b([^>]*?)(/>|>(.*?)</\1\s*>|>)", re.DOTALL | re.IGNORECASE)
_XML_ATTR = re.compile(r'([A-Za-z_][\w-]*)\s*=\s*("[^"]*"|\'[^\']*\')')
_XML_CHILD = re.compile(r"<([A-Za-z_][\w-]*)\b[^>]*>(.*?)</\1\s*>", re.DOTALL)
_XML_ENTITIES = {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&amp;": "&"}

NODE_ID_KEYS = ("id", "name", "key")
EDGE_SOURCE_KEYS = ("source", "from", "src", "head")
EDGE_TARGET_KEYS = ("target", "to", "dst", "tail")


def xml_text(text: str) -> str:
    text = re.sub(r"<!\[CDATA\[(.*?)\]\]>", r"\1", text, flags=re.DOTALL)
    return re.sub(r"&(?:lt|gt|quot|apos|amp);", lambda match: _XML_ENTITIES[match.group()], text).strip()


def _first(fields: dict[str, str], keys: tuple[str, ...]) -> str | None:
    return next((fields.pop(key) for key in keys if fields.get(key)), None)


def add_fields(graph: ParsedGraph, kind: str, fields: dict[str, str]) -> None:
    """A node or edge given as named fields; one without its id (or ends) is skipped."""
    fields = {key.lower(): value for key, value in fields.items()}
    if kind == "edge" or any(key in fields for key in EDGE_SOURCE_KEYS):
        source, target = _first(fields, EDGE_SOURCE_KEYS), _first(fields, EDGE_TARGET_KEYS)
        if source and target:
            graph.add_edge(source, target, fields)
            return
    else:
        node_id = _first(fields, NODE_ID_KEYS)
        if node_id:
            graph.add_node(node_id, fields)
            return
    graph.skipped += 1


def parse_xml_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("xml")
    for kind, attributes, _, body in _XML_ELEMENT.findall(text):
        fields = {key: xml_text(value[1:-1]) for key, value in _XML_ATTR.findall(attributes)}
        fields.update({key: xml_text(value) for key, value in _XML_CHILD.findall(body or "")})
        add_fields(graph, kind.lower(), fields)
    return graph


_PLIST_DICT = re.compile(r"<dict>((?:(?!<dict>).)*?)</dict>", re.DOTALL)
_PLIST_PAIR = re.compile(r"<key>(.*?)</key>\s*<(string|integer|real|true|false)\s*(?:/>|>(.*?)</\2>)", re.DOTALL)


def parse_plist_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("plist")
    for body in _PLIST_DICT.findall(text):
        fields = {xml_text(key): (kind if kind in ("true", "false") else xml_text(value)) for key, kind, value in _PLIST_PAIR.findall(body)}
        if fields:
            add_fields(graph, "node", fields)
    return graph


def parse_json_fields(text: str) -> ParsedGraph:
    graph = ParsedGraph("json")
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end < start:
        return graph
    try:
        data = json.loads(text[start:end + 1])
    except json.JSONDecodeError:
        return graph
    if not isinstance(data, dict):
        return graph
    for kind in ("node", "edge"):
        items = data.get(f"{kind}s")
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict):
                add_fields(graph, kind, {str(key): str(value) for key, value in item.items() if isinstance(value, (str, int, float, bool))})
            else:
                graph.skipped += 1
    return graph
