"""The global store options: --query-url/--update-url/--gsp-url, --store-timeout, --base checks, SERVICE allow-list."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.store import EmbeddedStore
from claimgraph.testing.sparql_doubles import Answer, scripted_sparql_server


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_separate_query_update_and_graph_store_urls_drive_a_whole_ingest(capsys, oxigraph_server: str, synthetic_arche_dir: Path) -> None:
    urls = ["--query-url", f"{oxigraph_server}/query", "--update-url", f"{oxigraph_server}/update", "--gsp-url", f"{oxigraph_server}/store"]
    main([*urls, "query", "ASK {}"])  # the server answers
    from claimgraph.store import RemoteStore

    RemoteStore.from_base_url(oxigraph_server).update("DROP ALL")
    paper = sorted(synthetic_arche_dir.glob("*.json"))[0]
    code, _, err = run(capsys, *urls, "ingest", "--no-canonicalize", "--no-validate", str(paper))
    assert code == 0, err
    code, out, _ = run(capsys, *urls, "export", "--format", "nt")
    assert code == 0 and out.count("\n") > 10


def test_update_url_without_query_url_is_one_line(capsys) -> None:
    code, _, err = run(capsys, "--update-url", "http://127.0.0.1:9/update", "stats")
    assert code == 2 and err.count("\n") == 1 and "need --query-url" in err


@pytest.mark.parametrize("base", ["not an iri", "relative/path", "http://exa mple/"])
def test_an_invalid_base_is_one_line_and_touches_nothing(capsys, tmp_path: Path, base: str) -> None:
    store = tmp_path / "store"
    code, _, err = run(capsys, "--store", str(store), "--base", base, "ingest", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and f"--base {base!r} is not an absolute IRI" in err
    assert not store.exists()


def test_store_timeout_bounds_a_trickling_server(capsys) -> None:
    body = b'{"head":{"vars":[]},"boolean":true}'.ljust(60)
    with scripted_sparql_server([Answer("trickle", body=body, interval=0.1)]) as server:
        code, _, err = run(capsys, "--query-url", f"{server.url}/sparql", "--store-timeout", "1", "--store-retries", "0", "query", "ASK {}")
    assert code == 2 and err.count("\n") == 1 and "no complete answer within 1 s" in err


def test_query_with_service_is_refused_by_the_store_too(capsys, tmp_path: Path) -> None:
    EmbeddedStore(tmp_path / "store").close()
    with scripted_sparql_server([Answer()]) as server:
        text = f"SELECT * WHERE {{ SERVICE <{server.url}/sparql> {{ ?s ?p ?o }} }}"
        code, _, err = run(capsys, "--store", str(tmp_path / "store"), "query", text)
        assert code == 2 and "not allowed" in err
        assert server.requests == []
