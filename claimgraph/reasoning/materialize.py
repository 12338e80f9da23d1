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

Only what the response states is admitted: an edge to an undeclared node keeps
its endpoint id (repair drops it as dangling), and a node without a label is
not given one. Duplicate edges (same ends and label) are collapsed and counted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

PARSE_FAILED = "none"


class DotSyntaxError(ValueError):
    """The text is not strict DOT."""


@dataclass
class ParsedNode:
    id: str
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ParsedEdge:
    source: str
    target: str
    label: str | None
    attrs: tuple[tuple[str, str], ...] = ()

    def attr(self, name: str) -> str | None:
        return dict(self.attrs).get(name)


@dataclass
class ParsedGraph:
    """The nodes and edges a response states, in order, and how they were recovered."""

    branch: str
    nodes: dict[str, ParsedNode] = field(default_factory=dict)
    edges: list[ParsedEdge] = field(default_factory=list)
    skipped: int = 0
    duplicate_edges: int = 0

    @property
    def empty(self) -> bool:
        return not self.nodes and not self.edges

    def add_node(self, node_id: str, attrs: dict[str, str]) -> None:
        """Declare a node; a later declaration adds or overrides attributes, as in DOT."""
        self.nodes.setdefault(node_id, ParsedNode(node_id)).attrs.update(attrs)

    def add_edge(self, source: str, target: str, attrs: dict[str, str]) -> None:
        label = next((attrs.pop(key) for key in EDGE_LABEL_KEYS if key in attrs), None)
        edge = ParsedEdge(source, target, label, tuple(sorted(attrs.items())))
        if any((e.source, e.target, e.label) == (source, target, label) for e in self.edges):
            self.duplicate_edges += 1
            return
        self.edges.append(edge)


EDGE_LABEL_KEYS = ("label", "type", "relation", "role", "xlabel")
ARROWS = ("->", "--", "→", "=>", "-->")


def materialize(text: str) -> ParsedGraph:
    """The graph stated by a response, from the first parser branch that recovers anything."""
    branches: list[tuple[str, Callable[[str], ParsedGraph]]] = [
        ("dot-strict", parse_dot_strict),
        ("dot-tolerant", parse_dot_tolerant),
        ("xml", parse_xml_fields),
        ("plist", parse_plist_fields),
        ("json", parse_json_fields),
    ]
    for name, parser in branches:
        try:
            graph = parser(text)
        except DotSyntaxError:
            continue
        if not graph.empty:
            graph.branch = name
            return graph
    return ParsedGraph(PARSE_FAILED)


# ---------------------------------------------------------------- DOT tokens

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/|^\#[^\n]*)
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<html><[^<>]*(?:<[^<>]*>[^<>]*)*>)
    | (?P<arrow>->|--)
    | (?P<punct>[{}\[\];,=:])
    | (?P<id>[A-Za-z_\x80-\u218f\u2200-\U0010ffff][A-Za-z0-9_\x80-\u218f\u2200-\U0010ffff]*|-?(?:\.\d+|\d+(?:\.\d*)?))
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)


@dataclass(frozen=True)
class Token:
    kind: str
    value: str


def unquote(text: str) -> str:
    """A DOT double-quoted string's value: \\" and \\\\ unescaped, \\n \\l \\r as line breaks."""
    body = text[1:-1]
    out = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            following = body[index + 1]
            out.append({"n": "\n", "l": "\n", "r": "\n"}.get(following, following if following in '"\\' else "\\" + following))
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def tokenize(text: str) -> list[Token]:
    tokens = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise DotSyntaxError(f"unexpected character {text[position]!r} at offset {position}")
        kind = match.lastgroup or ""
        value = match.group()
        position = match.end()
        if kind == "ws":
            continue
        if kind == "string":
            tokens.append(Token("id", unquote(value)))
        elif kind == "html":
            tokens.append(Token("id", value[1:-1]))
        else:
            tokens.append(Token(kind, value))
    return tokens


