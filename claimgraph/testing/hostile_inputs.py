"""A corpus of hostile input files, written by code, each with the outcome the loaders must give it.

``write_hostile_corpus(folder)`` writes the files (JSON, text, Markdown, XML,
PDF, and paths that are not files at all) and returns one HostileCase per
file: ``refused`` with a fragment the LoaderError message must contain, or
``accepted`` with the texts the Document must hold exactly. Sizes follow
``claimgraph.loaders.limits``, so a case over a limit stays over it when a
limit changes. ``write_large_text`` writes the 50 MB text file on demand.
"""

from __future__ import annotations

import codecs
import json
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claimgraph.loaders.limits import (
    MAX_INDEX,
    MAX_INPUT_BYTES,
    MAX_JSON_BYTES,
    MAX_NESTING_DEPTH,
    MAX_PDF_DECOMPRESSED_BYTES,
    MAX_PDF_PAGES,
    MAX_SENTENCE_CHARS,
    MAX_SENTENCES,
    MAX_XML_BYTES,
    MIB,
)


@dataclass(frozen=True)
class HostileCase:
    """One hostile file and what loading it must give."""

    path: Path
    outcome: Literal["refused", "accepted"]
    description: str
    fragment: str = ""
    """Refused: a part of the LoaderError message that names the problem."""
    strings: tuple[str, ...] = ()
    """Accepted: texts the Document must hold exactly (a sentence, viewpoint, title or heading)."""


RTL_TEXT = "Right\u202eto\u202cleft overrides and \u2067isolates\u2069 stay in place."
ZERO_WIDTH_TEXT = "Zero\u200bwidth spaces, join\u200ders and no\u2060breaks stay\ufeff too."
SPARQL_TEXTS = (
    "} ; DROP ALL ; INSERT DATA {",
    '"} ; DROP ALL ; INSERT DATA { <http://evil/> <http://evil/> "x" } #',
    "<http://evil/>",
    "?g",
    "$x @en ^^<http://www.w3.org/2001/XMLSchema#integer>",
)
SPARQL_SENTENCE = 'The text "} ; DROP ALL ; INSERT DATA {" and <http://evil/> and ?g stay as written.'
PLAIN = "Soil warmed faster under dark mulch. Roots grew longer in the café plots."
PLAIN_SENTENCES = ("Soil warmed faster under dark mulch.", "Roots grew longer in the café plots.")


