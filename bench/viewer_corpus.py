"""Benchmark: the viewer's corpus view in headless Chromium: first paint and interaction times.

Starts `claimgraph serve` over a store and times, each from the page's own state (never a delay):

- first paint: navigation start to the corpus drawn (``ready``), the first time (the server
  computes the corpus and caches it per store state) and again in a fresh page (cached);
- interaction: a link-kind filter, a category filter and "Show more links", each from the click
  to the frame after the graph changed (two animation frames, measured in the page);
- the largest paper's view, from navigation to drawn;
- the API: ``api/corpus`` and a hub search (``api/hubs?q=...``), cold and cached.

    python bench/viewer_corpus.py --store /tmp/arche-store
    python -m claimgraph.testing.viewer.corpus_store /tmp/gen1000 --papers 1000 && python bench/viewer_corpus.py --store /tmp/gen1000
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from claimgraph.serve.server import ServeOptions, running_server
from claimgraph.testing.viewer.screenshots import READY, chromium, wait_for

# Click an element, then resolve after two animation frames (the redraw), with the milliseconds taken.
TIMED_CLICK = """
const [selector, done] = [arguments[0], arguments[arguments.length - 1]];
const start = performance.now();
document.querySelector(selector).click();
requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
"""
SHOW_MORE = """
const done = arguments[arguments.length - 1];
const before = window.claimgraphViewer.corpusCounts().links;
const start = performance.now();
document.getElementById('corpus-more').click();
const poll = () => window.claimgraphViewer.corpusCounts().links > before
  ? requestAnimationFrame(() => done(performance.now() - start)) : setTimeout(poll, 5);
poll();
"""


def fetch_ms(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=900) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


def paint_ms(driver: Any, url: str) -> float:
    driver.get("about:blank")
    started = time.perf_counter()
    driver.get(url + "#corpus")
    wait_for(driver, READY, ("corpus", None), "the corpus view", timeout=900)
    return (time.perf_counter() - started) * 1000


def paper_ms(driver: Any, url: str, paper: str) -> float:
    """From navigation to the largest paper drawn (with its document structure when it has viewpoints)."""
    driver.get("about:blank")
    started = time.perf_counter()
    driver.get(url + "#" + urllib.parse.urlencode({"paper": paper, "view": "paper"}))
    wait_for(driver, READY, ("paper", "paper"), f"paper {paper}", timeout=900)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--hub-query", default="cell")
    args = parser.parse_args()
    options = ServeOptions(port=0, workers=2, timeout=900.0, log_requests=False)
    with running_server(args.store, options) as server, tempfile.TemporaryDirectory() as profile:
        url = server.base_url + "/viewer/"
        print(f"api/hubs?q={args.hub_query} cold: {fetch_ms(url + 'api/hubs?q=' + urllib.parse.quote(args.hub_query)):.0f} ms")
        print(f"api/hubs?q={args.hub_query}1 cached: {fetch_ms(url + 'api/hubs?q=' + urllib.parse.quote(args.hub_query + '1')):.1f} ms")
        driver = chromium(Path(profile))
        driver.set_script_timeout(900)
        try:
            print(f"first paint, corpus computed by the server: {paint_ms(driver, url):.0f} ms")
            print(f"first paint, corpus cached: {paint_ms(driver, url):.0f} ms")
            print("shown:", driver.execute_script("return window.claimgraphViewer.corpusCounts();"))
            kind = driver.execute_async_script(TIMED_CLICK, '#corpus-kinds input[value="hub"]')
            category = driver.execute_async_script(TIMED_CLICK, "#corpus-categories input")
            print(f"link-kind filter: {kind:.0f} ms; category filter: {category:.0f} ms")
            largest = max(json.loads(urllib.request.urlopen(url + "api/papers", timeout=900).read())["papers"], key=lambda p: p["nodes"])
            print(f"paper view of the largest paper ({largest['id']}, {largest['nodes']} nodes): {paper_ms(driver, url, largest['id']):.0f} ms,",
                  driver.execute_script("return window.claimgraphViewer.counts();"), "drawn")
            driver.get(url + "#corpus")
            wait_for(driver, READY, ("corpus", None), "the corpus view", timeout=900)
            if driver.execute_script("return !document.getElementById('corpus-more').hidden;"):
                print(f"show more links: {driver.execute_async_script(SHOW_MORE):.0f} ms, now",
                      driver.execute_script("return window.claimgraphViewer.corpusCounts();"))
        finally:
            driver.quit()
        print(f"api/corpus cached: {fetch_ms(url + 'api/corpus?limit=300'):.0f} ms")


if __name__ == "__main__":
    main()
