"""Running one SPARQL query and writing its result in the negotiated format, as an HTTP answer.

Shared by the query worker processes (embedded stores) and the in-thread
executor (remote stores). pyoxigraph evaluates lazily: errors of evaluation
(a failing SERVICE, a store read error) surface while the result is written,
so writing is inside the same error handling as parsing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph
from pyoxigraph import BlankNode, DefaultGraph, NamedNode, QueryBoolean, QuerySolutions, Triple

from claimgraph.rdf.vocab import PREFIXES
from claimgraph.serve.formats import GRAPH_FORMATS, RESULTS_FORMATS, offered, with_charset
from claimgraph.serve.negotiation import choose

TEXT = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class QueryRequest:
    """A query as the protocol delivered it: text, the client's Accept header and the dataset parameters."""

    sparql: str
    accept: str | None = None
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, Content-Type, body, and extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def error(cls, status: int, message: str, headers: dict[str, str] | None = None) -> Answer:
        return cls(status, TEXT, (message.rstrip() + "\n").encode("utf-8"), headers or {})


def result_kind(result: object) -> str:
    if isinstance(result, QuerySolutions):
        return "solutions"
    if isinstance(result, QueryBoolean):
        return "boolean"
    return "graph"


def not_acceptable(kind: str, accept: str | None) -> Answer:
    what = "CONSTRUCT/DESCRIBE results" if kind == "graph" else "SELECT/ASK results"
    return Answer.error(406, f"cannot answer {what} in any type of Accept: {accept}; offered: {', '.join(offered(kind))}")


def write_result(result: QuerySolutions | QueryBoolean | Iterable[Triple], accept: str | None) -> Answer:
    """The result serialized in the type the Accept header prefers (406 when it accepts none)."""
    kind = result_kind(result)
    media_type = choose(accept, offered(kind))
    if media_type is None:
        return not_acceptable(kind, accept)
    if isinstance(result, (QuerySolutions, QueryBoolean)):
        body = result.serialize(format=RESULTS_FORMATS[media_type])
    else:
        body = pyoxigraph.serialize(result, format=GRAPH_FORMATS[media_type], prefixes=PREFIXES)
    return Answer(200, with_charset(media_type), body or b"")


def graph_terms(iris: tuple[str, ...]) -> list[NamedNode | BlankNode | DefaultGraph] | None:
    return [NamedNode(iri) for iri in iris] if iris else None


def evaluate(store: pyoxigraph.Store, request: QueryRequest, union_default_graph: bool = False) -> Answer:
    """Parse, evaluate and write one query on a pyoxigraph store (400 on a syntax error)."""
    try:
        default = graph_terms(request.default_graphs)
        named = [NamedNode(iri) for iri in request.named_graphs]
        result = store.query(
            request.sparql,
            use_default_graph_as_union=union_default_graph and default is None,
            default_graph=default,
            named_graphs=list[NamedNode | BlankNode](named) if named else None,
        )
    except SyntaxError as error:
        return Answer.error(400, f"malformed query: {error}")
    except ValueError as error:
        return Answer.error(400, f"bad dataset parameter: {error}")
    try:
        return write_result(result, request.accept)
    except (OSError, RuntimeError, ValueError) as error:
        return Answer.error(500, f"query evaluation failed: {error}")
