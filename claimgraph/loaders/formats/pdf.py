"""PDF via pypdf: the text layer, split into sections at heading lines, then into passages.

PDFs carry no paragraph structure, so: words hyphenated across a line end are
joined; a short line that is a known section name ("Methods", "2. Results")
or a numbered heading opens a section; the reference list and what follows it
is left out of the passages; each section's text is cut into passages of at
most PASSAGE_SENTENCES sentences. The reference list's lines (up to the next
known section heading) become References, best effort: each entry's DOI and
year as the text shows them, and the sentences citing an entry by a bracketed
number (``reference_lines``). A PDF without a text layer (scanned pages,
images only) is refused with a hint to run OCR first.

Limits (claimgraph.loaders.limits): at most MAX_PDF_PAGES pages; no stream
may decompress to more than MAX_PDF_DECOMPRESSED_BYTES (pypdf stops
decompressing there), nor all pages' content streams together. pypdf raises
all kinds of built-in exceptions on malformed files (RecursionError on deep
nesting, IndexError, AttributeError, ...): every exception it raises while
reading a file is reported as that file's problem, never as a traceback.
Characters no store can hold that text extraction produces from broken font
tables (NUL, lone surrogates) are dropped or replaced by U+FFFD.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from itertools import islice
from pathlib import Path

from pypdf import Configuration, PdfReader, apply_configuration
from pypdf.errors import LimitReachedError

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document
from claimgraph.loaders.formats.reference_lines import cite_bracketed_numbers, references_from_lines
from claimgraph.loaders.formats.text import TITLE_MAX_CHARS, build_document
from claimgraph.loaders.limits import MAX_PDF_DECOMPRESSED_BYTES, MAX_PDF_PAGES, MIB, limit_error
from claimgraph.loaders.sentences import sentence_spans
from claimgraph.loaders.text_input import read_bytes

PASSAGE_SENTENCES = 6
_SECTION_NAMES = (
    "abstract", "summary", "introduction", "background", "methods", "method", "materials and methods",
    "methods and materials", "study design", "results", "results and discussion", "discussion",
    "conclusion", "conclusions", "limitations", "acknowledgements", "acknowledgments",
)
_END_NAMES = ("references", "bibliography", "literature cited")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+([A-Z][^.!?:;]{1,60})$")
_HYPHEN_BREAK = re.compile(r"(\w)-\n(?=[a-z])")
_SURROGATE = re.compile("[\ud800-\udfff]")
_STREAM_LIMITS = {
    setting.name: MAX_PDF_DECOMPRESSED_BYTES for setting in fields(Configuration) if setting.name.endswith("_maximum_output_length")
}
"""Every per-filter output limit this pypdf has (``apply_configuration`` needs pypdf 6.18 or later)."""


def _heading(line: str) -> str | None:
    """The section title when the line is a heading, else None."""
    text = line.strip()
    if not text or len(text) > 70:
        return None
    numbered = _NUMBERED.match(text)
    name = numbered.group(1) if numbered else text
    if name.rstrip(":").strip().lower() in _SECTION_NAMES + _END_NAMES:
        return name.rstrip(":").strip()
    return name.strip() if numbered else None


def _sections(text: str) -> tuple[list[tuple[str, Iterator[str]]], list[str]]:
    """The body's sections, and the lines of the reference list (from its heading to the next known heading)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    references: list[str] | None = None
    for line in _HYPHEN_BREAK.sub(r"\1", text).splitlines():
        heading = _heading(line)
        if references is not None:
            if heading is not None and heading.lower() in _SECTION_NAMES:
                break
            references.append(line)
        elif heading is not None and heading.lower() in _END_NAMES:
            references = []
        elif heading is not None:
            sections.append((heading, []))
        elif line.strip():
            sections[-1][1].append(line.strip())
    return [(heading, _passages(" ".join(lines))) for heading, lines in sections], references or []


