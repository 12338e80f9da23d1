"""``claimgraph citation-intent``: why each citing sentence of a real eLife article cites each reference, from a scripted LLM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.citation_intent import citing_pairs, profile_intents
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import EmbeddedStore, open_store
from claimgraph.testing.fake_llm import Rule

ARTICLE = Path(__file__).resolve().parents[1] / "data" / "elife" / "elife-00240-v1.xml"
PAPER = "elife-00240-v1"
CITO = "http://purl.org/spar/cito/"


@pytest.fixture
def stored(tmp_path: Path, capsys) -> tuple[str, list]:
    """The article ingested without extraction, and its (sentence, reference) citing pairs as stored."""
    if not ARTICLE.is_file():
        pytest.skip(f"no {ARTICLE}")
    store = str(tmp_path / "store")
    assert main(["--store", store, "ingest", "--no-extract", "--no-canonicalize", str(ARTICLE)]) == 0
    capsys.readouterr()
    with EmbeddedStore(Path(store)) as opened:
        pairs = citing_pairs(Context(opened, IriScheme()), PAPER)
    return store, pairs


def intents(store: str) -> set[tuple[int, str, int]]:
    with open_store(store) as opened:
        rows = opened.select(read_named_query("citation-intents"), {"paper": IriScheme().paper(PAPER)})
    return {(int(row["sentenceIndex"].value), row["intent"].value.removeprefix(CITO), int(row["referenceIndex"].value)) for row in rows}


def test_only_listed_labels_on_pairs_the_paper_has_are_stored_and_the_rest_is_counted(fake_llm, stored, tmp_path: Path, capsys) -> None:
    store, pairs = stored
    assert len(pairs) == 8
    first, second, third = pairs[0], pairs[1], pairs[2]
    reply = {"citations": [
        {"sentence": first.sentence_index, "reference": first.reference_index, "intent": "evidence"},
        {"sentence": second.sentence_index, "reference": second.reference_index, "intent": " Disputes "},
        {"sentence": third.sentence_index, "reference": third.reference_index, "intent": "praises"},
        {"sentence": 999, "reference": first.reference_index, "intent": "method"},
        {"sentence": first.sentence_index, "reference": first.reference_index, "intent": "background"},
    ]}
    server = fake_llm([Rule([f"```json\n{json.dumps(reply)}\n```"], phase="citations")])
    llm = ["--base-url", server.base_url, "--model", "fake-model", "--cache-dir", str(tmp_path / "cache")]
    code = main(["--store", store, "citation-intent", "--paper", PAPER, *llm])
    output = capsys.readouterr().out
    assert code == 0, output
    (request,) = server.chat_requests()
    assert f"[{first.sentence_index}] {first.text}" in request.last_user_message
    assert f"    reference {first.reference_index}: " in request.last_user_message and '- "disputes": ' in request.last_user_message
    assert intents(store) == {(first.sentence_index, "citesAsEvidence", first.reference_index),
                              (second.sentence_index, "disputes", second.reference_index)}
    row = next(line for line in output.splitlines() if line.startswith(PAPER))
    assert row.split()[1:6] == ["8", "2", "1", "1", "6"]  # the pair with an unknown label is unanswered too
    assert main(["--store", store, "citation-intent", "--paper", PAPER, *llm]) == 0
    assert len(server.chat_requests()) == 1, "asking again with the same prompt is served from the cache"
    assert len(intents(store)) == 2, "a second run replaces the intents, it does not add to them"


def test_a_reply_without_any_citation_item_fails_the_paper_and_keeps_what_was_stored(fake_llm, stored, tmp_path: Path, capsys) -> None:
    store, pairs = stored
    good = json.dumps({"citations": [{"sentence": pairs[0].sentence_index, "reference": pairs[0].reference_index, "intent": "data"}]})
    first = fake_llm([Rule([good], phase="citations")])
    assert main(["--store", store, "citation-intent", "--paper", PAPER, "--base-url", first.base_url, "--no-cache"]) == 0
    garbage = fake_llm([Rule(["I would rather not classify these."], phase="citations")])
    code = main(["--store", store, "citation-intent", "--paper", PAPER, "--base-url", garbage.base_url, "--no-cache", "--max-retries", "0"])
    output = capsys.readouterr().out
    assert code == 1 and "no citation item" in output, output
    assert intents(store) == {(pairs[0].sentence_index, "usesDataFrom", pairs[0].reference_index)}


def test_a_profile_without_intents_is_refused_by_name_and_an_unknown_paper_too(fake_llm, stored, tmp_path: Path, capsys) -> None:
    with pytest.raises(ClaimgraphError, match=r"lists no citation intents \(\[citations.intents\]"):
        profile_intents(load_profile("peirce"))
    assert set(profile_intents(load_profile("discourse"))) == {"evidence", "agrees", "disputes", "method", "data", "extends", "background"}
    store, _ = stored
    server = fake_llm([Rule(['{"citations": []}'])])
    assert main(["--store", store, "citation-intent", "--paper", "no-such-paper", "--base-url", server.base_url]) == 2
    assert "no paper 'no-such-paper'" in capsys.readouterr().err
    assert server.chat_requests() == []
