"""Shared fixtures: a real ``oxigraph serve`` process, a store per backend, ARCHE papers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from claimgraph.iris import IriScheme
from claimgraph.loaders import Document, load_document
from claimgraph.oxigraph_server import oxigraph_binary, running_oxigraph
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
    "",
]


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of a real ``oxigraph serve`` on a temp location."""
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph server binary is not installed (pip package 'oxigraph')")
    with running_oxigraph(tmp_path_factory.mktemp("oxigraph-server") / "data") as base_url:
        yield base_url


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


@pytest.fixture(scope="session")
def arche_store(arche_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedStore]:
    """An embedded store holding all ARCHE papers (read-only for the tests that use it)."""
    iris = IriScheme()
    store = EmbeddedStore(tmp_path_factory.mktemp("arche-store") / "store")
    for path in sorted(arche_dir.glob("*.json")):
        document = load_document(path)
        store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    yield store
    store.close()
