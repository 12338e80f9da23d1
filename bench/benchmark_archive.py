"""Benchmark: score a recorded archive of many reasoning graphs per model end to end, offline, judges replayed.

Five scripted models (claimgraph.testing.benchmark_archive) write one response
per ARCHE paper, clean or damaged (cut at several points, an open quote, a
stray brace, off-profile labels, all edges dropped, another paper's graph, the
graph written twice, a second different graph, reversed roots, garbage).
First a recording pass scores the archive with three judges on the fake
OpenAI server (every unit judged correct) and keeps their replies in a
response cache; then a fresh store scores the same archive with the judges
replayed from that cache (``--judge-replay``), which is the measured run.

Prints graphs per second of the measured run, the split of its time across
stages (materialize + repair + gate, judges, the record), the table from the
store (``benchmark-models``), and the damage matrix: per damage kind, how many
responses the gate accepted after repair and after the judges, and whether
every accepted damaged response said what was lost (a finding, a warning or a
residual in its gate reasons).

    python bench/benchmark_archive.py [--arche DIR | --synthetic N] [--models 5] [--no-judges] [--recordings DIR] [--json OUT]

``--recordings DIR`` keeps the judges' recordings in DIR and, when DIR already
holds them (from a run on the same corpus and models), skips the recording pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from claimgraph.benchmark.archive import read_archive
from claimgraph.benchmark.batch import score_archive
from claimgraph.benchmark.scoring import JudgePlan
from claimgraph.benchmark.table import TABLE_COLUMNS, model_rows, table_cells
from claimgraph.context import Context
from claimgraph.judge.settings import judge_settings
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders import Document
from claimgraph.papers.storage import store_document
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.queries import read_named_query, read_sparql
from claimgraph.store import EmbeddedStore
from claimgraph.testing.benchmark_archive import CLEAN, Written, write_archive
from claimgraph.testing.fake_llm import Rule, running_fake_llm
from claimgraph.testing.reasoning_cases.cases import add_corpus_options, chosen_papers
from claimgraph.workflow import Workflow

MODELS = {
    "careful": ["clean", "clean-json", "clean-xml", "clean-loose", "duplicated-same"],
    "hasty": ["clean", "cut-25", "cut-50", "cut-90", "cut-mid-label", "cut-json"],
    "sloppy": ["clean", "open-quote", "brace-stray", "off-profile-labels", "edges-dropped"],
    "confused": ["clean", "another-paper", "duplicated-different", "reversed-root", "garbage"],
    "mixed": ["clean-json", "cut-50", "off-profile-labels", "duplicated-same", "reversed-root", "edges-dropped"],
}
VERDICT = json.dumps({"verdict": "correct", "grounded": True, "feedback": "the premises support the conclusion"})


class StageClock:
    """Seconds spent in the workflow's reasoning storage and judge steps (wrapped for the measured run)."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    @contextmanager
    def timing(self) -> Iterator[None]:
        originals = {name: getattr(Workflow, name) for name in ("store_reasoning", "judge")}

        def timed(name: str, method: Callable[..., object]) -> Callable[..., object]:
            def wrapper(*args: object, **kwargs: object) -> object:
                started = time.perf_counter()
                try:
                    return method(*args, **kwargs)
                finally:
                    self.seconds[name] += time.perf_counter() - started
            return wrapper

        for name, method in originals.items():
            setattr(Workflow, name, timed(name, method))
        try:
            yield
        finally:
            for name, method in originals.items():
                setattr(Workflow, name, method)


def fresh_store(documents: list[Document]) -> Context:
    ctx = Context(EmbeddedStore(None), profile=load_profile("peirce"))
    for document in documents:
        store_document(ctx.store, ctx.iris, document)
    return ctx


def plan_for(ctx: Context, base_url: str | None, replay: Path | None, cache: Path) -> JudgePlan:
    llm = LLMConfig(model="judge", base_url=base_url, api_key="bench", cache_dir=cache, replay_dir=replay, max_retries=0, timeout=30.0,
                    max_concurrency=8)
    return JudgePlan(judge_settings(ctx.profile, llm, count=3), llm)


