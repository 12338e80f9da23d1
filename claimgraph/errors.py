"""Exception types a user can act on; the CLI turns each into a one-line message."""


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
