"""Peircean reasoning end to end on ARCHE papers: materialize, raw + repaired graphs, gate, residuals, audit, DOT round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.loaders import Document
from claimgraph.papers.audit import audit_trail
from claimgraph.profile.manifest import load_profile
from claimgraph.publish.export import export
from claimgraph.quality.repair import repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.peirce import store_reasoning
from claimgraph.store import EmbeddedStore, Store
from claimgraph.workflow import IngestOptions, Workflow

PEIRCE = load_profile("peirce")


@pytest.fixture
def arche_paper(arche_documents: list[Document]) -> Document:
    return arche_documents[0]


def paper_store(store: Store, document: Document) -> Store:
    Workflow(Context(store, profile=PEIRCE)).ingest([Path(document.source)], IngestOptions(canonicalize=False, validate=False))
    return store


def arche_response(document: Document) -> str:
    """A messy DOT response over the paper's own viewpoints: a deduction and an abduction to a single root."""
    v = [viewpoint for viewpoint in document.viewpoints if viewpoint.reference_index == 0][:5]
    label = lambda vp: f"({vp.sentence_index},{vp.reference_index},{vp.viewpoint_index}) {vp.text}"  # noqa: E731
    quote = lambda text: text.replace("\\", "\\\\").replace('"', '\\"')  # noqa: E731
    lines = [f'  n{i} [label="{quote(label(vp))}"]' for i, vp in enumerate(v)]
    return "Here you go:\n```dot\ndigraph G {\n" + "\n".join(lines) + """
  n0 -> n2 [label="DR", confidence=1.3]
  n1 -> n2 [label="Deduction case"]
  n2 -> n4 [label="abd-phen"]
  n3 -> n4 [label="AK"]
  n3 -> n3 [label="AK"]
  n3 -> nowhere [label="AP"]
}
```
Hope this helps."""


def test_an_arche_response_is_materialized_repaired_and_accepted_with_sources_resolving_to_its_sentences(store: Store, arche_paper: Document) -> None:
    iris = IriScheme()
    paper_store(store, arche_paper)
    result = store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, arche_response(arche_paper), "response.txt")
    assert result.parsed.branch == "dot-tolerant"
    assert (result.materialized.nodes, result.materialized.edges) == (5, 6)
    assert result.repair.gate is not None and result.repair.gate.accepted and result.repair.gate.residuals == []
    paper = iris.paper(arche_paper.paper_id)
    texts = {row["node"]: row["text"].value for row in store.select(
        "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?node ?text WHERE { GRAPH ?g { ?node a cg:ReasoningNode ; cg:text ?text } }", {"g": paper})}
    anchors = {row["node"]: row["anchor"] for row in store.select(
        "PREFIX prov: <http://www.w3.org/ns/prov#> PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> "
        "SELECT ?node ?anchor WHERE { GRAPH ?g { ?node a cg:ReasoningNode ; prov:wasDerivedFrom ?anchor } }", {"g": paper})}
    assert len(anchors) == 5
    for node, anchor in anchors.items():
        (row,) = store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?text WHERE { GRAPH ?g { ?a a cg:Viewpoint ; cg:text ?text } }", {"g": paper, "a": anchor})
        assert row["text"].value == texts[node]
    root = iris.node(arche_paper.paper_id, "node", "n4")
    assert store.ask("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> ASK { GRAPH ?g { ?root cg:isRoot true } }", {"g": paper, "root": root})
    raw_labels = store.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o FILTER(STRSTARTS(STR(?p), 'https://w3id.org/claimgraph/raw-label/')) } }", {"g": iris.raw_graph(arche_paper.paper_id)})
    assert raw_labels == 5  # DR, abd-phen, AK, AK self-loop, AP (the unrepaired extraction stays in the raw graph)
    trail = audit_trail(store, iris, arche_paper.paper_id)
    materialize_step = next(entry for entry in trail if entry["kind"] == "extract")
    assert materialize_step["notes"]["parser_branch"] == "dot-tolerant"  # type: ignore[index]
    repairs = {entry["name"]: entry for entry in trail if entry["kind"] == "repair" and entry["sequence"] > materialize_step["sequence"]}  # type: ignore[operator]
    assert list(repairs) == [path.stem for path in PEIRCE.repair_files]
    assert repairs["drop_self_loops"]["counts"]["removed"] == 1  # type: ignore[index]
    assert repairs["drop_dangling_edges"]["counts"]["removed"] == 1  # type: ignore[index]


def test_repair_of_an_already_repaired_paper_changes_nothing(arche_paper: Document) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, arche_response(arche_paper), "response.txt")
    before = set(store.triples(iris.paper(arche_paper.paper_id)))
    again = repair_paper(Context(store, iris, PEIRCE), arche_paper.paper_id)
    assert not any(run.changed for run in again.runs)
    assert set(store.triples(iris.paper(arche_paper.paper_id))) == before


