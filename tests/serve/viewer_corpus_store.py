"""A small store with hand-placed links of every kind between five papers, for the corpus view's tests.

Papers a, b, c, d, e. Hubs: heat (a, b), rain (a, b, c), alone (e only). Terms: T1 (a, c), T2 (d only).
Citations: a cites b, d cites a paper not stored. Works: w1 (a, b), w2 (a, d), w3 (c only). So the links
are exactly: hub a-b 2, hub a-c 1, hub b-c 1, term a-c 1, citation a-b 1, shared-citation a-b 1 and a-d 1.
"""

from __future__ import annotations

from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, CITO, DCTERMS, RDF, RDFS, SKOS
from claimgraph.store import EmbeddedStore

IRIS = IriScheme()
VOID_LINKSET = NamedNode("http://rdfs.org/ns/void#Linkset")
VOID_TARGET = NamedNode("http://rdfs.org/ns/void#objectsTarget")
ONTOLOGY = NamedNode(f"{IRIS.base}graph/ontology/sample")
LINKS = NamedNode(f"{IRIS.base}graph/links/sample")
CITATIONS = NamedNode(f"{IRIS.base}graph/citations")
TERM_1 = NamedNode("http://example.org/onto/T1")
TERM_2 = NamedNode("http://example.org/onto/T2")
HUB_1 = IRIS.canonical_node("Factor", "heat")
HUB_2 = IRIS.canonical_node("Factor", "rain")
HUB_3 = IRIS.canonical_node("Claim", "alone")


def node(paper: str, name: str) -> NamedNode:
    return IRIS.node(paper, "node", name)


def work(key: str) -> NamedNode:
    return NamedNode(f"{IRIS.base}work/{key}")


def paper_graph(paper: str, category: str, year: str, nodes: list[str], works: list[str]) -> list[Triple]:
    iri = IRIS.paper(paper)
    triples = [Triple(iri, RDF.type, CG.Paper), Triple(iri, DCTERMS.title, Literal(f"Title of {paper}")),
               Triple(iri, CG.assignedCategory, Literal(category)), Triple(iri, CG.publishedTime, Literal(year))]
    for name in nodes:
        triples += [Triple(node(paper, name), RDF.type, CG.Factor), Triple(node(paper, name), CG.text, Literal(f"{name} of {paper}"))]
    for number, key in enumerate(works, start=1):
        reference = IRIS.node(paper, "reference", str(number))
        triples += [Triple(reference, RDF.type, CG.Reference), Triple(iri, CITO.cites, reference), Triple(reference, CG.citedWork, work(key))]
    return triples


def build(path: Path) -> None:
    """Write the store described above into a new embedded store at ``path``."""
    graphs = {
        IRIS.paper("a"): paper_graph("a", "Biology", "2021-05-01", ["n1", "n2"], ["w1", "w2"]),
        IRIS.paper("b"): [*paper_graph("b", "Biology", "2022", ["n1", "n2"], ["w1"]), Triple(node("b", "n1"), SKOS.exactMatch, HUB_1)],  # a merge, stated in the member's paper graph
        IRIS.paper("c"): paper_graph("c", "Physics", "", ["n1", "n2"], ["w3"]),
        IRIS.paper("d"): paper_graph("d", "Physics", "n.d.", ["n1"], ["w2"]),
        IRIS.paper("e"): paper_graph("e", "Physics", "2020", ["n1"], []),
        IRIS.canonical_graph(): [
            *(t for hub, kind, text in ((HUB_1, CG.Factor, "heat"), (HUB_2, CG.Factor, "rain"), (HUB_3, CG.Claim, "alone"))
              for t in (Triple(hub, RDF.type, CG.CanonicalNode), Triple(hub, CG.memberType, kind), Triple(hub, CG.representativeText, Literal(text)))),
            Triple(node("a", "n1"), CG.mentions, HUB_1),
            Triple(node("a", "n2"), CG.mentions, HUB_2), Triple(node("b", "n2"), CG.mentions, HUB_2),
            Triple(node("c", "n1"), CG.mentions, HUB_2), Triple(node("e", "n1"), CG.mentions, HUB_3),
        ],
        LINKS: [Triple(LINKS, RDF.type, VOID_LINKSET), Triple(LINKS, VOID_TARGET, ONTOLOGY),
                Triple(node("a", "n1"), SKOS.exactMatch, TERM_1), Triple(node("c", "n2"), SKOS.closeMatch, TERM_1),
                Triple(node("d", "n1"), SKOS.exactMatch, TERM_2)],
        ONTOLOGY: [Triple(TERM_1, RDFS.label, Literal("temperature")), Triple(TERM_2, RDFS.label, Literal("moisture"))],
        CITATIONS: [Triple(IRIS.paper("a"), CITO.cites, IRIS.paper("b")), Triple(IRIS.paper("d"), CITO.cites, NamedNode(f"{IRIS.base}paper/absent"))],
    }
    with EmbeddedStore(path) as store:
        store.replace_graphs(graphs)
