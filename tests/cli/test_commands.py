"""The claimgraph command end to end, in-process, on the embedded and the remote store."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyoxigraph
import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.cli.main import main
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import open_store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "papers" / "synthetic-arche-ripples.json"


@pytest.fixture
def batch(tmp_path: Path, arche_dir: Path) -> Path:
    """A folder with two real ARCHE papers, one broken JSON and one non-UTF-8 file."""
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("s41467-025-55907-w.json", "s41467-025-56034-2.json"):
        shutil.copy(arche_dir / name, folder / name)
    (folder / "broken.json").write_text('{"file_info": ', encoding="utf-8")
    (folder / "latin1.md").write_bytes("# Titre\n\nCaf\xe9 cr\xe8me.".encode("latin-1"))
    return folder


@pytest.fixture
def store_dir(tmp_path: Path) -> str:
    return str(tmp_path / "store")


def solutions(text: str) -> list[dict[str, str]]:
    """The rows of a W3C SPARQL JSON results document, values only."""
    document = json.loads(text)
    assert set(document) == {"head", "results"}
    return [{name: term["value"] for name, term in binding.items()} for binding in document["results"]["bindings"]]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_ingest_reports_broken_files_by_name_and_keeps_the_rest(capsys, batch: Path, store_dir: str) -> None:
    code, out, err = run(capsys, "--store", store_dir, "ingest", str(batch))
    assert code == 1
    assert "broken.json: not valid JSON" in err
    assert "latin1.md: not UTF-8 (invalid byte 0xe9" in err
    with open_store(store_dir) as store:
        iris = IriScheme()
        graphs = set(store.graph_names())
        assert iris.paper("s41467-025-55907-w") in graphs and iris.paper("s41467-025-56034-2") in graphs
        assert not any("broken" in graph.value or "latin1" in graph.value for graph in graphs)


def test_reingesting_the_same_file_leaves_the_store_identical(capsys, store_dir: str) -> None:
    assert run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))[0] == 0
    with open_store(store_dir) as store:
        first = {str(q) for q in store.quads()}
        paper_graph = store.triples(IriScheme().paper("synthetic-ripples"))
    assert run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))[0] == 0
    with open_store(store_dir) as store:
        assert store.triples(IriScheme().paper("synthetic-ripples")) == paper_graph
        second = {str(q) for q in store.quads()}
    assert second - first == {q for q in second - first if "/audit" in q}, "only audit timestamps may differ"
    assert len(second) == len(first)


def test_validate_passes_clean_papers_and_fails_a_broken_node(capsys, store_dir: str) -> None:
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    code, out, _ = run(capsys, "--store", store_dir, "validate")
    assert code == 0 and "0 failed" in out
    paper = IriScheme().paper("synthetic-ripples")
    with open_store(store_dir) as store:
        confidence = Literal("1.5", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#decimal"))
        store.insert({paper: [Triple(NamedNode(paper.value + "/viewpoint/1-0-1"), NamedNode("https://w3id.org/claimgraph/ontology/v1#confidence"), confidence)]})
    code, out, _ = run(capsys, "--store", store_dir, "validate", "--paper", "synthetic-ripples")
    assert code == 1
    assert "viewpoint/1-0-1" in out and "1 failed" in out


def test_query_by_name_in_each_format(capsys, store_dir: str) -> None:
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    code, out, _ = run(capsys, "--store", store_dir, "query", "papers-by-claims", "--format", "json")
    assert code == 0
    (row,) = solutions(out)
    assert row["id"] == "synthetic-ripples" and row["claims"] == "9" and row["sentences"] == "3"
    (binding,) = json.loads(out)["results"]["bindings"]
    assert binding["claims"] == {"type": "literal", "value": "9", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}
    code, out, _ = run(capsys, "--store", store_dir, "query", "papers-by-claims", "--format", "csv")
    assert out.splitlines()[0] == "paper,id,claims,sentences,references"
    code, out, _ = run(capsys, "--store", store_dir, "query", "papers-by-claims")
    assert "synthetic-ripples" in out


def test_query_binds_values_safely(capsys, store_dir: str) -> None:
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    hostile = '"} ; DROP ALL ; INSERT DATA { <x:a> <x:b> "c" } #'
    code, out, _ = run(capsys, "--store", store_dir, "query", "SELECT ?t WHERE { BIND(STRLEN(?text) AS ?t) }", "--bind", f"text={hostile}", "--format", "json")
    assert code == 0 and solutions(out) == [{"t": str(len(hostile))}]
    code, out, _ = run(capsys, "--store", store_dir, "query", "sentence-assertions", "--format", "json",
                       "--bind", f"sentence=<{IriScheme().paper('synthetic-ripples').value}/sentence/3>")
    assert [row["text"] for row in solutions(out)] == ["The study asks whether film elasticity alone explains the extra damping of ripples."]
    with open_store(store_dir) as store:
        assert store.count_triples() > 0


def test_query_binds_true_and_false_as_booleans_not_strings(capsys, store_dir: str) -> None:
    """A string "false" is true in a FILTER; --bind flag=false must mean false."""
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    query = "SELECT ?t WHERE { BIND(IF(?flag, 1, 0) AS ?t) }"
    for value, expected in (("false", "0"), ("true", "1"), ("no", "1")):
        code, out, _ = run(capsys, "--store", store_dir, "query", query, "--bind", f"flag={value}", "--format", "json")
        assert code == 0 and solutions(out) == [{"t": expected}], value


def test_unknown_query_name_and_bad_binding_are_usage_errors(capsys, store_dir: str) -> None:
    code, _, err = run(capsys, "--store", store_dir, "query", "no-such-query")
    assert code == 2 and "no query named 'no-such-query'" in err
    code, _, err = run(capsys, "--store", store_dir, "query", "paper-graphs", "--bind", "oops")
    assert code == 2 and "expected NAME=VALUE" in err


def test_export_writes_a_file_that_parses_back(capsys, store_dir: str, tmp_path: Path) -> None:
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    target = tmp_path / "out.nq"
    code, _, _ = run(capsys, "--store", store_dir, "export", "--format", "nq", "-o", str(target))
    assert code == 0
    quads = list(pyoxigraph.parse(path=str(target), format=pyoxigraph.RdfFormat.N_QUADS))
    with open_store(store_dir) as store:
        assert len(quads) == store.count_triples(IriScheme().paper("synthetic-ripples"))


def test_stats_counts_come_from_the_store(capsys, store_dir: str) -> None:
    run(capsys, "--store", store_dir, "ingest", str(EXAMPLE))
    code, out, _ = run(capsys, "--store", store_dir, "stats", "--format", "json")
    stats = {row["measure"]: row["value"] for row in solutions(out)}
    with open_store(store_dir) as store:
        assert int(stats["papers"]) == 1
        assert int(stats["all triples"]) == store.count_triples()
    assert stats["cg:Viewpoint"] == "9"
    assert stats["cg:Sentence"] == "3"
    assert stats["papers linked to another by citation"] == "0"  # one paper links to no other


def test_remote_store_through_the_cli(capsys, oxigraph_server: str) -> None:
    open_store(oxigraph_server).update("DROP ALL")
    code, _, _ = run(capsys, "--store", oxigraph_server, "ingest", str(EXAMPLE))
    assert code == 0
    code, out, _ = run(capsys, "--store", oxigraph_server, "stats", "--format", "json")
    assert {row["measure"]: row["value"] for row in solutions(out)}["papers"] == "1"
    open_store(oxigraph_server).update("DROP ALL")


def test_unreachable_remote_store_is_a_one_line_error(capsys) -> None:
    code, _, err = run(capsys, "--store", "http://127.0.0.1:9", "stats")
    assert code == 2
    assert err.count("\n") == 1 and "cannot reach SPARQL endpoint http://127.0.0.1:9/query" in err


def test_ingest_extracts_prose_through_an_llm_endpoint_and_reuses_the_cache(capsys, store_dir: str, tmp_path: Path, monkeypatch) -> None:
    from claimgraph.testing.demo_script import demo_rules
    from claimgraph.testing.fake_llm import running_fake_llm

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    paper = REPO / "examples" / "papers" / "soil-warming.md"
    cache = str(tmp_path / "cache")
    with running_fake_llm(demo_rules()) as server:
        args = ["--store", store_dir, "ingest", str(paper), "--base-url", server.base_url, "--cache-dir", cache, "--model", "m"]
        code, out, err = run(capsys, *args)
        assert code == 0, out + err
        calls = len(server.chat_requests())
        assert calls == 15 and "extraction gate: soil-warming" in out
        code, out, err = run(capsys, *args)
        assert code == 0, out + err
        assert len(server.chat_requests()) == calls, "the second run is served by the cache"
    with open_store(store_dir) as store:
        assert store.scalar("SELECT (COUNT(?n) AS ?c) WHERE { GRAPH ?g { ?n a <https://w3id.org/claimgraph/ontology/v1#Hypothesis> } }",
                            {"g": IriScheme().paper("soil-warming")}) == 4


def test_ingest_without_an_llm_stores_the_structure_names_the_residual_and_exits_1(capsys, store_dir: str, monkeypatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    code, out, err = run(capsys, "--store", store_dir, "ingest", str(REPO / "examples" / "papers" / "soil-warming.md"))
    assert code == 1 and "no LLM endpoint configured" in err
    assert "extraction_not_run" in out
    paper = IriScheme().paper("soil-warming")
    with open_store(store_dir) as store:
        assert store.scalar("SELECT (COUNT(?n) AS ?c) WHERE { GRAPH ?g { ?n a <https://w3id.org/claimgraph/ontology/v1#Sentence> } }",
                            {"g": paper}) == 14
        assert store.ask("ASK { GRAPH ?g { ?g <https://w3id.org/claimgraph/ontology/v1#residual> \"extraction_not_run\" } }", {"g": paper})


def test_ingest_with_no_extract_stores_the_structure_on_purpose_and_exits_0(capsys, store_dir: str, monkeypatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    code, _, _ = run(capsys, "--store", store_dir, "ingest", "--no-extract", str(REPO / "examples" / "papers" / "soil-warming.md"))
    assert code == 0
    with open_store(store_dir) as store:
        assert not store.ask("ASK { GRAPH ?g { ?g <https://w3id.org/claimgraph/ontology/v1#residual> ?r } }", {"g": IriScheme().paper("soil-warming")})


def test_reasoning_runs_are_kept_for_consensus(capsys, store_dir: str, tmp_path: Path) -> None:
    """Two models' responses for one paper, each kept with --run, then aligned by consensus."""
    base = ["--store", store_dir, "--profile", "peirce"]
    assert run(capsys, *base, "ingest", "--no-extract", str(EXAMPLE), "--no-canonicalize")[0] == 0
    unit = 'a [label="(1,0,1) {a}"]; b [label="(1,0,2) {b}"]; c [label="(2,0,1) {c}"]; a -> c [label="DR"]; b -> c [label="DC"];'
    responses = {
        "model-a": "digraph { " + unit.format(a="Ripples decay faster under soap", b="A soap film covers the water", c="Films damp ripples") + " }",
        "model-b": "digraph { " + unit.format(a="Ripples decay faster under soap", b="A soap film covers the water", c="Oil films damp ripples") + " }",
    }
    for name, text in responses.items():
        response = tmp_path / f"{name}.dot"
        response.write_text(text, encoding="utf-8")
        code, out, err = run(capsys, *base, "reasoning", "synthetic-ripples", str(response), "--run", name)
        assert code == 0, out + err
    code, out, err = run(capsys, *base, "consensus", "--paper", "synthetic-ripples", "--embedder", "hashing")
    assert code == 0, out + err
    with open_store(store_dir) as store:
        runs = [graph.value for graph in store.graph_names() if "/run/" in graph.value]
    assert sorted(name.rsplit("/", 1)[1] for name in runs) == ["model-a", "model-b"]


