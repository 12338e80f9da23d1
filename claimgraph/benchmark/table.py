"""The benchmark table, read from the store by the shipped queries ``benchmark-models`` and ``benchmark-residuals``.

Every figure is a cell of one of those queries (``claimgraph query
benchmark-models`` prints the same numbers), so the table is what the store
holds, not what one process counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pyoxigraph import Literal

from claimgraph.context import Context
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import Row

NOT_RUN = "not run"


@dataclass
class ModelRow:
    """One model under one ablation. CG/REA are None when no judge ran (the table says so)."""

    model: str
    ablation: str
    papers: int
    accepted_repaired: int
    judged: int
    accepted_judged: int
    cg_before: float | None
    rea_before: float | None
    cg_after: float | None
    rea_after: float | None
    llm_calls: int
    llm_tokens: int
    judge_calls: int
    judge_tokens: int
    residuals_repaired: dict[str, int] = field(default_factory=dict)
    residuals_judged: dict[str, int] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.model if self.ablation in ("full", "none") else f"{self.model} [{self.ablation}]"

    @property
    def accepted(self) -> int:
        """Accepted at the end of the loop: after judge repair when judges ran, else after materialization and repair."""
        return self.accepted_judged if self.judged else self.accepted_repaired

    def as_json(self) -> dict[str, object]:
        return {"ablation": self.ablation, "papers": self.papers, "accepted": self.accepted,
                "accepted_after_repair": self.accepted_repaired, "judged": self.judged, "accepted_after_judges": self.accepted_judged,
                "cg_before": self.cg_before, "rea_before": self.rea_before, "cg_after": self.cg_after, "rea_after": self.rea_after,
                "llm_calls": self.llm_calls, "llm_tokens": self.llm_tokens, "judge_calls": self.judge_calls, "judge_tokens": self.judge_tokens,
                "residuals": self.residuals_judged if self.judged else self.residuals_repaired,
                "residuals_after_repair": self.residuals_repaired}


def _number(row: Row, name: str) -> int:
    return int(float(row[name].value)) if name in row else 0


def _share(row: Row, name: str) -> float | None:
    return round(float(row[name].value), 3) if name in row else None


def model_rows(ctx: Context, model: str | None = None) -> list[ModelRow]:
    """The table's rows, from ``benchmark-models`` and ``benchmark-residuals`` (optionally one model)."""
    bindings = {"model": Literal(model)} if model else {}
    rows = []
    for row in ctx.store.select(read_named_query("benchmark-models"), bindings):
        rows.append(ModelRow(row["model"].value, row["ablation"].value, _number(row, "papers"), _number(row, "acceptedRepaired"),
                             _number(row, "judged"), _number(row, "acceptedJudged"), _share(row, "meanCgBefore"),
                             _share(row, "meanReaBefore"), _share(row, "meanCgAfter"), _share(row, "meanReaAfter"),
                             _number(row, "llmCalls"), _number(row, "llmTokens"), _number(row, "judgeCallsMade"),
                             _number(row, "judgeTokensUsed")))
    by_key = {(row.model, row.ablation): row for row in rows}
    for row in ctx.store.select(read_named_query("benchmark-residuals"), bindings):
        found = by_key.get((row["model"].value, row["ablation"].value))
        if found is not None:
            target = found.residuals_judged if row["stage"].value == "judged" else found.residuals_repaired
            target[row["residual"].value] = _number(row, "runs")
    return rows


def as_json(rows: list[ModelRow]) -> dict[str, dict[str, object]]:
    return {row.key: row.as_json() for row in rows}


def _cell(value: float | None, judged: int) -> str:
    return NOT_RUN if not judged else ("-" if value is None else f"{value:.3f}")


def residual_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{label} {count}" for label, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))) or "-"


TABLE_COLUMNS = ["model", "ablation", "papers", "accepted (repair)", "accepted (judges)", "CG before", "CG after",
                 "REA before", "REA after", "residuals after repair", "residuals after judges", "LLM calls", "tokens"]


def table_cells(rows: list[ModelRow]) -> list[list[object]]:
    """One line per model and ablation; judge columns say "not run" when no judge ran. LLM calls and tokens are those
    of generation and of the judges (calls the replay backend answered from recordings included)."""
    cells: list[list[object]] = []
    for row in rows:
        judged = f"{row.accepted_judged}/{row.judged}" if row.judged else NOT_RUN
        cells.append([row.model, row.ablation, row.papers, f"{row.accepted_repaired}/{row.papers}", judged,
                      _cell(row.cg_before, row.judged), _cell(row.cg_after, row.judged), _cell(row.rea_before, row.judged),
                      _cell(row.rea_after, row.judged), residual_text(row.residuals_repaired),
                      residual_text(row.residuals_judged) if row.judged else NOT_RUN,
                      row.llm_calls + row.judge_calls, row.llm_tokens + row.judge_tokens])
    return cells
