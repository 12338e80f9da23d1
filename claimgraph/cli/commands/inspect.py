"""Reading the store: ``query``, ``stats``, ``audit``, ``diff`` and ``export``.

These commands only read, so an embedded store is opened read-only: they run
while another process writes it, and never change it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.cli.options import open_graph
from claimgraph.cli.render import ROW_FORMATS, err, out, print_rows, print_table
from claimgraph.errors import ClaimgraphError

if TYPE_CHECKING:
    from claimgraph.rdf.binding import Term
    from claimgraph.store import QueryResult

EXPORT_FORMATS = ("trig", "ttl", "nq", "nt", "jsonld", "dot", "graphml", "nanopub")


def register(subparsers: argparse._SubParsersAction) -> None:
    query = subparsers.add_parser("query", help="run a SPARQL query across papers")
    query.add_argument("query", nargs="?", help="SPARQL text, a .rq file, or the name of a shipped query")
    query.add_argument("--format", choices=ROW_FORMATS, default="table", help="table, or a W3C SPARQL results format")
    query.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                       help="bind ?NAME: <iri> gives an IRI, an integer xsd:integer, true or false xsd:boolean, "
                            "anything else a string")
    query.add_argument("--allow-service", action="append", default=[], metavar="URL",
                       help="let SERVICE clauses call this endpoint (repeatable); any other SERVICE is refused")
    query.add_argument("--list", action="store_true", help="list the shipped queries")
    query.set_defaults(handler=run_query)

    stats = subparsers.add_parser("stats", help="papers, triples and nodes per type")
    stats.add_argument("--format", choices=ROW_FORMATS, default="table")
    stats.add_argument("--convergence", action="store_true",
                       help="cross-paper convergence: nodes per type, CANON_ hubs, attached nodes, merges, components")
    stats.set_defaults(handler=run_stats)

    audit = subparsers.add_parser("audit", help="print a paper's audit trail")
    audit.add_argument("--paper", required=True, help="paper id")
    audit.add_argument("--touched", action="store_true", help="also list every IRI each activity touched")
    audit.set_defaults(handler=run_audit)

    diff = subparsers.add_parser("diff", help="what repair changed in a paper: raw graph vs repaired paper graph")
    diff.add_argument("--paper", required=True, help="paper id")
    diff.set_defaults(handler=run_diff)

    export = subparsers.add_parser("export", help="export paper graphs")
    export.add_argument("--format", choices=EXPORT_FORMATS, default="trig")
    export.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    export.add_argument("--graphs", default="paper", help="comma-separated graph kinds per paper: paper,raw,audit (default paper)")
    export.add_argument("--all", action="store_true", help="every named graph in the store (canonical hubs too)")
    export.add_argument("--evaluation-view", action="store_true", help="dot: leave the scaffolding aggregation root and its edges out")
    export.add_argument("--nanopub-unit", choices=("claim", "paper"), default="claim",
                        help="nanopub: one nanopublication per claim (default) or per paper")
    export.add_argument("--merge-graphs", action="store_true",
                        help="ttl, nt: merge several named graphs into one on purpose (without it they are refused: use trig or nq)")
    export.add_argument("-o", "--output", type=Path,
                        help="output file; default standard output (an existing folder gets one .trig file per nanopublication "
                             "with nanopub, one .dot file per paper with dot)")
    export.set_defaults(handler=run_export)


# ---------------------------------------------------------------- query


def parse_binding(text: str) -> tuple[str, Term]:
    """``NAME=VALUE`` as a variable name and a term: ``<iri>`` an IRI, an integer xsd:integer, ``true`` or
    ``false`` xsd:boolean (a string "false" would count as true in a FILTER), else a string."""
    from pyoxigraph import Literal, NamedNode

    from claimgraph.rdf.vocab import XSD

    name, sep, value = text.partition("=")
    if not sep or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        raise ClaimgraphError(f"--bind {text!r}: expected NAME=VALUE")
    if value.startswith("<") and value.endswith(">"):
        try:
            return name, NamedNode(value[1:-1])
        except ValueError as error:
            raise ClaimgraphError(f"--bind {name}: invalid IRI {value}: {error}") from error
    if re.match(r"^-?\d{1,30}$", value):
        return name, Literal(value, datatype=XSD.integer)
    if value in ("true", "false"):
        return name, Literal(value, datatype=XSD.boolean)
    return name, Literal(value)


def run_query(args: argparse.Namespace) -> int:
    from claimgraph.rdf.queries import list_named_queries, query_description, resolve_query
    from claimgraph.store import evaluation_error

    if args.list or not args.query:
        print_table(["name", "description"], [[name, query_description(path)] for name, path in list_named_queries().items()], "shipped queries")
        return 0
    sparql = resolve_query(args.query)
    bindings = dict(parse_binding(item) for item in args.bind)
    with open_graph(args, read_only=True) as graph:
        try:
            print_result(graph.query(sparql, bindings), args.format)
        except RuntimeError as error:  # raised while results are read, e.g. a SERVICE answer the engine cannot read
            raise evaluation_error(error) from None
    return 0


def print_result(result: QueryResult, fmt: str) -> None:
    """A query's results on standard output in ``fmt`` (solutions and booleans; graphs as N-Triples)."""
    from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions

    from claimgraph.store import ntriples

    if isinstance(result, (QuerySolutions, QueryBoolean)) and fmt != "table":
        sys.stdout.buffer.write(result.serialize(format=getattr(QueryResultsFormat, fmt.upper())) or b"")
        sys.stdout.write("\n")
    elif isinstance(result, QuerySolutions):
        columns = [variable.value for variable in result.variables]
        rows = [{name: solution[name] for name in columns if solution[name] is not None} for solution in result]
        print_rows(columns, rows, "table")
    elif isinstance(result, QueryBoolean):
        out("true" if bool(result) else "false")
    else:
        sys.stdout.write(ntriples(result))


