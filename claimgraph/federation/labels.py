"""Comparable forms of labels: what "the same label" means when a node's text meets an ontology term.

Case, Unicode compatibility forms, hyphens, slashes and punctuation, British
spellings and Greek letters do not make two labels different: "TNF-α",
"tnf alpha" and "TNF alpha" compare equal, as do "randomised controlled
trial" and "Randomized Controlled Trial". Digits stay: "IL-6" and "IL-10"
differ. The word lists are in label_words.toml.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import cache
from pathlib import Path

WORDS_FILE = Path(__file__).with_name("label_words.toml")
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_/]+")
_PUNCTUATION = re.compile(r"[^\w\s]")
_WORD = re.compile(r"\w+")


@cache
def label_words() -> tuple[dict[str, str], dict[str, str]]:
    """(spelling variants, Greek letters) from label_words.toml."""
    data = tomllib.loads(WORDS_FILE.read_text(encoding="utf-8"))
    return dict(data.get("spelling", {})), dict(data.get("greek", {}))


def normalized_label(text: str) -> str:
    """The comparable form of a label: lower case, words separated by single spaces, spellings unified."""
    spelling, greek = label_words()
    value = unicodedata.normalize("NFKC", text).casefold()
    for letter, name in greek.items():
        value = value.replace(letter, f" {name} ")
    value = value.replace("'s ", " ").replace("’s ", " ")
    value = _PUNCTUATION.sub(" ", _SEPARATORS.sub(" ", value))
    words = [spelling.get(word, word) for word in _WORD.findall(value)]
    return " ".join(words)
