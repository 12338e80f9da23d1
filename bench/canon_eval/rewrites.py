"""Meaning-preserving rewrites of a one-sentence statement: the generated positives.

Each rewrite applies where a simple pattern allows and returns None elsewhere:

- ``to_passive``: "S verbs O [qualifier]." -> "O is verbed by S [qualifier]."
- ``front_qualifier``: "X in Y." -> "In Y, X." (not when "in" is an argument: "an increase in Y")
- ``substitute_synonyms``: words and phrases from the lexicon, hedges kept ("may" -> "might")
- ``reformat_numbers``: "20%" <-> "20 percent", "3-fold" <-> "threefold", "1,200" -> "1200",
  "2 weeks" <-> "two weeks"

``paraphrase`` chains every rewrite that applies. The word lists are in rewrite_words.toml.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

DEFAULT_LEXICON = Path(__file__).with_name("rewrite_words.toml")
CLAUSE_WORDS = {"that", "which", "who", "whom", "whose", "when", "where", "while", "whereas", "if", "because"}
AUXILIARIES = {"is", "are", "was", "were", "be", "been", "has", "have", "had", "can", "could", "may", "might",
               "will", "would", "should", "must", "does", "do", "did"}
PREPOSITIONS = {"of", "for", "in", "on", "at", "with", "to", "from", "between", "among", "during", "by", "across", "within"}
OBJECT_STOPS = {"that", "which", "who", "by", "and", "or", "than", "whether", "to", "as"}
# Nouns of change or degree take "in" as their argument ("an enhancement in transfer").
NOMINAL = ("ment", "tion", "sion", "ance", "ence", "ity")
FOCUS_WORDS = {"even", "only", "also", "especially", "particularly", "mainly", "mostly", "except", "not", "solely"}
# Verbs outside the lexicon that show a phrase is a clause, not a plain qualifier.
LINKING_VERBS = {"remains", "remain", "becomes", "become", "seems", "seem", "appears", "appear", "occurs", "occur",
                 "exists", "exist", "stays", "stay", "persists", "persist", "emerges", "emerge"}
# A trailing "in" phrase after these belongs to the compared item, not to the statement.
COMPARISONS = re.compile(r"\b(?:than|compared|contrast|contrasts|versus|vs|whereas|unlike|with its|with their)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Lexicon:
    """The lists of rewrite_words.toml, indexed for the rewrites."""

    synonyms: dict[str, str]
    phrases: dict[str, str]
    verbs: dict[str, tuple[str, str]]
    third_person: dict[str, str]
    flips: dict[str, str]
    conditions: list[str]
    unit_swaps: dict[str, str]
    number_words: dict[int, str]
    in_arguments: frozenset[str]
    movable: frozenset[str]


def load_lexicon(path: Path = DEFAULT_LEXICON) -> Lexicon:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    verbs = {third: (base, participle) for third, (base, participle) in data["verbs"].items()}
    flips: dict[str, str] = {}
    for first, second in data["direction"]["flips"]:
        flips.setdefault(first, second)
        flips.setdefault(second, first)
    return Lexicon(
        synonyms=dict(data["synonyms"]),
        phrases=dict(data["phrases"]),
        verbs=verbs,
        third_person={base: third for third, (base, _) in verbs.items() if third != base},
        flips=flips,
        conditions=list(data["scope"]["conditions"]),
        unit_swaps=dict(data["unit_swaps"]),
        number_words={int(number): word for number, word in data["number_words"].items()},
        in_arguments=frozenset(data["reorder"]["in_arguments"]),
        movable=frozenset(data["reorder"]["movable"]),
    )


# ---------------------------------------------------------------- shared helpers


def whole_word(words: list[str] | tuple[str, ...] | set[str], flags: int = 0) -> re.Pattern[str]:
    """Whole-word alternation (a hyphen counts as part of a word), longest first."""
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", flags)


def keep_case(original: str, replacement: str) -> str:
    """The replacement with the original's capital first letter, if it had one."""
    if original[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def decapitalize(text: str) -> str:
    """Lower-case a sentence-initial word unless it looks like a name or an acronym."""
    first = text.split(" ", 1)[0]
    if first == "A" or (len(first) > 1 and first[1:].islower() and "'" not in first):
        return text[:1].lower() + text[1:]
    return text


def is_plural(noun_phrase: str) -> bool:
    """Plural when joined by "and" or when its head (the word before "of", else the last) ends in -s."""
    words = noun_phrase.split()
    if "and" in words:
        return True
    cut = next((index for index, word in enumerate(words) if index and word.lower() in PREPOSITIONS), len(words))
    head = words[cut - 1]
    return head.endswith("s") and not head.endswith(("ss", "us", "is", "sis"))


@dataclass(frozen=True)
class Clause:
    """A simple transitive statement: subject, verb (from the lexicon), object, trailing qualifier."""

    subject: str
    verb: str
    object: str
    qualifier: str


def split_clause(text: str, lexicon: Lexicon) -> Clause | None:
    """"S V O [qualifier]." with a short subject, a lexicon verb and a plain object, else None."""
    body = text.strip()
    if not body.endswith(".") or re.search(r"[,;:()\[\]]", body[:-1]):
        return None
    words = body[:-1].split()
    for index, word in enumerate(words[:9]):
        if index == 0:
            continue
        if word.lower() in AUXILIARIES or word.lower() in CLAUSE_WORDS:
            return None
        if word in lexicon.verbs:
            subject, rest = words[:index], words[index + 1:]
            if word == lexicon.verbs[word][0] and not is_plural(" ".join(subject)):
                return None  # a base form after a singular subject is a noun ("precise control on ...")
            obj, qualifier = split_qualifier(rest, lexicon)
            if not obj or len(obj) > 10 or rest[0].lower() in CLAUSE_WORDS | PREPOSITIONS | {"whether", "how", "what"}:
                return None
            if any(w.lower() in OBJECT_STOPS | AUXILIARIES for w in obj) or any(w.lower() in CLAUSE_WORDS | LINKING_VERBS | {"to"} for w in subject):
                return None
            return Clause(" ".join(subject), word, " ".join(obj), " ".join(qualifier))
    return None


def split_qualifier(words: list[str], lexicon: Lexicon) -> tuple[list[str], list[str]]:
    """The words before and from the last movable preposition that opens a qualifier (at most 7 words)."""
    for index in range(len(words) - 1, 0, -1):
        word = words[index].lower()
        if word in lexicon.movable and len(words) - index <= 7:
            if any(w.lower() in AUXILIARIES | CLAUSE_WORDS | LINKING_VERBS | {"to"} or w in lexicon.verbs for w in words[index + 1:]):
                return words, []  # the trailing phrase holds a verb: it is not a plain qualifier
            before, after = words[index - 1].lower(), words[index + 1].lower() if index + 1 < len(words) else ""
            if word == "in" and (before in lexicon.in_arguments or before.endswith(NOMINAL) or after.endswith("ing")):
                continue
            if before in FOCUS_WORDS:
                return words, []  # "even in the absence of": the focus word belongs to the phrase
            return words[:index], words[index:]
    return words, []


# ---------------------------------------------------------------- the rewrites


def to_passive(text: str, lexicon: Lexicon) -> str | None:
    clause = split_clause(text, lexicon)
    if clause is None:
        return None
    participle = lexicon.verbs[clause.verb][1]
    be = "are" if is_plural(clause.object) else "is"
    tail = f" {clause.qualifier}" if clause.qualifier else ""
    return f"{capitalize(clause.object)} {be} {participle} by {decapitalize(clause.subject)}{tail}."


def front_qualifier(text: str, lexicon: Lexicon) -> str | None:
    body = text.strip()
    if not body.endswith(".") or "," in body:
        return None
    words = body[:-1].split()
    main, qualifier = split_qualifier(words, lexicon)
    if not qualifier or len(main) < 3 or COMPARISONS.search(" ".join(main)) or re.search(r"[\d±]", " ".join(qualifier)):
        return None
    return f"{capitalize(' '.join(qualifier))}, {decapitalize(' '.join(main))}."


def substitute_synonyms(text: str, lexicon: Lexicon) -> str | None:
    result = text
    used: set[str] = set()
    for phrase, replacement in lexicon.phrases.items():
        pattern = re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", re.IGNORECASE)
        result, count = pattern.subn(lambda m, r=replacement: keep_case(m.group(0), r), result)
        if count:
            used.add(replacement.split()[0])
    pattern = whole_word(set(lexicon.synonyms))

    def replace(match: re.Match[str]) -> str:
        replacement = lexicon.synonyms[match.group(0)]
        used.add(replacement)
        return keep_case(match.group(0), replacement)

    result = pattern.sub(replace, result)
    if used:
        result = fix_articles(result, used)
    return result if result != text else None


def fix_articles(text: str, replacements: set[str]) -> str:
    """ "a"/"an" before the words that replaced others, by the replacement's first letter."""
    pattern = re.compile(rf"\b([Aa])n? ({'|'.join(re.escape(word) for word in sorted(replacements))})\b")
    return pattern.sub(lambda m: f"{m.group(1)}{'n' if m.group(2)[0] in 'aeio' else ''} {m.group(2)}", text)


def reformat_numbers(text: str, lexicon: Lexicon) -> str | None:
    words = lexicon.number_words
    by_word = {word: number for number, word in words.items()}
    result = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?) ?%", r"\1 percent", text)
    if result == text:
        result = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?) percent\b", r"\1%", text)
    result = re.sub(r"(?<![\w.-])(\d+)-fold\b", lambda m: f"{words[int(m.group(1))]}fold" if int(m.group(1)) in words else m.group(0), result)
    result = re.sub(r"\b(" + "|".join(by_word) + r")fold\b", lambda m: f"{by_word[m.group(1)]}-fold", result)
    result = re.sub(r"(?<![\w.,])(\d{1,3}),(\d{3})(?![\d,])", r"\1\2", result)
    plural = r"(weeks|days|months|years|hours|minutes|times|patients|species|sites|groups|samples|cells|layers|steps)"
    result = re.sub(rf"(?<![\w.,-])([2-9]|10) {plural}\b", lambda m: f"{words[int(m.group(1))]} {m.group(2)}", result)
    return result if result != text else None


REWRITES = (("passive", to_passive), ("front", front_qualifier), ("synonyms", substitute_synonyms), ("numbers", reformat_numbers))


def paraphrase(text: str, lexicon: Lexicon) -> tuple[str, list[str]] | None:
    """Every rewrite that applies, in turn; None when none does."""
    steps = []
    result = text
    for name, rewrite in REWRITES:
        rewritten = rewrite(result, lexicon)
        if rewritten and rewritten != result:
            result, steps = rewritten, [*steps, name]
    return (result, steps) if steps else None
