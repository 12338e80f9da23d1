"""Every canonical link says how it was decided (cg:linkBasis): the hub's own text, cosine and the
guards alone, or a judge's SAME; hub-members shows it and link-bases counts it from the store."""

from __future__ import annotations

from pathlib import Path

from claimgraph.canonical.canonicalizer import canonicalize_papers, reindex
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, local_name

LOW_THRESHOLD = CanonicalizeSettings(thresholds={"Claim": 0.5})  # b joins a by cosine, no judge


def _bases(store, iris) -> dict[str, tuple[str, str | None]]:
    """Member paper -> (basis local name, judge) from the shipped hub-members query."""
    return {iris.paper_id_of(row["paper"]): (local_name(row["basis"].value), row["judge"].value if "judge" in row else None)
            for row in store.select(read_named_query("hub-members"))}


def test_the_founder_and_exact_duplicates_are_exact_text_and_a_cosine_join_is_similarity(
        texts, load_claims, store, iris, tmp_path: Path, shapes_and_rules_hold) -> None:
    claims = {paper: texts[paper] for paper in "abcd"}
    load_claims(store, iris, claims)
    summary = canonicalize_papers(Context(store, iris), list(claims), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                  settings=LOW_THRESHOLD)
    # a waits; b finds a and founds the hub with its own text; c has a's text, which is only as close to the
    # hub's as a's similarity link makes it; d's scope change is vetoed
    assert _bases(store, iris) == {"a": ("similarity", None), "b": ("exactText", None), "c": ("similarity", None)}
    assert summary.by_similarity == 2 and summary.guard_vetoes >= 1
    counts = {local_name(row["basis"].value): (int(row["links"].value), int(row["crossPaperLinks"].value), int(row["hubs"].value))
              for row in store.select(read_named_query("link-bases"))}
    assert counts == {"exactText": (1, 1, 1), "similarity": (2, 2, 1)}
    assert shapes_and_rules_hold(store, iris)


def test_an_identical_text_met_as_a_pending_peer_is_exact_text(load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": "warming raises soil respiration", "b": "warming raises soil respiration"})
    canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW_THRESHOLD)
    assert _bases(store, iris) == {"a": ("exactText", None), "b": ("exactText", None)}


def test_a_judged_link_names_its_judge(band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    judge = LLMAdjudicator(llm_config(fake_llm({"": ["SAME"]})))
    try:
        summary = canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                      settings=band, adjudicate=judge)
    finally:
        judge.close()
    assert _bases(store, iris) == {"a": ("judged", "llm:fake-model"), "b": ("exactText", None)}
    assert summary.by_similarity == 0


def test_a_copy_of_a_judged_text_joins_on_the_same_verdict(band, texts, load_claims, store, iris, fake_llm, llm_config,
                                                           tmp_path: Path) -> None:
    """c holds a's text byte for byte: the judge's SAME about a's text holds for c, in the run that asked it."""
    load_claims(store, iris, {paper: texts[paper] for paper in "abc"})
    server = fake_llm({"": ["SAME"]})
    judge = LLMAdjudicator(llm_config(server))
    try:
        summary = canonicalize_papers(Context(store, iris), list("abc"), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                      settings=band, adjudicate=judge)
    finally:
        judge.close()
    assert _bases(store, iris) == {"a": ("judged", "llm:fake-model"), "b": ("exactText", None), "c": ("judged", "llm:fake-model")}
    assert len(server.chat_requests()) == 1 and summary.by_similarity == 0


