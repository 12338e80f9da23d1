"""The Store interface: SPARQL 1.1 query, update and atomic graph replacement over a backend.

Every write that replaces papers is a single SPARQL UPDATE request, which both
Oxigraph and any SPARQL 1.1 server apply as one transaction: a concurrent reader
sees a paper's old graphs or its new graphs, never a half.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping

import pyoxigraph
from pyoxigraph import (
    NamedNode,
    Quad,
    QueryBoolean,
    QuerySolutions,
    QueryTriples,
    RdfFormat,
    Triple,
)

from claimgraph.errors import StoreError
from claimgraph.rdf.binding import Term, bind, tokenize

QueryResult = QuerySolutions | QueryBoolean | QueryTriples | Iterator[Triple]
Row = dict[str, Term]

EXPORT_FORMATS: dict[str, RdfFormat] = {
    "ttl": RdfFormat.TURTLE,
    "trig": RdfFormat.TRIG,
    "nq": RdfFormat.N_QUADS,
    "nt": RdfFormat.N_TRIPLES,
}


def ntriples(triples: Iterable[Triple]) -> str:
    """Triples as N-Triples text, escaped by the RDF library."""
    return (pyoxigraph.serialize(list(triples), format=RdfFormat.N_TRIPLES) or b"").decode("utf-8")


def insert_data_update(graphs: Mapping[NamedNode, Iterable[Triple]]) -> str:
    """One INSERT DATA for several named graphs (terms written by the RDF library); "" when there is nothing."""
    blocks = []
    for graph, triples in graphs.items():
        body = ntriples(triples)
        if body:
            blocks.append(f"GRAPH {graph} {{\n{body}}}")
    return "INSERT DATA {\n" + "\n".join(blocks) + "\n}" if blocks else ""


def replace_graphs_update(graphs: Mapping[NamedNode, Iterable[Triple]]) -> str:
    """One SPARQL UPDATE that drops each graph, then refills them all.

    All graphs go into a single INSERT DATA: SPARQL forbids sharing a blank node
    between two INSERT DATA blocks, and a blank node may link a paper's graphs.
    """
    operations = [f"DROP SILENT GRAPH {graph}" for graph in graphs]
    insert = insert_data_update({graph: list(triples) for graph, triples in graphs.items()})
    return " ;\n".join([*operations, insert] if insert else operations)


def named_graphs(rows: Iterable[Mapping[str, Term]]) -> list[NamedNode]:
    """The IRIs bound to ?g in ``rows``, sorted (rows without one, or with a blank node, are left out)."""
    return sorted((graph for row in rows if isinstance(graph := row.get("g"), NamedNode)), key=lambda graph: graph.value)


class ServiceNotAllowedError(StoreError):
    """A query or update calls SERVICE on an endpoint nobody allowed."""


def check_services(sparql: str, allowed: Iterable[str] = ()) -> None:
    """Refuse SERVICE clauses whose endpoint is not in ``allowed`` (a variable endpoint is never allowed).

    A SERVICE makes the engine call another server: a query file or a profile
    from someone else must not make claimgraph call internal addresses.
    """
    if "service" not in sparql.lower():
        return
    tokens = [token for token in tokenize(sparql) if token.kind not in ("space", "comment")]
    for position, token in enumerate(tokens):
        if token.kind != "word" or token.text.upper() != "SERVICE" or (position and tokens[position - 1].text == ":"):
            continue
        following = tokens[position + 1:position + 3]
        if following and following[0].kind == "word" and following[0].text.upper() == "SILENT":
            following = following[1:]
        target = following[0] if following else None
        endpoint = target.text[1:-1] if target is not None and target.kind == "iri" else None
        if endpoint is None or endpoint not in set(allowed):
            shown = endpoint or (target.text if target else "(nothing)")
            raise ServiceNotAllowedError(f"the query calls SERVICE {shown}, which is not allowed; pass --allow-service {shown} to permit it")


_SERVICE_CONTENT_TYPE = re.compile(r"Unsupported Content-Type returned by service <([^>]*)>: (\S*)")


def evaluation_error(error: RuntimeError) -> StoreError:
    """What the engine raised while a query's results were read, as one line: a SERVICE endpoint that answered
    with something other than SPARQL results is named with the content type it sent."""
    found = _SERVICE_CONTENT_TYPE.search(str(error))
    if found is not None:
        service, content_type = found.groups()
        return StoreError(f"the SERVICE endpoint {service} answered with content type {content_type or '(none)'}, "
                          "not SPARQL query results (application/sparql-results+json or +xml); is it a SPARQL query endpoint?")
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return StoreError(f"the query failed while its results were read: {first}")


class Store(ABC):
    """A quad store addressed with SPARQL 1.1; every paper is one named graph.

    ``allowed_services`` lists the endpoints a SERVICE clause may call; every
    other SERVICE is refused before the text reaches the engine.
    """

    location: str
    allowed_services: frozenset[str] = frozenset()
    shared = False
    """Whether other processes may write the store at the same time (a server); see ``claimgraph.store.lease``."""

    @abstractmethod
    def _query(self, sparql: str) -> QueryResult: ...

    @abstractmethod
    def _update(self, sparql: str) -> None: ...

    @abstractmethod
    def quads(self, graph: NamedNode | None = None) -> Iterator[Quad]:
        """Quads of one named graph, or of every named graph."""

    def close(self) -> None:  # noqa: B027 - a backend with nothing to release keeps this default
        """Release the backend (the embedded store's lock)."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def query(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> QueryResult:
        check_services(sparql, self.allowed_services)
        return self._query(bind(sparql, bindings))

    def update(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> None:
        check_services(sparql, self.allowed_services)
        self._update(bind(sparql, bindings))

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Add quads in bulk, in batches of INSERT DATA (not one transaction: for loading, not for replacing papers)."""
        batch: dict[NamedNode, list[Triple]] = {}
        size = 0
        for quad in quads:
            if isinstance(quad.graph_name, NamedNode):
                batch.setdefault(quad.graph_name, []).append(quad.triple)
                size += 1
            if size >= 50_000:
                self.insert(batch)
                batch, size = {}, 0
        if batch:
            self.insert(batch)

    def select(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> list[Row]:
        """SELECT results as a list of {variable: term} (unbound variables left out)."""
        result = self.query(sparql, bindings)
        if not isinstance(result, QuerySolutions):
            raise StoreError("select() needs a SELECT query")
        names = [variable.value for variable in result.variables]
        rows = []
        for solution in result:
            row = {}
            for name in names:
                value = solution[name]
                if value is not None:
                    row[name] = value
            rows.append(row)
        return rows

    def construct(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> list[Triple]:
        """CONSTRUCT or DESCRIBE results as a list of triples."""
        result = self.query(sparql, bindings)
        if isinstance(result, (QuerySolutions, QueryBoolean)):
            raise StoreError("construct() needs a CONSTRUCT or DESCRIBE query")
        return list(result)

    def ask(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> bool:
        return bool(self.query(sparql, bindings))

    def scalar(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> int:
        """The integer value of a one-row, one-column SELECT (a COUNT)."""
        rows = self.select(sparql, bindings)
        if not rows or not rows[0]:
            return 0
        (value,) = rows[0].values()
        return int(value.value)

    def replace_graphs(self, graphs: Mapping[NamedNode, Iterable[Triple]], before: str = "") -> None:
        """Atomically replace the content of several named graphs.

        ``before``, an update whose terms are already bound, runs first in the same
        request (e.g. to adjust figures that depend on the graphs being replaced).
        """
        if graphs:
            body = replace_graphs_update(graphs)
            self._update(f"{before} ;\n{body}" if before else body)

    def insert(self, graphs: Mapping[NamedNode, Iterable[Triple]], before: str = "", after: str = "") -> None:
        """Add triples to named graphs in one request; ``before`` and ``after`` (updates, terms bound) run first and
        last in the same request."""
        insert = insert_data_update(graphs)
        operations = [operation for operation in (before, insert, after) if operation]
        if operations:
            self._update(" ;\n".join(operations))

    def replace_graph(self, graph: NamedNode, triples: Iterable[Triple]) -> None:
        self.replace_graphs({graph: triples})

    def drop_graphs(self, graphs: Iterable[NamedNode]) -> None:
        operations = [f"DROP SILENT GRAPH {graph}" for graph in graphs]
        if operations:
            self._update(" ;\n".join(operations))

    def triples(self, graph: NamedNode) -> list[Triple]:
        return [quad.triple for quad in self.quads(graph)]

    def graph_ntriples(self, graph: NamedNode) -> bytes:
        """One named graph as N-Triples bytes (backends write it without making Python terms when they can)."""
        return ntriples(self.triples(graph)).encode("utf-8")

    def graph_names(self) -> list[NamedNode]:
        """The named graphs that hold triples, sorted by IRI."""
        rows = self.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")
        return named_graphs(rows)

    def has_graph(self, graph: NamedNode) -> bool:
        """Whether the named graph holds any triple."""
        return self.ask("ASK WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": graph})

    def count_triples(self, graph: NamedNode | None = None) -> int:
        if graph is None:
            return self.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
        return self.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": graph})

    def serialize(self, rdf_format: RdfFormat, graphs: Iterable[NamedNode] | None = None, prefixes: Mapping[str, str] | None = None) -> bytes:
        """The chosen graphs (all named graphs by default) in an RDF syntax.

        Formats without named graphs (Turtle, N-Triples) get the union of the triples.
        """
        chosen = list(graphs) if graphs is not None else None
        quads: list[Quad] = []
        for graph in chosen if chosen is not None else [None]:
            quads.extend(self.quads(graph))
        items: list[Quad] | list[Triple] = quads
        if not rdf_format.supports_datasets:
            items = list(dict.fromkeys(quad.triple for quad in quads))
        return pyoxigraph.serialize(items, format=rdf_format, prefixes=dict(prefixes or {})) or b""
