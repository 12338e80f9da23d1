"""Which browsers and names may reach the server: the Host allow-list and CORS.

Host: a web page on another site can make a browser send requests to
``127.0.0.1`` by pointing its own domain name at that address (DNS
rebinding); the browser then sends that domain in the ``Host`` header. The
server answers only requests whose Host is a loopback name (``localhost``,
``127.0.0.1``, ``[::1]``), the address it is bound to, or a name given with
``--allow-host``; any other gets 403. A request without a Host header (HTTP/1.0
tools) is answered: browsers always send one.

CORS: off unless origins are given with ``--cors ORIGIN`` (``*`` for any).
A request whose ``Origin`` is on the list gets ``Access-Control-Allow-Origin``
naming it; a preflight ``OPTIONS`` gets the methods and headers it may use.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("", "0.0.0.0", "::")  # a wildcard bind address is not a name anyone should send
PREFLIGHT_MAX_AGE = "600"
ALLOWED_REQUEST_HEADERS = "Accept, Authorization, Content-Type"
EXPOSED_HEADERS = "X-Claimgraph-Hint, Retry-After"  # what a page on an allowed origin may read besides the simple headers


def host_name(header: str) -> str:
    """The name of a Host header without its port, lower case: ``[::1]:7879`` -> ``::1``."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


@dataclass(frozen=True)
class Access:
    """The Host names and CORS origins the server accepts."""

    hosts: frozenset[str]
    origins: frozenset[str] = frozenset()

    @classmethod
    def build(cls, bound_host: str, allowed_hosts: Collection[str] = (), cors_origins: Collection[str] = ()) -> Access:
        names = {*LOOPBACK_NAMES, *(host_name(name) for name in allowed_hosts)}
        if host_name(bound_host) not in WILDCARDS:
            names.add(host_name(bound_host))
        return cls(frozenset(names), frozenset(origin.rstrip("/") for origin in cors_origins))

    def host_refusal(self, host: str | None) -> str | None:
        """Why the Host header is refused, else None."""
        if host is None or host_name(host) in self.hosts:
            return None
        return (f"the Host {host.strip()!r} is not one this server answers to; "
                "its operator can allow it with --allow-host NAME")

    def cors_headers(self, headers: Mapping[str, str]) -> dict[str, str]:
        """The CORS headers for a request from its Origin (none when the origin is not allowed)."""
        origin = headers.get("Origin")
        if not self.origins or origin is None:
            return {}
        if "*" in self.origins:
            return {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED_HEADERS}
        if origin.rstrip("/") in self.origins:
            return {"Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS, "Vary": "Origin"}
        return {}

    def preflight_headers(self, headers: Mapping[str, str], methods: str) -> dict[str, str]:
        """The headers of an answer to a preflight OPTIONS (CORS ones only for an allowed origin)."""
        allowed = self.cors_headers(headers)
        if not allowed:
            return {}
        return {**allowed, "Access-Control-Allow-Methods": methods,
                "Access-Control-Allow-Headers": ALLOWED_REQUEST_HEADERS, "Access-Control-Max-Age": PREFLIGHT_MAX_AGE}
