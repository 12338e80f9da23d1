"""The LLM client against a real local HTTP server, through the real ``openai`` package."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from claimgraph.llm.backends import retry_after_seconds
from claimgraph.llm.client import CallTag, Completion, LLMCallFailed, LLMClient, ReplySchema, backoff_delay, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import Activity
from claimgraph.papers.audit_append import record
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import Reply, Rule, dropped, error

TAG = CallTag("paper-a", "entities", 1)


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Extract entities as JSON."}, {"role": "user", "content": text}]


async def complete_all(config: LLMConfig, prompts: list[str], tags: list[CallTag] | None = None) -> tuple[LLMClient, list[Completion | BaseException]]:
    """Run the prompts concurrently through one client; exceptions are returned in place."""
    async with open_client(config) as client:
        tags = tags or [CallTag("paper-a", "entities", n) for n in range(len(prompts))]
        results = await asyncio.gather(*(client.complete(user(p), tag=t) for p, t in zip(prompts, tags)), return_exceptions=True)
    return client, list(results)


def one(config: LLMConfig, prompt: str = "passage one") -> tuple[LLMClient, Completion | BaseException]:
    client, results = asyncio.run(complete_all(config, [prompt]))
    return client, results[0]


def test_clean_call_returns_text_tokens_and_sends_model_and_phase(fake_llm, llm_config) -> None:
    server = fake_llm({"": ['{"entities": []}']})
    client, completion = one(llm_config(server))
    assert isinstance(completion, Completion)
    assert completion.text == '{"entities": []}'
    assert completion.completion_tokens == 2 and completion.prompt_tokens == 6
    (request,) = server.chat_requests()
    assert request.body["model"] == "fake-model" and request.body["temperature"] == 0.0
    assert request.phase == "entities" and request.last_user_message == "passage one"
    assert client.accounting.total().as_dict() == {
        "calls": 1, "attempts": 1, "cache_hits": 0, "prompt_tokens": 6, "completion_tokens": 2, "failures": 0,
        "unusable": 0, "skipped": 0, "structured": 0, "unstructured": 1, "refusals": 0,
    }


def test_429_with_retry_after_is_waited_then_succeeds(fake_llm, llm_config) -> None:
    server = fake_llm({"": [error(429, retry_after=0.3), "fine"]})
    started = time.monotonic()
    client, completion = one(llm_config(server))
    assert time.monotonic() - started >= 0.3
    assert isinstance(completion, Completion) and completion.text == "fine"
    assert [r.status for r in server.chat_requests()] == [429, 200]
    counts = client.accounting.total()
    assert (counts.calls, counts.attempts, counts.failures) == (1, 2, 0)


def test_repeated_500_fails_that_call_after_the_bound_while_others_succeed(fake_llm, llm_config) -> None:
    server = fake_llm([Rule([error(500)], contains="bad passage"), Rule(["ok"])])
    config = llm_config(server, max_retries=2)
    client, results = asyncio.run(complete_all(config, ["good passage 1", "bad passage", "good passage 2"]))
    assert [r.text for r in results if isinstance(r, Completion)] == ["ok", "ok"]
    failure = results[1]
    assert isinstance(failure, LLMCallFailed)
    assert failure.attempts == 3 and failure.status == 500 and failure.tag.passage == 1
    assert "paper paper-a, phase entities, passage 1 failed after 3 attempts: HTTP 500" in str(failure)
    assert len(server.chat_requests()) == 5
    counts = client.accounting.total()
    assert (counts.calls, counts.attempts, counts.failures) == (2, 5, 1)


def test_timeout_is_retried_then_succeeds_or_fails_as_scripted(fake_llm, llm_config) -> None:
    from claimgraph.testing.fake_llm import hang

    server = fake_llm([Rule([hang(), "in time"], contains="slow once"), Rule([hang()])])
    config = llm_config(server, timeout=1.0, max_retries=1)
    client, results = asyncio.run(complete_all(config, ["slow once", "always slow"]))
    assert isinstance(results[0], Completion) and results[0].text == "in time"
    assert isinstance(results[1], LLMCallFailed) and "timeout" in results[1].reason and results[1].attempts == 2
    assert len(server.chat_requests()) == 4


def test_dropped_connection_is_retried(fake_llm, llm_config) -> None:
    server = fake_llm({"": [dropped(), "after the drop"]})
    client, completion = one(llm_config(server))
    assert isinstance(completion, Completion) and completion.text == "after the drop"
    assert len(server.chat_requests()) == 2


def test_garbage_body_is_retried_then_reported(fake_llm, llm_config) -> None:
    server = fake_llm({"": [Reply(body="<html>proxy error</html>")]})
    client, failure = one(llm_config(server, max_retries=1))
    assert isinstance(failure, LLMCallFailed) and "without choices" in failure.reason
    assert len(server.chat_requests()) == 2


def test_client_errors_are_not_retried_and_name_the_fix(fake_llm, llm_config) -> None:
    server = fake_llm({"": [error(401, message="bad key")]})
    client, failure = one(llm_config(server))
    assert isinstance(failure, LLMCallFailed) and failure.attempts == 1 and failure.status == 401
    assert "check OPENAI_API_KEY" in str(failure)


def test_unmatched_request_fails_with_the_fake_servers_reason(fake_llm, llm_config) -> None:
    server = fake_llm([Rule(["x"], contains="something else")])
    client, failure = one(llm_config(server))
    assert isinstance(failure, LLMCallFailed) and "no script rule matches" in failure.reason


@pytest.mark.parametrize("bound", [1, 3])
def test_concurrency_bound_is_what_the_server_sees(fake_llm, llm_config, bound: int) -> None:
    server = fake_llm({"": ["ok"]}, latency=0.05)
    client, results = asyncio.run(complete_all(llm_config(server, max_concurrency=bound), [f"passage {n}" for n in range(8)]))
    assert all(isinstance(result, Completion) for result in results)
    assert server.max_in_flight == bound


def test_second_run_is_served_from_the_cache_with_zero_calls(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["answer"]})
    config = llm_config(server)
    prompts = ["passage 1", "passage 2", "passage 3"]
    first, _ = asyncio.run(complete_all(config, prompts))
    assert len(server.chat_requests()) == 3 and first.accounting.total().calls == 3
    second, results = asyncio.run(complete_all(config, prompts))
    assert len(server.chat_requests()) == 3
    assert [r.text for r in results] == ["answer"] * 3  # type: ignore[union-attr]
    counts = second.accounting.total()
    assert (counts.calls, counts.cache_hits, counts.prompt_tokens) == (0, 3, 0)


def test_cache_key_changes_with_model_and_parameters(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["answer"]})
    one(llm_config(server))
    one(llm_config(server, model="other-model"))
    one(llm_config(server, max_tokens=99))
    one(llm_config(server))
    assert len(server.chat_requests()) == 3


def test_identical_concurrent_requests_are_sent_once(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["shared"]}, latency=0.05)
    client, results = asyncio.run(complete_all(llm_config(server), ["same"] * 4))
    assert [r.text for r in results] == ["shared"] * 4  # type: ignore[union-attr]
    assert len(server.chat_requests()) == 1
    assert (client.accounting.total().calls, client.accounting.total().cache_hits) == (1, 3)


def test_identical_concurrent_requests_share_a_failure_each_under_its_own_tag(fake_llm, llm_config) -> None:
    server = fake_llm({"": [error(400, message="bad request")]}, latency=0.05)
    client, results = asyncio.run(complete_all(llm_config(server), ["same"] * 3))
    assert [r.tag.passage for r in results] == [0, 1, 2]  # type: ignore[union-attr]
    assert len(server.chat_requests()) == 1 and client.accounting.total().failures == 3


def test_replay_serves_recordings_and_names_a_missing_one(fake_llm, llm_config, tmp_path: Path) -> None:
    server = fake_llm({"": ["recorded answer"]})
    recordings = tmp_path / "recordings"
    one(llm_config(server, cache_dir=recordings), "passage 1")
    replay = llm_config(None, replay_dir=recordings, api_key=None)
    client, completion = one(replay, "passage 1")
    assert isinstance(completion, Completion) and completion.text == "recorded answer"
    assert client.cache is None and client.accounting.total().calls == 1
    client, failure = one(replay, "a passage never recorded")
    assert isinstance(failure, LLMCallFailed) and failure.attempts == 1
    assert "no recorded response" in failure.reason and "paper paper-a, phase entities, passage 0" in failure.reason
    assert len(server.chat_requests()) == 1


def test_accounting_is_per_paper_and_phase_and_goes_into_the_audit_graph(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["x y z"]})
    tags = [CallTag("paper-a", "entities", 1), CallTag("paper-a", "relations", 1), CallTag("paper-b", "entities", 1)]
    client, _ = asyncio.run(complete_all(llm_config(server), ["one", "two", "three"], tags))
    columns, rows = client.accounting.table()
    assert columns[:4] == ["paper", "phase", "calls", "attempts"]
    assert [row[:3] for row in rows] == [
        ["paper-a", "entities", 1], ["paper-a", "relations", 1], ["paper-a", "(all)", 2],
        ["paper-b", "entities", 1], ["(all)", "(all)", 3],
    ]
    counts = client.accounting.as_activity_counts("paper-a")
    assert counts["llm_calls"] == 2 and counts["llm_completion_tokens"] == 6
    store, iris = EmbeddedStore(), IriScheme()
    record(store, iris, "paper-a", [Activity("extraction", "LLM extraction", counts)])
    assert audit_trail(store, iris, "paper-a")[0]["counts"]["llm_calls"] == 2


def test_backoff_honours_retry_after_and_stays_bounded() -> None:
    config = LLMConfig(backoff_base=1.0, backoff_max=10.0)
    rng = random.Random(7)
    assert all(0.0 <= backoff_delay(1, config, None, rng) <= 1.0 for _ in range(50))
    assert all(0.0 <= backoff_delay(3, config, None, rng) <= 4.0 for _ in range(50))
    assert all(backoff_delay(20, config, None, rng) <= 10.0 for _ in range(50))
    assert all(2.0 <= backoff_delay(1, config, 2.0, rng) <= 2.2 for _ in range(50))
    assert backoff_delay(1, config, 3600.0, rng) == 10.0


def test_retry_after_header_forms() -> None:
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


# ---------------------------------------------------------------- structured output, deadlines, circuit breaker, unusable replies

SCHEMA = ReplySchema("entities", {"type": "object", "properties": {"entities": {"type": "array"}}, "required": ["entities"]})


async def complete_with(config: LLMConfig, prompts: list[str], **options: object) -> tuple[LLMClient, list[Completion | BaseException]]:
    """Like complete_all, with complete()'s keyword options (schema, check), one call after the other."""
    async with open_client(config) as client:
        results: list[Completion | BaseException] = []
        for number, prompt in enumerate(prompts):
            try:
                results.append(await client.complete(user(prompt), tag=CallTag("paper-a", "entities", number), **options))  # type: ignore[arg-type]
            except LLMCallFailed as failure:
                results.append(failure)
    return client, results


