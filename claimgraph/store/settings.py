"""How calls to a remote SPARQL server behave: deadlines and retries.

Apart from the HTTP client (claimgraph.store.http) so that building the
settings from the command line costs no import of http.client, ssl or socket:
a command on an embedded store never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from claimgraph.errors import StoreError


@dataclass(frozen=True)
class HttpSettings:
    """How calls behave: ``timeout`` is the total wall-clock seconds one call may take, retries included."""

    timeout: float = 120.0
    retries: int = 3
    backoff: float = 0.25
    backoff_max: float = 8.0

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise StoreError(f"store timeout must be a positive number of seconds, not {self.timeout}")
        if self.retries < 0:
            raise StoreError(f"store retries must be 0 or more, not {self.retries}")
