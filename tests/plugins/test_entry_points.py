"""Plugins are found through entry points, the built-ins registered the same way a third party's would be."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from claimgraph.loaders import find_inputs, load_document, loaders
from claimgraph.plugins import EmbedderPlugin, LLMBackendPlugin, LoaderPlugin, PluginError, StorePlugin, forget_plugins, registered
from claimgraph.store import open_store

TOY_MODULE = '''
from pathlib import Path

from claimgraph.loaders.document import Document, Passage, Sentence
from claimgraph.plugins import LoaderPlugin


def load_toy(path: Path) -> Document:
    """One sentence per line of a .toy file."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    passage = Passage(index=1, heading="toy", sentences=[Sentence(n, text, 1) for n, text in enumerate(lines, start=1)])
    return Document(paper_id=path.stem, source=str(path), format="toy", passages=[passage])


PLUGIN = LoaderPlugin("toy", (".toy",), load_toy)
CLASH = LoaderPlugin("toy-json", (".json",), load_toy)
'''


def install_toy_package(folder: Path, entry_points: str) -> None:
    """A distribution on sys.path, as pip would leave it: a module and a dist-info with entry_points.txt."""
    (folder / "toy_claimgraph_plugin.py").write_text(TOY_MODULE, encoding="utf-8")
    info = folder / "toy_claimgraph_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-claimgraph-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


@pytest.fixture
def on_path(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "site"
    folder.mkdir()
    sys.path.insert(0, str(folder))
    forget_plugins()
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("toy_claimgraph_plugin", None)
        forget_plugins()


def test_the_built_ins_are_registered_through_entry_points() -> None:
    assert {plugin.name for plugin in registered(LoaderPlugin)} >= {"arche", "xml", "pdf", "markdown", "text"}
    assert {plugin.name for plugin in registered(StorePlugin)} >= {"embedded", "remote"}
    assert {plugin.name for plugin in registered(LLMBackendPlugin)} >= {"openai", "replay"}
    assert {plugin.name for plugin in registered(EmbedderPlugin)} >= {"minilm", "hashing", "openai"}


def test_an_installed_package_adds_a_loader_that_ingest_uses(on_path: Path, tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    paper = papers / "notes.toy"
    paper.write_text("First claim here.\nSecond claim there.\n", encoding="utf-8")
    assert ".toy" not in loaders()
    install_toy_package(on_path, "[claimgraph.loaders]\ntoy = toy_claimgraph_plugin:PLUGIN\n")
    forget_plugins()
    assert loaders()[".toy"].__name__ == "load_toy"
    assert list(find_inputs([papers])) == [paper]
    document = load_document(paper)
    assert (document.format, [s.text for s in document.sentences]) == ("toy", ["First claim here.", "Second claim there."])


def test_two_loaders_for_one_suffix_are_refused_by_name(on_path: Path, tmp_path: Path) -> None:
    install_toy_package(on_path, "[claimgraph.loaders]\nclash = toy_claimgraph_plugin:CLASH\n")
    forget_plugins()
    with pytest.raises(PluginError, match=r"'arche' and 'toy-json' both read \.json"):
        loaders()


def test_a_broken_plugin_names_itself(on_path: Path) -> None:
    install_toy_package(on_path, "[claimgraph.loaders]\nbroken = toy_claimgraph_plugin:MISSING\n")
    forget_plugins()
    with pytest.raises(PluginError, match=r"plugin 'broken' \(toy_claimgraph_plugin:MISSING\)"):
        loaders()


def test_an_unknown_store_scheme_is_refused_not_made_a_folder(tmp_path: Path) -> None:
    from claimgraph.errors import StoreError

    for location in ("ftp://example.org/store", "sqlite://x"):
        with pytest.raises(StoreError, match="unsupported URL scheme"):
            open_store(location)
    assert not any(tmp_path.iterdir())
    assert type(open_store("HTTP://127.0.0.1:9")).__name__ == "RemoteStore"
