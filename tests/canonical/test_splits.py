"""Split CANON_ nodes (two hubs of one type and text, which writers that read the hubs at once leave behind)
are found, and reindex folds each group into one hub holding every member, verdicts included."""

from __future__ import annotations

from pathlib import Path

from pyoxigraph import NamedNode

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers, reindex
from claimgraph.canonical.links.splits import split_hubs
from claimgraph.canonical.links.unmerge import unmerge
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import EmbeddedStore

LOW = CanonicalizeSettings(default_threshold=0.45)
PAPERS = "abcdef"


def load(store, iris, discourse_paper) -> None:
    for paper in PAPERS:
        store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {"s": ("tobacco smoking habit", 0.9)},
                                                                claims=[("1", "smoking causes lung cancer", None)]))


def memberships(store) -> set[frozenset[str]]:
    hubs: dict[str, set[str]] = {}
    for row in store.select(read_named_query("hub-members")):
        hubs.setdefault(row["hub"].value, set()).add(row["member"].value)
    return {frozenset(members) for members in hubs.values()}


def split_store(store, iris, discourse_paper, tmp_path: Path) -> None:
    """Two canonicalizers that both read the hubs before either wrote, as two writers without the lease would."""
    load(store, iris, discourse_paper)
    ctx = Context(store, iris)
    first = Canonicalizer(ctx, sidecar_dir=tmp_path / "one", embedder=HashingEmbedder(), settings=LOW)
    second = Canonicalizer(ctx, sidecar_dir=tmp_path / "two", embedder=HashingEmbedder(), settings=LOW)
    for paper in PAPERS[:3]:
        first.canonicalize_paper(paper)
    for paper in PAPERS[3:]:
        second.canonicalize_paper(paper)


def test_reindex_folds_split_hubs_into_the_hubs_a_serial_run_founds(store, iris, discourse_paper, tmp_path: Path,
                                                                     shapes_and_rules_hold) -> None:
    serial = EmbeddedStore(tmp_path / "serial")
    load(serial, iris, discourse_paper)
    canonicalize_papers(Context(serial, iris), list(PAPERS), sidecar_dir=tmp_path / "serial-side", embedder=HashingEmbedder(), settings=LOW)
    expected = memberships(serial)
    assert split_hubs(Context(serial, iris)) == [] and {len(members) for members in expected} == {len(PAPERS)}

    split_store(store, iris, discourse_paper, tmp_path)
    groups = split_hubs(Context(store, iris))
    assert len(groups) == 2 and all(len(group) == 2 for group in groups)
    summary = reindex(Context(store, iris), sidecar_dir=tmp_path / "one", embedder=HashingEmbedder(), settings=LOW)
    assert summary.splits.folded == 2 and summary.splits.kept == []
    assert split_hubs(Context(store, iris)) == []
    assert memberships(store) == expected
    counts = {int(row["members"].value) for row in store.select(read_named_query("canonical-hubs"))}
    assert counts == {len(PAPERS)}
    assert shapes_and_rules_hold(store, iris)


def test_a_verdict_naming_a_folded_hub_names_the_hub_it_was_folded_into(store, iris, discourse_paper, tmp_path: Path) -> None:
    split_store(store, iris, discourse_paper, tmp_path)
    ctx = Context(store, iris)
    claim_group = next(group for group in split_hubs(ctx) if "CANON_Claim_" in group[0])
    member = next(row["member"] for row in store.select(read_named_query("hub-members"), {"hub": NamedNode(claim_group[1])}))
    unmerge(ctx, member=member, reason="kept apart by hand")
    reindex(ctx, sidecar_dir=tmp_path / "one", embedder=HashingEmbedder(), settings=LOW)
    (verdict,) = store.select(read_named_query("held-apart"))
    survivors = [row["hub"].value for row in store.select(read_named_query("canonical-hubs")) if "CANON_Claim_" in row["hub"].value]
    assert verdict["node"] == member and [verdict["other"].value] == survivors
    canonicalize_papers(ctx, list(PAPERS), force=True, sidecar_dir=tmp_path / "one", embedder=HashingEmbedder(), settings=LOW)
    assert member.value not in {row["member"].value for row in store.select(read_named_query("hub-members"))}


def test_validate_reports_each_split_hub_and_none_once_reindex_folded_them(store, iris, discourse_paper, tmp_path: Path) -> None:
    from claimgraph.quality.validation import validate_store

    split_store(store, iris, discourse_paper, tmp_path)
    found = [violation for violation in validate_store(Context(store, iris), workers=1).violations if violation.rule == "split_hub"]
    assert len(found) == 4 and all("claimgraph reindex" in violation.reason for violation in found)
    reindex(Context(store, iris), sidecar_dir=tmp_path / "one", embedder=HashingEmbedder(), settings=LOW)
    assert [violation for violation in validate_store(Context(store, iris), workers=1).violations if violation.rule == "split_hub"] == []