def test_a_schema_is_sent_as_response_format_and_the_reply_is_counted_as_structured(fake_llm, llm_config) -> None:
    server = fake_llm({"": ['{"entities": []}']})
    client, (completion,) = asyncio.run(complete_with(llm_config(server), ["passage"], schema=SCHEMA))
    assert isinstance(completion, Completion) and completion.path == "structured"
    (request,) = server.chat_requests()
    assert request.body["response_format"]["type"] == "json_schema"
    assert request.body["response_format"]["json_schema"]["schema"] == SCHEMA.schema
    counts = client.accounting.total()
    assert (counts.calls, counts.structured, counts.unstructured, counts.refusals) == (1, 1, 0, 0)


def test_a_server_refusing_structured_output_is_asked_again_without_it_then_never_again(fake_llm, llm_config) -> None:
    server = fake_llm({"": ['{"entities": []}']}, response_format="refuse")
    config = llm_config(server)
    client, results = asyncio.run(complete_with(config, ["passage 1", "passage 2"], schema=SCHEMA))
    assert [r.path for r in results] == ["unstructured", "unstructured"]  # type: ignore[union-attr]
    assert [(r.structured, r.status) for r in server.chat_requests()] == [(True, 400), (False, 200), (False, 200)]
    counts = client.accounting.total()
    assert (counts.calls, counts.refusals, counts.structured, counts.unstructured, counts.failures) == (2, 1, 0, 2, 0)
    again, _ = asyncio.run(complete_with(config, ["passage 1", "passage 2"], schema=SCHEMA))
    assert len(server.chat_requests()) == 3, "the fallback replies are cached under the request's key"
    assert again.accounting.total().cache_hits == 2


