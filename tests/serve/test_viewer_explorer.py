"""The viewer as a corpus explorer, in headless Chromium against `claimgraph serve` over real stores:
the corpus view (links, filters, drilling into a link, a hub, a term, a paper), the SPARQL box, and
in a paper: the document structure, search, neighbourhood, ontology terms, roles, filters that stay
in their view, and the switch to the side-by-side view."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import request
from viewer_corpus_store import HUB_1, TERM_1, build, node
from viewer_harness import Viewer

from claimgraph.rdf.queries import list_named_queries
from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

EXPECTED_LINKS = {("hub", "a", "b"): 2, ("hub", "a", "c"): 1, ("hub", "b", "c"): 1, ("term", "a", "c"): 1,
                  ("citation", "a", "b"): 1, ("shared-citation", "a", "b"): 1, ("shared-citation", "a", "d"): 1}


class ServedPage:
    """What viewer_harness.Viewer needs of a server: the page URL and a request log."""

    def __init__(self, url: str) -> None:
        self.page_url = url
        self.requests: list[str] = []


@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClaimgraphServer]:
    store = tmp_path_factory.mktemp("explorer") / "store"
    build(store)
    with running_server(store, ServeOptions(port=0, workers=2, timeout=20.0, log_requests=False)) as server:
        yield server


def page_for(browser: Any, server: ClaimgraphServer) -> Viewer:
    viewer = Viewer(browser, ServedPage(server.base_url + "/viewer/"))  # type: ignore[arg-type]
    viewer.drain_log()
    return viewer


@pytest.fixture
def corpus_page(browser: Any, corpus_server: ClaimgraphServer) -> Viewer:
    return page_for(browser, corpus_server)


@pytest.fixture
def demo_page(browser: Any, served: ClaimgraphServer) -> Viewer:
    return page_for(browser, served)


def api(server: ClaimgraphServer, route: str, **params: str) -> dict:
    status, _, body = request(server, "GET", f"/viewer/api/{route}?{urllib.parse.urlencode(params)}")
    assert status == 200
    return json.loads(body)


def shown_links(page: Viewer) -> dict[tuple[str, str, str], int]:
    return {(link["kind"], link["source"], link["target"]): link["count"] for link in page.api("corpusLinks()")}


def open_corpus(page: Viewer) -> None:
    page.open()
    page.wait_ready("t.kind === 'corpus'")


def click_at(page: Viewer, pane_id: str, position: dict) -> None:
    pane = page.driver.find_element(By.ID, pane_id)
    ActionChains(page.driver).move_to_element_with_offset(
        pane, int(position["x"] - pane.size["width"] / 2), int(position["y"] - pane.size["height"] / 2)).click().perform()


def severe(page: Viewer) -> list[dict]:
    return [entry for entry in page.drain_log() if entry["level"] == "SEVERE"]


# ---- the corpus view -----------------------------------------------------------------------------

def test_corpus_is_the_landing_page_and_draws_every_paper_and_link(corpus_page: Viewer) -> None:
    open_corpus(corpus_page)
    assert corpus_page.api("corpusCounts()") == {"papers": 5, "links": 7}
    assert shown_links(corpus_page) == EXPECTED_LINKS
    listed = [b.get_attribute("data-id") for b in corpus_page.driver.find_elements(By.CSS_SELECTOR, "#corpus-papers button")]
    assert sorted(listed) == ["a", "b", "c", "d", "e"]
    assert severe(corpus_page) == []


def test_link_kind_and_category_filters_hide_what_they_name(corpus_page: Viewer) -> None:
    open_corpus(corpus_page)
    corpus_page.driver.find_element(By.CSS_SELECTOR, '#corpus-kinds input[value="hub"]').click()
    corpus_page.wait(lambda driver: corpus_page.api("corpusCounts()") == {"papers": 5, "links": 4}, "hub links stayed")
    assert {kind for kind, _, _ in shown_links(corpus_page)} == {"term", "citation", "shared-citation"}
    corpus_page.driver.find_element(By.CSS_SELECTOR, '#corpus-kinds input[value="hub"]').click()
    corpus_page.driver.find_element(By.CSS_SELECTOR, '#corpus-categories input[value="Physics"]').click()
    corpus_page.wait(lambda driver: corpus_page.api("corpusCounts()") == {"papers": 2, "links": 3}, "Physics papers stayed")
    assert set(shown_links(corpus_page)) == {("hub", "a", "b"), ("citation", "a", "b"), ("shared-citation", "a", "b")}


def test_a_link_names_the_hubs_its_papers_share_and_opens_one(corpus_page: Viewer) -> None:
    open_corpus(corpus_page)
    click_at(corpus_page, "cy-corpus", corpus_page.api("corpusPosition('hub|a|c')"))
    buttons = "#corpus-details [data-list=shared] button"
    corpus_page.wait(lambda driver: [b.text for b in driver.find_elements(By.CSS_SELECTOR, buttons)] == ["CANON_ hub: rain"],
                     "the a-c hub link did not list the rain hub")
    corpus_page.driver.find_element(By.CSS_SELECTOR, buttons).click()
    corpus_page.wait_ready("t.kind === 'hub'")
    assert corpus_page.api("counts()") == {"nodes": 4, "edges": 3}  # rain and its members in a, b and c


def test_a_term_view_shows_the_papers_and_nodes_that_meet_there(corpus_page: Viewer) -> None:
    corpus_page.open(urllib.parse.urlencode({"term": TERM_1.value}))
    corpus_page.wait_ready("t.kind === 'term'")
    assert corpus_page.api("counts()") == {"nodes": 3, "edges": 2}
    assert "temperature" in corpus_page.driver.find_element(By.ID, "pane-main-title").text


def test_clicking_a_paper_in_the_corpus_opens_it(corpus_page: Viewer) -> None:
    open_corpus(corpus_page)
    click_at(corpus_page, "cy-corpus", corpus_page.api("corpusPosition('b')"))
    corpus_page.wait(lambda driver: driver.find_elements(By.CSS_SELECTOR, '#corpus-details [data-action="open-paper"]'), "no paper details")
    corpus_page.driver.find_element(By.CSS_SELECTOR, '#corpus-details [data-action="open-paper"]').click()
    corpus_page.wait_ready("t.kind === 'paper' && t.paper === 'b'")
    assert corpus_page.api("counts()") == {"nodes": 2, "edges": 0}


# ---- inside a paper --------------------------------------------------------------------------------

def test_hovering_a_linked_node_names_its_ontology_terms(corpus_page: Viewer) -> None:
    corpus_page.open("paper=a&view=paper")
    corpus_page.wait_ready("t.paper === 'a'")
    corpus_page.driver.find_element(By.CSS_SELECTOR, f'#node-list button[data-id="{node("a", "n1").value}"]').click()
    field = '#details-body [data-field="terms"]'
    corpus_page.wait(lambda driver: driver.find_elements(By.CSS_SELECTOR, field), "no ontology terms in the details")
    assert corpus_page.driver.find_element(By.CSS_SELECTOR, field).text == f"temperature (exactMatch, {TERM_1.value})"


def test_the_role_filter_says_when_no_node_has_a_role(corpus_page: Viewer) -> None:
    corpus_page.open("paper=a&view=paper")
    corpus_page.wait_ready("t.paper === 'a'")
    assert corpus_page.driver.find_element(By.ID, "role-options").text == "no node of this graph has a reasoning role"


def test_structured_input_draws_sentences_viewpoints_and_references_joined(demo_page: Viewer, served: ClaimgraphServer) -> None:
    payload = api(served, "graph", paper="synthetic-ripples", view="paper")
    structure = payload["structure"]
    assert structure["nodes"] and structure["edges"]
    demo_page.open("paper=synthetic-ripples&view=paper")
    demo_page.wait_ready("t.paper === 'synthetic-ripples'")
    merged = {"nodes": len(payload["nodes"]) + len(structure["nodes"]), "edges": len(payload["edges"]) + len(structure["edges"])}
    assert demo_page.api("counts()") == merged
    joined = {edge["target"] for edge in structure["edges"] if edge["label"] == "states"}
    assert {n["id"] for n in payload["nodes"] if n["type"] == "Viewpoint"} <= joined, "a viewpoint is drawn without its sentence"
    demo_page.driver.find_element(By.ID, "show-structure").click()
    demo_page.wait(lambda driver: demo_page.api("counts()") == {"nodes": len(payload["nodes"]), "edges": len(payload["edges"])},
                   "unticking the structure did not leave the extracted graph alone")


def test_search_marks_exactly_the_nodes_whose_text_matches(demo_page: Viewer, served: ClaimgraphServer) -> None:
    payload = api(served, "graph", paper="soil-warming", view="paper")
    demo_page.open("paper=soil-warming&view=paper")
    demo_page.wait_ready("t.paper === 'soil-warming'")
    expected = sorted(n["id"] for n in payload["nodes"] if "soil" in f"{n['label']} {n['text']}".lower())
    assert 0 < len(expected) < len(payload["nodes"])
    demo_page.driver.find_element(By.ID, "node-search").send_keys("Soil", Keys.ENTER)
    demo_page.wait(lambda driver: demo_page.api("searchMatches()") == expected, "the search marked other nodes")
    assert demo_page.driver.find_element(By.ID, "node-search-summary").text == f'{len(expected)} visible nodes match "Soil"'


def neighbours(payload: dict, start: str, hops: int) -> set[str]:
    reach = {start}
    for _ in range(hops):
        reach |= {e["target"] for e in payload["edges"] if e["source"] in reach} | {e["source"] for e in payload["edges"] if e["target"] in reach}
    return reach


def test_neighbourhood_shows_a_node_and_expands_step_by_step(demo_page: Viewer, served: ClaimgraphServer) -> None:
    payload = api(served, "graph", paper="soil-warming", view="paper")
    start = max(payload["nodes"], key=lambda n: sum(n["id"] in (e["source"], e["target"]) for e in payload["edges"]))["id"]
    demo_page.open("paper=soil-warming&view=paper")
    demo_page.wait_ready("t.paper === 'soil-warming'")
    demo_page.driver.find_element(By.CSS_SELECTOR, f'#node-list button[data-id="{start}"]').click()
    for hops in (1, 2):
        demo_page.wait(lambda driver: driver.find_elements(By.CSS_SELECTOR, '#details-body [data-action="neighbourhood"]'), "no button")
        demo_page.driver.find_element(By.CSS_SELECTOR, '#details-body [data-action="neighbourhood"]').click()
        reach = neighbours(payload, start, hops)
        demo_page.wait(lambda driver, reach=reach: demo_page.api("counts()")["nodes"] == len(reach), f"{hops} steps: not {len(reach)} nodes")
    assert len(neighbours(payload, start, 1)) < len(payload["nodes"])
    assert "within 2 steps" in demo_page.api("filtersActive()")
    demo_page.driver.find_element(By.ID, "filters-reset").click()
    demo_page.wait(lambda driver: demo_page.api("counts()")["nodes"] == len(payload["nodes"]), "reset did not show everything")


def test_a_type_filter_stays_in_the_paper_views_and_says_so(demo_page: Viewer, served: ClaimgraphServer) -> None:
    demo_page.open("paper=soil-warming&view=paper")
    demo_page.wait_ready("t.paper === 'soil-warming'")
    whole = demo_page.api("counts()")
    demo_page.driver.find_element(By.CSS_SELECTOR, '#type-options input[value="Factor"]').click()
    demo_page.wait(lambda driver: demo_page.api("counts()") != whole, "the Factor filter hid nothing")
    filtered = demo_page.api("counts()")
    assert "types hidden: Factor" in demo_page.api("filtersActive()")
    hub = api(served, "hubs", limit="1")["hubs"][0]
    demo_page.js("window.location.hash = arguments[0];", urllib.parse.urlencode({"hub": hub["iri"]}))
    demo_page.wait_ready("t.kind === 'hub'")
    assert demo_page.api("counts()") == {"nodes": hub["members"] + 1, "edges": hub["members"]}
    assert demo_page.api("filtersActive()") == ""
    demo_page.js("window.location.hash = 'paper=soil-warming&view=paper';")
    demo_page.wait_ready("t.kind === 'paper' && t.paper === 'soil-warming'")
    assert demo_page.api("counts()") == filtered and "Factor" in demo_page.api("filtersActive()")


def test_switching_to_side_by_side_fills_both_panes(demo_page: Viewer) -> None:
    demo_page.driver.set_window_size(1400, 1000)
    demo_page.open("paper=soil-warming&view=paper")
    demo_page.wait_ready("t.view === 'paper'")
    demo_page.driver.find_element(By.CSS_SELECTOR, 'input[name="view"][value="compare"]').click()
    demo_page.wait_ready("t.view === 'compare'")
    for pane in ("raw", "main"):
        extent = demo_page.api(f"renderedExtent({pane!r})")
        assert extent["paneWidth"] > 400, f"the {pane} pane is {extent['paneWidth']} px wide"
        assert extent["w"] > extent["paneWidth"] / 2 or extent["h"] > extent["paneHeight"] / 2, f"{pane} is drawn small: {extent}"


# ---- the SPARQL box --------------------------------------------------------------------------------

def run_query(page: Viewer, query: str) -> dict:
    box = page.driver.find_element(By.ID, "sparql-text")
    box.clear()
    page.js("document.getElementById('sparql-text').value = arguments[0];", query)
    page.driver.find_element(By.ID, "sparql-run").click()
    page.wait(lambda driver: page.api("sparqlResult()")["kind"] not in ("none", "running"), "the query never finished")
    return page.api("sparqlResult()")


def test_sparql_box_offers_the_shipped_queries_and_tables_solutions(corpus_page: Viewer) -> None:
    corpus_page.open("sparql")
    corpus_page.wait_ready("t.kind === 'sparql'")
    options = [o.get_attribute("value") for o in corpus_page.driver.find_elements(By.CSS_SELECTOR, "#sparql-examples option") if o.get_attribute("value")]
    assert options == list(list_named_queries())
    result = run_query(corpus_page, "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>\n"
                                    "SELECT ?paper WHERE { GRAPH ?paper { ?paper a cg:Paper } } ORDER BY ?paper")
    assert result["kind"] == "solutions" and result["rows"] == 5
    cells = [td.text for td in corpus_page.driver.find_elements(By.CSS_SELECTOR, "#sparql-table tbody td")]
    assert cells == [f"https://claimgraph.example/paper/{paper}" for paper in "abcde"]
    assert not corpus_page.driver.find_element(By.ID, "sparql-hint").is_displayed()


def test_sparql_box_draws_a_construct_result(corpus_page: Viewer) -> None:
    corpus_page.open("sparql")
    corpus_page.wait_ready("t.kind === 'sparql'")
    result = run_query(corpus_page, "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>\n"
                                    f"CONSTRUCT {{ ?member cg:mentions <{HUB_1.value}> }} WHERE {{ GRAPH ?g {{ ?member ?r <{HUB_1.value}> }} }}")
    assert result == {"kind": "graph", "rows": 0, "triples": 2, "nodes": 3, "edges": 2}
    assert corpus_page.driver.find_element(By.ID, "cy-sparql").is_displayed()


def test_sparql_box_hints_when_a_default_graph_query_finds_nothing(corpus_page: Viewer) -> None:
    corpus_page.open("sparql")
    corpus_page.wait_ready("t.kind === 'sparql'")
    result = run_query(corpus_page, "SELECT ?s WHERE { ?s ?p ?o }")
    assert result["rows"] == 0
    hint = corpus_page.driver.find_element(By.ID, "sparql-hint")
    corpus_page.wait(lambda driver: hint.is_displayed(), "no hint for an empty default-graph query")
    assert "GRAPH" in hint.text


def test_screenshot_script_writes_a_png_of_each_view(served: ClaimgraphServer, browser: Any, tmp_path: Path) -> None:
    from claimgraph.testing.viewer.screenshots import VIEWS, take_screenshots

    hub = api(served, "hubs", limit="1")["hubs"][0]["iri"]
    written = take_screenshots(browser, served.base_url + "/viewer/", tmp_path, paper="soil-warming", hub=hub, term=None)
    assert sorted(path.name for path in written) == sorted(f"{name}.png" for name in VIEWS if name != "term")
    assert all(path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for path in written)
