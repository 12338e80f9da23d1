"""The paper the reasoning tests store their responses for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_peirce import PEIRCE, paper_store

from claimgraph.context import Context
from claimgraph.loaders import Document
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore


@pytest.fixture(scope="module")
def stored_paper(arche_documents: list[Document]) -> Iterator[tuple[Context, Document]]:
    """One embedded store holding the paper; each test stores its own response (it replaces the previous one)."""
    document = arche_documents[0]
    ctx = Context(paper_store(EmbeddedStore(None), document), IriScheme(), PEIRCE)
    yield ctx, document
    ctx.close()
