"""HTTP content negotiation: which of the media types a resource offers an ``Accept`` header prefers.

The rules of RFC 9110 section 12.5.1: each offered type takes the quality of
the most specific media range that matches it (``type/subtype`` over
``type/*`` over ``*/*``); ``q=0`` refuses a type; among the acceptable types
the highest quality wins, ties going to the server's order of preference. A
missing or empty header accepts anything. Malformed ranges are skipped rather
than failing the request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class MediaRange:
    """One element of an Accept header: ``type/subtype`` (either may be ``*``) with its quality."""

    type: str
    subtype: str
    quality: float

    def specificity(self, media_type: str) -> int | None:
        """How specifically this range matches ``media_type`` (2 exact, 1 ``type/*``, 0 ``*/*``), None when it does not."""
        kind, _, subtype = media_type.partition("/")
        if self.type == "*":
            return 0
        if self.type != kind:
            return None
        if self.subtype == "*":
            return 1
        return 2 if self.subtype == subtype else None


def _quality(parameters: list[str]) -> float | None:
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return None
            return quality if 0.0 <= quality <= 1.0 else None
    return 1.0


def parse_accept(header: str) -> list[MediaRange]:
    """The media ranges of an Accept header, malformed ones left out."""
    ranges = []
    for item in header.split(","):
        media, *parameters = item.split(";")
        kind, slash, subtype = media.strip().lower().partition("/")
        quality = _quality(parameters)
        if not slash or not kind or not subtype or quality is None or (kind == "*" and subtype != "*"):
            continue
        ranges.append(MediaRange(kind, subtype, quality))
    return ranges


def choose(header: str | None, offered: Sequence[str]) -> str | None:
    """The offered media type the header prefers, or None when it accepts none of them (answer 406)."""
    if not offered:
        return None
    if header is None or not header.strip():
        return offered[0]
    ranges = parse_accept(header)
    if not ranges:
        return offered[0]
    best: tuple[float, int] | None = None
    chosen = None
    for position, media_type in enumerate(offered):
        matches = [(specificity, media_range.quality) for media_range in ranges
                   if (specificity := media_range.specificity(media_type)) is not None]
        if not matches:
            continue
        quality = max(matches)[1]
        if quality > 0 and (best is None or (quality, -position) > best):
            best, chosen = (quality, -position), media_type
    return chosen


def media_type_of(content_type: str | None) -> str:
    """``application/sparql-query; charset=utf-8`` -> ``application/sparql-query`` (lower case)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def charset_of(content_type: str | None) -> str:
    """The charset parameter of a Content-Type, utf-8 when absent."""
    for parameter in (content_type or "").split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower() or "utf-8"
    return "utf-8"
