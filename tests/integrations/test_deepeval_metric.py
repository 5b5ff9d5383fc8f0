"""The DeepEval metric with the real DeepEval, offline: ``measure`` on ``LLMTestCase``s,
``assert_test``, ``evaluate``, and once ``deepeval test run`` of a test file (its pytest plugin
loaded, in a subprocess)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

# DeepEval reads these when it is first imported: no telemetry, no .env file of the folder
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")

pytest.importorskip("deepeval")  # the deepeval extra (in the test extra)

from deepeval import assert_test, evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.metrics.utils import copy_metrics
from deepeval.test_case import LLMTestCase, ToolCall

from agent_asserts.integrations.deepeval import TRACE_KEY, AgentAssertsMetric, record_of
from agent_asserts.record.errors import RecordError
from agent_asserts.testing import demo_record

ROOT = Path(__file__).resolve().parents[2]


def refund_checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(2).soft()


def _case(amount: Any = 42, *, extra: int = 0, **fields: Any) -> LLMTestCase:
    refund: dict[str, Any] = {"order_id": "A1049"}
    if amount is not None:
        refund["amount"] = amount
    calls = [
        ToolCall(name="lookup_order", input_parameters={"order_id": "A1049"}, output={"total": 42}),
        ToolCall(
            name="issue_refund",
            input_parameters=refund if amount is not None else None,
            output={"refund_id": "R1"},
        ),
    ]
    calls += [ToolCall(name="notify", input_parameters={}) for _ in range(extra)]
    return LLMTestCase(
        input="Refund order A1049",
        actual_output=f"Refunded {amount} for order A1049.",
        tools_called=calls,
        **fields,
    )


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DeepEval writes its ``.deepeval`` folder into the working directory."""
    monkeypatch.chdir(tmp_path)


def test_a_run_that_passes_every_check_is_a_success_with_score_one() -> None:
    metric = AgentAssertsMetric(refund_checks)
    assert metric.measure(_case()) == 1.0
    assert metric.success is True and metric.is_successful() is True
    assert metric.score == 1.0
    assert metric.reason == "PASSED refund_checks: 4 checks: 4 passed; score 1.00"
    assert metric.score_breakdown == {
        "called_tool:lookup_order": 1.0,
        "called_tool:issue_refund": 1.0,
        "tool_order": 1.0,
        "max_tool_calls:2": 1.0,
    }
    assert [(g.name, g.passed, g.severity) for g in metric.grades][-1] == (
        "max_tool_calls:2",
        True,
        "soft",
    )
    assert metric.__name__ == "refund_checks"


def test_a_gate_failure_fails_the_metric_with_the_evidence() -> None:
    metric = AgentAssertsMetric(refund_checks)
    assert metric.measure(_case(40)) == pytest.approx(0.75)
    assert metric.success is False and metric.is_successful() is False
    assert metric.reason == (
        "FAILED refund_checks: 4 checks: 3 passed, 1 failed\n"
        "  FAILED [gate] called_tool('issue_refund', arguments={'amount': 42})\n"
        "    matched 0 tool calls of 1 'issue_refund' calls, expected at least 1\n"
        "    closest candidate: event e2\n"
        "      $.arguments.amount: expected 42, got 40"
    )


def test_a_soft_failure_scores_but_passes() -> None:
    metric = AgentAssertsMetric(refund_checks)
    assert metric.measure(_case(extra=1)) == pytest.approx(0.75)
    assert metric.success is True and metric.is_successful() is True
    assert metric.reason.startswith("SCORED refund_checks: 4 checks: 3 passed, 1 failed")
    assert metric.score_breakdown["max_tool_calls:2"] == 0.0


def test_an_invalid_gate_check_is_never_a_pass() -> None:
    """``issue_refund`` with no ``input_parameters``: its arguments are not recorded."""
    metric = AgentAssertsMetric(refund_checks)
    metric.measure(_case(None))
    assert metric.success is False and metric.is_successful() is False
    assert "1 invalid" in metric.reason and "INVALID [gate]" in metric.reason
    [invalid] = [g for g in metric.grades if g.status == "invalid"]
    assert not invalid.passed
    assert invalid.reason == (
        "invalid: arguments not recorded: the result depends on the arguments of e2 "
        "('issue_refund') (evidence: e2)"
    )


def test_expected_tools_is_the_reference_trajectory() -> None:
    expected = [ToolCall(name="lookup_order"), ToolCall(name="issue_refund")]
    metric = AgentAssertsMetric(lambda ctx: None, name="refund")
    metric.measure(_case(expected_tools=expected))
    assert metric.success is True
    assert metric.score_breakdown == {"expected_tools/matches_trajectory": 1.0}
    reversed_order = expected[::-1]
    metric.measure(_case(expected_tools=reversed_order))
    assert metric.success is False
    assert "FAILED [gate] expected_tools/matches_trajectory" in metric.reason
    # the reference is on the record for the checks, and the automatic check can be left out
    seen: list[Any] = []
    quiet = AgentAssertsMetric(
        lambda ctx: seen.append(ctx.record.metadata["expected_tools"]), trajectory_order=None
    )
    quiet.measure(_case(expected_tools=reversed_order))
    assert quiet.success is True
    assert seen == [[{"name": "issue_refund"}, {"name": "lookup_order"}]]
    with pytest.raises(ValueError, match="parameter 'order' takes one of 'strict'"):
        AgentAssertsMetric(refund_checks, trajectory_order="sorted")