def test_dot_export_of_the_evaluation_view_round_trips(arche_paper: Document) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    response = arche_response(arche_paper).replace('  n3 -> n4 [label="AK"]\n', "")  # two terminals: scaffolding
    store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, response, "response.txt")
    paper = iris.paper(arche_paper.paper_id)
    dot = export(Context(store, iris, PEIRCE), "dot", [arche_paper.paper_id], evaluation_view=True).decode()
    assert "scaffold" not in dot and "scaffold/root" in export(Context(store, iris, PEIRCE), "dot", [arche_paper.paper_id]).decode()
    reasoning = {t for t in store.triples(paper) if t.subject.value.startswith(paper.value + "/node/") or "/stmt/" in t.subject.value}
    copy = paper_store(EmbeddedStore(None), arche_paper)
    store_reasoning(Context(copy, iris, PEIRCE), arche_paper.paper_id, dot, "exported.dot")
    assert materialize(dot).branch == "dot-strict"
    assert {t for t in copy.triples(paper) if t.subject.value.startswith(paper.value + "/node/") or "/stmt/" in t.subject.value} == reasoning


RESIDUAL_CASES = {
    "parse_failed": "I cannot produce a graph for this paper.",
    "single_edge_unit": 'digraph { a [label="(0,0,0) r"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; }',
    "unit_cardinality": 'digraph { a [label="(0,0,0) r1"]; b [label="(0,0,0) r2"]; d [label="(0,0,0) k"]; c [label="(0,0,0) c"];'
                        ' a -> c [label="DR"]; b -> c [label="DR"]; d -> c [label="DC"]; }',
    "mixed_family_unit": 'digraph { a [label="(0,0,0) r"]; b [label="(0,0,0) p"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; b -> c [label="AP"]; }',
    "cycle": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; x [label="(0,0,0) x"]; y [label="(0,0,0) y"];'
             ' a -> b [label="DR"]; x -> b [label="DC"]; b -> a [label="DR"]; y -> a [label="DC"]; }',
    "no_root": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; a -> b [label="ICo"]; b -> a [label="ICo"]; }',
    "unknown_label": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; a -> b [label="enables"]; }',
}


@pytest.mark.parametrize("label", sorted(RESIDUAL_CASES))
def test_what_repair_cannot_fix_becomes_a_typed_residual_on_the_paper(arche_paper: Document, label: str) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    result = store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, RESIDUAL_CASES[label], "response.txt")
    assert result.repair.gate is not None and not result.repair.gate.accepted
    assert label in result.repair.gate.residuals
    stored = {row["r"].value for row in store.select(
        "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?r WHERE { GRAPH ?g { ?g cg:residual ?r } }", {"g": iris.paper(arche_paper.paper_id)})}
    assert stored == set(result.repair.gate.residuals)


def test_self_loops_and_dangling_edges_are_repaired_not_left_as_residuals(arche_paper: Document) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    response = 'digraph { a [label="(0,0,0) r"]; b [label="(0,0,0) k"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; b -> c [label="DC"]; a -> a [label="DR"]; ghost -> c [label="DC"]; }'
    result = store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, response, "response.txt")
    assert result.repair.gate is not None and result.repair.gate.accepted
    assert (result.repair.gate.raw["self_loops"], result.repair.gate.raw["dangling_edges"]) == (1, 1)
    assert (result.repair.gate.repaired["self_loops"], result.repair.gate.repaired["dangling_edges"]) == (0, 0)


def test_cli_ingest_reasoning_repair_audit_diff_and_dot_export(arche_paper: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    response = tmp_path / "response.dot"
    response.write_text(arche_response(arche_paper), encoding="utf-8")
    base = ["--store", str(tmp_path / "store"), "--profile", "peirce"]
    assert main([*base, "ingest", "--no-validate", arche_paper.source]) == 0
    assert "repair scripts" in capsys.readouterr().out
    assert main([*base, "reasoning", arche_paper.paper_id, str(response)]) == 0
    output = capsys.readouterr().out
    assert "parser branch dot-tolerant" in output and "repair scripts" in output and "accepted" in output
    assert main([*base, "repair", "--paper", arche_paper.paper_id]) == 0
    capsys.readouterr()
    assert main([*base, "audit", "--paper", arche_paper.paper_id]) == 0
    assert "extract" in capsys.readouterr().out
    assert main([*base, "diff", "--paper", arche_paper.paper_id]) == 0
    diff = capsys.readouterr().out
    assert "- <" in diff and "raw-label/dr>" in diff and "+ <" in diff and "ontology/v1#deductionRule>" in diff
    assert main([*base, "export", "--format", "dot", "--paper", arche_paper.paper_id]) == 0
    assert capsys.readouterr().out.startswith(f'digraph "{arche_paper.paper_id}" {{')
    assert main([*base, "audit", "--paper", "no-such-paper"]) == 2


def test_reasoning_for_a_paper_not_in_the_store_is_an_actionable_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    response = tmp_path / "response.dot"
    response.write_text("digraph { a -> b }", encoding="utf-8")
    assert main(["--store", str(tmp_path / "store"), "--profile", "peirce", "reasoning", "missing", str(response)]) == 2
    assert "ingest its ARCHE JSON first" in capsys.readouterr().err