def test_structured_output_can_be_turned_off(fake_llm, llm_config) -> None:
    server = fake_llm({"": ['{"entities": []}']})
    asyncio.run(complete_with(llm_config(server, structured_output=False), ["passage"], schema=SCHEMA))
    assert [r.structured for r in server.chat_requests()] == [False]


def test_a_trickling_server_cannot_hold_a_call_past_the_deadline(fake_llm, llm_config) -> None:
    from claimgraph.testing.fake_llm import trickle

    server = fake_llm({"": [trickle('{"entities": ["' + "x" * 400 + '"]}', 0.05)]})
    client, failure = one(llm_config(server, timeout=0.3, max_retries=1))
    assert isinstance(failure, LLMCallFailed), "without a deadline the body arrives after ~25 s and the call succeeds"
    assert "timeout" in failure.reason and failure.attempts == 2
    assert len(server.chat_requests()) == 2


def test_the_circuit_opens_after_consecutive_connection_failures_and_skips_the_rest(fake_llm, llm_config) -> None:
    from claimgraph.testing.fake_llm import hang

    server = fake_llm({"": [hang()]})
    config = llm_config(server, timeout=0.2, max_retries=5, breaker_threshold=3, max_concurrency=1)
    client, results = asyncio.run(complete_all(config, [f"passage {n}" for n in range(5)]))
    assert len(server.chat_requests()) == 3, "three connection failures, then nothing is sent"
    assert all(isinstance(r, LLMCallFailed) and r.skipped for r in results)
    assert "circuit is open (3 consecutive connection failures" in results[4].reason  # type: ignore[union-attr]
    counts = client.accounting.total()
    assert (counts.skipped, counts.calls, counts.attempts) == (5, 0, 3)


