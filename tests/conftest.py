"""Shared fixtures: a real ``oxigraph serve`` process, a store per backend, ARCHE papers."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from claimgraph.iris import IriScheme
from claimgraph.loaders import Document, load_document
from claimgraph.paper_graph import document_triples
from claimgraph.store import EmbeddedStore, RemoteStore, Store

ARCHE_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "arche"

HOSTILE_LABELS = [
    'say "hello"',
    "it's",
    "back\\slash \\n not a newline",
    "a\\u0022b",
    "{braces} and }",
    '"""triple double"""',
    "'''triple single'''",
    "line one\nline two\r\nline three\ttab",
    "> ends an IRI <",
    '"} ; DROP ALL ; INSERT DATA { <http://evil/> <http://evil/> "x" } #',
    "} ; DROP ALL ; INSERT DATA {",
    "?g $x @en ^^<http://www.w3.org/2001/XMLSchema#integer>",
    "ü 中文 🧪 \u2028 \u202e",
    "control \x01\x07\x08\x0b\x0c\x1b\x1f\x7f chars",
    " ",
]


def _oxigraph_binary() -> str | None:
    beside_python = Path(sys.executable).with_name("oxigraph")
    if beside_python.is_file():
        return str(beside_python)
    return shutil.which("oxigraph")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/query?query=ASK%7B%7D", timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of a real ``oxigraph serve`` on a temp location."""
    binary = _oxigraph_binary()
    if binary is None:
        pytest.skip("the oxigraph server binary is not installed (pip package 'oxigraph')")
    folder = tmp_path_factory.mktemp("oxigraph-server")
    base_url = ""
    with (folder / "server.log").open("wb") as log:
        for _attempt in range(3):  # another process may grab the free port first
            port = _free_port()
            base_url = f"http://127.0.0.1:{port}"
            process = subprocess.Popen(
                [binary, "serve", "--location", str(folder / "data"), "--bind", f"127.0.0.1:{port}"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            deadline = time.monotonic() + 30
            while process.poll() is None and time.monotonic() < deadline and not _answers(base_url):
                time.sleep(0.05)
            if process.poll() is None and _answers(base_url):
                break
            _stop(process)
        else:
            log.flush()
            pytest.fail(f"oxigraph serve did not start: {(folder / 'server.log').read_text(errors='replace')[-2000:]}")
        try:
            yield base_url
        finally:
            _stop(process)


@pytest.fixture(params=["embedded", "remote"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty store: an on-disk EmbeddedStore, or a RemoteStore on the shared server (wiped)."""
    opened: Store
    if request.param == "embedded":
        opened = EmbeddedStore(tmp_path / "store")
    else:
        opened = RemoteStore.from_base_url(request.getfixturevalue("oxigraph_server"))
        opened.update("DROP ALL")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="session")
def arche_dir() -> Path:
    """The folder of ARCHE JSON papers shared next to the checkout."""
    if not ARCHE_DIR.is_dir():
        pytest.skip(f"ARCHE data not found at {ARCHE_DIR}")
    return ARCHE_DIR


@pytest.fixture(scope="session")
def arche_documents(arche_dir: Path) -> list[Document]:
    """The three smallest ARCHE papers, loaded (small keeps the suite fast)."""
    paths = sorted(arche_dir.glob("*.json"), key=lambda path: (path.stat().st_size, path.name))[:3]
    if len(paths) < 3:
        pytest.skip(f"fewer than 3 ARCHE papers in {arche_dir}")
    return [load_document(path) for path in paths]


@pytest.fixture
def iris() -> IriScheme:
    return IriScheme()


@pytest.fixture
def loaded_store(store: Store, arche_documents: list[Document], iris: IriScheme) -> Store:
    """``store`` with each of ``arche_documents`` in its paper graph."""
    for document in arche_documents:
        store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    return store


@pytest.fixture
def hostile_labels() -> list[str]:
    """Literal texts that break naive SPARQL/Turtle string building (no NUL)."""
    return list(HOSTILE_LABELS)
