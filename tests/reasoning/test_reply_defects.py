"""What a reply states beyond one clean graph is said, never lost in silence; repair never merges a node into its neighbour.

- a reply holding a second, different graph after the first is a typed residual;
  identical copies are a counted note;
- a node ``type=`` naming no role of the profile is a counted warning, stored;
- a premise with its conclusion's text (another tuple) is not merged into it;
- the (x, k, 0) -> (x, 0, k) reading is decided per node, the written tuple kept.
"""

from __future__ import annotations

from test_anchors import table
from test_peirce import PEIRCE, clean_dot, dot_label, own_viewpoints, residuals

from claimgraph.context import Context
from claimgraph.loaders import Document
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.triples import reasoning_triples

INDUCTION = [("n1", "induction-common", "n0"), ("n2", "induction-case", "n0")]


def materialize_note(ctx: Context, document: Document) -> str:
    trail = audit_trail(ctx.store, ctx.iris, document.paper_id)
    entry = [entry for entry in trail if entry["name"] == "materialize reasoning response"][-1]
    return str(entry["notes"].get("findings", ""))  # type: ignore[union-attr]


def test_a_second_different_graph_after_the_first_is_a_typed_residual_naming_what_was_not_read(
        stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    other = clean_dot(document).replace("digraph G", "digraph Revised").replace(' n1 -> n0', ' n2 -> n0x')
    result, stored = residuals(ctx, document, clean_dot(document) + "\n\nOn reflection, a better graph:\n" + other)
    assert stored == ["malformed_response"]
    assert result.parsed.extra_graphs == 1
    assert any("1 more graph(s) after the first, different from it" in line for line in result.repair.gate.reasons())  # type: ignore[union-attr]
    assert "only the first graph was read" in materialize_note(ctx, document)


def test_identical_copies_of_the_graph_in_one_reply_are_read_once_and_counted(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    result, stored = residuals(ctx, document, clean_dot(document) + "\n" + clean_dot(document))
    assert stored == [] and result.repair.gate is not None and result.repair.gate.accepted
    assert result.parsed.extra_graphs == 1 and result.materialized.nodes == 8
    assert "the same graph 2 times; it was read once" in materialize_note(ctx, document)


def test_a_node_type_outside_the_profile_is_a_counted_warning_in_the_report_and_the_audit(stored_paper: tuple[Context, Document]) -> None:
    ctx, document = stored_paper
    response = clean_dot(document).replace('n3 [label=', 'n3 [type="observation", label=', 1).replace('n5 [label=', 'n5 [type="observation", label=', 1)
    result, stored = residuals(ctx, document, response)
    assert stored == [] and result.materialized.off_profile_roles == {"observation": 2}
    gate = result.repair.gate
    assert gate is not None and any("2 node(s) state a role or type the profile does not know" in line and "'observation' x2" in line
                                    for line in gate.reasons())
    assert "2 node(s) state a role or type the profile does not know" in materialize_note(ctx, document)


def test_a_premise_with_its_conclusions_text_under_another_tuple_is_not_merged_into_it(stored_paper: tuple[Context, Document]) -> None:
    """Merging them made a self-loop, dropped it and left the induction unit with one edge (single_edge_unit)."""
    ctx, document = stored_paper
    points = own_viewpoints(document, 3)
    (conclusion_source, conclusion_text), (common_source, common_text), (case_source, _) = points
    response = "digraph G {\n" + "\n".join([
        f'  n0 [label="{dot_label(conclusion_source, conclusion_text)}"];',
        f'  n1 [label="{dot_label(common_source, common_text)}"];',
        f'  n2 [label="{dot_label(case_source, conclusion_text)}"];',
        *(f'  {source} -> {target} [label="{label}"];' for source, label, target in INDUCTION)]) + "\n}"
    result, stored = residuals(ctx, document, response)
    assert stored == ["circular_step"]  # the premise restates its conclusion: named, not turned into a broken unit
    assert result.repair.merges == []
    paper = ctx.iris.paper(document.paper_id)
    assert ctx.store.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?node ?p ?target } }",
                            {"g": paper, "p": CG.inductionCase}) == 1


def test_the_tuple_reading_is_decided_per_node_and_the_written_tuple_kept() -> None:
    """(1,2,0) and (3,3,0) name own viewpoints (1,0,2), (3,0,3); (2,4,0) names the reference sentence 2 cites.
    One reading for the whole reply read all three as (x, 0, k) and lost the citation."""
    response = 'digraph G { a [label="(1,2,0) first"]; b [label="(3,3,0) second"]; c [label="(2,4,0) third"]; ' \
               'a -> c [label="DR"]; b -> c [label="DC"]; }'
    made = reasoning_triples(materialize(response), PEIRCE, IriScheme(), "p1", table())
    assert made.anchors["resolved"] == 3 and made.anchors["fallen_back"] == 0
    assert made.reading == "mixed" and made.reread_tuples == 2
    written = {(triple.subject.value.rsplit("/", 1)[-1], triple.object.value) for triple in made.triples if triple.predicate == CG.statedSource}
    assert written == {("a", "1,2,0"), ("b", "3,3,0")}
    assert any("2 tuple(s) (x, k, 0) read as (x, 0, k)" in finding.reason for finding in made.findings)
