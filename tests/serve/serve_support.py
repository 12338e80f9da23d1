"""Helpers the serve tests share: the update token of the writable servers and a plain HTTP request."""

from __future__ import annotations

import http.client

from claimgraph.serve.server import ClaimgraphServer

UPDATE_TOKEN = "test-update-token-0123456789"


def request(server: ClaimgraphServer, method: str, path: str, body: bytes | str = b"", headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), int(port), timeout=30)
    try:
        payload = body.encode("utf-8") if isinstance(body, str) else body
        connection.request(method, path, body=payload or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()