def damage_matrix(ctx: Context, written: list[Written]) -> dict[str, dict[str, int]]:
    """Per kind: responses, accepted after repair, accepted after the judges, accepted without a word about what was lost."""
    kinds = {(item.model, item.paper_id): item.kind for item in written}
    matrix: dict[str, dict[str, int]] = defaultdict(Counter)
    for row in ctx.store.select(read_named_query("benchmark-runs")):
        kind = kinds[(row["model"].value, row["paper"].value.rsplit("/", 1)[-1])]
        cell = matrix[kind]
        cell["responses"] += 1
        base_ok, final_ok = row["base"].value == "accepted", row["final"].value == "accepted"
        cell["accepted after repair"] += base_ok
        cell["accepted after judges"] += final_ok
        if base_ok and kind not in CLEAN:
            cell["accepted, saying what"] += said_what_was_lost(ctx, row)
            cell["accepted silently"] += not said_what_was_lost(ctx, row)
    return {kind: dict(cell) for kind, cell in sorted(matrix.items())}


def said_what_was_lost(ctx: Context, row: dict) -> bool:
    """The gate of this run gave a reason (a residual, a warning or a finding of the reader)."""
    paper_id = row["paper"].value.rsplit("/", 1)[-1]
    reasons = ctx.store.select(read_sparql("benchmark", "run-gate-reasons.rq"), {"audit": ctx.iris.audit_graph(paper_id), "bench": row["bench"]})
    return bool(reasons)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_options(parser)
    parser.add_argument("--models", type=int, default=5, help="how many scripted models (at most 5)")
    parser.add_argument("--no-judges", action="store_true", help="materialize, repair and gate only")
    parser.add_argument("--recordings", type=Path, metavar="DIR", help="keep the judge recordings here; reuse them when present")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the figures as JSON")
    args = parser.parse_args(argv)
    documents, corpus = chosen_papers(args, 7, 70)
    models = dict(list(MODELS.items())[: args.models])
    with tempfile.TemporaryDirectory() as scratch:
        folder, cache = Path(scratch) / "archive", args.recordings or Path(scratch) / "judge-cache"
        recorded = cache.is_dir() and any(cache.iterdir())
        written = write_archive(folder, documents, models)
        archive = read_archive(folder)
        print(f"corpus: {corpus}; {len(written)} responses from {len(models)} scripted models", file=sys.stderr)
        if not args.no_judges and not recorded:
            recording = fresh_store(documents)
            started = time.perf_counter()
            with running_fake_llm([Rule(replies=[VERDICT], phase=f"judge:j{n}") for n in (1, 2, 3)]) as server:
                score_archive(recording, archive, plan_for(recording, server.base_url, None, cache))
            print(f"recording pass (live fake judges): {time.perf_counter() - started:.1f} s", file=sys.stderr)
            recording.close()
        ctx = fresh_store(documents)
        plan = None if args.no_judges else plan_for(ctx, None, cache, cache)
        clock = StageClock()
        started, cpu = time.perf_counter(), time.process_time()
        with clock.timing():
            result = score_archive(ctx, archive, plan)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        rows = model_rows(ctx)
        matrix = damage_matrix(ctx, written)
    figures = {
        "corpus": corpus, "graphs": len(result.scored), "problems": result.problems, "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1), "graphs_per_second": round(len(result.scored) / wall, 2),
        "stages_seconds": {"materialize+repair+gate": round(clock.seconds["store_reasoning"], 1), "judges (replayed)": round(clock.seconds["judge"], 1),
                           "record and the rest": round(wall - clock.seconds["store_reasoning"] - clock.seconds["judge"], 1)},
        "table": {row.key: row.as_json() for row in rows}, "damage_matrix": matrix,
    }
    print(f"{figures['graphs']} graphs in {wall:.1f} s ({figures['graphs_per_second']} graphs/s, {cpu:.1f} CPU s); stages: {figures['stages_seconds']}")
    widths = [max(len(str(cell)) for cell in column) for column in zip(TABLE_COLUMNS, *table_cells(rows), strict=True)]
    for line in [TABLE_COLUMNS, *table_cells(rows)]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)))
    print("damage kind: responses / accepted after repair / accepted after judges / accepted without saying what was lost")
    for kind, cell in matrix.items():
        print(f"  {kind:22} {cell.get('responses', 0):4} {cell.get('accepted after repair', 0):4} {cell.get('accepted after judges', 0):4} "
              f"{cell.get('accepted silently', 0):4}")
    for problem in result.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
