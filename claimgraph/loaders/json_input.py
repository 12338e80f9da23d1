"""Strict JSON for input files: what the standard library would accept silently is refused by name.

- NaN, Infinity and -Infinity are not JSON (RFC 8259): refused wherever they appear.
- A number longer than MAX_NUMBER_DIGITS digits is refused before Python
  converts it (its int conversion limit would raise a bare ValueError), and so
  is a number too large for a float (``1e400`` would become infinity).
- A key given twice in one object is refused: which value was meant is ambiguous.
- Nesting deeper than MAX_NESTING_DEPTH is refused, also when it is deep
  enough to exhaust Python's recursion limit in the parser.
"""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from claimgraph.errors import LoaderError
from claimgraph.loaders.limits import MAX_NESTING_DEPTH, MAX_NUMBER_DIGITS, limit_error


class _StrictHooks:
    """The ``json.loads`` hooks for one file; each refusal names that file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _digits(self, literal: str) -> None:
        digits = sum(char.isdigit() for char in literal)
        if digits > MAX_NUMBER_DIGITS:
            raise limit_error(self.path, f"a JSON number has {digits:,} digits", "MAX_NUMBER_DIGITS")

    def integer(self, literal: str) -> int:
        self._digits(literal)
        return int(literal)

    def real(self, literal: str) -> float:
        self._digits(literal)
        value = float(literal)
        if not math.isfinite(value):
            raise LoaderError(self.path, f"the JSON number {literal} is too large to be read as a number")
        return value

    def constant(self, name: str) -> None:
        raise LoaderError(self.path, f"holds {name}, which is not valid JSON (RFC 8259); write a number or null")

    def unique_keys(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise LoaderError(self.path, f"a JSON object has the key {key!r} twice; which value is meant is ambiguous")
            result[key] = value
        return result


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a parse builds many containers, none in a cycle.

    Each collection it triggers scans every container built so far: a JSON
    file of a million empty arrays then parses in seconds instead of a tenth
    of one. Reference counting still frees everything as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_json(path: Path, text: str) -> Any:
    """The JSON value of ``text``, parsed strictly (see the module docstring)."""
    hooks = _StrictHooks(path)
    try:
        with _cyclic_gc_paused():
            data = json.loads(
                text, parse_int=hooks.integer, parse_float=hooks.real,
                parse_constant=hooks.constant, object_pairs_hook=hooks.unique_keys,
            )
            depth = nesting_depth(data, MAX_NESTING_DEPTH)
    except RecursionError:
        raise limit_error(path, "JSON arrays and objects nest too deep", "MAX_NESTING_DEPTH") from None
    except json.JSONDecodeError as error:
        raise LoaderError(path, f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from error
    if depth > MAX_NESTING_DEPTH:
        raise limit_error(path, f"JSON arrays and objects nest more than {MAX_NESTING_DEPTH} deep", "MAX_NESTING_DEPTH")
    return data


def nesting_depth(value: Any, limit: int) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar: 0), counting no further than ``limit + 1``.

    Walks one level at a time with comprehensions: a million containers take a fraction of a second.
    """
    depth, level = 0, [value]
    while level := [item for item in level if isinstance(item, (dict, list))]:
        depth += 1
        if depth > limit:
            break
        level = [child for item in level for child in (item.values() if isinstance(item, dict) else item)]
    return depth
