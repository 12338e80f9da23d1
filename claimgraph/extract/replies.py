"""Items out of an LLM reply: never raises, never evaluates code.

A reply may hold JSON, JSON in a code fence or between prose, several JSON
objects, Python literals (single quotes, True/None, tuples), trailing commas,
unescaped quotes inside strings, or be cut off mid-item. The parser:

1. scans the reply for bracketed spans (``{...}`` or ``[...]``) while skipping
   string contents, so brackets and quotes inside strings never confuse it.
   A quote opens a string only after ``[ { ( , :`` (so an apostrophe in prose
   does not), and closes it only before ``, : } ] )`` or the end (so an
   unescaped quote inside a string is kept as text);
2. decodes each span with the strictest reader that accepts it: ``json``, then
   ``python-literal`` (``ast.literal_eval``, which evaluates no code), then
   ``lenient`` (rewrites the span as JSON: re-quoted strings, Python keywords,
   tuples, no trailing commas, bare words as strings);
3. for a span cut off by the end of the reply (``truncated``), keeps the text
   up to the last complete element of a list, closes the open brackets and
   decodes that: complete items are kept, the partial one is dropped;
4. a closed span that fails is reported and the lists or list elements
   directly inside it are tried;
5. items are the objects of a top-level list, of the lists under the expected
   keys (without ``expected``: under any known key such as "entities",
   "edges"), of a lone wrapper object's value, or the object itself.

``ParseResult.branch`` is the most tolerant reader used (or "none").
"""

from __future__ import annotations

import ast
import heapq
import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

BRANCHES = ("json", "python-literal", "lenient", "truncated")
ITEM_KEYS = ("entities", "nodes", "edges", "relations", "relationships", "associations", "items", "results")
MAX_SPANS = 500

_CLOSERS = {"{": "}", "[": "]", "(": ")"}
_OPENS_STRING_AFTER = frozenset("[{(,:")
_CLOSES_STRING_BEFORE = frozenset(",:}])")
_TOP_OPENER = re.compile(r"[{\[]")
_BARE_WORD = re.compile(r"[^\s,:\[\]{}()]+")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_KEYWORDS = {"true": "true", "True": "true", "false": "false", "False": "false",
             "null": "null", "None": "null", "none": "null", "NaN": "NaN"}


@dataclass
class ParseResult:
    items: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[str] = field(default_factory=list)
    branch: str = "none"


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    complete: bool
    cut: tuple[int, str] | None  # (position after the last complete list element, closing brackets)
    inner_openers: tuple[int, ...]  # where to look for items when the span fails (see _scan)


def _previous_significant(text: str, index: int, floor: int) -> str:
    index -= 1
    while index >= floor and text[index].isspace():
        index -= 1
    return text[index] if index >= floor else ""


def _next_significant(text: str, index: int) -> str:
    while index < len(text) and text[index].isspace():
        index += 1
    return text[index] if index < len(text) else ""


def _string_end(text: str, start: int) -> int | None:
    """Index after the closing quote of the string opened at ``start``; None when cut off."""
    quote = text[start]
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            following = _next_significant(text, index + 1)
            if following == "" or following in _CLOSES_STRING_BEFORE:
                return index + 1
        index += 1
    return None


def _opens_string(text: str, index: int, floor: int) -> bool:
    return text[index] in "\"'" and _previous_significant(text, index, floor) in _OPENS_STRING_AFTER