def test_a_trace_in_the_metadata_wins_over_tools_called() -> None:
    metric = AgentAssertsMetric(str(ROOT / "docs/examples/refunds.suite.yml"))
    case = LLMTestCase(
        input="Refund", actual_output="ok", tools_called=[ToolCall(name="other")],
        metadata={TRACE_KEY: demo_record()},
    )  # fmt: skip
    metric.measure(case)
    assert metric.success is True
    assert metric.reason.startswith("PASSED refund is issued only after lookup")
    with pytest.raises(RecordError, match="cannot tell the trace format"):
        metric.measure(LLMTestCase(input="Refund", metadata={TRACE_KEY: 42}))
    # the test case's own metadata is kept on the record; an object no reader knows is named
    when = datetime(2026, 1, 2, tzinfo=UTC)
    record = record_of(_case(metadata={"customer": "c7", "at": when}))
    assert record.metadata["metadata"] == {"customer": "c7", "at": "2026-01-02T00:00:00+00:00"}
    with pytest.raises(RecordError, match=r"\$\.metadata\.lock: cannot read an object of type"):
        record_of(_case(metadata={"lock": threading.Lock()}))


def test_a_measure_and_deepeval_copies_keep_the_loaded_checks() -> None:
    metric = AgentAssertsMetric(refund_checks, timeout=5.0)
    assert asyncio.run(metric.a_measure(_case(40))) == pytest.approx(0.75)
    assert metric.success is False
    [copy] = copy_metrics([metric])
    assert copy.checks is metric.checks and copy.timeout == 5.0
    assert copy.measure(_case()) == 1.0 and copy.is_successful()


def test_assert_test_raises_on_a_gate_failure_with_our_reason() -> None:
    metric = AgentAssertsMetric(refund_checks)
    assert_test(_case(), [metric], run_async=False)
    assert_test(_case(extra=1), [metric])  # a soft failure does not fail the test
    with pytest.raises(AssertionError) as raised:
        assert_test(_case(40), [metric])
    message = str(raised.value)
    assert message.startswith("Metrics: refund_checks (score: 0.75, threshold: 1.0, ")
    assert "reason: FAILED refund_checks: 4 checks: 3 passed, 1 failed\n" in message
    assert "$.arguments.amount: expected 42, got 40) failed." in message


def test_evaluate_reports_each_test_case() -> None:
    result = evaluate(
        [_case(), _case(40)],
        [AgentAssertsMetric(refund_checks)],
        async_config=AsyncConfig(run_async=False),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    by_input = sorted(result.test_results, key=lambda r: r.actual_output or "")
    assert [r.success for r in by_input] == [False, True]  # "Refunded 40…", "Refunded 42…"
    [failed] = by_input[0].metrics_data or []
    assert failed.name == "refund_checks" and failed.score == pytest.approx(0.75)
    assert failed.reason is not None and failed.reason.startswith("FAILED refund_checks")


def test_a_check_that_raises_fails_and_an_unreadable_trace_is_the_metrics_error() -> None:
    def boom(ctx: Any) -> None:
        raise ZeroDivisionError("division by zero")

    metric = AgentAssertsMetric(boom)
    metric.measure(_case())
    assert metric.success is False
    assert metric.reason == "FAILED boom: 0 checks\n  error: ZeroDivisionError: division by zero"
    unreadable = LLMTestCase(input="Refund", metadata={TRACE_KEY: 42})
    quiet = DisplayConfig(show_indicator=False, print_results=False)
    result = evaluate(
        [unreadable],
        [AgentAssertsMetric(refund_checks)],
        async_config=AsyncConfig(run_async=False),
        display_config=quiet,
        error_config=ErrorConfig(ignore_errors=True),
    )
    [data] = result.test_results[0].metrics_data or []
    assert result.test_results[0].success is False and data.success is False
    assert data.error is not None and data.error.startswith("RecordError: invalid record")


def _docs_example() -> tuple[str, list[str]]:
    """The ``deepeval test run`` example of docs/integrations.md, and the assertion lines of
    the output the docs show for it."""
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    section = text[text.index("## DeepEval\n") :]
    blocks = re.findall(r"^```(?:python)?\n(.*?)^```", section, re.S | re.M)
    example = next(b for b in blocks if b.startswith("# test_refund.py"))
    output = next(b for b in blocks if "AssertionError: Metrics" in b)
    return example, [line for line in output.splitlines() if line.startswith("E ")]


_MAIN = "from deepeval.cli.main import app; app()"


def test_deepeval_test_run_offline(tmp_path: Path) -> None:
    """``deepeval test run`` (DeepEval's pytest plugin loaded), no network, no API key."""
    example, shown = _docs_example()
    (tmp_path / "test_refund.py").write_text(example, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
        DEEPEVAL_TELEMETRY_OPT_OUT="1",
        DEEPEVAL_DISABLE_DOTENV="1",
        COLUMNS="120",
        # the plugins no test here uses; DeepEval's own stays loaded
        PYTEST_ADDOPTS="-p no:langsmith_plugin -p no:anyio -p no:platformdirs -p no:cacheprovider",
    )
    script = Path(sys.executable).with_name("deepeval")  # the command the extra installs
    deepeval = [str(script)] if script.exists() else [sys.executable, "-c", _MAIN]
    run = subprocess.run(
        [*deepeval, "test", "run", "test_refund.py", "--color", "no"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed, 1 passed" in out
    assert "Pass Rate: 50.0% | Passed: 1 | Failed: 1" in out
    assert "AssertionError: Metrics: refund_checks (score: 0.75, threshold: 1.0" in out
    assert shown and all(line in out for line in shown), shown  # what the docs show
