"""Reading the viewer API's query parameters, and the error a request that cannot be answered raises."""

from __future__ import annotations

import re
from collections.abc import Mapping

from claimgraph.errors import ClaimgraphError


class ApiError(ClaimgraphError):
    """A viewer API request that cannot be answered: the HTTP status and the message for the viewer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def one(params: Mapping[str, list[str]], name: str, default: str | None = None) -> str | None:
    values = params.get(name)
    if not values:
        return default
    if len(values) > 1:
        raise ApiError(400, f"parameter {name!r} is given {len(values)} times; give it once")
    return values[0]


def positive_int(params: Mapping[str, list[str]], name: str, default: int, cap: int) -> int:
    """A positive integer parameter, at most ``cap``."""
    value = one(params, name, str(default)) or ""
    if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
        raise ApiError(400, f"{name} must be a positive integer, not {value!r}")
    return min(int(value), cap)
