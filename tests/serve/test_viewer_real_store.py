"""The viewer served by `claimgraph serve` over a real store, in headless Chromium: what it draws is what
SPARQL counts in the store, a filter changes it, and the page logs no error. With
CLAIMGRAPH_VIEWER_SCREENSHOT=path the side-by-side view of a real paper is saved there (docs/viewer.png)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from viewer_harness import Viewer

from claimgraph.rdf.iris import IriScheme
from claimgraph.serve.server import ClaimgraphServer
from claimgraph.store import EmbeddedStore

pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.by import By

SCREENSHOT_ENV = "CLAIMGRAPH_VIEWER_SCREENSHOT"
# Written here independently of sparql/graphs/: a node is anything typed with a text
# other than the document structure; an edge is a profile edge (or raw label) between two nodes.
NODES = """
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>
SELECT (COUNT(DISTINCT ?n) AS ?count) WHERE { GRAPH ?g {
  ?n a ?t ; cg:text ?x . FILTER(?t NOT IN (cg:Paper, cg:Passage, cg:Sentence, cg:Reference) && ?t NOT IN (?excluded))
} }"""
EDGES = """
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>
SELECT (COUNT(DISTINCT CONCAT(STR(?s), STR(?p), STR(?o))) AS ?count) WHERE { GRAPH ?g {
  ?s ?p ?o .
  FILTER(?p IN (cg:supports, cg:opposes, cg:addresses, cg:mentions, cg:arg0, cg:arg1) || STRSTARTS(STR(?p), "https://w3id.org/claimgraph/raw-label/"))
  ?s a ?st ; cg:text ?sx . ?o a ?ot ; cg:text ?ox .
  FILTER(?st NOT IN (cg:Paper, cg:Passage, cg:Sentence, cg:Reference, ?excluded) && ?ot NOT IN (cg:Paper, cg:Passage, cg:Sentence, cg:Reference, ?excluded))
} }"""
NOTHING = "https://w3id.org/claimgraph/ontology/v1#Nothing"


@dataclass
class ServedPage:
    """What viewer_harness.Viewer needs of a server: the page URL and a request log."""

    page_url: str
    requests: list[str] = field(default_factory=list)


def sparql_counts(store_path: Path, graph: str, excluded: str = NOTHING) -> dict[str, int]:
    from pyoxigraph import NamedNode

    with EmbeddedStore(store_path, read_only=True) as store:
        bindings = {"g": NamedNode(graph), "excluded": NamedNode(excluded)}
        return {"nodes": store.scalar(NODES, bindings), "edges": store.scalar(EDGES, bindings)}


@pytest.fixture
def page(browser: Any, served: ClaimgraphServer) -> Viewer:
    viewer = Viewer(browser, ServedPage(served.base_url + "/viewer/"))  # type: ignore[arg-type]
    viewer.drain_log()
    return viewer


def open_paper(page: Viewer, paper: str, view: str) -> None:
    page.open(f"paper={paper}&view={view}")
    page.wait_ready(f"t.kind === 'paper' && t.paper === '{paper}' && t.view === '{view}'")


@pytest.mark.parametrize(("paper", "view"), [("soil-warming", "paper"), ("soil-warming", "raw"), ("soil-moisture", "paper")])
def test_rendered_counts_equal_sparql_counts(page: Viewer, demo_store: Path, paper: str, view: str) -> None:
    graph = IriScheme().paper(paper) if view == "paper" else IriScheme().raw_graph(paper)
    expected = sparql_counts(demo_store, graph.value)
    open_paper(page, paper, view)
    assert expected["nodes"] > 5 and expected["edges"] > 5
    assert page.api("counts()") == expected
    assert [entry for entry in page.drain_log() if entry["level"] == "SEVERE"] == []


def test_a_type_filter_hides_what_sparql_says_it_should(page: Viewer, demo_store: Path) -> None:
    paper = IriScheme().paper("soil-warming").value
    evidence = "https://w3id.org/claimgraph/ontology/v1#Evidence"
    without = sparql_counts(demo_store, paper, excluded=evidence)
    everything = sparql_counts(demo_store, paper)
    assert without != everything
    open_paper(page, "soil-warming", "paper")
    page.driver.find_element(By.CSS_SELECTOR, '#type-options input[value="Evidence"]').click()
    page.wait(lambda driver: page.api("counts()") == without, f"expected {without}, saw {page.api('counts()')}")


def test_the_first_page_shows_the_corpus_without_console_errors(page: Viewer) -> None:
    page.open()
    page.wait_ready("t.kind === 'corpus'")
    assert page.api("corpusCounts()")["papers"] == 3
    assert [entry for entry in page.drain_log() if entry["level"] == "SEVERE"] == []
    options = [option.get_attribute("value") for option in page.driver.find_elements(By.CSS_SELECTOR, "#paper-select option") if option.get_attribute("value")]
    assert options == ["soil-moisture", "soil-warming", "synthetic-ripples"]


def test_a_hub_view_shows_the_hub_and_every_member(page: Viewer, demo_store: Path) -> None:
    from pyoxigraph import NamedNode

    canonical = IriScheme().canonical_graph()
    with EmbeddedStore(demo_store, read_only=True) as store:
        rows = store.select("SELECT ?hub (COUNT(DISTINCT ?m) AS ?members) WHERE { GRAPH ?c { ?hub a <https://w3id.org/claimgraph/ontology/v1#CanonicalNode> } "
                            "GRAPH ?l { ?m ?r ?hub FILTER(?r IN (<https://w3id.org/claimgraph/ontology/v1#mentions>, <http://www.w3.org/2004/02/skos/core#exactMatch>)) } GRAPH ?p { ?p a <https://w3id.org/claimgraph/ontology/v1#Paper> . ?m a ?t } } "
                            "GROUP BY ?hub ORDER BY DESC(?members) ?hub LIMIT 1", {"c": NamedNode(canonical.value)})
    assert rows, "the demo store has a CANON_ hub"
    hub, members = rows[0]["hub"].value, int(rows[0]["members"].value)
    page.open(f"hub={hub}")
    page.wait_ready("t.kind === 'hub'")
    assert page.api("counts()") == {"nodes": members + 1, "edges": members}


def test_side_by_side_of_a_real_paper_paints_both_panes(page: Viewer, tmp_path: Path) -> None:
    page.driver.set_window_size(1400, 1000)
    open_paper(page, "soil-warming", "compare")
    highlighted = page.api("highlighted()")
    assert highlighted["added"] or highlighted["removed"], "repair changed the demo paper, so the comparison marks something"
    script = "return [...document.querySelectorAll('#' + arguments[0] + ' canvas')].some(c => c.width && c.height);"
    for pane in ("cy-raw", "cy-main"):
        page.wait(lambda driver, pane=pane: page.js(script, pane), f"{pane} has no canvas")
    target = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "viewer.png")
    page.js("window.scrollTo(0, 0);")
    assert page.driver.save_screenshot(str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
