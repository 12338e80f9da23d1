from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.context import Context
from claimgraph.errors import LoaderError
from claimgraph.loaders import load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "papers" / "synthetic-moss-light.xml"


def jats(body: str, back: str = "", meta: str = "<title-group><article-title>T</article-title></title-group>") -> str:
    return f'<?xml version="1.0"?><article><front><article-meta>{meta}</article-meta></front><body>{body}</body><back>{back}</back></article>'


def test_sample_jats_sections_sentences_and_citations() -> None:
    document = load_document(EXAMPLE)
    assert (document.paper_id, document.format) == ("synthetic-moss-light", "jats")
    assert document.title == "Light colour and growth of a moss in a synthetic greenhouse trial"
    assert [p.heading for p in document.passages] == ["Abstract", "Introduction", "Methods", "Statistics", "Results", "Discussion"]
    assert [s.index for s in document.sentences] == list(range(1, 15))
    assert document.sentence(4).text == "Mosses grow slowly under the red light of most greenhouse lamps [1]."
    assert document.sentence(10).text == "Each tray was one unit of analysis."  # the figure caption is left out
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [4, 12], 2: [5, 12]}
    assert document.references[1].label.startswith("Placeholder A. Imaginary lamps")


def test_sample_jats_graph_passes_the_shapes() -> None:
    iris, store = IriScheme(), EmbeddedStore()
    document = load_document(EXAMPLE)
    store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    report = validate_store(Context(store, iris), [document.paper_id])
    assert report.nodes_failed == 0 and not report.violations


def test_nested_sections_keep_order_and_untitled_sections_inherit_the_heading(write) -> None:
    body = "<sec><title>A</title><p>One here.</p><sec><p>Two here.</p></sec><p>Three here.</p></sec>"
    document = load_document(write("nested.nxml", jats(body)))
    assert [(p.heading, p.text) for p in document.passages] == [("A", "One here."), ("A", "Two here."), ("A", "Three here.")]


def test_citation_to_an_unknown_reference_is_ignored(write) -> None:
    body = '<p>Known <xref ref-type="bibr" rid="r1">1</xref> and unknown <xref ref-type="bibr" rid="zz">9</xref> here.</p>'
    back = '<ref-list><ref id="r1"><mixed-citation>Made up.</mixed-citation></ref></ref-list>'
    document = load_document(write("cites.xml", jats(body, back)))
    assert document.sentence(1).text == "Known 1 and unknown 9 here."
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [1]}


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("broken.xml", "<article><body><p>x</body></article>", "not well-formed XML (line 1, column"),
        ("other.xml", "<html><body>x</body></html>", "XML root element <html> is neither JATS <article> nor TEI <TEI>"),
        ("empty-body.xml", jats(""), "no sentences found"),
    ],
)
def test_bad_xml_is_refused_by_name(write, name: str, content: str, message: str) -> None:
    with pytest.raises(LoaderError) as info:
        load_document(write(name, content))
    assert name in str(info.value) and message in str(info.value)


def test_external_entities_are_refused_and_never_read(write, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    content = f'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY x SYSTEM "file://{secret}">]>' + jats("<p>Leak &x; here.</p>")[len('<?xml version="1.0"?>'):]
    with pytest.raises(LoaderError) as info:
        load_document(write("xxe.xml", content))
    assert "xxe.xml: declares XML entities (x)" in str(info.value)
    assert "TOP SECRET" not in str(info.value)


# ---------------------------------------------------------------- references and the paper's own identifiers

ELIFE = Path(__file__).resolve().parents[1] / "data" / "elife"
ELIFE_FILES = sorted(ELIFE.glob("*.xml")) if ELIFE.is_dir() else []
XLINK = "http://www.w3.org/1999/xlink"


def elife_files() -> list[Path]:
    if not ELIFE_FILES:
        pytest.skip(f"no eLife JATS articles in {ELIFE}")
    return ELIFE_FILES


def parsed(path: Path):
    from lxml import etree

    return etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))


