"""Writing reasoning graphs as LLM-style responses (DOT, XML fields, plist, JSON) and knowing where each statement is.

A response is drafted as parts: prose and fences before, the graph's head,
its items (``Statement``s, each carrying the declaration it states, and the
separators between them), the tail that closes the graph, prose after.
``Draft.render`` gives the text and the offsets of every statement and of its
quoted label, so text-level mutations (cuts, a dropped quote) know exactly
what they hit. The surface material (prose, fences, headers, label spellings)
is read from ``surfaces.toml``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from claimgraph.publish.dot import quote
from claimgraph.testing.reasoning_cases.graphs import ReasoningCorpusError, Source
from claimgraph.testing.reasoning_cases.verdicts import EdgeDecl, NodeDecl

SURFACE_FILE = Path(__file__).with_name("surfaces.toml")
DOT_STYLES = ("strict", "loose", "colon")


@dataclass(frozen=True)
class SurfaceData:
    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    no_graph: tuple[str, ...]
    fences: dict[str, tuple[str, ...]]
    headers: tuple[str, ...]
    unknown_labels: tuple[str, ...]
    discourse_labels: tuple[str, ...]
    aliases: dict[str, tuple[str, ...]]


@cache
def load_surface(path: Path = SURFACE_FILE) -> SurfaceData:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        labels = data["labels"]
        return SurfaceData(
            prefixes=tuple(data["wrappers"]["prefixes"]),
            suffixes=tuple(data["wrappers"]["suffixes"]),
            no_graph=tuple(data["wrappers"]["no_graph"]),
            fences={kind: tuple(values) for kind, values in data["fences"].items()},
            headers=tuple(data["headers"]["dot"]),
            unknown_labels=tuple(labels["unknown"]),
            discourse_labels=tuple(labels["discourse"]),
            aliases={label: tuple(values) for label, values in labels["aliases"].items()},
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise ReasoningCorpusError(f"{path}: cannot read the surface material ({error}); see the comments in that file") from error


@dataclass(frozen=True)
class NodeEntry:
    """A node declaration as written: its label text, a root=true attribute, an optional separate source field."""

    decl: NodeDecl
    label: str
    root_attr: bool = False
    source_field: Source | None = None


@dataclass(frozen=True)
class EdgeEntry:
    decl: EdgeDecl
    label: str


Entry = NodeEntry | EdgeEntry


@dataclass(frozen=True)
class Statement:
    """One statement's text; ``label`` is the span of its quoted label within it (quotes included)."""

    text: str
    entry: Entry | None = None
    label: tuple[int, int] | None = None


@dataclass(frozen=True)
class Placed:
    start: int
    end: int
    statement: Statement

    @property
    def label(self) -> tuple[int, int] | None:
        span = self.statement.label
        return (self.start + span[0], self.start + span[1]) if span else None


@dataclass(frozen=True)
class Rendered:
    text: str
    placed: tuple[Placed, ...]
    body_start: int  # just after the graph's head (its opening brace or element)
    body_end: int  # where its tail (closing brace or element) starts
    tail_end: int  # just after the tail: a cut from here on leaves the graph whole


@dataclass
class Draft:
    head: str
    items: list[Statement | str]
    tail: str
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)

    def render(self) -> Rendered:
        text = "".join(self.before) + self.head
        body_start = len(text)
        placed = []
        for item in self.items:
            if isinstance(item, Statement):
                placed.append(Placed(len(text), len(text) + len(item.text), item))
                text += item.text
            else:
                text += item
        body_end = len(text)
        return Rendered(text + self.tail + "".join(self.after), tuple(placed), body_start, body_end, body_end + len(self.tail))

    def statement_index(self, position: int) -> int:
        """The item index of the statement at this position among statements."""
        return [index for index, item in enumerate(self.items) if isinstance(item, Statement)][position]

    def wrapped(self, prefix: str | None, fence: str | None, suffix: str | None, close_fence: bool = True) -> Draft:
        before = ([prefix + "\n"] if prefix else []) + ([fence + "\n"] if fence else [])
        after = (["\n```"] if fence and close_fence else []) + (["\n" + suffix] if suffix else []) + ["\n"]
        return replace(self, before=before, after=after)


def _quoted(prefix: str, value: str, suffix: str) -> Statement:
    """A statement ``prefix + quote(value) + suffix`` knowing where the quoted label is."""
    quoted = quote(value)
    return Statement(prefix + quoted + suffix, None, (len(prefix), len(prefix) + len(quoted)))


