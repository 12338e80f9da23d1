"""The corpus view's API (api/corpus, api/shared, api/term) over a real embedded store holding
hand-placed links of every kind (viewer_corpus_store.py): each expected link and count is written
out below, and pairs that share nothing must not appear."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from viewer_corpus_store import HUB_1, HUB_2, TERM_1, build, node, work

from claimgraph.context import Context
from claimgraph.serve.viewer.api import CountCache, answer
from claimgraph.store import EmbeddedStore


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    path = tmp_path_factory.mktemp("corpus") / "store"
    build(path)
    with Context(EmbeddedStore(path, read_only=True)) as context:
        yield context


def get(ctx: Context, route: str, **params: str) -> tuple[int, dict]:
    return answer(ctx, route, {key: [value] for key, value in params.items()}, CountCache(), None)


def test_corpus_lists_every_paper_with_title_year_category_and_size(ctx: Context) -> None:
    status, payload = get(ctx, "corpus")
    assert status == 200
    papers = {paper["id"]: paper for paper in payload["papers"]}
    assert list(papers) == ["a", "b", "c", "d", "e"]
    assert papers["a"]["title"] == "Title of a" and papers["a"]["category"] == "Biology"
    assert [papers[key]["year"] for key in "abcde"] == [2021, 2022, None, None, 2020]
    assert [papers[key]["size"] for key in "abcde"] == [2, 2, 2, 1, 1]


def test_corpus_links_are_exactly_the_shared_hubs_terms_works_and_citations(ctx: Context) -> None:
    _, payload = get(ctx, "corpus")
    links = {(link["kind"], link["source"], link["target"]): link["count"] for link in payload["links"]}
    assert links == {
        ("hub", "a", "b"): 2, ("hub", "a", "c"): 1, ("hub", "b", "c"): 1,
        ("term", "a", "c"): 1,
        ("citation", "a", "b"): 1,
        ("shared-citation", "a", "b"): 1, ("shared-citation", "a", "d"): 1,
    }
    assert payload["totals"] == {"citation": 1, "shared-citation": 2, "hub": 3, "term": 1}
    assert payload["links"][0] == {"source": "a", "target": "b", "kind": "hub", "count": 2}


def test_corpus_limit_keeps_the_strongest_links_of_each_kind(ctx: Context) -> None:
    _, payload = get(ctx, "corpus", limit="1", kinds="hub,term")
    assert [(link["kind"], link["source"], link["target"], link["count"]) for link in payload["links"]] == [
        ("hub", "a", "b", 2), ("term", "a", "c", 1)]
    assert payload["totals"]["hub"] == 3 and payload["limit"] == 1
    assert get(ctx, "corpus", kinds="nonsense")[0] == 400
    assert get(ctx, "corpus", limit="0")[0] == 400


def test_shared_names_what_two_papers_meet_at(ctx: Context) -> None:
    status, payload = get(ctx, "shared", source="a", target="b")
    assert status == 200
    assert payload["shared"]["hub"] == [{"iri": HUB_1.value, "label": "heat"}, {"iri": HUB_2.value, "label": "rain"}]
    assert payload["shared"]["shared-citation"] == [{"iri": work("w1").value, "label": "w1"}]
    assert payload["shared"]["term"] == []
    _, other = get(ctx, "shared", source="a", target="c")
    assert other["shared"]["term"] == [{"iri": TERM_1.value, "label": "temperature"}]
    assert get(ctx, "shared", source="a", target="nope")[0] == 404
    assert get(ctx, "shared", source="a")[0] == 400


def test_term_view_shows_the_term_and_the_nodes_linked_to_it(ctx: Context) -> None:
    status, payload = get(ctx, "term", iri=TERM_1.value)
    assert status == 200
    assert payload["term"] == {"iri": TERM_1.value, "label": "temperature", "members": 2, "papers": 2}
    assert {(item["id"], item.get("paper")) for item in payload["nodes"]} == {
        (TERM_1.value, None), (node("a", "n1").value, "a"), (node("c", "n2").value, "c")}
    assert sorted(edge["label"] for edge in payload["edges"]) == ["closeMatch", "exactMatch"]
    assert get(ctx, "term", iri="http://example.org/onto/none")[0] == 404
    assert get(ctx, "term", iri="not an iri")[0] == 400


def test_hub_list_is_kept_per_store_state(ctx: Context) -> None:
    cache = CountCache()
    first = answer(ctx, "hubs", {"q": ["rain"]}, cache, "state-1")
    assert first == (200, {"hubs": [{"iri": HUB_2.value, "type": "Factor", "text": "rain", "members": 3, "papers": 3}]})
    kept = cache.remember("hubs", "state-1", lambda: pytest.fail("the hub list was computed again for the same state"))
    assert [hub["text"] for hub in kept] == ["rain", "heat", "alone"]
    recomputed: list[str] = []
    cache.remember("hubs", "state-2", lambda: recomputed.append("again") or [])
    assert recomputed == ["again"]
