"""The numbers guard: quantities read with their units on one scale, number words as digits,
ranges and rates written one way; equal quantities written another way pass, different ones
(after conversion) do not."""

from __future__ import annotations

import pytest

from claimgraph.canonical.guards.check import check_pair
from claimgraph.canonical.guards.numbers import quantities
from claimgraph.canonical.guards.vocabulary import load_guard_words


@pytest.mark.parametrize(("text", "key"), [
    ("a dose of 2.5 mg/kg daily", (2.5e-6, None, "g/g")),
    ("mortality rose 40%", (40.0, None, "%")),
    ("mortality rose 40 percent", (40.0, None, "%")),
    ("a 3-fold change", (3.0, None, "fold")),
    ("a threefold change", (3.0, None, "fold")),
    ("a three-fold change", (3.0, None, "fold")),
    ("twice as high", (2.0, None, "fold")),
    ("after two weeks", (1209600.0, None, "s")),
    ("after 1,200 hours", (4320000.0, None, "s")),
    ("after 18 months", (18.0, None, "month")),
    ("after one year", (12.0, None, "month")),
    ("at -3 °C", (-3.0, None, "degC")),
    ("8 tonnes per hectare", (8e6, None, "g/ha")),
    ("3.3 mm annually", (0.000275, None, "m/month")),
    ("10-20 mg", (0.01, 0.02, "g")),
    ("between 10 and 20 mg", (0.01, 0.02, "g")),
    ("from 10 mg to 20 mg", (0.01, 0.02, "g")),
    ("three and a half years", (42.0, None, "month")),
    ("cut by half", (50.0, None, "%")),
    ("over twenty-seven years", (324.0, None, "month")),
    ("after a thousand hours", (3600000.0, None, "s")),
    ("after the eight-week course", (4838400.0, None, "s")),
    ("within half an hour", (1800.0, None, "s")),
    ("by one quarter", (25.0, None, "%")),
    ("a drop of three quarters", (75.0, None, "%")),
    ("three times the rate", (3.0, None, "fold")),
    ("by a factor of ten", (10.0, None, "fold")),
    ("a reaction time of 420 ms", (0.42, None, "s")),
    ("seventy percent effective", (70.0, None, "%")),
    ("1.5 × 10^3 cells", (1500.0, None, "")),
    ("HR 1·69", (1.69, None, "")),
    ("a gain of 10⁹ Hz", (1e9, None, "Hz")),
    ("a gain of 10^9 Hz", (1e9, None, "Hz")),
    ("3×10⁻⁵ M of the inhibitor", (3e-05, None, "M")),
    ("an area of 5 m²", (5.0, None, "m2")),
])
def test_numbers_parse_with_their_units(text: str, key: tuple[object, ...]) -> None:
    assert key in quantities(text, load_guard_words())


def test_superscript_powers_are_numbers_and_subscript_digits_are_digits() -> None:
    """"10⁹" and "20⁹", "×10⁻⁵" and "×10⁻⁶" were once read as no number or as the same numbers; "CO₂" is "CO2"."""
    assert not check_pair("A gain as high as 10⁹ Hz is reported.", "A gain as high as 20⁹ Hz is reported.").compatible
    assert not check_pair("The IC50 is 3×10⁻⁵ M.", "The IC50 is 3×10⁻⁶ M.").compatible
    assert check_pair("A gain as high as 10⁹ Hz is reported.", "A gain as high as 1e9 Hz is reported.").compatible
    assert check_pair("Rising CO₂ warms the oceans.", "Rising CO2 warms the oceans.").compatible


def test_quantities_too_large_for_a_float_are_compared_as_written() -> None:
    words = load_guard_words()
    assert ("1e400", None, "") in quantities("a bound of 1e400", words)
    assert not check_pair("The bound is 1e400.", "The bound is 1e401.").compatible
    assert not check_pair("There are 10^999 states.", "There are 10^998 states.").compatible


def test_numbers_inside_identifiers_are_compared_as_codes() -> None:
    words = load_guard_words()
    assert set(quantities("IL-6 and PM2.5", words)) == {("code", ("6",)), ("code", ("2.5",))}
    assert quantities("one of the drivers of a double-blind trial", words) == {}
    assert check_pair("IL-6 levels", "interleukin-6 levels").compatible
    assert not check_pair("IL-6 levels", "IL-10 levels").compatible


