"""Extraction against failing endpoints: circuit breaker, time budget, typed residuals, a hostile server over 20 papers.

Everything synchronises on request counts: a server that never answers plus a
bounded client timeout is how a timeout happens, never a sleep in the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.context import Context
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import Rule, hang
from claimgraph.testing.llm_faults import healthy_rules, hostile_rules, write_plot_papers
from claimgraph.workflow import IngestOptions, IngestResult, Workflow


def ingest(folder: Path, config, store: EmbeddedStore | None = None) -> tuple[IngestResult, EmbeddedStore]:
    store = store or EmbeddedStore()
    result = Workflow(Context(store)).ingest([folder], IngestOptions(llm=config, canonicalize=False, validate=False))
    return result, store


def test_the_circuit_opens_after_n_connection_failures_and_every_passage_is_named_as_skipped(fake_llm, llm_config, tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    write_plot_papers(folder, 1)
    server = fake_llm([Rule([hang()])])
    result, _ = ingest(folder, llm_config(server, timeout=0.2, max_retries=3, breaker_threshold=2, max_concurrency=1))
    assert len(server.chat_requests()) == 2, "two timeouts open the circuit; nothing else is sent"
    (report,) = result.extractions
    assert [line.split(":", 1)[0] for line in report.failed_calls] == ["entities passage 1", "entities passage 2"]
    assert all("circuit is open (2 consecutive connection failures" in line for line in report.failed_calls)
    assert report.residual == "extraction_failed" and result.problems == 1
    assert result.repairs[0].gate is not None and result.repairs[0].gate.residuals == ["extraction_failed"]


def test_the_paper_time_budget_stops_its_calls_and_names_them(fake_llm, llm_config, tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    write_plot_papers(folder, 1)
    server = fake_llm([Rule([hang()])])
    result, _ = ingest(folder, llm_config(server, timeout=30.0, breaker_threshold=0, max_concurrency=1, paper_budget=0.3))
    assert len(server.chat_requests()) == 1, "the first call hangs; the second waits for its slot until the budget is spent"
    (report,) = result.extractions
    assert len(report.skipped_calls) == 2 and all("time budget of 0.3 s is spent" in line for line in report.skipped_calls)
    assert report.residual == "extraction_failed"
    assert result.accounting.total().skipped == 2


def cached_prompts(cache: Path) -> set[str]:
    """The last user message of every reply in a response cache (the replies a run found usable)."""
    return {json.loads(path.read_text(encoding="utf-8"))["messages"][-1]["content"] for path in cache.glob("*/*.json")}


@pytest.mark.slow
def test_a_hostile_endpoint_over_20_papers_loses_nothing_and_a_healthy_rerun_heals_from_the_cache(fake_llm, llm_config, tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    write_plot_papers(folder, 20, passages=1)
    hostile = fake_llm(hostile_rules())
    config = llm_config(hostile, timeout=1.0, max_retries=2, backoff_base=0.0, backoff_max=0.0)
    first, store = ingest(folder, config)
    assert first.failures == [] and len(first.papers) == 20 and len(first.repairs) == 20, "no paper lost"
    totals = first.accounting.total()
    statuses = [request.status for request in hostile.chat_requests()]
    assert {429, 500, None, 200} <= set(statuses) and len(statuses) <= totals.attempts
    assert sum(len(report.failed_calls) for report in first.extractions) == totals.failures + totals.skipped, \
        "every call that gave up is named in its paper's report"
    assert totals.unusable > 0, "the cycle's garbage, truncated and empty replies failed calls"
    for report in first.extractions:
        gate = next(repair.gate for repair in first.repairs if repair.paper_id == report.paper_id)
        assert gate is not None
        if report.failed_calls:
            assert report.residual in ("extraction_incomplete", "extraction_failed") and report.residual in gate.residuals
            assert all(line.split(" ", 1)[0] in ("entities", "relations", "orphans", "gaps", "dangling") and " passage " in line
                       for line in report.failed_calls)
        else:
            assert report.residual is None
    assert first.problems == sum(1 for report in first.extractions if report.residual) > 0
    answered = cached_prompts(config.cache_dir)
    healthy = fake_llm(healthy_rules())
    second, _ = ingest(folder, llm_config(healthy, timeout=1.0, max_retries=2), store)
    assert second.failures == [] and second.problems == 0 and all(report.residual is None for report in second.extractions)
    assert all(repair.gate is not None and repair.gate.accepted for repair in second.repairs)
    asked_again = {request.last_user_message for request in healthy.chat_requests()}
    assert asked_again and not asked_again & answered, "what the first run got is served from the cache; only what failed is asked"
    assert second.accounting.total().cache_hits > 0
