"""How far the guards' word lists and the generator's rewrite lexicon overlap.

The generated paraphrases are only a fair test of the guards if the guards were not given the
generator's synonyms. Two counts, both printed by bench/canonical_quality.py:

- ``synonym_overlap``: entries of the guards' synonym table (``[scope] synonyms`` in
  guards/words.toml: two spellings the guards read as one word) whose two spellings are also a
  substitution of rewrite_words.toml. Each one lets some generated paraphrases through because
  of the table.
- ``family_overlap``: rewrite substitutions whose two sides fall in one cue family of the
  guards (both "down", both hedges, ...). The guards compare those families by presence by
  design ("reduce" and "lower" are both a decrease), which predates the generator; they are
  listed so that a reader can see which generated paraphrases pass for that reason.
- ``flip_overlap``: the generator's direction flips (the hard negatives of kind "direction")
  that the guards know, one side "up" and the other "down" or the two words an opposites pair
  of guards/words.toml. Each one catches its generated negatives by construction; the
  hand-written sets' direction pairs are the independent measure.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from claimgraph.canonical.guards.vocabulary import DEFAULT_GUARD_WORDS, GuardWords, load_guard_words

from .rewrites import DEFAULT_LEXICON


@dataclass(frozen=True)
class Overlap:
    synonym_entries: int
    synonym_overlap: list[tuple[str, str]]
    substitutions: int
    family_overlap: list[tuple[str, str, str]]
    flips: int
    flip_overlap: list[tuple[str, str, str]]


def _substitutions(path: Path) -> list[tuple[str, str]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [(source.lower(), target.lower()) for table in ("synonyms", "phrases") for source, target in data[table].items()]


def _family(phrase: str, words: GuardWords) -> str | None:
    families = (("negation", words.negation), ("up", words.up), ("down", words.down), ("hedge", words.hedge),
                ("restrictor", words.restrictors))
    for name, pattern in families:
        if pattern is not None and pattern.search(phrase):
            return name
    return None


def lexicon_overlap(lexicon: Path = DEFAULT_LEXICON, guard_words: Path = DEFAULT_GUARD_WORDS) -> Overlap:
    words = load_guard_words(guard_words)
    substitutions = _substitutions(lexicon)
    synonyms = tomllib.loads(guard_words.read_text(encoding="utf-8"))["scope"]["synonyms"]
    canonical = {**synonyms, **{value: value for value in synonyms.values()}}
    shared = sorted({(a, b) for a, b in substitutions if " " not in a and a in canonical and canonical[a] == canonical.get(b)})
    families = []
    for source, target in substitutions:
        first, second = _family(source, words), _family(target, words)
        if first is not None and first == second and re.sub(r"\W", "", source) != re.sub(r"\W", "", target):
            families.append((source, target, first))
    flips = tomllib.loads(lexicon.read_text(encoding="utf-8"))["direction"]["flips"]
    return Overlap(len(synonyms), shared, len(substitutions), families, len(flips), _known_flips(flips, words))


def _known_flips(flips: list[list[str]], words: GuardWords) -> list[tuple[str, str, str]]:
    """The flips the guards see: "up"/"down" split between the two words, or a listed opposites pair."""
    opposites = {frozenset((one, other)) for _, _, one, other in words.opposites}
    known = []
    for first, second in flips:
        families = {_family(first, words), _family(second, words)}
        if families == {"up", "down"}:
            known.append((first, second, "up/down"))
        elif frozenset((first, second)) in opposites:
            known.append((first, second, "opposites"))
    return known


def print_overlap(overlap: Overlap) -> None:
    print(f"\nword-list independence: {len(overlap.synonym_overlap)} of {overlap.synonym_entries} guard synonym entries "
          f"are also a rewrite substitution: {', '.join(f'{a}/{b}' for a, b in overlap.synonym_overlap) or 'none'}")
    print(f"  {len(overlap.family_overlap)} of {overlap.substitutions} rewrite substitutions fall in one guard cue family "
          f"(compared by presence by design): " + ", ".join(f"{a}/{b} ({f})" for a, b, f in overlap.family_overlap))
    opposites = [f"{a}/{b}" for a, b, how in overlap.flip_overlap if how == "opposites"]
    print(f"  {len(overlap.flip_overlap)} of {overlap.flips} generator direction flips are known to the guards "
          f"(their generated negatives are caught by construction): "
          f"{len(overlap.flip_overlap) - len(opposites)} split up/down, {len(opposites)} opposites pairs ({', '.join(opposites)})")