class _Corpus:
    """Writes files under one folder and collects their cases."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.cases: list[HostileCase] = []
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, name: str) -> Path:
        return self.folder / name

    def write(self, name: str, content: str | bytes) -> Path:
        path = self.path(name)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    def refused(self, name: str, content: str | bytes | None, fragment: str, description: str) -> None:
        path = self.write(name, content) if content is not None else self.path(name)
        self.cases.append(HostileCase(path, "refused", description, fragment=fragment))

    def accepted(self, name: str, content: str | bytes, strings: tuple[str, ...], description: str) -> None:
        self.cases.append(HostileCase(self.write(name, content), "accepted", description, strings=strings))


def _sentence(idx: Any, text: str, viewpoints: list[str] | None = None, references: Any = None) -> dict[str, Any]:
    return {"idx": idx, "sentence": text, "viewpoints": viewpoints or [], "references": references or {}}


def _arche(base_id: str, sentences: list[dict[str, Any]], **info: Any) -> dict[str, Any]:
    return {"file_info": {"base_id": base_id, "title": f"Hostile case {base_id}", **info}, "introduction": {"sentences": sentences}}


def _arche_json(base_id: str, sentences: list[dict[str, Any]], **info: Any) -> str:
    """ASCII JSON (every other character escaped), so lone surrogates and NULs survive writing."""
    return json.dumps(_arche(base_id, sentences, **info))


def _one(base_id: str, text: str = "A plain sentence.", **info: Any) -> str:
    return _arche_json(base_id, [_sentence(1, text)], **info)


def _json_cases(corpus: _Corpus) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    corpus.refused(
        "deep-200000.json", _one("deep").replace('"A plain sentence."', deep), "nest too deep", "JSON nested 200,000 deep (RecursionError in the parser)"
    )
    nested = "[" * (MAX_NESTING_DEPTH + 5) + "]" * (MAX_NESTING_DEPTH + 5)
    corpus.refused(
        "deep-over-limit.json",
        _one("deep2").replace('"A plain sentence."', nested),
        f"nest more than {MAX_NESTING_DEPTH} deep",
        "JSON nested just past MAX_NESTING_DEPTH",
    )
    corpus.refused(
        "idx-5000-digits.json",
        _arche_json("digits", [_sentence(1, "A.")]).replace('"idx": 1', '"idx": ' + "7" * 5000),
        "5,000 digits",
        "an idx of 5,000 digits (int conversion limit)",
    )
    corpus.refused("idx-true.json", _arche_json("booly", [_sentence(True, "A.")]), "idx must be a positive integer", '"idx": true (bool is an int subclass)')
    corpus.refused("idx-over-max.json", _arche_json("big", [_sentence(MAX_INDEX + 1, "A.")]), "idx must be a positive integer", "an idx over MAX_INDEX")
    corpus.refused("idx-nan.json", _arche_json("nan", [_sentence(float("nan"), "A.")]), "holds NaN", "NaN as an idx (not JSON)")
    corpus.refused("infinity.json", _one("inf", published_time=float("inf")), "holds Infinity", "Infinity in file_info (not JSON)")
    corpus.refused(
        "idx-1e400.json",
        _arche_json("huge", [_sentence(1, "A.")]).replace('"idx": 1', '"idx": 1e400'),
        "too large to be read as a number",
        "a float literal that overflows to infinity",
    )
    corpus.refused("idx-twice.json", _arche_json("twice", [_sentence(1, "A."), _sentence(1, "B.")]), "idx 1 appears twice", "the same sentence idx twice")
    corpus.refused(
        "key-twice.json",
        _one("dupkey").replace('"sentence": "A plain sentence."', '"sentence": "A.", "sentence": "B."'),
        "key 'sentence' twice",
        "a JSON key given twice in one object",
    )
    for name, key, description in (
        ("ref-key-superscript-two.json", "²", "superscript two"),
        ("ref-key-arabic-indic-three.json", "٣", "Arabic-Indic three"),
        ("ref-key-leading-zero.json", "01", "a leading zero"),
    ):
        text = _arche_json(name, [_sentence(1, "A.", references={key: {"1": "cited"}})])
        corpus.refused(name, text, f"key {key!r} must be a reference number", f"reference key with {description} (str.isdigit() accepts it)")
    corpus.refused(
        "vp-key-superscript-three.json",
        _arche_json("vp3", [_sentence(1, "A.", references={"1": {"³": "cited"}})]),
        "key '³' must be a reference number",
        "viewpoint key '³'",
    )
    corpus.refused("surrogate-sentence.json", _one("sur", "Broken \ud800 text."), "lone surrogate U+D800", "a lone high surrogate in a sentence")
    corpus.refused(
        "surrogate-viewpoint.json",
        _arche_json("sur2", [_sentence(1, "A.", ["Low \udc00 half"])]),
        "lone surrogate U+DC00",
        "a lone low surrogate in a viewpoint",
    )
    corpus.refused("nul-escape.json", _one("nul", "Nul \u0000 inside."), "holds a NUL character", "a \\u0000 escape in a sentence")
    corpus.refused("title-object.json", _one("obj", title={"nested": "title"}), "file_info.title must be text", "a title that is an object")
    many = [_sentence(n, "A.") for n in range(1, MAX_SENTENCES + 2)]
    corpus.refused("too-many-sentences.json", _arche_json("many", many), "MAX_SENTENCES", "one sentence over MAX_SENTENCES")
    corpus.refused(
        "sentence-too-long.json", _one("long", "a" * (MAX_SENTENCE_CHARS + 1)), "MAX_SENTENCE_CHARS", "a sentence one character over MAX_SENTENCE_CHARS"
    )
    corpus.refused(
        "latin1.json", _one("latin", "Caf\u00e9 plots.").replace("\\u00e9", "\u00e9").encode("latin-1"), "not UTF-8 (invalid byte 0xe9", "Latin-1 bytes"
    )
    corpus.accepted(
        "utf16-bom.json", codecs.BOM_UTF16_LE + _one("utf16", PLAIN_SENTENCES[1]).encode("utf-16-le"), (PLAIN_SENTENCES[1],), "UTF-16 LE with a BOM: decoded"
    )
    corpus.refused("utf16-no-bom.json", _one("utf16nb").encode("utf-16-le"), "UTF-16 without a byte-order mark", "UTF-16 without a BOM")
    corpus.refused("empty.json", b"", "file is empty", "an empty file")
    corpus.refused("whitespace.json", b" \n\t\r\n ", "file is empty", "only whitespace")
    corpus.accepted("non-ascii-id-ja.json", _one("日本語の論文", "Japanese id sentence."), ("Japanese id sentence.",), "an all-non-ASCII base_id")
    corpus.accepted("non-ascii-id-ko.json", _one("한국어 논문", "Korean id sentence."), ("Korean id sentence.",), "another all-non-ASCII base_id")
    rtl = _arche_json("rtl", [_sentence(1, RTL_TEXT, [ZERO_WIDTH_TEXT], {"1": {"1": "\u202eevil.exe"}})])
    corpus.accepted("rtl-zero-width.json", rtl, (RTL_TEXT, ZERO_WIDTH_TEXT, "\u202eevil.exe"), "RTL overrides and zero-width characters")
    sparql = _arche_json("sparql", [_sentence(1, SPARQL_TEXTS[0], list(SPARQL_TEXTS[1:]), {"2": {"1": SPARQL_TEXTS[1]}})])
    corpus.accepted("sparql-like.json", sparql, SPARQL_TEXTS, "strings that look like SPARQL and IRIs")
    corpus.accepted("sparql-like-id.json", _one(SPARQL_TEXTS[1], "An id made of SPARQL."), ("An id made of SPARQL.",), "a base_id that looks like SPARQL")


def _path_cases(corpus: _Corpus) -> None:
    folder = corpus.path("folder.json")
    folder.mkdir(exist_ok=True)
    (folder / "inside.txt").write_text("A file inside a folder named like a file.\n", encoding="utf-8")
    corpus.cases.append(HostileCase(folder, "refused", "a folder named like a file", fragment="is a folder, not a file"))
    empty = corpus.path("empty-folder")
    empty.mkdir(exist_ok=True)
    corpus.cases.append(HostileCase(empty, "refused", "a folder with no supported file", fragment="is a folder with no supported input file"))
    corpus.refused("missing.json", None, "does not exist", "a file that does not exist")
    corpus.refused("notes", "A file without a suffix.\n", "unsupported file type '(none)'", "an existing file of no known type")
    _link(corpus.path("loop-a.json"), "loop-b.json")
    _link(corpus.path("loop-b.json"), "loop-a.json")
    corpus.cases.append(HostileCase(corpus.path("loop-a.json"), "refused", "a symbolic link loop", fragment=LINK_REFUSED))
    _link(corpus.path("dangling.md"), "nowhere.md")
    corpus.cases.append(HostileCase(corpus.path("dangling.md"), "refused", "a link to nothing", fragment=LINK_REFUSED))
    fifo = corpus.path("fifo.txt")
    if not fifo.exists():
        os.mkfifo(fifo)
    corpus.cases.append(HostileCase(fifo, "refused", "a FIFO: opening it for reading would block", fragment="is not a regular file"))
    if Path("/proc/self/mem").exists():
        _link(corpus.path("unreadable.txt"), "/proc/self/mem")
        description = "a file even root cannot read (reading /proc/self/mem at offset 0 fails with EIO)"
        corpus.cases.append(HostileCase(corpus.path("unreadable.txt"), "refused", description, fragment=LINK_REFUSED))
    oversized = (
        ("sparse-huge.txt", MAX_INPUT_BYTES, "MAX_INPUT_BYTES"),
        ("sparse-huge.json", MAX_JSON_BYTES, "MAX_JSON_BYTES"),
        ("sparse-huge.xml", MAX_XML_BYTES, "MAX_XML_BYTES"),
    )
    for name, size, limit in oversized:
        with corpus.path(name).open("wb") as handle:
            handle.truncate(size + 1)
        corpus.cases.append(HostileCase(corpus.path(name), "refused", f"a sparse file one byte over {limit}", fragment=limit))


LINK_REFUSED = "is a symbolic link; links are not followed"
"""What loading any link says unless links are followed (then each says what is wrong with its target)."""


def _link(link: Path, target: str) -> None:
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target)


def _text_cases(corpus: _Corpus) -> None:
    corpus.refused("nul.txt", b"Text with a NUL\x00 byte inside it.", "contains a NUL byte at offset 15", "a NUL byte in UTF-8 text")
    corpus.refused("latin1.txt", "Caf\u00e9 plots warmed.".encode("latin-1"), "not UTF-8 (invalid byte 0xe9 at offset 3)", "Latin-1 text")
    corpus.accepted("utf16-le-bom.txt", PLAIN.encode("utf-16"), PLAIN_SENTENCES, "UTF-16 with a BOM: decoded")
    corpus.accepted("utf16-be-bom.txt", codecs.BOM_UTF16_BE + PLAIN.encode("utf-16-be"), PLAIN_SENTENCES, "UTF-16 BE with a BOM: decoded")
    corpus.refused("utf16-no-bom.txt", PLAIN.encode("utf-16-le"), "UTF-16 without a byte-order mark", "UTF-16 without a BOM")
    corpus.refused("utf32-bom.txt", PLAIN.encode("utf-32"), "is UTF-32", "UTF-32 with its BOM")
    corpus.refused(
        "utf16-bad-surrogate.txt",
        codecs.BOM_UTF16_LE + "Half ".encode("utf-16-le") + b"\x00\xd8" + "x.".encode("utf-16-le"),
        "not UTF-16",
        "UTF-16 with an unpaired surrogate",
    )
    corpus.accepted("utf8-bom.txt", codecs.BOM_UTF8 + PLAIN.encode("utf-8"), PLAIN_SENTENCES, "UTF-8 with a BOM")
    corpus.refused("empty.txt", b"", "file is empty", "an empty text file")
    corpus.refused("whitespace.txt", " \n\n\t \u3000\n".encode(), "file is empty", "only whitespace, some of it Unicode")
    corpus.accepted("rtl-zero-width.txt", f"{RTL_TEXT} {ZERO_WIDTH_TEXT}\n", (RTL_TEXT, ZERO_WIDTH_TEXT), "RTL and zero-width characters in text")
    corpus.accepted("sparql-like.txt", f"Injection probes\n\n{SPARQL_SENTENCE}\n", ("Injection probes", SPARQL_SENTENCE), "SPARQL-looking text")
    corpus.accepted("日本語.txt", "A paper named in Japanese.\n", ("A paper named in Japanese.",), "a file name without ASCII letters")
    corpus.accepted("中文.txt", "A paper named in Chinese.\n", ("A paper named in Chinese.",), "another file name without ASCII letters")
    corpus.refused(
        "one-long-sentence.txt", "word " * (MAX_SENTENCE_CHARS // 5 + 100), "MAX_SENTENCE_CHARS", "a sentence without an end over MAX_SENTENCE_CHARS"
    )
    corpus.refused("too-many-sentences.txt", "Xy. " * (MAX_SENTENCES + 1), "MAX_SENTENCES", "tiny sentences, one over MAX_SENTENCES")
    corpus.refused("abbreviation-chain.txt", "see Fig. A " * (MIB // 11), "MAX_SENTENCE_CHARS", "1 MiB of boundaries after abbreviations (quadratic before)")


def _markdown_cases(corpus: _Corpus) -> None:
    corpus.refused("emphasis-chain.md", "_a " * (MIB // 3), "MAX_SENTENCE_CHARS", "1 MiB of unclosed emphasis (quadratic before)")
    corpus.refused("headings-only.md", "# One\n\n## Two\n\n### Three\n", "no sentences found", "headings and nothing else")
    corpus.refused("huge-heading.md", "# " + "h" * (MAX_SENTENCE_CHARS + 1) + "\n\nBody text.\n", "MAX_SENTENCE_CHARS", "a heading over MAX_SENTENCE_CHARS")
    corpus.refused("nul.md", b"# Title\n\nBody\x00 text.\n", "NUL byte", "a NUL byte in Markdown")
    body = f"# Heading \u202eflipped\n\n{SPARQL_SENTENCE} {ZERO_WIDTH_TEXT}\n\n```\nNot a sentence.\n```\n"
    corpus.accepted("sparql-rtl.md", body, ("Heading \u202eflipped", SPARQL_SENTENCE, ZERO_WIDTH_TEXT), "SPARQL-looking, RTL and zero-width text in Markdown")


def _jats(body: str, prolog: str = "") -> str:
    return f"{prolog}<article><front><article-meta><title-group><article-title>Hostile</article-title></title-group></article-meta></front><body>{body}</body></article>"


def _xml_cases(corpus: _Corpus) -> None:
    laughs = "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    corpus.refused(
        "billion-laughs.xml",
        _jats("<p>&l9;</p>", f'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY l0 "lol">{laughs}]>'),
        "XML entities",
        "entity expansion bomb",
    )
    corpus.refused(
        "external-entity.xml",
        _jats("<p>Leak &x; here.</p>", '<?xml version="1.0"?><!DOCTYPE article [<!ENTITY x SYSTEM "file:///etc/passwd">]>'),
        "declares XML entities (x)",
        "an external entity (XXE)",
    )
    corpus.refused(
        "parameter-entity.xml",
        _jats("<p>A.</p>", '<?xml version="1.0"?><!DOCTYPE article [<!ENTITY % p SYSTEM "file:///etc/passwd">]>'),
        "declares XML entities (p)",
        "an external parameter entity",
    )
    corpus.refused("deep-10000.xml", _jats("<sec>" * 10_000 + "<p>Deep.</p>" + "</sec>" * 10_000), "nest too deep", "elements nested 10,000 deep")
    depth = MAX_NESTING_DEPTH + 5
    corpus.refused(
        "deep-over-limit.xml",
        _jats("<sec>" * depth + "<p>Deep.</p>" + "</sec>" * depth),
        f"nest more than {MAX_NESTING_DEPTH} deep",
        "elements nested just past MAX_NESTING_DEPTH",
    )
    corpus.refused("nul.xml", _jats("<p>Nul\x00 here.</p>").encode(), "not well-formed XML", "a NUL byte in XML")
    corpus.refused("undefined-entity.xml", _jats("<p>Say &zz; here.</p>"), "not well-formed XML", "a reference to an undeclared entity")
    latin = _jats("<p>Caf\u00e9 plots warmed.</p>", '<?xml version="1.0" encoding="ISO-8859-1"?>').encode("latin-1")
    corpus.accepted("latin1-declared.xml", latin, ("Café plots warmed.",), "Latin-1 declared in the XML declaration: valid XML")
    corpus.refused(
        "latin1-undeclared.xml",
        _jats("<p>Caf\u00e9 plots warmed.</p>").encode("latin-1"),
        "not well-formed XML",
        "Latin-1 bytes in XML that says nothing of its encoding",
    )
    corpus.accepted(
        "utf16-bom.xml", _jats(f"<p>{PLAIN}</p>", '<?xml version="1.0" encoding="UTF-16"?>').encode("utf-16"), PLAIN_SENTENCES, "UTF-16 XML with a BOM"
    )
    forged = "Private \ue000r1\ue001 markers stay."
    escaped = SPARQL_SENTENCE.replace("<", "&lt;").replace(">", "&gt;")
    corpus.accepted(
        "sparql-rtl-pua.xml",
        _jats(f"<p>{escaped} {RTL_TEXT} {forged}</p>"),
        (SPARQL_SENTENCE, RTL_TEXT, forged),
        "SPARQL-looking, RTL and private-use text in JATS",
    )
    tei = '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt></fileDesc></teiHeader><text><body><div><p>A paper named in kanji.</p></div></body></text></TEI>'
    corpus.accepted("論文.tei.xml", tei, ("A paper named in kanji.",), "a TEI file name without ASCII letters")
    corpus.refused("empty.xml", b"  \n", "file is empty", "an empty XML file")


def _pdf(streams: list[bytes], pages: list[int], compressed: bool = False) -> bytes:
    """A PDF whose page ``n`` shows content stream ``pages[n]`` in Helvetica (pages may share a stream)."""
    first_stream = 4 + len(pages)
    kids = " ".join(f"{4 + n} 0 R" for n in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    resources = "/Resources << /Font << /F1 3 0 R >> >>"
    objects += [f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {resources} /Contents {first_stream + s} 0 R >>".encode() for s in pages]
    flate = b" /Filter /FlateDecode" if compressed else b""
    objects += [b"<< /Length %d%s >>\nstream\n" % (len(data), flate) + data + b"\nendstream" for data in streams]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _show(text: str) -> bytes:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 11 Tf 60 720 Td ({escaped}) Tj ET".encode("latin-1")


def _deflate(head: bytes, padding: int) -> bytes:
    """``head`` then ``padding`` spaces, deflated a MiB at a time (never held decompressed)."""
    compressor = zlib.compressobj(9)
    parts = [compressor.compress(head)]
    block = b" " * MIB
    for _ in range(padding // MIB):
        parts.append(compressor.compress(block))
    parts.append(compressor.compress(b" " * (padding % MIB)))
    return b"".join([*parts, compressor.flush()])


def _pdf_cases(corpus: _Corpus) -> None:
    line = "Hello } ; DROP ALL ; INSERT DATA { <http://evil/> ?g."
    corpus.accepted("sparql-layer.pdf", _pdf([_show(line)], [0]), (line,), "SPARQL-looking text in a PDF text layer")
    bomb = _deflate(_show("Bomb."), MAX_PDF_DECOMPRESSED_BYTES + MIB)
    corpus.refused(
        "decompression-bomb.pdf", _pdf([bomb], [0], compressed=True), "decompression bomb", "one stream that inflates past MAX_PDF_DECOMPRESSED_BYTES"
    )
    half = _deflate(_show("Half."), MAX_PDF_DECOMPRESSED_BYTES // 2 + MIB)
    corpus.refused(
        "content-over-total.pdf",
        _pdf([half], [0, 0], compressed=True),
        "the content streams of pages 1 to 2",
        "two pages whose shared content inflates past the total",
    )
    corpus.refused("no-text-layer.pdf", _pdf([b"0 0 1 rg 0 0 612 792 re f"], [0]), "no extractable text", "a page that draws but has no text")
    corpus.refused("too-many-pages.pdf", _pdf([_show("Page.")], [0] * (MAX_PDF_PAGES + 1)), "MAX_PDF_PAGES", "one page over MAX_PDF_PAGES")
    corpus.refused("nested-arrays.pdf", _pdf([_show("Hi.") + b" " + b"[" * 100_000], [0]), "RecursionError", "100,000 nested arrays in a content stream")
    corpus.refused("not-a-pdf.pdf", b"%PDF-1.4\nthis is not really a pdf\n", "not a readable PDF", "a PDF header and nothing else")
    corpus.refused("empty.pdf", b"", "file is empty", "an empty PDF file")


_WRITERS: tuple[Callable[[_Corpus], None], ...] = (_json_cases, _path_cases, _text_cases, _markdown_cases, _xml_cases, _pdf_cases)


def write_hostile_corpus(folder: Path) -> list[HostileCase]:
    """Write every hostile file under ``folder`` (created if needed) and return their cases."""
    corpus = _Corpus(folder)
    for writer in _WRITERS:
        writer(corpus)
    return corpus.cases


def write_large_text(folder: Path, megabytes: int = 50) -> HostileCase:
    """A plain-text file of ``megabytes`` MiB of prose, one emoji making its decoded text 4 bytes a character.

    It is far more than one paper, so the loader must refuse it: on its size when it
    is over MAX_INPUT_BYTES, else at MAX_SENTENCES, reading no further than that.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"large-{megabytes}mb.txt"
    paragraph = ("The soil dried fast in the summer heat. Roots then reached deeper for water. " * 6).strip() + "\n\n"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("A long file \U0001f9ea\n\n")
        for _ in range(megabytes * MIB // len(paragraph)):
            handle.write(paragraph)
    limit = "MAX_INPUT_BYTES" if path.stat().st_size > MAX_INPUT_BYTES else "MAX_SENTENCES"
    return HostileCase(path, "refused", f"{megabytes} MiB of prose", fragment=limit)
