"""The gate: measures in one query, severities, residual types declared once and read from the ontology, kept input residuals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, parse

from claimgraph.assets import asset_path
from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.loaders import Document
from claimgraph.papers.document_graph import document_triples
from claimgraph.profile.manifest import list_profiles, load_profile
from claimgraph.quality.gate import evaluate_gate, gate_paper, measure_graph, measure_names, measures
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import profile_section
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore
from claimgraph.testing.reasoning_cases.verdicts import RESIDUALS

CASES = Path(__file__).parent / "repair_cases"
VALID = Path(__file__).parents[1] / "profile" / "shapes_fixtures" / "peirce_valid.ttl"
IRIS = IriScheme()
PAPER = IRIS.paper("p1")
PEIRCE = load_profile("peirce")


def context_with(case: str, profile: str = "peirce") -> Context:
    triples = [quad.triple for quad in parse(path=str(VALID if case == "valid" else CASES / case), format=RdfFormat.TURTLE, base_iri=PAPER.value)]
    ctx = Context(EmbeddedStore(None), IRIS, load_profile(profile))
    ctx.store.replace_graphs({PAPER: triples, IRIS.raw_graph("p1"): triples})
    return ctx


@pytest.mark.parametrize("case", sorted(path.name for path in CASES.glob("*.ttl")))
def test_the_one_query_of_all_measures_counts_what_each_measure_file_counts_alone(case: str) -> None:
    ctx = context_with(case)
    combined = measure_graph(ctx, PAPER, PAPER)
    alone: dict[str, int] = {}
    for measure in measures():
        (row,) = ctx.store.select(measure.text, {"graph": PAPER, "paper": PAPER, "vocabulary": ctx.vocabulary})
        alone.update({name: int(row[variable].value) for name, variable in zip(measure.counts, measure.counts if len(measure.counts) > 1 else ["n"])})
    assert combined == alone and list(combined) == measure_names()


NOT_ASSESSED = "warning grounding: not assessed: the paper graph holds no sentence to compare its 7 anchored nodes with"


def test_a_warning_is_reported_and_never_blocks_while_a_critical_finding_makes_its_residual() -> None:
    """The valid graph is written without its paper: the grounding row can only warn that it was not assessed."""
    ctx = context_with("valid")
    report = evaluate_gate(ctx, "p1")
    assert report.accepted and report.reasons() == [NOT_ASSESSED]
    warning = RuleViolation(PAPER, "input", PAPER, "3 lines of prose skipped", None, "warning")
    report = evaluate_gate(ctx, "p1", findings=[warning])
    assert report.accepted and report.warnings[0] == warning and report.reasons() == ["warning input: 3 lines of prose skipped", NOT_ASSESSED]
    cut = RuleViolation(PAPER, "input", PAPER, "the response ends inside a string", "truncated_response")
    report = evaluate_gate(ctx, "p1", findings=[cut])
    assert not report.accepted and report.residuals == ["truncated_response"]
    assert report.reasons() == ["truncated_response: the response ends inside a string", NOT_ASSESSED]


def test_a_residual_no_ontology_declares_is_refused() -> None:
    ctx = context_with("valid")
    with pytest.raises(ProfileError, match="oops_residual"):
        evaluate_gate(ctx, "p1", findings=[RuleViolation(PAPER, "input", PAPER, "made up", "oops_residual")])


def declared() -> set[str]:
    graph = parse(path=str(asset_path("ontology", "residuals.ttl")), format=RdfFormat.TURTLE)
    return {quad.object.value for quad in graph if quad.predicate.value == "http://www.w3.org/2004/02/skos/core#notation"}


@pytest.mark.parametrize("name", list_profiles())
def test_every_residual_a_rule_can_produce_is_declared_once_in_the_ontology(name: str) -> None:
    profile = load_profile(name)
    names = [*profile.rule_names, *profile_section(profile, "semantic").get("rules", [])]
    produced = set()
    for rule in names:
        text = asset_path("sparql", "rules", f"{rule}.rq").read_text(encoding="utf-8")
        header = re.search(r"^#\s*residual:\s*(.+)$", text, re.MULTILINE)
        assert header, f"rule {rule} has no '# residual:' header"
        produced |= set(re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", header.group(1))) | ({header.group(1).split()[0]} - {"none"})
    types = declared()
    assert produced <= types
    assert set(RESIDUALS) <= types  # every residual the malformed reasoning corpus expects
    notations = [quad.object.value for quad in parse(path=str(asset_path("ontology", "residuals.ttl")), format=RdfFormat.TURTLE)
                 if quad.predicate.value == "http://www.w3.org/2004/02/skos/core#notation"]
    assert len(notations) == len(set(notations))


def test_residual_labels_are_checked_against_the_profile_and_input_labels_survive_a_later_gate() -> None:
    ctx = context_with("valid")
    ctx.store.insert({PAPER: [Triple(PAPER, CG.residual, Literal(label)) for label in ("no_rumour", "extraction_incomplete", "cycle")]})
    report = gate_paper(ctx, "p1")
    assert "extraction_incomplete" in report.residuals and "cycle" not in report.residuals  # graph-stage labels are recomputed
    assert any(violation.rule == "residual_types" and "no_rumour" in violation.reason for violation in report.violations)
    assert not report.accepted


def test_a_structured_paper_shows_its_given_nodes(arche_documents: list[Document]) -> None:
    document = arche_documents[0]
    ctx = Context(EmbeddedStore(None), IRIS, load_profile("discourse"))
    paper = IRIS.paper(document.paper_id)
    triples = list(document_triples(document, IRIS))
    ctx.store.replace_graphs({paper: triples, IRIS.raw_graph(document.paper_id): triples})
    report = gate_paper(ctx, document.paper_id)
    assert report.given_nodes == len({viewpoint.source for viewpoint in document.viewpoints}) > 0
    assert report.repaired["nodes"] == 0 and report.accepted


def test_the_vocabulary_graph_lists_the_residual_types_and_never_as_edge_properties() -> None:
    ctx = Context(EmbeddedStore(None), IRIS, PEIRCE)
    rows = ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?label ?stage WHERE { GRAPH ?v { ?t a cg:ResidualType ; "
                            "cg:residualLabel ?label ; cg:residualStage ?stage } }", {"v": ctx.vocabulary})
    assert {row["label"].value for row in rows} == declared()
    assert not ctx.store.ask("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
                             "ASK { GRAPH ?v { ?t a cg:ResidualType ; skos:notation ?n } }", {"v": ctx.vocabulary})
    assert NamedNode("https://w3id.org/claimgraph/ontology/v1#TruncatedResponse") in {row["t"] for row in ctx.store.select(
        "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?t WHERE { GRAPH ?v { ?t cg:residualStage \"input\" } }", {"v": ctx.vocabulary})}
