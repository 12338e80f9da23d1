"""Benchmark: what ``join_within_paper`` changes when the 70 ARCHE papers are canonicalized.

Ingests the corpus into a fresh embedded store, canonicalizes it with the discourse profile's
settings and ``join_within_paper`` off, then again in a second fresh store with it on, and
prints for each: hubs, links, links by exact text, unattached nodes, guard vetoes, the hubs
that hold two differing texts of one paper, and the cross-paper hubs (with differing texts).
The labelled development pairs of canon_eval/arche_within_labels.toml say how many of the
within-paper links would be right.

    HF_HUB_OFFLINE=1 python bench/within_paper.py [--arche DIR]

About 4 minutes per setting on a 2-core machine, most of it embedding.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
from collections import defaultdict
from pathlib import Path

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.plan import Plan
from claimgraph.canonical.settings import load_settings
from claimgraph.context import Context
from claimgraph.embedding.embedders import make_embedder
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir


def run(folder: Path, join_within_paper: bool) -> str:
    """Canonicalize the corpus in a fresh store with the setting; one line of counts."""
    iris, work = IriScheme(), Path(tempfile.mkdtemp())
    store = EmbeddedStore(work / "store")
    documents = [load_document(path) for path in sorted(folder.glob("*.json"))]
    for document in documents:
        store_document(store, iris, document)
    settings = dataclasses.replace(load_settings(load_profile("discourse")), join_within_paper=join_within_paper)
    members: dict[str, set[tuple[str, str]]] = defaultdict(set)

    def seen(_: str, plan: Plan) -> None:
        for link in plan.links:
            members[link.hub.value].add((link.graph.value, link.text))

    summary = canonicalize_papers(Context(store, iris), [d.paper_id for d in documents], sidecar_dir=work / "side",
                                  embedder=make_embedder(), settings=settings, on_paper=seen)
    store.close()
    one_paper = sum(1 for held in members.values() if any(len({t for g, t in held if g == graph}) > 1 for graph, _ in held))
    cross = [held for held in members.values() if len({g for g, _ in held}) > 1]
    return (f"join_within_paper={str(join_within_paper).lower()}: {summary.hubs_created} hubs, {summary.links} links "
            f"({summary.exact} by exact text), {summary.unattached} unattached, {summary.guard_vetoes} guard vetoes; "
            f"{one_paper} hubs hold two differing texts of one paper; {len(cross)} cross-paper hubs, "
            f"{sum(len({t for _, t in held}) > 1 for held in cross)} of them with differing texts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, help="ARCHE folder (default: CLAIMGRAPH_ARCHE_DIR or ../shared/data/arche)")
    args = parser.parse_args()
    folder = args.arche or real_arche_dir()
    if folder is None or not folder.is_dir():
        raise SystemExit(ARCHE_SKIP_REASON)
    for setting in (False, True):
        print(run(folder, setting), flush=True)


if __name__ == "__main__":
    main()
