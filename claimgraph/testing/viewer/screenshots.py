"""Screenshots of each view of the browser viewer, taken in headless Chromium from `claimgraph serve`.

    python -m claimgraph.testing.viewer.screenshots --store STORE [--out docs/screenshots] [--paper ID] [--hub IRI] [--term IRI] [--views corpus,term,...]

Serves the store on a free port, opens each view and waits for the page's own ``ready`` state
(never a fixed delay), then saves ``<view>.png``: ``corpus``, ``paper``, ``compare`` (raw and
repaired side by side), ``hub``, ``term`` (only when some node is linked to an ontology term)
and ``sparql`` (a shipped query run, its table shown). Without ``--paper``/``--hub`` the largest
paper and the hub with most members are shown. Needs chromium, chromedriver and selenium.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

VIEWS = ("corpus", "paper", "compare", "hub", "term", "sparql")
SPARQL_EXAMPLE = "papers-by-claims"
READY = ("const v = window.claimgraphViewer; if (!v) return false; const s = v.state();"
         "return s.status === 'ready' && !!s.target && s.target.kind === arguments[0] && (!arguments[1] || s.target.view === arguments[1]);")
FAILED = "return document.body.dataset.status === 'error' ? document.getElementById('error').textContent : '';"


class ScreenshotError(RuntimeError):
    """A view did not become ready; the message says which and what the page said."""


def wait_for(driver: Any, script: str, args: tuple[Any, ...], what: str, timeout: float = 300.0) -> None:
    """Poll the page until ``script`` is true (the page's own state), failing early when it shows an error."""
    from selenium.webdriver.support.ui import WebDriverWait

    def done(page: Any) -> bool:
        problem = page.execute_script(FAILED)
        if problem:
            raise ScreenshotError(f"{what}: the page says {problem}")
        return bool(page.execute_script(script, *args))

    WebDriverWait(driver, timeout, poll_frequency=0.1).until(done, f"{what} never became ready")


def shoot(driver: Any, url: str, fragment: str, kind: str, view: str | None, path: Path) -> Path:
    driver.get("about:blank")
    driver.get(f"{url}#{fragment}")
    wait_for(driver, READY, (kind, view), f"the {path.stem} view")
    driver.execute_script("window.scrollTo(0, 0);")
    driver.save_screenshot(str(path))
    return path


def run_example(driver: Any, query: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "sparql-examples")).select_by_value(query)
    driver.find_element("id", "sparql-run").click()
    wait_for(driver, "return !['none', 'running'].includes(window.claimgraphViewer.sparqlResult().kind);", (), "the SPARQL query")


def take_screenshots(driver: Any, url: str, out: Path, paper: str, hub: str | None, term: str | None,
                     views: tuple[str, ...] = VIEWS) -> list[Path]:
    """Save one PNG per view of ``views`` into ``out``; returns the files written (no hub or term view without one)."""
    out.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(1400, 1000)
    written = []
    if "corpus" in views:
        written.append(shoot(driver, url, "corpus", "corpus", None, out / "corpus.png"))
    for view in ("paper", "compare"):
        if view in views:
            written.append(shoot(driver, url, urllib.parse.urlencode({"paper": paper, "view": view}), "paper", view, out / f"{view}.png"))
    for kind, iri in (("hub", hub), ("term", term)):
        if iri and kind in views:
            written.append(shoot(driver, url, urllib.parse.urlencode({kind: iri}), kind, None, out / f"{kind}.png"))
    if "sparql" in views:
        shoot(driver, url, "sparql", "sparql", None, out / "sparql.png")
        run_example(driver, SPARQL_EXAMPLE)
        driver.save_screenshot(str(out / "sparql.png"))
        written.append(out / "sparql.png")
    return written


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=600) as response:
        return json.loads(response.read())


def defaults(url: str) -> tuple[str, str | None, str | None]:
    """The largest paper, the hub with most members and the term most papers link to, from the viewer API."""
    papers = get_json(url + "api/papers")["papers"]
    if not papers:
        raise ScreenshotError("the store holds no papers; ingest some first")
    paper = max(papers, key=lambda entry: (entry["nodes"], entry["id"]))["id"]
    hubs = get_json(url + "api/hubs?limit=1")["hubs"]
    corpus = get_json(url + "api/corpus?kinds=term&limit=1")["links"]
    term = None
    if corpus:
        shared = get_json(url + "api/shared?" + urllib.parse.urlencode({"source": corpus[0]["source"], "target": corpus[0]["target"]}))
        term = shared["shared"]["term"][0]["iri"] if shared["shared"]["term"] else None
    return paper, hubs[0]["iri"] if hubs else None, term


def chromium(profile: Path) -> Any:
    from selenium import webdriver

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not binary or not driver_path:
        raise ScreenshotError("chromium/chromedriver not on PATH (apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--window-size=1400,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))


def main() -> None:
    from claimgraph.serve.server import ServeOptions, running_server

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path, help="store folder to serve (opened read-only)")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--paper", help="paper id for the paper and side-by-side views (default: the largest)")
    parser.add_argument("--hub", help="CANON_ hub IRI for the hub view (default: the one with most members)")
    parser.add_argument("--term", help="ontology term IRI for the term view (default: one shared by two papers)")
    parser.add_argument("--views", default=",".join(VIEWS), help=f"comma-separated views to take (default: {','.join(VIEWS)})")
    args = parser.parse_args()
    views = tuple(view for view in args.views.split(",") if view)
    unknown = sorted(set(views) - set(VIEWS))
    if unknown:
        parser.error(f"unknown view {unknown[0]!r}; the views are {', '.join(VIEWS)}")
    options = ServeOptions(port=0, workers=2, timeout=600.0, log_requests=False)
    started = time.perf_counter()
    with running_server(args.store, options) as server, tempfile.TemporaryDirectory() as profile:
        url = server.base_url + "/viewer/"
        paper, hub, term = defaults(url)
        driver = chromium(Path(profile))
        try:
            written = take_screenshots(driver, url, args.out, args.paper or paper, args.hub or hub, args.term or term, views)
        finally:
            driver.quit()
    for path in written:
        print(path)
    print(f"{len(written)} screenshots in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
