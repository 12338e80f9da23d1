from __future__ import annotations

from pathlib import Path

from claimgraph.loaders import load_document

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "papers" / "synthetic-sleep-recall.tei.xml"
TEI = "http://www.tei-c.org/ns/1.0"


def test_sample_tei_sections_sentences_and_citations() -> None:
    document = load_document(EXAMPLE)
    assert (document.paper_id, document.format) == ("synthetic-sleep-recall", "tei")
    assert document.title == "Sleep length and word recall in a synthetic cohort"
    assert [p.heading for p in document.passages] == ["Abstract", "Introduction", "Methods", "Results", "Discussion"]
    assert document.sentence(1).text == "This paper is synthetic."
    assert document.sentence(6).text == "What is the effect of one extra hour of sleep on recall?"
    assert all("caption" not in s.text for s in document.sentences)
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [4, 11], 2: [5]}
    assert document.references[2].label.startswith("Attention in made-up students Journal")


def test_reference_and_acknowledgement_divisions_are_not_body_text(write) -> None:
    content = (
        f'<TEI xmlns="{TEI}"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt></fileDesc></teiHeader>'
        '<text><body><div><head>Results</head><p>Body sentence.</p></div>'
        '<div type="acknowledgement"><p>Thanks to nobody.</p></div></body></text></TEI>'
    )
    document = load_document(write("paper.tei.xml", content))
    assert document.paper_id == "paper"
    assert [(p.heading, p.text) for p in document.passages] == [("Results", "Body sentence.")]
