"""How long work reports progress: steps with a total, advanced item by item.

The workflow and the steps it runs call a ``Progress``; the command line
renders it (a bar with rate and ETA on a terminal, periodic plain lines in a
log), a Python caller may pass its own, and ``SILENT`` ignores it all.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, step: str, total: int) -> None:
        """A step begins; ``total`` items are expected (0 when unknown)."""

    def advance(self, step: str, count: int = 1, item: str = "", error: str | None = None) -> None:
        """``count`` more items of the step are done; ``error`` says why ``item`` failed."""

    def finish(self, step: str) -> None:
        """The step is over."""


class SilentProgress:
    """A Progress that reports nothing."""

    def start(self, step: str, total: int) -> None:
        """Nothing to show."""

    def advance(self, step: str, count: int = 1, item: str = "", error: str | None = None) -> None:
        """Nothing to show."""

    def finish(self, step: str) -> None:
        """Nothing to show."""


SILENT: Progress = SilentProgress()