def test_canonicalize_recheck_needs_a_judge_and_reports_what_the_judge_did(capsys, store_dir: str, tmp_path: Path, monkeypatch,
                                                                          discourse_paper) -> None:
    from claimgraph.canonical.canonicalizer import canonicalize_papers
    from claimgraph.canonical.settings import CanonicalizeSettings
    from claimgraph.context import Context
    from claimgraph.embedding.embedders import HashingEmbedder
    from claimgraph.testing.fake_llm import running_fake_llm

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    iris = IriScheme()
    claims = {"a": "Higher temperatures increase soil respiration.", "b": "higher temperatures increase soil respiration",
              "c": "Drought lowers tree growth."}
    with open_store(store_dir) as store:  # a and b differ in case and a full stop only: cosine 1, not the same text
        for paper, text in claims.items():
            store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {}, claims=[("1", text, None)]))
        canonicalize_papers(Context(store, iris), list(claims), embedder=HashingEmbedder(),
                            settings=CanonicalizeSettings(thresholds={"Claim": 0.9}))
    assert link_bases(capsys, store_dir) == {"cg:exactText": 1, "cg:similarity": 1}
    code, _, err = run(capsys, "--store", store_dir, "canonicalize", "--recheck")
    assert code == 2 and err.count("\n") == 1 and "--adjudicate" in err
    with running_fake_llm({"": ["DIFFERENT"]}) as server:
        code, out, err = run(capsys, "--store", store_dir, "canonicalize", "--embedder", "hashing", "--recheck", "--adjudicate",
                             "--base-url", server.base_url, "--model", "m", "--cache-dir", str(tmp_path / "cache"))
        assert code == 0, err
        assert len(server.chat_requests()) == 1
    assert "recheck of the links made by similarity alone" in out and "llm:m" in out
    assert link_bases(capsys, store_dir) == {"cg:exactText": 1}


def link_bases(capsys: pytest.CaptureFixture[str], store_dir: str) -> dict[str, int]:
    """Links per basis, from the shipped link-bases query."""
    code, out, _ = run(capsys, "--store", store_dir, "query", "link-bases", "--format", "json")
    assert code == 0
    return {row["basis"].replace("https://w3id.org/claimgraph/ontology/v1#", "cg:"): int(row["links"]) for row in solutions(out)}


def test_tables_fit_the_terminal_width_with_an_ellipsis_and_are_whole_in_a_pipe(monkeypatch) -> None:
    from claimgraph.cli.render import format_table

    cells = [["short", "x" * 300], ["a" * 50, "y"]]
    fitted = format_table(["name", "description"], cells, title="t" * 200, width=60)
    assert all(len(line) <= 60 for line in fitted.splitlines())
    assert "…" in fitted and "short" in fitted
    monkeypatch.delenv("COLUMNS", raising=False)
    whole = format_table(["name", "description"], cells)  # pytest's stdout is no terminal: nothing is cut
    assert "x" * 300 in whole and "…" not in whole