def dot_statement(entry: Entry, style: str, arrow: str = "->") -> Statement:
    if isinstance(entry, NodeEntry):
        node_id = entry.decl.id
        if style == "colon":
            if entry.root_attr:
                raise ReasoningCorpusError("the colon DOT style has no attributes: mark the root by a label prefix")
            statement = _quoted(f"{node_id}: ", entry.label, "")
        elif style == "loose":
            statement = _quoted(f"{node_id} [label: ", entry.label, " root: true]" if entry.root_attr else "]")
        else:
            statement = _quoted(f"{node_id} [label=", entry.label, ", root=true];" if entry.root_attr else "];")
    else:
        ends = f"{entry.decl.source} {arrow} {entry.decl.target}"
        if style == "colon":
            statement = Statement(f"{ends} : {entry.label}")
        elif style == "loose":
            statement = _quoted(f"{ends} [label: ", entry.label, "]")
        else:
            statement = _quoted(f"{ends} [label=", entry.label, "];")
    return replace(statement, entry=entry)


def dot_draft(entries: list[Entry], style: str, header: str, arrows: tuple[str, ...] = ("->",)) -> Draft:
    if style not in DOT_STYLES:
        raise ReasoningCorpusError(f"unknown DOT style {style!r}; one of {', '.join(DOT_STYLES)}")
    items: list[Statement | str] = []
    for index, entry in enumerate(entries):
        items += ["  ", dot_statement(entry, style, arrows[index % len(arrows)]), "\n"]
    return Draft(header + "\n", items, "}")


def _xml_escape(text: str, attribute: bool) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if attribute else text


def xml_statement(entry: Entry, children: bool) -> Statement:
    if isinstance(entry, NodeEntry):
        root = ("<root>true</root>" if children else ' root="true"') if entry.root_attr else ""
        if children:
            text = f'<node id="{entry.decl.id}"><label>{_xml_escape(entry.label, False)}</label>{root}</node>'
        else:
            text = f'<node id="{entry.decl.id}" label="{_xml_escape(entry.label, True)}"{root}/>'
    elif children:
        text = f'<edge from="{entry.decl.source}" to="{entry.decl.target}"><type>{_xml_escape(entry.label, False)}</type></edge>'
    else:
        text = f'<edge source="{entry.decl.source}" target="{entry.decl.target}" label="{_xml_escape(entry.label, True)}"/>'
    return Statement(text, entry)


def xml_draft(entries: list[Entry], children: bool) -> Draft:
    items: list[Statement | str] = []
    for entry in entries:
        items += ["  ", xml_statement(entry, children), "\n"]
    return Draft("<graph>\n", items, "</graph>")


def _plist_value(key: str, value: str) -> str:
    return f"<key>{key}</key><string>{_xml_escape(value, False)}</string>"


def plist_draft(nodes: list[NodeEntry], edges: list[EdgeEntry]) -> Draft:
    items: list[Statement | str] = []
    for node in nodes:
        root = "<key>root</key><true/>" if node.root_attr else ""
        items += ["    ", Statement(f"<dict>{_plist_value('id', node.decl.id)}{_plist_value('label', node.label)}{root}</dict>", node), "\n"]
    items.append("  </array>\n  <key>edges</key>\n  <array>\n")
    for edge in edges:
        fields = _plist_value("source", edge.decl.source) + _plist_value("target", edge.decl.target) + _plist_value("label", edge.label)
        items += ["    ", Statement(f"<dict>{fields}</dict>", edge), "\n"]
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n  <key>nodes</key>\n  <array>\n'
    return Draft(head, items, "  </array>\n</dict>\n</plist>")


def json_statement(entry: Entry, from_to: bool) -> Statement:
    if isinstance(entry, NodeEntry):
        item: dict[str, object] = {"id": entry.decl.id, "label": entry.label}
        if entry.source_field is not None:
            item["source"] = list(entry.source_field)
        if entry.root_attr:
            item["root"] = True
    else:
        ends = ("from", "to") if from_to else ("source", "target")
        item = {ends[0]: entry.decl.source, ends[1]: entry.decl.target, "relation" if from_to else "label": entry.label}
    return Statement(json.dumps(item, ensure_ascii=False), entry)


def json_draft(nodes: list[NodeEntry], edges: list[EdgeEntry], from_to: bool) -> Draft:
    items: list[Statement | str] = []
    groups: tuple[tuple[Sequence[Entry], str], ...] = ((nodes, '\n  ],\n  "edges": [\n'), (edges, ""))
    for group, closing in groups:
        for index, entry in enumerate(group):
            items += ["    ", json_statement(entry, from_to), ",\n" if index < len(group) - 1 else ""]
        if closing:
            items.append(closing)
    return Draft('{\n  "nodes": [\n', items, "\n  ]\n}")