# ---------------------------------------------------------------- strict DOT


class _StrictDot:
    """Recursive descent over the DOT grammar; subgraphs are flattened into the graph."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.position = 0
        self.graph = ParsedGraph("dot-strict")

    def peek(self, offset: int = 0) -> Token | None:
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def take(self, kind: str | None = None, value: str | None = None) -> Token:
        token = self.peek()
        if token is None or (kind and token.kind != kind) or (value and token.value.lower() != value):
            raise DotSyntaxError(f"expected {value or kind} at token {self.position}, found {token.value if token else 'end of text'!r}")
        self.position += 1
        return token

    def accept(self, kind: str, value: str | None = None) -> bool:
        token = self.peek()
        if token and token.kind == kind and (value is None or token.value.lower() == value):
            self.position += 1
            return True
        return False

    def parse(self) -> ParsedGraph:
        self.accept("id", "strict")
        if not (self.accept("id", "digraph") or self.accept("id", "graph")):
            raise DotSyntaxError("a DOT graph starts with 'digraph' or 'graph'")
        if self.peek() and self.peek().kind == "id":  # type: ignore[union-attr]
            self.position += 1
        self.take("punct", "{")
        self.statements()
        self.take("punct", "}")
        if self.peek() is not None:
            raise DotSyntaxError("text after the end of the graph")
        return self.graph

    def statements(self) -> None:
        while self.peek() and self.peek().value != "}":  # type: ignore[union-attr]
            self.statement()
            self.accept("punct", ";")

    def statement(self) -> None:
        token = self.take("id") if self.peek() and self.peek().kind == "id" else None  # type: ignore[union-attr]
        if token is None:
            if self.peek() and self.peek().value == "{":  # type: ignore[union-attr]
                self.subgraph_body()
                return
            raise DotSyntaxError(f"unexpected {self.peek().value if self.peek() else 'end of text'!r}")  # type: ignore[union-attr]
        keyword = token.value.lower()
        if keyword in ("graph", "node", "edge") and self.peek() and self.peek().value == "[":  # type: ignore[union-attr]
            self.attributes()
            return
        if keyword == "subgraph":
            if self.peek() and self.peek().kind == "id":  # type: ignore[union-attr]
                self.position += 1
            self.subgraph_body()
            return
        if self.accept("punct", "="):
            self.take("id")
            return
        self.port()
        nodes = [token.value]
        while self.accept("arrow"):
            nodes.append(self.take("id").value)
            self.port()
        attrs = self.attributes() if self.peek() and self.peek().value == "[" else {}  # type: ignore[union-attr]
        if len(nodes) == 1:
            self.graph.add_node(nodes[0], attrs)
        for source, target in zip(nodes, nodes[1:]):
            self.graph.add_edge(source, target, dict(attrs))

    def port(self) -> None:
        """Ports are legal DOT but never used by reasoning graphs: ``a -> b : DR`` means a label, so leave it to the tolerant branch."""
        if self.peek() and self.peek().value == ":":  # type: ignore[union-attr]
            raise DotSyntaxError("a node port (':') in a reasoning graph; read as a loose edge label instead")

    def subgraph_body(self) -> None:
        self.take("punct", "{")
        self.statements()
        self.take("punct", "}")

    def attributes(self) -> dict[str, str]:
        attrs: dict[str, str] = {}
        while self.accept("punct", "["):
            while not self.accept("punct", "]"):
                key = self.take("id").value
                self.take("punct", "=")
                attrs[key.lower()] = self.take("id").value
                if not self.accept("punct", ","):
                    self.accept("punct", ";")
        return attrs


def parse_dot_strict(text: str) -> ParsedGraph:
    """The response as exactly one DOT graph; DotSyntaxError when it is anything else."""
    return _StrictDot(tokenize(text.strip())).parse()


# ---------------------------------------------------------------- tolerant DOT

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


# ---------------------------------------------------------------- XML- and plist-like fields

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
