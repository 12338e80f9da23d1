"""Fixtures of the canonicalization tests: the synthetic ARCHE-format corpus, loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.loaders import Document, load_document


@pytest.fixture(scope="session")
def synthetic_documents(synthetic_arche_dir: Path) -> list[Document]:
    """The generated ARCHE-format papers (8, seed 7), loaded; they share viewpoint texts across papers."""
    return [load_document(path) for path in sorted(synthetic_arche_dir.glob("*.json"))]
