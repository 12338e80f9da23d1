"""Run a claimgraph command and SIGKILL it at a chosen write: the crash-safety tests' and bench/crash.py's tool.

A *write* is each update the process sends to its store and each file it
renames into place (the sidecar and the embedding cache save by writing a
temporary file, then ``os.replace``). Counting writes, not time, picks the
kill point, so a run is killed at the same place on a fast or a busy machine::

    python -m claimgraph.testing.crash --count OUT.json -- --store S ingest DIR
    python -m claimgraph.testing.crash --kill-at 7 [--during] -- --store S ingest DIR

``--count`` runs the command to its end and writes how many writes it made;
``--kill-at N`` sends SIGKILL to the process just before write N, or, with
``--during``, from a second thread as write N starts (so the kill lands while
the store applies it). The process dies exactly as a user's ``kill -9`` or an
out-of-memory kill would make it: no handler, no flush, no cleanup.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_state = {"writes": 0}

AfterWrite = Callable[[Any], None]
"""Called after each write with the store written to (None for a file renamed into place or an in-memory working copy)."""


def _kill_now() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _counting(original: Callable[..., Any], kill_at: int | None, during: bool, after: AfterWrite | None, store_write: bool) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _state["writes"] += 1
        if kill_at is not None and _state["writes"] == kill_at:
            if during:
                threading.Thread(target=_kill_now, daemon=True).start()
            else:
                _kill_now()
        result = original(*args, **kwargs)
        if after is not None:
            persistent = store_write and getattr(args[0], "location", "") != ":memory:"  # not a working copy in memory
            after(args[0] if persistent else None)
        return result

    return wrapper


def install(kill_at: int | None = None, during: bool = False, after_write: AfterWrite | None = None) -> None:
    """Count (and at ``kill_at``, kill at) every store update and every file renamed into place."""
    from claimgraph.store.embedded import EmbeddedStore
    from claimgraph.store.remote import RemoteStore

    EmbeddedStore._update = _counting(EmbeddedStore._update, kill_at, during, after_write, True)  # type: ignore[method-assign]
    RemoteStore._update = _counting(RemoteStore._update, kill_at, during, after_write, True)  # type: ignore[method-assign]
    os.replace = _counting(os.replace, kill_at, during, after_write, False)


def writes_so_far() -> int:
    return _state["writes"]


def state_digest(store: Any) -> dict[str, str]:
    """Each named graph's content as a digest, timestamps (xsd:dateTime values) left out: equal digests, equal graphs."""
    import hashlib

    from pyoxigraph import Literal

    from claimgraph.rdf.vocab import XSD

    lines: dict[str, list[str]] = {}
    for quad in store.quads():
        if isinstance(quad.object, Literal) and quad.object.datatype == XSD.dateTime:
            continue
        lines.setdefault(quad.graph_name.value, []).append(str(quad.triple))
    return {graph: hashlib.sha256("\n".join(sorted(found)).encode("utf-8")).hexdigest()[:20] for graph, found in lines.items()}


# ---------------------------------------------------------------- kill campaigns (tests/reliability, bench/crash.py)


AUDIT_LAGS = "audit lags"
"""The problem a store shows when a command stored content and was killed before it recorded the content's audit."""


@dataclass(frozen=True)
class Scenario:
    """A command to kill: ``prepare`` builds the store it starts from; ``argv`` is the command for a store folder."""

    name: str
    prepare: Callable[[Path], None]
    argv: Callable[[Path], list[str]]
    history_kept: bool = False
    """The command is several transactions per paper, so an interrupted attempt's audit activities stay in the
    paper's audit trail when a re-run heals it: healing then means every graph but the audit graphs equals a clean
    run's, and each audit trail holds the clean run's activities in order and ends as it does, its last activity (the
    record of what the command did) not repeated."""


@dataclass
class KillOutcome:
    """One kill: where, whether the process died by SIGKILL, the store it left, and the run that healed it."""

    write: int
    during: bool
    killed: bool = False
    left: str = ""
    """"before" / "after": the store equals the clean run's state before / after that write; "" when it equals neither."""
    unfinished: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    healed: bool = False


_CONTEXT: Any = None
PRELOAD = ["claimgraph.cli.main", "claimgraph.workflow", "claimgraph.quality.validation", "claimgraph.canonical.canonicalizer",
           "claimgraph.reasoning.peirce", "claimgraph.embedding.embedders"]


def _forkserver() -> Any:
    """A multiprocessing context whose children fork from a fresh server process with claimgraph imported.

    Not plain fork: a process that has used an embedded store holds RocksDB's
    background threads, which a forked child lacks (its store would wait for
    them for ever on close), and a test process has used stores.
    """
    global _CONTEXT
    if _CONTEXT is None:
        import multiprocessing

        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(PRELOAD)
    return _CONTEXT


