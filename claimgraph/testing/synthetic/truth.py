"""The answer key of a synthetic ARCHE corpus: ``truth.jsonl`` next to its papers.

JSON Lines, one record a line, ASCII-escaped (so no text can break a line). The first
record is ``{"kind": "corpus", ...}`` (generator, papers, seed). Then:

- ``shared_text``: one text found in two or more papers, as a sentence viewpoint
  (``field: sentence_viewpoint``) or in a cited abstract (``field: reference_viewpoint``);
  ``papers`` and every ``occurrences`` entry.
- ``paraphrase``: two sentence viewpoints ``a`` and ``b`` that state the same claim in other words.
- ``hard_negative``: two sentence viewpoints that look alike but are different claims;
  ``variant`` says what changed: negation, direction, quantity, unit or population.
- ``hostile``: one ``fragment`` and every place it was written (the sentence, its viewpoint,
  the cited abstract viewpoint).

A place is ``{"paper": base_id, "field": ..., "source": [x, y, z], "text": ...}`` with the ARCHE
source tuple (sentence idx, reference number or 0, viewpoint number); a sentence itself is
``[x, 0, 0]``. Two viewpoints not listed as shared or paraphrase are different claims.

The file is named ``.jsonl`` on purpose: a ``*.json`` file in the corpus folder would be
taken for one more ARCHE paper by ``find_inputs`` and by ``folder.glob("*.json")``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimgraph.testing.synthetic.claims import SyntheticCorpusError

TRUTH_FILE = "truth.jsonl"
GENERATOR = "claimgraph.testing.synthetic.arche"


@dataclass(frozen=True)
class Occurrence:
    """One place a tagged text was written; ``tag`` names the truth record it belongs to."""

    paper: str
    field: str
    source: tuple[int, int, int]
    text: str
    tag: str

    def place(self) -> dict[str, Any]:
        return {"paper": self.paper, "field": self.field, "source": list(self.source), "text": self.text}


def _by_tag(occurrences: list[Occurrence]) -> dict[str, list[Occurrence]]:
    grouped: dict[str, list[Occurrence]] = {}
    for occurrence in occurrences:
        if occurrence.tag:
            grouped.setdefault(occurrence.tag, []).append(occurrence)
    return grouped


def _shared_records(grouped: dict[str, list[Occurrence]]) -> list[dict[str, Any]]:
    by_text: dict[str, list[Occurrence]] = {}
    for tag, places in grouped.items():
        if tag.startswith("shared-"):
            for place in places:
                by_text.setdefault(place.text, []).append(place)
    records = []
    for text, places in by_text.items():
        papers = list(dict.fromkeys(place.paper for place in places))
        if len(papers) > 1:
            records.append({"kind": "shared_text", "field": places[0].field, "text": text, "papers": papers,
                            "occurrences": [place.place() for place in places]})
    return records


def truth_records(occurrences: list[Occurrence], pair_kinds: dict[int, str], fragments: dict[int, str],
                  papers: int, seed: int) -> list[dict[str, Any]]:
    """The records of ``truth.jsonl`` (see the module docstring) from the tagged occurrences."""
    grouped = _by_tag(occurrences)
    records: list[dict[str, Any]] = [{"kind": "corpus", "generator": GENERATOR, "papers": papers, "seed": seed}]
    records.extend(_shared_records(grouped))
    for number, variant in pair_kinds.items():
        a, b = grouped[f"pair:{number}:a"][0], grouped[f"pair:{number}:b"][0]
        record: dict[str, Any] = {"kind": "paraphrase"} if variant == "paraphrase" else {"kind": "hard_negative", "variant": variant}
        records.append({**record, "a": a.place(), "b": b.place()})
    for number, fragment in fragments.items():
        places = grouped.get(f"hostile:{number}", [])
        records.append({"kind": "hostile", "fragment": fragment, "occurrences": [place.place() for place in places]})
    return records


def truth_text(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(record, ensure_ascii=True) + "\n" for record in records)


def read_truth(folder: Path) -> list[dict[str, Any]]:
    """The records of ``folder/truth.jsonl``."""
    path = folder / TRUTH_FILE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise SyntheticCorpusError(f"{path}: cannot read the corpus truth ({error.strerror}); write the corpus first") from error
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise SyntheticCorpusError(f"{path}: line {number} is not JSON ({error.msg})") from error
    return records