@pytest.mark.parametrize(("a", "b"), [
    ("Survival at one year was 78% in the treatment arm.", "In the treatment arm, 78 percent of patients were alive after 12 months."),
    ("The median follow-up was 3.5 years.", "Participants were followed for a median of three and a half years."),
    ("The coating reduced corrosion rates by half.", "The coating reduced corrosion rates by 50%."),
    ("The enzyme was active between 20 and 45 °C.", "The enzyme remained active from 20 °C to 45 °C."),
    ("Sea level rose by 3.3 mm per year between 1993 and 2020.", "Between 1993 and 2020, sea level rose 3.3 mm annually."),
    ("The tablets release 250 mg of the drug.", "The tablets release 0.25 g of the drug."),
    ("The mean reaction time was 420 ms.", "The mean reaction time was 0.42 s."),
    ("The catalyst converted 95% of the substrate within 30 minutes.", "Within half an hour, 95 percent of the substrate was converted."),
    ("Infection rates were three times those of the general population.", "Infection rates were triple those of the general population."),
    ("Insect biomass declined by more than 75% over 27 years.", "Insect biomass declined by over three quarters across twenty-seven years."),
    ("Streamflow peaked at 1,500 cubic metres per second.", "Streamflow reached a peak of 1500 m3/s."),
    ("The river carried 2.4 million tonnes of sediment per year.", "The river carried 2.4 million tonnes per year of sediment."),
    ("Patients were enrolled in a double-blind placebo-controlled trial.", "Patients were enrolled in a placebo-controlled trial with double blinding."),
])
def test_equal_quantities_written_another_way_are_the_same_number(a: str, b: str) -> None:
    verdict = check_pair(a, b)
    assert verdict.compatible, verdict.reasons


@pytest.mark.parametrize(("a", "b"), [
    ("Survival at one year was 78%.", "Survival at 10 months was 78%."),
    ("The median follow-up was 3.5 years.", "The median follow-up was three years."),
    ("The coating reduced corrosion by half.", "The coating reduced corrosion by 40%."),
    ("The enzyme was active between 20 and 45 °C.", "The enzyme was active between 20 and 55 °C."),
    ("Sea level rose 3.3 mm annually.", "Sea level rose 3.3 mm monthly."),
    ("Sea level rose 3.3 mm annually.", "Sea level rose 3.3 mm in total."),
    ("The tablets release 250 mg of the drug.", "The tablets release 250 g of the drug."),
    ("Seedlings were grown for 6 months.", "Seedlings were grown for 6 weeks."),
    ("The mean reaction time was 420 ms.", "The mean reaction time was 0.42 ms."),
    ("Insect biomass declined by three quarters.", "Insect biomass declined by a quarter."),
    ("Conductivity rose by a factor of ten.", "Conductivity rose by a factor of two."),
    ("The river carried 2.4 million tonnes of sediment per year.", "The river carried 2.4 million tonnes of sediment per month."),
    ("Median household income rose by 3,000 dollars.", "Median household income rose by 3,000 euros."),
])
def test_different_quantities_stay_different_after_conversion(a: str, b: str) -> None:
    assert "numbers" in check_pair(a, b).fired()


def test_a_bound_is_part_of_its_quantity() -> None:
    """"more than 20" and "over 20" are one bound, "less than 20" another; "over 27 years" is a duration."""
    assert check_pair("The mobility is more than 20 cm2.", "The mobility is over 20 cm2.").compatible
    assert check_pair("Participants slept less than 6 hours.", "Participants slept under six hours.").compatible
    assert check_pair("Biomass fell over 27 years.", "Biomass fell across twenty-seven years.").compatible
    assert check_pair("Promoters are bound by more than one factor.", "Promoters are bound by less than one factor.").reasons == [
        "numbers: 'more than 1' in a only; 'less than 1' in b only"]
    assert "numbers" in check_pair("The mobility is more than 20 cm2.", "The mobility is 20 cm2.").fired()
