"""The ontologies parse, document every term, and carry the merge policies and edge labels."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph
import pytest
import rdflib
from rdflib.namespace import OWL, RDF, RDFS

from claimgraph.assets import asset_path
from claimgraph.loaders import load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import defined_terms, edge_families, edge_labels, merge_policy
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG

ONTOLOGIES = ["discourse.ttl", "peirce.ttl", "alignments.ttl"]
TERM_TYPES = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty, OWL.NamedIndividual}


def parsed(name: str) -> rdflib.Graph:
    return rdflib.Graph().parse(asset_path("ontology", name), format="turtle")


@pytest.mark.parametrize("name", ONTOLOGIES)
def test_ontology_parses_in_rdflib_and_pyoxigraph_to_the_same_triples(name: str) -> None:
    oxigraph_triples = list(pyoxigraph.parse(path=str(asset_path("ontology", name)), format=pyoxigraph.RdfFormat.TURTLE))
    assert len(parsed(name)) == len(oxigraph_triples) > 0


@pytest.mark.parametrize("name", ONTOLOGIES)
def test_ontology_has_a_header_with_a_version_iri_label_and_comment(name: str) -> None:
    graph = parsed(name)
    (ontology,) = graph.subjects(RDF.type, OWL.Ontology)
    assert graph.value(ontology, OWL.versionIRI) is not None
    assert graph.value(ontology, RDFS.label) and graph.value(ontology, RDFS.comment)


@pytest.mark.parametrize("name", ONTOLOGIES)
def test_every_term_an_ontology_defines_has_a_label_and_a_comment(name: str) -> None:
    graph = parsed(name)
    defined = {s for t in TERM_TYPES for s in graph.subjects(RDF.type, t) if str(s).startswith(str(CG))}
    undocumented = sorted(str(term) for term in defined if not (graph.value(term, RDFS.label) and graph.value(term, RDFS.comment)))
    assert undocumented == []
    assert defined or name == "alignments.ttl"  # alignments only relates existing terms


def test_merge_policy_is_read_from_the_ontology_annotations() -> None:
    policies = {iri.removeprefix(str(CG)): policy for iri, policy in merge_policy(load_profile("peirce")).items()}
    assert policies == {
        **dict.fromkeys(["Factor", "Variable", "StudyDesign", "StatisticalMethod"], "aggressive"),
        **dict.fromkeys(["Association", "Hypothesis", "ResearchQuestion", "Claim", "Viewpoint", "Evidence"], "cautious"),
        **dict.fromkeys(["Paper", "Passage", "Sentence", "Reference", "CanonicalNode", "EdgeAnnotation", "ReasoningNode",
                         "ConsensusNode", "ConsensusEdge"], "never"),
    }


def test_discourse_profile_has_no_peirce_classes_or_edges() -> None:
    profile = load_profile("discourse")
    assert CG.ReasoningNode.value not in merge_policy(profile)
    assert "deduction-rule" not in edge_labels(profile)


def test_the_six_peirce_edges_are_sub_properties_of_reasoning_edge_with_family_and_role() -> None:
    graph = rdflib.Graph()
    for path in load_profile("peirce").ontology_files:
        graph.parse(path, format="turtle")
    edges = set(graph.subjects(RDFS.subPropertyOf, rdflib.URIRef(CG.reasoningEdge.value)))
    families = {str(graph.value(edge, rdflib.URIRef(CG.family.value))).rsplit("#")[-1] for edge in edges}
    roles = {str(graph.value(edge, rdflib.URIRef(CG.role.value))) for edge in edges}
    assert {str(edge) for edge in edges} == set(edge_families(load_profile("peirce")))
    assert len(edges) == 6
    assert families == {"Deduction", "Induction", "Abduction"}
    assert roles == {"rule", "case", "common", "phenomenon", "knowledge"}


@pytest.mark.parametrize("shex", ["discourse.shex", "peirce.shex"])
def test_every_cg_term_the_shapes_use_is_defined_in_the_ontology(shex: str) -> None:
    defined = {term for term in defined_terms(load_profile("peirce")) if term.startswith(CG.iri)}
    used = {CG.iri + local for local in re.findall(r"\bcg:([A-Za-z0-9]+)", asset_path("shapes", shex).read_text())}
    assert used - defined == set()


def test_every_cg_term_the_arche_loader_writes_is_defined_in_the_ontology(arche_dir: Path) -> None:
    document = load_document(arche_dir / "s41467-025-55907-w.json")
    used = set()
    for triple in document_triples(document, IriScheme()):
        used.update(term.value for term in (triple.predicate, triple.object) if isinstance(term, pyoxigraph.NamedNode))
    defined = defined_terms(load_profile("discourse"))
    assert {iri for iri in used if iri.startswith(CG.iri)} - defined == set()
