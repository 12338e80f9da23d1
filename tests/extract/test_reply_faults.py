"""A batch against an endpoint whose proxy answers one paper's calls with an HTML page: that paper fails, the rest go on."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import Reply, Rule
from claimgraph.testing.llm_faults import healthy_rules, write_plot_papers

HTML_PAGE = "<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>"


def residuals(store: Path, paper_id: str) -> set[str]:
    iris = IriScheme()
    with EmbeddedStore(store, read_only=True) as opened:
        return {t.object.value for t in opened.triples(iris.paper(paper_id)) if t.predicate == CG.residual}


def test_an_html_page_with_status_200_fails_one_papers_calls_and_the_batch_goes_on(
        fake_llm, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "papers"
    write_plot_papers(folder, 3, passages=1)
    proxy_page = Reply(body=HTML_PAGE, headers={"Content-Type": "application/json"})
    server = fake_llm([Rule([proxy_page], contains="Fern"), *healthy_rules()])
    store = tmp_path / "store"
    code = main(["--store", str(store), "ingest", "--no-canonicalize", "--no-validate", "--base-url", server.base_url,
                 "--model", "fake-model", "--max-retries", "1", "--cache-dir", str(tmp_path / "cache"), str(folder)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "unexpected" not in err
    assert "not a chat completion" in err
    fern = [r for r in server.chat_requests() if "Fern" in r.last_user_message]
    assert len(fern) == 2, "the page is retried like any transient fault, then the call fails"
    assert residuals(store, "plot-01") == {"extraction_failed"}
    assert residuals(store, "plot-00") == set() and residuals(store, "plot-02") == set()
