"""Claims of the synthetic ARCHE corpus, drawn from the word lists in ``words.toml``.

An effect claim is (factor, direction, effect, population, quantity, unit), read as
"nitrogen addition increases soil organic carbon in alpine meadows by 12 g per kg".
``ClaimFactory`` draws fresh claims whose (factor, effect, population) has not been
used yet in the corpus while the domain has one left, so two unrelated claims do not come
out as near-duplicates by accident; only the variants asked for (``variant``) share that key.
(A corpus larger than the word lists allow, about 16 papers per domain, reuses keys with new
quantities: those pairs are distinct claims but are not labelled in the truth.) A fresh claim's
text is never one already drawn, so every repeated string in the corpus is deliberate.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError

WORDS_FILE = Path(__file__).with_name("words.toml")
HARD_NEGATIVE_KINDS = ("negation", "direction", "quantity", "unit", "population")
PARAPHRASE = "paraphrase"
FRESH_TEXT_TRIES = 1000
METHOD_KINDS = ("method", "abstract_method")


class SyntheticCorpusError(ClaimgraphError):
    """The synthetic corpus cannot be generated as asked (bad word file, bad size, unsafe folder)."""


@dataclass(frozen=True)
class Effect:
    name: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class Domain:
    name: str
    category: str
    factors: tuple[str, ...]
    populations: tuple[str, ...]
    methods: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Words:
    """The parsed word file: layout numbers, templates, direction words, hostile fragments, domains."""

    layout: dict[str, Any]
    templates: dict[str, Any]
    directions: dict[str, dict[str, Any]]
    fragments: tuple[str, ...]
    domains: tuple[Domain, ...]


@dataclass(frozen=True)
class Claim:
    """One atomic claim; ``clause`` is how it reads inside a sentence (no capital, no period)."""

    kind: str
    domain: str
    factor: str
    direction: str
    effect: str
    population: str
    quantity: str
    unit: str
    method: str
    clause: str

    @property
    def viewpoint(self) -> str:
        """The claim as a stand-alone viewpoint sentence."""
        return sentence_case(self.clause) + "."


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def _domain(name: str, table: dict[str, Any]) -> Domain:
    try:
        effects = tuple(Effect(item["name"], tuple(item["units"])) for item in table["effects"])
        domain = Domain(name, table["category"], tuple(table["factors"]), tuple(table["populations"]),
                        tuple(table["methods"]), effects)
    except (KeyError, TypeError) as error:
        raise SyntheticCorpusError(f"{WORDS_FILE}: domain {name!r} lacks or misshapes {error}") from error
    if len(domain.populations) < 2 or any(len(effect.units) < 2 for effect in domain.effects):
        raise SyntheticCorpusError(f"{WORDS_FILE}: domain {name!r} needs 2+ populations and 2+ units per effect")
    return domain


@cache
def load_words(path: Path = WORDS_FILE) -> Words:
    """Read and check the word file once per process."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return Words(
            layout=data["layout"],
            templates=data["templates"],
            directions=data["directions"],
            fragments=tuple(data["hostile"]["fragments"]),
            domains=tuple(_domain(name, table) for name, table in data["domains"].items()),
        )
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise SyntheticCorpusError(f"{path}: cannot read the synthetic corpus word file ({error})") from error
    except KeyError as error:
        raise SyntheticCorpusError(f"{path}: missing table or key {error}") from error


