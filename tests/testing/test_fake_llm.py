"""The fake endpoint itself: rule matching by phase and text, embeddings, request records."""

from __future__ import annotations

import asyncio
import json
import math
import time
import urllib.error
import urllib.request

import openai

from claimgraph.testing.fake_llm import Rule, embed, error, ok


def post(url: str, payload: dict, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(payload).encode(), {"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as failure:
        return failure.code, json.loads(failure.read())


def chat(text: str) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": text}]}


def test_rules_match_by_phase_then_text_and_replies_run_in_order_then_repeat(fake_llm) -> None:
    server = fake_llm([
        Rule(["relations reply"], phase="relations"),
        Rule(["first", "second"], contains="passage 2"),
        Rule([error(503)]),
    ])
    url = f"{server.base_url}/chat/completions"
    assert post(url, chat("passage 1"), {"X-Claimgraph-Phase": "relations"})[1]["choices"][0]["message"]["content"] == "relations reply"
    answers = [post(url, chat("passage 2"))[1]["choices"][0]["message"]["content"] for _ in range(3)]
    assert answers == ["first", "second", "second"]
    assert post(url, chat("passage 3"))[0] == 503
    assert [r.rule for r in server.chat_requests()] == [0, 1, 1, 1, 2]
    assert [r.phase for r in server.chat_requests()] == ["relations", None, None, None, None]


def test_embeddings_are_deterministic_unit_vectors_through_the_openai_client(fake_llm) -> None:
    server = fake_llm({})

    async def embed_remote() -> list[list[float]]:
        async with openai.AsyncOpenAI(api_key="k", base_url=server.base_url, max_retries=0) as client:
            response = await client.embeddings.create(model="fake-embed", input=["Protein X reduces inflammation", "protein x"])
            return [item.embedding for item in response.data]

    first, second = asyncio.run(embed_remote())
    assert first == embed("Protein X reduces inflammation") and len(first) == 64
    assert math.isclose(sum(value * value for value in first), 1.0)
    similar = sum(a * b for a, b in zip(first, second))
    unrelated = sum(a * b for a, b in zip(first, embed("ocean ripples decay")))
    assert similar > unrelated
    assert server.requests[0].path.endswith("/embeddings") and server.chat_requests() == []


def test_latency_and_delay_are_added_before_answering(fake_llm) -> None:
    server = fake_llm({"": [ok("slow", delay=0.1)]}, latency=0.05)
    started = time.monotonic()
    post(f"{server.base_url}/chat/completions", chat("x"))
    assert time.monotonic() - started >= 0.15


def test_refuse_mode_answers_structured_requests_400_without_using_a_reply(fake_llm) -> None:
    server = fake_llm({"": ["first", "second"]}, response_format="refuse")
    url = f"{server.base_url}/chat/completions"
    status, body = post(url, {**chat("x"), "response_format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {}}}})
    assert status == 400 and "not supported" in body["error"]["message"]
    assert post(url, chat("x"))[1]["choices"][0]["message"]["content"] == "first", "the refusal used no scripted reply"
    assert [(r.structured, r.status, r.rule) for r in server.chat_requests()] == [(True, 400, None), (False, 200, 0)]


def test_cycling_rules_start_over_and_passage_rules_match_the_header(fake_llm) -> None:
    server = fake_llm([Rule(["p2"], passage=2), Rule(["a", "b"], cycle=True)])
    url = f"{server.base_url}/chat/completions"
    answers = [post(url, chat("x"), {"X-Claimgraph-Passage": passage})[1]["choices"][0]["message"]["content"] for passage in "12112"]
    assert answers == ["a", "p2", "b", "a", "p2"]
    assert [r.passage for r in server.chat_requests()] == [1, 2, 1, 1, 2]


def test_a_hanging_reply_never_answers_and_is_recorded(fake_llm) -> None:
    from claimgraph.testing.fake_llm import hang

    server = fake_llm({"": [hang()]})
    request = urllib.request.Request(f"{server.base_url}/chat/completions", json.dumps(chat("x")).encode(), {"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=0.2)
        raise AssertionError("a hanging reply answered")
    except (TimeoutError, urllib.error.URLError) as failure:
        assert "timed out" in str(failure)
    assert [(r.status, r.rule) for r in server.chat_requests()] == [(None, 0)]


def test_a_trickled_reply_arrives_whole_one_byte_at_a_time(fake_llm) -> None:
    from claimgraph.testing.fake_llm import hostile_cycle, trickle

    server = fake_llm({"": [trickle('{"entities": []}', 0.001)]})
    status, body = post(f"{server.base_url}/chat/completions", chat("x"))
    assert status == 200 and body["choices"][0]["message"]["content"] == '{"entities": []}'
    kinds = hostile_cycle('{"entities": []}')
    assert [r.status for r in kinds] == [429, 500, 200, 200, 200, 200, 200] and kinds[5].hang and kinds[3].content == '{"entitie'
