"""The malformed reasoning corpus: deterministic, large enough, covering every residual and mutation, clean cases valid."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from claimgraph.loaders import Document, load_document
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import canonical_edge_label
from claimgraph.reasoning.materialize import materialize
from claimgraph.testing.corpora import ARCHE_ENV, ARCHE_SKIP_REASON, real_arche_dir
from claimgraph.testing.reasoning_cases.cases import (
    CASES_FILE,
    CASES_PER_PAPER,
    MUTATIONS,
    RECIPES,
    ReasoningCase,
    generate_cases,
    load_papers,
    main,
    write_cases,
)
from claimgraph.testing.reasoning_cases.graphs import LABEL_FAMILY, ReasoningCorpusError
from claimgraph.testing.reasoning_cases.responses import load_surface
from claimgraph.testing.reasoning_cases.verdicts import RESIDUALS
from claimgraph.testing.synthetic.arche import write_corpus

CLEAN_MUTATIONS = {"clean", "prose_fences", "format_xml", "format_plist", "format_json", "alias_labels"}


def unescaped_quotes(text: str) -> int:
    return len(re.findall(r'(?<!\\)"', text))


@pytest.fixture(scope="module")
def synthetic_documents(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    return [load_document(path) for path in write_corpus(tmp_path_factory.mktemp("synthetic-arche"))]


@pytest.fixture(scope="module")
def synthetic_cases(synthetic_documents: list[Document]) -> list[ReasoningCase]:
    return generate_cases(synthetic_documents, seed=7)


@pytest.fixture(scope="module")
def real_documents() -> list[Document]:
    folder = real_arche_dir()
    if folder is None:
        pytest.skip(ARCHE_SKIP_REASON)
    return load_papers(folder)


@pytest.fixture(scope="module")
def real_cases(real_documents: list[Document]) -> list[ReasoningCase]:
    return generate_cases(real_documents, seed=7)


@pytest.fixture(params=["synthetic", "real"])
def cases(request: pytest.FixtureRequest) -> list[ReasoningCase]:
    return request.getfixturevalue(f"{request.param}_cases")


def test_the_same_seed_gives_the_same_cases_and_files(synthetic_documents: list[Document], synthetic_cases: list[ReasoningCase], tmp_path: Path) -> None:
    again = generate_cases(list(reversed(synthetic_documents)), seed=7)
    assert again == synthetic_cases
    first, second = write_cases(tmp_path / "a", synthetic_cases, 7), write_cases(tmp_path / "b", again, 7)
    assert first.read_bytes() == second.read_bytes()


def test_another_seed_gives_other_responses(synthetic_documents: list[Document], synthetic_cases: list[ReasoningCase]) -> None:
    other = generate_cases(synthetic_documents, seed=8)
    assert [case.name for case in other] == [case.name for case in synthetic_cases]
    assert sum(a.response != b.response for a, b in zip(other, synthetic_cases)) > len(other) // 2


def test_the_real_corpus_gives_at_least_200_cases_over_every_paper(real_documents: list[Document], real_cases: list[ReasoningCase]) -> None:
    assert len(real_cases) >= 200
    assert {case.paper_id for case in real_cases} == {document.paper_id for document in real_documents}


def test_the_synthetic_corpus_runs_every_recipe(synthetic_documents: list[Document], synthetic_cases: list[ReasoningCase]) -> None:
    assert len(synthetic_cases) == max(len(synthetic_documents) * CASES_PER_PAPER, len(RECIPES))
    assert {case.name.split("-", 1)[1] for case in synthetic_cases} == {name for name, _ in RECIPES}


def test_every_residual_is_required_by_some_case(cases: list[ReasoningCase]) -> None:
    required = set().union(*(case.verdict.residuals for case in cases))
    assert required == set(RESIDUALS)
    assert any(case.verdict.accept for case in cases)


def test_every_mutation_kind_is_present(cases: list[ReasoningCase]) -> None:
    assert {mutation for case in cases for mutation in case.mutations} == set(MUTATIONS)


def test_accepted_cases_carry_the_graph_the_store_must_hold(cases: list[ReasoningCase]) -> None:
    for case in cases:
        assert not case.verdict.ambiguous, case.name
        if not case.verdict.accept:
            assert case.expected_graph is None, case.name
        elif "truncate_closed" in case.mutations:
            assert set(case.expected_graph.nodes) < set(case.graph.nodes), case.name
        else:
            assert (set(case.expected_graph.nodes), set(case.expected_graph.edges)) == (set(case.graph.nodes), set(case.graph.edges)), case.name


def test_clean_cases_parse_back_to_the_generator_nodes_and_edges(cases: list[ReasoningCase]) -> None:
    clean = [case for case in cases if set(case.mutations) <= CLEAN_MUTATIONS]
    assert len(clean) >= 10
    assert {case.format for case in clean} == {"dot", "xml", "plist", "json"}
    for case in clean:
        parsed = materialize(case.response)
        assert (len(parsed.nodes), len(parsed.edges)) == (len(case.graph.nodes), len(case.graph.edges)), case.name
        assert set(parsed.nodes) == {node.id for node in case.graph.nodes}, case.name
        assert {(edge.source, edge.target) for edge in parsed.edges} == {(edge.source, edge.target) for edge in case.graph.edges}, case.name


def test_the_reported_incidents_are_in_the_corpus_and_never_accepted(cases: list[ReasoningCase]) -> None:
    cut_in_prose = [case for case in cases if {"truncate_60", "prose_fences"} <= set(case.mutations) and case.format == "dot"]
    assert any(case.response.startswith("Sure! Here is the graph:\n```dot\n") for case in cut_in_prose)
    assert all("truncated_response" in case.verdict.residuals for case in cut_in_prose)
    open_quote = [case for case in cases if "unclosed_quote_node_label" in case.mutations]
    assert open_quote and all(unescaped_quotes(case.response) % 2 == 1 and "malformed_response" in case.verdict.residuals for case in open_quote)
    discourse = [case for case in cases if "wrong_family_all" in case.mutations]
    assert discourse and all("unknown_label" in case.verdict.residuals for case in discourse)
    assert all({edge.label for edge in materialize(case.response).edges} <= {"supports", "opposes"} for case in discourse)


def test_cut_responses_stop_before_the_graph_is_closed(cases: list[ReasoningCase]) -> None:
    cut = [case for case in cases if case.format == "dot" and "truncated_response" in case.verdict.residuals
           and any(name.startswith("truncate_") and name != "truncate_closed" for name in case.mutations)]
    assert cut
    for case in cut:
        assert not case.response.rstrip().endswith(("}", "```")), case.name


def test_write_cases_writes_every_response_and_the_index(tmp_path: Path, synthetic_cases: list[ReasoningCase]) -> None:
    index_path = write_cases(tmp_path / "out", synthetic_cases, 7)
    index = json.loads(index_path.read_text(encoding="utf-8"))
    assert index["residuals"] == list(RESIDUALS)
    assert [entry["name"] for entry in index["cases"]] == [case.name for case in synthetic_cases]
    for entry, case in zip(index["cases"], synthetic_cases):
        assert (tmp_path / "out" / entry["file"]).read_bytes() == case.response.encode("utf-8")
        assert entry["expected"]["verdict"] == ("accept" if case.verdict.accept else "residual")
        assert set(entry["expected"]["residuals"]) == case.verdict.residuals
        assert len(entry["graph"]["nodes"]) == len(case.graph.nodes)
        assert (entry["expected_graph"] is None) == (not case.verdict.accept)


def test_write_cases_refuses_a_folder_holding_other_files(tmp_path: Path, synthetic_cases: list[ReasoningCase]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ReasoningCorpusError, match=r"notes\.txt"):
        write_cases(tmp_path, synthetic_cases)
    assert not (tmp_path / CASES_FILE).exists()


def test_the_command_line_writes_cases_from_the_synthetic_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "out"), "--synthetic", "4", "--seed", "3"]) == 0
    index = json.loads((tmp_path / "out" / CASES_FILE).read_text(encoding="utf-8"))
    assert len(index["cases"]) == len(RECIPES) and index["seed"] == 3
    assert f"wrote {len(RECIPES)} cases from 4 papers" in capsys.readouterr().out


def test_the_command_line_without_a_corpus_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(ARCHE_ENV, str(tmp_path / "missing"))
    assert main([str(tmp_path / "out")]) == 2
    assert ARCHE_ENV in capsys.readouterr().err


def test_alias_spellings_are_read_as_their_label_and_unknown_labels_are_no_peircean_label() -> None:
    """``supports``/``opposes`` are discourse labels of the profile's ontology, but not Peircean reasoning labels."""
    profile, surface = load_profile("peirce"), load_surface()
    assert set(surface.aliases) == set(LABEL_FAMILY)
    for label, spellings in surface.aliases.items():
        assert [canonical_edge_label(profile, spelling) for spelling in spellings] == [label] * len(spellings)
    for label in surface.unknown_labels + surface.discourse_labels:
        assert canonical_edge_label(profile, label) not in LABEL_FAMILY, label


def test_the_prose_of_the_surface_file_holds_no_graph_material() -> None:
    surface = load_surface()
    for prose in surface.prefixes + surface.suffixes + surface.no_graph:
        assert not set(prose) & set('"{}[];<>') and "->" not in prose, prose
        assert materialize(prose).empty, prose
