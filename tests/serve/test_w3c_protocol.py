"""The W3C SPARQL 1.1 Protocol tests (tests/serve/w3c_protocol/, see its README) against a real `claimgraph serve`.

Each case gets a fresh store holding the case's graph data and a server with the update token that
answers the manifest's Host (``www.example``, through --allow-host). The manifest sends every request to
one endpoint, ``/sparql/``; this server has separate endpoints, so a request that carries an update
(a ``application/sparql-update`` body, an ``update=`` form field or URL parameter) goes to ``/update``
with the token, any other to ``/query``. Cases the server deliberately does not support are xfail.
"""

from __future__ import annotations

import http.client
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph
import pytest
from pyoxigraph import NamedNode, QueryBoolean, QuerySolutions
from serve_support import UPDATE_TOKEN

from claimgraph.serve.formats import GRAPH_FORMATS, RESULTS_FORMATS
from claimgraph.serve.server import ServeOptions, running_server

rdflib = pytest.importorskip("rdflib")
HERE = Path(__file__).resolve().parent / "w3c_protocol"
MF = rdflib.Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = rdflib.Namespace("http://www.w3.org/2011/http#")
CNT = rdflib.Namespace("http://www.w3.org/2011/content#")
UT = rdflib.Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
USING_PARAMETERS = "using-graph-uri and using-named-graph-uri are not supported (400); updates name their graphs with USING / WITH"
XFAIL = {
    "update_dataset_default_graph": USING_PARAMETERS,
    "update_dataset_default_graphs": USING_PARAMETERS,
    "update_dataset_named_graphs": USING_PARAMETERS,
    "update_dataset_full": USING_PARAMETERS,
    "update_base_uri": "updates run without a base IRI (the Store interface takes none): a relative IRI is a syntax error, 400",
    "query_multiple_dataset": "the manifest encodes both named graphs in one named-graph-uri value, which is one (unknown) graph IRI",
}


@dataclass
class HttpRequest:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    statuses: tuple[int, ...] = ()
    result_format: str | None = None
    boolean: bool | None = None
    expectation: str | None = None

    @property
    def is_update(self) -> bool:
        media_type = self.headers.get("content-type", "").split(";")[0].strip()
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        return media_type == "application/sparql-update" or self.body.startswith(b"update=") or "update" in query


@dataclass
class Case:
    name: str
    graphs: dict[str, Path]
    requests: list[HttpRequest]

    @property
    def kind(self) -> str:
        return "query" if self.name.startswith(("query_", "bad_query", "bad_multiple_queries")) else "update"


def _items(graph: rdflib.Graph, head: rdflib.term.Node) -> list[rdflib.term.Node]:
    return list(rdflib.collection.Collection(graph, head))


def _request(graph: rdflib.Graph, node: rdflib.term.Node) -> HttpRequest:
    headers = {}
    for header_list in graph.objects(node, HT.headers):
        for header in _items(graph, header_list):
            headers[str(graph.value(header, HT.fieldName)).lower()] = str(graph.value(header, HT.fieldValue))
    body = b""
    content = graph.value(node, HT.body)
    if content is not None:
        encoding = str(graph.value(content, CNT.characterEncoding) or "UTF-8").lower()
        body = str(graph.value(content, CNT.chars)).encode(encoding)
    response = graph.value(node, HT.resp)
    statuses = tuple(sorted(int(str(status)[-3]) for status in graph.objects(response, MF.expectedStatus)))
    boolean = graph.value(response, MF.expectedBoolean)
    expected_format = graph.value(response, MF.expectedFormat)
    expectation = graph.value(response, MF.expectation)
    return HttpRequest(str(graph.value(node, HT.methodName)), str(graph.value(node, HT.absolutePath)), headers, body, statuses,
                       str(expected_format) if expected_format is not None else None,
                       bool(boolean.toPython()) if boolean is not None else None,
                       str(expectation) if expectation is not None else None)


def load_cases() -> list[Case]:
    graph = rdflib.Graph().parse(HERE / "manifest.ttl", format="turtle", publicID=(HERE / "manifest.ttl").as_uri())
    manifest = next(graph.subjects(rdflib.RDF.type, MF.Manifest))
    cases = []
    for entry in _items(graph, graph.value(manifest, MF.entries)):
        data = {str(graph.value(item, rdflib.RDFS.label)): Path(urllib.parse.urlsplit(str(graph.value(item, UT.graph))).path)
                for item in graph.objects(entry, UT.graphData)}
        action = graph.value(entry, MF.action)
        requests = [_request(graph, node) for node in _items(graph, graph.value(action, HT.requests))]
        cases.append(Case(str(entry).rsplit("#", 1)[1], data, requests))
    return cases


CASES = load_cases()


def test_the_manifest_holds_20_query_and_14_update_cases() -> None:
    assert [sum(case.kind == kind for case in CASES) for kind in ("query", "update")] == [20, 14]


def check_result(request: HttpRequest, content_type: str, body: bytes) -> None:
    media_type = content_type.split(";")[0].strip()
    if request.result_format in ("boolean", "tabular"):
        assert media_type in RESULTS_FORMATS, content_type
        results = pyoxigraph.parse_query_results(body, format=RESULTS_FORMATS[media_type])
        assert isinstance(results, QueryBoolean if request.result_format == "boolean" else QuerySolutions)
        if request.boolean is not None:
            assert bool(results) is request.boolean
        if request.expectation is not None:  # one ?o, an IRI other than the relative <test>
            (solution,) = list(results)  # type: ignore[arg-type]
            assert isinstance(solution["o"], NamedNode) and solution["o"].value != "test"
    elif request.result_format == "RDF":
        assert media_type in GRAPH_FORMATS, content_type
        list(pyoxigraph.parse(body, format=GRAPH_FORMATS[media_type]))


def send(port: int, request: HttpRequest) -> tuple[int, str, bytes]:
    endpoint = "/update" if request.is_update else "/query"
    path = request.path.replace("/sparql/", endpoint, 1)
    headers = {"Host": "www.example", **request.headers}
    if request.is_update:
        headers["Authorization"] = f"Bearer {UPDATE_TOKEN}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(request.method, path, body=request.body or None, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def run_case(case: Case, folder: Path) -> None:
    from claimgraph.store import EmbeddedStore

    with EmbeddedStore(folder / "store") as store:
        for name, data in case.graphs.items():
            triples = [quad.triple for quad in pyoxigraph.parse(path=str(HERE / data.name), format=pyoxigraph.RdfFormat.N_TRIPLES)]
            store.replace_graph(NamedNode(name), triples)
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, allowed_hosts=("www.example",), log_requests=False)
    with running_server(folder / "store", options) as server:
        for request in case.requests:
            status, content_type, body = send(int(server.server_address[1]), request)
            assert status // 100 in request.statuses, f"{request.method} {request.path}: {status} {body[:300]!r}"
            if status // 100 == 2:
                check_result(request, content_type, body)


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case.name, marks=[pytest.mark.xfail(reason=XFAIL[case.name], strict=True)] if case.name in XFAIL else [])
    for case in CASES
])
def test_protocol_case(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)
