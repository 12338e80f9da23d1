"""``claimgraph query``: run SPARQL text, a .rq file, or a shipped query by name."""

from __future__ import annotations

import argparse
import re

from pyoxigraph import Literal, NamedNode, QueryBoolean, QuerySolutions

from claimgraph.cli.commands import store_from
from claimgraph.cli.render import ROW_FORMATS, out, print_rows, print_table
from claimgraph.errors import ClaimgraphError
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import list_named_queries, query_description, resolve_query
from claimgraph.rdf.vocab import XSD
from claimgraph.store import ntriples


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("query", help="run a SPARQL query across papers")
    parser.add_argument("query", nargs="?", help="SPARQL text, a .rq file, or the name of a shipped query")
    parser.add_argument("--format", choices=ROW_FORMATS, default="table")
    parser.add_argument(
        "--bind",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="bind ?NAME: <iri> gives an IRI, an integer gives xsd:integer, anything else a string",
    )
    parser.add_argument("--list", action="store_true", help="list the shipped queries")
    parser.set_defaults(handler=run)


def parse_binding(text: str) -> tuple[str, Term]:
    name, sep, value = text.partition("=")
    if not sep or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        raise ClaimgraphError(f"--bind {text!r}: expected NAME=VALUE")
    if value.startswith("<") and value.endswith(">"):
        try:
            return name, NamedNode(value[1:-1])
        except ValueError as error:
            raise ClaimgraphError(f"--bind {name}: invalid IRI {value}: {error}") from error
    if re.match(r"^-?\d+$", value):
        return name, Literal(value, datatype=XSD.integer)
    return name, Literal(value)


def run(args: argparse.Namespace) -> int:
    if args.list or not args.query:
        print_table(["name", "description"], [[name, query_description(path)] for name, path in list_named_queries().items()], "shipped queries")
        return 0
    sparql = resolve_query(args.query)
    bindings = dict(parse_binding(item) for item in args.bind)
    with store_from(args) as store:
        result = store.query(sparql, bindings)
        if isinstance(result, QuerySolutions):
            columns = [variable.value for variable in result.variables]
            rows = [{name: solution[name] for name in columns if solution[name] is not None} for solution in result]
            print_rows(columns, rows, args.format)
        elif isinstance(result, QueryBoolean):
            out.print("true" if bool(result) else "false")
        else:
            out.print(ntriples(result), end="")
    return 0
