"""The remote backend: any SPARQL 1.1 server through its query and update endpoints, and its Graph Store if it has one.

Queries and updates follow the SPARQL 1.1 Protocol (a POST with the SPARQL
text as the body); whole graphs are read through the Graph Store HTTP
Protocol when a ``gsp_url`` is known, else through CONSTRUCT. Answers are
parsed by pyoxigraph, so both backends hand back the same term objects.
Every call goes through ``claimgraph.store.http`` (keep-alive, a total
deadline, retries, auth from the environment).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable, Iterator

import pyoxigraph
from pyoxigraph import NamedNode, Quad, QueryResultsFormat, QuerySolutions, RdfFormat

from claimgraph.errors import StoreError
from claimgraph.rdf.binding import tokenize
from claimgraph.store.base import QueryResult, Store, named_graphs
from claimgraph.store.http import HttpClient, HttpSettings, Response, authorization_from_environment, check_url, first_line

_RESULT_FORMATS = {
    "application/sparql-results+json": QueryResultsFormat.JSON,
    "application/sparql-results+xml": QueryResultsFormat.XML,
    "text/tab-separated-values": QueryResultsFormat.TSV,
    "text/csv": QueryResultsFormat.CSV,
}
_QUERY_ACCEPT = "application/sparql-results+json, application/n-triples;q=0.9, application/sparql-results+xml;q=0.8, text/turtle;q=0.7"
_GRAPH_ACCEPT = "application/n-triples, text/turtle;q=0.9"


class RemoteStore(Store):
    """A SPARQL 1.1 server: ``query_url``, ``update_url`` and, optionally, a Graph Store ``gsp_url``.

    ``from_base_url`` follows the Oxigraph server layout (``/query``,
    ``/update``, ``/store``); other servers (Fuseki, GraphDB, Virtuoso,
    Stardog, Neptune) pass their own URLs.
    """

    def __init__(self, query_url: str, update_url: str | None = None, gsp_url: str | None = None,
                 settings: HttpSettings | None = None, authorization: str | None = None) -> None:
        for url in (query_url, update_url, gsp_url):
            if url:
                check_url(url)
        self.query_url = query_url
        self.update_url = update_url or query_url
        self.gsp_url = gsp_url
        self.location = query_url
        self.settings = settings or HttpSettings()
        self.http = HttpClient(self.settings, authorization if authorization is not None else authorization_from_environment())
        self.shared = True
        self.empty_graph_pattern = True
        self.dataset_reads = gsp_url is not None
        """Whether a GET of the Graph Store without a graph answers the whole dataset (Oxigraph does; the protocol does not ask it)."""

    @classmethod
    def from_base_url(cls, base_url: str, settings: HttpSettings | None = None) -> RemoteStore:
        base = base_url.rstrip("/")
        return cls(f"{base}/query", f"{base}/update", f"{base}/store", settings)

    @property
    def timeout(self) -> float:
        return self.settings.timeout

    def close(self) -> None:
        self.http.close()

    # ------------------------------------------------------------ protocol

    def _call(self, url: str, body: str, content_type: str, accept: str | None, idempotent: bool) -> Response:
        if content_type == "application/x-www-form-urlencoded":
            headers, payload = {"Content-Type": content_type}, body.encode("ascii")
        else:
            headers, payload = {"Content-Type": f"{content_type}; charset=utf-8"}, body.encode("utf-8")
        if accept:
            headers["Accept"] = accept
        response = self.http.request("POST", url, payload, headers, idempotent=idempotent)
        return self._checked(url, response)

    def _checked(self, url: str, response: Response) -> Response:
        if response.status >= 400:
            what = "rejected the request as malformed (SPARQL syntax?)" if response.status == 400 else "refused the request"
            if response.status in (401, 403):
                what = "refused the credentials (set CLAIMGRAPH_STORE_USER/PASSWORD or CLAIMGRAPH_STORE_TOKEN)"
            raise StoreError(f"SPARQL endpoint {url} {what}, HTTP {response.status}: {first_line(response.body)}")
        if response.status >= 300:
            raise StoreError(f"SPARQL endpoint {url} answered HTTP {response.status} (a redirect): give the final URL of the endpoint")
        media = _media_type(response.content_type)
        if media in ("text/html", "application/xhtml+xml"):
            raise StoreError(
                f"SPARQL endpoint {url} answered an HTML page (HTTP {response.status}), not SPARQL results: "
                f"is it the right URL for this protocol? It says: {first_line(_strip_tags(response.body))}"
            )
        return response

    def _query(self, sparql: str) -> QueryResult:
        # A URL-encoded form: every SPARQL 1.1 server takes it (Virtuoso 7 never answers a POST of application/sparql-query).
        form = urllib.parse.urlencode({"query": sparql})
        accept = _GRAPH_ACCEPT if _query_form(sparql) in ("CONSTRUCT", "DESCRIBE") else _QUERY_ACCEPT
        response = self._call(self.query_url, form, "application/x-www-form-urlencoded", accept, idempotent=True)
        media = _media_type(response.content_type)
        try:
            if media in _RESULT_FORMATS:
                parsed = pyoxigraph.parse_query_results(response.body, _RESULT_FORMATS[media])
                if isinstance(parsed, QuerySolutions):
                    for _ in parsed:
                        pass  # the parser is lazy: a bad answer is found here, not in the caller's loop
                    parsed = pyoxigraph.parse_query_results(response.body, _RESULT_FORMATS[media])
                return parsed
            rdf_format = RdfFormat.from_media_type(media) if media else None
            if rdf_format is None:
                raise StoreError(f"SPARQL endpoint {self.query_url} answered {media or 'no content type'}, not SPARQL results: "
                                 f"{first_line(response.body)}")
            return iter([quad.triple for quad in pyoxigraph.parse(response.body, format=rdf_format)])
        except SyntaxError as error:
            raise StoreError(f"SPARQL endpoint {self.query_url} answered {media} that does not parse ({error}): "
                             f"{first_line(response.body)}") from error


    def _update(self, sparql: str) -> None:
        self._call(self.update_url, sparql, "application/sparql-update", None, idempotent=False)

    # ------------------------------------------------------------ graphs

    def quads(self, graph: NamedNode | None = None) -> Iterator[Quad]:
        if graph is not None:
            yield from (Quad(t.subject, t.predicate, t.object, graph) for t in self._graph_triples(graph))
            return
        if self.dataset_reads and self.gsp_url:
            dataset = self._dataset()
            if dataset is not None:
                yield from dataset
                return
        for name in self.graph_names():
            yield from self.quads(name)

    def _graph_triples(self, graph: NamedNode) -> Iterator[pyoxigraph.Triple]:
        """A graph's triples: a Graph Store GET when there is one, else a CONSTRUCT."""
        if self.gsp_url:
            url = _with_query(self.gsp_url, {"graph": graph.value})
            response = self.http.request("GET", url, None, {"Accept": _GRAPH_ACCEPT}, idempotent=True)
            if response.status == 404:
                return iter(())
            response = self._checked(self.gsp_url, response)
            rdf_format = RdfFormat.from_media_type(_media_type(response.content_type)) or RdfFormat.N_TRIPLES
            return (quad.triple for quad in pyoxigraph.parse(response.body, format=rdf_format))
        return iter(self.construct("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": graph}))

    def graph_names(self) -> list[NamedNode]:
        """The named graphs that hold triples, sorted by IRI.

        ``GRAPH ?g { }`` lists graphs from an index on Oxigraph; Virtuoso 7
        answers it with one row and no graph, so the first such answer switches
        this store to ``GRAPH ?g { ?s ?p ?o }``, which every engine answers.
        """
        if self.empty_graph_pattern:
            rows = self.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")
            if rows and not any("g" in row for row in rows):
                self.empty_graph_pattern = False
        if not self.empty_graph_pattern:
            rows = self.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return named_graphs(rows)

    def graph_ntriples(self, graph: NamedNode) -> bytes:
        """The graph as N-Triples: the Graph Store's answer as it came when it is N-Triples, else re-written."""
        if self.gsp_url:
            url = _with_query(self.gsp_url, {"graph": graph.value})
            response = self.http.request("GET", url, None, {"Accept": "application/n-triples"}, idempotent=True)
            if response.status == 404:
                return b""
            response = self._checked(self.gsp_url, response)
            if _media_type(response.content_type) == "application/n-triples":
                return response.body
        return super().graph_ntriples(graph)

    def _dataset(self) -> Iterator[Quad] | None:
        """Every named graph's quads in one Graph Store GET, or None when the server does not offer that."""
        assert self.gsp_url is not None
        response = self.http.request("GET", self.gsp_url, None, {"Accept": "application/n-quads"}, idempotent=True)
        if response.status >= 400 or _media_type(response.content_type) != "application/n-quads":
            self.dataset_reads = False
            return None
        return (quad for quad in pyoxigraph.parse(response.body, format=RdfFormat.N_QUADS) if isinstance(quad.graph_name, NamedNode))

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Add quads in bulk (not one transaction): Graph Store POSTs per graph when there is a Graph Store, else INSERT DATA."""
        if not self.gsp_url:
            super().add_quads(quads)
            return
        by_graph: dict[NamedNode, list[pyoxigraph.Triple]] = {}
        for quad in quads:
            if isinstance(quad.graph_name, NamedNode):
                by_graph.setdefault(quad.graph_name, []).append(quad.triple)
        for graph, triples in by_graph.items():
            body = pyoxigraph.serialize(triples, format=RdfFormat.N_TRIPLES)
            url = _with_query(self.gsp_url, {"graph": graph.value})
            headers = {"Content-Type": "application/n-triples"}
            self._checked(self.gsp_url, self.http.request("POST", url, body, headers, idempotent=True))


def _query_form(sparql: str) -> str:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first keyword after the prologue."""

    words = [token.text.upper() for token in tokenize(sparql) if token.kind == "word"]
    return next((word for word in words if word in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")), "SELECT")


def _media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _with_query(url: str, params: dict[str, str]) -> str:
    parts = urllib.parse.urlsplit(url)
    query = "&".join(filter(None, [parts.query, urllib.parse.urlencode(params)]))
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def _strip_tags(body: bytes) -> bytes:
    """An HTML page's text, roughly: enough for the first line of an error message."""
    import re

    text = re.sub(rb"(?is)<(script|style|head)\b.*?</\1>", b" ", body[:20000])
    return re.sub(rb"<[^>]*>", b"\n", text)
