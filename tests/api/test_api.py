"""The Python API: the example of docs/api.md runs, and the API gives what the command line gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import claimgraph
from claimgraph.cli.main import main
from claimgraph.demo import demo_config, demo_papers
from claimgraph.errors import ClaimgraphError
from claimgraph.settings import SettingsError, StoreSettings, load_settings

REPO = Path(__file__).resolve().parents[2]


def test_the_example_of_docs_api_runs(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    example = re.search(r"```python\n(.*?)```", (REPO / "docs" / "api.md").read_text(encoding="utf-8"), re.S)
    assert example is not None
    namespace: dict[str, object] = {}
    exec(compile(example.group(1), "docs/api.md", "exec"), namespace)  # the documented example, as a reader would run it
    assert isinstance(namespace["turtle"], bytes) and namespace["turtle"]
    assert len(namespace["rows"]) == len(namespace["result"].papers) > 0  # type: ignore[attr-defined, arg-type]


def test_the_api_and_the_command_line_count_the_same_store(tmp_path: Path, capsys) -> None:
    store = tmp_path / "store"
    with claimgraph.open(store) as graph:
        graph.ingest(demo_papers(), llm=demo_config())
        api_stats = dict(graph.stats())
    capsys.readouterr()
    assert main(["--store", str(store), "stats", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()[1:]
    cli_stats = {name: int(value) for name, value in (line.rsplit(",", 1) for line in lines)}
    assert cli_stats == api_stats and api_stats


def test_a_query_that_updates_is_refused_by_the_api(tmp_path: Path) -> None:
    with claimgraph.open(tmp_path / "store") as graph, pytest.raises(ClaimgraphError, match="runs queries, not updates"):
        graph.query("DELETE WHERE { ?s ?p ?o }")


def test_settings_come_from_the_file_then_the_environment_then_the_arguments(tmp_path: Path) -> None:
    config = tmp_path / "claimgraph.toml"
    config.write_text('[store]\nlocation = "from-file"\ntimeout = 5\nallowed_services = ["http://a.example/sparql"]\n', encoding="utf-8")
    settings = load_settings(config, environ={"CLAIMGRAPH_STORE_TIMEOUT": "7"}, store={"retries": 9})
    assert settings.store == StoreSettings(location="from-file", timeout=7.0, retries=9, allowed_services=frozenset({"http://a.example/sparql"}))


@pytest.mark.parametrize(("text", "message"), [
    ('[stor]\nlocation = "x"\n', "unknown table or key 'stor'"),
    ('[store]\nlocaton = "x"\n', "unknown [store] settings ['locaton']"),
    ('[canonicalize]\nembeder = "x"\n', "unknown [canonicalize] settings ['embeder']"),
    ('[store]\ntimeout = "soon"\n', "timeout = 'soon' is not a valid float"),
    ('[store]\nretries = -1\n', "retries must be 0 or more"),
    ('store = 3\n', "store must be a table"),
])
def test_a_wrong_setting_is_an_error_naming_it(tmp_path: Path, text: str, message: str) -> None:
    config = tmp_path / "claimgraph.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError) as error:
        load_settings(config, environ={})
    assert message in str(error.value)


def test_settings_are_frozen_once_the_store_is_open(tmp_path: Path) -> None:
    with claimgraph.open(tmp_path / "store") as graph:
        with pytest.raises(AttributeError):
            graph.settings.store.timeout = 1  # type: ignore[misc]
        assert graph.location.endswith("store")
