"""Counters of LLM use per (paper, phase): calls, attempts, cache hits, tokens, failures.

These describe the run (what was sent and paid for), so they come from the
client, not the store; they are stored with each paper's audit activities
through ``as_activity_counts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # type hints only: the backends module imports openai, which takes 0.4 s to load
    from claimgraph.llm.backends import CallTag
    from claimgraph.llm.cache import Completion

TOTAL = "(all)"


@dataclass
class Counters:
    """``calls`` are requests answered by the backend (cache misses); ``attempts`` include retries.

    ``failures``: calls that gave up after trying (``unusable`` of them because
    the reply held nothing the caller could read; such replies are not cached);
    ``skipped``: calls not sent or cut short because the circuit was open or the
    paper's time budget was spent. ``structured`` and ``unstructured`` count the
    replies used (calls and cache hits) by the path they took; ``refusals`` the
    structured-output requests the endpoint refused (asked again without).
    """

    calls: int = 0
    attempts: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    unusable: int = 0
    skipped: int = 0
    structured: int = 0
    unstructured: int = 0
    refusals: int = 0

    def add(self, other: Counters) -> None:
        for name in counter_names():
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in counter_names()}


def counter_names() -> list[str]:
    return [f.name for f in fields(Counters)]


class Accounting:
    """Counters per (paper id, phase), in first-seen order."""

    def __init__(self) -> None:
        self._counters: dict[tuple[str, str], Counters] = {}

    def counters(self, tag: CallTag) -> Counters:
        return self._counters.setdefault((tag.paper_id, tag.phase), Counters())

    def record_hit(self, tag: CallTag, completion: Completion | None = None) -> None:
        counters = self.counters(tag)
        counters.cache_hits += 1
        if completion is not None:
            self._count_path(counters, completion)

    def record_call(self, tag: CallTag, completion: Completion, attempts: int) -> None:
        counters = self.counters(tag)
        counters.calls += 1
        counters.attempts += attempts
        counters.prompt_tokens += completion.prompt_tokens
        counters.completion_tokens += completion.completion_tokens

    def record_used(self, tag: CallTag, completion: Completion) -> None:
        """A reply the caller accepted, counted by its path."""
        self._count_path(self.counters(tag), completion)

    @staticmethod
    def _count_path(counters: Counters, completion: Completion) -> None:
        if completion.path == "structured":
            counters.structured += 1
        else:
            counters.unstructured += 1

    def record_failure(self, tag: CallTag, attempts: int) -> None:
        counters = self.counters(tag)
        counters.failures += 1
        counters.attempts += attempts

    def record_unusable(self, tag: CallTag) -> None:
        """A reply that came back (and was counted as a call) but held nothing usable."""
        counters = self.counters(tag)
        counters.failures += 1
        counters.unusable += 1

    def record_skip(self, tag: CallTag, attempts: int = 0) -> None:
        counters = self.counters(tag)
        counters.skipped += 1
        counters.attempts += attempts

    def record_refusal(self, tag: CallTag) -> None:
        self.counters(tag).refusals += 1

    def papers(self) -> list[str]:
        """Papers in name order (calls finish in any order under concurrency)."""
        return sorted({paper for paper, _ in self._counters})

    def phases(self, paper_id: str | None = None, order: Sequence[str] = ()) -> list[str]:
        """Phases of ``order`` first, in that order, then any others by name."""
        seen = {phase for paper, phase in self._counters if paper_id in (None, paper)}
        rank = {phase: index for index, phase in enumerate(order)}
        return sorted(seen, key=lambda phase: (rank.get(phase, len(rank)), phase))

    def total(self, paper_id: str | None = None, phase: str | None = None) -> Counters:
        """Sum over the matching (paper, phase) pairs; None matches every paper or phase."""
        total = Counters()
        for (paper, each_phase), counters in self._counters.items():
            if paper_id in (None, paper) and phase in (None, each_phase):
                total.add(counters)
        return total

    def as_activity_counts(self, paper_id: str, phase: str | None = None) -> dict[str, int]:
        """Named integers for ``claimgraph.papers.audit.Activity.counts`` (``llm_calls``, ``llm_cache_hits`` ...)."""
        return {f"llm_{name}": value for name, value in self.total(paper_id, phase).as_dict().items()}

    def table(self, phase_order: Sequence[str] = ()) -> tuple[list[str], list[list[object]]]:
        """Columns and rows: one row per (paper, phase), a total per paper, then the run total."""
        rows: list[list[object]] = []
        for paper in self.papers():
            phases = self.phases(paper, phase_order)
            rows.extend(_row(paper, phase, self.total(paper, phase)) for phase in phases)
            if len(phases) > 1:
                rows.append(_row(paper, TOTAL, self.total(paper)))
        rows.append(_row(TOTAL, TOTAL, self.total()))
        return ["paper", "phase", *counter_names()], rows


def _row(paper: str, phase: str, counters: Counters) -> list[object]:
    return [paper, phase, *counters.as_dict().values()]

