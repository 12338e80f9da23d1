"""Nodes and edges as named fields (JSON, XML, plist): source fields read, cut documents truncated, lost items counted."""

from __future__ import annotations

import json

from claimgraph.reasoning.fields import parse_json_fields, parse_plist_fields, parse_xml_fields
from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.parsed import MALFORMED, TRUNCATED

NODES = [{"id": f"n{i}", "label": f"(0,0,0) text {i}"} for i in range(4)]
EDGES = [{"source": "n1", "target": "n0", "label": "DR"}, {"source": "n2", "target": "n0", "label": "DC"},
         {"source": "n3", "target": "n1", "label": "ICo"}]


def test_a_json_source_list_is_read_as_the_node_tuple_and_the_node_is_not_taken_for_an_edge() -> None:
    text = json.dumps({"nodes": [{"id": "a", "label": "(0,0,0) x", "source": [5, 0, 1]}], "edges": []})
    graph = parse_json_fields(text)
    assert graph.nodes["a"].attrs["source"] == "(5,0,1)" and graph.skipped == 0


def test_cut_json_is_truncated_and_keeps_the_whole_objects_before_the_cut() -> None:
    text = json.dumps({"nodes": NODES, "edges": EDGES}, indent=1)
    graph = parse_json_fields(text[: text.index('"ICo"')])
    assert graph.residuals == [TRUNCATED]
    assert sorted(graph.nodes) == ["n0", "n1", "n2", "n3"] and len(graph.edges) == 2


def test_a_json_item_that_is_no_node_is_lost_material() -> None:
    graph = parse_json_fields(json.dumps({"nodes": [*NODES, "junk"], "edges": EDGES}))
    assert (graph.skipped_material, graph.residuals) == (1, [MALFORMED])


def test_xml_whose_root_is_never_closed_is_truncated() -> None:
    nodes = "".join(f'<node id="{n["id"]}" label="{n["label"]}"/>' for n in NODES)
    whole = f"<graph>{nodes}<edge source=\"n1\" target=\"n0\" label=\"DR\"/></graph>"
    assert parse_xml_fields(whole).residuals == []
    assert parse_xml_fields(whole[: whole.index("</graph>")]).residuals == [TRUNCATED]
    assert parse_xml_fields(whole[: whole.index('label="DR"')]).residuals == [TRUNCATED]


def test_a_plist_node_with_a_source_field_stays_a_node_and_an_unclosed_plist_is_truncated() -> None:
    dicts = ("<dict><key>id</key><string>a</string><key>label</key><string>(0,0,0) x</string><key>source</key><string>(2,0,1)</string></dict>"
             "<dict><key>source</key><string>a</string><key>target</key><string>b</string><key>label</key><string>DR</string></dict>")
    whole = f'<plist version="1.0"><dict><key>nodes</key><array>{dicts}</array></dict></plist>'
    graph = parse_plist_fields(whole)
    assert list(graph.nodes) == ["a"] and graph.nodes["a"].attrs["source"] == "(2,0,1)" and len(graph.edges) == 1
    assert parse_plist_fields(whole[: whole.index("</array>")]).residuals == [TRUNCATED]


def test_json_cut_before_its_first_object_is_parse_failed_and_truncated() -> None:
    graph = materialize('Here:\n```json\n{"nodes": [{"id": "n0", "lab')
    assert graph.branch == "none" and graph.residuals == [TRUNCATED]
