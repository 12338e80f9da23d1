"""``query --allow-service`` against an endpoint that answers something other than SPARQL results: one line naming it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.store import EmbeddedStore

TRIPLES = b"<http://example.org/a> <http://example.org/b> <http://example.org/c> .\n"


class _NTriplesHandler(BaseHTTPRequestHandler):
    """Answers every request with N-Triples, as a Graph Store or a file server would."""

    def _answer(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/n-triples")
        self.send_header("Content-Length", str(len(TRIPLES)))
        self.end_headers()
        self.wfile.write(TRIPLES)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def ntriples_endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NTriplesHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sparql"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_a_service_answering_ntriples_is_one_line_naming_it_and_the_content_type(
        ntriples_endpoint: str, fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    EmbeddedStore(tmp_path / "store").close()
    query = f"SELECT * WHERE {{ SERVICE <{ntriples_endpoint}> {{ ?s ?p ?o }} }}"
    code = main(["--store", str(tmp_path / "store"), "query", "--format", fmt, "--allow-service", ntriples_endpoint, query])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"error: the SERVICE endpoint {ntriples_endpoint} answered with content type application/n-triples, "
                   "not SPARQL query results (application/sparql-results+json or +xml); is it a SPARQL query endpoint?\n")
