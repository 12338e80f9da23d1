"""Who may reach the server: only loopback Host names unless widened (DNS rebinding), CORS only for the
origins given, and OPTIONS answered as a preflight rather than with an HTML 501."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import request

from claimgraph.serve.access import host_name
from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

ASK = "/query?query=ASK%7B%7D"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClaimgraphServer]:
    """A read-only server with default options over an empty store."""
    from claimgraph.store import EmbeddedStore

    location = tmp_path_factory.mktemp("access") / "store"
    EmbeddedStore(location).close()
    with running_server(location, ServeOptions(port=0, workers=1, log_requests=False)) as server:
        yield server


def port(server: ClaimgraphServer) -> int:
    return int(server.server_address[1])


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"])
def test_loopback_host_names_are_answered(served: ClaimgraphServer, host: str) -> None:
    assert request(served, "GET", ASK, headers={"Host": f"{host}:{port(served)}"})[0] == 200


@pytest.mark.parametrize("host", ["rebind.attacker.example", "rebind.attacker.example:7879", "0.0.0.0", "192.168.1.20"])
def test_any_other_host_is_refused_with_a_plain_message(served: ClaimgraphServer, host: str) -> None:
    status, headers, body = request(served, "GET", ASK, headers={"Host": host})
    assert status == 403 and headers["content-type"].startswith("text/plain")
    assert b"--allow-host" in body
    assert request(served, "GET", "/health", headers={"Host": host})[0] == 403


def test_allow_host_widens_the_list(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, allowed_hosts=("claimgraph.internal",), log_requests=False)
    with running_server(writable_store, options) as server:
        assert request(server, "GET", ASK, headers={"Host": f"claimgraph.internal:{port(server)}"})[0] == 200
        assert request(server, "GET", ASK, headers={"Host": "other.internal"})[0] == 403


def test_host_names_lose_their_port() -> None:
    assert [host_name(value) for value in ("Example.org:80", "[::1]:7879", "::1", "localhost")] == ["example.org", "::1", "::1", "localhost"]


def test_cors_is_off_by_default_and_options_is_a_plain_204(served: ClaimgraphServer) -> None:
    origin = {"Origin": "https://app.example"}
    _, headers, _ = request(served, "GET", ASK, headers=origin)
    assert "access-control-allow-origin" not in headers
    status, headers, body = request(served, "OPTIONS", "/query", headers={**origin, "Access-Control-Request-Method": "POST"})
    assert status == 204 and body == b""
    assert headers["allow"] == "GET, HEAD, POST, OPTIONS"
    assert "access-control-allow-origin" not in headers


def test_cors_answers_only_the_origins_given(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, cors_origins=("https://app.example",), log_requests=False)
    with running_server(writable_store, options) as server:
        _, headers, _ = request(server, "GET", ASK, headers={"Origin": "https://app.example"})
        assert headers["access-control-allow-origin"] == "https://app.example" and headers["vary"] == "Origin"
        assert "X-Claimgraph-Hint" in headers["access-control-expose-headers"]
        _, headers, _ = request(server, "GET", ASK, headers={"Origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in headers
        preflight = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "content-type"}
        status, headers, _ = request(server, "OPTIONS", "/update", headers=preflight)
        assert status == 204 and headers["access-control-allow-origin"] == "https://app.example"
        assert headers["access-control-allow-methods"] == "POST, OPTIONS"
        assert "Content-Type" in headers["access-control-allow-headers"]
        assert request(server, "GET", "/nowhere", headers={"Origin": "https://app.example"})[1]["access-control-allow-origin"]
