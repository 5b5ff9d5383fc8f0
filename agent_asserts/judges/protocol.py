"""The judge protocol: requests, responses, calling a judge, and a time limit on the call.

The judge protocol: ``JudgeRequest`` in, ``JudgeResponse`` out, sync or async.

A judge is any callable ``JudgeRequest -> JudgeResponse`` or ``JudgeRequest ->
Awaitable[JudgeResponse]``. :func:`call_judge` calls one from synchronous code, whether or not
an event loop is already running in this thread (plain scripts, pytest, Jupyter), and checks
what came back, so a malformed response is an error and never a silent pass.

>>> request = JudgeRequest("the agent apologised", prompt="...")
>>> call_judge(lambda r: JudgeResponse(0.8, explanation="mostly"), request).score
0.8

``judge_timeout``: a judge call that does not answer in time is an error, not a hang.

:func:`timed_judge` wraps any judge: each call runs in a daemon thread and is waited for at
most ``seconds``; past that, :class:`JudgeTimeout` is raised, which the judged check records
as an ``evaluator_error`` gate (like any judge that raises). The abandoned call is not
killed (a thread cannot be): it finishes, or not, in the background, and its answer is
dropped. ``run_case``, ``Case.evaluate``, ``evaluate_many`` and ``agent-asserts check
--judge-timeout`` take ``judge_timeout=`` and wrap the judge this way.

>>> import time
>>> from agent_asserts.judges import JudgeRequest, JudgeResponse, call_judge
>>> def slow(request):
...     time.sleep(2)
...     return JudgeResponse(1.0)
>>> call_judge(timed_judge(slow, 0.05), JudgeRequest("ok"))
Traceback (most recent call last):
...
agent_asserts.judges.protocol.JudgeTimeout: the judge did not answer within 0.05s
"""

from __future__ import annotations

import inspect
import math
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import Any, TypeAlias

import attrs

from agent_asserts._deadline import check_limit, format_seconds
from agent_asserts.errors import AgentAssertsError

# -- the protocol ----------------------------------------------------------------------------------

TEMPLATE_VERSION = "judge-prompt/2"
"""The version of the prompt template and evidence rendering (see :mod:`.prompt`)."""


class JudgeError(AgentAssertsError):
    """A judge could not produce a usable verdict (recorded as a GATE ``evaluator_error``).

    >>> str(JudgeError("the reply is not JSON"))
    'the reply is not JSON'
    """


class JudgeResponseError(JudgeError):
    """A judge returned something that is not a valid :class:`JudgeResponse`.

    >>> isinstance(JudgeResponseError("score 1.5 is outside [0, 1]"), JudgeError)
    True
    """


def _score_problem(score: object) -> str | None:
    if isinstance(score, bool) or not isinstance(score, int | float):
        return f"'score' must be a number in [0, 1] (got {score!r})"
    if math.isnan(score) or not 0.0 <= score <= 1.0:
        return f"'score' must be in [0, 1] (got {score!r})"
    return None


def _passed_problem(passed: object) -> str | None:
    if passed is not None and not isinstance(passed, bool):
        return f"'passed' must be True, False or None (got {passed!r})"
    return None


