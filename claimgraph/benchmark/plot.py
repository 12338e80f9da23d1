"""Per-model before/after bars of the benchmark table: SVG written here, PNG through matplotlib when it is installed."""

from __future__ import annotations

from html import escape
from pathlib import Path

from claimgraph.benchmark.table import ModelRow
from claimgraph.errors import ClaimgraphError

SERIES = [("accepted, repair", "#9ecae1"), ("accepted, judges", "#3182bd"), ("CG before", "#fdd0a2"), ("CG after", "#e6550d"),
          ("REA before", "#c7e9c0"), ("REA after", "#31a354")]


class PlotError(ClaimgraphError):
    """The plot cannot be written (unknown file type, PNG without matplotlib)."""


def bar_values(row: ModelRow) -> list[float | None]:
    """Shares of 1 in the order of SERIES; None where the judges did not run."""
    papers = row.papers or 1
    return [row.accepted_repaired / papers, row.accepted_judged / papers if row.judged else None,
            row.cg_before, row.cg_after, row.rea_before, row.rea_after]


def write_plot(rows: list[ModelRow], path: Path) -> None:
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(plot_svg(rows), encoding="utf-8")
    elif suffix == ".png":
        _plot_png(rows, path)
    else:
        raise PlotError(f"{path}: write the plot as .svg or .png")


def _plot_png(rows: list[ModelRow], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(f"{path}: a PNG plot needs matplotlib (pip install matplotlib); write an .svg instead") from None
    figure, axes = plt.subplots(figsize=(max(4, 1.5 * len(rows) + 2), 3.5))
    width = 0.8 / len(SERIES)
    for offset, (name, colour) in enumerate(SERIES):
        values = [value if value is not None else 0.0 for value in (bar_values(row)[offset] for row in rows)]
        axes.bar([index + offset * width for index in range(len(rows))], values, width, label=name, color=colour)
    axes.set_xticks([index + 0.4 - width / 2 for index in range(len(rows))], [row.key for row in rows])
    axes.set_ylim(0, 1)
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def plot_svg(rows: list[ModelRow]) -> str:
    """Per model: accepted after repair and after judges, CG and REA before and after, as bars (shares of 1)."""
    series = SERIES
    bar, gap, height, top, left = 14, 24, 200, 30, 40
    group = bar * len(series) + gap
    width = left + group * max(len(rows), 1) + 160
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + height + 60}" font-family="sans-serif" font-size="11">',
             f'<line x1="{left}" y1="{top + height}" x2="{width - 150}" y2="{top + height}" stroke="black"/>',
             f'<text x="{left - 6}" y="{top + 4}" text-anchor="end">1</text><text x="{left - 6}" y="{top + height}" text-anchor="end">0</text>']
    for index, row in enumerate(rows):
        values = bar_values(row)
        x0 = left + index * group + gap // 2
        for offset, (value, (_, colour)) in enumerate(zip(values, series, strict=True)):
            if value is None:
                continue
            tall = round(height * value)
            parts.append(f'<rect x="{x0 + offset * bar}" y="{top + height - tall}" width="{bar - 2}" height="{tall}" fill="{colour}"/>')
        parts.append(f'<text x="{x0 + group // 2 - gap // 2}" y="{top + height + 16}" text-anchor="middle">{escape(row.key)}</text>')
    for offset, (name, colour) in enumerate(series):
        y = top + offset * 18
        parts.append(f'<rect x="{width - 140}" y="{y}" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{width - 122}" y="{y + 10}">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
