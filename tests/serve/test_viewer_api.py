"""The viewer's JSON API and files as `claimgraph serve` mounts them (docs/viewer-api.md), over a real store."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from serve_support import request

from claimgraph.publish.elements import short_label
from claimgraph.serve.server import ClaimgraphServer

NODE_FIELDS = {"id", "label", "type", "role", "text", "confidence", "anchor", "sentence", "provenance", "terms"}
EDGE_FIELDS = {"id", "source", "target", "label", "confidence", "provenance"}


def api(server: ClaimgraphServer, route: str, **params: str) -> tuple[int, dict[str, str], dict]:
    query = ("?" + urllib.parse.urlencode(params)) if params else ""
    status, headers, body = request(server, "GET", f"/viewer/api/{route}{query}")
    return status, headers, json.loads(body)


def test_paper_counts_are_the_lengths_of_the_graph_lists(served: ClaimgraphServer) -> None:
    status, headers, payload = api(served, "papers")
    assert status == 200 and headers["content-type"] == "application/json; charset=utf-8" and headers["cache-control"] == "no-store"
    assert [paper["id"] for paper in payload["papers"]] == ["soil-moisture", "soil-warming", "synthetic-ripples"]
    for paper in payload["papers"]:
        _, _, graph = api(served, "graph", paper=paper["id"], view="paper")
        assert (paper["nodes"], paper["edges"]) == (len(graph["nodes"]), len(graph["edges"]))
        assert paper["title"]


def test_graph_payloads_follow_the_contract(served: ClaimgraphServer) -> None:
    for view in ("paper", "raw"):
        status, _, payload = api(served, "graph", paper="synthetic-ripples", view=view)
        assert status == 200 and payload["paper"] == "synthetic-ripples" and payload["view"] == view
        ids = {node["id"] for node in payload["nodes"]}
        assert payload["nodes"] and len(ids) == len(payload["nodes"])
        for node in payload["nodes"]:
            assert set(node) == NODE_FIELDS
            assert node["label"] == short_label(node["text"])
            assert set(node["provenance"]) == {"step", "model", "repairs"}
        for edge in payload["edges"]:
            assert set(edge) == EDGE_FIELDS and {edge["source"], edge["target"]} <= ids
            assert edge["id"] == f"{edge['source']}|{edge['label']}|{edge['target']}"


def test_viewpoints_carry_their_anchor_sentence_and_load_step(served: ClaimgraphServer) -> None:
    _, _, payload = api(served, "graph", paper="synthetic-ripples")
    viewpoints = [node for node in payload["nodes"] if node["type"] == "Viewpoint"]
    assert viewpoints
    for node in viewpoints:
        assert node["anchor"].startswith("(") and node["provenance"]["step"] == "load"
        x = int(node["anchor"][1:].split(",")[0])
        assert (node["sentence"] is None) == (x == 0)


def test_hubs_filter_by_text_and_limit(served: ClaimgraphServer) -> None:
    _, _, everything = api(served, "hubs")
    hubs = everything["hubs"]
    assert hubs, "the demo store has CANON_ hubs"
    assert [(-hub["members"], hub["text"]) for hub in hubs] == sorted((-hub["members"], hub["text"]) for hub in hubs)
    word = hubs[0]["text"].split()[-1].upper()
    _, _, found = api(served, "hubs", q=word)
    assert found["hubs"] and all(word.casefold() in hub["text"].casefold() for hub in found["hubs"])
    _, _, one = api(served, "hubs", limit="1")
    assert one["hubs"] == hubs[:1]
    status, _, hub = api(served, "hub", iri=hubs[0]["iri"])
    assert status == 200 and hub["hub"] == hubs[0]
    assert hub["nodes"][0]["id"] == hubs[0]["iri"] and len(hub["nodes"]) == hubs[0]["members"] + 1
    assert all(edge["target"] == hubs[0]["iri"] for edge in hub["edges"])
    assert {edge["basis"] for edge in hub["edges"]} <= {"exactText", "similarity", "judged"}
    assert all(edge["label"] in (f"mentions ({edge['basis']})", f"exactMatch ({edge['basis']})") for edge in hub["edges"])
    assert "exactText" in {edge["basis"] for edge in hub["edges"]}  # the founder's link, at least
    assert {node["paper"] for node in hub["nodes"][1:]} and len({node["paper"] for node in hub["nodes"][1:]}) == hubs[0]["papers"]


@pytest.mark.parametrize(("route", "params", "status", "words"), [
    ("graph", {}, 400, "'paper'"),
    ("graph", {"paper": "soil-warming", "view": "diff"}, 400, "view"),
    ("graph", {"paper": "../etc"}, 400, "paper id"),
    ("graph", {"paper": "no-such-paper"}, 404, "no paper 'no-such-paper'"),
    ("hubs", {"limit": "0"}, 400, "limit"),
    ("hubs", {"limit": "ten"}, 400, "limit"),
    ("hub", {"iri": "not an iri"}, 400, "not an IRI"),
    ("hub", {"iri": "https://claimgraph.example/canonical/CANON_Factor_none"}, 404, "no CANON_ hub"),
    ("nothing", {}, 404, "no API route"),
])
def test_api_errors_are_json_with_a_message(served: ClaimgraphServer, route: str, params: dict[str, str], status: int, words: str) -> None:
    got, headers, payload = api(served, route, **params)
    assert got == status and headers["content-type"].startswith("application/json")
    assert words in payload["error"]


def test_the_mount_redirects_and_serves_only_static_files(served: ClaimgraphServer) -> None:
    status, headers, _ = request(served, "GET", "/viewer")
    assert status == 301 and headers["location"] == "/viewer/"
    status, headers, body = request(served, "GET", "/viewer/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8" and b"<html" in body.lower()
    assert "script-src 'self'" in headers["content-security-policy"] and headers["x-content-type-options"] == "nosniff"
    status, headers, _ = request(served, "GET", "/viewer/viewer.js")
    assert status == 200 and headers["content-type"] == "text/javascript; charset=utf-8"
    status, headers, _ = request(served, "GET", "/viewer/vendor/cytoscape.min.js")
    assert status == 200
    for path in ("/viewer/../routes.py", "/viewer/%2e%2e/routes.py", "/viewer/vendor/../../server.py", "/viewer/nothing.js"):
        assert request(served, "GET", path)[0] == 404, path
    assert request(served, "GET", "/")[1]["location"] == "/viewer/"
