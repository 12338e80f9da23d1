"""Binding RDF terms to SPARQL variables without pasting text: a VALUES block in each WHERE group.

A template names a variable (``?graph``) and the caller binds it to a
pyoxigraph term. ``bind`` lexes the SPARQL text (strings, IRIs and comments are
single tokens, so a ``?graph`` inside ``"what is ?graph"`` or
``<http://ex/q?graph=1>`` is never touched) and opens every WHERE group that
mentions a bound variable with ``VALUES ?graph { <term> }`` (one per variable). The
group of an update operation also gets the variables its DELETE/INSERT
templates use. Terms are written in their N-Triples form by the RDF library,
which does the escaping. The same text runs on the embedded store and on any
SPARQL 1.1 server.

Why not pyoxigraph's ``substitutions=``: it applies to queries only (not
updates), and it refuses a variable that the SELECT does not project
("does not contains variable ?graph in its SELECT projection"), which is the
common case here (``SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?graph { ... } }``).
One mechanism for queries, updates and both backends keeps their results equal.

Operations that cannot take variables (``INSERT DATA``, ``DROP GRAPH``) and
the ``DELETE WHERE { }`` short form are refused with a TemplateError: build
those from terms (see ``claimgraph.store.base``) or use the long form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from pyoxigraph import BlankNode, Literal, NamedNode

from claimgraph.errors import ClaimgraphError

Term = NamedNode | BlankNode | Literal

# A variable name's letters beyond Latin-1 are written as "not \x00-\xBF", not as the range
# \u00C0-\uFFFF: that range took 6 ms to compile, on every start of every command.
_TOKEN = re.compile(
    r"""
    (?P<comment>\#[^\n]*)
    | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
    | (?P<var>[?$](?:[A-Za-z0-9_\u00B7]|[^\x00-\xBF])+)
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<semicolon>;)
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<space>\s+)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_GROUP_KEYWORDS = frozenset({"SELECT", "ASK", "DESCRIBE"})


class TemplateError(ClaimgraphError):
    """A SPARQL template cannot take the requested bindings."""


class Token(NamedTuple):
    """One lexical token of a SPARQL text (a NamedTuple: a third of a dataclass's cost at start-up)."""

    kind: str
    text: str
    start: int


@dataclass
class _Group:
    """A WHERE group: where its body starts, the operation it belongs to, whether it is top-level."""

    body_start: int
    operation_start: int
    top_level: bool
    end: int = -1
    operation_end: int = -1

    @property
    def scope(self) -> tuple[int, int]:
        """The text whose variables this group's VALUES must bind: the whole operation for a top-level group."""
        return (self.operation_start, self.operation_end) if self.top_level else (self.body_start, self.end)


def tokenize(sparql: str) -> list[Token]:
    """The SPARQL text as tokens; strings, IRIs and comments are single tokens."""
    return [Token(match.lastgroup or "other", match.group(), match.start()) for match in _TOKEN.finditer(sparql)]


def variables(sparql: str) -> set[str]:
    """Names of the variables the text uses (outside strings, IRIs and comments)."""
    return {token.text[1:] for token in tokenize(sparql) if token.kind == "var"}


