"""Running one SPARQL query and writing its result in the negotiated format, as an HTTP answer.

Shared by the query worker processes (embedded stores) and the in-thread
executor (remote stores). pyoxigraph evaluates lazily: errors of evaluation
(a failing SERVICE, a store read error) surface while the result is written,
so writing is inside the same error handling as parsing.

A query that reads only the default graph (no FROM, no GRAPH, no dataset
parameters) and finds nothing, on a store whose triples are in named graphs,
gets an ``X-Claimgraph-Hint`` header saying so: claimgraph keeps every paper
in its own named graph, and an empty answer is otherwise puzzling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import pyoxigraph
from pyoxigraph import BlankNode, DefaultGraph, NamedNode, QueryBoolean, QuerySolutions, Triple

from claimgraph.errors import StoreError
from claimgraph.rdf.binding import tokenize
from claimgraph.rdf.vocab import PREFIXES
from claimgraph.serve.formats import GRAPH_FORMATS, RESULTS_FORMATS, offered, with_charset
from claimgraph.serve.negotiation import choose

TEXT = "text/plain; charset=utf-8"
HINT_HEADER = "X-Claimgraph-Hint"
DEFAULT_GRAPH_HINT = ("the query read only the default graph and found nothing; this store keeps its triples in named graphs: "
                      "use GRAPH ?g { ... } or FROM <graph>, or start the server with --union-default-graph")


@dataclass(frozen=True)
class QueryRequest:
    """A query as the protocol delivered it: text, the client's Accept header and the dataset parameters."""

    sparql: str
    accept: str | None = None
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()
    base_iri: str | None = None

    def reads_only_the_default_graph(self) -> bool:
        """No dataset parameters and no FROM or GRAPH in the text."""
        if self.default_graphs or self.named_graphs:
            return False
        return not any(token.kind == "word" and token.text.upper() in ("FROM", "GRAPH") for token in tokenize(self.sparql))


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


def is_empty(answer: Answer) -> bool:
    """Whether a 200 answer holds no solution, a false boolean or no triple (read back from its body)."""
    media_type = answer.content_type.split(";", 1)[0]
    if media_type == "text/csv":  # pyoxigraph does not parse CSV results back: a header line alone, or false
        lines = answer.body.splitlines()
        return lines == [b"false"] or (len(lines) <= 1 and lines != [b"true"])
    if media_type in RESULTS_FORMATS:
        results = pyoxigraph.parse_query_results(answer.body, format=RESULTS_FORMATS[media_type])
        if isinstance(results, QueryBoolean):
            return not bool(results)
        return next(iter(results), None) is None
    return next(iter(pyoxigraph.parse(answer.body, format=GRAPH_FORMATS[media_type])), None) is None


def with_default_graph_hint(answer: Answer, request: QueryRequest, has_named_graphs: Callable[[], bool]) -> Answer:
    """The answer, with the hint header when it is empty because the data is in named graphs (see the module docstring)."""
    if answer.status != 200 or not request.reads_only_the_default_graph():
        return answer
    try:
        if not is_empty(answer) or not has_named_graphs():
            return answer
    except (SyntaxError, ValueError, OSError, StoreError):  # no hint rather than no answer
        return answer
    return replace(answer, headers={**answer.headers, HINT_HEADER: DEFAULT_GRAPH_HINT})


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
            base_iri=request.base_iri,
        )
    except SyntaxError as error:
        return Answer.error(400, f"malformed query: {error}")
    except ValueError as error:
        return Answer.error(400, f"bad dataset parameter: {error}")
    try:
        answer = write_result(result, request.accept)
    except (OSError, RuntimeError, ValueError) as error:
        return Answer.error(500, f"query evaluation failed: {error}")
    if union_default_graph:
        return answer
    return with_default_graph_hint(answer, request, lambda: next(iter(store.named_graphs()), None) is not None)
