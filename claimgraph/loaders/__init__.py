"""Input formats -> the common Document. ``load_document`` picks the loader by file type.

No input file reaches a traceback: whatever is wrong with a file (missing,
unreadable, wrong encoding, malformed, hostile, over a limit of
``claimgraph.loaders.limits``), ``load_document`` raises a LoaderError naming
the file and the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders import input_paths
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.document_checks import check_document
from claimgraph.plugins import LoaderPlugin, PluginError, registered

Loader = Callable[[Path], Document]

__all__ = ["Document", "Passage", "Reference", "Sentence", "Viewpoint", "find_inputs", "load_document", "loaders"]


def loaders() -> dict[str, Loader]:
    """File suffix (lower case, with the dot) -> loader, from the registered loader plugins."""
    table: dict[str, Loader] = {}
    owner: dict[str, str] = {}
    for plugin in registered(LoaderPlugin):
        for suffix in plugin.suffixes:
            if suffix in owner:
                raise PluginError(f"loader plugins {owner[suffix]!r} and {plugin.name!r} both read {suffix} files; uninstall one")
            table[suffix], owner[suffix] = plugin.load, plugin.name
    return table


def load_document(path: Path, follow_symlinks: bool = False) -> Document:
    """Load one file with the loader registered for its suffix; LoaderError for anything wrong with it.

    A symbolic link is refused unless ``follow_symlinks`` (see ``claimgraph.loaders.input_paths``).
    """
    table = loaders()
    input_paths.check_input_path(path, table, follow_symlinks)
    loader = table.get(path.suffix.lower())
    if loader is None:
        known = ", ".join(sorted(table))
        raise LoaderError(path, f"unsupported file type {path.suffix or '(none)'!r}; known: {known}")
    document = loader(path)
    check_document(path, document)
    return document


def find_inputs(paths: Iterable[Path], follow_symlinks: bool = False) -> Iterator[Path]:
    """Files to ingest: each file given, and the supported files inside each folder given.

    Never raises: a missing path, a folder without a supported file, or a
    symbolic link (unless ``follow_symlinks``), is yielded as it is so that
    ``load_document`` reports it for that item.
    """
    return input_paths.find_inputs(paths, loaders(), follow_symlinks)
