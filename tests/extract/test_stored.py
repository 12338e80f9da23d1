"""An extraction read back from the store is the extraction that was written; one step runs again on it alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.model import extraction_triples
from claimgraph.extract.stored import stored_extraction
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import Rule
from claimgraph.workflow import IngestOptions, Workflow

PAPER = """# Shade and moss

## Background

Shade slows moss growth in our plots. We ask whether light limits moss growth.

## Results

Moss under shade grew less than moss in the open. Open moss grew more. This supports the light hypothesis.
"""


def reply(key: str, *items: dict) -> str:
    return json.dumps({key: list(items)})


def item(id: str, type: str, text: str, sentence: int, **extra: object) -> dict:
    return {"id": id, "type": type, "text": text, "sentence": sentence, "confidence": 0.9, **extra}


def edge(source: str, label: str, target: str, sentence: int | None = None) -> dict:
    return {"source": source, "label": label, "target": target, "confidence": 0.75, **({"sentence": sentence} if sentence else {})}


P1_ENTITIES = reply("entities", item("E1", "Factor", "shade", 1), item("E2", "Factor", "moss growth", 1),
                    item("E3", "Association", "Shade slows moss growth", 1, arg0="E1", arg1="E2"),
                    item("E4", "ResearchQuestion", "Does light limit moss growth?", 2), item("E5", "Hypothesis", "Light limits moss growth", 2))
P2_ENTITIES = reply("entities", item("E1", "Evidence", "Shaded moss grew less", 3), item("E2", "Claim", "The light hypothesis holds", 5),
                    item("E3", "Evidence", "Open moss grew more", 4))
P1_RELATIONS = reply("relations", edge("E5", "addresses", "E4", 2), edge("E3", "mentions", "E6 \"ghost\" / factor"))
P2_RELATIONS = reply("relations", edge("E1", "supports", "E2", 5), edge("E1", "contradicts", "p1-E5"))
GAP_LINK = reply("relations", edge("E3", "supports", "E2", 4))
NOTHING = '{"relations": [], "drop": [], "decisions": []}'


def script(gaps_p2: str = NOTHING) -> list[Rule]:
    return [Rule([P1_ENTITIES], phase="entities", passage=1), Rule([P2_ENTITIES], phase="entities", passage=2),
            Rule([P1_RELATIONS], phase="relations", passage=1), Rule([P2_RELATIONS], phase="relations", passage=2),
            Rule([gaps_p2], phase="gaps", passage=2), Rule([NOTHING])]


@pytest.fixture
def ingested(fake_llm, llm_config, tmp_path: Path):
    """The paper ingested through a scripted endpoint: passage 2 keeps a gap (E3), passage 1 a dangling name."""
    path = tmp_path / "shade-moss.md"
    path.write_text(PAPER, encoding="utf-8")
    server = fake_llm(script())
    ctx = Context(EmbeddedStore())
    config = llm_config(server)
    result = Workflow(ctx).ingest([path], IngestOptions(llm=config, canonicalize=False, validate=False))
    assert result.failures == []
    return ctx, server, config, result


def test_the_raw_graph_reads_back_as_the_extraction_that_wrote_it(ingested) -> None:
    ctx, _, _, _ = ingested
    stored = stored_extraction(ctx, "shade-moss")
    extraction = stored.extraction
    assert {(key, node.type, node.text, node.sentence) for key, node in extraction.nodes.items()} >= {
        ((1, "E3"), "Association", "Shade slows moss growth", 1), ((2, "E3"), "Evidence", "Open moss grew more", 4)}
    assert (extraction.nodes[(1, "E3")].arg0, extraction.nodes[(1, "E3")].arg1) == ("E1", "E2")
    names = {name for _, name in extraction.dangling()}
    assert names == {'E6 "ghost" / factor'}, "the dangling name comes back from its IRI"
    assert ("E1", "contradicts", "p1-E5", 2) in {(e.source, e.label, e.target, e.passage) for e in extraction.edges}
    rebuilt = set(extraction_triples(extraction, ctx.iris, ctx.profile, stored.structure))
    assert rebuilt == set(ctx.store.triples(ctx.iris.raw_graph("shade-moss"))), "reading back loses nothing"


def test_one_step_runs_again_alone_and_a_second_rerun_makes_no_call(ingested, fake_llm, llm_config) -> None:
    ctx, first_server, config, first = ingested
    assert dict(first.extractions[0].measures)["dangling"]["passage_gaps"] == 1
    server = fake_llm(script(gaps_p2=GAP_LINK))
    rerun = Workflow(ctx).rerun_extraction(["shade-moss"], ["gaps"], llm_config(server, cache_dir=None))
    assert [(r.phase, r.passage) for r in server.chat_requests()] == [("gaps", 2)], "only the gaps step, only the passage with a gap"
    (report,) = rerun.extractions
    assert dict(report.measures)["gaps"]["passage_gaps"] == 0 and report.failed_calls == []
    texts = {(t.subject, t.object) for t in ctx.store.triples(ctx.iris.paper("shade-moss")) if t.predicate.value.endswith("#supports")}
    open_moss, claim = ctx.iris.extracted_node("shade-moss", "p2-E3"), ctx.iris.extracted_node("shade-moss", "p2-E2")
    assert (open_moss, claim) in texts
    assert rerun.repairs[0].gate is not None
    before = len(first_server.chat_requests())
    again = Workflow(ctx).rerun_extraction(["shade-moss"], ["gaps"], config)
    assert len(first_server.chat_requests()) == before and again.accounting.total().calls == 0


def test_a_paper_that_is_not_stored_or_holds_its_claims_is_refused_by_name(tmp_path: Path, synthetic_arche_dir: Path) -> None:
    ctx = Context(EmbeddedStore())
    with pytest.raises(ClaimgraphError, match="no paper 'ghost' in the store"):
        stored_extraction(ctx, "ghost")
    arche = sorted(synthetic_arche_dir.glob("*.json"))[0]
    Workflow(ctx).ingest([arche], IngestOptions(canonicalize=False, validate=False))
    with pytest.raises(ClaimgraphError, match="holds its claims"):
        stored_extraction(ctx, arche.stem)