class ClaimFactory:
    """Draws claims for one corpus from one random generator; remembers every key and text used."""

    def __init__(self, words: Words, rng: random.Random) -> None:
        self.words = words
        self.rng = rng
        self._keys: set[tuple[str, str, str, str]] = set()
        self._texts: set[str] = set()
        self._spent: set[tuple[str, str]] = set()
        self._pools: dict[tuple[str, bool], list[tuple[str, str, str]]] = {}

    def _render(self, template: str, claim: Claim) -> str:
        words = self.words.directions[claim.direction] if claim.direction else {}
        slots = {key: value if isinstance(value, str) else self.rng.choice(value) for key, value in words.items()}
        return template.format(factor=claim.factor, effect=claim.effect, population=claim.population,
                               quantity=claim.quantity, unit=claim.unit, method=claim.method, **slots)

    def _quantity(self, other_than: str = "") -> str:
        while True:
            value = str(self.rng.randint(2, 95)) if self.rng.random() < 0.7 else f"{self.rng.randint(11, 99) / 10:g}"
            if value != other_than:
                return value

    def _draw(self, domain: Domain, kind: str, key: tuple[str, str, str] | None = None) -> Claim:
        """A random claim; ``key`` (subject, effect name, population) fixes those three when given."""
        subject, effect_name, population = key or (
            self.rng.choice(domain.methods if kind in METHOD_KINDS else domain.factors),
            self.rng.choice(domain.effects).name,
            self.rng.choice(domain.populations),
        )
        effect = next(item for item in domain.effects if item.name == effect_name)
        method = subject if kind in METHOD_KINDS else self.rng.choice(domain.methods)
        factor = self.rng.choice(domain.factors) if kind in METHOD_KINDS else subject
        return Claim(kind=kind, domain=domain.name, factor=factor, direction=self.rng.choice(sorted(self.words.directions)),
                     effect=effect.name, population=population, quantity=self._quantity(),
                     unit=self.rng.choice(effect.units), method=method, clause="")

    def _key(self, claim: Claim) -> tuple[str, str, str, str]:
        subject = claim.method if claim.kind in METHOD_KINDS else claim.factor
        return (claim.domain, subject, claim.effect, claim.population)

    def _unused_key(self, domain: Domain, by_method: bool) -> tuple[str, str, str] | None:
        """The next never-used (subject, effect, population) of the domain, from a shuffled pool; None once spent."""
        pool = self._pools.get((domain.name, by_method))
        if pool is None:
            subjects = domain.methods if by_method else domain.factors
            pool = [(subject, effect.name, population) for subject in subjects
                    for effect in domain.effects for population in domain.populations]
            self.rng.shuffle(pool)
            self._pools[(domain.name, by_method)] = pool
        while pool:
            key = pool.pop()
            if (domain.name, *key) not in self._keys:
                return key
        return None

    def fresh(self, domain: Domain, kind: str = "effect") -> Claim:
        """A claim of ``kind`` (effect, method, gap, abstract_method) with an unused key while the
        domain has one left (then any key), and always a text not used before (an effect claim
        once the texts of ``kind`` run out)."""
        if (domain.name, kind) in self._spent:
            kind = "effect"
        key = self._unused_key(domain, kind in METHOD_KINDS)
        for attempt in range(FRESH_TEXT_TRIES):
            if attempt == FRESH_TEXT_TRIES // 2 and kind != "effect":
                self._spent.add((domain.name, kind))  # kinds without a quantity run out of texts first
                kind, key = "effect", self._unused_key(domain, False)
            claim = self._draw(domain, kind, key)
            template = self.words.templates["effect"] if kind == "effect" else self.rng.choice(self.words.templates[kind])
            claim = replace(claim, clause=self._render(template, claim))
            if claim.clause not in self._texts:
                self.reserve(claim)
                return claim
            key = None
        raise SyntheticCorpusError(f"{WORDS_FILE}: word lists of domain {domain.name!r} are too small for this corpus")

    def reserve(self, claim: Claim) -> None:
        self._keys.add(self._key(claim))
        self._texts.add(claim.clause)

    def labelled_pair(self, domain: Domain, kind: str) -> tuple[Claim, Claim]:
        """A fresh claim and its ``kind`` variant, whose text is used nowhere else."""
        for _ in range(FRESH_TEXT_TRIES):
            original = self.fresh(domain)
            changed = self.variant(original, kind, domain)
            if changed.clause not in self._texts:
                self.reserve(changed)
                return original, changed
        raise SyntheticCorpusError(f"{WORDS_FILE}: word lists of domain {domain.name!r} are too small for this corpus")

    def variant(self, claim: Claim, kind: str, domain: Domain) -> Claim:
        """``claim`` changed in one way: a HARD_NEGATIVE_KINDS kind, or PARAPHRASE (same meaning,
        new words). Nothing is reserved; ``labelled_pair`` does that."""
        templates = self.words.templates
        if kind == "negation":
            changed = replace(claim, clause=self._render(self.rng.choice(templates["negation"]), claim))
        elif kind == "direction":
            flipped = replace(claim, direction=self.words.directions[claim.direction]["opposite"])
            changed = replace(flipped, clause=self._render(templates["effect"], flipped))
        elif kind == "quantity":
            other = replace(claim, quantity=self._quantity(other_than=claim.quantity))
            changed = replace(other, clause=self._render(templates["effect"], other))
        elif kind == "unit":
            units = next(effect.units for effect in domain.effects if effect.name == claim.effect)
            other = replace(claim, unit=self.rng.choice([unit for unit in units if unit != claim.unit]))
            changed = replace(other, clause=self._render(templates["effect"], other))
        elif kind == "population":
            changed = self._moved(claim, domain)
        elif kind == PARAPHRASE:
            changed = replace(claim, clause=self._render(self.rng.choice(templates["paraphrase"]), claim))
        else:
            raise SyntheticCorpusError(f"unknown claim variant {kind!r}; known: {(*HARD_NEGATIVE_KINDS, PARAPHRASE)}")
        return changed

    def _moved(self, claim: Claim, domain: Domain) -> Claim:
        """The claim in another population, preferring one whose key is still unused."""
        others = [population for population in domain.populations if population != claim.population]
        self.rng.shuffle(others)
        unused = [population for population in others if self._key(replace(claim, population=population)) not in self._keys]
        moved = replace(claim, population=(unused or others)[0])
        return replace(moved, clause=self._render(self.words.templates["effect"], moved))

    def abstract(self, domain: Domain) -> tuple[str, ...]:
        """The viewpoints of one cited abstract: sometimes a method statement, then effect claims."""
        low, high = self.words.layout["abstract_viewpoints"]
        size = self.rng.randint(low, high)
        texts: list[str] = []
        if self.rng.random() < 0.5:
            texts.append(self.fresh(domain, "abstract_method").viewpoint)
        while len(texts) < size:
            kind = "effect" if self.rng.random() < 0.8 else "method"
            texts.append(self.fresh(domain, kind).viewpoint)
        return tuple(texts)

    def title(self, domain: Domain) -> str:
        claim = self._draw(domain, "effect")
        return sentence_case(self._render(self.rng.choice(self.words.templates["title"]), claim))

    def hostile_text(self, domain: Domain, template_key: str, fragment: str, about: Claim | None = None) -> str:
        """A viewpoint quoting ``fragment`` whose text is not used anywhere else in the corpus;
        about the effect and population of ``about`` when that text is still free."""
        template = self.words.templates[template_key]
        pairs = [(effect.name, population) for effect in domain.effects for population in domain.populations]
        self.rng.shuffle(pairs)
        if about is not None:
            pairs.insert(0, (about.effect, about.population))
        for effect, population in pairs:
            text = template.format(effect=effect, population=population, fragment=fragment)
            if text not in self._texts:
                self._texts.add(text)
                return text
        raise SyntheticCorpusError(f"{WORDS_FILE}: domain {domain.name!r} has too few effects and populations for its hostile texts")
