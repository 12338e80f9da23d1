"""Benchmark: materialize + repair + gate ARCHE-size reasoning graphs with injected defects.

From each of the 70 ARCHE papers, generate reasoning graphs over the paper's own
viewpoints (source tuples resolve to real sentences): a single-root tree of
valid deduction / induction / abduction units, median ~25 nodes, up to 100.
Inject defects at known rates, write the graph as an LLM-style DOT response
(fences, prose, loose syntax), run claimgraph's materializer, repair scripts
and gate, and compare the stored graph with what was generated.

Prints graphs per second (wall clock, and per CPU second of this process,
which a busy machine disturbs less) and, per defect kind: injected, repaired
(the defect is gone from the stored graph), left as a typed residual, and
wrongly changed (clean nodes or edges of the generated
graph that the pipeline altered, dropped or added, attributed to every defect
kind injected in that graph; must be 0).

    python bench/repair.py [--arche ../shared/data/arche] [--graphs-per-paper 2] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal

from claimgraph.context import Context
from claimgraph.loaders import find_inputs, load_document
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import edge_labels
from claimgraph.publish.dot import dot_id, edge_label, quote
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.vocab import XSD
from claimgraph.store import EmbeddedStore, Store
from claimgraph.testing.reasoning_cases.graphs import graph_size, grow_graph, paper_viewpoints
from claimgraph.workflow import IngestResult, Workflow

DEFAULT_ARCHE = Path(__file__).resolve().parents[2] / "shared" / "data" / "arche"
RATES = {  # probability that a graph gets the defect (aliases: per edge)
    "alias": 0.25,
    "self_loop": 0.3,
    "duplicate_node": 0.3,
    "duplicate_edge": 0.3,
    "dangling_edge": 0.3,  # repaired (the edge is dropped) and residual dangling_edge: the response names an id it never declares
    "bad_confidence": 0.3,
    "multiple_terminals": 0.25,
    "mixed_family": 0.2,
}
Edge = tuple[str, str, str]  # source id, canonical label, target id


@dataclass
class Generated:
    """A clean graph, the defects injected into its response, and what the repaired graph must be."""

    pool: Iterator[tuple[str, tuple[int, int, int]]]
    texts: dict[str, tuple[str, tuple[int, int, int]]] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    confidence: dict[Edge, str] = field(default_factory=dict)
    injected: Counter[str] = field(default_factory=Counter)
    lines: list[str] = field(default_factory=list)
    aliased: list[Edge] = field(default_factory=list)
    copies: dict[str, str] = field(default_factory=dict)
    bad_confidence: dict[Edge, str] = field(default_factory=dict)
    extra_terminal: bool = False
    mixed: Edge | None = None


def clean_graph(rng: random.Random, viewpoints: list[tuple[str, tuple[int, int, int]]], size: int) -> Generated:
    """A single-root tree of complete units, premises -> conclusions (claimgraph.testing.reasoning_cases.graphs)."""
    graph = grow_graph(rng, viewpoints, size)
    texts = {node.id: (node.text, node.source) for node in graph.nodes}
    edges = [(edge.source, edge.label, edge.target) for edge in graph.edges]
    return Generated(iter(viewpoints[len(graph.nodes):]), texts=texts, edges=edges)


def inject(rng: random.Random, generated: Generated, aliases: dict[str, list[str]]) -> None:
    """Decide the defects of this graph and what the repaired graph must look like."""
    edges = list(generated.edges)
    for edge in edges:
        if rng.random() < 0.3:
            generated.confidence[edge] = f"{rng.randint(50, 99) / 100}"
        if rng.random() < RATES["alias"] and aliases.get(edge[1]):
            generated.aliased.append(edge)
    generated.injected["alias"] = len(generated.aliased)
    if rng.random() < RATES["bad_confidence"]:
        edge = rng.choice(edges)
        generated.bad_confidence[edge] = rng.choice(["1.5", "-0.3", "7"])
        generated.confidence.pop(edge, None)
        generated.injected["bad_confidence"] += 1
    if rng.random() < RATES["duplicate_node"]:
        edge = rng.choice(edges)
        original = edge[0]
        generated.copies[original + "d"] = original
        generated.injected["duplicate_node"] += 1
    if rng.random() < RATES["multiple_terminals"]:
        a, b, c = (f"t{index:02d}" for index in range(3))
        for node in (a, b, c):
            generated.texts[node] = next(generated.pool)
        generated.edges += [(a, "deduction-rule", c), (b, "deduction-case", c)]
        generated.extra_terminal = True
        generated.injected["multiple_terminals"] += 1
    targets = {target for _, label, target in edges if label == "deduction-rule"}
    leaves = sorted(set(generated.texts) - {target for _, _, target in edges} - {"t00", "t01", "t02"})
    if targets and leaves and rng.random() < RATES["mixed_family"]:
        target = rng.choice(sorted(targets))
        source = rng.choice([leaf for leaf in leaves if (leaf, "deduction-rule", target) not in edges] or leaves)
        generated.mixed = (source, "abduction-knowledge", target)
        generated.edges.append(generated.mixed)
        generated.injected["mixed_family"] += 1
    for kind in ("self_loop", "duplicate_edge", "dangling_edge"):
        if rng.random() < RATES[kind]:
            generated.injected[kind] += 1


def response(rng: random.Random, generated: Generated, aliases: dict[str, list[str]]) -> str:
    """The generated graph with its defects as a DOT-like LLM response in a random surface style."""
    style = rng.choice(["strict", "fenced", "loose"])
    end = ";" if style != "loose" else ""
    sep = "=" if style != "loose" else ": "
    lines = []
    nodes = dict(generated.texts)
    for copy, original in generated.copies.items():
        text, source = nodes[original]
        nodes[copy] = ("  " + text.upper(), source)
    for node, (text, (x, y, z)) in nodes.items():
        lines.append(f"  {node} [label{sep}{quote(f'({x},{y},{z}) {text}')}]{end}")
    copy_of = {original: copy for copy, original in generated.copies.items()}
    for edge in generated.edges:
        source, label, target = edge
        source = copy_of.get(source, source)  # the copy carries one of the original's edges
        shown = rng.choice(aliases[label]) if edge in generated.aliased else label
        attrs = [f"label{sep}{quote(shown)}"]
        confidence = generated.bad_confidence.get(edge) or generated.confidence.get(edge)
        if confidence:
            attrs.append(f"confidence{sep}{confidence}")
        lines.append(f"  {source} -> {target} [{', '.join(attrs)}]{end}")
        if generated.injected["duplicate_edge"] and edge == generated.edges[0]:
            lines.append(lines[-1])
    some = rng.choice(list(generated.texts))
    if generated.injected["self_loop"]:
        lines.append(f"  {some} -> {some} [label{sep}\"deduction-case\"]{end}")
    if generated.injected["dangling_edge"]:
        lines.append(f"  {some} -> ghost{rng.randint(1, 99)} [label{sep}\"induction-case\"]{end}")
    body = "digraph G {\n" + "\n".join(lines) + "\n}"
    if style == "fenced":
        return f"Here is the reasoning graph.\n```dot\n{body}\n```\nLet me know if anything is unclear."
    return body if style == "strict" else body + "\nThe root is the paper's main claim."


def stored_graph(store: Store, iris: IriScheme, paper_id: str, labels: dict[str, str]) -> tuple[dict[str, tuple[str, tuple[int, int, int], bool, bool]], dict[Edge, str | None]]:
    """Nodes (text, tuple, root, scaffolding) and edges (with confidence) of the stored paper graph."""
    paper = iris.paper(paper_id)
    bindings = {"graph": paper, "scaffolding": Literal("true", datatype=XSD.boolean)}
    nodes = {}
    for row in store.select(read_internal_query("reasoning-nodes"), bindings):
        source = (int(row["x"].value), int(row["y"].value), int(row["z"].value))
        nodes[dot_id(paper, row["node"])] = (row["text"].value, source, "root" in row and row["root"].value == "true", "scaffold" in row)  # type: ignore[arg-type]
    edges: dict[Edge, str | None] = {}
    for row in store.select(read_internal_query("reasoning-edges"), bindings):
        edge = (dot_id(paper, row["source"]), edge_label(labels, row["edge"]), dot_id(paper, row["target"]))  # type: ignore[arg-type]
        edges[edge] = row["confidence"].value if "confidence" in row else None
    return nodes, edges


def clamp(value: str) -> str:
    number = min(1.0, max(0.0, float(value)))
    return f"{number:g}"


def evaluate(generated: Generated, nodes: dict, edges: dict[Edge, str | None], residuals: list[str]) -> tuple[Counter[str], Counter[str], int]:
    """(repaired per kind, residual per kind, clean elements wrongly changed)."""
    repaired: Counter[str] = Counter()
    residual: Counter[str] = Counter()
    plain = {edge: confidence for edge, confidence in edges.items() if edge[1] != "aggregated-into"}
    wrong = 0
    for node, (text, source) in generated.texts.items():
        wrong += nodes.get(node, (None, None))[:2] != (text, source)
    scaffolding = [node for node, value in nodes.items() if value[3]]
    wrong += len(set(nodes) - set(generated.texts) - set(scaffolding))
    for edge in generated.edges:
        expected = clamp(generated.bad_confidence[edge]) if edge in generated.bad_confidence else generated.confidence.get(edge)
        if edge not in plain or (expected is not None and plain[edge] is not None and float(plain[edge]) != float(expected)):  # type: ignore[arg-type]
            wrong += 1
    wrong += len(set(plain) - set(generated.edges))
    repaired["alias"] = sum(1 for edge in generated.aliased if edge in plain)
    repaired["bad_confidence"] = sum(1 for edge, value in generated.bad_confidence.items() if plain.get(edge) is not None and float(plain[edge]) == float(clamp(value)))  # type: ignore[arg-type]
    repaired["duplicate_node"] = sum(1 for copy in generated.copies if copy not in nodes)
    repaired["self_loop"] = generated.injected["self_loop"] * all(source != target for source, _, target in edges)
    repaired["dangling_edge"] = generated.injected["dangling_edge"] * all(not target.startswith("ghost") for _, _, target in edges)
    repaired["duplicate_edge"] = generated.injected["duplicate_edge"] * (generated.edges[0] in plain)
    roots = [node for node, value in nodes.items() if value[2]]
    if generated.extra_terminal and len(roots) == 1 and roots == scaffolding:
        repaired["multiple_terminals"] = 1
    if generated.mixed and generated.mixed in plain and "mixed_family_unit" in residuals:
        residual["mixed_family"] = 1
    if generated.injected["dangling_edge"] and "dangling_edge" in residuals:
        residual["dangling_edge"] = 1
    return repaired, residual, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=DEFAULT_ARCHE)
    parser.add_argument("--graphs-per-paper", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    profile, iris, rng = load_profile("peirce"), IriScheme(), random.Random(args.seed)
    labels = {iri: label for label, iri in edge_labels(profile).items()}
    aliases: dict[str, list[str]] = {}
    for alias, label in profile.aliases.items():
        aliases.setdefault(label, []).append(alias.upper() if len(alias) <= 3 else alias)
    store = EmbeddedStore(None)
    files = sorted(find_inputs([args.arche]))
    ctx = Context(store, iris, profile)
    Workflow(ctx).load(files, IngestResult())
    injected: Counter[str] = Counter()
    repaired: Counter[str] = Counter()
    residual: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    sizes, unexpected, graphs, seconds, cpu = [], Counter[str](), 0, 0.0, 0.0
    for path in files:
        document = load_document(path)
        viewpoints = paper_viewpoints(document)
        for _ in range(args.graphs_per_paper):
            generated = clean_graph(rng, viewpoints, graph_size(rng, len(viewpoints) - 4))
            inject(rng, generated, aliases)
            text = response(rng, generated, aliases)
            started, started_cpu = time.perf_counter(), time.process_time()
            result = Workflow(ctx).store_reasoning(document.paper_id, text, "bench")
            seconds += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
            graphs += 1
            sizes.append(len(generated.texts))
            nodes, edges = stored_graph(store, iris, document.paper_id, labels)
            residuals = result.repair.gate.residuals if result.repair.gate else []
            fixed, left, wrong_here = evaluate(generated, nodes, edges, residuals)
            injected.update(generated.injected)
            repaired.update(fixed)
            residual.update(left)
            for kind, count in generated.injected.items():
                if count:
                    wrong[kind] += wrong_here
            expected = {"mixed_family_unit"} if generated.mixed else set()
            expected |= {"dangling_edge"} if generated.injected["dangling_edge"] else set()
            unexpected.update(label for label in residuals if label not in expected)
    sizes.sort()
    print(f"graphs                 {graphs} from {len(files)} ARCHE papers (nodes: median {sizes[len(sizes) // 2]}, max {sizes[-1]}, min {sizes[0]})")
    print(f"seconds                {seconds:.2f} (materialize + store raw/paper + {len(profile.repair_files)} repair scripts + gate measures and rules + audit)")
    print(f"graphs per second      {graphs / seconds:.1f} wall clock, {graphs / cpu:.1f} per CPU second ({cpu:.2f} CPU seconds)")
    print(f"unexpected residuals   {dict(unexpected) or 0}")
    print(f"\n{'defect':<20} {'injected':>9} {'repaired':>9} {'residual':>9} {'wrongly changed':>16}")
    for kind in RATES:
        print(f"{kind:<20} {injected[kind]:>9} {repaired[kind]:>9} {residual[kind]:>9} {wrong[kind]:>16}")


if __name__ == "__main__":
    main()
