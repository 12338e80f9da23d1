from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from claimgraph.errors import LoaderError
from claimgraph.loaders import load_document

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "papers" / "synthetic-street-trees.pdf"
IMAGE_ONLY = Path(__file__).resolve().parent / "fixtures" / "image-only.pdf"


def test_sample_pdf_sections_and_sentences() -> None:
    document = load_document(EXAMPLE)
    assert (document.paper_id, document.format) == ("synthetic-street-trees", "pdf")
    assert document.title == "Street trees and pavement heat in a synthetic city"
    assert [p.heading for p in document.passages] == ["", "Abstract", "Introduction", "Methods", "Results", "Discussion"]
    assert document.sentence(7).text == "We hypothesise that streets with more tree cover have cooler pavements in the afternoon."
    assert document.sentence(13).text == "Each additional 10 percent of tree cover was associated with a 1.2 degree lower pavement temperature."
    assert not any("imaginary survey" in s.text for s in document.sentences)  # the reference list is left out


def test_image_only_pdf_gets_an_ocr_hint() -> None:
    with pytest.raises(LoaderError, match=r"image-only.pdf: no extractable text in 1 page\(s\).*Run OCR first"):
        load_document(IMAGE_ONLY)


def test_a_file_that_is_not_a_pdf_is_refused(write) -> None:
    with pytest.raises(LoaderError, match=r"fake.pdf: not a readable PDF"):
        load_document(write("fake.pdf", b"%PDF-1.4\nthis is not really a pdf\n"))


def pdf_writer():
    """examples/make_sample_pdf.py, the script that wrote the sample PDF."""
    spec = importlib.util.spec_from_file_location("make_sample_pdf", ROOT / "examples" / "make_sample_pdf.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_long_sections_are_cut_into_passages_of_six_sentences(tmp_path: Path) -> None:
    text = " ".join(f"Sentence number {n} is here." for n in range(1, 15))
    path = tmp_path / "long.pdf"
    pdf_writer().write_text_pdf(path, [("2. Results", [text])], title=None)
    document = load_document(path)
    assert [len(p.sentences) for p in document.passages] == [6, 6, 2]
    assert {p.heading for p in document.passages} == {"Results"}


def test_a_reference_list_gives_references_with_the_dois_its_text_shows(tmp_path: Path) -> None:
    """Best effort: entries cut at their numbers; a DOI broken at a line end after '/' or '-' is joined again;
    bracketed numbers in the text cite the entries printed with them."""
    references = [
        "[1] Placeholder A. Imaginary lamps. J Synth Ex. 2001;1:1-2. doi:10.5555/lamps.2001",
        "[2] Placeholder B. Pores under blue light, a made-up review. J Synth Ex. 2002. https://doi.org/10.5555/",
        "pores-2002",
        "[3] Placeholder C. A book without a DOI. 1999.",
    ]
    path = tmp_path / "with-references.pdf"
    body = "Trees shade streets [1]. Leaves cool the air [2, 3]. Both hold in every city [1-3]. A year [2020] is no entry."
    pdf_writer().write_text_pdf(path, [("1. Introduction", [body]), ("References", references)], title=None)
    document = load_document(path)
    assert [(r.work.doi, r.work.year) for r in document.references.values()] == [
        ("10.5555/lamps.2001", "2001"), ("10.5555/pores-2002", "2002"), ("", "1999")]
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [1, 3], 2: [2, 3], 3: [2, 3]}
    assert document.references[3].label == "[3] Placeholder C. A book without a DOI. 1999."
    assert all("Placeholder" not in sentence.text for sentence in document.sentences)


def test_the_sample_pdfs_one_numbered_reference_is_read() -> None:
    document = load_document(EXAMPLE)
    assert [(n, r.label, r.work.year, r.work.doi) for n, r in document.references.items()] == [
        (1, "1. Placeholder A. An imaginary survey of imaginary streets. Journal of Examples 1, 1-2 (2000).", "2000", "")]


def test_an_unnumbered_reference_list_gives_one_reference_per_doi(tmp_path: Path) -> None:
    references = ["Ames A. First work. J Ex 2001. doi:10.5555/first", "Bell B. Second work, over", "two lines. 2002. 10.5555/second"]
    path = tmp_path / "author-year.pdf"
    pdf_writer().write_text_pdf(path, [("1. Introduction", ["Trees shade streets (Ames, 2001)."]), ("References", references)], title=None)
    document = load_document(path)
    assert [(r.work.doi, r.work.year) for r in document.references.values()] == [("10.5555/first", "2001"), ("10.5555/second", "2002")]
    assert document.references[2].label == "Bell B. Second work, over two lines. 2002. 10.5555/second"
