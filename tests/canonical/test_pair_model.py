"""A pair model (a cross-encoder in a folder) as the judge of the band: asked only after the vetoing
guards, order-free, counted and named in the audit trail; unusable folders are named."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.settings import CanonicalizeError, CanonicalizeSettings, load_settings
from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.pair_model import PairModelError, PairModelJudge
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.queries import read_named_query
from claimgraph.workflow import Workflow


def hub_members(store) -> set[str]:
    return {row["member"].value for row in store.select(read_named_query("hub-members"))}


@pytest.mark.parametrize(("threshold", "joined"), [(0.4, "abc"), (0.6, "ac")])
def test_the_pair_model_decides_guard_passed_candidates_in_the_band(band, texts, load_claims, store, iris, pair_model_dirs,
                                                                    tmp_path: Path, threshold: float, joined: str) -> None:
    load_claims(store, iris, texts)
    judge = PairModelJudge(pair_model_dirs["constant"], threshold=threshold)  # every pair scores 0.5
    summary = canonicalize_papers(Context(store, iris), list(texts), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                  settings=band, adjudicate=judge)
    assert hub_members(store) == {iris.node(paper, "claim", "1").value for paper in joined}
    asked = {frozenset((d.a, d.b)) for d in judge.decisions}
    assert asked == {frozenset((texts["a"], texts["b"]))}  # d is vetoed by the guards before the model is asked
    assert {d.score for d in judge.decisions} == {0.5} and {d.same for d in judge.decisions} == {threshold < 0.5}
    same_or_not = (summary.adjudicated_same, summary.adjudicated_different)
    assert same_or_not == ((len(judge.decisions), 0) if threshold < 0.5 else (0, len(judge.decisions)))
    entry = next(entry for entry in audit_trail(store, iris, "b") if entry["kind"] == "canonicalize")
    assert entry["notes"]["judge"] == "pair-model:constant"


def test_a_score_does_not_depend_on_which_text_comes_first(texts, pair_model_dirs) -> None:
    judge = PairModelJudge(pair_model_dirs["seeded"])
    first = judge.score(texts["a"], texts["d"])
    assert judge.score(texts["d"], texts["a"]) == first
    fresh = PairModelJudge(pair_model_dirs["seeded"])
    assert fresh.score(texts["d"], texts["a"]) == pytest.approx(first, abs=1e-6)
    assert 0.0 < first < 1.0 and fresh.score(texts["a"], texts["b"]) != pytest.approx(first, abs=1e-6)


def test_folders_that_are_not_pair_models_are_named(pair_model_dirs, tmp_path: Path) -> None:
    with pytest.raises(PairModelError, match=r"no config\.json"):
        PairModelJudge(tmp_path)
    with pytest.raises(PairModelError, match="2 labels"):
        PairModelJudge(pair_model_dirs["two_labels"])
    with pytest.raises(PairModelError, match="strictly between 0 and 1"):
        PairModelJudge(pair_model_dirs["constant"], threshold=1.0)


def test_a_judge_needs_a_band_and_only_one_judge_is_allowed(store, iris, pair_model_dirs, llm_config, fake_llm) -> None:
    with pytest.raises(CanonicalizeError, match=r"profile peirce sets no \[canonicalize\.adjudicate\] band"):
        Workflow(Context(store, iris, load_profile("peirce"))).canonicalize([], pair_model=pair_model_dirs["constant"])
    with pytest.raises(CanonicalizeError, match="one judge at a time"):
        Workflow(Context(store, iris)).canonicalize([], pair_model=pair_model_dirs["constant"],
                                                    adjudicate=llm_config(fake_llm({"": ["SAME"]})))


def test_the_discourse_profile_lets_a_judge_decide_every_cautious_candidate_from_081_up() -> None:
    settings = load_settings(load_profile("discourse"))
    for name in ("Claim", "Evidence", "Hypothesis", "ResearchQuestion", "Association", "Viewpoint"):
        assert settings.adjudicate[name] == (0.81, 1.0)
        assert settings.thresholds[name] < 1.0


def test_the_command_refuses_two_judges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--store", str(tmp_path / "store"), "canonicalize", "--adjudicate", "--pair-model", str(tmp_path)])
    assert exit_info.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_only_the_vetoing_guards_reject(texts, load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "d": texts["d"]})
    settings = CanonicalizeSettings(thresholds={"Claim": 0.5}, vetoes=frozenset({"polarity", "numbers", "direction", "hedge"}))
    summary = canonicalize_papers(Context(store, iris), ["a", "d"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                  settings=settings)
    assert hub_members(store) == {iris.node(paper, "claim", "1").value for paper in "ad"}  # "in mice" is scope, not a cue
    assert summary.guard_vetoes == 0


def test_the_profile_names_the_vetoing_guards(tmp_path: Path) -> None:
    manifest = tmp_path / "profile.toml"
    manifest.write_text('[canonicalize]\nvetoes = ["polarity", "scope"]\n[canonicalize.adjudicate]\nClaim = [0.8, 1.0]\n', encoding="utf-8")
    settings = load_settings(SimpleNamespace(manifest=manifest))
    assert settings.vetoes == {"polarity", "scope"} and settings.adjudicate == {"Claim": (0.8, 1.0)}
    manifest.write_text('[canonicalize]\nvetoes = ["polarity", "tone"]\n', encoding="utf-8")
    with pytest.raises(CanonicalizeError, match=r"vetoes = \['polarity', 'tone'\]: a list of guard names from polarity, numbers"):
        load_settings(SimpleNamespace(manifest=manifest))


def test_the_profile_can_let_nodes_of_one_paper_share_a_hub_and_must_say_so_with_a_boolean(tmp_path: Path) -> None:
    manifest = tmp_path / "profile.toml"
    manifest.write_text("[canonicalize]\njoin_within_paper = true\n", encoding="utf-8")
    assert load_settings(SimpleNamespace(manifest=manifest)).join_within_paper
    assert not load_settings(load_profile("discourse")).join_within_paper
    manifest.write_text('[canonicalize]\njoin_within_paper = "yes"\n', encoding="utf-8")
    with pytest.raises(CanonicalizeError, match=r"join_within_paper = 'yes': true or false"):
        load_settings(SimpleNamespace(manifest=manifest))
