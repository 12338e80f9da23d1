"""Terminal output shared by the commands: tables, CSV/JSON rows, progress."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Sequence

from pyoxigraph import Literal, NamedNode
from rich.console import Console
from rich.table import Table

from claimgraph.rdf.binding import Term
from claimgraph.rdf.vocab import PREFIXES

# Piped output is not wrapped at 80 columns: tables stay readable in logs and files.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True, width=None if sys.stderr.isatty() else 160)

ROW_FORMATS = ("table", "csv", "json")


def compact(term: Term | None) -> str:
    """A term for display: prefixed IRIs where a known prefix applies, lexical literals."""
    if term is None:
        return ""
    if isinstance(term, NamedNode):
        for prefix, namespace in PREFIXES.items():
            if term.value.startswith(namespace):
                return f"{prefix}:{term.value[len(namespace):]}"
        return term.value
    if isinstance(term, Literal):
        return term.value
    return str(term)


def print_rows(columns: Sequence[str], rows: Sequence[dict[str, Term]], fmt: str = "table", title: str | None = None) -> None:
    """SPARQL-style rows in one of ROW_FORMATS on standard output."""
    if fmt == "json":
        data = [{name: (row[name].value if name in row else None) for name in columns} for row in rows]  # type: ignore[union-attr]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    elif fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row[name].value if name in row else "" for name in columns])  # type: ignore[union-attr]
        sys.stdout.write(buffer.getvalue())
    else:
        print_table(columns, [[compact(row.get(name)) for name in columns] for row in rows], title)


def print_table(columns: Sequence[str], cells: Sequence[Sequence[object]], title: str | None = None) -> None:
    table = Table(title=title, show_lines=False)
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in cells:
        table.add_row(*(str(cell) for cell in row))
    out.print(table)
