"""The remote backend: a SPARQL 1.1 Query + Update endpoint pair over HTTP."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pyoxigraph
from pyoxigraph import NamedNode, Quad, QueryResultsFormat, RdfFormat

from claimgraph.errors import StoreError
from claimgraph.store.base import QueryResult, Store


class RemoteStore(Store):
    """A SPARQL 1.1 Query + Update endpoint pair over plain HTTP.

    ``from_base_url`` follows the Oxigraph server layout (``/query``, ``/update``);
    other servers (Fuseki, GraphDB, QLever, Virtuoso) pass their own URLs.
    """

    def __init__(self, query_url: str, update_url: str, timeout: float = 120.0) -> None:
        self.query_url = query_url
        self.update_url = update_url
        self.location = query_url
        self.timeout = timeout

    @classmethod
    def from_base_url(cls, base_url: str) -> RemoteStore:
        base = base_url.rstrip("/")
        return cls(f"{base}/query", f"{base}/update")

    def _post(self, url: str, body: str, content_type: str, accept: str | None = None) -> tuple[str, bytes]:
        headers = {"Content-Type": f"{content_type}; charset=utf-8"}
        if accept:
            headers["Accept"] = accept
        request = urllib.request.Request(url, data=body.encode("utf-8"), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace").strip().splitlines()
            reason = detail[0][:300] if detail else error.reason
            what = "rejected the request as malformed (SPARQL syntax?)" if error.code == 400 else "failed"
            raise StoreError(f"SPARQL endpoint {url} {what}, HTTP {error.code}: {reason}") from error
        except (urllib.error.URLError, OSError) as error:
            raise StoreError(f"cannot reach SPARQL endpoint {url}: {error}") from error

    def _query(self, sparql: str) -> QueryResult:
        content_type, payload = self._post(
            self.query_url,
            sparql,
            "application/sparql-query",
            accept="application/sparql-results+json, application/n-triples;q=0.9",
        )
        if "sparql-results+json" in content_type:
            return pyoxigraph.parse_query_results(payload, QueryResultsFormat.JSON)
        return (quad.triple for quad in pyoxigraph.parse(payload, format=RdfFormat.N_TRIPLES))

    def _update(self, sparql: str) -> None:
        self._post(self.update_url, sparql, "application/sparql-update")

    def quads(self, graph: NamedNode | None = None) -> Iterator[Quad]:
        if graph is None:
            rows = self.select("SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }")
            for row in rows:
                yield Quad(row["s"], row["p"], row["o"], row["g"])  # type: ignore[arg-type]
            return
        rows = self.select("SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": graph})
        for row in rows:
            yield Quad(row["s"], row["p"], row["o"], graph)  # type: ignore[arg-type]