def _scan(text: str, start: int) -> _Span:
    """The bracketed span opened at ``start``: where it ends, whether it closed, where it could be cut.

    If the span cannot be decoded, its direct children that may hold items are
    tried instead: the elements of a list, the lists inside an object. A span
    cut off by the end of the reply offers none: what is nested in a cut-off
    item (a value's own object) is not an item.
    """
    stack = [_CLOSERS[text[start]]]
    cut: tuple[int, str] | None = None
    openers: list[int] = []
    index = start + 1
    while index < len(text):
        char = text[index]
        if _opens_string(text, index, start):
            end = _string_end(text, index)
            if end is None:
                break
            index = end
            continue
        if char in _CLOSERS:
            stack.append(_CLOSERS[char])
            if len(stack) == 2 and (char == "[" or (char == "{" and text[start] == "[")):
                openers.append(index)
        elif char in ")]}":
            if char != stack[-1]:
                return _Span(start, index + 1, False, None, tuple(openers))
            stack.pop()
            if not stack:
                return _Span(start, index + 1, True, None, tuple(openers))
            if stack[-1] in "])":
                cut = (index + 1, "".join(reversed(stack)))
        index += 1
    return _Span(start, len(text), False, cut, ())


def _decode_string(token: str) -> str:
    """The value of one quoted string token, its unescaped inner quotes kept as text."""
    quote, body = token[0], token[1:-1]
    escaped, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            escaped.append(body[index:index + 2])
            index += 2
            continue
        escaped.append("\\n" if char == "\n" else "\\" + char if char == quote else char)
        index += 1
    literal = quote + "".join(escaped) + quote
    if quote == '"':
        try:
            return str(json.loads(literal, strict=False))
        except ValueError:
            pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = ast.literal_eval(literal)
        return value if isinstance(value, str) else body
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return body


def _word_as_json(word: str) -> str:
    if word in _KEYWORDS:
        return _KEYWORDS[word]
    if _JSON_NUMBER.fullmatch(word):
        return word
    try:
        number = float(word.replace("_", ""))
        return json.dumps(int(number) if number.is_integer() and "." not in word and "e" not in word.lower() else number)
    except (ValueError, OverflowError):
        return json.dumps(word)


def _lenient_json(span: str) -> str:
    """The span rewritten as JSON text (it may still be invalid, e.g. two values without a comma)."""
    out: list[str] = []
    index = 0
    while index < len(span):
        char = span[index]
        if char.isspace():
            index += 1
        elif char in "\"'" and (not out or out[-1] in ("[", "{", ",", ":")):
            end = _string_end(span, index)
            if end is None:
                raise ValueError("unterminated string")
            out.append(json.dumps(_decode_string(span[index:end]), ensure_ascii=False))
            index = end
        elif char in "{[(":
            out.append("[" if char == "(" else char)
            index += 1
        elif char in "}])":
            if out and out[-1] == ",":
                out.pop()
            out.append("]" if char == ")" else char)
            index += 1
        elif char == ",":
            if out and out[-1] not in ("[", "{", ","):
                out.append(",")
            index += 1
        elif char == ":":
            out.append(":")
            index += 1
        else:
            word = _BARE_WORD.match(span, index)
            if word is None:
                raise ValueError(f"unexpected {char!r}")
            out.append(_word_as_json(word.group(0)))
            index = word.end()
    return "".join(out)


def _decode(text: str) -> tuple[Any, str] | None:
    """(value, branch) of the first reader that accepts the text, else None."""
    readers = (
        ("json", json.loads),
        ("python-literal", ast.literal_eval),
        ("lenient", lambda source: json.loads(_lenient_json(source))),
    )
    for branch, reader in readers:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return reader(text), branch
        except Exception:  # noqa: BLE001 - any failure of a reader means "try the next one"
            continue
    return None


