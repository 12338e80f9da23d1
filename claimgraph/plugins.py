"""Extension points: loaders, embedders, LLM backends, store backends and extractions, found through entry points.

A plugin is a small frozen object (``LoaderPlugin``, ``EmbedderPlugin``,
``LLMBackendPlugin``, ``StorePlugin``, ``ExtractorPlugin``) that a distribution names in its
metadata under the matching entry-point group::

    [project.entry-points."claimgraph.loaders"]
    bibtex = "my_package.bibtex:PLUGIN"

The entry point may name the plugin object, a list of them, or a function
returning either. claimgraph's own loaders, embedders, backends and stores are
registered exactly this way in its pyproject.toml, so a plugin is a peer of
the built-ins, not a special case. Nothing here imports a plugin's heavy
dependencies: a plugin's factory does that when it is called.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from claimgraph.errors import ClaimgraphError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from claimgraph.embedding.base import Embedder
    from claimgraph.llm.backends import ChatBackend
    from claimgraph.llm.config import LLMConfig
    from claimgraph.loaders.document import Document
    from claimgraph.store.base import Store


class PluginError(ClaimgraphError):
    """A plugin could not be loaded, or two plugins claim the same name."""


@dataclass(frozen=True)
class LoaderPlugin:
    """Reads files with the given suffixes (lower case, with the dot) into a Document."""

    name: str
    suffixes: tuple[str, ...]
    load: Callable[[Path], Document]


@dataclass(frozen=True)
class EmbedderPlugin:
    """Builds an embedder from the part of a spec after ``name:`` ("" when none was given)."""

    name: str
    make: Callable[[str], Embedder]
    description: str = ""


@dataclass(frozen=True)
class LLMBackendPlugin:
    """Builds a chat backend from the LLM settings; ``LLMConfig.backend`` names it."""

    name: str
    make: Callable[[LLMConfig], ChatBackend]


@dataclass(frozen=True)
class StorePlugin:
    """Opens a store for locations with one of ``schemes`` (``""``: a plain path); ``open(location, read_only)``."""

    name: str
    schemes: tuple[str, ...]
    open: Callable[[str, bool], Store]


@dataclass(frozen=True)
class ExtractorPlugin:
    """What a profile extracts with the LLM; a profile names it in its manifest (``extraction = NAME``).

    ``extract(ctx, documents, llm, accounting)`` and ``rerun(ctx, paper_ids, steps, llm, accounting)`` return,
    per paper, an ``ExtractionReport`` (its content written to the raw graph, or held for the workflow to
    repair and store) or the error that stopped that paper alone. Neither repairs nor gates: the workflow
    does that once for every profile. ``steps`` are the step names ``rerun`` accepts, in their order.
    ``reads_given_claims``: inputs that give their claims (ARCHE viewpoints) are extracted too, the claims
    being part of what the LLM is shown; otherwise such inputs are stored as given and not sent.
    """

    name: str
    steps: tuple[str, ...]
    extract: Callable[..., dict[str, Any]]
    rerun: Callable[..., dict[str, Any]]
    reads_given_claims: bool = False


GROUPS: dict[type, str] = {
    LoaderPlugin: "claimgraph.loaders",
    EmbedderPlugin: "claimgraph.embedders",
    LLMBackendPlugin: "claimgraph.llm_backends",
    StorePlugin: "claimgraph.stores",
    ExtractorPlugin: "claimgraph.extractors",
}

P = TypeVar("P", LoaderPlugin, EmbedderPlugin, LLMBackendPlugin, StorePlugin, ExtractorPlugin)


def _resolve(entry: EntryPoint, kind: type) -> list[Any]:
    try:
        value = entry.load()
        if callable(value) and not isinstance(value, kind):
            value = value()
    except Exception as error:
        raise PluginError(f"plugin {entry.name!r} ({entry.value}) in group {entry.group} cannot be loaded: {type(error).__name__}: {error}") from error
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    wrong = [item for item in items if not isinstance(item, kind)]
    if wrong:
        raise PluginError(f"plugin {entry.name!r} ({entry.value}) gave {type(wrong[0]).__name__}, expected {kind.__name__}")
    return items


@cache
def _registered(group: str) -> tuple[Any, ...]:
    from importlib.metadata import entry_points  # imported here: scanning installed metadata is not free

    kind = next(kind for kind, name in GROUPS.items() if name == group)
    found: dict[str, Any] = {}
    for entry in sorted(entry_points(group=group), key=lambda entry: (entry.name, entry.value)):
        for plugin in _resolve(entry, kind):
            if plugin.name in found and found[plugin.name] != plugin:
                raise PluginError(f"two {kind.__name__}s are named {plugin.name!r} (group {group}); uninstall one")
            found[plugin.name] = plugin
    return tuple(found.values())


def registered(kind: type[P]) -> tuple[P, ...]:
    """Every plugin of a kind, built-ins included, in name order."""
    return cast("tuple[P, ...]", _registered(GROUPS[kind]))


def find(kind: type[P], name: str) -> P | None:
    """The plugin of this kind with this name, or None."""
    return next((plugin for plugin in registered(kind) if plugin.name == name), None)


def names(plugins: Iterable[Any]) -> str:
    return ", ".join(plugin.name for plugin in plugins)


def forget_plugins() -> None:
    """Drop what was discovered, so that newly installed plugins are found (tests use this)."""
    _registered.cache_clear()