@pytest.mark.corpus
def test_every_elife_reference_is_read_with_the_doi_pmid_and_year_the_xml_marks_up() -> None:
    """Read back with plain XPath over the file, not with the loader's element walk."""
    for path in elife_files():
        tree = parsed(path)
        refs = tree.xpath("/article/back/ref-list//ref")
        document = load_document(path)
        assert len(document.references) == len(refs), path.name
        for number, ref in enumerate(refs, start=1):
            work = document.references[number].work
            dois = ref.xpath(".//pub-id[@pub-id-type='doi']/text()")
            assert work.doi == (dois[0].strip() if dois else work.doi), f"{path.name} {ref.get('id')}"
            pmids = ref.xpath(".//pub-id[@pub-id-type='pmid']/text()")
            assert work.pmid == (pmids[0].strip() if pmids else ""), f"{path.name} {ref.get('id')}"
            years = ref.xpath(".//year/text()")
            assert work.year == (years[0].strip()[:4] if years else work.year), f"{path.name} {ref.get('id')}"
            surnames = ref.xpath(".//person-group[@person-group-type='author'][1]/*[1]/surname/text()")
            if surnames:
                assert work.first_author == surnames[0].strip(), f"{path.name} {ref.get('id')}"


@pytest.mark.corpus
def test_the_elife_papers_own_doi_is_read_and_becomes_its_work_key() -> None:
    iris = IriScheme()
    for path in elife_files():
        doi = parsed(path).xpath("/article/front/article-meta/article-id[@pub-id-type='doi']/text()")[0].strip()
        document = load_document(path)
        assert document.metadata["doi"] == doi
        triples = {(t.predicate.value, t.object.value) for t in document_triples(document, iris) if t.subject == iris.paper(document.paper_id)}
        assert ("https://w3id.org/claimgraph/ontology/v1#workKey", f"doi:{doi.lower()}") in triples
        assert ("http://purl.org/vocab/frbr/core#realizationOf", iris.cited_work(f"doi:{doi.lower()}").value) in triples


SKIPPED = " or ".join(f"ancestor::{name}" for name in ("fig", "table-wrap", "disp-formula", "fn", "supplementary-material"))


def body_paragraphs(tree) -> list:
    """The p elements the loader reads: those of each abstract and of the body, directly or in nested sec elements."""
    found, containers = [], tree.xpath("/article/front/article-meta/abstract | /article/body")
    while containers:
        container = containers.pop()
        found += container.xpath("./p")
        containers += container.xpath("./sec")
    return found


@pytest.mark.corpus
def test_every_elife_reference_an_xref_cites_is_cited_by_the_sentence_holding_the_xref() -> None:
    """The references some body paragraph's xref names (several ids in one rid each count, nested xrefs too)."""
    for path in elife_files():
        tree = parsed(path)
        ids = [ref.get("id") for ref in tree.xpath("/article/back/ref-list//ref")]
        cited = {rid for p in body_paragraphs(tree) for rids in p.xpath(f".//xref[@ref-type='bibr'][not({SKIPPED})]/@rid") for rid in rids.split()}
        document = load_document(path)
        read = {ids[number - 1] for number, reference in document.references.items() if reference.cited_by}
        assert read == cited & set(ids), path.name


def test_an_elife_citation_sentence_cites_its_reference(write) -> None:
    body = ('<p>Growth depends on light (<xref ref-type="bibr" rid="bib12">Smith et al., 2010</xref>). '
            'Two studies agree (<xref ref-type="bibr" rid="bib1 bib2">Ames, 2001; Bell, 2002</xref>). '
            'A group (<xref ref-type="bibr" rid="bib2"><xref ref-type="bibr" rid="bib1">Ames, 2001</xref>; Bell, 2002</xref>).</p>')
    back = "<ref-list>" + "".join(f'<ref id="bib{n}"><mixed-citation>Entry {n}.</mixed-citation></ref>' for n in (1, 2, 12)) + "</ref-list>"
    document = load_document(write("elife-like.xml", jats(body, back)))
    assert document.sentence(1).text == "Growth depends on light (Smith et al., 2010)."
    assert {n: r.cited_by for n, r in document.references.items()} == {1: [2, 3], 2: [2, 3], 3: [1]}


