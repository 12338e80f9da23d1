"""Progress on standard error: one updating line on a terminal, periodic plain lines in a log.

Each line says the step, items done of the total, the rate and the estimated
time left. A failed item is printed on its own line at once, by name, so it
is never lost when the bar moves on.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

from claimgraph.cli.render import printable


@dataclass
class _Step:
    total: int
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    item: str = ""


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else f"{seconds // 60}:{seconds % 60:02d}"


class TerminalProgress:
    """A Progress for the command line; ``interval`` is the seconds between plain lines when not on a terminal."""

    def __init__(self, stream: TextIO | None = None, interval: float = 10.0, refresh: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval if not self.tty else refresh
        self.steps: dict[str, _Step] = {}
        self._last_line = 0.0
        self._line_open = False

    def start(self, step: str, total: int) -> None:
        self.steps[step] = _Step(total)
        self._last_line = 0.0
        if total:
            self._show(step, force=True)

    def advance(self, step: str, count: int = 1, item: str = "", error: str | None = None) -> None:
        state = self.steps.setdefault(step, _Step(0))
        state.done += count
        state.item = item
        if error:
            self._write(f"failed: {error}", newline=True)
        self._show(step)

    def finish(self, step: str) -> None:
        state = self.steps.pop(step, None)
        if state is None or (not state.done and not state.total):
            return
        elapsed = time.monotonic() - state.started
        rate = f", {state.done / elapsed:.1f}/s" if elapsed > 0 and state.done else ""
        self._write(f"{step}: {state.done}/{state.total or state.done} done in {_duration(elapsed)}{rate}", newline=True)

    def line(self, step: str) -> str:
        """The progress line of a running step."""
        state = self.steps[step]
        elapsed = time.monotonic() - state.started
        parts = [f"{step}: {state.done}/{state.total}" if state.total else f"{step}: {state.done}"]
        if state.done and elapsed > 0:
            rate = state.done / elapsed
            parts.append(f"{rate:.1f}/s")
            if state.total > state.done:
                parts.append(f"ETA {_duration((state.total - state.done) / rate)}")
        if state.item:
            parts.append(state.item)
        return "  ".join(parts)

    def _show(self, step: str, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._last_line >= self.interval:
            self._last_line = now
            self._write(self.line(step), newline=not self.tty)

    def _write(self, text: str, newline: bool) -> None:
        text = printable(text)
        if self.tty:
            self.stream.write("\r\x1b[2K" + text + ("\n" if newline else ""))
            self._line_open = not newline
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
