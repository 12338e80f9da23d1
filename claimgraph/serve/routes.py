"""What the server answers, path by path: SPARQL query and update, Graph Store reads, the viewer, health.

| path | methods | what |
| --- | --- | --- |
| ``/query`` (also ``/sparql``) | GET, POST | SPARQL 1.1 query |
| ``/update`` | POST | SPARQL 1.1 update, with the update token |
| ``/store?graph=IRI`` or ``/store?default`` | GET, HEAD | Graph Store Protocol read of one graph |
| ``/viewer/`` | GET, HEAD | the browser viewer and its JSON API (``/viewer/api/...``) |
| ``/health`` | GET, HEAD | ``{"status": "ok", ...}`` when the store answers |

Every path answers ``OPTIONS`` (204 with ``Allow``, and the CORS preflight
headers for an allowed origin). A request with a Host the server does not
answer to is refused first (403; see ``access``). An update that the store
refuses (a syntax error, a graph that does not exist for CLEAR) is the
client's error, 400; only a store that cannot be written is 500.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass, field, replace

import pyoxigraph
from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.errors import StoreError
from claimgraph.rdf.vocab import PREFIXES
from claimgraph.serve.access import Access
from claimgraph.serve.evaluate import Answer
from claimgraph.serve.executors import QueryExecutor
from claimgraph.serve.formats import GRAPH_FORMATS, with_charset
from claimgraph.serve.negotiation import choose
from claimgraph.serve.policy import nesting_refusal, refusal
from claimgraph.serve.protocol import ProtocolError, Request, query_request, update_text
from claimgraph.serve.tokens import UpdateToken
from claimgraph.serve.viewer import api as viewer_api
from claimgraph.serve.viewer.files import STATIC_DIR, VIEWER_HEADERS, content_type, static_file

VIEWER_PREFIX = "/viewer/"
JSON_TYPE = "application/json; charset=utf-8"
STORAGE_FAILURES = ("IO error", "Corruption", "No space left")  # RocksDB's words for a store that cannot be written
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


def update_failure_status(error: StoreError) -> int:
    """400 when the store refused the update itself (syntax, evaluation), 500 when it could not be written."""
    cause = error.__cause__
    if isinstance(cause, RuntimeError) and any(marker in str(cause) for marker in STORAGE_FAILURES):
        return 500
    if isinstance(cause, (SyntaxError, ValueError, RuntimeError)):
        return 400
    return 400 if getattr(cause, "code", None) == 400 else 500


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
    access: Access = field(default_factory=lambda: Access.build("127.0.0.1"))
    base_url: str = ""
    warmed: threading.Event = field(default_factory=threading.Event)

    def warm_viewer(self) -> None:
        """Compute the viewer's slow answers (every hub with its members, the corpus of papers and links) for the
        store's current state, so that the first hub search or corpus view of a user is answered from the cache.
        ``warmed`` is set when it is done (or could not be done)."""
        try:
            for route in ("hubs", "corpus"):
                viewer_api.answer(self.contexts(), route, {}, self.counts, self.state())
        except StoreError:
            pass
        finally:
            self.warmed.set()

    def handle(self, request: Request) -> Answer:
        """The answer to one request, with the CORS headers its origin may get."""
        refused_host = self.access.host_refusal(request.header("Host"))
        if refused_host is not None:
            return Answer.error(403, refused_host)
        answer = self.route(request)
        cors = self.access.cors_headers(request.headers)
        return replace(answer, headers={**answer.headers, **cors}) if cors else answer

    def preflight(self, request: Request, kind: str) -> Answer:
        allowed = ", ".join((*ALLOWED[kind], "OPTIONS")) if kind in ALLOWED else "OPTIONS"
        headers = {"Allow": allowed, **self.access.preflight_headers(request.headers, allowed)}
        return Answer(204, "text/plain; charset=utf-8", b"", headers)

    def route(self, request: Request) -> Answer:
        path = request.path
        kind = "viewer" if path == VIEWER_PREFIX.rstrip("/") or path.startswith(VIEWER_PREFIX) else path
        if path == "/":
            return redirect(302, VIEWER_PREFIX)
        if request.method == "OPTIONS":
            return self.preflight(request, kind)
        if kind not in ALLOWED:
            return Answer.error(404, f"nothing at {path}; this server has /query, /update, /store, /viewer/ and /health")
        if request.method not in ALLOWED[kind]:
            allowed = ", ".join((*ALLOWED[kind], "OPTIONS"))
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
        too_deep = nesting_refusal(parsed.sparql)
        if too_deep is not None:
            return Answer.error(400, too_deep)
        refused = refusal(parsed.sparql, self.allowed_services)
        if refused is not None:
            return Answer.error(403, refused.message)
        if self.base_url:
            parsed = replace(parsed, base_iri=self.base_url + request.path)
        return self.executor.run(parsed)

    def update(self, request: Request) -> Answer:
        denied = self.token.refusal(request.header("Authorization"))
        if denied is not None:
            return denied
        text = update_text(request)
        too_deep = nesting_refusal(text)
        if too_deep is not None:
            return Answer.error(400, too_deep)
        refused = refusal(text, self.allowed_services)
        if refused is not None:
            return Answer.error(403, refused.message)
        try:
            self.contexts().store.update(text)
        except StoreError as error:
            return Answer.error(update_failure_status(error), str(error))
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
            triples = store.construct("CONSTRUCT WHERE { ?s ?p ?o }")
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
