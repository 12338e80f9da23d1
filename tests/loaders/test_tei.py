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


def test_bibl_structs_give_references_with_their_fields_and_the_papers_own_identifiers(write) -> None:
    from claimgraph.loaders.document import Bibliographic

    bibl = (
        '<biblStruct xml:id="b0"><analytic><title level="a" type="main">Sleep and memory</title>'
        '<author><persName><forename>A</forename><surname>Walker</surname></persName></author>'
        '<author><persName><surname>Second</surname></persName></author>'
        '<idno type="DOI">10.1038/NRN.2017.1</idno><idno type="PMID">28000000</idno></analytic>'
        '<monogr><title level="j">Nature Reviews Neuroscience</title><imprint><date type="published" when="2017-03-01"/></imprint></monogr></biblStruct>'
        '<biblStruct><monogr><title level="m">A book on sleep</title><author><persName><surname>Roe</surname></persName></author>'
        '<imprint><date type="published" when="1999"/></imprint></monogr></biblStruct>'
    )
    content = (
        f'<TEI xmlns="{TEI}"><teiHeader><fileDesc><titleStmt><title>Own</title></titleStmt><sourceDesc><biblStruct>'
        '<analytic><author><persName><surname>Self</surname></persName><affiliation>Somewhere</affiliation></author>'
        '<idno type="DOI">10.1000/own.tei</idno></analytic><monogr><imprint><date type="published" when="2020"/></imprint></monogr>'
        '</biblStruct></sourceDesc></fileDesc></teiHeader><text><body><div><head>Intro</head>'
        '<p>Sleep helps memory <ref type="bibr" target="#b0">[1]</ref>. Books say so too.</p></div></body>'
        f'<back><div type="references"><listBibl>{bibl}</listBibl></div></back></text></TEI>'
    )
    document = load_document(write("own.tei.xml", content))
    assert (document.metadata["doi"], document.year, document.first_author) == ("10.1000/own.tei", "2020", "Self")
    assert document.references[1].work == Bibliographic(
        doi="10.1038/NRN.2017.1", pmid="28000000", title="Sleep and memory", year="2017", first_author="Walker",
        journal="Nature Reviews Neuroscience")
    assert document.references[2].work == Bibliographic(title="A book on sleep", year="1999", first_author="Roe")
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [1], 2: []}
