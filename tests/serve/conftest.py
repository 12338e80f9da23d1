"""Fixtures for the viewer tests: the fixture server, one headless Chromium per
session, and the page wrapper (all built in viewer_harness.py)."""

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
