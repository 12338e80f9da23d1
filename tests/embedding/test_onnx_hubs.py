"""The ONNX Runtime MiniLM and the sentence-transformers reference give identical hub assignments
on a 10-paper subset of the real ARCHE corpus (slow: it embeds the subset twice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.canonical.canonicalizer import Canonicalizer
from claimgraph.canonical.plan import Plan
from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore


def assignments(paths: list[Path], embedder) -> tuple[set[frozenset[str]], int]:
    """The groups of nodes that share a CANON_ node, and how many nodes stayed unattached."""
    iris, store = IriScheme(), EmbeddedStore()
    documents = [load_document(path) for path in paths]
    for document in documents:
        store_document(store, iris, document)
    canonicalizer = Canonicalizer(Context(store, iris), embedder=embedder)
    plans: list[Plan] = [canonicalizer.canonicalize_paper(document.paper_id) for document in documents]
    groups: dict[str, set[str]] = {}
    for plan in plans:
        for link in plan.links:
            groups.setdefault(link.hub.value, set()).add(link.node.value)
    store.close()
    return {frozenset(members) for members in groups.values()}, sum(plan.unattached for plan in plans)


@pytest.mark.slow
def test_onnx_and_sentence_transformers_place_every_node_of_ten_papers_identically(arche_dir: Path, minilm) -> None:
    from claimgraph.embedding.embedders import onnx_backend_installed
    from claimgraph.embedding.onnx_embedder import OnnxSentenceEmbedder

    if not onnx_backend_installed():
        pytest.skip("onnx and onnxruntime are not installed")
    paths = sorted(arche_dir.glob("*.json"), key=lambda path: (path.stat().st_size, path.name))[:10]
    reference_groups, reference_unattached = assignments(paths, minilm)
    onnx_groups, onnx_unattached = assignments(paths, OnnxSentenceEmbedder())
    assert len(reference_groups) > 20
    assert onnx_groups == reference_groups and onnx_unattached == reference_unattached
