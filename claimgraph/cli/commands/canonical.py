"""``claimgraph canonicalize``, ``reindex``, ``unmerge``, ``release`` and ``consensus``: cross-paper links in the
canonical graph (CANON_ hubs and merges), their sidecar, undoing a link, lifting the verdicts that keep a node
apart, and agreement between runs of one paper."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.cli.options import add_llm_arguments, add_sidecar_options, config_from_args, open_graph
from claimgraph.cli.render import ROW_FORMATS, out, print_rows, print_table
from claimgraph.errors import ClaimgraphError

if TYPE_CHECKING:
    from pyoxigraph import NamedNode


def register(subparsers: argparse._SubParsersAction) -> None:
    canonicalize = subparsers.add_parser("canonicalize", help="link nodes across papers in the canonical graph (merges and CANON_ hubs)")
    canonicalize.add_argument("--paper", action="append", help="paper id (repeatable); default every paper not yet canonicalized")
    canonicalize.add_argument("--force", action="store_true", help="also search again for every node of already canonicalized papers that is neither linked nor held "
                                   "apart (those waiting as pending too, e.g. after `claimgraph release`)")
    canonicalize.add_argument("--list-merges", action="store_true", help="list the merges (skos:exactMatch links) and exit")
    canonicalize.add_argument("--format", choices=ROW_FORMATS, default="table", help="format of --list-merges")
    judge = canonicalize.add_mutually_exclusive_group()
    judge.add_argument("--adjudicate", action="store_true",
                       help="ask the LLM about candidates in the profile's [canonicalize.adjudicate] band (off by default)")
    judge.add_argument("--pair-model", type=Path, metavar="DIR",
                       help="let a cross-encoder saved in DIR judge the band instead (off by default; see docs/canonicalization.md)")
    canonicalize.add_argument("--recheck", action="store_true",
                              help="then put every link made by similarity alone to the judge: SAME confirms it, DIFFERENT undoes it "
                                   "(needs --adjudicate or --pair-model)")
    add_sidecar_options(canonicalize)
    add_llm_arguments(canonicalize)
    canonicalize.set_defaults(handler=run_canonicalize)

    reindex = subparsers.add_parser("reindex", help="repair hub counts in the canonical graph and rebuild the sidecar from the store")
    add_sidecar_options(reindex)
    reindex.set_defaults(handler=run_reindex)

    unmerge = subparsers.add_parser("unmerge", help="undo a merge or a hub attachment (the canonical graph only; audited)")
    target = unmerge.add_mutually_exclusive_group(required=True)
    target.add_argument("--member", metavar="IRI", help="take this node out of the CANON_ node it is linked to")
    target.add_argument("--hub", metavar="IRI", help="dissolve this CANON_ node: every member is taken out")
    unmerge.add_argument("--reason", default="", help="why, recorded in the audit activity")
    unmerge.set_defaults(handler=run_unmerge)

    release = subparsers.add_parser("release", help="lift the verdicts that keep a node apart (an unmerge, a judge's DIFFERENT; audited)")
    release.add_argument("--node", required=True, metavar="IRI", help="the node held apart")
    release.add_argument("--from", dest="other", metavar="IRI", help="only the verdicts naming this CANON_ node or node")
    release.add_argument("--reason", default="", help="why, recorded in the audit activity")
    release.set_defaults(handler=run_release)

    consensus = subparsers.add_parser("consensus", help="align the run graphs of one paper and write where runs agree")
    consensus.add_argument("--paper", required=True, metavar="ID", help="id of a paper in the store")
    consensus.add_argument("--snapshot", metavar="NAME", help="first keep the paper graph as it is now as run NAME")
    consensus.add_argument("--import", dest="imports", action="append", default=[], metavar="NAME=FILE",
                           help="first load run NAME from an RDF file (Turtle, N-Triples, RDF/XML; repeatable)")
    consensus.add_argument("--min-runs", type=int, default=2, help="runs that must support a node or edge for it to be kept (default 2)")
    consensus.add_argument("--similarity", type=float, default=0.85,
                           help="cosine at which nodes of different runs without a shared anchor align (default 0.85)")
    consensus.add_argument("--embedder", help="embedder for aligning node texts; default the profile's [canonicalize] embedder")
    consensus.set_defaults(handler=run_consensus)


def run_canonicalize(args: argparse.Namespace) -> int:
    if args.list_merges:
        from claimgraph.rdf.queries import read_named_query

        with open_graph(args, read_only=True) as graph:
            columns = ["canonical", "type", "member", "paper", "similarity"]
            print_rows(columns, graph.select(read_named_query("merges")), args.format, title="merges")
        return 0
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_canonicalization

    adjudicate = config_from_args(args) if args.adjudicate else None
    with open_graph(args, progress=TerminalProgress()) as graph:
        outcome = graph.canonicalize(args.paper, force=args.force, adjudicate=adjudicate, pair_model=args.pair_model, recheck=args.recheck)
    print_canonicalization(outcome)
    return 0


def run_reindex(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.rdf.vocab import local_name

    with open_graph(args, progress=TerminalProgress()) as graph:
        summary = graph.reindex()
    rows: list[list[object]] = [["sidecar", summary.directory or "(in memory, not written)"],
                                ["papers covered", summary.covered], ["texts embedded (not cached)", summary.embedded]]
    for name, size in summary.partitions.items():
        role, type_iri = name.split(" ", 1)
        rows.append([f"indexed {role}: {local_name(type_iri)}", size])
    rows += [["split CANON_ nodes folded into another", summary.splits.folded],
             ["split groups left (a merge would join two nodes of one paper)", len(summary.splits.kept)]]
    print_table(["measure", "value"], rows, title="reindex")
    return 0


def run_unmerge(args: argparse.Namespace) -> int:
    member = _iri(args.member) if args.member else None
    hub = _iri(args.hub) if args.hub else None
    with open_graph(args) as graph:
        undone = graph.unmerge(member=member, hub=hub, reason=args.reason)
    if not undone:
        out(f"# already unmerged: <{args.member or args.hub}> is held apart and no link is left to undo")
        return 0
    rows = [[link.member, link.link, link.hub, link.paper, link.similarity] for link in undone]
    print_table(["member", "link", "canonical node", "paper", "similarity"], rows, title="unmerged")
    out(f"# {len(undone)} link(s) undone; the sidecar is rebuilt on the next canonicalize run")
    return 0


def run_release(args: argparse.Namespace) -> int:
    node, other = _iri(args.node), _iri(args.other) if args.other is not None else None
    with open_graph(args) as graph:
        released = graph.release(node, other, reason=args.reason)
        papers = sorted({paper for v in released.lifted if v.paper and (paper := graph.ctx.iris.paper_id_of(_iri(v.paper)))})
    if not released.lifted:
        out(f"# already released: no verdict keeps <{node.value}> apart{f' from <{other.value}>' if other else ''}")
        return 0
    columns = ["node", "verdict", "other", "judge"]
    print_table(columns, [[v.node, v.kind, v.other, v.judge or ""] for v in released.lifted], title="released")
    if released.still_apart:
        print_table(columns, [[v.node, v.kind, v.other, v.judge or ""] for v in released.still_apart],
                    title="still keeping the same two texts apart (release these too to let the texts meet)")
    for verdict in released.unaudited:
        out(f"# not audited: the paper of {verdict.node} is no longer stored")
    out(f"# {len(released.lifted)} verdict(s) lifted; `claimgraph canonicalize --force"
        f"{''.join(f' --paper {paper}' for paper in papers)}` searches again for the nodes of these papers that are "
        "neither linked nor held apart")
    return 0


def _iri(value: str) -> NamedNode:
    """An IRI given on the command line, or a one-line error naming it."""
    from pyoxigraph import NamedNode

    try:
        return NamedNode(value)
    except ValueError as error:
        raise ClaimgraphError(f"not an IRI: {value!r} ({error})") from error


def run_consensus(args: argparse.Namespace) -> int:
    imports: list[tuple[str, Path]] = []
    for item in args.imports:
        name, separator, path = item.partition("=")
        if not separator or not name or not path:
            raise ClaimgraphError(f"--import {item!r}: expected NAME=FILE")
        imports.append((name, Path(path)))
    with open_graph(args) as graph:
        result = graph.consensus(args.paper, snapshot=args.snapshot, imports=imports, min_runs=args.min_runs,
                                 similarity=args.similarity, embedder=args.embedder)
    print_table(["measure", "value"], result.rows(), title=f"consensus of {args.paper}")
    return 0
