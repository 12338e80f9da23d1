"""Meaning-changing edits of a one-sentence statement: the generated hard negatives.

Each edit keeps almost every word, so cosine similarity stays high, and changes what the
statement says. Each returns None where its pattern does not apply:

- ``negate``: "not" after the first auxiliary, else "does not <verb>" (negation)
- ``flip_direction``: the first word of a flip pair becomes its partner (direction)
- ``change_quantity``: the first number doubles, or its unit changes (quantity)
- ``add_condition``: a qualifier before the full stop, "only in mice" (scope)
- ``toggle_hedge``: "is" -> "may be", "increases" -> "may increase", and back (hedge)
- ``swap_roles``: "S verbs O." -> "O verbs S." (swap)
"""

from __future__ import annotations

import hashlib
import re

from .rewrites import Lexicon, capitalize, decapitalize, is_plural, keep_case, split_clause, whole_word

NEGATED = re.compile(r"(?<![\w-])(not|no|never|none|without|cannot|neither|nor|lack|lacks|absence)(?![\w-])|n['’]t\b", re.IGNORECASE)
HEDGED = re.compile(r"(?<![\w-])(may|might|could|possibly|perhaps|likely|unlikely|suggests?|suggested|potentially|putative|"
                    r"presumably|thought|believed|proposed|expected|hypothesi[sz]ed|unknown|unclear|whether)(?![\w-])", re.IGNORECASE)
COPULA_AUX = re.compile(r"(?<![\w-])(is|are|was|were|can|could|may|might|will|would|should|must)(?![\w-])")
PERFECT = re.compile(r"(?<![\w-])(has|have|had)(?= (?:been|\w+ed|\w+en)\b)")
NUMBER = re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?)(?:(\s?)(°C|µg|µm|µM|[A-Za-z]+))?(?![\w.,]?\d)")


def choice(text: str, options: int) -> int:
    """A stable choice among ``options`` for this text (the same on every run and machine)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") % options


def negate(text: str, lexicon: Lexicon) -> str | None:
    if NEGATED.search(text):
        return None
    head = " ".join(text.split()[:12])
    for pattern in (COPULA_AUX, PERFECT):
        match = pattern.search(head)
        if match:
            return f"{text[:match.end()]} not{text[match.end():]}"
    clause = split_clause(text, lexicon)
    if clause is None:
        return None
    base = lexicon.verbs[clause.verb][0]
    do = "do" if clause.verb == base else "does"
    tail = f" {clause.qualifier}" if clause.qualifier else ""
    return f"{clause.subject} {do} not {base} {clause.object}{tail}."


def flip_direction(text: str, lexicon: Lexicon) -> str | None:
    match = whole_word(set(lexicon.flips), re.IGNORECASE).search(text)
    if match is None:
        return None
    word = match.group(0)
    partner = lexicon.flips.get(word) or lexicon.flips[word.lower()]
    return f"{text[:match.start()]}{keep_case(word, partner)}{text[match.end():]}"


def change_quantity(text: str, lexicon: Lexicon) -> str | None:
    match = NUMBER.search(text)
    if match is None:
        return _change_number_word(text, lexicon)
    number, space, unit = match.group(1), match.group(2) or "", match.group(3) or ""
    if unit in lexicon.unit_swaps and choice(text, 2) == 0:
        replacement = f"{number}{space}{lexicon.unit_swaps[unit]}"
    else:
        replacement = f"{_other_number(number)}{space}{unit}"
    return f"{text[:match.start()]}{replacement}{text[match.end():]}"


def _other_number(number: str) -> str:
    if "." in number:
        decimals = len(number.split(".")[1])
        return f"{float(number) * 2:.{decimals}f}"
    value = int(number)
    if 1900 <= value <= 2100:
        return str(value - 10)
    return str(value * 2 if value else 1)


def _change_number_word(text: str, lexicon: Lexicon) -> str | None:
    by_word = {word: number for number, word in lexicon.number_words.items()}
    match = whole_word(set(by_word), re.IGNORECASE).search(text)
    if match is None:
        return None
    value = by_word[match.group(0).lower()]
    other = value * 2 if value * 2 in lexicon.number_words else value + 1 if value + 1 in lexicon.number_words else value - 1
    return f"{text[:match.start()]}{keep_case(match.group(0), lexicon.number_words[other])}{text[match.end():]}"


def add_condition(text: str, lexicon: Lexicon) -> str | None:
    body = text.rstrip()
    if not body.endswith("."):
        return None
    condition = lexicon.conditions[choice(text, len(lexicon.conditions))]
    return f"{body[:-1]}{condition}."


def toggle_hedge(text: str, lexicon: Lexicon) -> str | None:
    if HEDGED.search(text):
        return _assert(text, lexicon)
    match = re.search(r"(?<![\w-])(?:is|are)( not)?(?![\w-])", text)
    if match and len(text[:match.start()].split()) <= 10:
        return f"{text[:match.start()]}may{match.group(1) or ''} be{text[match.end():]}"
    clause = split_clause(text, lexicon)
    if clause is None:
        return None
    tail = f" {clause.qualifier}" if clause.qualifier else ""
    return f"{clause.subject} may {lexicon.verbs[clause.verb][0]} {clause.object}{tail}."


def _assert(text: str, lexicon: Lexicon) -> str | None:
    """ "S may be X" -> "S is X"; "S may increase X" -> "S increases X"."""
    match = re.search(r"(?<![\w-])(may|might|could) (be|\w+)(?![\w-])", text)
    if match is None:
        return None
    subject = text[:match.start()].strip()
    if not subject or len(subject.split()) > 10:
        return None
    plural = is_plural(subject)
    if match.group(2) == "be":
        verb = "are" if plural else "is"
    elif match.group(2) in lexicon.third_person:
        verb = match.group(2) if plural else lexicon.third_person[match.group(2)]
    else:
        return None
    return f"{text[:match.start()]}{verb}{text[match.end():]}"


def swap_roles(text: str, lexicon: Lexicon) -> str | None:
    clause = split_clause(text, lexicon)
    if clause is None or len(clause.object.split()) > 7 or len(clause.subject.split()) > 7:
        return None
    base = lexicon.verbs[clause.verb][0]
    verb = base if is_plural(clause.object) else lexicon.third_person.get(base, clause.verb)
    tail = f" {clause.qualifier}" if clause.qualifier else ""
    return f"{capitalize(clause.object)} {verb} {decapitalize(clause.subject)}{tail}."


PERTURBATIONS = (
    ("negation", negate),
    ("direction", flip_direction),
    ("quantity", change_quantity),
    ("scope", add_condition),
    ("hedge", toggle_hedge),
    ("swap", swap_roles),
)
