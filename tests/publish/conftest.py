"""Fixtures for the publishing tests: a real store (the demo papers, ingested once per session from their
recorded replies, plus a Peircean reasoning graph for one of them), and a store of one paper whose texts are
hostile to every output syntax."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from publish_support import HOSTILE_TEXTS, REASONING_PAPER, REASONING_RESPONSE, SAMPLE_ONTOLOGY
from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.federation.linker import OntologySource, link_ontology
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, RDF, XSD
from claimgraph.store import EmbeddedStore


@pytest.fixture(scope="session")
def published_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo papers (discourse, extracted from recorded replies, repaired, canonicalized with the hashing embedder),
    with a reasoning graph materialized for synthetic-ripples under the peirce profile, linked to the sample ontology."""
    from claimgraph.demo import demo_config, demo_papers
    from claimgraph.profile.manifest import load_profile
    from claimgraph.workflow import IngestOptions, Workflow

    folder = tmp_path_factory.mktemp("published-store")
    with Context(EmbeddedStore(folder / "store")) as ctx:
        result = Workflow(ctx).ingest(demo_papers(), IngestOptions(llm=demo_config(), embedder="hashing", sidecar_dir=folder / "sidecar"))
        assert result.failures == []
    with Context(EmbeddedStore(folder / "store"), profile=load_profile("peirce")) as ctx:
        Workflow(ctx).store_reasoning(REASONING_PAPER, REASONING_RESPONSE, "response.dot")
    with Context(EmbeddedStore(folder / "store")) as ctx:
        link_ontology(ctx, OntologySource("sample-terms", SAMPLE_ONTOLOGY), embedder="none")
    return folder / "store"


@pytest.fixture
def hostile_store(tmp_path: Path) -> Path:
    """One paper graph: four claims with hostile texts, each supporting the next, one edge annotated."""
    iris = IriScheme()
    paper = iris.paper("hostile")
    nodes = [iris.node("hostile", "node", f"c{number}") for number in range(len(HOSTILE_TEXTS))]
    triples = [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.identifier, Literal("hostile")),
               Triple(paper, DCTERMS.title, Literal(HOSTILE_TEXTS[0]))]
    for node, text in zip(nodes, HOSTILE_TEXTS):
        triples += [Triple(node, RDF.type, CG.Claim), Triple(node, CG.text, Literal(text)),
                    Triple(node, CG.confidence, Literal("0.5", datatype=XSD.decimal))]
    triples += [Triple(source, CG.supports, target) for source, target in itertools.pairwise(nodes)]
    with EmbeddedStore(tmp_path / "store") as store:
        store.replace_graph(paper, triples)
        Context(store).vocabulary  # noqa: B018 - writes the profile's vocabulary graph, which names the edge properties
    return tmp_path / "store"
