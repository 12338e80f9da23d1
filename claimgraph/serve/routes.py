"""What the server answers, path by path: SPARQL query and update, Graph Store reads, the viewer, health.

| path | methods | what |
| --- | --- | --- |
| ``/query`` (also ``/sparql``) | GET, POST | SPARQL 1.1 query |
| ``/update`` | POST | SPARQL 1.1 update, with the update token |
| ``/store?graph=IRI`` or ``/store?default`` | GET, HEAD | Graph Store Protocol read of one graph |
| ``/viewer/`` | GET, HEAD | the browser viewer and its JSON API (``/viewer/api/...``) |
| ``/health`` | GET, HEAD | ``{"status": "ok", ...}`` when the store answers |
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass, field

import pyoxigraph
from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.errors import StoreError
from claimgraph.rdf.vocab import PREFIXES
from claimgraph.serve.evaluate import Answer
from claimgraph.serve.executors import QueryExecutor
from claimgraph.serve.formats import GRAPH_FORMATS, with_charset
from claimgraph.serve.negotiation import choose
from claimgraph.serve.policy import refusal
from claimgraph.serve.protocol import ProtocolError, Request, query_request, update_text
from claimgraph.serve.tokens import UpdateToken
from claimgraph.serve.viewer import api as viewer_api
from claimgraph.serve.viewer.files import STATIC_DIR, VIEWER_HEADERS, content_type, static_file

VIEWER_PREFIX = "/viewer/"
JSON_TYPE = "application/json; charset=utf-8"
ALLOWED = {
    "/query": ("GET", "HEAD", "POST"),
    "/sparql": ("GET", "HEAD", "POST"),
    "/update": ("POST",),
    "/store": ("GET", "HEAD"),
    "/health": ("GET", "HEAD"),
    "viewer": ("GET", "HEAD"),
}


def json_answer(status: int, payload: object, headers: dict[str, str] | None = None) -> Answer:
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return Answer(status, JSON_TYPE, body, {"Cache-Control": "no-store", **(headers or {})})


def redirect(status: int, location: str) -> Answer:
    return Answer(status, "text/plain; charset=utf-8", f"see {location}\n".encode(), {"Location": location})


@dataclass
class Service:
    """The server's state: where queries run, the store handle, the token and the SERVICE allow-list."""

    executor: QueryExecutor
    contexts: Callable[[], Context]
    token: UpdateToken
    allowed_services: Collection[str] = ()
    location: str = ""
    state: Callable[[], Hashable | None] = lambda: None
    counts: viewer_api.CountCache = field(default_factory=viewer_api.CountCache)

    def handle(self, request: Request) -> Answer:
        path = request.path
        kind = "viewer" if path == VIEWER_PREFIX.rstrip("/") or path.startswith(VIEWER_PREFIX) else path
        if path == "/":
            return redirect(302, VIEWER_PREFIX)
        if kind not in ALLOWED:
            return Answer.error(404, f"nothing at {path}; this server has /query, /update, /store, /viewer/ and /health")
        if request.method not in ALLOWED[kind]:
            allowed = ", ".join(ALLOWED[kind])
            return Answer.error(405, f"{request.method} is not allowed on {path}; use {allowed}", {"Allow": allowed})
        try:
            if kind in ("/query", "/sparql"):
                return self.query(request)
            if kind == "/update":
                return self.update(request)
            if kind == "/store":
                return self.graph(request)
            if kind == "/health":
                return self.health()
            return self.viewer(request)
        except ProtocolError as error:
            return error.answer

    def query(self, request: Request) -> Answer:
        parsed = query_request(request)
        refused = refusal(parsed.sparql, self.allowed_services)
        if refused is not None:
            return Answer.error(403, refused.message)
        return self.executor.run(parsed)

    def update(self, request: Request) -> Answer:
        denied = self.token.refusal(request.header("Authorization"))
        if denied is not None:
            return denied
        text = update_text(request)
        refused = refusal(text, self.allowed_services)
        if refused is not None:
            return Answer.error(403, refused.message)
        try:
            self.contexts().store.update(text)
        except StoreError as error:
            malformed = isinstance(error.__cause__, SyntaxError) or getattr(error.__cause__, "code", None) == 400
            return Answer.error(400 if malformed else 500, str(error))
        return Answer(204, "text/plain; charset=utf-8", b"")

    def graph(self, request: Request) -> Answer:
        """Graph Store Protocol, indirect identification: ``?graph=IRI`` or ``?default``."""
        graphs, default = request.params.get("graph", []), "default" in request.params
        if len(graphs) + int(default) != 1:
            return Answer.error(400, "name one graph: ?graph=<IRI> or ?default")
        media_type = choose(request.header("Accept"), tuple(GRAPH_FORMATS))
        if media_type is None:
            return Answer.error(406, f"cannot send a graph in any type of Accept: {request.header('Accept')}; offered: {', '.join(GRAPH_FORMATS)}")
        store = self.contexts().store
        if default:
            triples = list(store.query("CONSTRUCT WHERE { ?s ?p ?o }"))  # type: ignore[arg-type]
        else:
            try:
                graph = NamedNode(graphs[0])
            except ValueError as error:
                return Answer.error(400, f"graph {graphs[0]!r} is not an IRI: {error}")
            if not store.has_graph(graph):
                return Answer.error(404, f"no graph <{graphs[0]}> in the store")
            triples = store.triples(graph)
        body = pyoxigraph.serialize(triples, format=GRAPH_FORMATS[media_type], prefixes=PREFIXES)
        return Answer(200, with_charset(media_type), body or b"")

    def health(self) -> Answer:
        try:
            self.contexts().store.ask("ASK {}")
        except StoreError as error:
            return json_answer(503, {"status": "unavailable", "error": str(error)})
        running = getattr(self.executor, "running", None)
        return json_answer(200, {"status": "ok", "store": self.location, "updates": self.token.enabled, "queries_running": running})

    def viewer(self, request: Request) -> Answer:
        path = request.path
        if path == VIEWER_PREFIX.rstrip("/"):
            return redirect(301, VIEWER_PREFIX)
        relative = path[len(VIEWER_PREFIX):]
        if relative.startswith("api/"):
            try:
                route = relative[len("api/"):]
                status, payload = viewer_api.answer(self.contexts(), route, request.params, self.counts, self.state())
            except StoreError as error:
                status, payload = 503, {"error": f"the store cannot be read: {error}"}
            return json_answer(status, payload, VIEWER_HEADERS)
        found = static_file(relative, STATIC_DIR)
        if found is None:
            return Answer.error(404, f"no viewer file {relative!r}", dict(VIEWER_HEADERS))
        return Answer(200, content_type(found), found.read_bytes(), {**VIEWER_HEADERS, "Cache-Control": "no-cache"})