def _child(argv: list[str], kill_at: int | None, during: bool, record: str | None, pause: Any, gate: Any) -> None:
    """The claimgraph command in a child process: counting writes, recording states, pausing, or dying as asked."""
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process ends right after
    if gate is not None:
        gate.wait()
    states: list[dict[str, str]] = []

    def after(store: Any) -> None:
        if record is not None:
            states.append(state_digest(store) if store is not None else states[-1])
            Path(record).write_text(json.dumps(states), encoding="utf-8")
        if pause is not None and store is not None:
            pause.send(writes_so_far())
            pause.recv()

    if record is not None:
        from claimgraph.settings import DEFAULT_STORE

        store_arg = argv[argv.index("--store") + 1] if "--store" in argv else DEFAULT_STORE
        states.append(digest_of(Path(store_arg)))
    install(kill_at, during, after if record is not None or pause is not None else None)
    from claimgraph.cli.main import main as claimgraph

    code = claimgraph(argv)
    if pause is not None:
        pause.send(-1)
    sys.exit(code)


def start_forked(argv: list[str], kill_at: int | None = None, during: bool = False, record: Path | None = None,
                 pause: Any = None, gate: Any = None) -> Any:
    """Start claimgraph with ``argv`` in a child of the fork server; returns the process (``exitcode`` -9 when killed).

    ``record``: a file the child keeps the store's digest in, before the
    command and after each write. ``pause``: one end of a ``pipe()``; after
    each store write the child sends the write count and waits for any answer
    (it sends -1 when done). ``gate``: an ``event()`` the child waits for
    before it starts, so several start together.
    """
    process = _forkserver().Process(target=_child, args=(argv, kill_at, during, str(record) if record else None, pause, gate))
    process.start()
    return process


def run_forked(argv: list[str], kill_at: int | None = None, during: bool = False, record: Path | None = None) -> int:
    """``start_forked`` and wait: the exit code, or -9 when killed."""
    process = start_forked(argv, kill_at, during, record)
    process.join()
    return int(process.exitcode if process.exitcode is not None else 70)


def pipe() -> tuple[Any, Any]:
    return _forkserver().Pipe()


def event() -> Any:
    return _forkserver().Event()


def digest_of(folder: Path) -> dict[str, str]:
    from claimgraph.store import EmbeddedStore

    with EmbeddedStore(folder, read_only=True) as store:
        return state_digest(store)


def clean_prefixes(folder: Path, argv: list[str]) -> list[dict[str, str]]:
    """The store's digest before the command and after each of its writes (a clean run, in ``folder``)."""
    record = folder.with_name(folder.name + ".prefixes.json")
    code = run_forked(argv, record=record)
    if code not in (0, 1):
        raise RuntimeError(f"the clean run of {argv} exited with {code}")
    return list(json.loads(record.read_text(encoding="utf-8")))


def copy_store(source: Path, target: Path) -> None:
    """The store folder and its sidecar (if any), as a fresh starting point."""
    shutil.copytree(source, target)
    sidecar = source.with_name(source.name + ".sidecar")
    if sidecar.exists():
        shutil.copytree(sidecar, target.with_name(target.name + ".sidecar"))


def paper_problems(folder: Path, clean: Path, start: Path) -> tuple[list[str], list[str]]:
    """(problems, unfinished papers) of the store at ``folder`` measured against the clean run's store and the one it started from.

    Every paper present must hold the raw graph it started with or the clean
    run's, an audit trail whose activities are a prefix of the clean trail's,
    and be reported unfinished exactly when that trail has no gate yet.
    """
    from claimgraph.papers.audit_trail import audit_trail
    from claimgraph.quality.validation import unfinished_papers
    from claimgraph.rdf.iris import IriScheme
    from claimgraph.store import EmbeddedStore

    iris = IriScheme()
    problems: list[str] = []
    with EmbeddedStore(folder, read_only=True) as store, EmbeddedStore(clean, read_only=True) as reference, \
            EmbeddedStore(start, read_only=True) as before:
        papers = sorted({paper for graph in store.graph_names() if (paper := iris.paper_id_of(graph))})
        unfinished = unfinished_papers(store, iris)
        for paper in papers:
            raw = set(store.triples(iris.raw_graph(paper)))
            if raw not in (set(reference.triples(iris.raw_graph(paper))), set(before.triples(iris.raw_graph(paper)))):
                problems.append(f"{paper}: raw graph is neither the one it started with nor the clean run's")
            kinds = [(entry["kind"], entry["name"]) for entry in audit_trail(store, iris, paper)]
            clean_kinds = [(entry["kind"], entry["name"]) for entry in audit_trail(reference, iris, paper)]
            if kinds != clean_kinds[: len(kinds)] or not kinds or kinds[0][0] != "load":
                problems.append(f"{paper}: audit trail {kinds} is not a prefix of the clean one")
            gated = any(kind == "gate" and name == "gate" for kind, name in kinds)
            if gated == (paper in unfinished):
                problems.append(f"{paper}: gated={gated} but reported unfinished={paper in unfinished}")
            started = [(entry["kind"], entry["name"]) for entry in audit_trail(before, iris, paper)]
            changed = set(store.triples(iris.paper(paper))) != set(before.triples(iris.paper(paper)))
            if started and kinds == started and changed:
                problems.append(f"{AUDIT_LAGS}: {paper}'s paper graph changed but its audit trail records nothing new")
    return problems, unfinished


