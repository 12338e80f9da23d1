"""Fixtures of the canonicalization tests: the synthetic ARCHE-format corpus, loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.loaders import Document, load_document


@pytest.fixture(scope="session")
def synthetic_documents(synthetic_arche_dir: Path) -> list[Document]:
    """The generated ARCHE-format papers (8, seed 7), loaded; they share viewpoint texts across papers."""
    return [load_document(path) for path in sorted(synthetic_arche_dir.glob("*.json"))]


@pytest.fixture
def shapes_and_rules_hold():
    """``shapes_and_rules_hold(store, iris)``: ShEx shapes and the profile's rules hold on every paper
    graph and the canonical graph. (Papers stored without the repair step count as "unfinished" for
    ``ValidationReport.conforms``; canonicalization tests ask about the shapes and rules only.)"""
    from claimgraph.context import Context
    from claimgraph.quality.validation import validate_store

    def check(store, iris) -> bool:
        report = validate_store(Context(store, iris), workers=1)
        return bool(report.graphs) and all(graph.conforms for graph in report.graphs)

    return check
