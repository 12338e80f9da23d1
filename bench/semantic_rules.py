"""Benchmark: the semantic rules on graphs built from the 70 ARCHE papers, with injected defects and decoys.

For each paper, two clean graphs over its own viewpoints (texts and (x, y, z)
tuples from the data):

- peirce: a reasoning tree of complete units (claimgraph.testing.reasoning_cases.graphs)
  over one viewpoint per source (the shared generator takes consecutive
  viewpoints, often several of one sentence: how many of its inductions then
  rest on one source is reported at the end);
- discourse: a research question, two hypotheses each supported by three
  evidence lines (two evidence nodes and a claim backed by a third), and an
  association of two factors. Every node takes a viewpoint of a different
  source (a sentence, or a cited reference), so every line is independent.

Each variant copies a clean graph and injects one defect whose expected
findings ((rule, focus node) pairs) are written down by the injector, or a
decoy that looks like a defect and must not be reported (a near-restatement,
two references of one sentence as separate lines, mixed evidence for the
polarity rule, an even loop of oppositions). Findings already present in the
clean graph are subtracted from its variants (and an expected finding the
clean graph already had is left out of the expected ones); they are reported
apart as occurrences in the generated graphs. Findings of a variant that no
injection expected are listed by injection.

Per rule: expected findings, findings, true positives, precision and recall.

    python bench/semantic_rules.py [--arche ../shared/data/arche] [--seed 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.document_graph import source_tuple_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.semantic import semantic_rules, semantic_violations
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, RDF
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.reasoning_cases.graphs import graph_size, grow_graph, paper_viewpoints

Source = tuple[int, int, int]
PEIRCE_EDGES = {"deduction-rule": "deductionRule", "deduction-case": "deductionCase", "induction-common": "inductionCommon",
                "induction-case": "inductionCase", "abduction-phenomenon": "abductionPhenomenon", "abduction-knowledge": "abductionKnowledge"}


@dataclass
class Graph:
    nodes: dict[str, list] = field(default_factory=dict)  # id -> [class, text, source]
    edges: set[tuple[str, str, str]] = field(default_factory=set)

    def copy(self) -> Graph:
        return Graph({key: list(value) for key, value in self.nodes.items()}, set(self.edges))

    def units(self) -> dict[str, list[tuple[str, str]]]:
        units: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for source, label, target in sorted(self.edges):
            units[target].append((source, label))
        return units

    def premises(self, node: str) -> list[str]:
        return [source for source, _, target in self.edges if target == node]

    def triples(self, iris: IriScheme, paper_id: str) -> list[Triple]:
        paper = iris.paper(paper_id)
        triples = [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.identifier, Literal(paper_id))]
        for local, (kind, text, source) in self.nodes.items():
            node = iris.extracted_node(paper_id, local)
            triples += [Triple(node, RDF.type, CG[kind]), Triple(node, CG.text, Literal(text)), *source_tuple_triples(node, tuple(source))]
        triples += [Triple(iris.extracted_node(paper_id, s), CG[p], iris.extracted_node(paper_id, t)) for s, p, t in self.edges]
        return triples


Expected = set[tuple[str, str]]
Mutation = Callable[[Graph, random.Random], Expected | None]  # None: not applicable to this graph


# ---------------------------------------------------------------- clean graphs


def distinct_sources(document: Document, rng: random.Random) -> list[tuple[str, Source]]:
    """One viewpoint per source (sentence x, or cited reference y), shuffled."""
    by_source: dict[str, tuple[str, Source]] = {}
    for text, source in paper_viewpoints(document):
        by_source.setdefault(f"r{source[1]}" if source[1] else f"s{source[0]}", (text, source))
    chosen = list(by_source.values())
    rng.shuffle(chosen)
    return chosen


def discourse_graph(document: Document, rng: random.Random) -> Graph | None:
    pool = distinct_sources(document, rng)
    if len(pool) < 16:
        return None
    graph = Graph()
    kinds = ["ResearchQuestion", "Hypothesis", "Hypothesis", *["Evidence"] * 6, "Claim", "Claim", "Association", "Factor", "Factor"]
    names = ["q", "h1", "h2", "e1", "e2", "e3", "e4", "e5", "e6", "c1", "c2", "a", "f1", "f2"]
    for name, kind, (text, source) in zip(names, kinds, pool):
        graph.nodes[name] = [kind, text, list(source)]
    graph.edges |= {("h1", "addresses", "q"), ("h2", "addresses", "q"), ("e1", "supports", "h1"), ("e2", "supports", "h1"),
                    ("c1", "supports", "h1"), ("e5", "supports", "c1"), ("e3", "supports", "h2"), ("e4", "supports", "h2"),
                    ("c2", "supports", "h2"), ("e6", "supports", "c2"), ("a", "arg0", "f1"), ("a", "arg1", "f2")}
    graph.nodes["spare"] = ["Evidence", pool[14][0], list(pool[14][1])]  # for injections that need one more source
    graph.nodes["spare2"] = ["Evidence", pool[15][0], list(pool[15][1])]
    graph.edges |= {("spare", "supports", "c1"), ("spare2", "supports", "c2")}
    return graph


def peirce_graph(document: Document, rng: random.Random, consecutive: bool = False) -> Graph | None:
    """A clean reasoning tree; its nodes take one viewpoint per source unless ``consecutive`` (the shared generator's own choice)."""
    viewpoints = paper_viewpoints(document) if consecutive else distinct_sources(document, rng)
    if len(viewpoints) < 12:
        return None
    clean = grow_graph(rng, viewpoints, graph_size(rng, len(viewpoints)))
    graph = Graph({node.id: ["ReasoningNode", node.text, list(node.source)] for node in clean.nodes})
    graph.edges = {(edge.source, PEIRCE_EDGES[edge.label], edge.target) for edge in clean.edges}
    return graph


def natural_dependence(ctx: Context, documents: list[Document], seed: int) -> tuple[int, int]:
    """With consecutive viewpoints (the shared generator): inductions with two or more cases, and how many rest on one source."""
    inductions = dependent = 0
    for number, document in enumerate(documents):
        graph = peirce_graph(document, random.Random(seed * 1000 + number), consecutive=True)
        if graph is None:
            continue
        inductions += sum(1 for premises in graph.units().values() if sum(label == "inductionCase" for _, label in premises) >= 2)
        dependent += sum(rule == "peirce_induction_independent_cases" for rule, _ in findings(ctx, graph, document.paper_id))
    return inductions, dependent


# ---------------------------------------------------------------- discourse injections


def d_misdirected(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.add(("e1", "supports", "e3"))
    return {("discourse_argument_endpoints", "e1")}


def d_question_supports(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.add(("q", "supports", "h2"))
    return {("discourse_argument_endpoints", "q")}


def d_circular(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.add(("h1", "supports", "c1"))
    return {("discourse_circular_support", "h1"), ("discourse_circular_support", "c1")}


def d_contradictory(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.add(("e1", "opposes", "h1"))
    return {("discourse_support_and_oppose", "e1"), ("discourse_polarity_consistency", "h1"), ("discourse_contested_hypothesis", "h1")}


def d_degenerate(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.discard(("a", "arg1", "f2"))
    graph.edges.add(("a", "arg1", "f1"))
    return {("discourse_association_self", "a")}


def d_polarity(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.add(("e5", "opposes", "c2"))  # e5 supports c1, c1 supports c2, e5 opposes c2: an odd loop
    graph.edges.add(("c1", "supports", "c2"))
    return {("discourse_polarity_consistency", "c2")}


def d_dependent(graph: Graph, rng: random.Random) -> Expected:
    x = graph.nodes["e3"][2][0]
    for number, name in enumerate(("e3", "e4", "c2", "e6", "spare2"), start=1):
        graph.nodes[name][2] = [x, 0, number]
    return {("discourse_hypothesis_independent_evidence", "h2")}


def d_unused(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.discard(("spare", "supports", "c1"))
    return {("discourse_evidence_unused", "spare")}


def d_unsupported(graph: Graph, rng: random.Random) -> Expected:
    graph.edges -= {("e6", "supports", "c2"), ("spare2", "supports", "c2")}
    graph.edges.add(("e6", "supports", "h2"))
    graph.edges.add(("spare2", "supports", "h1"))
    return {("discourse_claim_unsupported", "c2")}


def d_unaddressed(graph: Graph, rng: random.Random) -> Expected:
    graph.edges -= {("h1", "addresses", "q"), ("h2", "addresses", "q")}
    return {("discourse_question_unaddressed", "q")}


def d_mixed(graph: Graph, rng: random.Random) -> Expected:
    graph.edges.discard(("spare", "supports", "c1"))
    graph.edges.add(("spare", "opposes", "h1"))
    return {("discourse_contested_hypothesis", "h1")}


def decoy_references(graph: Graph, rng: random.Random) -> Expected:
    """h2's three lines re-anchored to three references cited by one sentence: independent."""
    x = graph.nodes["e3"][2][0]
    for number, name in enumerate(("e3", "e4", "c2"), start=1):
        graph.nodes[name][2] = [x, 90 + number, 1]
    graph.nodes["e6"][2] = [x, 94, 1]
    graph.nodes["spare2"][2] = [x, 95, 1]
    return set()


def decoy_even_loop(graph: Graph, rng: random.Random) -> Expected:
    """e5 opposes c2 and c1 opposes c2: e5 and c1 agree (e5 supports c1), both against c2. Consistent."""
    graph.edges |= {("e5", "opposes", "c2"), ("c1", "opposes", "c2")}
    return set()


# ---------------------------------------------------------------- peirce injections


def _leaf_unit(graph: Graph, rng: random.Random, size: int = 2) -> str | None:
    units = graph.units()
    leaves = [target for target, premises in units.items() if len(premises) >= size and all(not graph.premises(p) for p, _ in premises)]
    return rng.choice(sorted(leaves)) if leaves else None


def p_restates(graph: Graph, rng: random.Random) -> Expected | None:
    target = _leaf_unit(graph, rng)
    if target is None:
        return None
    premise = graph.units()[target][0][0]
    # the conclusion again with ASCII letters upper-cased and a mark added (the rule compares letters and digits, lower-cased;
    # Unicode case pairs that do not round-trip, such as ß / SS, are left alone)
    graph.nodes[premise][1] = "".join(char.upper() if char.isascii() else char for char in graph.nodes[target][1]) + " !"
    return {("peirce_premise_restates_conclusion", target)}


def p_shared_anchor(graph: Graph, rng: random.Random) -> Expected | None:
    target = _leaf_unit(graph, rng)
    if target is None:
        return None
    premises = graph.units()[target]
    first = premises[0][0]
    second = next((p for p, label in premises[1:] if label != premises[0][1]), None)
    if second is None:
        return None
    graph.nodes[second][2] = list(graph.nodes[first][2])
    return {("peirce_unit_shared_anchor", target)}


def p_ungrounded(graph: Graph, rng: random.Random) -> Expected | None:
    target = _leaf_unit(graph, rng)
    if target is None:
        return None
    premises = graph.units()[target]
    for premise, _ in premises:
        graph.nodes[premise][2] = [0, 0, 0]
    cases = sum(label == "inductionCase" for _, label in premises)
    # an induction whose cases are all implicit has no two independent cases either
    return {("peirce_ungrounded_unit", target), *([("peirce_induction_independent_cases", target)] if cases >= 2 else [])}


def _source_key(source: list[int]) -> str:
    return f"r{source[1]}" if source[1] else f"s{source[0]}"


def p_dependent(graph: Graph, rng: random.Random) -> Expected | None:
    """An induction whose leaf cases had distinct sources gets all its cases from one sentence."""
    units = graph.units()
    inductions = []
    for target, premises in sorted(units.items()):
        cases = [p for p, label in premises if label == "inductionCase"]
        keys = {_source_key(graph.nodes[case][2]) for case in cases}
        if len(cases) >= 2 and len(keys) == len(cases) and all(not graph.premises(case) for case in cases):
            inductions.append(target)
    if not inductions:
        return None
    target = rng.choice(inductions)
    cases = [p for p, label in units[target] if label == "inductionCase"]
    for number, case in enumerate(cases, start=1):
        graph.nodes[case][2] = [900, 0, number]  # one sentence no other node cites, so no other unit is affected
    return {("peirce_induction_independent_cases", target)}


def decoy_near_restatement(graph: Graph, rng: random.Random) -> Expected | None:
    target = _leaf_unit(graph, rng)
    if target is None:
        return None
    premise = graph.units()[target][0][0]
    graph.nodes[premise][1] = graph.nodes[target][1] + " in most of the cases studied"
    return set()


def decoy_reference_cases(graph: Graph, rng: random.Random) -> Expected | None:
    units = graph.units()
    inductions = sorted(t for t, premises in units.items()
                        if sum(label == "inductionCase" for _, label in premises) >= 2 and all(not graph.premises(p) for p, _ in premises))
    if not inductions:
        return None
    target = rng.choice(inductions)
    x = graph.nodes[target][2][0]
    for number, (premise, _) in enumerate(units[target], start=1):
        graph.nodes[premise][2] = [x, 200 + number, 1]
    return set()


DISCOURSE = {"misdirected_support": d_misdirected, "question_supports": d_question_supports, "circular_support": d_circular,
             "contradictory_edges": d_contradictory, "degenerate_association": d_degenerate, "polarity_conflict": d_polarity,
             "dependent_evidence": d_dependent, "unused_evidence": d_unused, "unsupported_claim": d_unsupported,
             "unaddressed_question": d_unaddressed, "mixed_evidence": d_mixed,
             "decoy:references_of_one_sentence": decoy_references, "decoy:even_opposition_loop": decoy_even_loop}
PEIRCE = {"circular_step": p_restates, "shared_anchor": p_shared_anchor, "ungrounded_unit": p_ungrounded, "dependent_cases": p_dependent,
          "decoy:near_restatement": decoy_near_restatement, "decoy:cases_from_references": decoy_reference_cases}


# ---------------------------------------------------------------- running


def findings(ctx: Context, graph: Graph, paper_id: str) -> set[tuple[str, str]]:
    ctx.store.replace_graph(ctx.iris.paper(paper_id), graph.triples(ctx.iris, paper_id))
    return {(violation.rule, violation.focus.value.rsplit("/", 1)[-1]) for violation in semantic_violations(ctx, paper_id)}


@dataclass
class Tally:
    expected: Counter = field(default_factory=Counter)
    fired: Counter = field(default_factory=Counter)
    true: Counter = field(default_factory=Counter)
    clean: Counter = field(default_factory=Counter)
    variants: Counter = field(default_factory=Counter)
    decoy_fires: Counter = field(default_factory=Counter)
    already: Counter = field(default_factory=Counter)
    unexpected: Counter = field(default_factory=Counter)


def run_profile(ctx: Context, documents: list[Document], build: Callable, mutations: dict[str, Mutation], seed: int, tally: Tally) -> None:
    for number, document in enumerate(documents):
        rng = random.Random(seed * 1000 + number)
        clean = build(document, rng)
        if clean is None:
            continue
        base = findings(ctx, clean, document.paper_id)
        tally.clean.update(rule for rule, _ in base)
        for name, mutate in mutations.items():
            graph = clean.copy()
            expected = mutate(graph, random.Random(rng.random()))
            if expected is None:
                continue
            tally.variants[name] += 1
            new = findings(ctx, graph, document.paper_id) - base
            tally.already.update(rule for rule, _ in expected & base)
            expected = expected - base  # a finding the clean graph already had cannot tell whether the injection was seen
            tally.expected.update(rule for rule, _ in expected)
            tally.unexpected.update(f"{name} -> {rule}" for rule, _ in new - expected)
            tally.fired.update(rule for rule, _ in new)
            tally.true.update(rule for rule, _ in new & expected)
            if name.startswith("decoy:"):
                tally.decoy_fires.update(f"{name} -> {rule}" for rule, _ in new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.arche is None or not args.arche.is_dir():
        print("no ARCHE folder: pass --arche or set CLAIMGRAPH_ARCHE_DIR", file=sys.stderr)
        return 2
    documents = [load_document(path) for path in find_inputs([args.arche])]
    report: dict[str, object] = {"papers": len(documents), "seed": args.seed}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for profile, build, mutations in (("discourse", discourse_graph, DISCOURSE), ("peirce", peirce_graph, PEIRCE)):
            ctx = Context(EmbeddedStore(Path(folder) / profile), IriScheme(), load_profile(profile))
            tally = Tally()
            run_profile(ctx, documents, build, mutations, args.seed, tally)
            ctx.close()
            rows = {}
            print(f"\n{profile}: variants per injection {dict(tally.variants)}")
            print(f"  {'rule':45} {'severity':8} {'expected':>8} {'fired':>6} {'TP':>5} {'precision':>9} {'recall':>7} {'in clean':>8}")
            for rule in semantic_rules(load_profile(profile)):
                expected, fired, true = tally.expected[rule.name], tally.fired[rule.name], tally.true[rule.name]
                precision = true / fired if fired else float("nan")
                recall = true / expected if expected else float("nan")
                rows[rule.name] = {"severity": rule.severity, "expected": expected, "fired": fired, "true_positives": true,
                                   "precision": round(precision, 4) if fired else None, "recall": round(recall, 4) if expected else None,
                                   "fired_on_clean_graphs": tally.clean[rule.name]}
                print(f"  {rule.name:45} {rule.severity:8} {expected:8} {fired:6} {true:5} {precision:9.3f} {recall:7.3f} {tally.clean[rule.name]:8}")
            if tally.decoy_fires:
                print(f"  decoys reported: {dict(tally.decoy_fires)}")
            if tally.unexpected:
                print(f"  findings no injection expected (injection -> rule): {dict(tally.unexpected)}")
            if tally.already:
                print(f"  expected findings already in the clean graph (left out of expected): {dict(tally.already)}")
            report[profile] = {"variants": dict(tally.variants), "rules": rows, "decoy_fires": dict(tally.decoy_fires),
                               "unexpected": dict(tally.unexpected), "already_in_clean": dict(tally.already)}
        ctx = Context(EmbeddedStore(Path(folder) / "natural"), IriScheme(), load_profile("peirce"))
        inductions, dependent = natural_dependence(ctx, documents, args.seed)
        ctx.close()
        print(f"\nshared generator (consecutive viewpoints): {dependent} of {inductions} inductions with 2+ cases rest on one source")
        report["natural_dependent_cases"] = {"inductions": inductions, "dependent": dependent}
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(f"\n{report['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
