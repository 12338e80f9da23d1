"""Paper ids from free text (file names, ARCHE base ids): the one rule every loader uses.

An id is the text's ASCII slug (lowercase; accents dropped, other runs of
punctuation and spaces become ``-``) when that slug says what the text says.
When it cannot, a short hash of the original text keeps distinct texts apart:

- nothing ASCII is left (``"日本語の論文"``): ``paper-<12 hex>``;
- letters or digits were dropped (``"日本語-1"`` and ``"中文-1"`` would both slug
  to ``1``) or the slug was cut to fit: ``<slug>-<12 hex>``.

Ids always match ``PAPER_ID_PATTERN``, the pattern the IRI scheme accepts.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

PAPER_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
MAX_ID_LENGTH = 200
HASH_LENGTH = 12
_NOT_ID_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")


def paper_id_from_text(text: str) -> str:
    """A stable paper id for ``text``, distinct for texts that differ in more than case and punctuation."""
    decomposed = unicodedata.normalize("NFKD", text)
    slug = _NOT_ID_CHARACTERS.sub("-", decomposed.encode("ascii", "ignore").decode("ascii")).strip("-._").lower()
    if not slug:
        return f"paper-{_digest(text)}"
    if _drops_letters_or_digits(decomposed) or len(slug) > MAX_ID_LENGTH:
        return f"{slug[:MAX_ID_LENGTH - HASH_LENGTH - 1].rstrip('-._')}-{_digest(text)}"
    return slug


def _drops_letters_or_digits(decomposed: str) -> bool:
    """Whether the ASCII slug loses a non-ASCII letter or digit (accents, being marks, do not count)."""
    return any(not char.isascii() and unicodedata.category(char)[0] in "LN" for char in decomposed)


def _digest(text: str) -> str:
    """Hex digest of the text as given; lone surrogates are hashed too rather than raising."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_LENGTH]
