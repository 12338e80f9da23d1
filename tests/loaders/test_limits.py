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


def test_a_50_mb_text_file_is_refused_by_default_naming_the_file_its_size_and_the_limit(tmp_path: Path) -> None:
    from claimgraph.loaders import load_document

    big = tmp_path / "long-sentences.txt"
    with big.open("wb") as handle:
        handle.truncate(50 * 1000 * 1000)  # sparse: refused on its size, never read
    try:
        load_document(big)
    except LoaderError as error:
        message = str(error)
    else:
        raise AssertionError("a 50 MB text file was accepted")
    assert message == (f"{big}: file is 50,000,000 bytes (limit: claimgraph.loaders.limits.MAX_INPUT_BYTES = 16 MiB; "
                       "set CLAIMGRAPH_MAX_INPUT_BYTES to change it)")


def test_the_input_size_limit_is_a_setting(tmp_path: Path, monkeypatch) -> None:
    import pytest

    from claimgraph.errors import ClaimgraphError
    from claimgraph.loaders import load_document
    from claimgraph.loaders.text_input import read_bytes

    paper = tmp_path / "paper.md"
    paper.write_text("# Title\n\n" + "Moss grows in shade. " * 250 + "\n", encoding="utf-8")
    size = paper.stat().st_size
    assert load_document(paper).paper_id == "paper"
    monkeypatch.setenv("CLAIMGRAPH_MAX_INPUT_BYTES", "4096")
    assert limits.max_input_bytes() == 4096
    with pytest.raises(LoaderError, match=rf"paper.md: file is {size:,} bytes \(limit: .*MAX_INPUT_BYTES = 4,096 bytes; set CLAIMGRAPH_MAX_INPUT_BYTES"):
        load_document(paper)
    assert read_bytes(paper, max_bytes=size) == paper.read_bytes()  # a caller's own limit
    monkeypatch.setenv("CLAIMGRAPH_MAX_INPUT_BYTES", "lots")
    with pytest.raises(ClaimgraphError, match="CLAIMGRAPH_MAX_INPUT_BYTES = 'lots' is not a positive whole number of bytes"):
        limits.max_input_bytes()
