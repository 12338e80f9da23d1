"""The scholarly apparatus of a sentence, which the guards do not compare: citation markers and
the statistics reported beside an estimate.

Two papers state one finding with different markers ("... respiration [23]." / "... respiration
(refs. 4-6)." / "... (Smith et al., 2019)."), and one reports an estimate with its confidence
interval or p-value where the other gives the estimate alone. Read as text, a marker's digits
are numbers one side lacks and its words are content the other lacks, so the numbers and frame
guards would keep the same claim apart. The estimate itself, sample sizes and every other
number stay: only the spans below are removed before the guards read a text. A year that names
a study in the sentence ("Smith et al. (2019) showed", "in 2019, Smith and colleagues") is
content and stays.
"""

from __future__ import annotations

import re

_NUMBERS = r"\d+[a-z]?(?:\s*[-\u2010-\u2014,;]\s*\d+[a-z]?)*"
_AUTHOR = r"[A-Z][\w'\u2019-]+(?:\s+(?:et\s+al\.?|and|&)(?:\s+[A-Z][\w'\u2019-]+)?)?"
_YEARS = r"(?:1[89]|20)\d\d[a-z]?"
_DECIMAL = r"[-\u2212]?\d*\.?\d+(?:\s*[x\u00d7]\s*10\^?[-\u2212]?\d+)?"
_INTERVAL = (rf"(?:9[059](?:\.\d)?\s*%|95\s*per\s*cent)\s*(?:CI|CrI|confidence\s+intervals?|credible\s+intervals?)\s*[:=,]?\s*"
             rf"\[?{_DECIMAL}\s*%?\s*(?:[-\u2010-\u2014,;]|to)\s*{_DECIMAL}\s*%?\]?")
_P_VALUE = rf"\b[Pp]\s*(?:[<=>\u2264\u2265])\s*{_DECIMAL}"

APPARATUS = re.compile("|".join((
    rf"\s*\[{_NUMBERS}\]",                                                        # [23], [3, 4], [5-7]
    rf"\s*\((?:refs?|references?)\.?\s*{_NUMBERS}\)",                              # (refs. 4-6), (ref. 3)
    rf"\s*\((?:{_AUTHOR},?\s+{_YEARS}(?:\s*[;,]\s*)?)+\)",                         # (Smith et al., 2019; Lee 2020)
    rf"\s*\({_INTERVAL}\)|[,;]?\s*{_INTERVAL}",                                  # (95% CI 12-28%), ", 95% CI 1.2-1.9"
    rf"\s*\({_P_VALUE}\)|[,;]?\s*{_P_VALUE}",                                    # (P = 0.003), ", p < 0.05"
)))


def without_apparatus(text: str) -> str:
    """``text`` without citation markers, confidence intervals and p-values; spaces before punctuation closed."""
    stripped = APPARATUS.sub("", text)
    stripped = re.sub(r"\(\s*[,;]?\s*\)", "", stripped)
    return re.sub(r"\s+([.,;:])", r"\1", stripped).strip()
