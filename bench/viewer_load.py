"""Benchmark: how long the viewer takes to show the largest paper of a store, in headless Chromium.

Starts `claimgraph serve` over the store, finds the paper with the most nodes
(api/papers: its first answer counts the nodes and edges of every paper,
then the counts are cached while the store is unchanged; that first answer is
timed on its own), and opens ``/viewer/#paper=<id>&view=...`` in a fresh page
several times, timing from navigation start to the page's ``ready`` state
(the graph drawn and laid out), for the repaired graph and the side-by-side
view (raw and repaired). Also times the JSON graph answers on their own.

    python bench/viewer_load.py --store /path/to/70-paper-store [--repeats 3]

Needs chromium, chromedriver and selenium (docs/viewer-api.md).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from claimgraph.serve.server import ServeOptions, running_server

READY = ("const v = window.claimgraphViewer; if (!v) return 0; const s = v.state();"
         "return s.status === 'ready' && s.target && s.target.paper === arguments[0] && s.target.view === arguments[1]"
         " ? 1 : (s.status === 'error' ? -1 : 0);")


def chromium(profile: Path) -> Any:
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--no-first-run", "--disable-background-networking", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")))
    driver.command_executor.client_config.timeout = 900  # a large layout keeps the page busy for a while
    return driver


def load_seconds(driver: Any, url: str, paper: str, view: str, timeout: float = 300.0) -> float:
    """Seconds from asking the browser for the page to the viewer's ready state for ``paper`` in ``view``."""
    driver.get("about:blank")
    started = time.perf_counter()
    driver.get(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready = driver.execute_script(READY, paper, view)
        if ready == -1:
            raise RuntimeError(f"the viewer reported an error for {paper}: {driver.find_element('id', 'error').text}")
        if ready == 1:
            return time.perf_counter() - started
        time.sleep(0.02)
    raise RuntimeError(f"the viewer did not get ready within {timeout:.0f} s")


def fetch_seconds(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=300) as response:
        body = response.read()
    return time.perf_counter() - started, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="an embedded store")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--views", nargs="+", default=["paper", "compare"], choices=["paper", "raw", "compare"])
    args = parser.parse_args()
    with running_server(args.store, ServeOptions(port=0, log_requests=False)) as server, tempfile.TemporaryDirectory() as profile:
        base = f"{server.base_url}/viewer/"
        driver = chromium(Path(profile))
        try:
            papers_cold, _ = fetch_seconds(f"{base}api/papers")
            with urllib.request.urlopen(f"{base}api/papers", timeout=300) as response:
                papers = json.loads(response.read())["papers"]
            largest = max(papers, key=lambda paper: (paper["nodes"], paper["edges"]))
            pid = largest["id"]
            print(f"store {args.store}: {len(papers)} papers; largest {pid}: {largest['nodes']} nodes, {largest['edges']} edges")
            print(f"api/papers first answer (counts every paper)  {papers_cold:.2f} s")
            for view in ("paper", "raw"):
                seconds, size = fetch_seconds(f"{base}api/graph?paper={pid}&view={view}")
                print(f"api/graph view={view:<5}                           {seconds:.2f} s, {size / 1024:.0f} KiB")
            for view in args.views:
                times = [load_seconds(driver, f"{base}#paper={pid}&view={view}", pid, view) for _ in range(args.repeats)]
                print(f"page ready, view={view:<8} (median of {args.repeats})      {statistics.median(times):.2f} s  (all: {', '.join(f'{t:.2f}' for t in times)})")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
