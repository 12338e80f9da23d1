"""Fixtures of the citation tests: a context on each store, and ingesting a JATS paper with its citation links."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from citation_support import Cited, Ingest, jats_article

from claimgraph.citations.links import CitationUpdate, update_citation_links
from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import Store


@pytest.fixture
def ctx(store: Store) -> Context:
    return Context(store, IriScheme())


@pytest.fixture
def ingest(ctx: Context, tmp_path: Path) -> Ingest:
    """Write a JATS paper, store it (replacing the stored one of that name) and update the citation links."""

    def _ingest(name: str, cites: Sequence[Cited], **identity: str) -> CitationUpdate:
        path = tmp_path / f"{name}.xml"
        path.write_text(jats_article(name.capitalize(), cites, **identity), encoding="utf-8")
        document = load_document(path)
        store_document(ctx.store, ctx.iris, document, replace=True)
        return update_citation_links(ctx, [document.paper_id])

    return _ingest
