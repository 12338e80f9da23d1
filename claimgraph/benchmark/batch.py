"""Scoring a whole archive: each response through ``score_response``; a response that cannot be scored is named and skipped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from claimgraph.benchmark.archive import Archive, Recorded
from claimgraph.benchmark.scoring import JudgePlan, Scored, recorded_source, score_response
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.text_input import read_text


@dataclass
class BatchResult:
    scored: list[Scored] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return sum(1 for item in self.scored if item.skipped)


def score_archive(ctx: Context, archive: Archive, plan: JudgePlan | None,
                  on_item: Callable[[Recorded, Scored | None, str | None], None] | None = None) -> BatchResult:
    """Score every response of the archive; a file or paper that fails is reported with its name and the rest go on."""

    result = BatchResult(problems=list(archive.problems))
    for item in archive.responses:
        try:
            text = read_text(item.path)
            scored = score_response(ctx, item.paper_id, text, recorded_source(item.model, item.path), plan)
        except ClaimgraphError as error:
            message = str(error) if str(error).startswith(str(item.path)) else f"{item.path}: {error}"
            result.problems.append(message)
            if on_item is not None:
                on_item(item, None, message)
            continue
        result.scored.append(scored)
        if on_item is not None:
            on_item(item, scored, None)
    return result