ELEMENT_CITATION = (
    '<ref id="r1"><element-citation publication-type="journal"><person-group person-group-type="editor"><name><surname>Ed</surname></name>'
    '</person-group><person-group person-group-type="author"><name><surname>Zhang</surname><given-names>H</given-names></name>'
    '<name><surname>Other</surname></name></person-group><year iso-8601-date="2014">2014a</year>'
    '<article-title>A <italic>title</italic> with markup</article-title><source>Cell Reports</source>'
    '<pub-id pub-id-type="doi">https://doi.org/10.1016/J.CELREP.2014.01.001</pub-id><pub-id pub-id-type="pmid">24412345</pub-id>'
    '<pub-id pub-id-type="pmcid">4012345</pub-id></element-citation></ref>'
    '<ref id="r2"><mixed-citation>Roe R. A book. Press; 1999. <ext-link ext-link-type="uri" xlink:href="https://doi.org/10.5555/book.7">link</ext-link></mixed-citation></ref>'
    '<ref id="r3"><element-citation publication-type="book"><collab>The Consortium</collab><source>Atlas of things</source><year>2003</year></element-citation></ref>'
)


def test_element_and_mixed_citations_give_their_bibliographic_fields(write) -> None:
    from claimgraph.loaders.document import Bibliographic

    back = f'<ref-list xmlns:xlink="{XLINK}">{ELEMENT_CITATION}</ref-list>'
    document = load_document(write("refs.xml", jats("<p>Nothing cited.</p>", back)))
    assert document.references[1].work == Bibliographic(
        doi="10.1016/J.CELREP.2014.01.001", pmid="24412345", pmcid="PMC4012345", title="A title with markup", year="2014",
        first_author="Zhang", journal="Cell Reports")
    assert document.references[2].work == Bibliographic(doi="10.5555/book.7", year="1999")
    assert document.references[3].work == Bibliographic(title="Atlas of things", year="2003", first_author="The Consortium")
    assert all(not reference.cited_by for reference in document.references.values())


def test_a_reference_node_carries_its_fields_and_cited_work(write) -> None:
    iris = IriScheme()
    meta = ('<article-id pub-id-type="doi">10.1000/Own.1</article-id><title-group><article-title>Own</article-title></title-group>'
            '<contrib-group><contrib contrib-type="author"><name><surname>Self</surname></name></contrib></contrib-group>'
            '<pub-date pub-type="epub"><day>1</day><year>2021</year></pub-date>')
    document = load_document(write("own.xml", jats("<p>Nothing cited.</p>", f'<ref-list xmlns:xlink="{XLINK}">{ELEMENT_CITATION}</ref-list>', meta)))
    triples = {(t.subject.value, t.predicate.value, t.object.value) for t in document_triples(document, iris)}
    reference, paper = iris.node("own", "reference", "1").value, iris.paper("own").value
    expected = {
        ("http://purl.org/ontology/bibo/doi", "10.1016/J.CELREP.2014.01.001"),
        ("http://purl.org/spar/fabio/hasPubMedId", "24412345"),
        ("http://purl.org/spar/fabio/hasPubMedCentralId", "PMC4012345"),
        ("http://purl.org/dc/terms/title", "A title with markup"),
        ("http://purl.org/spar/fabio/hasPublicationYear", "2014"),
        ("http://purl.org/dc/terms/creator", "Zhang"),
        ("http://prismstandard.org/namespaces/basic/2.0/publicationName", "Cell Reports"),
        ("https://w3id.org/claimgraph/ontology/v1#citedWork", iris.cited_work("doi:10.1016/j.celrep.2014.01.001").value),
    }
    assert expected <= {(p, o) for s, p, o in triples if s == reference}
    assert (iris.node("own", "reference", "3").value, "https://w3id.org/claimgraph/ontology/v1#citedWork",
            iris.cited_work("ref:atlasofthings-2003-theconsortium").value) in triples
    own = {(p, o) for s, p, o in triples if s == paper}
    assert {o for p, o in own if p.endswith("#workKey")} == {"doi:10.1000/own.1", "ref:own-2021-self"}
    assert ("http://purl.org/spar/fabio/hasPublicationYear", "2021") in own and ("http://purl.org/dc/terms/creator", "Self") in own


def test_a_jats_graph_with_bibliographic_references_passes_the_shapes(write) -> None:
    iris, store = IriScheme(), EmbeddedStore()
    document = load_document(write("shaped.xml", jats('<p>See <xref ref-type="bibr" rid="r1">1</xref>.</p>', f'<ref-list xmlns:xlink="{XLINK}">{ELEMENT_CITATION}</ref-list>')))
    store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    report = validate_store(Context(store, iris), [document.paper_id])
    assert report.nodes_failed == 0 and not report.violations
