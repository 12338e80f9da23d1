"""A synthetic corpus in the ARCHE JSON format, generated from templates, for tests and benchmarks.

The real ARCHE papers cannot ship with claimgraph; this corpus can, because we generate it.
``write_corpus(folder, papers=8, seed=7)`` writes ``synth-0001.json`` ... and ``truth.jsonl``
(see ``synthetic_truth``); the same seed gives byte-identical files. From the command line:
``python -m claimgraph.testing.synthetic.arche OUT [--papers N] [--seed S]``.

Each file has the layout of a real one: ``file_info`` (unique_id, base_id, title,
assigned_category, ...) and ``introduction`` (section, content: the sentences joined by
spaces, sentences[]: idx from 1, sentence, references, viewpoints). By construction:

- every paper has 24-40 sentences of 1-4 viewpoints; paper i belongs to domain
  ``(i // 2) % len(domains)`` (soil ecology, immunology, materials, climate), so papers come
  in same-domain pairs;
- references are numbered in order of first citation, cited as ``[n]`` or ``[n,m]``, and at
  least two per paper are cited again by later sentences (their viewpoints repeat, as in ARCHE);
- about 15% of references, and at least one per paper, are empty lists (no abstract available);
- every paper of a domain cites the same two abstracts (``shared_abstracts_per_domain``) and
  states the same two sentence viewpoints, so those texts recur across papers;
- between consecutive papers of a domain, one original claim per hard-negative kind goes in the
  first paper and its variant in the second: negation, flipped direction, another quantity,
  another unit of the same dimension, another population or condition; likewise two paraphrases;
- each hostile fragment of the word file (quotes, backslashes, braces with ``} ; DROP ALL ;``,
  ``?var``, ``<http://...>``, newline and tab, emoji, U+202E, a zero-width joiner) is written
  into one sentence, that sentence's viewpoint and one cited abstract of some paper;
- no other text repeats across papers: fresh claims never reuse a (factor, effect, population)
  key while an unused one is left, and never reuse a text.

Words and templates live in ``words.toml``. Nothing here comes from ARCHE.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from claimgraph.testing.synthetic.citations import plan_citations
from claimgraph.testing.synthetic.claims import (
    HARD_NEGATIVE_KINDS,
    PARAPHRASE,
    ClaimFactory,
    Domain,
    SyntheticCorpusError,
    Words,
    load_words,
    sentence_case,
)
from claimgraph.testing.synthetic.truth import (
    TRUTH_FILE,
    Occurrence,
    truth_records,
    truth_text,
)

FRESH_KINDS = ("effect", "method", "gap")
FRESH_KIND_WEIGHTS = (70, 15, 15)


@dataclass(frozen=True)
class Tagged:
    """A viewpoint text, how it reads inside a sentence, and its truth tag ("" when none)."""

    text: str
    tag: str = ""
    clause: str = ""
    kind: str = "effect"


@dataclass(frozen=True)
class Abstract:
    """A cited paper's abstract viewpoints; none means the reference is an empty list."""

    viewpoints: tuple[Tagged, ...] = ()


@dataclass
class PaperPlan:
    """What one paper must contain before it is filled with fresh claims."""

    base_id: str
    domain: Domain
    placed: list[Tagged] = field(default_factory=list)
    abstracts: list[Abstract] = field(default_factory=list)
    fragments: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SentencePlan:
    clauses: tuple[str, ...]
    viewpoints: tuple[Tagged, ...]
    tag: str = ""


@dataclass
class SyntheticCorpus:
    """File name -> ARCHE JSON object, and the truth records."""

    documents: dict[str, dict[str, Any]]
    truth: list[dict[str, Any]]


def _shared_plans(plans: list[PaperPlan], factory: ClaimFactory) -> dict[int, str]:
    """Put shared abstracts, shared viewpoints and labelled pairs into the plans; returns pair kinds."""
    layout = factory.words.layout
    groups: dict[str, list[PaperPlan]] = {}
    for plan in plans:
        groups.setdefault(plan.domain.name, []).append(plan)
    pair_kinds: dict[int, str] = {}
    for name, members in groups.items():
        domain = members[0].domain
        for number in range(layout["shared_abstracts_per_domain"]):
            abstract = Abstract(tuple(Tagged(text, f"shared-abstract:{name}:{number}") for text in factory.abstract(domain)))
            for member in members:
                member.abstracts.append(abstract)
        for number in range(layout["shared_sentence_viewpoints_per_domain"]):
            claim = factory.fresh(domain)
            for member in members:
                member.placed.append(Tagged(claim.viewpoint, f"shared-sentence:{name}:{number}", claim.clause))
        kinds = HARD_NEGATIVE_KINDS + (PARAPHRASE,) * layout["paraphrases_per_pair"]
        for first, second in list(pairwise(members)) or [(members[0], members[0])]:
            for kind in kinds:
                number = len(pair_kinds)
                pair_kinds[number] = kind
                original, changed = factory.labelled_pair(domain, kind)
                first.placed.append(Tagged(original.viewpoint, f"pair:{number}:a", original.clause))
                second.placed.append(Tagged(changed.viewpoint, f"pair:{number}:b", changed.clause))
    return pair_kinds


