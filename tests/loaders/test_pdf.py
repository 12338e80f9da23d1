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
