"""Each sparql/repair/*.ru script: a crafted before-graph gives exactly the expected after-graph, and a second run changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode, RdfFormat, Triple, parse

from claimgraph.profile.manifest import list_profiles, load_profile
from claimgraph.profile.vocabulary import edge_predicate, load_vocabulary, raw_label_iri
from claimgraph.quality.repair import run_script, script_paths
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import Store

CASES = Path(__file__).parent / "repair_cases"
PEIRCE = load_profile("peirce")
SCRIPTS = script_paths(PEIRCE)
HUB = NamedNode("https://claimgraph.example/canonical/CANON_Factor_x")


def turtle(name: str) -> set[Triple]:
    return {quad.triple for quad in parse(path=str(CASES / name), format=RdfFormat.TURTLE)}


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_script_turns_the_before_graph_into_exactly_the_after_graph_and_is_idempotent(store: Store, iris: IriScheme, script: Path) -> None:
    graph = iris.paper("p1")
    store.replace_graphs({graph: turtle(f"{script.stem}.before.ttl"), iris.canonical_graph(): [Triple(HUB, RDF.type, CG.CanonicalNode)]})
    vocabulary = load_vocabulary(store, iris, PEIRCE)
    first, _ = run_script(store, graph, vocabulary, script)
    assert set(store.triples(graph)) == turtle(f"{script.stem}.after.ttl")
    assert first.changed and first.touched
    second, _ = run_script(store, graph, vocabulary, script)
    assert not second.changed and set(store.triples(graph)) == turtle(f"{script.stem}.after.ttl")


@pytest.mark.parametrize("name", list_profiles())
def test_every_repair_a_profile_lists_has_a_script_and_a_case(name: str) -> None:
    profile = load_profile(name)
    assert profile.missing_repairs == []
    assert all((CASES / f"{path.stem}.before.ttl").is_file() for path in profile.repair_files)


def test_edge_predicate_is_canonical_up_to_case_and_spacing_and_raw_otherwise() -> None:
    assert edge_predicate(PEIRCE, "Deduction rule") == CG.deductionRule
    assert edge_predicate(PEIRCE, "Deduction_Rule") == CG.deductionRule
    assert edge_predicate(PEIRCE, "DR") == raw_label_iri("dr") == NamedNode("https://w3id.org/claimgraph/raw-label/dr")
    assert raw_label_iri('a "b"/c') == NamedNode("https://w3id.org/claimgraph/raw-label/a-%22b%22%2Fc")
    assert raw_label_iri("") == NamedNode("https://w3id.org/claimgraph/raw-label/unlabeled")
