"""Exception types a user can act on; the CLI turns each into a one-line message."""

from __future__ import annotations

from collections.abc import Iterable


class ClaimgraphError(Exception):
    """Base class of every error claimgraph reports to a user."""


class AssetNotFoundError(ClaimgraphError):
    """An ontology, shape, query or profile file is missing."""


class StoreError(ClaimgraphError):
    """The triplestore refused or failed an operation."""


class LoaderError(ClaimgraphError):
    """An input file could not be turned into a Document."""

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class ProfileError(ClaimgraphError):
    """A profile manifest is missing or inconsistent."""


class QueryNotFoundError(ClaimgraphError):
    """A named query does not exist in sparql/queries."""


class MissingExtraError(ClaimgraphError):
    """A feature needs a package that the default install leaves out; the message names the extra that brings it."""


EXTRAS = {
    "torch": "sentence-transformers on PyTorch: the st: embedder, the cross-encoder pair model, exporting other models to ONNX",
    "rudof": "rudof, the fast ShEx engine (pyshex alone validates without it, about ten times slower)",
}


def require(module: str, extra: str, purpose: str) -> None:
    """Import ``module`` (checking that it is installed) or say which extra to install for ``purpose``."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as error:
        raise MissingExtraError(f"{purpose} needs the Python package {module!r} ({error}); install it with "
                                f"pip install 'claimgraph[{extra}]' ({EXTRAS[extra]})") from None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` naming the closest known words, or "" when none is close."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(item) for item in close)}?)" if close else ""
