"""The judge protocol: responses, validation and sync/async calling."""

from __future__ import annotations

import asyncio
import threading

import pytest

from agent_asserts.judges import (
    JudgeRequest,
    JudgeResponse,
    JudgeResponseError,
    call_judge,
    check_response,
    run_sync,
)

REQUEST = JudgeRequest("the agent was polite", prompt="PROMPT")


def test_response_validation_at_construction() -> None:
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        JudgeResponse(-0.1)
    with pytest.raises(TypeError, match="number"):
        JudgeResponse(True)
    with pytest.raises(TypeError, match="passed"):
        JudgeResponse(0.5, passed="yes")  # type: ignore[arg-type]
    assert JudgeResponse(1).score == 1


@pytest.mark.parametrize("value", [0.5, None, {"score": 1.0}, "PASS", True])
def test_wrong_type_is_a_response_error(value: object) -> None:
    with pytest.raises(JudgeResponseError, match="must return a JudgeResponse"):
        call_judge(lambda request: value, REQUEST)  # type: ignore[arg-type, return-value]


def test_response_built_around_validators_is_rechecked() -> None:
    bad = JudgeResponse(0.5)
    object.__setattr__(bad, "score", 7.0)
    with pytest.raises(JudgeResponseError, match=r"in \[0, 1\]"):
        check_response(bad)
    nan = JudgeResponse(0.5)
    object.__setattr__(nan, "score", float("nan"))
    with pytest.raises(JudgeResponseError):
        check_response(nan)


def test_sync_judge_receives_the_request() -> None:
    seen: list[JudgeRequest] = []

    def judge(request: JudgeRequest) -> JudgeResponse:
        seen.append(request)
        return JudgeResponse(0.25)

    assert call_judge(judge, REQUEST).score == 0.25
    assert seen == [REQUEST]


async def _async_judge(request: JudgeRequest) -> JudgeResponse:
    await asyncio.sleep(0)
    return JudgeResponse(0.5, passed=True, explanation=request.criterion)


def test_async_judge_from_plain_sync_code() -> None:
    response = call_judge(_async_judge, REQUEST)
    assert (response.score, response.passed, response.explanation) == (
        0.5,
        True,
        "the agent was polite",
    )


def test_async_judge_from_inside_a_running_loop() -> None:
    """As in Jupyter: sync code called from a coroutine while the loop runs."""
    threads: list[str] = []

    async def judge(request: JudgeRequest) -> JudgeResponse:
        threads.append(threading.current_thread().name)
        await asyncio.sleep(0)
        return JudgeResponse(1.0)

    async def notebook_cell() -> JudgeResponse:
        return call_judge(judge, REQUEST)

    assert asyncio.run(notebook_cell()).score == 1.0
    assert threads[0].startswith("agent-asserts-judge")


def test_run_sync_propagates_exceptions() -> None:
    async def boom() -> None:
        raise RuntimeError("model down")

    with pytest.raises(RuntimeError, match="model down"):
        run_sync(boom())

    async def in_loop() -> None:
        run_sync(boom())

    with pytest.raises(RuntimeError, match="model down"):
        asyncio.run(in_loop())


def test_a_judge_must_be_callable() -> None:
    with pytest.raises(TypeError, match="callable"):
        call_judge("gpt", REQUEST)  # type: ignore[arg-type]
