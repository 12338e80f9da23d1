"""Peircean reasoning end to end on ARCHE papers: materialize, raw + repaired graphs, gate, residuals, audit, DOT round trip.

Each case issue 10 found by running (truncated and malformed responses accepted,
isolated nodes, off-profile labels, lost source anchors, damaging merges, roots
marked on premises) is here as a response that must give its residual, or be
accepted with the anchors and merges it states.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.loaders import Document
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.profile.manifest import load_profile
from claimgraph.publish.export import export
from claimgraph.quality.grounding import grounding_settings
from claimgraph.quality.repair import repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.peirce import ReasoningResult
from claimgraph.store import EmbeddedStore, Store
from claimgraph.workflow import IngestOptions, Workflow

PEIRCE = load_profile("peirce")


def store_reasoning(ctx: Context, paper_id: str, response: str, source_name: str) -> ReasoningResult:
    """The workflow's entry point: materialize, repair, gate and store one response."""
    return Workflow(ctx).store_reasoning(paper_id, response, source_name)
CG = "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> PREFIX prov: <http://www.w3.org/ns/prov#> "


@pytest.fixture
def arche_paper(arche_documents: list[Document]) -> Document:
    return arche_documents[0]


def paper_store(store: Store, document: Document) -> Store:
    Workflow(Context(store, profile=PEIRCE)).ingest([Path(document.source)], IngestOptions(canonicalize=False, validate=False))
    return store


def own_viewpoints(document: Document, count: int) -> list[tuple[tuple[int, int, int], str]]:
    """``count`` of the paper's own viewpoints (y = 0) with distinct texts."""
    seen: dict[str, tuple[int, int, int]] = {}
    for viewpoint in document.viewpoints:
        key = " ".join(viewpoint.text.lower().split())
        if viewpoint.reference_index == 0 and key not in seen:
            seen[key] = viewpoint.source
    chosen = [(source, text) for text, source in seen.items()][:count]
    assert len(chosen) == count, f"{document.paper_id} has fewer than {count} own viewpoints"
    return [(source, next(v.text for v in document.viewpoints if v.source == source)) for source, _ in chosen]


def dot_label(source: tuple[int, int, int], text: str, role: str = "") -> str:
    body = f"({source[0]},{source[1]},{source[2]}) {role}{text}"
    return body.replace("\\", "\\\\").replace('"', '\\"')


# A clean graph of 8 nodes and 7 edges: n0 <- (n1 DR, n2 DC); n1 <- (n3 AP, n4 AK); n2 <- (n5 ICo, n6 ICa, n7 ICa).
EDGES = [("n1", "deduction-rule", "n0"), ("n2", "deduction-case", "n0"), ("n3", "abduction-phenomenon", "n1"),
         ("n4", "abduction-knowledge", "n1"), ("n5", "induction-common", "n2"), ("n6", "induction-case", "n2"),
         ("n7", "induction-case", "n2")]


def clean_dot(document: Document, edges: list[tuple[str, str, str]] = EDGES, extra_nodes: int = 0, roles: dict[str, str] | None = None) -> str:
    points = own_viewpoints(document, 8 + extra_nodes)
    lines = [f'  n{index} [label="{dot_label(source, text, (roles or {}).get(f"n{index}", ""))}"];' for index, (source, text) in enumerate(points)]
    lines += [f'  {source} -> {target} [label="{label}"];' for source, label, target in edges]
    return "digraph G {\n" + "\n".join(lines) + "\n}"


def residuals(ctx: Context, document: Document, response: str) -> tuple[ReasoningResult, list[str]]:
    result = store_reasoning(ctx, document.paper_id, response, "response.dot")
    assert result.repair.gate is not None
    stored = sorted(row["r"].value for row in ctx.store.select(
        CG + "SELECT ?r WHERE { GRAPH ?g { ?g cg:residual ?r } }", {"g": ctx.iris.paper(document.paper_id)}))
    assert stored == result.repair.gate.residuals
    return result, stored


