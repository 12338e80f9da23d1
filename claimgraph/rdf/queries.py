"""The SPARQL assets: shipped queries users run by name, internal queries, scripts, and shared fragments.

Every .rq/.ru file is read through ``read_sparql``, which expands fragment
references: ``{{name(?a, ?b)}}`` is replaced by ``sparql/fragments/name.rq``
(its comment header left out) with ``$1``, ``$2`` ... replaced by the
arguments. A fragment holds one piece of SPARQL that several files need (the
statement-IRI hash, what counts as an edge predicate), so it is written once.
Fragments and arguments come from the project's own asset files, never from
user input; user values are bound with ``claimgraph.rdf.binding.bind``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from claimgraph.assets import asset_path, asset_root
from claimgraph.errors import AssetNotFoundError, QueryNotFoundError, did_you_mean

_FRAGMENT = re.compile(r"\{\{([a-z][a-z0-9_]*)(?:\(([^(){}]*)\))?\}\}")
_MAX_NESTING = 5


def strip_header(text: str) -> str:
    """The text without its leading comment lines."""
    lines = text.splitlines()
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines).strip()


@cache
def fragment(name: str) -> str:
    """The body of ``sparql/fragments/NAME.rq``."""
    try:
        return strip_header(asset_path("sparql", "fragments", f"{name}.rq").read_text(encoding="utf-8"))
    except AssetNotFoundError:
        raise QueryNotFoundError(f"a SPARQL file uses the fragment {{{{{name}}}}}, but sparql/fragments/{name}.rq does not exist") from None


def expand_fragments(text: str, depth: int = 0) -> str:
    """Replace every ``{{name(args)}}`` by its fragment with the arguments filled in."""
    if depth > _MAX_NESTING:
        raise QueryNotFoundError(f"SPARQL fragments nest more than {_MAX_NESTING} deep (a fragment includes itself?)")

    def replace(match: re.Match[str]) -> str:
        body = fragment(match.group(1))
        arguments = [part.strip() for part in (match.group(2) or "").split(",") if part.strip()]
        for number, argument in sorted(enumerate(arguments, start=1), reverse=True):
            body = body.replace(f"${number}", argument)
        if re.search(r"\$\d", body):
            raise QueryNotFoundError(f"fragment {match.group(1)} needs more arguments than the {len(arguments)} given")
        return expand_fragments(body, depth + 1)

    return _FRAGMENT.sub(replace, text)


@cache
def read_sparql(*parts: str) -> str:
    """A SPARQL asset's text with its fragments expanded, e.g. ``read_sparql("repair", "drop_self_loops.ru")``."""
    return expand_fragments(asset_path("sparql", *parts).read_text(encoding="utf-8"))


def read_sparql_file(path: Path) -> str:
    """A SPARQL file given by path (a user's .rq file or an asset) with fragments expanded."""
    return expand_fragments(path.read_text(encoding="utf-8"))


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
        return read_named_query(text_or_name)
    if re.match(r"^[A-Za-z0-9_-]+$", text_or_name):
        raise QueryNotFoundError(f"no query named {text_or_name!r}{did_you_mean(text_or_name, named)}; "
                                 "`claimgraph query --list` lists the shipped queries")
    return text_or_name


def read_named_query(name: str) -> str:
    """Text of a shipped query (sparql/queries/NAME.rq)."""
    if name not in list_named_queries():
        raise QueryNotFoundError(f"no shipped query named {name!r}{did_you_mean(name, list_named_queries())}")
    return read_sparql("queries", f"{name}.rq")


def read_internal_query(name: str) -> str:
    """Text of a query the code binds and runs (sparql/internal/NAME.rq), not offered by name to users."""
    if not (asset_root() / "sparql" / "internal" / f"{name}.rq").is_file():
        raise QueryNotFoundError(f"missing internal query sparql/internal/{name}.rq (looked in {asset_root()})")
    return read_sparql("internal", f"{name}.rq")


_PREFIX = re.compile(r"^\s*PREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>\s*$", re.MULTILINE | re.IGNORECASE)


def join_updates(operations: Sequence[str]) -> str:
    """Several SPARQL updates as one request, with their PREFIX lines hoisted to the front.

    SPARQL 1.1 allows a prologue after each ';', but Oxigraph accepts one only at the start.
    """
    prefixes: dict[str, str] = {}
    bodies = []
    for operation in operations:
        for name, iri in _PREFIX.findall(operation):
            if prefixes.setdefault(name, iri) != iri:
                raise QueryNotFoundError(f"prefix {name}: is bound to both <{prefixes[name]}> and <{iri}> in the joined updates")
        bodies.append(_PREFIX.sub("", operation).strip())
    head = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in prefixes.items())
    return head + " ;\n".join(body for body in bodies if body)
