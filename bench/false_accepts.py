"""Benchmark: no false accepts on a generated corpus of malformed reasoning responses.

The corpus (claimgraph.testing.reasoning_cases) grows a clean reasoning graph
per case from an ARCHE paper's own viewpoints, writes it as an LLM response
(DOT styles, XML, plist, JSON, prose and fences), damages it by a recipe
(cuts, open quotes and braces, wrong labels, reversed roots, duplicated and
renamed nodes, conflicting anchors, ...) and records the verdict it must get,
from what the generator wrote, never from running claimgraph. Every response
goes through ``Workflow(ctx).store_reasoning`` on one embedded store holding
the papers; ``Verdict.admits`` tells a pass.

Prints the confusion table (rows: the expected verdict, ``accept`` or each
required residual; columns: ``accept`` or each residual the gate produced),
the misses with their expected and produced residuals, false accepts (an
accepted response that had to be a residual: must be 0), and throughput in
graphs per second in one process (wall clock and per CPU second).

    python bench/false_accepts.py [--arche DIR | --synthetic N] [--seed 7] [--cases-per-paper 3] [--json OUT]

The real corpus is found with claimgraph.testing.corpora.real_arche_dir()
(CLAIMGRAPH_ARCHE_DIR or ../shared/data/arche); without it the synthetic
ARCHE-format corpus is used and a note says so.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from claimgraph.context import Context
from claimgraph.loaders import Document
from claimgraph.papers.storage import store_document
from claimgraph.profile.manifest import load_profile
from claimgraph.store import EmbeddedStore
from claimgraph.testing.reasoning_cases.cases import ReasoningCase, add_corpus_options, chosen_papers, generate_cases
from claimgraph.workflow import Workflow


@dataclass
class Outcome:
    case: ReasoningCase
    produced: list[str]

    @property
    def passed(self) -> bool:
        return self.case.verdict.admits(self.produced)

    @property
    def false_accept(self) -> bool:
        return not self.produced and not self.case.verdict.accept


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0
    source: str = ""


def run(documents: list[Document], cases: list[ReasoningCase]) -> Run:
    """Store the papers, then every response through the workflow; time only the responses."""
    ctx = Context(EmbeddedStore(None), profile=load_profile("peirce"))
    for document in documents:
        store_document(ctx.store, ctx.iris, document)
    workflow = Workflow(ctx)
    result = Run()
    started, started_cpu = time.perf_counter(), time.process_time()
    for case in cases:
        stored = workflow.store_reasoning(case.paper_id, case.response, case.file_name)
        gate = stored.repair.gate
        result.outcomes.append(Outcome(case, list(gate.residuals) if gate else ["no gate"]))
    result.wall, result.cpu = time.perf_counter() - started, time.process_time() - started_cpu
    ctx.close()
    return result


def confusion(outcomes: list[Outcome]) -> tuple[list[str], list[str], Counter[tuple[str, str]]]:
    """Rows (expected: accept or each required residual), columns (produced: accept or each residual), counts."""
    cells: Counter[tuple[str, str]] = Counter()
    for outcome in outcomes:
        for expected in sorted(outcome.case.verdict.residuals) or ["accept"]:
            for produced in outcome.produced or ["accept"]:
                cells[(expected, produced)] += 1
    rows = sorted({row for row, _ in cells}, key=lambda name: (name != "accept", name))
    columns = sorted({column for _, column in cells}, key=lambda name: (name != "accept", name))
    return rows, columns, cells


def print_report(result: Run) -> None:
    outcomes = result.outcomes
    rows, columns, cells = confusion(outcomes)
    corner = "expected \\ produced"
    width = max(len(name) for name in [*rows, corner])
    short = {column: column.replace("_response", "").replace("_", " ")[:10] for column in columns}
    print(f"corpus: {result.source}; {len(outcomes)} responses over {len({o.case.paper_id for o in outcomes})} papers")
    print("\nconfusion (a response counts once per required residual it expects and once per residual it got):")
    print(f"{corner:<{width}}  " + "  ".join(f"{short[column]:>10}" for column in columns))
    for row in rows:
        print(f"{row:<{width}}  " + "  ".join(f"{cells[(row, column)] or '.':>10}" for column in columns))
    passed = sum(outcome.passed for outcome in outcomes)
    false_accepts = [outcome for outcome in outcomes if outcome.false_accept]
    expected_accepts = sum(outcome.case.verdict.accept for outcome in outcomes)
    false_rejects = sum(1 for outcome in outcomes if outcome.case.verdict.accept and outcome.produced)
    print(f"\nverdicts matching the expected one  {passed} of {len(outcomes)}")
    print(f"expected accepts                    {expected_accepts} (rejected: {false_rejects})")
    print(f"false accepts                       {len(false_accepts)} (must be 0)")
    for outcome in [o for o in outcomes if not o.passed][:20]:
        verdict = outcome.case.verdict
        print(f"  miss {outcome.case.name}: expected {sorted(verdict.residuals) or 'accept'}"
              f" (tolerated {sorted(verdict.tolerated)}), got {outcome.produced or 'accept'}")
    print(f"\nthroughput                          {len(outcomes) / result.wall:.2f} graphs/s wall clock, "
          f"{len(outcomes) / result.cpu:.2f} graphs per CPU second ({result.wall:.1f} s, {result.cpu:.1f} CPU s, one process)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_options(parser)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cases-per-paper", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write each case's expected and produced verdict here")
    args = parser.parse_args(argv)
    documents, description = chosen_papers(args, args.seed, 24)
    cases = generate_cases(documents, args.seed, args.cases_per_paper)
    result = run(documents, cases)
    result.source = description
    print_report(result)
    if args.json:
        rows = [{"case": o.case.name, "paper": o.case.paper_id, "mutations": list(o.case.mutations), "expected": o.case.verdict.to_json(),
                 "produced": o.produced, "passed": o.passed} for o in result.outcomes]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0 if not any(outcome.false_accept for outcome in result.outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
