"""The judge of the borderline band for one run: an LLM adjudicator or a pair model, or none.

``canonicalize --adjudicate`` and ``--pair-model DIR`` name it; placement asks it in the band the
profile sets per class, and ``--recheck`` asks it about the links made by similarity alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.canonical.settings import CanonicalizeError, load_settings
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.judge.pairs.pair_model import PairModelJudge
from claimgraph.profile.manifest import Profile

if TYPE_CHECKING:  # the judges import the LLM client or transformers, which are slow to load
    from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
    from claimgraph.judge.pairs.pair_model import PairModelJudge
    from claimgraph.llm.config import LLMConfig


def open_judge(profile: Profile, adjudicate: LLMConfig | None, pair_model: Path | None) -> LLMAdjudicator | PairModelJudge | None:
    """The judge asked for, if any; an error when both are asked for, or when the profile gives it no band to judge."""
    if adjudicate is None and pair_model is None:
        return None
    if adjudicate is not None and pair_model is not None:
        raise CanonicalizeError("one judge at a time: an LLM (--adjudicate) or a pair model (--pair-model), not both")
    if not load_settings(profile).adjudicate:
        raise CanonicalizeError(f"profile {profile.name} sets no [canonicalize.adjudicate] band, so the judge "
                                "would never be asked; add one (docs/canonicalization.md)")
    if adjudicate is not None:

        return LLMAdjudicator(adjudicate)

    return PairModelJudge(pair_model) if pair_model is not None else None