def arche_response(document: Document) -> str:
    """A messy DOT response over the paper's own viewpoints: a deduction and an abduction to a single root."""
    points = own_viewpoints(document, 5)
    lines = [f'  n{i} [label="{dot_label(source, text)}"{", root=true" if i == 4 else ""}]' for i, (source, text) in enumerate(points)]
    return "Here you go:\n```dot\ndigraph G {\n" + "\n".join(lines) + """
  n0 -> n2 [label="DR", confidence=1.3]
  n1 -> n2 [label="Deduction case"]
  n2 -> n4 [label="abd-phen"]
  n3 -> n4 [label="AK"]
  n3 -> n3 [label="AK"]
}
```
Hope this helps."""


# ---------------------------------------------------------------- accepted, repaired, round trip


def test_an_arche_response_is_materialized_repaired_and_accepted_with_sources_resolving_to_its_sentences(store: Store, arche_paper: Document) -> None:
    iris = IriScheme()
    paper_store(store, arche_paper)
    result = store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, arche_response(arche_paper), "response.txt")
    assert result.parsed.branch == "dot-tolerant"
    assert (result.materialized.nodes, result.materialized.edges) == (5, 5)
    assert result.repair.gate is not None and result.repair.gate.accepted and result.repair.gate.residuals == []
    assert result.materialized.anchors["resolved"] == 5
    paper = iris.paper(arche_paper.paper_id)
    texts = {row["node"]: row["text"].value for row in store.select(
        CG + "SELECT ?node ?text WHERE { GRAPH ?g { ?node a cg:ReasoningNode ; cg:text ?text } }", {"g": paper})}
    anchors = {row["node"]: row["anchor"] for row in store.select(
        CG + "SELECT ?node ?anchor WHERE { GRAPH ?g { ?node a cg:ReasoningNode ; prov:wasDerivedFrom ?anchor } }", {"g": paper})}
    assert len(anchors) == 5
    for node, anchor in anchors.items():
        (row,) = store.select(CG + "SELECT ?text WHERE { GRAPH ?g { ?a a cg:Viewpoint ; cg:text ?text } }", {"g": paper, "a": anchor})
        assert row["text"].value == texts[node]
    root = iris.node(arche_paper.paper_id, "node", "n4")
    assert store.ask(CG + "ASK { GRAPH ?g { ?root cg:isRoot true } }", {"g": paper, "root": root})
    raw_labels = store.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o FILTER(STRSTARTS(STR(?p), 'https://w3id.org/claimgraph/raw-label/')) } }",
                              {"g": iris.raw_graph(arche_paper.paper_id)})
    assert raw_labels == 4  # DR, abd-phen, AK, AK self-loop (the unrepaired extraction stays in the raw graph)
    trail = audit_trail(store, iris, arche_paper.paper_id)
    materialize_step = next(entry for entry in trail if entry["kind"] == "extract")
    assert materialize_step["notes"]["parser_branch"] == "dot-tolerant"  # type: ignore[index]
    repairs = {entry["name"]: entry for entry in trail if entry["kind"] == "repair" and entry["sequence"] > materialize_step["sequence"]}  # type: ignore[operator]
    assert list(repairs) == [path.stem for path in PEIRCE.repair_files]
    assert repairs["drop_self_loops"]["counts"]["removed"] == 1  # type: ignore[index]


def test_a_later_repair_in_the_store_finds_nothing_to_do_and_gives_the_same_verdict(arche_paper: Document) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    for response in (arche_response(arche_paper), clean_dot(arche_paper, EDGES[:-1], extra_nodes=1)):
        first = store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, response, "response.txt")
        before = set(store.triples(iris.paper(arche_paper.paper_id)))
        again = repair_paper(Context(store, iris, PEIRCE), arche_paper.paper_id)
        assert not any(run.changed for run in again.runs)
        assert set(store.triples(iris.paper(arche_paper.paper_id))) == before
        assert again.gate is not None and first.repair.gate is not None
        assert again.gate.residuals == first.repair.gate.residuals and again.gate.repaired == first.repair.gate.repaired


