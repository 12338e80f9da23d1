"""Answers of the viewer API kept while the store's state is unchanged.

Counting every paper, or every hub with its members, takes seconds on a large
store; the answer changes only when the store does, so it is computed once per
state. A state of None (a remote store, whose changes the server cannot see)
is never cached.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class StateCache:
    """Named values computed once per store state."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: Hashable | None = None
        self._values: dict[str, Any] = {}

    def remember(self, name: str, state: Hashable | None, compute: Callable[[], Any]) -> Any:
        with self._lock:
            if state is not None and state == self._state and name in self._values:
                return self._values[name]
        value = compute()
        if state is not None:
            with self._lock:
                if state != self._state:
                    self._state, self._values = state, {}
                self._values[name] = value
        return value