def healed(folder: Path, clean: Path, final: dict[str, str], history_kept: bool) -> bool:
    """Whether the store at ``folder`` equals the clean run's (``final``: its digest); see ``Scenario.history_kept``."""
    left = digest_of(folder)
    if not history_kept:
        return left == final
    from claimgraph.papers.audit_trail import audit_trail
    from claimgraph.rdf.iris import IriScheme
    from claimgraph.store import EmbeddedStore

    def audit(graph: str) -> bool:
        return graph.endswith("/audit")

    if {g: d for g, d in left.items() if not audit(g)} != {g: d for g, d in final.items() if not audit(g)}:
        return False
    iris = IriScheme()
    with EmbeddedStore(folder, read_only=True) as store, EmbeddedStore(clean, read_only=True) as reference:
        for graph in filter(audit, final):
            paper = graph.removesuffix("/audit").rsplit("/", 1)[-1]
            kinds = [(entry["kind"], entry["name"]) for entry in audit_trail(store, iris, paper)]
            clean_kinds = [(entry["kind"], entry["name"]) for entry in audit_trail(reference, iris, paper)]
            extra = Counter(kinds) - Counter(clean_kinds)
            if not _in_order(clean_kinds, kinds) or kinds[-1:] != clean_kinds[-1:] or (clean_kinds and clean_kinds[-1] in extra):
                return False
    return True


def _in_order(wanted: list[tuple[str, str]], found: list[tuple[str, str]]) -> bool:
    """Whether ``wanted`` occurs in ``found`` in the same order (other items may stand between)."""
    remaining = iter(found)
    return all(item in remaining for item in wanted)


def kill_campaign(work: Path, scenario: Scenario, choose: Callable[[int], Sequence[tuple[int, bool]]]) -> tuple[int, list[KillOutcome]]:
    """Kill ``scenario``'s command at each (write, during) point, check the store it leaves, heal it; (writes of a clean run, outcomes).

    ``choose`` gets the number of writes of a clean run and returns the kill points.
    """
    start = work / f"{scenario.name}-start" / "store"
    start.parent.mkdir(parents=True)
    scenario.prepare(start)
    clean = work / f"{scenario.name}-clean" / "store"
    copy_store(start, clean)
    prefixes = clean_prefixes(clean, scenario.argv(clean))
    final = prefixes[-1]
    outcomes = []
    for number, (write, during) in enumerate(choose(len(prefixes) - 1)):
        folder = work / f"{scenario.name}-kill-{number}" / "store"
        copy_store(start, folder)
        outcome = KillOutcome(write, during)
        outcome.killed = run_forked(scenario.argv(folder), kill_at=write, during=during) == -signal.SIGKILL
        left = digest_of(folder)
        outcome.left = "before" if left == prefixes[write - 1] else "after" if during and left == prefixes[min(write, len(prefixes) - 1)] else ""
        if not outcome.left:
            outcome.problems.append(f"the store equals no state of a clean run around write {write}")
        problems, outcome.unfinished = paper_problems(folder, clean, start)
        outcome.problems += problems
        outcome.healed = run_forked(scenario.argv(folder)) in (0, 1) and healed(folder, clean, final, scenario.history_kept)
        outcomes.append(outcome)
    return len(prefixes) - 1, outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m claimgraph.testing.crash", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--count", type=Path, metavar="OUT", help="run to the end; write {\"writes\": N, \"exit\": code} to OUT")
    mode.add_argument("--kill-at", type=int, metavar="N", help="SIGKILL the process at write N (1 is the first)")
    parser.add_argument("--during", action="store_true", help="kill from another thread as write N starts, not before it")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the claimgraph arguments")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    install(args.kill_at, args.during)
    from claimgraph.cli.main import main as claimgraph

    code = claimgraph(command)
    if args.count:
        args.count.write_text(json.dumps({"writes": _state["writes"], "exit": code}), encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main())