def test_a_copy_of_a_judged_text_in_a_later_run_without_a_judge_keeps_the_verdict(
        band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    """The verdict is read back from the store: a later run, with no judge at hand, links c as judged by the
    judge that answered, while e (a's text with one more word) is only a candidate."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    judge = LLMAdjudicator(llm_config(fake_llm({"": ["SAME"]})))
    try:
        canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                            settings=band, adjudicate=judge)
    finally:
        judge.close()
    load_claims(store, iris, {"c": texts["a"], "e": texts["a"] + " too"})
    canonicalize_papers(Context(store, iris), ["c", "e"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                        settings=CanonicalizeSettings(thresholds={"Claim": 0.5}))
    bases = _bases(store, iris)
    assert bases["c"] == ("judged", "llm:fake-model") and bases["e"] == ("similarity", None)


def test_a_link_without_a_basis_is_listed_and_reindex_gives_it_one(texts, load_claims, store, iris, tmp_path: Path) -> None:
    """Stores written before bases were recorded keep their links visible, with no basis, until reindex
    fills it in from the texts: the hub's own text is exact, anything else no more than similarity."""
    load_claims(store, iris, {paper: texts[paper] for paper in "abc"})
    context = Context(store, iris)
    canonicalize_papers(context, list("abc"), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW_THRESHOLD)
    recorded = _bases(store, iris)
    store.update("DELETE { GRAPH ?g { ?annotation ?basis ?value } } WHERE { GRAPH ?g { ?annotation ?basis ?value } }", {"basis": CG.linkBasis})
    rows = store.select(read_named_query("hub-members"))
    assert len(rows) == 3 and all("basis" not in row for row in rows)
    counts = store.select(read_named_query("link-bases"))
    assert [("basis" in row, int(row["links"].value)) for row in counts] == [(False, 3)]
    reindex(context, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW_THRESHOLD)
    assert _bases(store, iris) == recorded == {"a": ("similarity", None), "b": ("exactText", None), "c": ("similarity", None)}
    reindex(context, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW_THRESHOLD)
    assert len(store.select(read_named_query("hub-members"))) == 3  # a recorded basis is kept, not doubled


def test_convergence_counts_the_nodes_linked_by_similarity_alone(texts, load_claims, store, iris, tmp_path: Path) -> None:
    from claimgraph.canonical.convergence import convergence

    load_claims(store, iris, {paper: texts[paper] for paper in "abc"})
    canonicalize_papers(Context(store, iris), list("abc"), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW_THRESHOLD)
    measures = convergence(Context(store, iris))
    assert measures.by_type["linked by similarity alone"] == {"Claim": 2}  # a, and c with a's text; b founded the hub
    assert measures.by_type["attached to a hub"] == {"Claim": 3}


class _AskedNothing:
    """A judge that fails the test when asked: the verdict on record must decide."""

    name = "llm:now"

    def __call__(self, a: str, b: str, type_name: str, /) -> bool:
        raise AssertionError(f"the judge was asked about {a!r} and {b!r}")

    def verdict(self, a: str, b: str, type_name: str, /) -> bool | None:
        return self(a, b, type_name)


def test_a_judged_text_the_ann_search_brings_to_its_hub_joins_on_the_verdict_without_asking(iris) -> None:
    """The exact-text map names a merge hub that already holds the paper, so the copy searches; the hub it then
    meets is one a judge found this very text the same as, and the copy joins it on that verdict."""
    from pyoxigraph import NamedNode

    from claimgraph.canonical.links.placement import Placer
    from claimgraph.canonical.links.state import NodeRow
    from claimgraph.canonical.plan import Plan
    from claimgraph.canonical.sidecar import Sidecar

    factor, text = CG.Factor.value, "soil moisture"
    others = {"urn:x:held": "moisture of the soil", "urn:x:judged": "soil water content"}
    embedder = HashingEmbedder()
    vectors = embedder.embed([text, *others.values()])
    sidecar = Sidecar(None, embedder.name, embedder.dimension)
    paper = iris.paper("p")
    sidecar.partition("hub", factor).add("urn:x:held", vectors[1], [paper.value])
    sidecar.partition("hub", factor).add("urn:x:judged", vectors[2], [iris.paper("q").value])
    settings = CanonicalizeSettings(thresholds={"Factor": 0.99}, adjudicate={"Factor": (-1.0, 0.99)})
    placer = Placer(sidecar, settings, {factor: "aggressive"}, iris, texts=dict(others), exact={(factor, text): "urn:x:held"},
                    adjudicate=_AskedNothing(), judged={(factor, text, "urn:x:judged"): "llm:earlier"})
    plan = Plan(paper)
    placer.place(NodeRow(paper, iris.node("p", "factor", "1"), factor, text), vectors[0], plan)
    (link,) = plan.links
    assert (link.hub, local_name(link.basis.value), link.judge) == (NamedNode("urn:x:judged"), "judged", "llm:earlier")