def _fragment_plans(plans: list[PaperPlan], fragments: Sequence[str]) -> dict[int, str]:
    """Every fragment goes to at least one paper and every paper gets at least one fragment."""
    for index, plan in enumerate(plans):
        numbers = {index % len(fragments)} | {number for number in range(len(fragments)) if number % len(plans) == index}
        plan.fragments = {number: fragments[number] for number in sorted(numbers)}
    return dict(enumerate(fragments))


def _fresh_tagged(factory: ClaimFactory, domain: Domain) -> Tagged:
    kind = factory.rng.choices(FRESH_KINDS, weights=FRESH_KIND_WEIGHTS)[0]
    claim = factory.fresh(domain, kind)
    return Tagged(claim.viewpoint, "", claim.clause, claim.kind)


def _hostile_sentence(factory: ClaimFactory, domain: Domain, number: int, fragment: str) -> SentencePlan:
    base = factory.fresh(domain)
    clause = factory.words.templates["hostile_clause"].format(clause=base.clause, fragment=fragment)
    quoted = factory.hostile_text(domain, "hostile_viewpoint", fragment, about=base)
    tag = f"hostile:{number}"
    return SentencePlan((clause,), (Tagged(base.viewpoint, "", clause), Tagged(quoted, tag)), tag)


def _sentence_plans(plan: PaperPlan, factory: ClaimFactory) -> list[SentencePlan]:
    """The paper's sentences: hostile ones, hosts of the placed viewpoints, the rest fresh."""
    rng, layout = factory.rng, factory.words.layout
    count = max(rng.randint(*layout["sentences_per_paper"]), len(plan.fragments) + 1)
    order = rng.sample(range(count), count)
    hostile_at = dict(zip(order, plan.fragments.items()))
    hosts = order[len(plan.fragments):]
    placed: dict[int, list[Tagged]] = {}
    for number, item in enumerate(plan.placed):
        placed.setdefault(hosts[number % len(hosts)], []).append(item)
    sentences = []
    for position in range(count):
        if position in hostile_at:
            sentences.append(_hostile_sentence(factory, plan.domain, *hostile_at[position]))
            continue
        items = list(placed.get(position, []))
        size = rng.choices((1, 2, 3, 4), weights=layout["viewpoint_weights"])[0]
        while len(items) < size:
            items.insert(rng.randint(0, len(items)), _fresh_tagged(factory, plan.domain))
        sentences.append(SentencePlan(tuple(item.clause for item in items), tuple(items)))
    return sentences


def _reference_abstracts(count: int, plan: PaperPlan, factory: ClaimFactory) -> dict[int, Abstract]:
    """Reference number -> abstract: the shared ones, one hostile per fragment, one empty, the rest drawn."""
    rng = factory.rng
    numbers = rng.sample(range(1, count + 1), count)
    chosen: dict[int, Abstract] = {numbers.pop(): abstract for abstract in plan.abstracts}
    for number, fragment in plan.fragments.items():
        texts = [Tagged(text) for text in factory.abstract(plan.domain)]
        quoted = Tagged(factory.hostile_text(plan.domain, "hostile_reference", fragment), f"hostile:{number}")
        texts.insert(rng.randint(0, len(texts)), quoted)
        chosen[numbers.pop()] = Abstract(tuple(texts))
    chosen[numbers.pop()] = Abstract()
    for number in numbers:
        empty = rng.random() < factory.words.layout["empty_reference_probability"]
        chosen[number] = Abstract() if empty else Abstract(tuple(Tagged(text) for text in factory.abstract(plan.domain)))
    return chosen


def _sentence_text(sentence: SentencePlan, cited: list[int], rng: random.Random, words: Words) -> str:
    templates = words.templates
    body = sentence.clauses[0]
    for clause in sentence.clauses[1:]:
        body += rng.choice(templates["connectors"]) + clause
    opener = rng.choice(templates["openers"])
    if sentence.viewpoints[0].kind == "gap":
        opener = ""  # "it has been reported that whether ..." does not read
    marker = f" [{','.join(str(number) for number in cited)}]" if cited else ""
    return sentence_case(opener + body) + marker + "."


