"""Terminal output: plain aligned tables, result rows in standard formats, messages on standard error.

No rendering library is imported, so a command that prints a table starts as
fast as a plain script. Every message line and table cell goes through
``printable``: a file name or paper id holding a newline, an escape sequence
or bytes that are not UTF-8 is shown escaped, so it can neither forge a line
nor drive the terminal. Row output in ``json``, ``xml``, ``csv`` and ``tsv``
follows the W3C SPARQL 1.1 query results formats (``json``: typed values,
not strings), so other SPARQL tools read it.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from claimgraph.rdf.vocab import curie

if TYPE_CHECKING:
    from claimgraph.rdf.binding import Term

ROW_FORMATS = ("table", "json", "xml", "csv", "tsv")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (Python's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with control characters, line and paragraph separators, bidirectional overrides and
    undecodable file-name bytes written as ``\\n``, ``\\x1b``, ``\\u202e``, ``\\xff``: safe on one terminal line."""
    return _UNPRINTABLE.sub(_escape, str(text))


def out(text: str = "") -> None:
    """A line on standard output."""
    sys.stdout.write(text + "\n")


def err(text: str) -> None:
    """A line on standard error (messages, warnings, progress), escaped by ``printable``."""
    sys.stderr.write(printable(text) + "\n")
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


def terminal_width() -> int | None:
    """The width tables must fit: ``$COLUMNS``, else the terminal's when standard output is one; None for a file or
    a pipe, where nothing is cut (``--format`` gives machines every value whole)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def fitted_widths(widths: Sequence[int], limit: int | None, gap: int = 2, least: int = 8) -> list[int]:
    """Column widths whose sum (with the gaps) fits ``limit``, taken from the widest columns first."""
    fitted = list(widths)
    if limit is None:
        return fitted
    while sum(fitted) + gap * (len(fitted) - 1) > limit:
        widest = max(range(len(fitted)), key=lambda index: fitted[index])
        if fitted[widest] <= least:
            break
        fitted[widest] -= 1
    return fitted


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut shown by an ellipsis."""
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def format_table(columns: Sequence[str], cells: Sequence[Sequence[object]], title: str | None = None, width: int | None = None) -> str:
    """Columns aligned by padding, a dashed rule under the header; cells are shown with ``printable``.

    The table fits ``width`` (default: the terminal's, see ``terminal_width``): the widest columns give
    way first and a cut cell ends with an ellipsis.
    """
    rows = [[printable(cell) for cell in row] for row in cells]
    natural = [max([len(name), *(len(row[index]) for row in rows if index < len(row))]) for index, name in enumerate(columns)]
    limit = width if width is not None else terminal_width()
    widths = fitted_widths(natural, limit)
    lines = [title if limit is None else clip(title, limit)] if title else []
    lines.append("  ".join(clip(name, size).ljust(size) for name, size in zip(columns, widths)).rstrip())
    lines.append("  ".join("-" * size for size in widths))
    lines.extend("  ".join(clip(cell, size).ljust(size) for cell, size in zip(row, widths)).rstrip() for row in rows)
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
