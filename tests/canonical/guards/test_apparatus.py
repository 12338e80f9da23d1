"""Citation markers and reported statistics are removed before the guards compare two texts;
the estimate, sample sizes and study years are not."""

from __future__ import annotations

import pytest

from claimgraph.canonical.guards.apparatus import without_apparatus
from claimgraph.canonical.guards.check import check_pair


def test_markers_intervals_and_p_values_are_removed_and_the_rest_kept() -> None:
    text = "Smokers had a higher risk (OR 1.5, 95% CI 1.2-1.9; P = 0.003) than non-smokers [12] (Smith et al., 2019)."
    assert without_apparatus(text) == "Smokers had a higher risk (OR 1.5) than non-smokers."
    assert without_apparatus("The survey covered 120 farms (n = 120) [5].") == "The survey covered 120 farms (n = 120)."



@pytest.mark.parametrize(("a", "b"), [
    ("Soil warming increases microbial respiration [23].", "Microbial respiration is increased by soil warming (refs. 4-6)."),
    ("Soil warming increases microbial respiration [3, 7-9].", "Soil warming increases microbial respiration."),
    ("Grazing lowers plant diversity (Smith et al., 2019; Lee and Park 2020).", "Grazing lowers plant diversity."),
    ("Respiration rose by 20% (95% CI 12-28%) after warming.", "Respiration rose by 20% after warming."),
    ("Smokers had a higher risk (OR 1.5, 95% CI 1.2–1.9; P = 0.003).", "Smokers had a higher risk (OR 1.5)."),
])
def test_citation_markers_and_reported_statistics_are_not_compared(a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert verdict.compatible, verdict.reasons


@pytest.mark.parametrize(("a", "b"), [
    ("Respiration rose by 20% (95% CI 12-28%) after warming [4].", "Respiration rose by 35% (95% CI 12-28%) after warming [4]."),
    ("Smith et al. (2019) showed that grazing lowers plant diversity.", "Smith et al. showed that grazing lowers plant diversity."),
    ("The survey covered 120 farms (n = 120) [5].", "The survey covered 12 farms (n = 12) [5]."),
])
def test_the_estimate_a_sample_size_and_a_study_year_are_still_compared(a: str, b: str) -> None:
    assert "numbers" in check_pair(a, b).fired()