def test_any_answer_resets_the_breaker_count(fake_llm, llm_config) -> None:
    server = fake_llm({"": [dropped(), dropped(), error(500), dropped(), dropped(), "fine"]})
    client, completion = one(llm_config(server, max_retries=6, breaker_threshold=3))
    assert isinstance(completion, Completion) and completion.text == "fine"
    assert client.circuit_open is None and len(server.chat_requests()) == 6


def usable_json(text: str) -> str | None:
    return None if text.lstrip().startswith("{") else "no JSON"


def test_an_unusable_reply_fails_the_call_and_is_not_cached(fake_llm, llm_config) -> None:
    server = fake_llm({"": ["Sorry, I cannot do that.", '{"entities": []}']})
    config = llm_config(server)
    client, (failure,) = asyncio.run(complete_with(config, ["passage"], check=usable_json))
    assert isinstance(failure, LLMCallFailed) and "reply unusable (no JSON); not cached" in failure.reason
    assert (client.accounting.total().unusable, client.accounting.total().failures) == (1, 1)
    _, (completion,) = asyncio.run(complete_with(config, ["passage"], check=usable_json))
    assert isinstance(completion, Completion) and completion.text == '{"entities": []}'
    asyncio.run(complete_with(config, ["passage"], check=usable_json))
    assert len(server.chat_requests()) == 2, "the garbage was asked again, the usable reply was cached"


def test_an_unusable_cached_reply_is_asked_again(fake_llm, llm_config) -> None:
    from claimgraph.llm.cache import ResponseCache, cache_key

    server = fake_llm({"": ['{"entities": []}']})
    config = llm_config(server)
    messages = user("passage")
    ResponseCache(config.cache_dir).put(cache_key(messages, config.params()), messages, config.params(), Completion("garbage"))
    _, (completion,) = asyncio.run(complete_with(config, ["passage"], check=usable_json))
    assert isinstance(completion, Completion) and completion.text == '{"entities": []}'
    assert len(server.chat_requests()) == 1
