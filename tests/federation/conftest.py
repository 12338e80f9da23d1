"""Fixtures for the linking tests: the sample ontology files, the labelled link set, and a store of two
papers whose Factor, Variable, StudyDesign and StatisticalMethod nodes carry texts from it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from link_support import ONTOLOGIES, PAPERS
from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, RDF
from claimgraph.store import EmbeddedStore


@pytest.fixture
def papers_store(tmp_path: Path) -> Path:
    """Two paper graphs of typed nodes (no extraction needed), and the discourse vocabulary graph."""
    iris = IriScheme()
    with EmbeddedStore(tmp_path / "store") as store:
        for paper_id, nodes in PAPERS.items():
            paper = iris.paper(paper_id)
            triples = [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.identifier, Literal(paper_id))]
            for number, (kind, text) in enumerate(nodes):
                node = iris.node(paper_id, "node", f"n{number}")
                triples += [Triple(node, RDF.type, CG[kind]), Triple(node, CG.text, Literal(text))]
            store.replace_graph(paper, triples)
        Context(store).vocabulary  # noqa: B018 - writes the vocabulary graph
    return tmp_path / "store"


@pytest.fixture(scope="session")
def gold_rows() -> list[dict[str, str]]:
    """The labelled link set (examples/ontologies/link-gold.tsv)."""
    lines = [line for line in (ONTOLOGIES / "link-gold.tsv").read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))
