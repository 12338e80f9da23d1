"""Small generated papers and fake-endpoint scripts for extraction against failing endpoints (tests and bench).

``write_plot_papers`` writes Markdown papers that differ in their text (so no
two papers share a prompt); ``hostile_rules`` makes a fake endpoint that cycles
through 429, 500, garbage, truncated JSON, an empty reply and no answer at all
before each valid reply, per phase; ``healthy_rules`` answers every call.
"""

from __future__ import annotations

import json
from pathlib import Path

from claimgraph.testing.fake_llm import Rule, hostile_cycle

PLOT_PAPER = ("# Plot {n}\n\n## Background\n\n{plant} grows in plots number {n}. We ask whether light limits it.\n\n"
              "## Results\n\n{plant} under shade grew less in plot {n}. This supports the light hypothesis.\n")
PLANTS = ("Moss", "Fern", "Lichen", "Clover", "Sedge")
PLOT_ENTITIES = json.dumps({"entities": [
    {"id": "E1", "type": "Evidence", "text": "The plant grows in plots number", "sentence": 1, "confidence": 0.8},
    {"id": "E2", "type": "Claim", "text": "Light limits growth", "sentence": 2, "confidence": 0.7},
]})
PLOT_RELATIONS = json.dumps({"relations": [{"source": "E1", "label": "supports", "target": "E2", "confidence": 0.8}]})
NOTHING_MISSING = '{"relations": [], "drop": []}'


def write_plot_papers(folder: Path, count: int, passages: int = 2) -> list[Path]:
    """``count`` small Markdown papers, each with its own text, of two passages (or one)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        path = folder / f"plot-{n:02d}.md"
        text = PLOT_PAPER.format(n=n, plant=PLANTS[n % len(PLANTS)])
        path.write_text(text if passages == 2 else text.split("\n\n## Results", 1)[0] + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def hostile_rules() -> list[Rule]:
    """Per phase, the hostile cycle ending in that phase's valid reply, cycling for the whole run."""
    return [Rule(hostile_cycle(PLOT_ENTITIES), phase="entities", cycle=True),
            Rule(hostile_cycle(PLOT_RELATIONS), phase="relations", cycle=True),
            Rule(hostile_cycle(NOTHING_MISSING), cycle=True)]


def healthy_rules() -> list[Rule]:
    return [Rule([PLOT_ENTITIES], phase="entities"), Rule([PLOT_RELATIONS], phase="relations"), Rule([NOTHING_MISSING])]
