"""Running repair scripts: merges recorded with their reason, scripts skipped only when they could not act, the working copy
doing what the scripts do on the paper graph in the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import RdfFormat, Triple, parse

from claimgraph.context import Context
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.repair import Content, acts_on, may_act, repair_content, repair_graph, repair_paper, run_script, script_paths
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_sparql_file
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore

CASES = Path(__file__).parent / "repair_cases"
IRIS = IriScheme()
PAPER = IRIS.paper("p1")
PEIRCE = load_profile("peirce")
SCRIPTS = script_paths(PEIRCE)


def case(name: str) -> list[Triple]:
    return [quad.triple for quad in parse(path=str(CASES / name), format=RdfFormat.TURTLE)]


def stored(triples: list[Triple]) -> Context:
    ctx = Context(EmbeddedStore(None), IRIS, PEIRCE)
    ctx.store.replace_graphs({PAPER: triples, IRIS.raw_graph("p1"): triples})
    return ctx


def test_a_merge_says_which_node_survived_and_why_in_the_run_and_the_audit() -> None:
    ctx = stored([*case("merge_duplicate_nodes.before.ttl"), Triple(PAPER, RDF.type, CG.Paper)])
    result = repair_paper(ctx, "p1")
    merges = {(m.duplicate.value.rsplit("/", 1)[1], m.survivor.value.rsplit("/", 1)[1], m.why) for m in result.merges}
    assert merges == {("b2", "b", "smallest IRI"), ("a9", "z1", "stated first"), ("q", "r", "more specific source anchor"),
                      ("c2", "c1", "smallest IRI")}
    (entry,) = [entry for entry in audit_trail(ctx.store, IRIS, "p1") if entry["name"] == "merge_duplicate_nodes"]
    assert entry["counts"]["merges"] == 4 and "node/a9 -> " in entry["notes"]["merges"] and "(stated first)" in entry["notes"]["merges"]  # type: ignore[index,operator]


@pytest.mark.parametrize("script", [path for path in SCRIPTS if acts_on(path)], ids=lambda path: path.stem)
def test_a_script_is_skipped_only_when_it_could_not_change_anything(script: Path) -> None:
    own = case(f"{script.stem}.before.ttl")
    assert may_act(own, acts_on(script))
    for other in sorted(CASES.glob("*.before.ttl")):
        triples = case(other.name)
        if may_act(triples, acts_on(script)):
            continue
        ctx = stored(triples)
        before = set(ctx.store.triples(PAPER))
        ctx.store.update(read_sparql_file(script), {"graph": PAPER, "vocabulary": ctx.vocabulary})
        assert set(ctx.store.triples(PAPER)) == before, f"{script.stem} changed {other.name}, which its acts-on header says it cannot"


def test_a_skipped_script_still_has_its_audit_activity_with_no_change() -> None:
    ctx = stored(case("drop_self_loops.before.ttl"))
    run, _ = run_script(ctx.store, PAPER, ctx.vocabulary, next(path for path in SCRIPTS if path.stem == "orient_root"))
    assert not run.changed and run.activity().name == "orient_root"


@pytest.mark.parametrize("name", sorted(path.name for path in CASES.glob("*.before.ttl")))
def test_the_working_copy_gives_what_the_scripts_give_on_the_paper_graph_in_the_store(name: str) -> None:
    triples = case(name)
    in_store = stored(triples)
    runs = repair_graph(in_store, PAPER)
    written: list[list[Triple]] = []
    copy = Context(EmbeddedStore(None), IRIS, PEIRCE)
    result = repair_content(copy, "p1", Content(triples), lambda repaired, residuals, audit: written.append(repaired))
    assert set(written[0]) == set(in_store.store.triples(PAPER))
    assert [run.changed for run in result.runs] == [run.changed for run in runs]
