"""GraphML, DOT and nanopublications of real papers: what each holds is what the store holds, read back by
independent parsers (networkx, Graphviz, the nanopub package), and hostile text survives every syntax."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pyoxigraph
import pytest
from publish_support import HOSTILE_TEXTS, REASONING_PAPER, open_context
from pyoxigraph import Literal, RdfFormat, Triple

from claimgraph.publish.elements import graph_elements
from claimgraph.publish.export import export
from claimgraph.publish.nanopub import STATEMENT_TYPES, nanopublications, write_folder

DISCOURSE = "soil-warming"
# rdflib (the nanopub package parses with it) warns about its own deprecated ConjunctiveGraph.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def elements(store: Path, paper_id: str) -> tuple[list[dict], list[dict]]:
    with open_context(store) as ctx:
        paper = ctx.iris.paper(paper_id)
        return graph_elements(ctx.store, paper, paper, ctx.iris.audit_graph(paper_id), f"{ctx.iris.base}graph/vocabulary/", "paper")


def exported(store: Path, fmt: str, papers: list[str], profile: str = "discourse", **options: str) -> bytes:
    with open_context(store, profile) as ctx:
        return export(ctx, fmt, papers, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------ GraphML


@pytest.mark.parametrize("paper", [DISCOURSE, REASONING_PAPER])
def test_graphml_reads_back_in_networkx_with_every_node_and_edge(published_store: Path, paper: str) -> None:
    networkx = pytest.importorskip("networkx")
    nodes, edges = elements(published_store, paper)
    assert nodes
    graph = networkx.read_graphml(__import__("io").BytesIO(exported(published_store, "graphml", [paper])))
    assert graph.is_directed()
    assert set(graph.nodes) == {node["id"] for node in nodes}
    assert sorted((a, b, data["label"]) for a, b, data in graph.edges(data=True)) == sorted((e["source"], e["target"], e["label"]) for e in edges)
    for node in nodes:
        data = graph.nodes[node["id"]]
        assert (data["type"], data["text"], data["paper"]) == (node["type"], node["text"], paper)
        assert data.get("confidence") == node["confidence"]


def graphml_texts(store: Path, paper: str) -> list[str]:
    """The node texts of a GraphML export read back by networkx, escaped values unescaped as the format says."""
    from claimgraph.publish.graphml import unescape

    networkx = pytest.importorskip("networkx")
    graph = networkx.read_graphml(__import__("io").BytesIO(exported(store, "graphml", [paper])))
    return sorted(unescape(data["text"]) if data.get("text_escaped") else data["text"] for _, data in graph.nodes(data=True))


def test_graphml_carries_hostile_text_exactly(hostile_store: Path) -> None:
    assert graphml_texts(hostile_store, "hostile") == sorted(HOSTILE_TEXTS)
    document = exported(hostile_store, "graphml", ["hostile"]).decode("utf-8")
    assert "\\u0001\\u0007\\u001b" in document and "\ufffd" not in document


def test_graphml_keeps_carriage_returns_and_backslash_sequences(tmp_path: Path) -> None:
    from claimgraph.context import Context
    from claimgraph.rdf.iris import IriScheme
    from claimgraph.rdf.vocab import CG, RDF
    from claimgraph.store import EmbeddedStore

    texts = ["windows\r\nline end and a lone\rcarriage return", "a written \\u0001 and a real \x01 one", "\ufffe and \\\\ two"]
    iris = IriScheme()
    paper = iris.paper("crlf")
    triples = [Triple(paper, RDF.type, CG.Paper)]
    for number, text in enumerate(texts):
        node = iris.node("crlf", "node", f"c{number}")
        triples += [Triple(node, RDF.type, CG.Claim), Triple(node, CG.text, Literal(text))]
    with EmbeddedStore(tmp_path / "store") as store:
        store.replace_graph(paper, triples)
        Context(store).vocabulary  # noqa: B018 - writes the vocabulary graph
    assert graphml_texts(tmp_path / "store", "crlf") == sorted(texts)
    assert b"\r" not in exported(tmp_path / "store", "graphml", ["crlf"])


# ------------------------------------------------------------------ DOT


def graphviz_json(dot: bytes) -> dict:
    import json

    if shutil.which("dot") is None:
        pytest.skip("Graphviz is not installed (apt-get install graphviz)")
    completed = subprocess.run(["dot", "-Tjson0"], input=dot, capture_output=True, check=False, timeout=60)
    assert completed.returncode == 0, completed.stderr.decode("utf-8", "replace")
    return json.loads(completed.stdout, strict=False)  # Graphviz writes control characters raw


def test_dot_of_a_discourse_paper_is_its_discourse_graph(published_store: Path) -> None:
    nodes, edges = elements(published_store, DISCOURSE)
    assert len(nodes) > 5 and len(edges) > 5, "the demo paper has an extracted discourse graph"
    drawn = graphviz_json(exported(published_store, "dot", [DISCOURSE]))
    assert len(drawn["objects"]) == len(nodes)
    assert len(drawn["edges"]) == len(edges)
    assert sorted(edge["label"] for edge in drawn["edges"]) == sorted(edge["label"] for edge in edges)
    assert {obj["tooltip"] for obj in drawn["objects"]} == {node["text"] for node in nodes}


def test_dot_of_a_reasoning_paper_is_still_the_reasoning_graph(published_store: Path) -> None:
    text = exported(published_store, "dot", [REASONING_PAPER], profile="peirce").decode("utf-8")
    assert "deduction-rule" in text and "(1,0,0)" in text
    graphviz_json(text.encode("utf-8"))


def test_dot_quotes_hostile_text(hostile_store: Path) -> None:
    drawn = graphviz_json(exported(hostile_store, "dot", ["hostile"]))
    # Graphviz keeps escString escapes in attribute values: a backslash stays doubled, a newline is \n.
    escaped = sorted(text.replace("\\", "\\\\").replace("\n", "\\n") for text in HOSTILE_TEXTS)
    assert sorted(obj["tooltip"] for obj in drawn["objects"]) == escaped
    assert len(drawn["edges"]) == len(HOSTILE_TEXTS) - 1


# ------------------------------------------------------------------ nanopublications


def test_each_claim_is_a_nanopublication_the_nanopub_package_accepts(published_store: Path, tmp_path: Path) -> None:
    Nanopub = pytest.importorskip("nanopub", reason="the nanopub package is not installed (pip install nanopub)").Nanopub

    nodes, _ = elements(published_store, DISCOURSE)
    statements = [node for node in nodes if node["type"] in STATEMENT_TYPES]
    with open_context(published_store) as ctx:
        written = write_folder(nanopublications(ctx, [DISCOURSE]), tmp_path / "np")
    assert len(written) == len(statements) > 3
    for path in written:
        publication = Nanopub(rdf=path)
        assert publication.is_valid
        assertion = {str(o) for _, _, o in publication.assertion}
        provenance = {str(p) for _, p, _ in publication.provenance}
        assert "http://www.w3.org/ns/prov#wasDerivedFrom" in provenance
        assert any(node["text"] in assertion for node in statements)


def test_a_paper_level_nanopublication_asserts_every_node(published_store: Path, tmp_path: Path) -> None:
    Nanopub = pytest.importorskip("nanopub", reason="the nanopub package is not installed (pip install nanopub)").Nanopub

    nodes, edges = elements(published_store, DISCOURSE)
    trig = exported(published_store, "nanopub", [DISCOURSE], nanopub_unit="paper")
    path = tmp_path / "paper.trig"
    path.write_bytes(trig)
    publication = Nanopub(rdf=path)
    assert publication.is_valid
    subjects = {str(s) for s, _, _ in publication.assertion}
    assert {node["id"] for node in nodes} <= subjects
    assert len(publication.assertion) == 2 * len(nodes) + len({(e["source"], e["target"], e["label"]) for e in edges})


def test_nanopublications_of_several_papers_form_one_trig_document(published_store: Path) -> None:
    trig = exported(published_store, "nanopub", [DISCOURSE, REASONING_PAPER], profile="peirce")
    graphs = {quad.graph_name.value for quad in pyoxigraph.parse(trig, format=RdfFormat.TRIG)}
    heads = [graph for graph in graphs if graph.endswith("#Head")]
    assert heads and len(graphs) == 4 * len(heads)
    assert any(REASONING_PAPER in head for head in heads) and any(DISCOURSE in head for head in heads)


def test_hostile_text_round_trips_through_a_nanopublication(hostile_store: Path, tmp_path: Path) -> None:
    Nanopub = pytest.importorskip("nanopub", reason="the nanopub package is not installed (pip install nanopub)").Nanopub

    with open_context(hostile_store) as ctx:
        written = write_folder(nanopublications(ctx, ["hostile"]), tmp_path)
    texts = set()
    for path in written:
        publication = Nanopub(rdf=path)
        assert publication.is_valid
        texts |= {str(o) for _, p, o in publication.assertion if str(p).endswith("#text")}
    assert texts == set(HOSTILE_TEXTS)


def test_dot_of_several_papers_is_refused_on_one_output_and_written_one_file_per_paper_to_a_folder(published_store, tmp_path: Path,
                                                                                                   capsys) -> None:
    from claimgraph.cli.main import main

    store = str(published_store)
    assert main(["--store", store, "export", "--format", "dot"]) == 2
    assert "DOT holds one graph per file" in capsys.readouterr().err
    folder = tmp_path / "dots"
    folder.mkdir()
    assert main(["--store", store, "export", "--format", "dot", "-o", str(folder)]) == 0
    files = sorted(folder.glob("*.dot"))
    assert len(files) >= 2 and all(file.read_text(encoding="utf-8").lstrip().startswith(("digraph", "strict digraph")) for file in files)
    if shutil.which("dot") is not None:
        for file in files:
            assert subprocess.run(["dot", "-Tsvg", str(file)], capture_output=True, check=False, timeout=60).returncode == 0
