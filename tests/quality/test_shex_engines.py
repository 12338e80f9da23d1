"""rudof and pyshex give the same verdict on every focus node: corpora as loaded, and graphs broken on purpose.

Validation lets rudof sort the nodes and asks pyshex (the reference) only about
the ones rudof rejects, so a node rudof wrongly accepts would go unreported.
These tests compare the two engines node by node: the generated and example
corpora, the smallest real ARCHE papers (the full 70 in bench/validation_speed.py),
and mutations of the shape fixtures (a triple dropped, a value duplicated, a
literal where a node belongs, a node where a literal belongs, an ill-typed
number), which make many nodes fail in many different ways.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, parse

from claimgraph.loaders import find_inputs, load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.shapes import CompiledProfile, compile_profile, shape_results
from claimgraph.quality.shex_rudof import conforming_pairs, rudof_available
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import RDF, XSD

pytestmark = pytest.mark.skipif(not rudof_available(), reason="pyrudof is not installed (or CLAIMGRAPH_SHEX_ENGINE=pyshex)")

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "profile" / "shapes_fixtures"
PREFIXES = "@prefix p: <https://claimgraph.example/paper/p1/> .\n"


def verdicts_agree(triples: list[Triple], compiled: CompiledProfile) -> tuple[int, list[str], int]:
    """(focus/shape pairs compared, disagreements, pairs that fail) between pyshex alone and rudof alone."""
    reference = {(focus, shape): passed for focus, blank, shape, passed, _ in shape_results(triples, compiled, engine="pyshex")
                 if shape and not blank}
    classes = {cls for cls, shape in compiled.shape_of_class.items() if shape in {shape for _, shape in reference}}
    fast = conforming_pairs(triples, compiled.shex_texts, compiled.shape_of_class, classes)
    problems = [f"{focus} @ {shape}: pyshex {passed}, rudof {fast.get((focus, shape))}"
                for (focus, shape), passed in reference.items() if fast.get((focus, shape)) != passed]
    problems += [f"{pair}: only rudof checked it" for pair in set(fast) - set(reference)]
    return len(reference), problems, sum(1 for passed in reference.values() if not passed)


def corpus_graphs(folder: Path, smallest: int | None = None) -> list[list[Triple]]:
    iris = IriScheme()
    paths = sorted(find_inputs([folder]), key=lambda path: path.stat().st_size)[:smallest]
    return [list(dict.fromkeys(document_triples(load_document(path), iris))) for path in paths]


def test_the_engines_agree_on_every_node_of_the_synthetic_arche_corpus(synthetic_arche_dir: Path) -> None:
    compiled = compile_profile(load_profile("discourse"))
    compared, problems = 0, []
    for triples in corpus_graphs(synthetic_arche_dir, smallest=3):
        count, found, _ = verdicts_agree(triples, compiled)
        compared, problems = compared + count, problems + found
    assert compared > 50 and problems == []


def test_the_engines_agree_on_every_node_of_the_example_papers() -> None:
    compiled = compile_profile(load_profile("discourse"))
    graphs = corpus_graphs(REPO / "examples" / "papers")
    assert len(graphs) >= 5
    results = [verdicts_agree(triples, compiled) for triples in graphs]
    assert sum(count for count, _, _ in results) > 30
    assert [problem for _, found, _ in results for problem in found] == []


def test_the_engines_agree_on_the_smallest_real_arche_papers(arche_dir: Path) -> None:
    compiled = compile_profile(load_profile("discourse"))
    iris = IriScheme()
    paths = sorted(arche_dir.glob("*.json"), key=lambda path: path.stat().st_size)[:3]
    for path in paths:
        compared, problems, _ = verdicts_agree(list(dict.fromkeys(document_triples(load_document(path), iris))), compiled)
        assert compared > 10 and problems == [], path.name


def mutations(triples: list[Triple], seed: int, count: int) -> list[tuple[str, list[Triple]]]:
    """Broken copies of a valid graph, one defect each, chosen by ``seed``."""
    chooser = random.Random(seed)
    stranger = NamedNode("https://claimgraph.example/paper/p1/stranger")
    cases: list[tuple[str, list[Triple]]] = []
    for index, triple in enumerate(triples):
        rest = triples[:index] + triples[index + 1:]
        cases.append((f"drop {triple}", rest))
        if isinstance(triple.object, Literal):
            cases.append((f"node for literal {triple}", [*rest, Triple(triple.subject, triple.predicate, stranger)]))
            cases.append((f"ill-typed number {triple}", [*rest, Triple(triple.subject, triple.predicate, Literal("many", datatype=XSD.decimal))]))
            cases.append((f"second value {triple}", [*triples, Triple(triple.subject, triple.predicate, Literal(triple.object.value + " again"))]))
        elif triple.predicate != RDF.type:
            cases.append((f"literal for node {triple}", [*rest, Triple(triple.subject, triple.predicate, Literal("a node name"))]))
            cases.append((f"dangling node {triple}", [*rest, Triple(triple.subject, triple.predicate, stranger)]))
    chooser.shuffle(cases)
    return cases[:count]


@pytest.mark.parametrize(("fixture", "profile"), [("discourse_valid.ttl", "discourse"), ("peirce_valid.ttl", "peirce")])
def test_the_engines_agree_on_every_node_of_broken_graphs(fixture: str, profile: str) -> None:
    compiled = compile_profile(load_profile(profile))
    valid = list(parse((FIXTURES / fixture).read_text(encoding="utf-8") + PREFIXES, format=RdfFormat.TURTLE))
    problems: list[str] = []
    failing_nodes = 0
    for name, triples in mutations(valid, seed=14, count=20):
        _, found, failing = verdicts_agree(triples, compiled)
        problems += [f"{name}: {problem}" for problem in found]
        failing_nodes += failing
    assert problems == []
    assert failing_nodes >= 12  # the mutations do break nodes: agreement is not on passes alone
