"""Strict DOT: the tokenizer shared with the tolerant branch, and a recursive-descent parser of one DOT graph."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from claimgraph.reasoning.parsed import DotSyntaxError, ParsedGraph

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


class _StrictDot:
    """Recursive descent over the DOT grammar; subgraphs are flattened into the graph."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.position = 0
        self.graph = ParsedGraph("dot-strict")

    def peek(self, offset: int = 0) -> Token | None:
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def at(self, kind: str | None = None, value: str | None = None) -> bool:
        """Whether the next token exists and has this kind and this exact value (each when given)."""
        token = self.peek()
        return token is not None and (kind is None or token.kind == kind) and (value is None or token.value == value)

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
        if self.at(kind="id"):
            self.position += 1
        self.take("punct", "{")
        self.statements()
        self.take("punct", "}")
        if self.peek() is not None:
            raise DotSyntaxError("text after the end of the graph")
        return self.graph

    def statements(self) -> None:
        while self.peek() is not None and not self.at(value="}"):
            self.statement()
            self.accept("punct", ";")

    def statement(self) -> None:
        token = self.take("id") if self.at(kind="id") else None
        if token is None:
            if self.at(value="{"):
                self.subgraph_body()
                return
            token = self.peek()
            raise DotSyntaxError(f"unexpected {token.value if token else 'end of text'!r}")
        keyword = token.value.lower()
        if keyword in ("graph", "node", "edge") and self.at(value="["):
            self.attributes()
            return
        if keyword == "subgraph":
            if self.at(kind="id"):
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
        attrs = self.attributes() if self.at(value="[") else {}
        if len(nodes) == 1:
            self.graph.add_node(nodes[0], attrs)
        for source, target in itertools.pairwise(nodes):
            self.graph.add_edge(source, target, dict(attrs))

    def port(self) -> None:
        """Ports are legal DOT but never used by reasoning graphs: ``a -> b : DR`` means a label, so leave it to the tolerant branch."""
        if self.at(value=":"):
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
