"""What a node label states: its text, its (x, y, z) source tuple, a role prefix and a root mark.

A label may carry several tuples: ``(0,0,0) Abduction-phenomenon: text
Source: (32,0,0)`` leads with the implicit tuple and gives the real one after
the text. The tuple kept is, in this order of trust: a separate source field
(JSON ``"source": [5,0,1]``, a ``source=`` attribute), an explicit ``Source:``
tuple (on its own line or after the text), a leading tuple, a trailing tuple;
an implicit (0, 0, 0) yields to any other. Two different non-implicit tuples
are a conflict: the most trusted one is kept and the other is reported.

Role prefixes: a canonical edge label or alias (``Deduction-rule:``, ``DR:``)
becomes the stated role; ``Root:`` is a stated role and a root mark;
``Conclusion:`` is only a stated role (an intermediate conclusion is a
conclusion too, so it marks no root by itself). A ``role``/``type`` field
naming none of these is kept as ``off_profile_role`` and reported, not taken
as a role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import canonical_edge_label, edge_label_key
from claimgraph.reasoning.parsed import ParsedNode

Source = tuple[int, int, int]
IMPLICIT: Source = (0, 0, 0)
ROLE_WORDS = ("root", "conclusion")
ROOT_WORDS = ("root",)
TRUE_WORDS = ("true", "1", "yes")

_TUPLE = r"[(\[]\s*(\d{1,9})\s*,\s*(\d{1,9})\s*(?:,\s*(\d{1,9})\s*)?[)\]]"
_SOURCE_WORD = r"(?:source(?:\s+tuple)?|src|anchor)"
_SOURCE_LINE = re.compile(rf"^\s*{_SOURCE_WORD}\s*[:=]\s*{_TUPLE}\s*\.?\s*$", re.IGNORECASE)
_LEADING_TUPLE = re.compile(rf"^\s*{_TUPLE}\s*[:\-–]?\s*")
_TRAILING_TUPLE = re.compile(rf"\s*[-–,;]?\s*(\(?\s*{_SOURCE_WORD}\s*[:=]\s*)?{_TUPLE}\s*\)?\s*\.?\s*$", re.IGNORECASE)
_ROLE_PREFIX = re.compile(r"^\s*([A-Za-z][A-Za-z _-]{0,40}?)\s*:\s+")

# How much a tuple's position is trusted, highest first.
FIELD, EXPLICIT, LEADING, TRAILING = 4, 3, 2, 1


@dataclass(frozen=True)
class NodeContent:
    """What a node label states: the text, the source tuple kept (None when none is given), a role prefix,
    whether the response marks the node as root, and any stated tuple that conflicted with the kept one."""

    text: str
    source: Source | None = None
    role: str | None = None
    marked_root: bool = False
    conflicts: tuple[Source, ...] = field(default=())
    off_profile_role: str | None = None  # a role/type field naming no role of the profile (not kept as a role)


def _tuple(x: str, second: str, third: str | None) -> Source:
    """(x, y, z); the legacy two-number form (x, z) is a sentence's own viewpoint: (x, 0, z)."""
    return (int(x), int(second), int(third)) if third is not None else (int(x), 0, int(second))


def stated_role(profile: Profile, prefix: str) -> str | None:
    """The role a label prefix names: a canonical edge label (aliases resolved) or root/conclusion."""
    word = edge_label_key(prefix)
    return canonical_edge_label(profile, prefix) or (word if word in ROLE_WORDS else None)


def choose_source(stated: list[tuple[int, Source]]) -> tuple[Source | None, tuple[Source, ...]]:
    """The tuple to keep from (trust, tuple) pairs, and the non-implicit tuples that disagree with it."""
    if not stated:
        return None, ()
    real = sorted((pair for pair in stated if pair[1] != IMPLICIT), key=lambda pair: -pair[0])
    if not real:
        return IMPLICIT, ()
    kept = real[0][1]
    return kept, tuple(dict.fromkeys(source for _, source in real[1:] if source != kept))


def parse_node_label(profile: Profile, label: str, source_field: str | None = None, role_field: str | None = None) -> NodeContent:
    """Split a node label such as ``(3,1,2) Deduction-rule: text`` or ``text\\nSource: (3,1,2)``."""
    stated: list[tuple[int, Source]] = []
    lines = []
    for line in label.splitlines():
        match = _SOURCE_LINE.match(line)
        if match:
            stated.append((EXPLICIT, _tuple(*match.groups())))
        else:
            lines.append(line)
    text = " ".join(" ".join(lines).split())
    role = stated_role(profile, role_field) if role_field else None
    off_profile = role_field.strip() if role_field and role_field.strip() and role is None else None
    marked = role in ROOT_WORDS
    for _ in range(2):  # a tuple before or after the role prefix
        match = _LEADING_TUPLE.match(text)
        if match:
            stated.append((LEADING, _tuple(*match.groups())))
            text = text[match.end():]
        prefix = _ROLE_PREFIX.match(text)
        named = stated_role(profile, prefix.group(1)) if prefix else None
        if prefix and named:
            role = role or named
            marked = marked or named in ROOT_WORDS
            text = text[prefix.end():]
    match = _TRAILING_TUPLE.search(text)
    if match and match.start() > 0:
        stated.append((EXPLICIT if match.group(1) else TRAILING, _tuple(*match.groups()[1:])))
        text = text[:match.start()]
    if source_field:
        field_match = re.search(_TUPLE, source_field)
        if field_match:
            stated.append((FIELD, _tuple(*field_match.groups())))
    source, conflicts = choose_source(stated)
    return NodeContent(text.strip(), source, role, marked, conflicts, off_profile)


def node_content(profile: Profile, node: ParsedNode) -> NodeContent:
    """The content of a parsed node: its label (or text) field, source field, role field and root attribute."""
    attrs = node.attrs
    label = attrs.get("label") or attrs.get("text") or ""
    content = parse_node_label(profile, label, attrs.get("source") or attrs.get("tuple"), attrs.get("role") or attrs.get("type"))
    if attrs.get("root", "").strip().lower() in TRUE_WORDS and not content.marked_root:
        return replace(content, marked_root=True)
    return content