def _paper(plan: PaperPlan, factory: ClaimFactory) -> tuple[dict[str, Any], list[Occurrence]]:
    """One paper's ARCHE JSON object and the places of its tagged texts."""
    words = factory.words
    title = factory.title(plan.domain)
    sentences = _sentence_plans(plan, factory)
    minimum = len(plan.abstracts) + len(plan.fragments) + 2
    citations = plan_citations(len(sentences), factory.rng, words.layout, minimum)
    abstracts = _reference_abstracts(max((n for cited in citations for n in cited), default=0), plan, factory)
    items: list[dict[str, Any]] = []
    occurrences: list[Occurrence] = []
    for index, (sentence, cited) in enumerate(zip(sentences, citations), start=1):
        text = _sentence_text(sentence, cited, factory.rng, words)
        occurrences.append(Occurrence(plan.base_id, "sentence", (index, 0, 0), text, sentence.tag))
        references: dict[str, Any] = {}
        for number in cited:
            abstract = abstracts[number]
            references[str(number)] = {str(z): vp.text for z, vp in enumerate(abstract.viewpoints, start=1)} or []
            occurrences.extend(Occurrence(plan.base_id, "reference_viewpoint", (index, number, z), vp.text, vp.tag)
                               for z, vp in enumerate(abstract.viewpoints, start=1))
        occurrences.extend(Occurrence(plan.base_id, "sentence_viewpoint", (index, 0, z), vp.text, vp.tag)
                           for z, vp in enumerate(sentence.viewpoints, start=1))
        items.append({"idx": index, "sentence": text, "references": references,
                      "viewpoints": [vp.text for vp in sentence.viewpoints]})
    document = {
        "introduction": {"section": "introduction", "content": " ".join(item["sentence"] for item in items), "sentences": items},
        "file_info": {"unique_id": f"{plan.base_id}_synthetic", "base_id": plan.base_id, "original_file": "",
                      "title": title, "published_time": "", "assigned_category": plan.domain.category,
                      "original_category": plan.domain.category},
    }
    return document, occurrences


def build_corpus(papers: int = 8, seed: int = 7) -> SyntheticCorpus:
    """The whole corpus in memory; deterministic for (papers, seed)."""
    if papers < 1:
        raise SyntheticCorpusError(f"a synthetic corpus needs at least 1 paper, not {papers}")
    words = load_words()
    factory = ClaimFactory(words, random.Random(seed))
    plans = [PaperPlan(f"synth-{index + 1:04d}", words.domains[(index // 2) % len(words.domains)]) for index in range(papers)]
    pair_kinds = _shared_plans(plans, factory)
    fragments = _fragment_plans(plans, words.fragments)
    documents: dict[str, dict[str, Any]] = {}
    occurrences: list[Occurrence] = []
    for plan in plans:
        document, places = _paper(plan, factory)
        documents[f"{plan.base_id}.json"] = document
        occurrences.extend(places)
    return SyntheticCorpus(documents, truth_records(occurrences, pair_kinds, fragments, papers, seed))


def corpus_documents(papers: int = 8, seed: int = 7) -> dict[str, dict[str, Any]]:
    """File name -> ARCHE JSON object, without writing anything."""
    return build_corpus(papers, seed).documents


def document_text(document: dict[str, Any]) -> str:
    """A paper serialized like the real ARCHE files: 2-space indent, UTF-8 kept as is, final newline."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _check_folder(folder: Path, names: set[str]) -> None:
    if folder.exists() and not folder.is_dir():
        raise SyntheticCorpusError(f"{folder}: exists and is not a folder; give a folder for the corpus")
    strangers = sorted(path.name for path in folder.iterdir() if path.name not in names) if folder.is_dir() else []
    if strangers:
        raise SyntheticCorpusError(f"{folder}: already holds {', '.join(strangers[:3])}"
                                   f"{' ...' if len(strangers) > 3 else ''}; write the corpus into an empty folder")


def write_corpus(folder: Path, papers: int = 8, seed: int = 7) -> list[Path]:
    """Write the papers and ``truth.jsonl`` into ``folder`` (empty, new, or an earlier corpus of the
    same size); returns the paper paths in order."""
    corpus = build_corpus(papers, seed)
    _check_folder(folder, set(corpus.documents) | {TRUTH_FILE})
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, document in corpus.documents.items():
        path = folder / name
        path.write_bytes(document_text(document).encode("utf-8"))
        paths.append(path)
    (folder / TRUTH_FILE).write_bytes(truth_text(corpus.truth).encode("utf-8"))
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m claimgraph.testing.synthetic.arche",
                                     description="Write a synthetic ARCHE-format corpus and its truth.jsonl.")
    parser.add_argument("out", type=Path, help="folder to write (new, empty, or an earlier corpus of the same size)")
    parser.add_argument("--papers", type=int, default=8, help="number of papers (default 8)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args(argv)
    try:
        paths = write_corpus(args.out, args.papers, args.seed)
    except SyntheticCorpusError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(paths)} papers and {TRUTH_FILE} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