def _text(value: str) -> str:
    """Surrogate pairs (``"\\ud83e\\uddea"`` read by literal_eval) joined; a lone surrogate becomes U+FFFD."""
    if not any("\ud800" <= char <= "\udfff" for char in value):
        return value
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _plain(value: Any) -> Any:
    """Python-literal values as JSON-like data: tuples and sets become lists, keys become strings."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict):
        return {_text(str(key)): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(item) for item in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, complex) or value is Ellipsis:
        return str(value)
    return value


def _objects(values: list[Any], where: str, diagnostics: list[str]) -> list[dict[str, Any]]:
    objects = [value for value in values if isinstance(value, dict)]
    if len(objects) < len(values):
        diagnostics.append(f"{where}: skipped {len(values) - len(objects)} element(s) that are not objects")
    return objects


def _items(value: Any, expected: tuple[str, ...], where: str, diagnostics: list[str]) -> list[dict[str, Any]]:
    """The items a decoded value holds (see the module docstring, step 5)."""
    if isinstance(value, list):
        return _objects(value, where, diagnostics)
    if not isinstance(value, dict):
        diagnostics.append(f"{where}: skipped a lone {type(value).__name__} value")
        return []
    lists = {key: item for key, item in value.items() if isinstance(item, list)}
    known = [key for key in lists if key.lower() in (expected or ITEM_KEYS)]
    other = [key for key in lists if key.lower() in ITEM_KEYS and key not in known]
    if other and (known or expected):
        diagnostics.append(f"{where}: ignored {other} (expected {list(expected or ITEM_KEYS)})")
    if known or (other and expected):
        return [item for key in known for item in _objects(lists[key], f"{where} {key!r}", diagnostics)]
    if len(value) == 1:
        (inner,) = value.values()
        if isinstance(inner, dict) or (isinstance(inner, list) and inner and all(isinstance(item, dict) for item in inner)):
            return _items(inner, expected, where, diagnostics)
    return [value]


def _excerpt(text: str, start: int, end: int) -> str:
    snippet = re.sub(r"\s+", " ", text[start:end])
    return repr(snippet if len(snippet) <= 60 else snippet[:57] + "...")


def _decode_span(text: str, span: _Span) -> tuple[Any, str] | None:
    if span.complete:
        return _decode(text[span.start:span.end])
    if span.cut is None:
        return None
    position, closers = span.cut
    decoded = _decode(text[span.start:position] + closers)
    return (decoded[0], "truncated") if decoded else None


def parse_items(text: object, expected: str | Sequence[str] | None = None) -> ParseResult:
    """The item objects in an LLM reply, with diagnostics of everything skipped; never raises.

    ``expected`` names the key (or synonymous keys, e.g. ``("relations", "edges")``)
    whose list holds the items in an object reply; lists under other known keys
    are then ignored and reported. Without it, every known key's list is taken.
    """
    result = ParseResult()
    keys = tuple(key.lower() for key in ([expected] if isinstance(expected, str) else expected or ()))
    reply = text if isinstance(text, str) else ("" if text is None else str(text))
    if not reply.strip():
        result.diagnostics.append("empty reply")
        return result
    branches: list[str] = []
    candidates: list[int] = []
    resume = skip_before = failed_until = 0
    for _ in range(MAX_SPANS):
        while candidates and candidates[0] < skip_before:
            heapq.heappop(candidates)
        if candidates:
            start = heapq.heappop(candidates)
        else:
            match = _TOP_OPENER.search(reply, resume)
            if match is None:
                break
            start = match.start()
        span = _scan(reply, start)
        decoded = _decode_span(reply, span)
        where = f"offset {start}"
        if decoded is None:
            if start >= failed_until:
                problem = "unparseable" if span.complete else "cut off with no complete item"
                result.diagnostics.append(f"{where}: skipped {problem} text {_excerpt(reply, start, span.end)}")
            failed_until = max(failed_until, span.end)
            for opener in span.inner_openers:
                heapq.heappush(candidates, opener)
        else:
            value, branch = decoded
            if branch == "truncated":
                dropped = _excerpt(reply, span.cut[0], span.end) if span.cut else "''"
                result.diagnostics.append(f"{where}: reply cut off; kept the complete items, dropped {dropped}")
            result.items.extend(_items(_plain(value), keys, where, result.diagnostics))
            branches.append(branch)
            skip_before = span.end
        resume = max(resume, span.end)
    else:
        result.diagnostics.append(f"stopped after {MAX_SPANS} bracketed spans")
    if not branches:
        result.diagnostics.append("no JSON or Python literal found")
    result.branch = max(branches, key=BRANCHES.index, default="none")
    return result
