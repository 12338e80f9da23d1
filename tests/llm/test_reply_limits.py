"""Replies an endpoint should never send: a 200 whose body is not JSON, a body over the size limit."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from claimgraph.llm.client import CallTag, Completion, LLMCallFailed, open_client
from claimgraph.llm.config import DEFAULT_MAX_REPLY_BYTES, LLMConfig, load_config
from claimgraph.testing.fake_llm import Reply, ok, unsized

HTML_PAGE = "<html><body><h1>502 Bad Gateway</h1></body></html>"


def ask(config: LLMConfig) -> Completion | BaseException:
    async def run() -> Completion:
        async with open_client(config) as client:
            return await client.complete([{"role": "user", "content": "passage one"}], tag=CallTag("paper-a", "entities", 1))

    try:
        return asyncio.run(run())
    except LLMCallFailed as failure:
        return failure


def cached_entries(config: LLMConfig) -> list[Path]:
    assert config.cache_dir is not None
    return list(config.cache_dir.glob("*/*.json"))


def test_a_200_with_an_html_body_labelled_json_is_a_retried_failed_call(fake_llm, llm_config) -> None:
    server = fake_llm({"": [Reply(body=HTML_PAGE, headers={"Content-Type": "application/json"}), "after the proxy"]})
    config = llm_config(server, max_retries=1)
    assert isinstance(completion := ask(config), Completion) and completion.text == "after the proxy"
    server = fake_llm({"": [Reply(body=HTML_PAGE, headers={"Content-Type": "application/json"})]})
    config = llm_config(server, max_retries=2, cache_dir=config.cache_dir.parent / "other-cache")
    failure = ask(config)
    assert isinstance(failure, LLMCallFailed) and failure.attempts == 3
    assert "not a chat completion" in failure.reason and len(server.chat_requests()) == 3
    assert cached_entries(config) == []


def test_a_reply_declaring_more_than_the_limit_fails_once_names_the_limit_and_is_not_cached(fake_llm, llm_config) -> None:
    server = fake_llm({"": [ok("x" * 5000)]})
    config = llm_config(server, max_reply_bytes=2048)
    failure = ask(config)
    assert isinstance(failure, LLMCallFailed) and failure.attempts == 1
    assert "over the limit of 2,048 bytes" in failure.reason and "max_reply_bytes" in failure.reason
    assert len(server.chat_requests()) == 1 and cached_entries(config) == []


def test_a_reply_without_a_length_is_cut_off_while_it_streams(fake_llm, llm_config) -> None:
    body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "y" * (64 * 1024 * 1024)}}]})
    server = fake_llm({"": [unsized(body)]})
    config = llm_config(server, max_reply_bytes=1024 * 1024)
    failure = ask(config)
    assert isinstance(failure, LLMCallFailed) and "passed" in failure.reason and "1,048,576" in failure.reason
    (sent,) = server.unsized_bytes_sent
    assert sent < len(body) // 2, "the client hung up long before the end of the body"
    assert cached_entries(config) == []


def test_a_reply_under_the_limit_is_served_and_cached(fake_llm, llm_config) -> None:
    server = fake_llm({"": [unsized(json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "small"}}]}))]})
    config = llm_config(server, max_reply_bytes=4096)
    completion = ask(config)
    assert isinstance(completion, Completion) and completion.text == "small"
    assert len(cached_entries(config)) == 1


def test_the_limit_is_a_setting_of_the_file_the_environment_and_the_flags(tmp_path: Path) -> None:
    assert LLMConfig().max_reply_bytes == DEFAULT_MAX_REPLY_BYTES == 2 * 1024 * 1024
    toml = tmp_path / "claimgraph.toml"
    toml.write_text("[llm]\nmax_reply_bytes = 65536\n", encoding="utf-8")
    assert load_config(toml, environ={}).max_reply_bytes == 65536
    assert load_config(toml, environ={"CLAIMGRAPH_LLM_MAX_REPLY_BYTES": "131072"}).max_reply_bytes == 131072
    assert load_config(toml, environ={}, overrides={"max_reply_bytes": 8192}).max_reply_bytes == 8192


def test_an_oversized_entry_already_in_the_cache_is_not_read_and_is_replaced(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["small and fine"]})
    config = llm_config(server, max_reply_bytes=1024)
    assert isinstance(ask(config), Completion)
    (entry,) = cached_entries(config)
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["completion"]["text"] = "z" * 8192  # what an earlier run without the limit could have cached
    entry.write_text(json.dumps(data), encoding="utf-8")
    completion = ask(config)
    assert isinstance(completion, Completion) and completion.text == "small and fine"
    assert len(server.chat_requests()) == 2, "the oversized entry was asked again"
    assert json.loads(entry.read_text(encoding="utf-8"))["completion"]["text"] == "small and fine"
