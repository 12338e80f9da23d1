"""Benchmark: judge-feedback repair on the 70 ARCHE papers with a fake judge panel at 200 ms per request.

Each paper gets a clean reasoning graph over its own viewpoints
(claimgraph.testing.reasoning_cases.graphs), stored with its document and
exact source anchors, repaired and gated. Then, by a seeded choice:

- about a quarter of its deduction and abduction units have their two roles
  swapped (rule <-> case, phenomenon <-> knowledge): the scripted judges vote
  them incorrect once and correct after the repair, and the scripted repairer
  swaps the roles back;
- one paper in ten has one swapped unit whose repair never satisfies the
  judges (the run must stop after the bounded rounds: final_gate_failed);
- one paper in five loses its root unit, so the graph ends in several
  conclusions and the claim root is asked for.

Judges are three names on one fake OpenAI-compatible server answering after
--latency seconds; the client runs up to --concurrency requests at once; the
response cache is off, so every request is a call. Reported: judge, repair and
root calls per paper, rounds, wall and CPU time per paper (the CPU time is the
store and rule work of the run; the rest is waiting for the judges), verdicts
and residuals.

    python bench/judges.py [--arche ../shared/data/arche] [--latency 0.2] [--concurrency 8] [--seed 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.judge.runner import judge_calls, judge_papers
from claimgraph.judge.settings import judge_settings
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.document_graph import document_triples, source_tuple_triples, viewpoint_iri
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.repair import repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV, RDF
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.fake_llm import Rule, running_fake_llm
from claimgraph.testing.reasoning_cases.graphs import CleanEdge, CleanGraph, graph_size, grow_graph, paper_viewpoints

PROPERTY = {"deduction-rule": "deductionRule", "deduction-case": "deductionCase", "induction-common": "inductionCommon",
            "induction-case": "inductionCase", "abduction-phenomenon": "abductionPhenomenon", "abduction-knowledge": "abductionKnowledge"}
SWAP = {"deduction-rule": "deduction-case", "deduction-case": "deduction-rule",
        "abduction-phenomenon": "abduction-knowledge", "abduction-knowledge": "abduction-phenomenon"}
JUDGES = ("j1", "j2", "j3")


def verdict(value: str, feedback: str) -> str:
    return json.dumps({"verdict": value, "grounded": True, "feedback": feedback})


def store_graph(ctx: Context, document: Document, graph: CleanGraph, edges: list[CleanEdge]) -> None:
    anchors = {viewpoint.source: viewpoint_iri(ctx.iris, document.paper_id, viewpoint) for viewpoint in document.viewpoints}
    triples = list(document_triples(document, ctx.iris))
    kept = {edge.source for edge in edges} | {edge.target for edge in edges} | {edge.source for edge in graph.edges}
    for node in graph.nodes:
        if node.id not in kept:  # a dropped root; its premises stay, as final conclusions
            continue
        iri = ctx.iris.extracted_node(document.paper_id, node.id)
        triples += [Triple(iri, RDF.type, CG.ReasoningNode), Triple(iri, CG.text, Literal(node.text)), *source_tuple_triples(iri, node.source),
                    Triple(iri, PROV.wasDerivedFrom, anchors[node.source])]
    triples += [Triple(ctx.iris.extracted_node(document.paper_id, e.source), CG[PROPERTY[e.label]], ctx.iris.extracted_node(document.paper_id, e.target))
                for e in edges]
    ctx.store.replace_graph(ctx.iris.paper(document.paper_id), triples)
    repair_paper(ctx, document.paper_id)


def scenario(graph: CleanGraph, rng: random.Random, number: int) -> tuple[list[CleanEdge], list[Rule], dict[str, int]]:
    """The stored edges (roles swapped, root maybe dropped) and the fake server's script for this paper."""
    units = graph.units()
    drop_root = number % 5 == 4 and len(units) > 1
    swappable = sorted(target for target, edges in units.items() if all(edge.label in SWAP for edge in edges)
                       and not (drop_root and target == graph.root))
    flawed = [target for target in swappable if rng.random() < 0.25] or swappable[:1]
    stubborn = flawed[:1] if number % 10 == 9 else []
    rules: list[Rule] = []
    edges = []
    for edge in graph.edges:
        if drop_root and edge.target == graph.root:
            continue
        edges.append(CleanEdge(edge.source, SWAP[edge.label], edge.target) if edge.target in flawed else edge)
    if drop_root:
        root = graph.node(graph.root)
        plan = {"text": root.text, "source": list(root.source), "note": "the paper's claim",
                "premises": [{"node": edge.source, "role": edge.label} for edge in units[graph.root]]}
        rules.append(Rule(replies=[json.dumps(plan)], phase="judge-root"))
    for target in flawed:
        clean = units[target]
        kept = clean if target not in stubborn else [CleanEdge(e.source, SWAP[e.label], e.target) for e in clean]
        plan = {"premises": [{"node": edge.source, "role": edge.label} for edge in kept], "note": "roles swapped back"}
        rules.append(Rule(replies=[json.dumps(plan)], contains=f"into node {target}.", phase="judge-repair"))
        replies = [verdict("incorrect", "the rule and the case are swapped")]
        replies += [] if target in stubborn else [verdict("correct", "holds after the repair")]
        rules += [Rule(replies=replies, contains=f"into node {target}.", phase=f"judge:{judge}") for judge in JUDGES]
    rules += [Rule(replies=[verdict("correct", "the premises give the conclusion")], phase=f"judge:{judge}") for judge in JUDGES]
    return edges, rules, {"units": len(units) - int(drop_root), "flawed": len(flawed), "stubborn": len(stubborn), "root_dropped": int(drop_root)}


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"mean": round(statistics.fmean(values), 2), "median": round(statistics.median(values), 2),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 2), "max": round(max(values), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.arche is None or not args.arche.is_dir():
        print("no ARCHE folder: pass --arche or set CLAIMGRAPH_ARCHE_DIR", file=sys.stderr)
        return 2
    documents = [load_document(path) for path in find_inputs([args.arche])]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        ctx = Context(EmbeddedStore(Path(folder) / "store"), IriScheme(), load_profile("peirce"))
        for number, document in enumerate(documents):
            rng = random.Random(args.seed * 1000 + number)
            viewpoints = paper_viewpoints(document)
            if len(viewpoints) < 12:
                continue
            graph = grow_graph(rng, viewpoints, graph_size(rng, len(viewpoints)))
            edges, script, facts = scenario(graph, rng, number)
            stored = time.perf_counter()
            store_graph(ctx, document, graph, edges)
            stored = time.perf_counter() - stored
            with running_fake_llm(script, latency=args.latency) as server:
                llm = LLMConfig(model="fake-judge", base_url=server.base_url, api_key="bench", cache_dir=None, timeout=30.0,
                                max_retries=1, backoff_base=0.01, backoff_max=0.1, max_concurrency=args.concurrency)
                settings = judge_settings(ctx.profile, llm, count=3, rounds=args.rounds)
                accounting = Accounting()
                started, cpu = time.perf_counter(), time.process_time()
                [result] = judge_papers(ctx, [document.paper_id], settings, llm, accounting)
                seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            calls = judge_calls(accounting, document.paper_id, settings)
            rows.append({"paper": document.paper_id, **facts, **calls, "requests": len(server.chat_requests()), "rounds": result.rounds,
                         "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "verdict": result.verdict, "residuals": result.residuals,
                         "repairs_applied": result.repairs_applied, "root_built": result.root_built, "cg": result.cg, "rea": result.rea})
            print(f"{document.paper_id}: {facts['units']} units, {facts['flawed']} swapped, calls {calls}, rounds {result.rounds}, "
                  f"{seconds:.2f} s ({cpu:.2f} s CPU; storing the paper first {stored:.2f} s), {result.verdict} {' '.join(result.residuals)}",
                  file=sys.stderr)
        ctx.close()
    report = {"papers": len(rows), "latency_s": args.latency, "concurrency": args.concurrency, "judges": 3, "rounds_bound": args.rounds,
              "judge_calls_per_paper": summary([row["judges"] for row in rows]),
              "repair_calls_per_paper": summary([row["repairs"] for row in rows]),
              "calls_per_paper": summary([row["judges"] + row["repairs"] + row["root"] for row in rows]),
              "units_per_paper": summary([row["units"] for row in rows]),
              "rounds": dict(sorted(Counter(row["rounds"] for row in rows).items())),
              "seconds_per_paper": summary([row["seconds"] for row in rows]),
              "cpu_seconds_per_paper": summary([row["cpu_seconds"] for row in rows]),
              "verdicts": dict(Counter(row["verdict"] for row in rows)),
              "residuals": dict(Counter(label for row in rows for label in row["residuals"])),
              "roots_built": sum(row["root_built"] for row in rows), "root_dropped": sum(row["root_dropped"] for row in rows),
              "requests_match_calls": all(row["requests"] == row["judges"] + row["repairs"] + row["root"] for row in rows)}
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps({**report, "per_paper": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
