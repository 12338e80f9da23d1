from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from claimgraph.cli.options import add_llm_arguments, config_from_args
from claimgraph.llm.config import DEFAULT_MODEL, LLMConfig, LLMConfigError, load_config


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    return parser.parse_args(argv)


def write_config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "claimgraph.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_defaults_without_file_or_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = config_from_args(parse([]), environ={})
    assert config == LLMConfig() and config.model == DEFAULT_MODEL and config.base_url is None


def test_flags_beat_environment_beat_file_beat_defaults(tmp_path: Path) -> None:
    path = write_config(tmp_path, '[llm]\nmodel = "from-file"\nbase_url = "http://file/v1"\nmax_concurrency = 2\ntimeout = 5\n')
    environ = {"CLAIMGRAPH_MODEL": "from-env", "OPENAI_BASE_URL": "http://env/v1", "OPENAI_API_KEY": "sk-env"}
    config = config_from_args(parse(["--config", str(path), "--model", "from-flag", "--concurrency", "8"]), environ)
    assert (config.model, config.base_url, config.api_key) == ("from-flag", "http://env/v1", "sk-env")
    assert (config.max_concurrency, config.timeout, config.max_retries) == (8, 5.0, LLMConfig().max_retries)


def test_cache_and_replay_directories(tmp_path: Path) -> None:
    assert config_from_args(parse(["--no-cache"]), {}).cache_dir is None
    assert config_from_args(parse(["--cache-dir", "none"]), {}).cache_dir is None
    assert config_from_args(parse([]), {"CLAIMGRAPH_LLM_CACHE": str(tmp_path)}).cache_dir == tmp_path
    assert config_from_args(parse(["--replay", "recs"]), {}).replay_dir == Path("recs")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[llm]\nmodle = "x"\n', "unknown [llm] settings ['modle']"),
        ('[llm]\napi_key = "sk-secret"\n', "set OPENAI_API_KEY instead"),
        ("[llm]\nmax_retries = 1.5\n", "max_retries = 1.5 is not a valid integer"),
        ("[llm]\nmax_concurrency = 0\n", "max_concurrency must be at least 1"),
        ("[llm\n", "cannot read the config file"),
    ],
)
def test_bad_config_files_are_refused_by_name(tmp_path: Path, body: str, message: str) -> None:
    path = write_config(tmp_path, body)
    with pytest.raises(LLMConfigError) as info:
        load_config(path, environ={})
    assert message in str(info.value)


def test_a_named_config_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml", environ={})
