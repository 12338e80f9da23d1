"""Cross-model consensus: run graphs kept per paper, nodes aligned by anchor and role then by text,
support counted per node and edge, a threshold to keep, and queries for agreement and disagreement."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, Triple

from claimgraph.cli.main import main
from claimgraph.consensus.runs import RunError, run_graphs
from claimgraph.context import Context
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, DCTERMS, RDF
from claimgraph.store import EmbeddedStore
from claimgraph.workflow import Workflow

PAPER = "consensus-demo"
HEAD = """@prefix cg: <https://w3id.org/claimgraph/ontology/v1#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix p: <https://claimgraph.example/paper/consensus-demo/> .
"""


def node(local: str, text: str, anchor: str | None = None, role: str | None = None) -> str:
    parts = [f'p:node\\/{local} a cg:ReasoningNode ; cg:text "{text}"']
    if anchor:
        parts.append(f"prov:wasDerivedFrom p:viewpoint\\/{anchor}")
    if role:
        parts.append(f'cg:statedRole "{role}"')
    return " ; ".join(parts) + " .\n"


def edge(source: str, label: str, target: str) -> str:
    return f"p:node\\/{source} cg:{label} p:node\\/{target} .\n"


RUNS = {
    # model A: a deduction and an abduction
    "model-a": [node("n1", "all metals conduct electricity", "1-0-1"), node("n2", "copper is a metal", "2-0-1"),
                node("n3", "copper conducts electricity"), node("n4", "the wire got warm", "3-0-1"),
                node("n5", "current heats a resistive wire"),
                edge("n1", "deductionRule", "n3"), edge("n2", "deductionCase", "n3"), edge("n4", "abductionPhenomenon", "n5")],
    # model B: the same deduction under other ids, the conclusion reworded; no abduction; a negated claim of its own
    "model-b": [node("a", "all metals conduct electricity", "1-0-1"), node("b", "copper is a metal", "2-0-1"),
                node("c", "copper conducts electricity well"), node("d", "copper does not conduct electricity"),
                edge("a", "deductionRule", "c"), edge("b", "deductionCase", "c")],
    # model C: the deduction's rule only, and model A's abduction
    "model-c": [node("x1", "all metals conduct electricity", "1-0-1"), node("x3", "copper conducts electricity"),
                node("x4", "the wire got warm", "3-0-1"), node("x5", "current heats a resistive wire"),
                edge("x1", "deductionRule", "x3"), edge("x4", "abductionPhenomenon", "x5")],
}


@pytest.fixture
def runs_on_disk(tmp_path: Path) -> list[tuple[str, Path]]:
    files = []
    for name, statements in RUNS.items():
        path = tmp_path / f"{name}.ttl"
        path.write_text(HEAD + "".join(statements), encoding="utf-8")
        files.append((name, path))
    return files


@pytest.fixture
def paper_store(tmp_path: Path, iris):
    store = EmbeddedStore(tmp_path / "store")
    paper = iris.paper(PAPER)
    store.replace_graph(paper, [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.identifier, Literal(PAPER))])
    yield store
    store.close()


def test_three_runs_align_and_each_node_and_edge_counts_its_runs(paper_store, iris, runs_on_disk) -> None:
    ctx = Context(paper_store, iris)
    result = Workflow(ctx).consensus(PAPER, imports=runs_on_disk, min_runs=2, similarity=0.8, embedder="hashing")
    assert [name for name, _ in run_graphs(ctx, PAPER)] == ["model-a", "model-b", "model-c"]
    rows = paper_store.select(read_named_query("consensus-nodes"), {"consensus": result.graph})
    support = {row["text"].value: int(row["support"].value) for row in rows}
    assert support == {"all metals conduct electricity": 3, "copper conducts electricity": 3, "copper is a metal": 2,
                       "the wire got warm": 2, "current heats a resistive wire": 2, "copper does not conduct electricity": 1}
    assert result.nodes_by_support == {3: 2, 2: 3, 1: 1} and result.kept_nodes == 5
    assert result.edges_by_support == {3: 1, 2: 2} and result.kept_edges == 3


def test_disagreements_name_the_runs_that_do_not_state_a_node_or_edge(paper_store, iris, runs_on_disk) -> None:
    ctx = Context(paper_store, iris)
    result = Workflow(ctx).consensus(PAPER, imports=runs_on_disk, min_runs=3, similarity=0.8, embedder="hashing")
    rows = paper_store.select(read_named_query("consensus-disagreements"), {"consensus": result.graph})
    missing = {(row["kind"].value, row["text"].value, row.get("predicate") and row["predicate"].value): row["missingFrom"].value for row in rows}
    assert missing[("node", "copper is a metal", None)] == "model-c"
    assert missing[("node", "copper does not conduct electricity", None)] in ("model-a, model-c", "model-c, model-a")
    assert missing[("edge", "the wire got warm", CG.abductionPhenomenon.value)] == "model-b"
    assert result.kept_edges == 1  # only the deduction rule is stated by all three runs
    kept = paper_store.select("SELECT ?s ?o WHERE { GRAPH ?g { ?s ?p ?o . ?s a ?node } }",
                              {"g": result.graph, "p": CG.deductionRule, "node": CG.ConsensusNode})
    assert len(kept) == 1


def test_a_snapshot_keeps_the_paper_graph_less_its_structure_as_a_run_and_one_run_is_not_enough(paper_store, iris) -> None:
    ctx = Context(paper_store, iris)
    paper, sentence = iris.paper(PAPER), iris.node(PAPER, "sentence", "1")
    structure = [Triple(sentence, RDF.type, CG.Sentence), Triple(sentence, CG.text, Literal("Warming raised respiration."))]
    paper_store.insert({paper: [*structure, Triple(paper, CG.residual, Literal("weak_grounding"))]})
    with pytest.raises(RunError, match="has 1 run graph"):
        Workflow(ctx).consensus(PAPER, snapshot="first", embedder="hashing")
    (name, graph), = run_graphs(ctx, PAPER)
    copied = set(paper_store.triples(graph))
    assert name == "first" and set(paper_store.triples(paper)) - set(structure) <= copied and not set(structure) & copied
    with pytest.raises(RunError, match="run name"):
        Workflow(ctx).consensus(PAPER, snapshot="bad name", embedder="hashing")


def test_cli_consensus_imports_runs_and_prints_support(tmp_path: Path, iris, runs_on_disk, capsys) -> None:
    location = tmp_path / "cli-store"
    with EmbeddedStore(location) as store:
        paper = iris.paper(PAPER)
        store.replace_graph(paper, [Triple(paper, RDF.type, CG.Paper)])
    args = ["--store", str(location), "consensus", "--paper", PAPER, "--embedder", "hashing", "--similarity", "0.8"]
    for name, path in runs_on_disk:
        args += ["--import", f"{name}={path}"]
    assert main(args) == 0
    assert "nodes supported by 3 of 3 runs" in capsys.readouterr().out
    assert main(["--store", str(location), "consensus", "--paper", PAPER, "--import", "no-equals-sign"]) == 2
