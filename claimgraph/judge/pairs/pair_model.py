"""A pair model as the judge of candidate pairs (off by default): a cross-encoder that reads both texts.

The guards and cosine read one text at a time. A cross-encoder reads ``[CLS] a [SEP] b [SEP]``
and gives one logit: how likely the two texts state the same thing. The model is a folder in the
Hugging Face layout holding a sequence-classification model with one label, such as the one
``bench/cross_encoder.py --save DIR`` fine-tunes from the bundled all-MiniLM-L6-v2 (measured in
docs/canonical-evaluation.md). Nothing is downloaded: the folder is read as it is.

It plugs in where an LLM adjudicator does (``Placer``'s ``adjudicate``): asked about candidates
in the type's ``[canonicalize.adjudicate]`` band that the vetoing guards let through. A pair's
score is the sigmoid of the mean logit over both orders, so the verdict does not depend on which
text came first; a pair is SAME at ``threshold`` or above.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimgraph.canonical.settings import CanonicalizeError
from claimgraph.errors import require


class PairModelError(CanonicalizeError):
    """The pair-model folder cannot be used."""


MAX_LENGTH = 256  # tokens of a pair; longer pairs are truncated


def pair_scores(tokenizer: Any, model: Any, pairs: Sequence[tuple[str, str]], batch: int = 64) -> list[float]:
    """Each pair's probability of stating the same thing: the sigmoid of the mean logit over both orders.

    The one place this is computed: the judge scores a candidate with it, and bench/cross_encoder.py
    scores its test pairs with it, so the benchmark measures what the product decides with.
    """
    import torch

    rows = [row for a, b in pairs for row in ((a, b), (b, a))]
    logits: list[float] = []
    with torch.no_grad():
        for start in range(0, len(rows), batch):
            firsts, seconds = zip(*rows[start:start + batch])
            encoded = tokenizer(list(firsts), list(seconds), padding=True, truncation=True, max_length=MAX_LENGTH,
                                return_tensors="pt")
            logits += model(**encoded).logits.reshape(-1).tolist()
    return [1.0 / (1.0 + math.exp(-(logits[i] + logits[i + 1]) / 2)) for i in range(0, len(logits), 2)]


@dataclass(frozen=True)
class PairDecision:
    a: str
    b: str
    type: str
    score: float
    same: bool


@dataclass
class PairModelJudge:
    """A callable ``(text a, text b, class name) -> same?`` backed by a cross-encoder in ``folder``."""

    folder: Path
    threshold: float = 0.5
    decisions: list[PairDecision] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold < 1.0:
            raise PairModelError(f"pair-model threshold {self.threshold}: a probability strictly between 0 and 1 is needed")
        self._tokenizer, self._model = _load(self.folder)
        self._scores: dict[tuple[str, str], float] = {}

    @property
    def name(self) -> str:
        return f"pair-model:{self.folder.name}"

    def score(self, a: str, b: str) -> float:
        """The probability that ``a`` and ``b`` state the same thing (either order gives the same number)."""
        key = (a, b) if a <= b else (b, a)
        if key not in self._scores:
            self._scores[key] = pair_scores(self._tokenizer, self._model, [key])[0]
        return self._scores[key]

    def __call__(self, a: str, b: str, type_name: str) -> bool:
        score = self.score(a, b)
        same = score >= self.threshold
        self.decisions.append(PairDecision(a, b, type_name, round(score, 4), same))
        return same

    def verdict(self, a: str, b: str, type_name: str) -> bool | None:
        """The model always answers: same or not."""
        return self(a, b, type_name)

    def close(self) -> None:
        """Nothing to release; here so that every judge is closed the same way."""


def _load(folder: Path) -> tuple[Any, Any]:
    """Tokenizer and model from ``folder``; a folder that is not a one-label classifier is a PairModelError."""
    if not (folder / "config.json").is_file():
        raise PairModelError(f"{folder}: no config.json; a pair model is a folder saved by transformers' save_pretrained "
                             "(bench/cross_encoder.py --save DIR makes one)")
    require("torch", "torch", "the pair model judge (--pair-model)")
    require("transformers", "torch", "the pair model judge (--pair-model)")
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
        model = AutoModelForSequenceClassification.from_pretrained(str(folder), local_files_only=True)
    except (OSError, ValueError) as error:
        raise PairModelError(f"{folder}: not a readable pair model ({str(error).splitlines()[0]})") from error
    if model.config.num_labels != 1:
        raise PairModelError(f"{folder}: the model has {model.config.num_labels} labels; a pair model gives one logit (same or not)")
    model.eval()
    return tokenizer, model
