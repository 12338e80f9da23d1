"""PDF via pypdf: the text layer, split into sections at heading lines, then into passages.

PDFs carry no paragraph structure, so: words hyphenated across a line end are
joined; a short line that is a known section name ("Methods", "2. Results")
or a numbered heading opens a section; the reference list and what follows it
is left out; each section's text is cut into passages of at most
PASSAGE_SENTENCES sentences. A PDF without a text layer (scanned pages,
images only) is refused with a hint to run OCR first.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document
from claimgraph.loaders.text import build_document
from claimgraph.loaders.text_input import read_bytes, split_sentences

PASSAGE_SENTENCES = 6
_SECTION_NAMES = (
    "abstract", "summary", "introduction", "background", "methods", "method", "materials and methods",
    "methods and materials", "study design", "results", "results and discussion", "discussion",
    "conclusion", "conclusions", "limitations", "acknowledgements", "acknowledgments",
)
_END_NAMES = ("references", "bibliography", "literature cited")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+([A-Z][^.!?:;]{1,60})$")
_HYPHEN_BREAK = re.compile(r"(\w)-\n(?=[a-z])")


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


def _sections(text: str) -> list[tuple[str, list[str]]]:
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in _HYPHEN_BREAK.sub(r"\1", text).splitlines():
        heading = _heading(line)
        if heading is not None and heading.lower() in _END_NAMES:
            break
        if heading is not None:
            sections.append((heading, []))
        elif line.strip():
            sections[-1][1].append(line.strip())
    return [(heading, _passages(" ".join(lines))) for heading, lines in sections]


def _passages(text: str) -> list[str]:
    sentences = split_sentences(text)
    return [" ".join(sentences[i:i + PASSAGE_SENTENCES]) for i in range(0, len(sentences), PASSAGE_SENTENCES)]


def _reader(path: Path) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(read_bytes(path)))
        if reader.is_encrypted and not reader.decrypt(""):
            raise LoaderError(path, "the PDF is encrypted with a password; decrypt it first (e.g. qpdf --decrypt)")
        return reader
    except LoaderError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as error:
        raise LoaderError(path, f"not a readable PDF ({type(error).__name__}: {error})") from error


def _page_texts(path: Path, reader: PdfReader) -> list[str]:
    texts = []
    for number, page in enumerate(reader.pages, start=1):
        try:
            texts.append(page.extract_text() or "")
        except (PyPdfError, ValueError, KeyError, TypeError) as error:
            raise LoaderError(path, f"cannot extract the text of page {number} ({type(error).__name__}: {error})") from error
    return texts


def load_pdf(path: Path) -> Document:
    reader = _reader(path)
    pages = _page_texts(path, reader)
    text = "\n".join(pages)
    if not text.strip():
        raise LoaderError(
            path,
            f"no extractable text in {len(pages)} page(s): a scanned or image-only PDF? "
            "Run OCR first (e.g. ocrmypdf) and load the result",
        )
    metadata_title = str(reader.metadata.title or "").strip() if reader.metadata else ""
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    looks_like_title = len(first_line) <= 200 and not first_line.endswith(".") and _heading(first_line) is None
    title = metadata_title or (first_line if looks_like_title else "")
    if title and first_line == title:
        text = text.replace(first_line, "", 1)
    return build_document(path, "pdf", _sections(text), title)
