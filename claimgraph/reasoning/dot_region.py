"""Where the DOT graph is in a response, and whether the text closes it.

``scan_region`` walks the text once, aware of strings and comments: from the
first graph header (``digraph NAME {``) to its matching closing brace. Code
fences before the header are dropped; a fence reached while the graph is still
open ends it (the brace was forgotten, the answer was not cut). What it finds:

- ``closed``: the brace matched (``end``: where the text after it starts,
  which ``next_graph`` searches for another graph); ``fenced``: the graph stops at a closing fence
  without its brace; ``open``: the text ends inside the graph; ``headless``: no
  header, the whole text (fences dropped) is read as statements.
- ``open_string``: the text ends inside a string. When statements or the
  graph's closing brace follow on later lines, a quote was left open in the
  middle and swallowed them (``swallowed``); otherwise the text was cut inside
  a string.
  A string that spans a line break followed by what reads as a node or edge
  statement also swallowed statements (a later escaped quote can put the
  quotes back in step, so the text may still close).
- ``stray_brace``: the text reaches the graph's closing brace, but a brace
  opened inside the graph is never closed, so that brace closed the inner one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GRAPH_START = re.compile(r"\b(?:strict\s+)?(?:di)?graph\b[^{\n\"]*\{", re.IGNORECASE)
_FENCE_LINE = re.compile(r"[ \t]*```[^\n]*(?:\n|$)")
_STATEMENT_AFTER = re.compile(r"\n[ \t]*(?:\}|[\w\"]+[ \t]*(?:->|-->|→|=>|\[|:|=))")
_STATEMENT_INSIDE = re.compile(r"\n[ \t]*\"?[\w.-]+\"?[ \t]*(?:\[|->|-->|→|=>)")


@dataclass
class Region:
    body: str
    state: str  # closed | fenced | open | headless
    open_string: bool = False
    swallowed: bool = False
    stray_brace: bool = False
    line_of_problem: int = 0
    end: int = -1  # offset just after the graph's closing brace (closed graphs only)

    @property
    def truncated(self) -> bool:
        """The text ends inside the graph (or inside a string) without a quote or brace left open earlier."""
        return self.state == "open" and not self.swallowed and not self.stray_brace


def next_graph(text: str, region: Region) -> int:
    """The offset of another graph header after a closed region's closing brace, -1 when none follows."""
    if region.state != "closed" or region.end < 0:
        return -1
    header = _GRAPH_START.search(text, region.end)
    return header.start() if header else -1


def _line_start(text: str, index: int) -> bool:
    return index == 0 or text[index - 1] == "\n"


def _skip_comment(text: str, index: int) -> int:
    """The index after a comment starting at ``index`` (``//``, ``/* */``, ``#`` at a line start), else ``index``."""
    if text.startswith("//", index):
        end = text.find("\n", index)
        return len(text) if end == -1 else end
    if text.startswith("/*", index):
        end = text.find("*/", index + 2)
        return len(text) if end == -1 else end + 2
    if text[index] == "#" and (index == 0 or text[index - 1] == "\n" or text[:index].rsplit("\n", 1)[-1].strip() == ""):
        end = text.find("\n", index)
        return len(text) if end == -1 else end
    return index


_GRAPH_MATERIAL = re.compile(r'["\[\]=;{]|->|-->|→|=>')
_STRING_STOP = re.compile(r'[\\"]')
_OUTSIDE_STOP = re.compile(r'["{}/#\n]')


def scan_region(text: str) -> Region:
    """The graph part of a response and how the text leaves it (see the module docstring).

    Walks from one significant character to the next (quotes, braces, comment
    starts, line breaks; inside a string: quotes and backslashes).
    """
    header = _GRAPH_START.search(text)
    index = header.end() if header else 0
    depth = 1 if header else 0
    opened: list[int] = []
    last_closed = -1
    body: list[str] = []
    string_start = -1
    swallowed_at = -1
    at_line_start = _line_start(text, index)
    while index < len(text):
        if string_start >= 0:
            stop = _STRING_STOP.search(text, index)
            if stop is None:
                body.append(text[index:])
                index = len(text)
                break
            if text[stop.start()] == "\\":
                body.append(text[index:stop.start() + 2])
                index = stop.start() + 2
                continue
            body.append(text[index:stop.end()])
            if swallowed_at < 0 and _STATEMENT_INSIDE.search(text, string_start, stop.start()):
                swallowed_at = string_start
            string_start, index = -1, stop.end()
            continue
        if at_line_start and (fence := _FENCE_LINE.match(text, index)):
            if header:
                return _swallowed(_unclosed(text, "".join(body), "fenced", last_closed), text, swallowed_at)
            index = fence.end()
            continue
        stop = _OUTSIDE_STOP.search(text, index)
        if stop is None:
            body.append(text[index:])
            break
        body.append(text[index:stop.start()])
        index = stop.start()
        at_line_start = False
        char = text[index]
        if char in "/#":
            after_comment = _skip_comment(text, index)
            if after_comment != index:
                index = after_comment
                continue
        elif char == "\n":
            at_line_start = True
        elif char == '"':
            string_start = index
        elif char == "{" and header:
            depth += 1
            opened.append(index)
        elif char == "}" and header:
            depth -= 1
            if opened:
                last_closed = opened.pop()
            if depth == 0:
                return _swallowed(Region("".join(body), "closed", end=index + 1), text, swallowed_at)
        body.append(char)
        index += 1
    if not header:
        return Region("".join(body), "headless", open_string=string_start >= 0)
    if string_start >= 0:
        swallowed = swallowed_at >= 0 or bool(_STATEMENT_AFTER.search(text, string_start))
        at = swallowed_at if swallowed_at >= 0 else string_start
        return Region("".join(body), "open", open_string=True, swallowed=swallowed, line_of_problem=text.count("\n", 0, at) + 1)
    return _swallowed(_unclosed(text, "".join(body), "open", last_closed), text, swallowed_at)


def _swallowed(region: Region, text: str, at: int) -> Region:
    """The region marked as one where a string swallowed statements (starting at offset ``at``, -1: none)."""
    if at >= 0 and not region.swallowed:
        region.swallowed = True
        region.stray_brace = False
        region.line_of_problem = text.count("\n", 0, at) + 1
    return region


def _unclosed(text: str, body: str, state: str, last_closed: int) -> Region:
    """A graph whose brace never matched. When the body ends with a closing brace (prose may follow it),
    that brace closed an inner one opened earlier (``last_closed``): a stray brace, not a cut."""
    lines = body.rstrip().splitlines()
    while lines and not _GRAPH_MATERIAL.search(lines[-1]) and "}" not in lines[-1]:
        lines.pop()  # prose after the last brace: the answer went on after its graph
    if lines and lines[-1].rstrip().endswith("}"):
        return Region(body, state, stray_brace=True, line_of_problem=text.count("\n", 0, max(last_closed, 0)) + 1)
    return Region(body, state)