def test_dot_export_of_the_evaluation_view_round_trips(arche_paper: Document) -> None:
    store, iris = paper_store(EmbeddedStore(None), arche_paper), IriScheme()
    response = arche_response(arche_paper).replace('  n3 -> n4 [label="AK"]\n', "")  # two terminals: scaffolding
    store_reasoning(Context(store, iris, PEIRCE), arche_paper.paper_id, response, "response.txt")
    paper = iris.paper(arche_paper.paper_id)
    dot = export(Context(store, iris, PEIRCE), "dot", [arche_paper.paper_id], evaluation_view=True).decode()
    assert "scaffold" not in dot and "scaffold/root" in export(Context(store, iris, PEIRCE), "dot", [arche_paper.paper_id]).decode()
    # what the response stated about itself (statement order, its own root mark) is not part of the graph the export writes
    stated = {"https://w3id.org/claimgraph/ontology/v1#statedOrder", "https://w3id.org/claimgraph/ontology/v1#markedRoot"}

    def reasoning(triples: list) -> set:
        return {t for t in triples if (t.subject.value.startswith(paper.value + "/node/") or "/stmt/" in t.subject.value) and t.predicate.value not in stated}

    copy = paper_store(EmbeddedStore(None), arche_paper)
    store_reasoning(Context(copy, iris, PEIRCE), arche_paper.paper_id, dot, "exported.dot")
    assert materialize(dot).branch == "dot-strict"
    assert reasoning(copy.triples(paper)) == reasoning(store.triples(paper))


# ---------------------------------------------------------------- typed residuals


RESIDUAL_CASES = {
    "parse_failed": "I cannot produce a graph for this paper.",
    "single_edge_unit": 'digraph { a [label="(0,0,0) r"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; }',
    "unit_cardinality": 'digraph { a [label="(0,0,0) r1"]; b [label="(0,0,0) r2"]; d [label="(0,0,0) k"]; c [label="(0,0,0) c"];'
                        ' a -> c [label="DR"]; b -> c [label="DR"]; d -> c [label="DC"]; }',
    "mixed_family_unit": 'digraph { a [label="(0,0,0) r"]; b [label="(0,0,0) p"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; b -> c [label="AP"]; }',
    "cycle": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; x [label="(0,0,0) x"]; y [label="(0,0,0) y"];'
             ' a -> b [label="DR"]; x -> b [label="DC"]; b -> a [label="DR"]; y -> a [label="DC"]; }',
    "no_root": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; a -> b [label="ICo"]; b -> a [label="ICo"]; }',
    "unknown_label": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; c [label="(0,0,0) c"]; a -> c [label="enables"]; b -> c [label="DC"]; }',
    "no_edges": 'digraph { a [label="(0,0,0) a"]; b [label="(0,0,0) b"]; }',
    "dangling_edge": 'digraph { a [label="(0,0,0) r"]; b [label="(0,0,0) k"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; b -> c [label="DC"]; ghost -> c [label="DC"]; }',
    "truncated_response": 'digraph { a [label="(0,0,0) r"]; b [label="(0,0,0) k"]; c [label="(0,0,0) c"]; a -> c [label="DR"]; b -> c [label="D',
    "malformed_response": 'digraph {\n a [label="(0,0,0) r];\n b [label="(0,0,0) k"];\n c [label="(0,0,0) c"];\n a -> c [label="DR"];\n b -> c [label="DC"];\n}',
}


@pytest.mark.parametrize("label", sorted(RESIDUAL_CASES))
def test_what_repair_cannot_fix_becomes_a_typed_residual_on_the_paper(stored_paper: tuple[Context, Document], label: str) -> None:
    ctx, document = stored_paper
    result, stored = residuals(ctx, document, RESIDUAL_CASES[label])
    assert result.repair.gate is not None and not result.repair.gate.accepted
    assert label in stored


