"""A generated corpus store for the viewer's corpus view at scale: N papers with nodes, CANON_ hubs,
ontology-term links, citations between papers and cited works, written straight into a store.

The store has the shapes the corpus queries read (docs/viewer-api.md, "api/corpus"), not
extracted papers: each paper graph holds a cg:Paper with title, category and year, a few
Factor nodes and references naming cited works; the canonical graph attaches nodes to hubs;
a void:Linkset links nodes to ontology terms; ``<base>graph/citations`` says which paper
cites which. Random but seeded, so the same arguments give the same store.

    python -m claimgraph.testing.viewer.corpus_store OUT_STORE [--papers 1000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, CITO, DCTERMS, RDF, RDFS, SKOS
from claimgraph.store import EmbeddedStore

CATEGORIES = ("Biological sciences", "Physical sciences", "Earth sciences", "Health sciences", "Chemistry", "Engineering")
VOID = "http://rdfs.org/ns/void#"
NODES_PER_PAPER = 12
BATCH = 100
POPULAR_WORKS = 50  # a few works many papers cite, as in a real field
POPULAR_SHARE = 0.2


def paper_triples(iris: IriScheme, index: int, rng: random.Random, works: int) -> list[Triple]:
    paper_id = f"gen-{index:05d}"
    paper = iris.paper(paper_id)
    triples = [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.title, Literal(f"Generated paper {index}")),
               Triple(paper, CG.assignedCategory, Literal(CATEGORIES[index % len(CATEGORIES)])),
               Triple(paper, CG.publishedTime, Literal(f"{2015 + index % 10}-01-01"))]
    for number in range(rng.randint(NODES_PER_PAPER // 2, NODES_PER_PAPER * 2)):
        node = iris.node(paper_id, "node", f"n{number}")
        triples += [Triple(node, RDF.type, CG.Factor), Triple(node, CG.text, Literal(f"factor {number} of paper {index}"))]
    for number in range(1, rng.randint(5, 20)):
        reference = iris.node(paper_id, "reference", str(number))
        key = rng.randrange(POPULAR_WORKS) if rng.random() < POPULAR_SHARE else rng.randrange(works)
        work = NamedNode(f"{iris.base}work/w{key}")
        triples += [Triple(reference, RDF.type, CG.Reference), Triple(paper, CITO.cites, reference), Triple(reference, CG.citedWork, work)]
    return triples


def member(iris: IriScheme, rng: random.Random, papers: int) -> NamedNode:
    return iris.node(f"gen-{rng.randrange(papers):05d}", "node", f"n{rng.randrange(NODES_PER_PAPER // 2)}")


def canonical_triples(iris: IriScheme, rng: random.Random, papers: int) -> Iterator[Triple]:
    for number in range(papers * 2):
        hub = iris.canonical_node("Factor", f"g{number}")
        yield from (Triple(hub, RDF.type, CG.CanonicalNode), Triple(hub, CG.memberType, CG.Factor),
                    Triple(hub, CG.representativeText, Literal(f"generated hub {number}")))
        for _ in range(rng.randint(2, 4)):
            yield Triple(member(iris, rng, papers), CG.mentions, hub)


def link_triples(iris: IriScheme, rng: random.Random, papers: int, links: NamedNode, ontology: NamedNode) -> Iterator[Triple]:
    yield from (Triple(links, RDF.type, NamedNode(VOID + "Linkset")), Triple(links, NamedNode(VOID + "objectsTarget"), ontology))
    for number in range(papers // 2):
        term = NamedNode(f"http://example.org/generated-terms/T{number}")
        for _ in range(rng.randint(2, 5)):
            yield Triple(member(iris, rng, papers), SKOS.closeMatch, term)


def build(path: Path, papers: int = 1000, seed: int = 7, iris: IriScheme | None = None) -> None:
    """Write the generated corpus into a new embedded store at ``path``."""
    iris = iris or IriScheme()
    rng = random.Random(seed)
    links, ontology = NamedNode(f"{iris.base}graph/links/generated"), NamedNode(f"{iris.base}graph/ontology/generated")
    with EmbeddedStore(path) as store:
        for start in range(0, papers, BATCH):
            batch = range(start, min(start + BATCH, papers))
            store.replace_graphs({iris.paper(f"gen-{index:05d}"): paper_triples(iris, index, rng, papers * 3) for index in batch})
        citations = [Triple(iris.paper(f"gen-{index:05d}"), CITO.cites, iris.paper(f"gen-{rng.randrange(index):05d}"))
                     for index in range(1, papers) for _ in range(rng.randint(0, 3))]
        store.replace_graphs({
            iris.canonical_graph(): list(canonical_triples(iris, rng, papers)),
            links: list(link_triples(iris, rng, papers, links, ontology)),
            ontology: [Triple(NamedNode(f"http://example.org/generated-terms/T{number}"), RDFS.label, Literal(f"term {number}"))
                       for number in range(papers // 2)],
            NamedNode(f"{iris.base}graph/citations"): citations,
        })


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder of the new store (must not exist)")
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.out.exists():
        parser.error(f"{args.out} exists; give a new folder")
    build(args.out, args.papers, args.seed)
    print(f"wrote {args.papers} generated papers to {args.out}")


if __name__ == "__main__":
    main()
