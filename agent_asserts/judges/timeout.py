"""``judge_timeout``: a judge call that does not answer in time is an error, not a hang.

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
agent_asserts.judges.timeout.JudgeTimeout: the judge did not answer within 0.05s
"""

from __future__ import annotations

import threading
from typing import Any

from agent_asserts._deadline import check_limit, format_seconds
from agent_asserts.judges.protocol import Judge, JudgeError, JudgeRequest, call_judge


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


__all__ = ["JudgeTimeout", "TimedJudge", "timed_judge"]
