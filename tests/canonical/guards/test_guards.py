"""Canonicalization guards: each fires on its kind of hard negative and stays silent on paraphrases
(swapped subject and object are the roles guard's kind; an association is symmetric, so its swap
is a paraphrase).

The pairs are a subset of bench/canon_eval/handwritten.toml (copied here so the tests do not
depend on the benchmark's data); neither the ARCHE corpus nor the embedding model is needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.canonical.guards.check import GUARDS, check_pair
from claimgraph.canonical.guards.vocabulary import DEFAULT_GUARD_WORDS, GuardWordsError, expand, load_guard_words

NEGATIVES = [
    ("polarity", "Warming speeds up soil respiration.", "Warming does not speed up soil respiration."),
    ("polarity", "Nitrogen fertilization increases maize grain yield.", "Nitrogen fertilization fails to increase maize grain yield."),
    ("polarity", "Tree species richness is associated with ecosystem productivity.",
     "Tree species richness shows no association with ecosystem productivity."),
    ("polarity", "presence of predators", "absence of predators"),
    ("polarity", "Moist warm cores respired more than moist cool cores.", "Moist warm cores didn't respire more than moist cool cores."),
    ("direction", "Deforestation reduces rainfall in the Amazon basin.", "Deforestation increases rainfall in the Amazon basin."),
    ("direction", "Warming speeds up soil respiration.", "Warming slows down soil respiration."),
    ("direction", "Body mass index is positively correlated with systolic blood pressure.",
     "Body mass index is negatively correlated with systolic blood pressure."),
    ("direction", "Longer telomeres are associated with slower biological ageing.",
     "Shorter telomeres are associated with slower biological ageing."),
    ("direction", "high-fat diet", "low-fat diet"),
    ("numbers", "The drug reduces LDL cholesterol by about 30%.", "The drug reduces LDL cholesterol by about 50%."),
    ("numbers", "A daily dose of 5 mg of the compound reduces seizure frequency.",
     "A daily dose of 5 g of the compound reduces seizure frequency."),
    ("numbers", "The perovskite film degrades within 2 weeks under humid air.",
     "The perovskite film degrades within 2 years under humid air."),
    ("numbers", "PM2.5 exposure", "PM10 exposure"),
    ("numbers", "High serum ferritin is associated with type 2 diabetes.", "High serum ferritin is associated with type 1 diabetes."),
    ("hedge", "Chronic stress suppresses immune function.", "Chronic stress may suppress immune function."),
    ("hedge", "Deforestation reduces rainfall in the Amazon basin.", "Deforestation is thought to reduce rainfall in the Amazon basin."),
    ("hedge", "Ice cores show that CO2 concentrations never exceeded 300 ppm in the last 800,000 years.",
     "Ice cores suggest that CO2 concentrations never exceeded 300 ppm in the last 800,000 years."),
    ("scope", "Warming speeds up soil respiration.", "Warming speeds up soil respiration only in moist soil."),
    ("scope", "The compound kills cancer cells in mice.", "The compound kills cancer cells in humans."),
    ("scope", "Chronic stress suppresses immune function.", "Chronic stress suppresses immune function in older women."),
    ("scope", "Regular aerobic exercise lowers resting blood pressure in adults with hypertension.",
     "Regular aerobic exercise lowers resting blood pressure in adults."),
    ("scope", "Patients receiving the drug had a median survival of 14 months.",
     "Patients receiving the drug had a median survival of 14 months when treated before metastasis."),
    ("scope", "Can machine learning predict protein stability from sequence alone?",
     "Can machine learning predict protein stability from sequence and structure?"),
    ("roles", "Inflammation drives insulin resistance.", "Insulin resistance drives inflammation."),
    ("roles", "Does obesity cause depression?", "Does depression cause obesity?"),
    ("roles", "Sleep deprivation impairs working memory.", "Impaired working memory causes sleep deprivation."),
    ("roles", "Nest predation rates were higher at forest edges than in forest interiors.",
     "Nest predation rates were higher in forest interiors than at forest edges."),
    ("roles", "The treated group outperformed the placebo group on memory tests.",
     "The placebo group outperformed the treated group on memory tests."),
    ("roles", "The survey uses satellite imagery.", "Satellite imagery uses the survey."),
    ("roles", "The lake study shows compatibility with older records.", "Compatibility with older records shows the lake study."),
    ("frame", "Mice fed a high-fat diet gained 25% more weight than controls.",
     "Male mice fed a high-fat diet gained 25% more weight than controls."),
    ("frame", "The drug lowered blood pressure in the trial.", "The drug lowered blood pressure in the trial in the northern hemisphere."),
    ("frame", "Optical tweezers have potential applications in single-molecule biophysics.",
     "Optical tweezers have potential applications in colloid and polymer rheology."),
]

PARAPHRASES = [
    ("Warming speeds up soil respiration.", "Soil respiration is accelerated by warming."),
    ("Zooplankton in coastal waters ingest microplastics.", "Microplastics are ingested by zooplankton in coastal waters."),
    ("The new catalyst converts carbon dioxide into methanol with 20% efficiency.",
     "With an efficiency of 20 percent, the new catalyst turns carbon dioxide into methanol."),
    ("The drug reduces LDL cholesterol by about 30%.", "The drug lowers LDL cholesterol by roughly 30 percent."),
    ("The perovskite film degrades within 2 weeks under humid air.", "Under humid air, the perovskite film degrades in two weeks."),
    ("Physical activity is inversely associated with depression.", "Depression is negatively correlated with physical activity."),
    ("Greater income inequality is associated with lower life expectancy.", "Life expectancy is lower where income inequality is greater."),
    ("Dark matter may consist of weakly interacting massive particles.", "Weakly interacting massive particles might make up dark matter."),
    ("Moist warm cores respired twice as much as moist cool cores.", "Respiration in moist warm cores was double that of moist cool cores."),
    ("In a trial of 1,200 adults, the vaccine reduced infections by 60%.",
     "The vaccine cut infections by 60 percent in a trial with 1200 adults."),
    ("The treated group showed a 3-fold increase in IL-6 levels.", "IL-6 levels rose threefold in the treated group."),
    ("Knockout mice lacking the receptor showed no response to the ligand.", "Mice without the receptor did not respond to the ligand."),
    ("Latitude correlates with body size in mammals.", "In mammals, body size correlates with latitude."),
    ("Regular aerobic exercise lowers resting blood pressure in adults with hypertension.",
     "In hypertensive adults, regular aerobic exercise reduces resting blood pressure."),
    ("resting heart rate", "heart rate at rest"),
    ("Mangrove forests protect coastlines from storm surges.", "Coastlines are shielded from storm surges by mangrove forests."),
    ("Nitrogen fertilization increases maize grain yield.", "Maize grain yield rises under nitrogen fertilization."),
    ("Soil temperature is associated with soil respiration.", "Soil respiration is associated with soil temperature."),
    ("The perovskite film degrades within 2 weeks under humid air.", "Under humid air, the perovskite film degrades in two weeks."),
]


@pytest.mark.parametrize(("guard", "a", "b"), NEGATIVES)
def test_guard_fires_on_its_kind_of_negative(guard: str, a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert not verdict.compatible
    assert guard in verdict.fired(), verdict.reasons


@pytest.mark.parametrize(("guard", "a", "b"), NEGATIVES)
def test_guards_are_symmetric(guard: str, a: str, b: str) -> None:
    assert guard in check_pair(b, a).fired()


@pytest.mark.parametrize(("a", "b"), PARAPHRASES)
def test_guards_stay_silent_on_paraphrases(a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert verdict.compatible, verdict.reasons


FRAME_AND_PIVOT_PARAPHRASES = [
    ("The survey uses satellite imagery in cold lakes.", "In cold lakes, the survey uses satellite imagery."),
    ("Does warming accelerate soil respiration?", "Is soil respiration accelerated by warming?"),
    ("Fault creep might release stress and delay large earthquakes.", "Large earthquakes may be delayed because fault creep releases stress."),
    ("Yields were lower due to the late frost.", "Yields were lower because of the late frost."),
    ("The dose response rose fivefold in the second week.", "The dose response rose 5-fold in the second week."),
    ("Drought reduced the growth of the seedlings.", "Drought reduced the growth of seedlings."),
    ("The model predicts mean annual rainfall over the basin.", "The model predicts average yearly rainfall over the basin."),
]


@pytest.mark.parametrize(("a", "b"), FRAME_AND_PIVOT_PARAPHRASES)
def test_frame_and_pivot_rules_let_rewordings_through(a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert verdict.compatible, verdict.reasons


def test_a_single_differing_word_is_left_to_cosine() -> None:
    """No word list tells "crucial"/"critical" (a synonym) from "crucial"/"dispensable" (a contrast) unless
    the pair is one of the listed opposites ("success"/"failure"): the first two pass."""
    assert check_pair("The enzyme is crucial for repair.", "The enzyme is critical for repair.").compatible
    assert check_pair("The enzyme is crucial for repair.", "The enzyme is dispensable for repair.").compatible
    assert check_pair("The graft was a success.", "The graft was a failure.").reasons == ["direction: 'success' in a vs 'failure' in b"]


def test_the_frame_guard_names_what_was_added() -> None:
    assert check_pair("Rats fed the diet gained weight.", "Female rats fed the diet gained weight.").reasons == [
        "frame: 'female' in b only; the rest is the same"]


def test_term_linking_leaves_the_frame_guard_out_and_keeps_the_others() -> None:
    """A narrower mention is a close match of the broader term's label; a negated one is still refused."""
    assert not check_pair("moderate physical activity", "physical activity").compatible
    assert check_pair("moderate physical activity", "physical activity", frame=False).compatible
    assert check_pair("non-randomized controlled trial", "randomized controlled trial", frame=False).reasons == ["polarity: 'non' in a only"]