def _groups(tokens: list[Token]) -> list[_Group]:
    """Every group graph pattern of the text's WHERE clauses (nested ones included).

    A WHERE clause's group is the ``{`` after a WHERE keyword, or the first group
    of a SELECT/ASK/DESCRIBE. Inside it, every ``{`` opens a group (OPTIONAL,
    UNION branches, GRAPH, EXISTS ...) except a VALUES data block and the wrapper
    of a sub-SELECT (which must stand alone; its own WHERE is a group again).
    Templates (INSERT/DELETE/CONSTRUCT) are not groups.
    """
    significant = [token for token in tokens if token.kind not in ("space", "comment")]
    groups: list[_Group] = []
    stack: list[tuple[_Group | None, bool]] = []  # (group opened here, whether braces inside are patterns)
    pending: int | None = None  # brace depth at which the next '{' opens a WHERE group
    values_pending = False
    previous_word = ""
    operation_start = 0
    for position, token in enumerate(significant):
        depth = len(stack)
        inside_pattern = bool(stack) and stack[-1][1]
        if token.kind == "word":
            word = token.text.upper()
            if word == "WHERE":
                if previous_word == "DELETE":
                    raise TemplateError("the DELETE WHERE { } short form cannot take bindings; write DELETE { ... } WHERE { ... }")
                pending = depth
            elif word in _GROUP_KEYWORDS and pending is None:
                pending = depth
            elif word == "VALUES":
                values_pending = True
            previous_word = word
        elif token.kind == "semicolon" and depth == 0:
            _close_operation(groups, token.start)
            operation_start = token.start + 1
        elif token.kind == "open":
            following = significant[position + 1] if position + 1 < len(significant) else None
            opens_subselect = following is not None and following.kind == "word" and following.text.upper() == "SELECT"
            group: _Group | None = None
            patterns_inside = False
            if values_pending:
                values_pending = False
            elif pending == depth or inside_pattern:
                pending = None if pending == depth else pending
                patterns_inside = True
                if not opens_subselect:
                    group = _Group(token.start + 1, operation_start, depth == 0)
                    groups.append(group)
            stack.append((group, patterns_inside))
        elif token.kind == "close" and stack:
            group, _ = stack.pop()
            if group is not None:
                group.end = token.start
    _close_operation(groups, significant[-1].start + len(significant[-1].text) if significant else 0)
    return groups


def _close_operation(groups: list[_Group], end: int) -> None:
    for group in groups:
        if group.operation_end == -1:
            group.operation_end = end


def values_block(names: list[str], bindings: Mapping[str, Term]) -> str:
    """``VALUES ?a { <x> } VALUES ?b { "y" }`` for the named bindings.

    One block per variable, not one row of several: the same solutions, and
    Virtuoso 7 fails with an internal error (SP031) on a multi-variable block
    whose variable a nested group binds again.
    """
    return " " + " ".join(f"VALUES ?{name} {{ {bindings[name]} }}" for name in names) + " "


def _check_terms(bindings: Mapping[str, object]) -> None:
    for name, term in bindings.items():
        if isinstance(term, BlankNode):
            raise TypeError(f"binding ?{name}: a blank node cannot be bound (VALUES takes IRIs and literals)")
        if not isinstance(term, (NamedNode, Literal)):
            raise TypeError(f"binding ?{name} must be an RDF term, not {type(term).__name__}")


def bind(template: str, bindings: Mapping[str, Term] | None) -> str:
    """The template with every bound variable fixed by a VALUES block (see the module docstring)."""
    if not bindings:
        return template
    _check_terms(bindings)
    text = template
    for position, names in reversed(_plan(template, frozenset(bindings))):
        text = text[:position] + values_block(list(names), bindings) + text[position:]
    return text


@lru_cache(maxsize=1024)
def _plan(template: str, bound: frozenset[str]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Where ``bind`` opens a VALUES block and for which names, by position; it depends on the template and
    the names only, so it is computed once per template (lexing is the costly part of binding)."""
    tokens = tokenize(template)
    occurrences = [token for token in tokens if token.kind == "var" and token.text[1:] in bound]
    inserts: list[tuple[int, tuple[str, ...]]] = []
    covered: set[int] = set()
    for group in _groups(tokens):
        start, end = group.scope
        inside = [t for t in occurrences if start <= t.start < end]
        names = tuple(sorted({t.text[1:] for t in inside}))
        if names:
            inserts.append((group.body_start, names))
            covered.update(t.start for t in inside)
    stray = [t for t in occurrences if t.start not in covered]
    if stray:
        raise TemplateError(
            f"variable {stray[0].text} is bound but occurs outside any WHERE group "
            "(INSERT DATA, DROP GRAPH and the like cannot take variables: write the term itself)"
        )
    return tuple(sorted(inserts))
