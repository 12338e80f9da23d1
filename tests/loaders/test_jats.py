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
