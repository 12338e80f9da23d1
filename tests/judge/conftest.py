"""Fixtures of the judge tests: the paper in an embedded store, and one judge run through the fake endpoint."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from judge_harness import PAPER_ID, Paper, RunJudges, store_graph

from claimgraph.context import Context
from claimgraph.judge.runner import JudgeResult, judge_papers
from claimgraph.judge.settings import JudgeSettings, judge_settings
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.config import LLMConfig
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import FakeLLMServer


@pytest.fixture
def paper(tmp_path: Path) -> Paper:
    ctx = Context(EmbeddedStore(tmp_path / "store"), IriScheme(), load_profile("peirce"))
    store_graph(ctx)
    return Paper(ctx, tmp_path)


@pytest.fixture
def run_judges(paper: Paper, llm_config: Callable[..., LLMConfig]) -> RunJudges:
    """``run_judges(server, count=3, rounds=2, **llm overrides)``: one judge run on the paper through the fake endpoint."""

    def run(server: FakeLLMServer, count: int = 3, rounds: int = 2, repair: bool = True, **overrides: object) -> tuple[list[JudgeResult], Accounting, JudgeSettings]:
        llm = llm_config(server, **overrides)
        settings = judge_settings(paper.ctx.profile, llm, count=count, rounds=rounds, repair=repair)
        accounting = Accounting()
        return judge_papers(paper.ctx, [PAPER_ID], settings, llm, accounting), accounting, settings

    return run
