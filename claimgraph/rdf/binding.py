"""Binding RDF terms to SPARQL variables without pasting text: a constant where one may stand, else a VALUES block.

A template names a variable (``?graph``) and the caller binds it to a
pyoxigraph term. ``bind`` lexes the SPARQL text (strings, IRIs and comments are
single tokens, so a ``?graph`` inside ``"what is ?graph"`` or
``<http://ex/q?graph=1>`` is never touched). Terms are written in their
N-Triples form by the RDF library, which does the escaping, never as text
the caller gives. The same text runs on the embedded store and on any SPARQL
1.1 server.

Each bound variable is written one of two ways:

- **as a constant**: every occurrence of the variable token is replaced by the
  term. Engines plan a pattern with a constant as an index lookup; Oxigraph
  plans a VALUES-bound one about 1.7x slower (the gate's measures on a
  reasoning graph: 7.2 ms against 4.2 ms). A constant stands wherever the
  variable is a term of a pattern, a template or an expression;
- **by VALUES**: every WHERE group that mentions the variable opens with
  ``VALUES ?graph { <term> }`` (one block per variable; the group of an update
  operation also gets the variables its DELETE/INSERT templates use). This is
  used when some occurrence must stay a variable: the variable is projected or
  is the target of ``AS`` (so the caller reads it back), it is grouped or
  ordered by, declared by VALUES, tested by ``BOUND``, the query projects
  ``*``, a ``MINUS`` is present (its result depends on which variables the two
  sides share), or a literal is bound to the name of a ``GRAPH``.

Both ways give the same solutions; the tests check them against each other.

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


def bind(template: str, bindings: Mapping[str, Term] | None, *, values_only: bool = False) -> str:
    """The template with every bound variable fixed, as a constant or by a VALUES block (see the module docstring);
    ``values_only`` binds every variable by VALUES (the reference the constants are tested against)."""
    if not bindings:
        return template
    _check_terms(bindings)
    plan = _plan(template, frozenset(bindings))
    constant = set() if values_only else {name for name in bindings if plan.takes_constant(name, bindings[name])}
    edits: list[tuple[int, int, str]] = [(start, start + len(name) + 1, str(bindings[name]))
                                         for start, name in plan.occurrences if name in constant]
    for position, names in plan.values_at:
        kept = [name for name in names if name not in constant]
        if kept:
            edits.append((position, position, values_block(kept, bindings)))
    return _apply(template, edits)


def bind_constants(template: str, bindings: Mapping[str, Term]) -> str:
    """The template with every bound variable replaced by its term, never by VALUES; a TemplateError where one must
    stay a variable (for an update some engine cannot compile with VALUES: see claimgraph.papers.audit_append)."""
    _check_terms(bindings)
    plan = _plan(template, frozenset(bindings))
    refused = sorted(name for name in bindings if not plan.takes_constant(name, bindings[name]))
    if refused:
        raise TemplateError(f"variables {', '.join('?' + name for name in refused)} cannot be written as constants in this template")
    return _apply(template, [(start, start + len(name) + 1, str(bindings[name])) for start, name in plan.occurrences])


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """The text with each (start, end, replacement) edit made; edits never overlap."""
    parts = []
    cursor = 0
    for start, end, replacement in sorted(edits):
        parts += [text[cursor:start], replacement]
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


@dataclass(frozen=True)
class _Plan:
    """How a template takes a set of bound names: where each occurs, where VALUES blocks go, which must stay variables."""

    occurrences: tuple[tuple[int, str], ...]
    values_at: tuple[tuple[int, tuple[str, ...]], ...]
    variables_only: frozenset[str]
    graph_names: frozenset[str]

    def takes_constant(self, name: str, term: Term) -> bool:
        """Whether the term may replace every occurrence of the variable (a literal cannot name a graph)."""
        return name not in self.variables_only and not (isinstance(term, Literal) and name in self.graph_names)


@lru_cache(maxsize=1024)
def _plan(template: str, bound: frozenset[str]) -> _Plan:
    """The plan of ``bind`` for a template and the bound names: it depends on them only, so it is computed once per
    template (lexing is the costly part of binding)."""
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
    variables_only, graph_names = _variable_positions(tokens)
    return _Plan(
        occurrences=tuple((token.start, token.text[1:]) for token in occurrences),
        values_at=tuple(sorted(inserts)),
        variables_only=frozenset(bound if "*" in variables_only else variables_only & bound),
        graph_names=frozenset(graph_names & bound),
    )


_CLAUSES = {"SELECT": "projection", "DESCRIBE": "projection", "GROUP": "modifier", "ORDER": "modifier",
            "HAVING": "modifier", "VALUES": "values"}


def _variable_positions(tokens: list[Token]) -> tuple[set[str], set[str]]:
    """Names with an occurrence where only a variable may stand ("*": every name), and names that follow GRAPH.

    Only a variable may stand in a projection (``SELECT ?x``, ``SELECT *``:
    every name, ``(... AS ?x)``), a solution modifier (GROUP BY, ORDER BY,
    HAVING, up to the group that ends the sub-select), a VALUES declaration,
    after ``AS`` and inside ``BOUND( )``; a MINUS anywhere makes every name one.
    A word next to a colon is part of a prefixed name (``ex:order``), not a keyword.
    """
    significant = [(index, token) for index, token in enumerate(tokens) if token.kind not in ("space", "comment")]
    only: set[str] = set()
    graph_names: set[str] = set()
    clause: str | None = None
    clause_depth = depth = 0
    previous: list[str] = ["", ""]
    for index, token in significant:
        word = token.text.upper() if token.kind == "word" and not _in_prefixed_name(tokens, index) else ""
        if word == "MINUS":
            only.add("*")
        elif word in _CLAUSES:
            clause, clause_depth = _CLAUSES[word], depth
        elif word in ("WHERE", "LIMIT", "OFFSET") and clause in ("projection", "modifier"):
            clause = None
        elif token.kind == "open":
            clause = None if clause in ("projection", "values") else clause
            depth += 1
        elif token.kind == "close":
            depth -= 1
            clause = None if clause == "modifier" and depth < clause_depth else clause
        elif token.kind == "semicolon" and depth == 0:
            clause = None
        elif token.text == "*" and clause == "projection" and previous[-1] in ("SELECT", "DISTINCT", "REDUCED"):
            only.add("*")
        elif token.kind == "var":
            name = token.text[1:]
            if clause is not None or previous[-1] == "AS" or previous[-2:] == ["BOUND", "("]:
                only.add(name)
            if previous[-1] == "GRAPH":
                graph_names.add(name)
        previous = [previous[-1], word or token.text]
    return only, graph_names


def _in_prefixed_name(tokens: list[Token], index: int) -> bool:
    before = tokens[index - 1].text if index > 0 else ""
    after = tokens[index + 1].text if index + 1 < len(tokens) else ""
    return before == ":" or after == ":"
