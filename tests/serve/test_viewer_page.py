"""The browser viewer in real headless Chromium against the fixture API.

Expected numbers come from the hand-written payloads in fixtures/: the
soil-warming paper has 10 nodes and 10 edges repaired, 11 and 11 raw; its
repair merged a duplicate Evidence node, relabelled a `support` edge to
`supports` and dropped a self-loop.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from viewer_harness import PREFIX, Viewer, load_fixture

pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

SOIL = "https://claimgraph.example/paper/soil-warming/node/"
SCREENSHOT_ENV = "CLAIMGRAPH_VIEWER_SCREENSHOT"


def soil(local: str) -> str:
    return SOIL + local


def soil_edge(source: str, label: str, target: str) -> str:
    return f"{soil(source)}|{label}|{soil(target)}"


def open_paper(viewer: Viewer, paper: str, view: str) -> None:
    viewer.open(f"paper={paper}&view={view}")
    viewer.wait_ready(f"t.kind === 'paper' && t.paper === '{paper}' && t.view === '{view}'")


def wait_counts(viewer: Viewer, nodes: int, edges: int) -> None:
    viewer.wait(
        lambda driver: viewer.api("counts()") == {"nodes": nodes, "edges": edges},
        f"expected {nodes} nodes and {edges} edges, last saw {viewer.api('counts()')}",
    )


def details_field(viewer: Viewer, field: str) -> str:
    return viewer.driver.find_element(By.CSS_SELECTOR, f'#details-body [data-field="{field}"]').text


def hover(viewer: Viewer, element_id: str) -> None:
    """Move the pointer over a node's centre or an edge's midpoint in the main pane; wait for its details."""
    position = viewer.api(f"renderedPosition({element_id!r})")
    pane = viewer.driver.find_element(By.ID, "cy-main")
    size = pane.size
    ActionChains(viewer.driver).move_to_element_with_offset(
        pane, int(position["x"] - size["width"] / 2), int(position["y"] - size["height"] / 2)
    ).perform()
    viewer.wait(
        lambda driver: details_field(viewer, "id") == element_id if driver.find_elements(
            By.CSS_SELECTOR, '#details-body [data-field="id"]') else False,
        f"hovering {element_id} did not show its details",
    )


def fixture_node(name: str, node_id: str) -> dict:
    return next(node for node in load_fixture(name)["nodes"] if node["id"] == node_id)


def test_page_loads_without_console_errors_and_only_from_its_own_mount(viewer: Viewer) -> None:
    viewer.open()
    viewer.wait_ready("t.kind === 'corpus'")
    assert viewer.api("corpusCounts()") == {"papers": 2, "links": 1}
    viewer.driver.find_element(By.CSS_SELECTOR, '#corpus-papers button[data-id="soil-warming"]').click()
    viewer.wait_ready("t.kind === 'paper' && t.paper === 'soil-warming' && t.view === 'paper'")
    severe = [entry for entry in viewer.drain_log() if entry["level"] == "SEVERE"]
    assert severe == []
    resources = viewer.js("return performance.getEntriesByType('resource').map(e => e.name);")
    page_root = viewer.server.page_url
    assert resources, "the page fetched nothing"
    assert [url for url in resources if not url.startswith(page_root)] == []
    assert f"{PREFIX}api/papers" in viewer.server.requests and f"{PREFIX}api/corpus?limit=300" in viewer.server.requests
    assert f"{PREFIX}api/graph?paper=soil-warming&view=paper" in viewer.server.requests


@pytest.mark.parametrize(
    ("paper", "view", "fixture"),
    [
        ("soil-warming", "paper", "graph-soil-warming-paper.json"),
        ("soil-warming", "raw", "graph-soil-warming-raw.json"),
        ("peat-drainage", "paper", "graph-peat-drainage-paper.json"),
    ],
)
def test_rendered_counts_equal_the_payload(viewer: Viewer, paper: str, view: str, fixture: str) -> None:
    payload = load_fixture(fixture)
    open_paper(viewer, paper, view)
    assert viewer.api("counts()") == {"nodes": len(payload["nodes"]), "edges": len(payload["edges"])}
    listed = viewer.driver.find_elements(By.CSS_SELECTOR, "#node-list button")
    assert sorted(button.get_attribute("data-id") for button in listed) == sorted(n["id"] for n in payload["nodes"])


def test_unticking_a_type_hides_its_nodes_and_their_edges(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    evidence = viewer.driver.find_element(By.CSS_SELECTOR, '#type-options input[value="Evidence"]')
    evidence.click()
    wait_counts(viewer, 7, 5)  # 3 Evidence nodes; 5 edges touch one of them
    assert len(viewer.driver.find_elements(By.CSS_SELECTOR, "#node-list button")) == 7
    evidence.click()
    wait_counts(viewer, 10, 10)


def test_unticking_a_role_hides_only_nodes_with_that_role(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    viewer.driver.find_element(By.CSS_SELECTOR, '#role-options input[value="deduction-case"]').click()
    wait_counts(viewer, 9, 8)  # one deduction-case Evidence node with two edges


def test_confidence_slider_hides_nodes_and_edges_below_it(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    slider = viewer.driver.find_element(By.ID, "min-confidence")
    slider.send_keys(*([Keys.ARROW_RIGHT] * 14))  # 14 steps of 0.05
    viewer.wait(
        lambda driver: driver.find_element(By.ID, "min-confidence-value").text == "0.70",
        "the slider did not reach 0.70",
    )
    # Nodes >= 0.7 or unscored: 2 claims/evidence, the association, 2 factors.
    # Edges: supports 0.8 and the two unscored arg edges; supports 0.65 goes
    # although both its ends stay.
    wait_counts(viewer, 5, 3)


def test_hovering_a_node_shows_its_text_anchor_sentence_and_provenance(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    node_id = soil("p1-e1")
    expected = fixture_node("graph-soil-warming-paper.json", node_id)
    hover(viewer, node_id)
    assert details_field(viewer, "text") == expected["text"]  # holds "<sub>", "<" and "&", shown literally
    assert details_field(viewer, "sentence") == expected["sentence"]
    assert details_field(viewer, "anchor") == "(2,0,1)"
    assert details_field(viewer, "confidence") == "0.8"
    assert details_field(viewer, "step") == "entities"
    assert details_field(viewer, "model") == "demo-chat-model"
    assert details_field(viewer, "repairs") == "none"
    assert details_field(viewer, "title") == "Evidence, role deduction-case"


def test_keyboard_focus_in_the_node_list_shows_that_nodes_details(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    viewer.js("document.getElementById('node-list-heading').focus();")
    ActionChains(viewer.driver).send_keys(Keys.TAB).perform()
    focused = viewer.driver.switch_to.active_element
    assert focused.get_attribute("data-id") == soil("p1-a1")  # the list is sorted; Association comes first
    viewer.wait(lambda driver: details_field(viewer, "id") == soil("p1-a1"), "focus did not show details")
    assert details_field(viewer, "anchor") == "(2,0,2)"


def test_repaired_node_shows_which_repair_touched_it(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    viewer.driver.find_element(By.CSS_SELECTOR, f'#node-list button[data-id="{soil("p1-e2")}"]').click()
    viewer.wait(lambda driver: details_field(viewer, "id") == soil("p1-e2"), "click did not show details")
    assert details_field(viewer, "repairs") == "merge_duplicate_nodes"


def test_side_by_side_highlights_exactly_what_repair_added_and_removed(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "compare")
    assert viewer.driver.find_element(By.ID, "cy-raw").is_displayed()
    assert viewer.driver.find_element(By.ID, "cy-main").is_displayed()
    assert viewer.api("paneCounts()") == {"raw": {"nodes": 11, "edges": 11}, "paper": {"nodes": 10, "edges": 10}}
    assert viewer.api("highlighted()") == {
        "added": sorted([soil_edge("p1-e2", "supports", "p1-c1"), soil_edge("p1-e2", "supports", "p1-a1")]),
        "removed": sorted([
            soil("p2-e2"),  # the merged duplicate
            soil_edge("p2-e2", "supports", "p1-a1"),  # its edge, now from the survivor
            soil_edge("p1-e2", "support", "p1-c1"),  # the alias label before relabelling
            soil_edge("p1-h1", "supports", "p1-h1"),  # the self-loop
        ]),
    }
    assert len(viewer.driver.find_elements(By.CSS_SELECTOR, '[data-list="added"] button')) == 2
    assert len(viewer.driver.find_elements(By.CSS_SELECTOR, '[data-list="removed"] button')) == 4


def test_side_by_side_of_an_unchanged_paper_highlights_nothing(viewer: Viewer) -> None:
    open_paper(viewer, "peat-drainage", "compare")
    assert viewer.api("paneCounts()") == {"raw": {"nodes": 6, "edges": 5}, "paper": {"nodes": 6, "edges": 5}}
    assert viewer.api("highlighted()") == {"added": [], "removed": []}


def test_filters_apply_to_both_panes_side_by_side(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "compare")
    viewer.driver.find_element(By.CSS_SELECTOR, '#type-options input[value="Evidence"]').click()
    # The raw graph has a fourth Evidence node (the duplicate) and one edge more.
    viewer.wait(
        lambda driver: viewer.api("paneCounts()") == {
            "raw": {"nodes": 7, "edges": 6}, "paper": {"nodes": 7, "edges": 5}},
        "the type filter did not reach both panes",
    )


def test_choosing_a_paper_and_a_view_from_the_controls(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    Select(viewer.driver.find_element(By.ID, "paper-select")).select_by_value("peat-drainage")
    viewer.wait_ready("t.paper === 'peat-drainage' && t.view === 'paper'")
    assert viewer.api("counts()") == {"nodes": 6, "edges": 5}
    viewer.driver.find_element(By.CSS_SELECTOR, 'input[name="view"][value="compare"]').click()
    viewer.wait_ready("t.paper === 'peat-drainage' && t.view === 'compare'")
    assert set(viewer.api("paneCounts()")) == {"raw", "paper"}


def test_hub_search_and_hub_view_show_the_hub_and_each_member(viewer: Viewer) -> None:
    open_paper(viewer, "soil-warming", "paper")
    search = viewer.driver.find_element(By.ID, "hub-search")
    search.send_keys("SOIL", Keys.ENTER)
    viewer.wait(
        lambda driver: [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#hub-results button")]
        == ["soil temperature (Factor): 3 members in 2 papers"],
        "the hub search did not narrow the list to the soil temperature hub",
    )
    viewer.driver.find_element(By.CSS_SELECTOR, "#hub-results button").click()
    viewer.wait_ready("t.kind === 'hub'")
    payload = load_fixture("hub-soil-temperature.json")
    assert viewer.api("paneCounts()") == {"hub": {"nodes": 4, "edges": 3}}  # the hub and 3 members
    listed = {b.get_attribute("data-id") for b in viewer.driver.find_elements(By.CSS_SELECTOR, "#node-list button")}
    assert listed == {node["id"] for node in payload["nodes"]}
    member = "https://claimgraph.example/paper/peat-drainage/node/p1-f2"
    viewer.driver.find_element(By.CSS_SELECTOR, f'#node-list button[data-id="{member}"]').click()
    viewer.wait(lambda driver: details_field(viewer, "id") == member, "member details did not show")
    assert details_field(viewer, "paper") == "peat-drainage"


def test_hovering_a_hub_link_says_how_it_was_decided(viewer: Viewer) -> None:
    hub = load_fixture("hubs.json")["hubs"][0]["iri"]
    viewer.open(f"hub={hub}")
    viewer.wait_ready("t.kind === 'hub'")
    edge = next(e for e in load_fixture("hub-soil-temperature.json")["edges"] if e["basis"] == "similarity")
    hover(viewer, edge["id"])
    assert details_field(viewer, "title") == "Edge: mentions (similarity)"
    assert details_field(viewer, "basis") == "similarity alone: a candidate, not checked by a judge"


def test_hub_view_keeps_the_hub_when_its_type_is_filtered_out(viewer: Viewer) -> None:
    hub = load_fixture("hubs.json")["hubs"][0]["iri"]
    viewer.open(f"hub={hub}")
    viewer.wait_ready("t.kind === 'hub'")
    viewer.driver.find_element(By.CSS_SELECTOR, '#type-options input[value="Factor"]').click()
    wait_counts(viewer, 1, 0)


def test_an_api_error_shows_the_servers_message(viewer: Viewer) -> None:
    viewer.open("paper=no-such-paper&view=paper")
    viewer.wait_status("error")
    alert = viewer.driver.find_element(By.ID, "error")
    assert alert.is_displayed()
    assert "no paper 'no-such-paper' in the store (HTTP 404)" in alert.text
    assert "no paper 'no-such-paper'" in viewer.driver.find_element(By.ID, "pane-main-message").text
    severe = [entry["message"] for entry in viewer.drain_log() if entry["level"] == "SEVERE"]
    assert severe and all("404" in message for message in severe)


PAINTED_PIXELS = """
const pane = document.getElementById(arguments[0]);
let painted = 0;
for (const canvas of pane.querySelectorAll('canvas')) {
  if (!canvas.width || !canvas.height) continue;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
}
return painted;
"""


def test_side_by_side_paints_both_panes(viewer: Viewer, tmp_path: Path) -> None:
    """Both canvases get drawn on; with CLAIMGRAPH_VIEWER_SCREENSHOT=path set,
    the page is also saved there as a PNG (docs/viewer.png comes from this)."""
    viewer.driver.set_window_size(1400, 1000)
    open_paper(viewer, "soil-warming", "compare")
    for pane in ("cy-raw", "cy-main"):
        viewer.wait(lambda driver, pane=pane: viewer.js(PAINTED_PIXELS, pane) > 2000, f"{pane} stayed blank")
    target = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "viewer.png")
    viewer.js("window.scrollTo(0, 0);")
    assert viewer.driver.save_screenshot(str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