# ---------------------------------------------------------------- stats, audit, diff


def run_stats(args: argparse.Namespace) -> int:
    with open_graph(args, read_only=True) as graph:
        if args.convergence:
            print_measures(graph.convergence(), args.format, f"convergence of {graph.location}")
            return 0
        print_measures(graph.stats(), args.format, f"store {graph.location}")
    return 0


def print_measures(measures: list[tuple[str, int]], row_format: str, title: str) -> None:
    from pyoxigraph import Literal

    from claimgraph.rdf.vocab import XSD

    rows: list[dict[str, Term]] = [{"measure": Literal(name), "value": Literal(str(value), datatype=XSD.integer)} for name, value in measures]
    print_rows(["measure", "value"], rows, row_format, title=title)


def run_audit(args: argparse.Namespace) -> int:
    with open_graph(args, read_only=True) as graph:
        trail = graph.audit(args.paper)

    def pairs(values: Mapping[str, object]) -> str:
        return ", ".join(f"{name}={value}" for name, value in values.items())

    rows = [[entry["sequence"], entry["kind"], entry["name"], pairs(entry["counts"]), pairs(entry["notes"]), len(entry["touched"])]
            for entry in trail]
    print_table(["#", "kind", "name", "counts", "notes", "touched"], rows, f"audit trail of {args.paper}")
    if args.touched:
        for entry in trail:
            for iri in entry["touched"]:
                out(f"{entry['sequence']}\t{entry['name']}\t{iri}")
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from claimgraph.store import ntriples

    with open_graph(args, read_only=True) as graph:
        changes = graph.diff(args.paper)
    for triples, sign in ((changes.added, "+"), (changes.removed, "-")):
        for line in ntriples(triples).splitlines():
            out(f"{sign} {line}")
    out(f"# {len(changes.added)} added, {len(changes.removed)} removed (raw -> repaired)")
    return 0


# ---------------------------------------------------------------- export


def run_export(args: argparse.Namespace) -> int:
    if args.format == "nanopub" and args.output is not None and args.output.is_dir():
        return run_nanopub_folder(args)
    if args.format == "dot" and args.output is not None and args.output.is_dir():
        return run_dot_folder(args)
    kinds = [kind.strip() for kind in args.graphs.split(",") if kind.strip()]
    with open_graph(args, read_only=True) as graph:
        data = graph.export(args.format, args.paper, kinds, everything=args.all, evaluation_view=args.evaluation_view,
                            nanopub_unit=args.nanopub_unit, merge_graphs=args.merge_graphs)
    if args.output:
        partial = args.output.with_name(args.output.name + ".part")
        partial.write_bytes(data)
        partial.replace(args.output)
        err(f"wrote {len(data):,} bytes to {args.output}")
    else:
        sys.stdout.buffer.write(data)
    return 0


def run_nanopub_folder(args: argparse.Namespace) -> int:
    """``export --format nanopub -o FOLDER``: one TriG file per nanopublication."""
    from claimgraph.publish.export import selected_graphs
    from claimgraph.publish.nanopub import nanopublications, write_folder

    with open_graph(args, read_only=True) as graph:
        ctx = graph.ctx
        papers = args.paper or graph.papers()
        selected_graphs(ctx.store, papers, ctx.iris, ("paper",))
        written = write_folder(nanopublications(ctx, papers, args.nanopub_unit), args.output)
    err(f"wrote {len(written)} nanopublications to {args.output}")
    return 0


def run_dot_folder(args: argparse.Namespace) -> int:
    """``export --format dot -o FOLDER``: one .dot file per paper (DOT holds one graph), each rendered by ``dot -Tsvg``."""
    from claimgraph.publish.export import paper_dots

    with open_graph(args, read_only=True) as graph:
        dots = paper_dots(graph.ctx, args.paper, args.evaluation_view)
    for paper_id, text in dots.items():
        target = args.output / f"{paper_id}.dot"
        partial = target.with_name(target.name + ".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    err(f"wrote {len(dots)} DOT files to {args.output}")
    return 0
