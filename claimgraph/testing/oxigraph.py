"""Start and stop a local ``oxigraph serve`` process (pip package ``oxigraph``).

Used by the remote-backend tests, the benchmarks and ``claimgraph serve``; the
server binds to the loopback interface only.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from claimgraph.errors import StoreError


def oxigraph_binary() -> str | None:
    """The ``oxigraph`` executable next to this Python, else on PATH."""
    beside_python = Path(sys.executable).with_name("oxigraph")
    if beside_python.is_file():
        return str(beside_python)
    return shutil.which("oxigraph")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(base_url: str) -> bool:
    """Whether a SPARQL server at base_url answers an ASK query."""
    try:
        with urllib.request.urlopen(f"{base_url}/query?query=ASK%7B%7D", timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@dataclass(frozen=True)
class OxigraphServer:
    url: str
    pid: int


@contextmanager
def running_oxigraph(location: Path, port: int | None = None, startup_seconds: float = 30.0) -> Iterator[str]:
    """Run ``oxigraph serve`` on a store directory; yields its base URL, stops it on exit."""
    with oxigraph_server(location, port, startup_seconds) as server:
        yield server.url


@contextmanager
def oxigraph_server(location: Path, port: int | None = None, startup_seconds: float = 30.0) -> Iterator[OxigraphServer]:
    """``running_oxigraph`` yielding the server's URL and process id (for memory figures)."""
    binary = oxigraph_binary()
    if binary is None:
        raise StoreError("the oxigraph server binary is not installed (pip install oxigraph)")
    port = port or free_port()
    base_url = f"http://127.0.0.1:{port}"
    location.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [binary, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + startup_seconds
        while not answers(base_url):
            if process.poll() is not None:
                message = process.stderr.read().decode("utf-8", "replace").strip() if process.stderr else ""
                raise StoreError(f"oxigraph serve exited with code {process.returncode}: {message[:300]}")
            if time.monotonic() > deadline:
                raise StoreError(f"oxigraph serve did not answer on {base_url} within {startup_seconds:.0f} s")
            time.sleep(0.05)
        yield OxigraphServer(base_url, process.pid)
    finally:
        stop(process)
