"""SPARQL text handling: loading .rq/.ru assets and binding typed RDF terms.

Untrusted values never enter SPARQL text as raw strings. A template names a
variable (``?graph``) and the caller binds it to a pyoxigraph term; the term is
written in its N-Triples form, which the RDF library escapes. A bound variable
must not appear in a SELECT projection (it is replaced by a constant).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from pyoxigraph import BlankNode, Literal, NamedNode

from claimgraph.assets import asset_path, asset_root
from claimgraph.errors import QueryNotFoundError

Term = NamedNode | BlankNode | Literal

_VARIABLE = re.compile(r"[?$]([A-Za-z_][A-Za-z0-9_]*)")


def bind(template: str, bindings: Mapping[str, Term] | None) -> str:
    """Replace each bound ``?name``/``$name`` in the template by its term."""
    if not bindings:
        return template
    for name, term in bindings.items():
        if not isinstance(term, (NamedNode, BlankNode, Literal)):
            raise TypeError(f"binding ?{name} must be an RDF term, not {type(term).__name__}")
        if isinstance(term, BlankNode):
            raise TypeError(f"binding ?{name}: blank nodes cannot be bound into SPARQL text")

    def replace(match: re.Match[str]) -> str:
        term = bindings.get(match.group(1))
        return match.group(0) if term is None else str(term)

    return _VARIABLE.sub(replace, template)


def named_query_dir() -> Path:
    return asset_path("sparql", "queries")


def list_named_queries() -> dict[str, Path]:
    """Named queries (file stem -> path) shipped in sparql/queries."""
    return {path.stem: path for path in sorted(named_query_dir().glob("*.rq"))}


def query_description(path: Path) -> str:
    """The comment header of a .rq file, as one line."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return " ".join(part for part in lines if part)


def resolve_query(text_or_name: str) -> str:
    """A query given as SPARQL text, a path to a .rq file, or the name of a shipped query."""
    candidate = Path(text_or_name)
    if text_or_name.endswith((".rq", ".sparql")) or (len(text_or_name) < 256 and candidate.is_file()):
        if not candidate.is_file():
            raise QueryNotFoundError(f"query file {text_or_name} does not exist")
        return candidate.read_text(encoding="utf-8")
    named = list_named_queries()
    if text_or_name in named:
        return named[text_or_name].read_text(encoding="utf-8")
    if re.match(r"^[A-Za-z0-9_-]+$", text_or_name):
        raise QueryNotFoundError(
            f"no query named {text_or_name!r}; shipped queries: {', '.join(named) or 'none'}"
        )
    return text_or_name


def read_named_query(name: str) -> str:
    """Text of a shipped query (sparql/queries/NAME.rq)."""
    path = list_named_queries().get(name)
    if path is None:
        raise QueryNotFoundError(f"no shipped query named {name!r}")
    return path.read_text(encoding="utf-8")


def read_internal_query(name: str) -> str:
    """Text of a query the code binds and runs (sparql/internal/NAME.rq), not offered by name to users."""
    path = asset_root() / "sparql" / "internal" / f"{name}.rq"
    if not path.is_file():
        raise QueryNotFoundError(f"missing internal query sparql/internal/{name}.rq (looked in {asset_root()})")
    return path.read_text(encoding="utf-8")
