"""Fixtures for the serve tests: the viewer's fixture server, one headless
Chromium per session and the page wrapper (viewer_harness.py); a real store
(the demo papers, ingested once per session from their recorded replies) and
`claimgraph serve` running over it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_harness import (
    BrowserMissing,
    Viewer,
    ViewerServer,
    running_viewer_server,
    start_chromium,
)

from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server


@pytest.fixture(scope="session")
def viewer_server() -> Iterator[ViewerServer]:
    with running_viewer_server() as server:
        yield server


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        driver = start_chromium(Path(tmp_path_factory.mktemp("chromium-profile")))
    except BrowserMissing as missing:
        pytest.skip(str(missing))
    yield driver
    driver.quit()


@pytest.fixture
def viewer(browser: Any, viewer_server: ViewerServer) -> Viewer:
    page = Viewer(browser, viewer_server)
    page.drain_log()
    viewer_server.requests.clear()
    return page


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An embedded store holding the three demo papers: extracted (recorded replies), repaired, canonicalized (hashing embedder)."""
    from claimgraph.context import Context
    from claimgraph.demo import demo_config, demo_papers
    from claimgraph.store import EmbeddedStore
    from claimgraph.workflow import IngestOptions, Workflow

    folder = tmp_path_factory.mktemp("demo-store")
    with Context(EmbeddedStore(folder / "store")) as ctx:
        result = Workflow(ctx).ingest(demo_papers(), IngestOptions(llm=demo_config(), embedder="hashing", sidecar_dir=folder / "sidecar"))
    assert result.failures == [] and len(result.papers) == 3
    return folder / "store"


@pytest.fixture(scope="session")
def served(demo_store: Path) -> Iterator[ClaimgraphServer]:
    """`claimgraph serve` over the demo store: read-only, two query workers, a 20 s query timeout."""
    options = ServeOptions(port=0, workers=2, timeout=20.0, log_requests=False)
    with running_server(demo_store, options) as server:
        yield server


@pytest.fixture
def writable_store(tmp_path: Path) -> Path:
    """A small store of one named graph, for the tests that write through the server."""
    from pyoxigraph import Literal, NamedNode, Triple

    from claimgraph.store import EmbeddedStore

    with EmbeddedStore(tmp_path / "store") as store:
        store.replace_graph(NamedNode("http://example.org/g"), [Triple(NamedNode("http://example.org/s"), NamedNode("http://example.org/p"), Literal("o"))])
    return tmp_path / "store"
