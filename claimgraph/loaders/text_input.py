"""Reading input files as text and splitting text into sentences."""

from __future__ import annotations

import re
from pathlib import Path

from claimgraph.errors import LoaderError

MAX_INPUT_BYTES = 200 * 1024 * 1024

# Abbreviations after which a period does not end a sentence.
_ABBREVIATIONS = {
    "al", "e.g", "i.e", "etc", "fig", "figs", "eq", "eqs", "ref", "refs", "vs", "cf",
    "no", "dr", "mr", "mrs", "ms", "prof", "approx", "ca", "sec", "tab", "suppl", "resp", "st",
}
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LoaderError(path, f"cannot read file: {error.strerror or error}") from error
    if len(data) > MAX_INPUT_BYTES:
        raise LoaderError(path, f"file is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    if not data.strip():
        raise LoaderError(path, "file is empty")
    return data


def read_text(path: Path) -> str:
    """The file's UTF-8 text (a BOM is allowed); other encodings are refused by name."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LoaderError(
            path, f"not UTF-8 (invalid byte 0x{data[error.start]:02x} at offset {error.start}); convert it to UTF-8"
        ) from error


def _ends_with_abbreviation(chunk: str) -> bool:
    words = chunk.rstrip().split()
    if not words:
        return False
    last = words[-1].strip("([{\"'").rstrip(".").lower()
    return last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences; keeps abbreviations such as 'et al.' and 'Fig.' inside."""
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        chunk = text[start:match.start()]
        if _ends_with_abbreviation(chunk):
            continue
        sentences.append(text[start:match.end()].strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences
