"""Finding 1: a hostile pattern, predicate or judge cannot hang a run (hard per-case limits)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import EvalContext, TrialRecord, evaluate_many, run_case
from agent_asserts.judges import JudgeResponse, callable_judge
from agent_asserts.loaders import load
from agent_asserts.results import Status, Verdict

ISSUE_PATTERN = "^([A-Za-z0-9]+\\s?)*$"  # the pattern of the report, as a suite writes it
EVIL = ISSUE_PATTERN + "|^(a|aa)+$"  # the second half defeats the regex engine too
HOSTILE_REPLY = "a" * 44 + "?"  # 45 characters: exponential backtracking
EVIL_SUITE = f"""\
name: hostile
record: run.json
cases:
  - name: redos
    checks:
      - {{max_tool_calls: 3}}
      - {{expect: {{value: reply, matches: {{$regex: {json.dumps(ISSUE_PATTERN)}}}}}}}
  - name: fine
    checks: [{{max_tool_calls: 3}}]
"""


def test_the_cli_stops_a_catastrophic_regex_at_its_timeout(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text(EVIL_SUITE)
    (tmp_path / "run.json").write_text(json.dumps({"events": [], "reply": HOSTILE_REPLY}))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "agent_asserts", "check", "suite.yaml", "--timeout", "2",
         "--format", "json"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert elapsed < 2 + 8, elapsed  # the limit plus interpreter start-up, never 60 s
    assert done.returncode == 1, done.stderr
    cases = {c["name"]: c for c in json.loads(done.stdout)["cases"]}
    assert cases["redos"]["verdict"] == "failed"
    assert cases["redos"]["error"] == (
        "TimeLimitExceeded: the case passed its time limit of 2s while running check "
        "'matches:reply'"
    )
    assert cases["fine"]["verdict"] == "passed"


def _record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .tool("lookup", {"q": HOSTILE_REPLY})
        .agent(HOSTILE_REPLY)
        .build(final_state={"note": HOSTILE_REPLY})
    )


SUITES: dict[str, Any] = {
    "called_tool arguments": {
        "checks": [{"called_tool": {"name": "lookup", "arguments": {"q": {"$regex": EVIL}}}}]
    },
    "state matches": {"checks": [{"expect": {"value": "/note", "matches": {"$regex": EVIL}}}]},
    "SOP op matches": [
        {
            "type": "tool_input_contains",
            "toolSlug": "lookup",
            "assertions": {"q": {"op": "matches", "pattern": EVIL}},
        },
    ],
}


@pytest.mark.parametrize("route", sorted(SUITES))
@pytest.mark.parametrize("thread", ["main", "worker"])
def test_every_route_to_a_pattern_is_bounded(route: str, thread: str) -> None:
    case = load(SUITES[route]).cases[0]
    started = time.monotonic()
    if thread == "main":  # the signal interrupts ``re``
        result = case.evaluate(_record(), timeout=0.5)
    else:  # the ``regex`` engine's own timeout
        with ThreadPoolExecutor(1) as pool:
            result = pool.submit(case.evaluate, _record(), timeout=0.5).result(timeout=30)
    # the limit plus a second (issue 25): off the main thread the regex engine runs without
    # the GIL and is waited for on the clock, so its coarse, processor-time timeout no longer
    # decides when the case ends
    assert time.monotonic() - started < 0.5 + 1
    assert result.verdict is Verdict.FAILED
    assert result.error is not None
    assert result.error.startswith("TimeLimitExceeded: the case passed its time limit of 0.5s")
    assert "while running check" in result.error


def test_run_case_timeout_interrupts_a_regex_on_a_short_input() -> None:
    record = TrialRecord.builder().agent("a" * 25 + "?").build()

    def case(ctx: EvalContext) -> None:
        ctx.expect(ctx.record.reply).matches(ISSUE_PATTERN)

    started = time.monotonic()
    result = run_case(record, case, timeout=0.5)
    assert time.monotonic() - started < 3
    assert result.error is not None and "time limit of 0.5s" in result.error


def test_off_the_main_thread_a_python_predicate_and_a_regex_are_stopped() -> None:
    def spins(ctx: EvalContext) -> None:
        ctx.expect(1).satisfies(lambda v: _forever())

    def backtracks(ctx: EvalContext) -> None:
        ctx.expect(HOSTILE_REPLY).matches(EVIL)

    def fine(ctx: EvalContext) -> None:
        ctx.expect(1).equals(1)

    outcomes: dict[str, Any] = {}

    def run() -> None:
        for fn in (spins, backtracks, fine):
            outcomes[fn.__name__] = run_case(TrialRecord.builder().build(), fn, timeout=0.3)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    assert outcomes["spins"].error == (
        "TimeLimitExceeded: the case passed its time limit of 0.3s while running check 'satisfies'"
    )
    assert outcomes["backtracks"].verdict is Verdict.FAILED
    assert outcomes["fine"].verdict is Verdict.PASSED


def _forever() -> bool:
    while True:
        pass


def slow_case(ctx: EvalContext) -> None:
    if ctx.record.reply == "slow":  # Python code: interruptible in any thread
        _forever()
    ctx.expect(1).equals(1)


def test_evaluate_many_reports_the_slow_case_and_every_other() -> None:
    records = [TrialRecord.builder().agent(text).build() for text in ("a", "slow", "b")]
    for executor in (None, ThreadPoolExecutor(2)):
        started = time.monotonic()
        batch = evaluate_many(records, slow_case, executor=executor, timeout=0.3)
        assert time.monotonic() - started < 5
        assert [c.verdict for c in batch.cases] == [Verdict.PASSED, Verdict.FAILED,
                                                    Verdict.PASSED]  # fmt: skip
        assert batch.cases[1].error == (
            "TimeLimitExceeded: the case passed its time limit of 0.3s (outside any check)"
        )


def test_a_judge_past_its_judge_timeout_is_an_evaluator_error_gate() -> None:
    def hangs(prompt: str) -> JudgeResponse:
        time.sleep(30)
        raise AssertionError("unreachable")

    def case(ctx: EvalContext) -> None:
        ctx.judge("polite").soft()

    started = time.monotonic()
    result = run_case(
        TrialRecord.builder().agent("hi").build(), case,
        judge=callable_judge(hangs), judge_timeout=0.2,
    )  # fmt: skip
    assert time.monotonic() - started < 3
    judged = result.results[0]
    assert judged.status is Status.EVALUATOR_ERROR
    assert judged.severity.value == "gate"
    assert judged.message == ("the judge raised JudgeTimeout: the judge did not answer within 0.2s")
    assert result.verdict is Verdict.FAILED


def test_time_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="'timeout' must be a number of seconds > 0 or None"):
        evaluate_many([], slow_case, timeout=0)
    with pytest.raises(ValueError, match="'judge_timeout' must be a number of seconds > 0"):
        evaluate_many([], slow_case, judge_timeout=-1)
