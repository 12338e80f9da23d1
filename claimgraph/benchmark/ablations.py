"""The ablations of the judge stage (PEARL section 4.3), as changes to the judge settings.

``full``; ``no-root`` (no claim-root construction); ``retained-root`` (the
graph's own root kept, no rejected-unit repair: judges vote once, then the
strict gate); ``root-only`` (claim-root construction, no feedback rounds);
``no-judge-repair`` (judges vote once, nothing is built or repaired).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimgraph.judge.settings import JudgeSettings

ABLATIONS = ("full", "no-root", "retained-root", "root-only", "no-judge-repair")


def ablated(settings: JudgeSettings, ablation: str) -> JudgeSettings:
    """The judge settings of an ablation."""
    if ablation == "no-root":
        return replace(settings, build_root=False)
    if ablation == "retained-root":
        return replace(settings, build_root=False, rounds=0)
    if ablation == "root-only":
        return replace(settings, build_root=True, rounds=0)
    if ablation == "no-judge-repair":
        return replace(settings, repair=False)
    return settings
