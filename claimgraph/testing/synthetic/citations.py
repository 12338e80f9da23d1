"""Which references each sentence of a synthetic ARCHE paper cites.

As in ARCHE, references are numbered in the order they are first cited, a sentence cites
them in ascending order, and some are cited again by later sentences.
"""

from __future__ import annotations

import random
from typing import Any

MIN_RECITED = 2


def _draw(count: int, rng: random.Random, layout: dict[str, Any]) -> list[list[int]]:
    low, high = layout["new_references_per_citing_sentence"]
    cited: list[list[int]] = [[] for _ in range(count)]
    total = 0
    for sentence in cited:
        if rng.random() < layout["cite_probability"]:
            for _ in range(rng.randint(low, high)):
                total += 1
                sentence.append(total)
        if total and rng.random() < layout["recite_probability"]:
            again = rng.randint(1, total)
            if again not in sentence:
                sentence.append(again)
    return cited


def _ensure_minimum(cited: list[list[int]], minimum: int, rng: random.Random) -> None:
    """Add new references to random sentences until there are ``minimum``."""
    total = len({number for sentence in cited for number in sentence})
    while total < minimum:
        total += 1
        rng.choice(cited).append(total)


def _ensure_recited(cited: list[list[int]], rng: random.Random) -> None:
    """Cite references again from later sentences until MIN_RECITED are cited by two or more."""
    first: dict[int, int] = {}
    citing: dict[int, int] = {}
    for position, sentence in enumerate(cited):
        for number in sentence:
            first.setdefault(number, position)
            citing[number] = citing.get(number, 0) + 1
    candidates = sorted((position, number) for number, position in first.items() if position < len(cited) - 1)
    recited = sum(1 for count in citing.values() if count > 1)
    for position, number in candidates:
        if recited >= MIN_RECITED:
            return
        if citing[number] > 1:
            continue
        later = rng.randint(position + 1, len(cited) - 1)
        cited[later].append(number)
        recited += 1


def _renumber(cited: list[list[int]]) -> list[list[int]]:
    """Number references by first citation; each sentence lists its references ascending."""
    order: dict[int, int] = {}
    for sentence in cited:
        for number in sentence:
            order.setdefault(number, len(order) + 1)
    return [sorted({order[number] for number in sentence}) for sentence in cited]


def plan_citations(count: int, rng: random.Random, layout: dict[str, Any], minimum: int) -> list[list[int]]:
    """Reference numbers cited by each of ``count`` sentences: at least ``minimum`` references,
    and (when there are two or more sentences) at least MIN_RECITED cited more than once."""
    cited = _draw(count, rng, layout)
    _ensure_minimum(cited, minimum, rng)
    if count > 1:
        _ensure_recited(cited, rng)
    return _renumber(cited)
