"""The roles guard: who acts on whom ("inflammation drives insulin resistance" is not
"insulin resistance drives inflammation"), which cosine similarity cannot tell apart.

A text's predicate is found without a parser: a passive "is <participle> ... by" (agent
after "by", patient before the auxiliary), else the first role verb after the first word
(agent before it, patient after it; reversed when a preposition follows the verb, as in
"yield rises under fertilization"), else "than" (the two sides of a comparison). Texts with a
symmetric predicate ("associated with", "correlates") are left alone. Two texts differ when
some content word moves from the agent side to the patient side and another moves back; words
found on both sides of one text are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from claimgraph.canonical.guards.vocabulary import GuardWords

Stemmer = Callable[[str, GuardWords], str]

AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being"})


@dataclass(frozen=True)
class Roles:
    """Content stems on the agent and the patient side, with a spelling of each stem for messages."""

    agent: frozenset[str]
    patient: frozenset[str]
    spelling: dict[str, str]


def text_roles(plain: str, tokens: list[str], qualifier_tokens: set[int], words: GuardWords, stem: Stemmer) -> Roles | None:
    """The roles of a text (``plain`` is its normalized form, ``tokens`` its tokens), or None.

    Qualifiers ("in older adults", at ``qualifier_tokens``) are the scope guard's: a predicate's
    sides leave them out, but the two sides of a comparison are often qualifiers ("higher at
    forest edges than in forest interiors") and keep them."""
    if words.symmetric is not None and words.symmetric.search(plain):
        return None
    start = reported_clause(tokens, words)
    arguments = [token for index, token in enumerate(tokens) if index >= start and index not in qualifier_tokens]
    sides = _passive(arguments, words) or _active(arguments, words) or _comparison(tokens)
    if sides is None:
        return None
    spelling: dict[str, str] = {}

    def content(part: list[str]) -> frozenset[str]:
        stems = set()
        for token in part:
            if token[0].isalpha() and token not in words.stopwords and token not in words.boundaries:
                stemmed = stem(token, words)
                spelling.setdefault(stemmed, token)
                stems.add(stemmed)
        return frozenset(stems)

    agent, patient = content(sides[0]), content(sides[1])
    if not agent or not patient:
        return None
    return Roles(agent - patient, patient - agent, spelling)


def reported_clause(tokens: list[str], words: GuardWords) -> int:
    """Where the reported clause starts: after the first "that" that follows a reporting verb
    ("studies have shown that | X drives Y"); 0 when there is none."""
    for index in range(1, len(tokens) - 1):
        if tokens[index] == "that" and tokens[index - 1] in words.reporting:
            return index + 1
    return 0


def swapped_endpoints(first: list[str], second: list[str], words: GuardWords, stem: Stemmer) -> list[str]:
    """"from X to Y" in one text and "from Y to X" in the other: source and destination exchanged."""
    ends_a, ends_b = _endpoints(first, words, stem), _endpoints(second, words, stem)
    if ends_a is None or ends_b is None:
        return []
    to_destination, to_source = sorted(ends_a[0] & ends_b[1]), sorted(ends_a[1] & ends_b[0])
    if to_destination and to_source:
        return [f"roles: {to_destination[0]!r} is where it comes from in a but where it goes in b; {to_source[0]!r} the reverse"]
    return []


def _endpoints(tokens: list[str], words: GuardWords, stem: Stemmer) -> tuple[set[str], set[str]] | None:
    if "from" not in tokens or "to" not in tokens[tokens.index("from"):]:
        return None
    source = tokens.index("from")
    destination = tokens.index("to", source)

    def content(part: list[str]) -> set[str]:
        stems = set()
        for token in part[:4]:
            if token in words.boundaries or not token[0].isalpha():
                break
            if token not in words.stopwords:
                stems.add(stem(token, words))
        return stems

    return content(tokens[source + 1:destination]), content(tokens[destination + 1:])


def _passive(tokens: list[str], words: GuardWords) -> tuple[list[str], list[str]] | None:
    for index, token in enumerate(tokens[:-1]):
        if token not in AUXILIARIES:
            continue
        for offset in (1, 2):  # allow one adverb: "is strongly driven by"
            word = tokens[index + offset] if index + offset < len(tokens) else ""
            if word in words.reporting and _reported_by(tokens[index + offset + 1:]):
                return None  # "X has been argued by Y to be ...": Y reports; X is not acted on
            if word.endswith(("ed", "en")) or word in words.participles:
                if "by" in tokens[index + offset:]:
                    by = tokens.index("by", index + offset)
                    return tokens[by + 1:], tokens[:index]
                return [], tokens[:index]
    return None


def _reported_by(rest: list[str]) -> bool:
    """"by <reporter> to ...": the words after a reporting participle name who reports, then the claim."""
    return bool(rest) and rest[0] == "by" and "to" in rest[1:]


def _active(tokens: list[str], words: GuardWords) -> tuple[list[str], list[str]] | None:
    for index in range(1, len(tokens)):
        for verb in words.role_verbs:
            if tuple(tokens[index:index + len(verb)]) == verb:
                after = index + len(verb)
                if after < len(tokens) and tokens[after] in words.intransitive_after:
                    return tokens[after + 1:], tokens[:index]
                return tokens[:index], tokens[after:]
    return None


def _comparison(tokens: list[str]) -> tuple[list[str], list[str]] | None:
    if "than" not in tokens:
        return None
    split = tokens.index("than")
    return tokens[:split], tokens[split + 1:]


def compare_roles(first: Roles | None, second: Roles | None) -> list[str]:
    if first is None or second is None:
        return []
    to_patient = sorted(first.agent & second.patient)
    to_agent = sorted(first.patient & second.agent)
    if not (to_patient and to_agent):
        return []
    names = [", ".join(repr(first.spelling.get(s, s)) for s in group) for group in (to_patient, to_agent)]
    return [f"roles: {names[0]} acts in a but is acted on in b; {names[1]} the reverse"]


def _is_passive(tokens: list[str], words: GuardWords) -> bool:
    """A form of "be" before a participle ("may be delayed"), or a participle somewhere before
    "by" (questions invert the auxiliary: "is Y accelerated by X")."""
    if _passive(tokens, words) is not None:
        return True
    if "by" not in tokens:
        return False
    return any(token.endswith(("ed", "en")) or token in words.participles for token in tokens[:tokens.index("by")])


def swapped_around_pivot(first: list[str], second: list[str], words: GuardWords, stem: Stemmer) -> list[str]:
    """Subject and object exchanged around a predicate the role-verb list does not know.

    Only for two texts with the same content stems (a reordering, nothing reworded), neither of
    them passive and neither symmetric: some shared word (the pivot) must have content before
    it in one text that comes after it in the other, and content after it that comes before
    it. Fronting a qualifier ("in Y, X verbs Z") moves words one way only, so it passes."""
    if _is_passive(first, words) or _is_passive(second, words):
        return []
    if words.symmetric is not None and (words.symmetric.search(" ".join(first)) or words.symmetric.search(" ".join(second))):
        return []

    def content(part: list[str]) -> list[str]:
        return [stem(token, words) for token in part
                if token[0].isalpha() and token not in words.stopwords and token not in words.boundaries]

    stems_a, stems_b = content(first), content(second)
    if set(stems_a) != set(stems_b):
        return []
    for pivot in dict.fromkeys(stems_a):
        if stems_a.count(pivot) != 1 or stems_b.count(pivot) != 1:
            continue
        cut_a, cut_b = stems_a.index(pivot), stems_b.index(pivot)
        before_a, after_a = set(stems_a[:cut_a]), set(stems_a[cut_a + 1:])
        before_b, after_b = set(stems_b[:cut_b]), set(stems_b[cut_b + 1:])
        to_after, to_before = sorted(before_a & after_b - after_a), sorted(after_a & before_b - before_a)
        if to_after and to_before:
            return [f"roles: {to_after[0]!r} comes before {pivot!r} in a but after it in b; {to_before[0]!r} the reverse"]
    return []