def test_reasons_name_the_guard_the_cue_and_the_side() -> None:
    verdict = check_pair("Soil temperature is associated with soil respiration.", "Soil temperature is not associated with soil respiration.")
    assert verdict.reasons == ["polarity: 'not' in b only"]
    assert set(verdict.fired()) <= set(GUARDS)


def test_not_only_does_not_negate_or_restrict() -> None:
    assert check_pair("Drought reduces not only yield but also grain quality.", "Drought reduces yield and grain quality.").compatible


def test_direction_compares_the_product_when_cue_counts_differ() -> None:
    assert check_pair("Higher income inequality goes with lower life expectancy.",
                      "Income inequality is negatively associated with life expectancy.").compatible
    assert not check_pair("Higher income inequality goes with higher life expectancy.",
                          "Income inequality is negatively associated with life expectancy.").compatible


def test_an_increase_in_is_an_argument_not_a_qualifier() -> None:
    assert check_pair("Warming causes an increase in soil respiration.", "Soil respiration increases with warming.").compatible


def test_the_guard_vocabulary_file_loads() -> None:
    words = load_guard_words()
    assert words.source == DEFAULT_GUARD_WORDS.resolve()
    for pattern in (words.negation, words.hedge, words.up, words.down, words.restrictors):
        assert pattern is not None
    assert words.units["percent"] == "%" and words.units["mg"] == "mg"
    assert words.number_words["two"] == 2.0
    assert ("in", "the", "presence", "of") in words.prepositions
    assert ("drives",) in words.role_verbs and "driven" in words.participles


