"""Reading the store: ``query``, ``stats``, ``audit``, ``diff`` and ``export``.

These commands only read, so an embedded store is opened read-only: they run
while another process writes it, and never change it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.cli.options import open_context
from claimgraph.cli.render import ROW_FORMATS, err, out, print_rows, print_table
from claimgraph.errors import ClaimgraphError

if TYPE_CHECKING:
    from claimgraph.rdf.binding import Term

EXPORT_FORMATS = ("trig", "ttl", "nq", "nt", "jsonld", "dot", "graphml", "nanopub")
_UPDATE = re.compile(r"^(?:INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)$", re.IGNORECASE)


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
    export.add_argument("-o", "--output", type=Path,
                        help="output file; default standard output (nanopub: an existing folder gets one .trig file per nanopublication)")
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


def check_query(sparql: str, bindings: dict[str, Term], allowed_services: list[str]) -> None:
    """Refuse updates, unknown bound variables, and SERVICE calls to endpoints the user did not allow."""
    from claimgraph.rdf.binding import tokenize, variables

    tokens = [token for token in tokenize(sparql) if token.kind not in ("space", "comment")]
    words = [token.text for token in tokens if token.kind == "word" and token.text.upper() not in ("PREFIX", "BASE")]
    if words and _UPDATE.match(words[0]):
        raise ClaimgraphError(
            "`claimgraph query` runs queries, not updates: the store changes only through audited commands "
            "(ingest, repair, canonicalize); to change it by hand use `claimgraph serve --update-token` or the Python API"
        )
    unknown = sorted(set(bindings) - variables(sparql))
    if unknown:
        raise ClaimgraphError(f"--bind {unknown[0]}: the query has no variable ?{unknown[0]}")
    for position, token in enumerate(tokens):
        if token.kind == "word" and token.text.upper() == "SERVICE":
            target = tokens[position + 1] if position + 1 < len(tokens) else None
            if target is not None and target.kind == "word" and target.text.upper() == "SILENT":
                target = tokens[position + 2] if position + 2 < len(tokens) else None
            endpoint = target.text[1:-1] if target is not None and target.kind == "iri" else None
            if endpoint is None or endpoint not in allowed_services:
                shown = endpoint or (target.text if target else "(nothing)")
                raise ClaimgraphError(f"the query calls SERVICE {shown}, which is not allowed; pass --allow-service {shown} to permit it")


def run_query(args: argparse.Namespace) -> int:
    from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions

    from claimgraph.rdf.queries import list_named_queries, query_description, resolve_query
    from claimgraph.store import ntriples

    if args.list or not args.query:
        print_table(["name", "description"], [[name, query_description(path)] for name, path in list_named_queries().items()], "shipped queries")
        return 0
    sparql = resolve_query(args.query)
    bindings = dict(parse_binding(item) for item in args.bind)
    check_query(sparql, bindings, args.allow_service)
    with open_context(args, read_only=True) as ctx:
        result = ctx.store.query(sparql, bindings)
        if isinstance(result, (QuerySolutions, QueryBoolean)) and args.format != "table":
            sys.stdout.buffer.write(result.serialize(format=getattr(QueryResultsFormat, args.format.upper())) or b"")
            sys.stdout.write("\n")
        elif isinstance(result, QuerySolutions):
            columns = [variable.value for variable in result.variables]
            rows = [{name: solution[name] for name in columns if solution[name] is not None} for solution in result]
            print_rows(columns, rows, "table")
        elif isinstance(result, QueryBoolean):
            out("true" if bool(result) else "false")
        else:
            sys.stdout.write(ntriples(result))
    return 0


# ---------------------------------------------------------------- stats, audit, diff


def run_stats(args: argparse.Namespace) -> int:
    from pyoxigraph import Literal

    from claimgraph.rdf.queries import read_named_query
    from claimgraph.rdf.vocab import XSD

    with open_context(args, read_only=True) as ctx:
        if args.convergence:
            from claimgraph.canonical.convergence import convergence

            measures = convergence(ctx).rows()
            figures: list[dict[str, Term]] = [{"measure": Literal(name), "value": Literal(str(value), datatype=XSD.integer)} for name, value in measures]
            print_rows(["measure", "value"], figures, args.format, title=f"convergence of {ctx.store.location}")
            return 0
        rows = ctx.store.select(read_named_query("store-totals"))
        rows += [{"measure": row["type"], "value": row["nodes"]} for row in ctx.store.select(read_named_query("nodes-per-type"))]
        print_rows(["measure", "value"], rows, args.format, title=f"store {ctx.store.location}")
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from claimgraph.papers.audit_trail import audit_trail

    with open_context(args, read_only=True) as ctx:
        trail = audit_trail(ctx.store, ctx.iris, args.paper)
    if not trail:
        raise ClaimgraphError(f"no audit trail for paper {args.paper!r}: is it in the store? (claimgraph stats, claimgraph ingest)")

    def pairs(values: object) -> str:
        return ", ".join(f"{name}={value}" for name, value in values.items())  # type: ignore[attr-defined]

    rows = [[entry["sequence"], entry["kind"], entry["name"], pairs(entry["counts"]), pairs(entry["notes"]), len(entry["touched"])]  # type: ignore[arg-type]
            for entry in trail]
    print_table(["#", "kind", "name", "counts", "notes", "touched"], rows, f"audit trail of {args.paper}")
    if args.touched:
        for entry in trail:
            for iri in entry["touched"]:  # type: ignore[attr-defined]
                out(f"{entry['sequence']}\t{entry['name']}\t{iri}")
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from pyoxigraph import Triple

    from claimgraph.rdf.queries import read_internal_query
    from claimgraph.store import ntriples

    with open_context(args, read_only=True) as ctx:
        raw, paper = ctx.iris.raw_graph(args.paper), ctx.iris.paper(args.paper)
        if not ctx.store.has_graph(raw):
            raise ClaimgraphError(f"paper {args.paper!r} has no raw graph in the store at {ctx.store.location}; ingest it first")
        rows = ctx.store.select(read_internal_query("graph-diff"), {"from": raw, "to": paper})
    for change, sign in (("added", "+"), ("removed", "-")):
        triples = [Triple(row["s"], row["p"], row["o"]) for row in rows if row["change"].value == change]  # type: ignore[arg-type]
        for line in ntriples(triples).splitlines():
            out(f"{sign} {line}")
    added = sum(1 for row in rows if row["change"].value == "added")
    out(f"# {added} added, {len(rows) - added} removed (raw -> repaired)")
    return 0


# ---------------------------------------------------------------- export


def run_export(args: argparse.Namespace) -> int:
    from claimgraph.publish.export import export

    if args.format == "nanopub" and args.output is not None and args.output.is_dir():
        return run_nanopub_folder(args)
    kinds = [kind.strip() for kind in args.graphs.split(",") if kind.strip()]
    with open_context(args, read_only=True) as ctx:
        data = export(ctx, args.format, args.paper, kinds, everything=args.all, evaluation_view=args.evaluation_view, nanopub_unit=args.nanopub_unit)
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
    from claimgraph.papers.document_graph import stored_paper_ids
    from claimgraph.publish.export import selected_graphs
    from claimgraph.publish.nanopub import nanopublications, write_folder

    with open_context(args, read_only=True) as ctx:
        papers = args.paper or stored_paper_ids(ctx.store, ctx.iris)
        selected_graphs(ctx.store, papers, ctx.iris, ("paper",))
        written = write_folder(nanopublications(ctx, papers, args.nanopub_unit), args.output)
    err(f"wrote {len(written)} nanopublications to {args.output}")
    return 0
