"""Terminal output: plain aligned tables, result rows in standard formats, messages on standard error.

No rendering library is imported, so a command that prints a table starts as
fast as a plain script. Row output in ``json``, ``xml``, ``csv`` and ``tsv``
follows the W3C SPARQL 1.1 query results formats (``json``: typed values,
not strings), so other SPARQL tools read it.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from claimgraph.rdf.vocab import curie

if TYPE_CHECKING:
    from claimgraph.rdf.binding import Term

ROW_FORMATS = ("table", "json", "xml", "csv", "tsv")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def out(text: str = "") -> None:
    """A line on standard output."""
    sys.stdout.write(text + "\n")


def err(text: str) -> None:
    """A line on standard error (messages, warnings, progress)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def compact(term: Term | None) -> str:
    """A term for display: prefixed IRIs where a known prefix applies, lexical literals."""
    from pyoxigraph import Literal, NamedNode

    if term is None:
        return ""
    if isinstance(term, NamedNode):
        return curie(term.value) or term.value
    if isinstance(term, Literal):
        return term.value
    return str(term)


def format_table(columns: Sequence[str], cells: Sequence[Sequence[object]], title: str | None = None) -> str:
    """Columns aligned by padding, a dashed rule under the header; cells are shown with str()."""
    rows = [[str(cell).replace("\n", " ") for cell in row] for row in cells]
    widths = [max([len(name), *(len(row[index]) for row in rows if index < len(row))]) for index, name in enumerate(columns)]
    lines = [title] if title else []
    lines.append("  ".join(name.ljust(width) for name, width in zip(columns, widths)).rstrip())
    lines.append("  ".join("-" * width for width in widths))
    lines.extend("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)
    return "\n".join(lines)


def print_table(columns: Sequence[str], cells: Sequence[Sequence[object]], title: str | None = None) -> None:
    out(format_table(columns, cells, title))
    out()


def term_json(term: Term) -> dict[str, str]:
    """One RDF term in the SPARQL 1.1 JSON results format."""
    from pyoxigraph import BlankNode, NamedNode

    if isinstance(term, NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, BlankNode):
        return {"type": "bnode", "value": term.value}
    value: dict[str, str] = {"type": "literal", "value": term.value}
    if term.language:
        value["xml:lang"] = term.language
    elif term.datatype.value != _XSD_STRING:
        value["datatype"] = term.datatype.value
    return value


def rows_text(columns: Sequence[str], rows: Sequence[Mapping[str, Term]], fmt: str) -> str:
    """SPARQL-style rows as ``json`` (W3C results), ``csv`` or ``tsv`` text."""
    import csv
    import json

    if fmt == "json":
        bindings = [{name: term_json(row[name]) for name in columns if name in row} for row in rows]
        return json.dumps({"head": {"vars": list(columns)}, "results": {"bindings": bindings}}, ensure_ascii=False, indent=1)
    buffer = io.StringIO()
    if fmt == "csv":
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row[name].value if name in row else "" for name in columns])
        return buffer.getvalue()
    if fmt == "tsv":
        lines = ["\t".join(f"?{name}" for name in columns)]
        lines += ["\t".join(str(row[name]) if name in row else "" for name in columns) for row in rows]
        return "\n".join(lines) + "\n"
    raise ValueError(f"rows_text does not write {fmt!r}")


def print_rows(columns: Sequence[str], rows: Sequence[Mapping[str, Term]], fmt: str = "table", title: str | None = None) -> None:
    """Rows on standard output in one of ROW_FORMATS (``xml`` needs query results: see the query command)."""
    if fmt == "table":
        print_table(columns, [[compact(row.get(name)) for name in columns] for row in rows], title)
    else:
        sys.stdout.write(rows_text(columns, rows, fmt).rstrip("\n") + "\n")
