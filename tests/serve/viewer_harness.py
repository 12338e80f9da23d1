"""The viewer test harness: a fixture HTTP server for the static viewer and
its JSON API, a headless Chromium, and a wrapper for the page under test.

The server mounts the static viewer and the JSON API of docs/viewer-api.md
under a prefix (/cg/), answering the API from hand-written payloads in
fixtures/, so the tests also prove that the page uses relative URLs only.
It sends the headers the real server is asked to send (a strict
Content-Security-Policy among them), so a page that needed an inline script,
an inline style attribute or another origin would fail here.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

STATIC_DIR = Path(__file__).resolve().parents[2] / "claimgraph" / "serve" / "static"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PREFIX = "/cg/"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}
# Cytoscape.js inserts one <style> element, ".__________cytoscape_container
# { position: relative; }"; its hash lets exactly that through.
CYTOSCAPE_STYLE_HASH = "'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        f"default-src 'none'; script-src 'self'; style-src 'self' {CYTOSCAPE_STYLE_HASH}; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def load_fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def hub_payloads() -> dict[str, dict]:
    """The api/hub answers by hub IRI, from fixtures/hub-*.json."""
    payloads = (load_fixture(path.name) for path in sorted(FIXTURES.glob("hub-*.json")))
    return {payload["hub"]["iri"]: payload for payload in payloads}


@dataclass
class ApiAnswer:
    status: int
    body: dict


def answer_api(route: str, query: dict[str, list[str]]) -> ApiAnswer:
    """What the fixture API says to GET api/<route>?<query>."""
    arg = {key: values[0] for key, values in query.items()}
    if route == "papers":
        return ApiAnswer(200, load_fixture("papers.json"))
    if route == "corpus":
        return ApiAnswer(200, load_fixture("corpus.json"))
    if route == "hubs":
        text = arg.get("q", "").casefold()
        limit = arg.get("limit", "50")
        if not limit.isdigit() or int(limit) < 1:
            return ApiAnswer(400, {"error": f"limit must be a positive integer, not {limit!r}"})
        hubs = [hub for hub in load_fixture("hubs.json")["hubs"] if text in hub["text"].casefold()]
        return ApiAnswer(200, {"hubs": hubs[: int(limit)]})
    if route == "graph":
        paper, view = arg.get("paper", ""), arg.get("view", "paper")
        if view not in ("paper", "raw"):
            return ApiAnswer(400, {"error": f"view must be 'paper' or 'raw', not {view!r}"})
        path = FIXTURES / f"graph-{paper}-{view}.json"
        if not paper or "/" in paper or not path.is_file():
            return ApiAnswer(404, {"error": f"no paper {paper!r} in the store"})
        return ApiAnswer(200, load_fixture(path.name))
    if route == "hub":
        iri = arg.get("iri", "")
        payload = hub_payloads().get(iri)
        if payload is None:
            return ApiAnswer(404, {"error": f"no CANON_ hub <{iri}> in the store"})
        return ApiAnswer(200, payload)
    return ApiAnswer(404, {"error": f"no API route {route!r}"})


def static_file(relative: str) -> Path | None:
    """The file under STATIC_DIR that relative names, or None (never outside it)."""
    candidate = (STATIC_DIR / (relative or "index.html")).resolve()
    if STATIC_DIR not in candidate.parents or not candidate.is_file():
        return None
    return candidate


class ViewerHandler(BaseHTTPRequestHandler):
    server: ViewerServer

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        self.server.requests.append(self.path)
        if url.path == PREFIX.rstrip("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", PREFIX)
            self.end_headers()
            return
        if not url.path.startswith(PREFIX):
            self.send_bytes(404, b"not under the mount prefix\n", "text/plain; charset=utf-8")
            return
        relative = url.path[len(PREFIX):]
        if relative.startswith("api/"):
            answer = answer_api(relative[len("api/"):], parse_qs(url.query))
            body = json.dumps(answer.body).encode("utf-8")
            self.send_bytes(answer.status, body, CONTENT_TYPES[".json"])
            return
        path = static_file(relative)
        if path is None:
            self.send_bytes(404, b"not found\n", "text/plain; charset=utf-8")
            return
        content_type = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
        self.send_bytes(200, path.read_bytes(), content_type)

    def send_bytes(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the request list on the server is the log."""


class ViewerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ViewerHandler)
        self.requests: list[str] = []

    @property
    def origin(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def page_url(self) -> str:
        return f"{self.origin}{PREFIX}"


@contextmanager
def running_viewer_server() -> Iterator[ViewerServer]:
    server = ViewerServer()
    thread = threading.Thread(target=server.serve_forever, name="viewer-fixture-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
]


class BrowserMissing(Exception):
    """Chromium, chromedriver or selenium is not installed here."""


def start_chromium(profile_dir: Path) -> Any:
    """A headless Chromium driven by chromedriver, with a fresh profile in profile_dir."""
    try:
        from selenium import webdriver
    except ImportError as err:
        raise BrowserMissing("selenium is not installed (pip install selenium)") from err
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise BrowserMissing("chromium/chromedriver not on PATH (apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))


@dataclass
class Viewer:
    """The page under test: open it at a hash, wait on its state, read its log."""

    driver: Any
    server: ViewerServer
    timeout: float = 20.0
    log: list[dict] = field(default_factory=list)

    def open(self, fragment: str = "") -> None:
        self.driver.get("about:blank")
        self.drain_log()
        self.driver.get(self.server.page_url + (f"#{fragment}" if fragment else ""))

    def wait(self, condition: Callable[[Any], Any], message: str) -> Any:
        """Poll ``condition`` until it holds. The page replaces lists as it renders them, so an element
        found by one poll may be gone when the condition reads it: that poll counts as not yet, not as
        a failure."""
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, self.timeout, ignored_exceptions=[StaleElementReferenceException]).until(condition, message)

    def js(self, script: str, *args: object) -> Any:
        return self.driver.execute_script(script, *args)

    def api(self, call: str) -> Any:
        """Call a method of window.claimgraphViewer, e.g. api('counts()')."""
        return self.js(f"return window.claimgraphViewer.{call};")

    def wait_ready(self, target_check: str) -> None:
        """Wait until the page has drawn the graph that target_check (a JS
        expression over `t`, the viewer's current target) describes."""
        script = (
            "const v = window.claimgraphViewer; if (!v) return false;"
            "const s = v.state(); const t = s.target;"
            f"return s.status === 'ready' && !!t && ({target_check});"
        )
        self.wait(lambda driver: driver.execute_script(script), f"viewer never got ready for {target_check}")

    def wait_status(self, status: str) -> None:
        script = "return document.body.dataset.status;"
        self.wait(lambda driver: driver.execute_script(script) == status, f"page status never became {status}")

    def drain_log(self) -> list[dict]:
        entries = self.driver.get_log("browser")
        self.log.extend(entries)
        return entries
