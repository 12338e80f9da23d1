"""Deterministic guards on a candidate pair of texts: differences cosine similarity cannot see.

Sentence embeddings put "X increases Y" next to "X does not increase Y", "X decreases Y",
"X increases Y by 40%" and "X increases Y only in mice". Before canonicalization joins two
texts whose cosine clears the threshold, ``check_pair`` compares what an embedding blurs:

- polarity: negation cues ("not", "no", "lack of", "fails to", "without", ...) in one text only,
  or more of them in one text than in the other;
- numbers: the quantities with their units ("20%", "2.5 mg/kg", "3-fold", "two weeks"), on one
  scale per dimension ("12 months" = "1 year"), and the numbers inside identifiers ("IL-6",
  "PM2.5") must be the same sets (numbers.py);
- direction: change words (increase/decrease families) present in one text only or disagreeing,
  and opposite words ("short"/"long", "success"/"failure") split between the texts;
- hedge: a hedge ("may", "might", "suggests", ...) in one text only, or more hedges in one text;
- scope: a restrictor ("only", "except", "alone") in one text only, or a qualifier ("in older
  adults", "under drought", "when the soil is moist") whose content words the other text lacks;
- roles: agent and patient trade places ("X drives Y" / "Y drives X"; see roles.py);
- frame: the two texts are the same words but for one stretch, and that stretch adds content
  ("mice" / "male mice") or puts a long, unrelated phrase in the same frame ("applications in
  light detection and ranging" / "applications in machine vision"). The shared frame inflates
  cosine; a single differing word is left to cosine (and to LLM adjudication where it is on),
  since no word list tells every synonym from every contrast.

Citation markers, confidence intervals and p-values are removed first (apparatus.py): they are
how a paper reports a claim, not what it claims. The word lists live in ``words.toml``. Everything is regular expressions over the two
strings: no model, no I/O after the lists are loaded once. The guards are built to reject
few true paraphrases; bench/canonical_quality.py measures both sides.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from claimgraph.canonical.guards.apparatus import without_apparatus
from claimgraph.canonical.guards.numbers import is_number, quantities
from claimgraph.canonical.guards.roles import Roles, compare_roles, swapped_around_pivot, swapped_endpoints, text_roles
from claimgraph.canonical.guards.vocabulary import GuardWords, load_guard_words

GUARDS = ("polarity", "numbers", "direction", "hedge", "scope", "roles", "frame")
_TOKEN = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*|[^\w\s]")


@dataclass(frozen=True)
class GuardVerdict:
    """Whether the two texts may be joined, and why not (``"polarity: 'not' in b only"``)."""

    compatible: bool
    reasons: list[str] = field(default_factory=list)

    def fired(self) -> set[str]:
        """The names of the guards that objected."""
        return {reason.split(":", 1)[0] for reason in self.reasons}


@dataclass(frozen=True)
class TextFeatures:
    """What the guards read from one text."""

    negations: tuple[str, ...]
    quantities: dict[tuple[object, ...], str]
    directions: tuple[tuple[str, int], ...]
    opposite_words: frozenset[str]
    hedges: tuple[str, ...]
    restrictors: tuple[str, ...]
    qualifiers: tuple[tuple[str, tuple[str, ...]], ...]
    stems: frozenset[str]
    roles: Roles | None
    words: tuple[str, ...]


def check_pair(a: str, b: str, words: GuardWords | None = None, *, frame: bool = True) -> GuardVerdict:
    """Compare two texts with every guard; compatible when none objects.

    ``frame=False`` leaves the frame guard out: linking a mention to an ontology term takes a
    narrower mention ("moderate physical activity") as a close match of the broader term's label
    ("physical activity"), where two claims so different must stay apart.
    """
    words = words or load_guard_words()
    first, second = text_features(a, words), text_features(b, words)
    reasons = [
        *_compare_negations(first.negations, second.negations),
        *_compare_quantities(first, second),
        *_compare_directions(first, second, words),
        *_compare_counts("hedge", first.hedges, second.hedges),
        *_compare_presence("scope", first.restrictors, second.restrictors),
        *_compare_qualifiers(first, second, words),
        *(compare_roles(first.roles, second.roles) or swapped_around_pivot(list(first.words), list(second.words), words, stem)
          or swapped_endpoints(list(first.words), list(second.words), words, stem)),
        *(_compare_frames(first.words, second.words, words) if frame else ()),
    ]
    return GuardVerdict(not reasons, reasons)


@lru_cache(maxsize=65536)
def text_features(text: str, words: GuardWords) -> TextFeatures:
    """The guard features of one text without its citation markers and reported statistics
    (apparatus.py; cached: a hub's text is compared many times)."""
    text = without_apparatus(text)
    plain = normalized_words(text)
    tokens = _TOKEN.findall(plain)
    unnegated = _remove(plain, words.not_negating)
    undirected = _remove(_remove(plain, words.direction_idioms), _bound_pattern(words))
    found = qualifiers(tokens, words)
    in_qualifiers = {index for _, _, span in found for index in span}
    return TextFeatures(
        negations=_found(unnegated, words.negation),
        quantities=quantities(text, words),
        directions=tuple(sorted(_signed(undirected, words.up, 1) + _signed(undirected, words.down, -1))),
        opposite_words=frozenset(word for first, second, one, other in words.opposites
                                 for pattern, word in ((first, one), (second, other)) if pattern.search(plain)),
        hedges=_found(_remove(_remove(plain, words.not_hedging), words.not_hedging_questions if _asks(plain) else None),
                      words.hedge),
        restrictors=_found(unnegated, words.restrictors),
        qualifiers=tuple((phrase, content) for phrase, content, _ in found),
        stems=frozenset(stem(token, words) for token in tokens if token[0].isalnum()),
        roles=text_roles(plain, tokens, in_qualifiers, words, stem),
        words=tuple(token for token in tokens if token[0].isalnum()),
    )


# ---------------------------------------------------------------- reading one text


def normalized_words(text: str) -> str:
    """Lower case, straight apostrophes, "n't" spelled out, hyphens and dashes as spaces."""
    lowered = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    lowered = re.sub(r"\bwon't\b", "will not", lowered)
    lowered = re.sub(r"\bcan't\b", "can not", lowered)
    lowered = re.sub(r"n't\b", " not", lowered)
    lowered = re.sub(r"[-\u2010-\u2014]", " ", lowered)
    return " ".join(lowered.split())


def _asks(plain: str) -> bool:
    """A question, direct ("Can X ...?") or reported ("we ask whether X can ...")."""
    return plain.endswith("?") or re.search(r"\bwhether\b", plain) is not None


@lru_cache(maxsize=8)
def _bound_pattern(words: GuardWords) -> re.Pattern[str]:
    """A comparative that bounds a number ("more than 100 loci", "less than six hours"): not a change, and
    the numbers guard compares the bound with its quantity ("more than 20" is not "less than 20")."""
    scaled = "|".join(re.escape(name) for name in [*words.scales, "hundred", "dozen"])
    numbers = "|".join(sorted((re.escape(name) for name in [*words.number_words, "one"]), key=len, reverse=True)) + rf"|a\s+(?:{scaled})"
    return re.compile(rf"\b(?:more|less|fewer|greater|higher|lower)\s+than\s+(?=\d|(?:{numbers})\b)")


def _remove(text: str, pattern: re.Pattern[str] | None) -> str:
    return pattern.sub(" | ", text) if pattern is not None else text


def _found(text: str, pattern: re.Pattern[str] | None) -> tuple[str, ...]:
    return tuple(match.group(0) for match in pattern.finditer(text)) if pattern is not None else ()


def _signed(text: str, pattern: re.Pattern[str] | None, sign: int) -> list[tuple[str, int]]:
    return [(cue, sign) for cue in _found(text, pattern)]


def stem(word: str, words: GuardWords) -> str:
    """A crude stem for "does the other text say this too": synonyms, plural, -ing/-ed, first 5 letters."""
    word = words.synonyms.get(word, word)
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return words.synonyms.get(word, word)[:5]


def _starts(tokens: list[str], index: int, phrases: Iterable[tuple[str, ...]]) -> tuple[str, ...] | None:
    for phrase in phrases:
        if tuple(tokens[index:index + len(phrase)]) == phrase:
            return phrase
    return None


def qualifiers(tokens: list[str], words: GuardWords) -> list[tuple[str, tuple[str, ...], range]]:
    """Qualifier phrases (``"in older adults"``) with their content words and token span, in text order."""
    found = []
    index = 0
    while index < len(tokens):
        clause = _starts(tokens, index, words.clauses)
        opener = clause or _starts(tokens, index, words.prepositions)
        idiom = _starts(tokens, index, words.not_qualifiers)
        if opener is None or idiom is not None:
            index += len(idiom) if idiom else 1
            continue
        if opener == ("in",) and index > 0 and tokens[index - 1] in words.argument_heads:
            index += 1
            continue
        end, content = _qualifier_content(tokens, index + len(opener), words, clause is not None)
        if content:
            found.append((" ".join(tokens[index:end]), tuple(content), range(index, end)))
        index = max(end, index + 1)
    return found


def _qualifier_content(tokens: list[str], start: int, words: GuardWords, clause: bool) -> tuple[int, list[str]]:
    """Content words after an opener, up to a boundary; numbers and unit names are left to the
    numbers guard, and a prepositional qualifier ends at a participle ("in patients given ...")."""
    boundaries = words.clause_boundaries if clause else words.boundaries
    content: list[str] = []
    end = start
    while end < len(tokens) and len(content) < 4:
        token = tokens[end]
        if not token[0].isalnum() or token in boundaries:
            break
        if not clause and end > start and _starts(tokens, end, words.prepositions + words.clauses):
            break
        participle = bool(content) and len(token) > 4 and token.endswith(("ing", "ed", "en"))
        if not clause and (participle or _ends_noun_phrase(token, words)):
            break
        if token not in words.stopwords and token not in words.fillers and not is_number(token, words):
            content.append(token)
        end += 1
    return end, content


def _ends_noun_phrase(token: str, words: GuardWords) -> bool:
    """A verb or an adverb: "in laboratory automation | enables ...", "in a | rapidly changing world"."""
    return token in words.verbs or (len(token) >= 6 and token.endswith("ly") and token not in words.not_adverbs)


# ---------------------------------------------------------------- comparisons


def _compare_presence(guard: str, first: tuple[str, ...], second: tuple[str, ...]) -> list[str]:
    if first and not second:
        return [f"{guard}: {first[0]!r} in a only"]
    if second and not first:
        return [f"{guard}: {second[0]!r} in b only"]
    return []


def _compare_negations(first: tuple[str, ...], second: tuple[str, ...]) -> list[str]:
    def count(cues: tuple[str, ...]) -> int:
        return len(cues) - (1 if "neither" in cues and "nor" in cues else 0)

    return _compare_counts("polarity", first, second, count)


def _compare_counts(guard: str, first: tuple[str, ...], second: tuple[str, ...],
                    count: Callable[[tuple[str, ...]], int] = len) -> list[str]:
    """Cues in one text only, or more cues in one text than in the other."""
    counts = [count(first), count(second)]
    if counts[0] == counts[1] or not (first and second):
        return _compare_presence(guard, first, second)
    more, side = (first, "a") if counts[0] > counts[1] else (second, "b")
    return [f"{guard}: {', '.join(repr(cue) for cue in more)} in {side} ({max(counts)} cues vs {min(counts)})"]


def _compare_quantities(first: TextFeatures, second: TextFeatures) -> list[str]:
    only_a = [span for key, span in first.quantities.items() if key not in second.quantities]
    only_b = [span for key, span in second.quantities.items() if key not in first.quantities]
    parts = [f"{', '.join(repr(s) for s in spans)} in {side} only" for side, spans in (("a", only_a), ("b", only_b)) if spans]
    return [f"numbers: {'; '.join(parts)}"] if parts else []


def _compare_directions(first: TextFeatures, second: TextFeatures, words: GuardWords) -> list[str]:
    reasons = []
    signs_a, signs_b = [sign for _, sign in first.directions], [sign for _, sign in second.directions]
    cues_a, cues_b = [cue for cue, _ in first.directions], [cue for cue, _ in second.directions]
    if bool(signs_a) != bool(signs_b):
        reasons.append(f"direction: {(cues_a or cues_b)[0]!r} in {'a' if cues_a else 'b'} only")
    elif signs_a and _disagree(signs_a, signs_b):
        reasons.append(f"direction: {', '.join(cues_a)!r} in a vs {', '.join(cues_b)!r} in b")
    for _, _, one, other in words.opposites:
        in_a, in_b = first.opposite_words, second.opposite_words
        for x, y in ((one, other), (other, one)):
            if x in in_a and y not in in_a and y in in_b and x not in in_b:
                reasons.append(f"direction: {x!r} in a vs {y!r} in b")
    return reasons


def _disagree(signs_a: list[int], signs_b: list[int]) -> bool:
    """Same number of cues: the signs must match as multisets. Different numbers ("higher X goes
    with lower Y" vs "X is negatively associated with Y"): the products of the signs must match."""
    if len(signs_a) == len(signs_b):
        return sorted(signs_a) != sorted(signs_b)
    return math.prod(signs_a) != math.prod(signs_b)


def _compare_qualifiers(first: TextFeatures, second: TextFeatures, words: GuardWords) -> list[str]:
    reasons = []
    for side, mine, other in (("a", first, second), ("b", second, first)):
        for phrase, content in mine.qualifiers:
            missing = [word for word in content if stem(word, words) not in other.stems]
            if missing:
                other_side = "b" if side == "a" else "a"
                reasons.append(f"scope: {phrase!r} in {side}; {', '.join(repr(m) for m in missing)} not in {other_side}")
    return reasons


# ---------------------------------------------------------------- one frame, two fillers


def _frame_content(tokens: Sequence[str], words: GuardWords) -> list[str]:
    """The words of a stretch that no other guard compares: not function words, openers, numbers
    or units, nor cues of polarity, direction, hedging or restriction."""
    return [token for token in tokens
            if token not in words.stopwords and token not in words.boundaries and token not in words.openers
            and not is_number(token, words) and not _is_cue(token, words)]


def _is_cue(token: str, words: GuardWords) -> bool:
    patterns = (words.negation, words.up, words.down, words.hedge, words.restrictors)
    return any(pattern is not None and pattern.fullmatch(token) for pattern in patterns)


def _compare_frames(first: Sequence[str], second: Sequence[str], words: GuardWords) -> list[str]:
    """Two texts identical but for one stretch: content added on one side only ("male mice" /
    "mice") differs; so do two fillers that share no stem when one of them is a long phrase
    (``[frame] long_filler`` content words or more). The rest must hold ``min_frame`` content
    words, or there is no frame to speak of."""
    changes = [op for op in SequenceMatcher(None, first, second, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(changes) != 1:
        return []
    kind, start_a, end_a, start_b, end_b = changes[0]
    if len(_frame_content([*first[:start_a], *first[end_a:]], words)) < words.min_frame:
        return []
    filler_a, filler_b = _frame_content(first[start_a:end_a], words), _frame_content(second[start_b:end_b], words)
    stems_a, stems_b = {stem(t, words) for t in first}, {stem(t, words) for t in second}
    added_a = [t for t in filler_a if stem(t, words) not in stems_b]
    added_b = [t for t in filler_b if stem(t, words) not in stems_a]
    if kind in ("insert", "delete"):
        added, side = (added_a, "a") if added_a else (added_b, "b")
        return [f"frame: {' '.join(added)!r} in {side} only; the rest is the same"] if added else []
    unrelated = not {stem(t, words) for t in filler_a} & {stem(t, words) for t in filler_b}
    if filler_a and filler_b and unrelated and max(len(filler_a), len(filler_b)) >= words.long_filler:
        return [f"frame: {' '.join(first[start_a:end_a])!r} in a vs {' '.join(second[start_b:end_b])!r} in b; the rest is the same"]
    return []