def _check_score(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    problem = _score_problem(value)
    if problem is not None:
        raise (TypeError if "number" in problem else ValueError)(problem)


def _check_passed(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    problem = _passed_problem(value)
    if problem is not None:
        raise TypeError(problem)


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class JudgeRequest:
    """What a judge is asked to grade.

    Attributes:
        criterion: the criterion, as the contract author wrote it (trusted text).
        rubric: optional grading guidance (trusted text).
        evidence: the JSON data the judge grades, untruncated: the whole record's canonical
            form, or ``{"events": [...]}`` for a selection (untrusted data).
        model: a model hint from the contract (SOP ``model:``); None when not given.
        prompt: the rendered prompt: template, criterion, rubric and the evidence as fenced,
            truncated, untrusted JSON. Judges that call a model should send exactly this.
        template_version: the version of the template that rendered ``prompt``.
        event_ids: the ids of the events the evidence holds, in record order.

    >>> JudgeRequest("polite", prompt="...").template_version
    'judge-prompt/2'
    """

    criterion: str
    rubric: str | None = None
    evidence: Any = None
    model: str | None = None
    prompt: str = ""
    template_version: str = TEMPLATE_VERSION
    event_ids: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)


@attrs.frozen
class JudgeResponse:
    """A judge's verdict: ``score`` in [0, 1] and, optionally, ``passed``.

    When ``passed`` is given it decides the status (unless the check sets an explicit
    threshold); the score is recorded either way.

    >>> JudgeResponse(0.9, passed=True, explanation="clear refusal").passed
    True
    >>> JudgeResponse(1.5)
    Traceback (most recent call last):
    ...
    ValueError: 'score' must be in [0, 1] (got 1.5)
    """

    score: float = attrs.field(validator=_check_score)
    passed: bool | None = attrs.field(default=None, validator=_check_passed)
    explanation: str = ""
    metadata: Mapping[str, Any] = attrs.field(factory=dict)


Judge: TypeAlias = Callable[[JudgeRequest], "JudgeResponse | Awaitable[JudgeResponse]"]
"""Any callable taking a :class:`JudgeRequest` and returning a :class:`JudgeResponse` (or an
awaitable of one)."""


def check_response(value: object) -> JudgeResponse:
    """Return ``value`` if it is a valid :class:`JudgeResponse`, else raise ``JudgeResponseError``.

    Re-checks the fields, since a response can be built around its validators.

    >>> check_response(JudgeResponse(1.0)).score
    1.0
    >>> check_response(0.7)
    Traceback (most recent call last):
    ...
    agent_asserts.judges.protocol.JudgeResponseError: a judge must return a JudgeResponse (got 0.7)
    """
    if not isinstance(value, JudgeResponse):
        raise JudgeResponseError(f"a judge must return a JudgeResponse (got {value!r})")
    problem = _score_problem(value.score) or _passed_problem(value.passed)
    if problem is None and not isinstance(value.explanation, str):
        problem = f"'explanation' must be a str (got {value.explanation!r})"
    if problem is None and not isinstance(value.metadata, Mapping):
        problem = f"'metadata' must be a mapping (got {value.metadata!r})"
    if problem is not None:
        raise JudgeResponseError(problem)
    return value


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def run_sync(awaitable: Awaitable[Any]) -> Any:
    """Wait for ``awaitable`` from synchronous code and return its result.

    With no event loop running in this thread, it runs in a fresh loop (``asyncio.run``).
    With one running (Jupyter, an async test), it runs in a fresh loop on a worker thread
    while this thread waits, so the running loop is never re-entered.

    >>> async def answer():
    ...     return 42
    >>> run_sync(answer())
    42
    """
    import asyncio  # imported here: only async judges pay for it
    import concurrent.futures

    coroutine: Coroutine[Any, Any, Any] = _await(awaitable)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="agent-asserts-judge") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def call_judge(judge: Judge, request: JudgeRequest) -> JudgeResponse:
    """Call ``judge`` on ``request`` (sync or async) and validate the response.

    Exceptions raised by the judge propagate; a response that is not a valid
    :class:`JudgeResponse` raises :class:`JudgeResponseError`.

    >>> async def judge(request):
    ...     return JudgeResponse(1.0, passed=True)
    >>> call_judge(judge, JudgeRequest("ok")).passed
    True
    """
    if not callable(judge):
        raise TypeError(f"a judge must be callable (got {judge!r})")
    value: object = judge(request)
    if inspect.isawaitable(value):
        value = run_sync(value)
    return check_response(value)


# -- a time limit on each judge call ---------------------------------------------------------------


class JudgeTimeout(JudgeError):
    """A judge call ran past its ``judge_timeout``."""


class TimedJudge:
    """A judge whose every call is bounded by ``seconds`` (see :func:`timed_judge`)."""

    def __init__(self, judge: Judge, seconds: float) -> None:
        self.judge = judge
        self.seconds = seconds

    def __call__(self, request: JudgeRequest) -> Any:
        box: dict[str, Any] = {}

        def call() -> None:
            try:
                box["value"] = call_judge(self.judge, request)
            except BaseException as exc:
                box["error"] = exc

        worker = threading.Thread(target=call, name="agent-asserts-judge", daemon=True)
        worker.start()
        worker.join(self.seconds)
        if worker.is_alive():
            raise JudgeTimeout(f"the judge did not answer within {format_seconds(self.seconds)}")
        if "error" in box:
            raise box["error"]
        return box["value"]

    def __repr__(self) -> str:
        return f"timed_judge({self.judge!r}, {self.seconds!r})"


def timed_judge(judge: Judge, seconds: float) -> Judge:
    """``judge`` with each call bounded by ``seconds`` (> 0).

    >>> timed_judge(print, 0)
    Traceback (most recent call last):
    ...
    ValueError: 'judge_timeout' must be a number of seconds > 0 or None (got 0)
    """
    limit = check_limit(seconds, "judge_timeout")
    if not callable(judge):
        raise TypeError(f"a judge must be callable (got {judge!r})")
    if limit is None:
        return judge
    if isinstance(judge, TimedJudge) and judge.seconds <= limit:
        return judge
    return TimedJudge(judge, limit)


__all__ = [
    "TEMPLATE_VERSION",
    "Judge",
    "JudgeError",
    "JudgeRequest",
    "JudgeResponse",
    "JudgeResponseError",
    "JudgeTimeout",
    "TimedJudge",
    "call_judge",
    "check_response",
    "run_sync",
    "timed_judge",
]
