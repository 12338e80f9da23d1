from __future__ import annotations

from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders import limits


def test_a_limit_error_names_the_file_the_problem_the_limit_and_its_value() -> None:
    error = limits.limit_error(Path("paper.txt"), "has 20,001 sentences", "MAX_SENTENCES")
    assert isinstance(error, LoaderError)
    assert str(error) == "paper.txt: has 20,001 sentences (limit: claimgraph.loaders.limits.MAX_SENTENCES = 20,000)"


def test_byte_limits_are_shown_in_mib() -> None:
    assert limits.describe("MAX_INPUT_BYTES") == f"MAX_INPUT_BYTES = {limits.MAX_INPUT_BYTES // limits.MIB} MiB"


def test_every_limit_is_documented_and_positive() -> None:
    source = Path(limits.__file__).read_text(encoding="utf-8")
    names = [name for name in vars(limits) if name.startswith("MAX_")]
    assert len(names) >= 10
    for name in names:
        assert getattr(limits, name) > 0
        assert f'{name} = ' in source and source.split(f"{name} = ", 1)[1].split("\n", 1)[1].lstrip().startswith('"""'), name
