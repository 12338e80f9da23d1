"""The limits every loader enforces, in one place.

A paper is tens of kilobytes of text and a few hundred sentences; the limits
sit far above that, so they only refuse files that are not one paper (a book,
a dump, a generated or malicious file) before such a file costs gigabytes of
memory or hours of LLM calls downstream. Each refusal is a LoaderError that
names the file, the limit and its value (see ``limit_error``).

The input-size limit is a setting: ``MAX_INPUT_BYTES`` is its default, the
environment variable ``CLAIMGRAPH_MAX_INPUT_BYTES`` (a number of bytes)
replaces it, and ``claimgraph.loaders.text_input.read_bytes`` takes it as a
parameter; ``max_input_bytes`` says which value is in force.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from claimgraph.errors import ClaimgraphError, LoaderError

MIB = 1024 * 1024

MAX_INPUT_BYTES = 16 * MIB
"""Default size limit of a text, Markdown or PDF file, checked before the file is read (a paper's text is
well under 1 MiB; a text file of long sentences costs about 30 times its size in memory once loaded).
``CLAIMGRAPH_MAX_INPUT_BYTES`` replaces it."""

INPUT_BYTES_VARIABLE = "CLAIMGRAPH_MAX_INPUT_BYTES"

MAX_JSON_BYTES = 4 * MIB
"""Size of a JSON (ARCHE) file, 20 times the largest ARCHE paper. JSON is parsed whole into Python
objects: a file of nothing but empty arrays grows memory by 30 times its size (130 MiB at this limit)."""

MAX_XML_BYTES = 16 * MIB
"""Size of a JATS or TEI file (a long article with inline MathML and tables is a few MiB). The parsed
tree of a file of nothing but empty elements grows memory by 35 times its size (570 MiB, 15 s at this limit)."""

MAX_SENTENCES = 20_000
"""Sentences in one paper (a long review has a few thousand); text loaders stop reading at the first one over."""

MAX_SENTENCE_CHARS = 20_000
"""Characters in one sentence, and in any other text kept from the file (title, heading, viewpoint, reference)."""

MAX_VIEWPOINTS = 100_000
"""ARCHE viewpoints in one paper, sentence and reference viewpoints together."""

MAX_NESTING_DEPTH = 64
"""Nesting of JSON arrays and objects, and of XML elements (an ARCHE paper nests 6 deep, JATS about 15)."""

MAX_NUMBER_DIGITS = 20
"""Digits in one JSON number; longer numbers are refused before Python converts them."""

MAX_INDEX = 999_999_999
"""Largest sentence, reference or viewpoint number an ARCHE file may use."""

MAX_PDF_PAGES = 1_000
"""Pages in one PDF."""

MAX_PDF_DECOMPRESSED_BYTES = 64 * MIB
"""Decompressed size of any one PDF stream, and of all pages' content streams together."""


def max_input_bytes(environ: Mapping[str, str] | None = None) -> int:
    """The input-size limit in force: ``CLAIMGRAPH_MAX_INPUT_BYTES`` when set, else MAX_INPUT_BYTES."""
    raw = (os.environ if environ is None else environ).get(INPUT_BYTES_VARIABLE, "").strip()
    if not raw:
        return MAX_INPUT_BYTES
    if not raw.isdigit() or int(raw) < 1:
        raise ClaimgraphError(f"{INPUT_BYTES_VARIABLE} = {raw!r} is not a positive whole number of bytes")
    return int(raw)


def _shown(name: str, value: int) -> str:
    if not name.endswith("_BYTES"):
        return f"{value:,}"
    return f"{value // MIB} MiB" if value % MIB == 0 else f"{value:,} bytes"


def describe(name: str, value: int | None = None) -> str:
    """``NAME = value`` of one of the limits above (or ``value``, the one in force), sizes in MiB."""
    return f"{name} = {_shown(name, globals()[name] if value is None else value)}"


def limit_error(path: object, problem: str, name: str, value: int | None = None) -> LoaderError:
    """A LoaderError saying which limit ``problem`` broke, e.g. "... (limit: MAX_SENTENCES = 20,000)".

    ``value`` is the limit in force when it is not the default; the input-size limit also names its variable.
    """
    setting = f"; set {INPUT_BYTES_VARIABLE} to change it" if name == "MAX_INPUT_BYTES" else ""
    return LoaderError(path, f"{problem} (limit: claimgraph.loaders.limits.{describe(name, value)}{setting})")
