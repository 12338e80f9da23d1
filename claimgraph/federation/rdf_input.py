"""Loading external RDF (an ontology, a vocabulary, any dataset) into a named graph of the store.

The syntax comes from the file name (``.ttl``, ``.nt``, ``.owl``/``.rdf``/``.xml``
RDF/XML, ``.trig``, ``.nq``, ``.jsonld``, ``.n3``) or is given. OWL files
written in OWL/XML or the functional syntax are refused by name, with the
conversion that makes them loadable. Triples go into one named graph, which
is replaced as a whole in one update; a dataset's own graph names are kept
unless a target graph is given. Graphs claimgraph writes itself (papers,
hubs, vocabularies) cannot be loaded over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.rdf.iris import slugify

SUFFIXES = {
    ".ttl": RdfFormat.TURTLE, ".turtle": RdfFormat.TURTLE, ".nt": RdfFormat.N_TRIPLES, ".n3": RdfFormat.N3,
    ".owl": RdfFormat.RDF_XML, ".rdf": RdfFormat.RDF_XML, ".xml": RdfFormat.RDF_XML,
    ".trig": RdfFormat.TRIG, ".nq": RdfFormat.N_QUADS, ".jsonld": RdfFormat.JSON_LD, ".json": RdfFormat.JSON_LD,
}
FORMAT_NAMES = {"turtle": RdfFormat.TURTLE, "ntriples": RdfFormat.N_TRIPLES, "n3": RdfFormat.N3, "rdfxml": RdfFormat.RDF_XML,
                "trig": RdfFormat.TRIG, "nquads": RdfFormat.N_QUADS, "jsonld": RdfFormat.JSON_LD}
MAX_TRIPLES = 2_000_000
_OWL_XML = re.compile(rb"<(?:owl:)?Ontology\b[^>]*xmlns(?::owl)?=\"http://www\.w3\.org/2002/07/owl#\"")
_FUNCTIONAL = re.compile(rb"^\s*(?:Prefix\s*\(|Ontology\s*\()", re.MULTILINE)


class RdfInputError(ClaimgraphError):
    """An RDF file cannot be loaded: unknown syntax, a parse error, too large, or a protected target graph."""


@dataclass(frozen=True)
class LoadResult:
    """What a load wrote: triples per named graph."""

    graphs: dict[str, int]

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


def rdf_format(path: Path, name: str | None = None) -> RdfFormat:
    """The syntax of ``path``: the given name, else the file suffix."""
    if name is not None:
        if name not in FORMAT_NAMES:
            raise RdfInputError(f"unknown RDF syntax {name!r}; choose one of {', '.join(FORMAT_NAMES)}")
        return FORMAT_NAMES[name]
    found = SUFFIXES.get(path.suffix.lower())
    if found is None:
        raise RdfInputError(f"{path}: cannot tell the RDF syntax from the suffix {path.suffix!r}; "
                            f"name it with --format ({', '.join(FORMAT_NAMES)})")
    return found


def _refuse_owl_syntaxes(path: Path, head: bytes) -> None:
    if _FUNCTIONAL.search(head):
        raise RdfInputError(f"{path} is in the OWL functional syntax, which is not RDF; convert it first, "
                            "e.g. `robot convert --input FILE --output FILE.ttl`")
    if _OWL_XML.search(head) and b"rdf:RDF" not in head:
        raise RdfInputError(f"{path} is in OWL/XML, which is not RDF/XML; convert it first, "
                            "e.g. `robot convert --input FILE --output FILE.owl --format owl`")


def read_quads(path: Path, syntax: RdfFormat, base_iri: str | None = None) -> list[Quad]:
    """The file's quads (triples in the default graph), with size and syntax errors named."""
    try:
        with path.open("rb") as handle:
            _refuse_owl_syntaxes(path, handle.read(4096))
    except OSError as error:
        raise RdfInputError(f"cannot read {path}: {error}") from error
    quads: list[Quad] = []
    try:
        for quad in pyoxigraph.parse(path=str(path), format=syntax, base_iri=base_iri or path.resolve().as_uri()):
            quads.append(quad)
            if len(quads) > MAX_TRIPLES:
                raise RdfInputError(f"{path} holds more than {MAX_TRIPLES:,} triples; load it with `oxigraph load` into the server instead")
    except SyntaxError as error:
        raise RdfInputError(f"{path} is not valid {syntax.name}: {error}") from error
    except OSError as error:
        raise RdfInputError(f"cannot read {path}: {error}") from error
    return quads


def protected(ctx: Context, graph: NamedNode) -> bool:
    """Graphs claimgraph writes itself: under ``<base>paper/`` and ``<base>graph/`` except loadable kinds."""
    base = ctx.iris.base
    loadable = (f"{base}graph/external/", f"{base}graph/ontology/")
    return graph.value.startswith((f"{base}paper/", f"{base}graph/")) and not graph.value.startswith(loadable)


def external_graph(ctx: Context, path: Path) -> NamedNode:
    """``<base>graph/external/<file name>``: where a file is loaded when no graph is named."""
    return NamedNode(f"{ctx.iris.base}graph/external/{slugify(path.name)}")


def group_by_graph(quads: Iterable[Quad], target: NamedNode | None, default: NamedNode) -> dict[NamedNode, list[Triple]]:
    """The triples of each graph they go to: ``target`` for all, else their own named graph, ``default`` for the default graph."""
    graphs: dict[NamedNode, list[Triple]] = {}
    for quad in quads:
        name = quad.graph_name
        if target is not None:
            name = target
        elif isinstance(name, DefaultGraph):
            name = default
        if not isinstance(name, NamedNode):
            raise RdfInputError(f"a graph named by a blank node ({name}) cannot be stored as a named graph; name it with an IRI or use --graph")
        graphs.setdefault(name, []).append(quad.triple)
    return graphs


def load_rdf(ctx: Context, path: Path, graph: NamedNode | None = None, syntax: str | None = None) -> LoadResult:
    """Load an RDF file into the store; each graph it fills is replaced as a whole, in one update."""
    quads = read_quads(path, rdf_format(path, syntax))
    graphs = group_by_graph(quads, graph, external_graph(ctx, path))
    refused = sorted(name.value for name in graphs if protected(ctx, name))
    if refused:
        raise RdfInputError(f"{path}: will not load into {', '.join(refused)}, which claimgraph writes itself; "
                            f"name another graph with --graph (e.g. {ctx.iris.base}graph/external/NAME)")
    ctx.store.replace_graphs({name: list(dict.fromkeys(triples)) for name, triples in graphs.items()})
    return LoadResult({name.value: len(set(triples)) for name, triples in graphs.items()})
