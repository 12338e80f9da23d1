"""``claimgraph link`` (nodes to external ontology terms) and ``claimgraph load`` (external RDF into a named graph)."""

from __future__ import annotations

import argparse
from pathlib import Path

from claimgraph.cli.options import open_graph
from claimgraph.cli.render import err, print_table
from claimgraph.errors import ClaimgraphError

LINKED_TYPES = ("Factor", "Variable", "StudyDesign", "StatisticalMethod")
SYNTAXES = ("turtle", "ntriples", "n3", "rdfxml", "trig", "nquads", "jsonld")


def register(subparsers: argparse._SubParsersAction) -> None:
    link = subparsers.add_parser(
        "link", help="link Factor/Variable/StudyDesign/StatisticalMethod nodes to an ontology's terms (skos:exactMatch/closeMatch)",
        description="Loads the ontology (OWL in Turtle or RDF/XML, OBO-as-OWL, SKOS) into its own named graph, or copies a remote "
                    "endpoint's terms with SPARQL SERVICE, then links nodes by label, synonym and embedding similarity. "
                    "Shipped queries: papers-by-ontology-term, ontology-terms-across-papers.",
    )
    source = link.add_mutually_exclusive_group(required=True)
    source.add_argument("--ontology", type=Path, metavar="FILE", help="ontology file (.ttl, .owl/.rdf RDF/XML, .nt, .jsonld)")
    source.add_argument("--endpoint", metavar="URL", help="SPARQL endpoint holding the ontology (queried with SERVICE)")
    link.add_argument("--name", help="name of the ontology's graphs (default: the file name or the endpoint's host)")
    link.add_argument("--format", choices=SYNTAXES, help="RDF syntax of FILE when its suffix does not tell")
    link.add_argument("--type", action="append", choices=LINKED_TYPES, dest="types", help="node type to link (repeatable; default all four)")
    link.add_argument("--embedder", help="minilm (default) | hashing[:DIM] | openai:MODEL | st:PATH | none (labels and synonyms only)")
    link.add_argument("--close-threshold", type=float, default=0.8, metavar="COSINE",
                      help="least cosine similarity for an embedding closeMatch (default %(default)s)")
    link.add_argument("--list", action="store_true", help="list every link made")
    link.set_defaults(handler=run_link)

    load = subparsers.add_parser("load", help="load an external RDF file into a named graph of the store (replacing that graph)")
    load.add_argument("file", type=Path)
    load.add_argument("--graph", help="target graph IRI (default <base>graph/external/<file name>; a TriG/N-Quads file keeps its graphs)")
    load.add_argument("--format", choices=SYNTAXES, help="RDF syntax when the file suffix does not tell")
    load.set_defaults(handler=run_load)


def default_name(args: argparse.Namespace) -> str:
    from urllib.parse import urlsplit

    if args.name:
        return str(args.name)
    if args.ontology is not None:
        return args.ontology.name.split(".")[0] or "ontology"
    return urlsplit(args.endpoint).netloc or "endpoint"


def run_link(args: argparse.Namespace) -> int:
    from claimgraph.federation.linker import OntologySource
    from claimgraph.federation.matching import MatchSettings

    if not 0.0 < args.close_threshold <= 1.0:
        raise ClaimgraphError("--close-threshold must be in (0, 1]")
    source = OntologySource(default_name(args), args.ontology, args.endpoint, args.format)
    with open_graph(args) as graph:
        report = graph.link(source, embedder=args.embedder, settings=MatchSettings(close_threshold=args.close_threshold), types=args.types)
    rows: list[list[object]] = [["ontology graph", report.ontology.value], ["links graph", report.links.value], ["terms", report.terms],
            ["candidate nodes", report.candidates], ["skos:exactMatch", report.count("exactMatch")],
            ["skos:closeMatch", report.count("closeMatch")], ["papers with links", len(report.papers)]]
    print_table(["measure", "value"], rows, f"links to {source.described}")
    if args.list:
        print_table(["node", "relation", "term", "score", "method", "matched label", "text"],
                    [[m.mention.key, m.relation, m.term, m.score, m.method, m.matched_label, m.mention.text] for m in report.matches], "links")
    return 0


def run_load(args: argparse.Namespace) -> int:
    from pyoxigraph import NamedNode

    try:
        graph = NamedNode(args.graph) if args.graph else None
    except ValueError as error:
        raise ClaimgraphError(f"--graph {args.graph!r} is not an IRI: {error}") from error
    with open_graph(args) as store:
        result = store.load(args.file, graph, args.format)
    for name, triples in sorted(result.graphs.items()):
        err(f"loaded {triples:,} triples into <{name}>")
    return 0
