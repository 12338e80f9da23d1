"""Benchmark: is another paper's reasoning graph recognised as such, and is a paper's own graph never taken for another's?

Every ARCHE paper is stored; a scripted model writes a clean graph for each
(claimgraph.testing.benchmark_archive). Each paper is then given its own graph
and the graphs of two other papers (the next one, and one drawn at random),
through ``Workflow.store_reasoning`` in the peirce profile. Prints, per kind:
responses, accepted, residual ``foreign_graph``, and ``foreign_graph`` naming
the paper the graph really is of; then the time.

    python bench/foreign_graphs.py [--arche DIR | --synthetic N] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from claimgraph.context import Context
from claimgraph.papers.storage import store_document
from claimgraph.profile.manifest import load_profile
from claimgraph.store import EmbeddedStore
from claimgraph.testing.benchmark_archive import write_archive
from claimgraph.testing.reasoning_cases.cases import add_corpus_options, chosen_papers
from claimgraph.workflow import Workflow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_options(parser)
    parser.add_argument("--seed", type=int, default=11, help="draws the random other paper")
    args = parser.parse_args(argv)
    documents, description = chosen_papers(args, 7, 70)
    print(description, file=sys.stderr)
    ctx = Context(EmbeddedStore(None), profile=load_profile("peirce"))
    for document in documents:
        store_document(ctx.store, ctx.iris, document)
    with tempfile.TemporaryDirectory() as scratch:
        write_archive(Path(scratch), documents, {"clean": ["clean"]})
        graphs = {path.stem: path.read_text(encoding="utf-8") for path in (Path(scratch) / "clean").iterdir()}
    draw, workflow, counts = random.Random(args.seed), Workflow(ctx), Counter[tuple[str, str]]()
    started = time.perf_counter()
    for index, document in enumerate(documents):
        others = [documents[(index + 1) % len(documents)], draw.choice([other for other in documents if other is not document])]
        for kind, writer in [("own", document), *(("another paper's", other) for other in others)]:
            gate = workflow.store_reasoning(document.paper_id, graphs[writer.paper_id], f"{writer.paper_id}.dot").repair.gate
            assert gate is not None
            counts[(kind, "responses")] += 1
            counts[(kind, "accepted")] += gate.accepted
            counts[(kind, "foreign_graph")] += "foreign_graph" in gate.residuals
            counts[(kind, "naming the writer")] += any(violation.rule == "foreign_graph" and f"paper {writer.paper_id}:" in violation.reason
                                                       for violation in gate.violations)
    seconds = time.perf_counter() - started
    for kind in ("own", "another paper's"):
        print(f"{kind:16} " + "  ".join(f"{name} {counts[(kind, name)]}" for name in ("responses", "accepted", "foreign_graph", "naming the writer")))
    total = counts[("own", "responses")] + counts[("another paper's", "responses")]
    print(f"{total} graphs in {seconds:.1f} s")
    ctx.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
