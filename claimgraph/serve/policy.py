"""What a served query or update may reach outside the store: SERVICE and LOAD targets on an allow-list.

A SPARQL ``SERVICE <url>`` makes the server an HTTP client of any host the
query names, and ``LOAD <url>`` fetches any URL into the store; neither may be
used to reach hosts the operator did not list (``--allow-service URL``), like
``claimgraph query --allow-service``. The text is checked as the SPARQL parser
will read it: codepoint escapes (``\\u0053ERVICE``) are decoded first, and
strings, IRIs and comments are single tokens, so a SERVICE inside a string
literal is not a call while one written with escapes is. A target given as a
variable or a prefixed name cannot be checked and is refused.

The parser recurses once per nested group, parenthesis or bracket, so a text
nested thousands deep overflows its stack and kills the process running it;
``nesting_refusal`` turns such a text away before it is parsed.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from claimgraph.rdf.binding import Token, tokenize

_CODEPOINT = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_REACHING = frozenset({"SERVICE", "LOAD"})
MAX_NESTING = 256
_OPENING, _CLOSING = frozenset("{(["), frozenset("})]")


@dataclass(frozen=True)
class Refusal:
    """Why a query or update may not run: the keyword and the target as written."""

    keyword: str
    target: str

    @property
    def message(self) -> str:
        if self.target.startswith("<") and self.target.endswith(">"):
            return (f"{self.keyword} {self.target} is not allowed by this server; "
                    f"its operator can permit it with --allow-service {self.target[1:-1]}")
        return (f"{self.keyword} {self.target} is not allowed: only {self.keyword} to a full IRI "
                "on the server's --allow-service list may run")


def decode_codepoints(sparql: str) -> str:
    """The text with SPARQL codepoint escapes replaced by their characters, as the parser sees it."""

    def replace(match: re.Match[str]) -> str:
        value = int(match.group(1) or match.group(2), 16)
        return chr(value) if value <= 0x10FFFF else match.group(0)

    return _CODEPOINT.sub(replace, sparql)


def _target(tokens: list[Token], position: int) -> Token | None:
    """The first significant token after ``position``, skipping a SILENT."""
    following = [token for token in tokens[position + 1:] if token.kind not in ("space", "comment")]
    if following and following[0].kind == "word" and following[0].text.upper() == "SILENT":
        following = following[1:]
    return following[0] if following else None


def refusal(sparql: str, allowed: Collection[str]) -> Refusal | None:
    """The first SERVICE or LOAD whose target is not in ``allowed`` (full IRIs), else None."""
    tokens = tokenize(decode_codepoints(sparql))
    for position, token in enumerate(tokens):
        if token.kind != "word" or token.text.upper() not in _REACHING:
            continue
        before = tokens[position - 1].text if position > 0 else ""
        after = tokens[position + 1].text if position + 1 < len(tokens) else ""
        if ":" in (before, after):
            continue  # part of a prefixed name such as ex:service or load:x
        target = _target(tokens, position)
        if target is None or target.kind != "iri" or target.text[1:-1] not in allowed:
            return Refusal(token.text.upper(), target.text if target is not None else "(nothing)")
    return None


def nesting_depth(sparql: str) -> int:
    """The deepest nesting of ``{``, ``(`` and ``[`` in the text (strings, IRIs and comments left out)."""
    depth = deepest = 0
    for token in tokenize(sparql):
        if token.text in _OPENING and token.kind in ("open", "other"):
            depth += 1
            deepest = max(deepest, depth)
        elif token.text in _CLOSING and token.kind in ("close", "other"):
            depth = max(0, depth - 1)
    return deepest


def nesting_refusal(sparql: str, limit: int = MAX_NESTING) -> str | None:
    """Why the text is too deeply nested to parse safely, else None."""
    depth = nesting_depth(sparql)
    if depth <= limit:
        return None
    return (f"the request nests groups, parentheses or brackets {depth} levels deep; "
            f"this server parses at most {limit} levels")