def test_braces_expand_to_every_spelling() -> None:
    assert expand("increas{e,es,ed}") == ["increase", "increases", "increased"]
    assert expand("speed{,s} up") == ["speed up", "speeds up"]


def test_a_malformed_vocabulary_names_the_file_and_the_key(tmp_path: Path) -> None:
    broken = tmp_path / "words.toml"
    broken.write_text(DEFAULT_GUARD_WORDS.read_text(encoding="utf-8").replace('cues = [\n  "not"', 'cues = [\n  "NOT"', 1), encoding="utf-8")
    with pytest.raises(GuardWordsError, match=r"words\.toml: polarity\.cues must be lower case"):
        load_guard_words(broken)
    with pytest.raises(GuardWordsError, match="not found"):
        load_guard_words(tmp_path / "missing.toml")


def test_a_hedge_added_to_a_hedged_text_is_a_difference() -> None:
    """Both texts "indicate that"; only one adds "may": counted like negation cues."""
    verdict = check_pair("The data indicate that the vaccine is capable of driving immune responses.",
                         "The data indicate that the vaccine may be capable of driving immune responses.")
    assert verdict.reasons == ["hedge: 'indicate that', 'may', 'capable of' in b (3 cues vs 2)"]
    assert check_pair("Can language models solve geometry problems?", "Are language models able to solve geometry problems?").compatible
    assert check_pair("Metformin has been proposed as a treatment for the syndrome.",
                      "Metformin was suggested as a therapy for the syndrome.").compatible


def test_limits_and_deficiencies_are_not_changes_of_direction() -> None:
    assert check_pair("Low vitamin D levels are associated with depression.", "Depression is linked to vitamin D deficiency.").compatible
    assert check_pair("The sensor detected concentrations as low as 0.5 ppm.",
                      "Concentrations down to 0.5 ppm were detected by the sensor.").compatible
    assert check_pair("Response rates were twice as high in the treated group as in controls.",
                      "The treated group had a response rate double that of controls.").compatible
    assert "direction" in check_pair("Low vitamin D levels are associated with depression.",
                                     "High vitamin D levels are associated with depression.").fired()