def test_self_loops_are_repaired_and_a_ghost_endpoint_is_dropped_but_reported(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    a, b, c = (dot_label(source, text) for source, text in own_viewpoints(document, 3))
    response = (f'digraph {{ a [label="{a}"]; b [label="{b}"]; c [label="{c}"]; a -> c [label="DR"]; b -> c [label="DC"];'
                ' a -> a [label="DR"]; ghost -> c [label="DC"]; }')
    result, stored = residuals(ctx, document, response)
    gate = result.repair.gate
    assert gate is not None and stored == ["dangling_edge"]
    assert (gate.raw["self_loops"], gate.raw["dangling_edges"]) == (1, 1)
    assert (gate.repaired["self_loops"], gate.repaired["dangling_edges"]) == (0, 0)
    assert any("ghost" in reason for reason in gate.reasons())


# ---------------------------------------------------------------- the cases issue 10 found by running


def test_a_response_cut_at_60_percent_inside_prose_and_a_fence_is_truncated_not_accepted(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    full = "Sure! Here is the graph:\n```dot\n" + clean_dot(document) + "\n```\n"
    result, stored = residuals(ctx, document, full[: round(0.6 * len(full))])
    assert "truncated_response" in stored
    assert result.repair.gate is not None and not result.repair.gate.accepted
    whole, clean = residuals(ctx, document, full)
    assert clean == [] and whole.materialized.edges == 7


def test_isolated_nodes_and_a_nodes_only_answer_are_residuals_not_held_together_by_scaffolding(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    _, isolated = residuals(ctx, document, clean_dot(document, extra_nodes=1))
    assert isolated == ["isolated_nodes"]
    _, nodes_only = residuals(ctx, document, clean_dot(document, edges=[]))
    assert nodes_only == ["no_edges"]


def test_an_unclosed_quote_in_a_node_label_is_malformed_and_the_lines_after_it_are_still_read(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    text = clean_dot(document)
    broken = text.replace('"];\n  n3 ', '];\n  n3 ', 1)  # n2's label loses its closing quote
    assert broken != text
    result, stored = residuals(ctx, document, broken)
    assert "malformed_response" in stored
    assert len(result.parsed.nodes) == 8 and len(result.parsed.edges) == 7


def test_an_unclosed_quote_in_an_edge_label_is_malformed_not_a_silent_loss_of_edges(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    broken = clean_dot(document).replace('[label="abduction-phenomenon"]', '[label="abduction-phenomenon]', 1)
    result, stored = residuals(ctx, document, broken)
    assert "malformed_response" in stored and not result.repair.gate.accepted  # type: ignore[union-attr]


def test_discourse_labels_in_the_peirce_profile_are_unknown_labels(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    discourse = [(source, "supports" if index % 2 else "opposes", target) for index, (source, _, target) in enumerate(EDGES)]
    result, stored = residuals(ctx, document, clean_dot(document, edges=discourse))
    assert stored == ["unknown_label"]
    assert result.repair.gate is not None and result.repair.gate.repaired["unknown_labels"] == 7
    one = [(source, "supports" if index == 1 else label, target) for index, (source, label, target) in enumerate(EDGES)]
    _, stored = residuals(ctx, document, clean_dot(document, edges=one))
    assert "unknown_label" in stored


def test_an_explicit_source_tuple_wins_over_a_leading_implicit_one_and_every_anchor_is_counted(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    points = own_viewpoints(document, 8)
    (x, y, z), text = points[3]
    conflicted = clean_dot(document).replace(f'n3 [label="{dot_label((x, y, z), text)}"]',
                                             f'n3 [label="(0,0,0) Abduction-phenomenon: {dot_label((x, y, z), text)[len(f"({x},{y},{z}) "):]} Source: ({x},{y},{z})"]')
    assert "Source:" in conflicted
    result, stored = residuals(ctx, document, conflicted)
    assert stored == [] and result.materialized.anchors["resolved"] == 8 and result.materialized.conflicting_anchors == 0
    n3 = ctx.iris.extracted_node(document.paper_id, "n3")
    (row,) = ctx.store.select(CG + "SELECT ?x ?role WHERE { GRAPH ?g { ?n cg:sourceSentence ?x ; cg:statedRole ?role } }",
                              {"g": ctx.iris.paper(document.paper_id), "n": n3})
    assert (int(row["x"].value), row["role"].value) == (x, "abduction-phenomenon")
    last = max(sentence.index for sentence in document.sentences)
    bogus = clean_dot(document).replace(f"({points[5][0][0]},0,{points[5][0][2]})", f"({last + 9},0,1)", 1)
    bogus = bogus.replace(f"({points[6][0][0]},0,{points[6][0][2]})", f"({points[6][0][0]},0,999)", 1)
    result, stored = residuals(ctx, document, bogus)
    gate = result.repair.gate
    assert stored == ["unresolved_source"] and gate is not None
    assert (gate.repaired["anchors_resolved"], gate.repaired["anchors_fallen_back"], gate.repaired["anchors_unresolved"]) == (6, 1, 1)
    assert result.materialized.anchors["fallen_back"] == 1 and result.materialized.anchors["unresolved"] == 1


def test_a_tuple_naming_a_missing_sentence_is_unresolved_when_every_other_anchor_is_a_viewpoint(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    points = own_viewpoints(document, 8)
    last = max(sentence.index for sentence in document.sentences)
    (x, _, z), _ = points[5]
    result, stored = residuals(ctx, document, clean_dot(document).replace(f'n5 [label="({x},0,{z})', f'n5 [label="({last + 3},0,1)', 1))
    assert stored == ["unresolved_source"] and result.materialized.anchors["unresolved"] == 1


def test_a_json_source_field_is_read(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    ((x, y, z), text), (b_source, b_text), (c_source, c_text) = own_viewpoints(document, 3)
    nodes = [{"id": "a", "label": f"(0,0,0) {text}", "source": [x, y, z]}, {"id": "b", "label": f"{dot_label(b_source, b_text)}"},
             {"id": "c", "label": f"{dot_label(c_source, c_text)}"}]
    edges = [{"source": "a", "target": "c", "label": "DR"}, {"source": "b", "target": "c", "label": "DC"}]
    response = json.dumps({"nodes": nodes, "edges": edges})
    result, stored = residuals(ctx, document, response)
    assert stored == [] and result.materialized.anchors["resolved"] == 3
    assert ctx.store.ask(CG + "ASK { GRAPH ?g { ?n cg:sourceSentence ?x ; prov:wasDerivedFrom ?v . ?v a cg:Viewpoint } }",
                         {"g": ctx.iris.paper(document.paper_id), "n": ctx.iris.extracted_node(document.paper_id, "a")})


def test_viewpoint_numbers_in_the_second_slot_are_read_per_response_and_the_reading_recorded(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    points = own_viewpoints(document, 8)
    cited = {(x, number) for number, reference in document.references.items() for x in reference.cited_by}
    second = [index for index, ((x, _, k), _) in enumerate(points) if k > 0 and (x, k) not in cited]
    assert second, "no own viewpoint whose number is not also a reference its sentence cites"
    response = clean_dot(document)
    for index in second:
        (x, _, k), _ = points[index]
        response = response.replace(f'n{index} [label="({x},0,{k})', f'n{index} [label="({x},{k},0)', 1)
    result, stored = residuals(ctx, document, response)
    assert stored == [] and result.materialized.reading == "viewpoint-second-slot"
    trail = audit_trail(ctx.store, ctx.iris, document.paper_id)
    assert trail[-len(PEIRCE.repair_files) - 2]["notes"]["tuple_reading"] == "viewpoint-second-slot"  # type: ignore[index]


def test_a_duplicate_merges_into_the_node_stated_first_and_the_audit_says_why(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    points = own_viewpoints(document, 8)
    (source, text) = points[4]
    response = clean_dot(document).replace(" n4 ", " N26 ").replace("n4 ->", "N26 ->")
    response = response.replace("}", f'  ANS_SRC_1 [label="{dot_label(source, text.upper())}"];\n}}')
    response = response.replace('N26 -> n1 [label="abduction-knowledge"]', 'ANS_SRC_1 -> n1 [label="abduction-knowledge"]')
    result, stored = residuals(ctx, document, response)
    assert stored == []
    (merge,) = result.repair.merges
    assert (merge.survivor.value.rsplit("/", 1)[1], merge.duplicate.value.rsplit("/", 1)[1], merge.why) == ("N26", "ANS_SRC_1", "stated first")
    paper = ctx.iris.paper(document.paper_id)
    survivor = ctx.iris.extracted_node(document.paper_id, "N26")
    assert ctx.store.ask(CG + "ASK { GRAPH ?g { ?s cg:mergedFrom ?d ; cg:abductionKnowledge ?t } }", {"g": paper, "s": survivor, "d": merge.duplicate})
    notes = [entry["notes"].get("merges", "") for entry in audit_trail(ctx.store, ctx.iris, document.paper_id) if entry["name"] == "merge_duplicate_nodes"]
    assert "ANS_SRC_1 -> " in notes[-1] and "(stated first)" in notes[-1]  # type: ignore[operator]


def test_a_root_mark_on_a_premise_is_root_orientation_and_a_wholly_reversed_graph_is_turned_round(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    marked = clean_dot(document).replace('n5 [label="', 'n5 [root=true, label="', 1)
    _, stored = residuals(ctx, document, marked)
    assert stored == ["root_orientation"]
    reversed_edges = [(target, label, source) for source, label, target in EDGES]
    reversed_dot = clean_dot(document, edges=reversed_edges).replace('n0 [label="', 'n0 [root=true, label="', 1)
    result, stored = residuals(ctx, document, reversed_dot)
    assert stored == []
    assert next(run for run in result.repair.runs if run.name == "orient_root").changed
    root = ctx.iris.extracted_node(document.paper_id, "n0")
    assert ctx.store.ask(CG + "ASK { GRAPH ?g { ?root cg:isRoot true } }", {"g": ctx.iris.paper(document.paper_id), "root": root})


def test_a_conclusion_prefix_does_not_by_itself_make_a_root(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    result, stored = residuals(ctx, document, clean_dot(document, roles={"n1": "Conclusion: "}))
    assert stored == []
    paper = ctx.iris.paper(document.paper_id)
    roots = {row["n"].value.rsplit("/", 1)[1] for row in ctx.store.select(CG + "SELECT ?n WHERE { GRAPH ?g { ?n cg:isRoot true } }", {"g": paper})}
    assert roots == {"n0"}
    assert not ctx.store.ask(CG + "ASK { GRAPH ?g { ?n cg:markedRoot true } }", {"g": paper})


def test_skipped_prose_is_said_in_the_verdict_and_unreadable_graph_material_is_malformed(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    prose = clean_dot(document).replace("\n}", "\n  The root is the main claim.\n}")
    result, stored = residuals(ctx, document, prose)
    assert stored == [] and result.parsed.skipped == 1
    assert any("prose" in reason for reason in result.repair.gate.reasons())  # type: ignore[union-attr]
    words = clean_dot(document).replace("\n}", "\n  Hope this helps\n}")  # strict DOT: three node statements
    result, stored = residuals(ctx, document, words)
    assert stored == [] and result.materialized.nodes_without_text == 3
    assert any("3 node statement(s) without a text" in reason for reason in result.repair.gate.reasons())  # type: ignore[union-attr]
    garbled = clean_dot(document).replace("\n}", '\n  n7 -> [label="induction-case"]\n}')
    result, stored = residuals(ctx, document, garbled)
    assert "malformed_response" in stored and result.parsed.skipped_material == 1


# ---------------------------------------------------------------- source grounding in the gate

UNRELATED = ["Migratory songbirds orient by the geomagnetic field at night.", "Glacier retreat exposes bare moraine to lichens.",
             "Coral spawning follows the lunar cycle.", "Bats echolocate prey in cluttered forest canopies.",
             "Volcanic ash fertilises tropical soils.", "Octopus arms taste what they touch.",
             "Desert locust swarms form after wet seasons.", "Honeybee waggle dances encode distance to flowers."]


def ungrounded_dot(document: Document) -> str:
    """The clean graph, each node keeping its real source tuple but saying something its sentence does not."""
    points = own_viewpoints(document, 8)
    lines = [f'  n{index} [label="{dot_label(source, UNRELATED[index])}"];' for index, (source, _) in enumerate(points)]
    lines += [f'  {source} -> {target} [label="{label}"];' for source, label, target in EDGES]
    return "digraph G {\n" + "\n".join(lines) + "\n}"


def test_a_graph_whose_nodes_restate_their_sentences_passes_the_grounding_row_and_the_gate_records_it(
        stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    result, stored = residuals(ctx, document, clean_dot(document))
    gate = result.repair.gate
    assert gate is not None and gate.accepted and stored == []
    assert gate.grounding is not None and gate.grounding.passed and len(gate.grounding.anchored) == 8
    counts = [entry for entry in audit_trail(ctx.store, ctx.iris, document.paper_id) if entry["kind"] == "gate"][-1]["counts"]
    assert counts["grounding_passed"] == 1 and counts["grounding_scored"] == 8
    assert counts["grounding_below_threshold"] == len(gate.grounding.below) < 4


def test_in_the_peirce_profile_a_graph_whose_nodes_say_what_their_sentences_do_not_is_accepted_with_a_failed_grounding_verdict(
        stored_paper: tuple[Context, Document]) -> None:
    """The strict gate is structure (+ judges); the grounding audit is computed, stored and reported beside it."""
    ctx, document = stored_paper
    result, stored = residuals(ctx, document, ungrounded_dot(document))
    gate = result.repair.gate
    assert gate is not None and gate.accepted and stored == []
    assert gate.grounding is not None and gate.grounding.verdict == "failed"
    [row] = [violation for violation in gate.warnings if violation.rule == "grounding"]
    assert row.reason.startswith("0 of 8 anchored nodes reach the grounding threshold 0.6") and "weakest: n" in row.reason
    assert row.reason.endswith("no anchored node is stated by the text it names: the graph may be of another paper, or its tuples wrong")
    assert any(line.startswith("warning grounding: 0 of 8 anchored nodes") for line in gate.reasons())
    entry = [entry for entry in audit_trail(ctx.store, ctx.iris, document.paper_id) if entry["kind"] == "gate"][-1]
    assert entry["notes"]["grounding"] == "failed" and entry["notes"]["verdict"] == "accepted"  # type: ignore[index]
    assert entry["counts"]["grounding_passed"] == 0  # type: ignore[index]


@pytest.fixture(scope="module")
def three_papers(arche_documents: list[Document]) -> Iterator[Context]:
    """One embedded store holding the three papers; each test stores its responses (each replaces the paper's last)."""
    store = EmbeddedStore(None)
    for document in arche_documents:
        paper_store(store, document)
    ctx = Context(store, IriScheme(), PEIRCE)
    yield ctx
    ctx.close()


def test_the_graph_of_another_stored_paper_is_the_residual_foreign_graph_naming_that_paper(
        three_papers: Context, arche_documents: list[Document]) -> None:
    own, other = arche_documents[0], arche_documents[1]
    result, stored = residuals(three_papers, own, clean_dot(other))
    gate = result.repair.gate
    assert gate is not None and not gate.accepted and "foreign_graph" in stored
    [row] = [violation for violation in gate.blocking if violation.rule == "foreign_graph"]
    assert row.reason.startswith(f"the graph is of paper {other.paper_id}: ") and row.reason.endswith(f" by the text of {own.paper_id}")
    assert repair_paper(three_papers, own.paper_id).gate.residuals == stored  # type: ignore[union-attr]


def cited_dot(document: Document) -> str:
    """The clean graph's shape, each node restating a viewpoint of a work the paper cites, with its (x, y, z) tuple."""
    seen: dict[str, tuple[int, int, int]] = {}
    for viewpoint in document.viewpoints:
        key = " ".join(viewpoint.text.lower().split())
        if viewpoint.reference_index > 0 and key not in seen:
            seen[key] = viewpoint.source
    points = [(source, text) for text, source in seen.items()][:8]
    assert len(points) == 8, f"{document.paper_id} cites fewer than 8 distinct viewpoints"
    lines = [f'  n{index} [label="{dot_label(source, text)}"];' for index, (source, text) in enumerate(points)]
    lines += [f'  {source} -> {target} [label="{label}"];' for source, label, target in EDGES]
    return "digraph G {\n" + "\n".join(lines) + "\n}"


def test_the_graph_of_another_stored_paper_citing_the_works_it_cites_is_foreign_too(
        three_papers: Context, arche_documents: list[Document]) -> None:
    """Nodes that restate cited works' viewpoints are stated by no sentence alone: the other paper is still found."""
    own, other = arche_documents[1], arche_documents[0]  # the first of the real three cites works with viewpoints
    result, stored = residuals(three_papers, own, cited_dot(other))
    gate = result.repair.gate
    assert gate is not None and not gate.accepted and "foreign_graph" in stored
    [row] = [violation for violation in gate.blocking if violation.rule == "foreign_graph"]
    assert row.reason.startswith(f"the graph is of paper {other.paper_id}: ")
    accepted, kept = residuals(three_papers, other, cited_dot(other))
    assert accepted.repair.gate is not None and accepted.repair.gate.accepted and kept == []


def test_a_graph_its_own_paper_does_not_state_is_not_called_foreign_when_no_other_paper_states_it(
        three_papers: Context, arche_documents: list[Document]) -> None:
    """Hard negative: unrelated node texts at the paper's own tuples (and other papers in the store) stay a grounding warning."""
    result, stored = residuals(three_papers, arche_documents[0], ungrounded_dot(arche_documents[0]))
    gate = result.repair.gate
    assert gate is not None and gate.accepted and stored == []
    assert "grounding" in [violation.rule for violation in gate.warnings] and not gate.blocking


def test_the_own_graph_of_a_paper_is_not_foreign_when_another_stored_paper_shares_its_sentences(
        three_papers: Context, arche_documents: list[Document]) -> None:
    """A graph grounded in its own paper is never looked at for another, even where another paper could state it too."""
    own = arche_documents[0]
    result, stored = residuals(three_papers, own, clean_dot(own))
    assert result.repair.gate is not None and result.repair.gate.accepted and stored == []


def strict_grounding(tmp_path: Path) -> Path:
    manifest = tmp_path / "peirce.toml"
    manifest.write_text(PEIRCE.manifest.read_text(encoding="utf-8").replace('severity = "warning"', 'severity = "critical"'), encoding="utf-8")
    return manifest


def test_a_profile_that_makes_grounding_critical_turns_a_failed_audit_into_the_residual_weak_grounding(
        stored_paper: tuple[Context, Document], tmp_path: Path) -> None:
    ctx, document = stored_paper
    strict = Context(ctx.store, ctx.iris, replace(PEIRCE, manifest=strict_grounding(tmp_path)))
    result, stored = residuals(strict, document, ungrounded_dot(document))
    gate = result.repair.gate
    assert gate is not None and not gate.accepted and stored == ["weak_grounding"]
    [row] = [violation for violation in gate.blocking if violation.rule == "grounding"]
    assert row.focus == ctx.iris.paper(document.paper_id)
    assert repair_paper(strict, document.paper_id).gate.residuals == ["weak_grounding"]  # type: ignore[union-attr]


def test_a_grounding_severity_outside_critical_and_warning_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "peirce.toml"
    manifest.write_text(PEIRCE.manifest.read_text(encoding="utf-8").replace('severity = "warning"', 'severity = "fatal"'), encoding="utf-8")
    with pytest.raises(ProfileError, match=r"\[grounding\] severity must be one of critical, warning, not 'fatal'"):
        grounding_settings(replace(PEIRCE, manifest=manifest))


# ---------------------------------------------------------------- the command line


def test_cli_ingest_reasoning_repair_audit_diff_and_dot_export(arche_paper: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    response = tmp_path / "response.dot"
    response.write_text(arche_response(arche_paper), encoding="utf-8")
    base = ["--store", str(tmp_path / "store"), "--profile", "peirce"]
    assert main([*base, "ingest", "--no-validate", "--no-extract", arche_paper.source]) == 0
    ingest = capsys.readouterr().out
    assert "repair scripts" in ingest and "gate per paper" in ingest
    assert main([*base, "reasoning", arche_paper.paper_id, str(response)]) == 0
    output = capsys.readouterr().out
    assert "parser branch dot-tolerant" in output and "source anchors: 5 resolved" in output and "accepted" in output
    row = next(line for line in output.splitlines() if line.startswith(arche_paper.paper_id))
    assert row.split()[1:3] == ["5", "5"]  # nodes stated, stored
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
    cut = tmp_path / "cut.dot"
    full = "Sure! Here is the graph:\n```dot\n" + clean_dot(arche_paper) + "\n```\n"
    cut.write_text(full[: round(0.6 * len(full))], encoding="utf-8")
    assert main([*base, "reasoning", arche_paper.paper_id, str(cut)]) == 1
    output = capsys.readouterr().out
    assert "residual: " in output and "truncated_response" in output and f"{arche_paper.paper_id}: truncated_response: the response ends" in output


def test_reasoning_for_a_paper_not_in_the_store_is_an_actionable_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    response = tmp_path / "response.dot"
    response.write_text("digraph { a -> b }", encoding="utf-8")
    assert main(["--store", str(tmp_path / "store"), "--profile", "peirce", "reasoning", "missing", str(response)]) == 2
    assert "ingest its ARCHE JSON first" in capsys.readouterr().err