def _passages(text: str) -> Iterator[str]:
    """The text cut after every PASSAGE_SENTENCES sentences (as written: ``build_document`` normalizes)."""
    spans = sentence_spans(text)
    while chunk := list(islice(spans, PASSAGE_SENTENCES)):
        yield text[chunk[0][0]:chunk[-1][1]]


def _storable(text: str) -> str:
    """Extracted text without NUL characters, lone surrogates replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", ""))


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


@contextmanager
def _reading(path: Path, what: str) -> Iterator[None]:
    """Whatever pypdf raises while doing ``what`` becomes a LoaderError naming the file.

    pypdf's own warnings ("EOF marker not found") are held back meanwhile: on
    the command line they were stray lines that name no file.
    """
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)
    try:
        yield
    except LoaderError:
        raise
    except LimitReachedError as error:
        raise limit_error(
            path, f"a PDF stream decompresses to more than {MAX_PDF_DECOMPRESSED_BYTES // MIB} MiB "
            f"(a decompression bomb?): {_one_line(error)}", "MAX_PDF_DECOMPRESSED_BYTES",
        ) from error
    except Exception as error:  # pypdf's errors on a bad file: see the module docstring
        raise LoaderError(path, f"{what} ({type(error).__name__}: {_one_line(error)})") from error
    finally:
        pypdf_log.setLevel(level)


def _reader(path: Path) -> PdfReader:
    data = read_bytes(path)
    with _reading(path, "not a readable PDF"):
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise LoaderError(path, "the PDF is encrypted with a password; decrypt it first (e.g. qpdf --decrypt)")
        pages = len(reader.pages)
    if pages > MAX_PDF_PAGES:
        raise limit_error(path, f"the PDF has {pages:,} pages", "MAX_PDF_PAGES")
    return reader


def _check_content_size(path: Path, reader: PdfReader) -> None:
    """Refuse before any text extraction when the pages' content streams decompress to too much together."""
    total = 0
    for number, page in enumerate(reader.pages, start=1):
        with _reading(path, f"cannot read the content of page {number}"):
            contents = page.get_contents()
            total += len(contents.get_data()) if contents is not None else 0
        if total > MAX_PDF_DECOMPRESSED_BYTES:
            raise limit_error(
                path, f"the content streams of pages 1 to {number} decompress to more than "
                f"{MAX_PDF_DECOMPRESSED_BYTES // MIB} MiB", "MAX_PDF_DECOMPRESSED_BYTES",
            )


def _page_texts(path: Path, reader: PdfReader) -> list[str]:
    texts = []
    for number, page in enumerate(reader.pages, start=1):
        with _reading(path, f"cannot extract the text of page {number}"):
            texts.append(_storable(page.extract_text() or ""))
    return texts


def _metadata_title(reader: PdfReader) -> str:
    """The document information title when it is short text; '' when absent, too long or unreadable."""
    try:
        title = _storable(str(reader.metadata.title or "").strip()) if reader.metadata else ""
    except Exception:  # noqa: BLE001 - pypdf raises many types on a broken info dictionary: it only costs the title
        return ""
    return title if len(title) <= TITLE_MAX_CHARS else ""


def load_pdf(path: Path) -> Document:
    with apply_configuration(None, **_STREAM_LIMITS):
        reader = _reader(path)
        _check_content_size(path, reader)
        pages = _page_texts(path, reader)
        metadata_title = _metadata_title(reader)
    text = "\n".join(pages)
    if not text.strip():
        raise LoaderError(
            path,
            f"no extractable text in {len(pages)} page(s): a scanned or image-only PDF? "
            "Run OCR first (e.g. ocrmypdf) and load the result",
        )
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    looks_like_title = len(first_line) <= TITLE_MAX_CHARS and not first_line.endswith(".") and _heading(first_line) is None
    title = metadata_title or (first_line if looks_like_title else "")
    if title and first_line == title:
        text = text.replace(first_line, "", 1)
    sections, reference_lines = _sections(text)
    document = build_document(path, "pdf", sections, title)
    document.references = references_from_lines(reference_lines)
    cite_bracketed_numbers(document)
    return document