@pytest.mark.parametrize(("a", "b"), [
    ("Early studies found the treatment to be beneficial for patients with sepsis.",
     "Early studies found the treatment to be harmful for patients with sepsis."),
    ("The success of gene editing drives the DNA synthesis industry.", "The failure of gene editing drives the DNA synthesis industry."),
    ("This review covers experimental work on irradiated ceramics.", "This review covers theoretical work on irradiated ceramics."),
])
def test_listed_opposites_split_between_the_texts_differ(a: str, b: str) -> None:
    assert "direction" in check_pair(a, b).fired()


@pytest.mark.parametrize(("a", "b"), [
    ("Treated plants outgrew untreated plants by 20%.", "Untreated plants outgrew treated plants by 20%."),
    ("Wolves regulate elk populations in Yellowstone.", "Elk regulate wolf populations in Yellowstone."),
])
def test_irregular_plurals_and_competition_verbs_are_read_for_roles(a: str, b: str) -> None:
    assert "roles" in check_pair(a, b).fired()


def test_quantifiers_are_not_qualifier_content() -> None:
    assert check_pair("Several studies have linked chronic noise exposure to cardiovascular disease.",
                      "Chronic exposure to noise has been linked to cardiovascular disease in multiple studies.").compatible


def test_ability_is_not_a_hedge_in_a_question_but_is_in_a_statement() -> None:
    assert check_pair("What mechanisms allow tardigrades to survive desiccation?", "How are tardigrades able to survive drying out?").compatible
    assert check_pair("Warming can reduce yield.", "Warming reduces yield.").fired() == {"hedge"}
    assert check_pair("Could warming reduce yield?", "Does warming reduce yield?").fired() == {"hedge"}


@pytest.mark.parametrize(("a", "b"), [
    ("It has been shown that interleukin-6 induces the expression of CRP.", "It has been shown that CRP induces the expression of interleukin-6."),
    ("Seabirds transport nutrients from the ocean to island soils.", "Seabirds transport nutrients from island soils to the ocean."),
])
def test_roles_are_read_in_a_reported_clause_and_between_source_and_destination(a: str, b: str) -> None:
    assert "roles" in check_pair(a, b).fired()


def test_a_reported_clause_in_other_words_keeps_its_roles() -> None:
    assert check_pair("Studies have shown that inflammation drives insulin resistance.",
                      "It has been shown that inflammation drives insulin resistance.").compatible


@pytest.mark.parametrize(("a", "b", "guard"), [
    ("Warmer springs advance the leaf-out of oaks.", "Warmer springs delay the leaf-out of oaks.", "direction"),
    ("The new anode extended the cycle life.", "The new anode shortened the cycle life.", "direction"),
    ("Earlier studies proposed that the toxin damages nerve cells.", "Earlier studies demonstrated that the toxin damages nerve cells.", "hedge"),
    ("These data show that the mutation causes the disease.", "These data are consistent with the mutation causing the disease.", "hedge"),
])
def test_antonyms_and_weaker_reporting_verbs_differ(a: str, b: str, guard: str) -> None:
    assert guard in check_pair(a, b).fired()


def test_hypotheses_stated_either_way_are_equally_hedged() -> None:
    assert check_pair("We hypothesize that chronic inflammation accelerates cognitive decline.",
                      "Our hypothesis is that chronic inflammation accelerates cognitive decline.").compatible
    assert check_pair("It is hypothesized that larger classes lower achievement.", "Larger classes are hypothesized to lower achievement.").compatible


@pytest.mark.parametrize(("a", "b"), [
    ("Genome-wide studies have identified more than 100 loci linked to the disease.",
     "Over one hundred loci linked to the disease have been identified by genome-wide studies."),
    ("We ask whether perovskite cells can remain stable under illumination.", "Can perovskite cells stay stable under illumination?"),
    ("Test accuracy rose from 81.2% to 86.5% when data augmentation was used.", "Using data augmentation raised test accuracy from 81.2 to 86.5 percent."),
    ("Several authors have argued that carbon taxes are more efficient than emission standards.",
     "Carbon taxes have been argued by several authors to be more efficient than emission standards."),
    ("We hypothesize that promoter mutations, rather than coding mutations, cause the disease.",
     "Our hypothesis is that the disease is caused by promoter mutations and not by coding mutations."),
])
def test_bounds_reported_questions_clause_fillers_and_reporters_are_read_as_such(a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert verdict.compatible, verdict.reasons


def test_a_bound_is_still_a_direction_when_no_number_follows() -> None:
    assert "direction" in check_pair("Wetlands store more carbon than forests.", "Wetlands store less carbon than forests.").fired()
    assert "direction" in check_pair("The site was used for more than a decade.", "The site was used for less than a decade.").fired()
    assert "direction" in check_pair("What causes the expansion of oxygen-minimum zones?", "What causes the contraction of oxygen-minimum zones?").fired()
