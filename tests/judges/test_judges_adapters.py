"""callable_judge and openai_judge, with fake clients (no network, no openai import)."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace as NS  # noqa: N814
from typing import Any

import pytest

from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.judges import (
    SYSTEM_MESSAGE,
    JudgeError,
    JudgeRequest,
    JudgeResponseError,
    call_judge,
    callable_judge,
    openai_judge,
    parse_verdict,
)
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status

REQUEST = JudgeRequest("polite", prompt="THE PROMPT")
RECORD = TrialRecord.builder().user("hi").agent("Hello, how can I help?").build()


class FakeClient:
    """Quacks like openai.OpenAI: client.chat.completions.create(...)."""

    def __init__(self, content: Any, **reply: Any) -> None:
        self.calls: list[dict[str, Any]] = []
        self.content = content
        self.reply = reply
        self.chat = NS(completions=NS(create=self.create))

    def create(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        return NS(choices=[NS(message=NS(content=self.content))], **self.reply)


class FakeAsyncClient(FakeClient):
    def create(self, **kwargs: Any) -> Any:
        reply = super().create(**kwargs)

        async def later() -> Any:
            await asyncio.sleep(0)
            return reply

        return later()


def test_callable_judge_with_bool() -> None:
    prompts: list[str] = []

    def fn(prompt: str) -> bool:
        prompts.append(prompt)
        return False

    response = call_judge(callable_judge(fn), REQUEST)
    assert (response.score, response.passed) == (0.0, False)
    assert prompts == ["THE PROMPT"]
    assert call_judge(callable_judge(lambda p: True), REQUEST).score == 1.0


def test_callable_judge_with_float_leaves_the_decision_to_the_threshold() -> None:
    response = call_judge(callable_judge(lambda p: 0.6), REQUEST)
    assert (response.score, response.passed) == (0.6, None)
    assert (
        JudgeCheck("polite", threshold=0.5).run(RECORD, judge=callable_judge(lambda p: 0.6)).status
        is Status.PASS
    )
    assert (
        JudgeCheck("polite").run(RECORD, judge=callable_judge(lambda p: 0.6)).status is Status.FAIL
    )


def test_callable_judge_async_function() -> None:
    async def fn(prompt: str) -> float:
        return 1

    assert call_judge(callable_judge(fn), REQUEST).score == 1.0


@pytest.mark.parametrize("value", ["yes", None, 1.5, -1])
def test_callable_judge_bad_return_is_an_invalid_response(value: object) -> None:
    with pytest.raises(JudgeResponseError):
        call_judge(callable_judge(lambda p: value), REQUEST)
    outcome = JudgeCheck("polite").run(RECORD, judge=callable_judge(lambda p: value))
    assert outcome.status is Status.EVALUATOR_ERROR
    assert outcome.force_gate is True


def test_callable_judge_needs_a_callable() -> None:
    with pytest.raises(TypeError, match="callable"):
        callable_judge("judge")  # type: ignore[arg-type]


def test_openai_judge_good_json() -> None:
    client = FakeClient('{"score": 0.8, "passed": true, "explanation": "polite"}', model="m-2024")
    judge = openai_judge(client, model="m", temperature=0)
    response = call_judge(judge, REQUEST)
    assert (response.score, response.passed, response.explanation) == (0.8, True, "polite")
    assert response.metadata == {"model": "m", "served_model": "m-2024"}
    (call,) = client.calls
    assert call["model"] == "m" and call["temperature"] == 0
    assert call["messages"] == [
        {"role": "system", "content": SYSTEM_MESSAGE},
        {"role": "user", "content": "THE PROMPT"},
    ]


def test_openai_judge_model_hint_and_usage() -> None:
    client = FakeClient('{"score": 1}', usage=NS(total_tokens=321))
    response = call_judge(openai_judge(client, model="m"), JudgeRequest("x", model="big"))
    assert client.calls[0]["model"] == "big"
    assert response.metadata == {"model": "big", "total_tokens": 321}
    assert response.passed is None


@pytest.mark.parametrize(
    "content",
    [
        '```json\n{"score": 0.5, "passed": false, "explanation": "meh"}\n```',
        'Here is my verdict:\n```\n{"score": 0.5, "passed": false, "explanation": "meh"}\n```\n',
        '  {"score": 0.5, "passed": false, "explanation": "meh"}  ',
    ],
)
def test_openai_judge_fenced_json(content: str) -> None:
    response = call_judge(openai_judge(FakeClient(content), model="m"), REQUEST)
    assert (response.score, response.passed, response.explanation) == (0.5, False, "meh")


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("PASS", "not a JSON object"),
        ("", "no text"),
        (None, "no text"),
        ("[0.5]", "not a JSON object"),
        ('{"score": "high"}', "must be a number"),
        ('{"score": 2}', r"in \[0, 1\]"),
        ('{"score": 1, "passed": "yes"}', "true or false"),
        ('{"passed": true}', "must be a number"),
    ],
)
def test_openai_judge_garbage_raises_judge_error(content: Any, match: str) -> None:
    with pytest.raises(JudgeError, match=match):
        call_judge(openai_judge(FakeClient(content), model="m"), REQUEST)


def test_openai_judge_garbage_is_a_gate_evaluator_error() -> None:
    outcome = JudgeCheck("polite").run(RECORD, judge=openai_judge(FakeClient("PASS"), model="m"))
    assert outcome.status is Status.EVALUATOR_ERROR
    assert outcome.force_gate is True
    assert "JudgeError" in outcome.message


def test_openai_judge_odd_response_shape() -> None:
    client = NS(chat=NS(completions=NS(create=lambda **kw: NS(choices=[]))))
    with pytest.raises(JudgeError, match="shape"):
        call_judge(openai_judge(client, model="m"), REQUEST)


def test_openai_judge_async_client_inside_and_outside_a_loop() -> None:
    judge = openai_judge(FakeAsyncClient('{"score": 0.9, "passed": true}'), model="m")
    assert call_judge(judge, REQUEST).score == 0.9

    async def cell() -> float:
        return call_judge(judge, REQUEST).score

    assert asyncio.run(cell()) == 0.9


def test_openai_judge_validates_its_arguments() -> None:
    with pytest.raises(TypeError, match=r"chat\.completions\.create"):
        openai_judge(object(), model="m")
    with pytest.raises(TypeError, match="model"):
        openai_judge(FakeClient("{}"), model="")


def test_parse_verdict_explanation_not_a_string() -> None:
    assert parse_verdict('{"score": 0, "explanation": ["a"]}') == (0.0, None, '["a"]')


def test_openai_is_never_imported() -> None:
    # In a fresh interpreter: other tests of the process (the live Agents SDK tests) import
    # openai on purpose, so sys.modules of this one says nothing about the judge clients.
    import subprocess

    code = (
        "import sys\n"
        "from types import SimpleNamespace as NS\n"
        "from agent_asserts.judges import JudgeRequest, openai_judge\n"
        "reply = NS(choices=[NS(message=NS(content='{\"score\": 1}'))])\n"
        "client = NS(chat=NS(completions=NS(create=lambda **kw: reply)))\n"
        "openai_judge(client, model='m')(JudgeRequest('polite', prompt='p'))\n"
        "print('openai' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
