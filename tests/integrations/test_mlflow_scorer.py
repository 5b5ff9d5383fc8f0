"""The MLflow scorer, end to end with real MLflow, offline: an agent traced with
``@mlflow.trace`` (AGENT, LLM and TOOL spans) into a local SQLite tracking store, the scorer
called on the real ``Trace``, and ``mlflow.genai.evaluate`` with a traced ``predict_fn``, with
rows of traces, and with rows of outputs only."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mlflow.genai")  # the mlflow extra (mlflow-skinny, in the test extra)
pytest.importorskip("sqlalchemy")  # MLflow's local SQLite store (in the test extra)

import mlflow
from mlflow.entities import Feedback, SpanType, Trace

from agent_asserts.integrations import read_run
from agent_asserts.integrations.mlflow import agent_asserts_scorer, run_of
from agent_asserts.loaders import load

ROOT = Path(__file__).resolve().parents[2]

SUITE = """\
name: refunds
cases:
  - name: refund
    checks:
      - called_tool: {name: lookup_order, arguments: {order_id: A1049}}
      - tool_order: [lookup_order, issue_refund]
      - max_tool_calls: 5
        severity: soft
"""


@pytest.fixture(scope="module", autouse=True)
def tracking(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local SQLite tracking store and an experiment whose artifacts stay in a tmp folder;
    MLflow's usage telemetry off (its first scorer call imports every third-party scorer
    package installed, and it would post to the network)."""
    folder = tmp_path_factory.mktemp("mlflow")
    previous = mlflow.get_tracking_uri()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MLFLOW_DISABLE_TELEMETRY", "true")
        patch.setenv("MLFLOW_EXPERIMENT_ID", "")  # set_experiment sets it: restored after
        uri = f"sqlite:///{folder / 'mlflow.db'}"
        mlflow.set_tracking_uri(uri)
        experiment = mlflow.create_experiment(
            "agent_asserts", artifact_location=(folder / "artifacts").as_uri()
        )
        mlflow.set_experiment(experiment_id=experiment)
        yield uri
        mlflow.set_tracking_uri(previous)


@mlflow.trace(span_type=SpanType.TOOL)
def lookup_order(order_id: str) -> dict[str, Any]:
    return {"order_id": order_id, "status": "paid", "total": 42}


@mlflow.trace(span_type=SpanType.TOOL)
def issue_refund(order_id: str, amount: int) -> dict[str, Any]:
    if amount > 100:
        raise RuntimeError("refund declined: over the limit")
    return {"refunded": amount}


@mlflow.trace(span_type=SpanType.LLM)
def chat(messages: list[dict[str, Any]], model: str = "gpt-4o-mini") -> dict[str, Any]:
    return {
        "model": model,
        "choices": [{"message": {"role": "assistant", "content": "Refund issued."}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
    }


@mlflow.trace(span_type=SpanType.AGENT)
def refund_agent(question: str, amount: int = 42) -> str:
    chat([{"role": "user", "content": question}])
    order = lookup_order("A1049")
    try:
        issue_refund(order["order_id"], amount)
    except RuntimeError:
        return "The refund was declined."
    return "Refund issued for order A1049."


def traced(question: str = "Refund order A1049", amount: int = 42) -> Trace:
    refund_agent(question, amount)
    trace_id = mlflow.get_last_active_trace_id()
    assert trace_id is not None
    trace = mlflow.get_trace(trace_id, flush=True)
    assert trace is not None
    return trace


def refund_checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(5).soft()
    ctx.tokens_at_most(1000)


def by_name(feedbacks: list[Feedback]) -> dict[str, Feedback]:
    return {f.name: f for f in feedbacks}


# -- the real Trace object ---------------------------------------------------------------------


# an OpenAI-chat run handed over as a row's outputs (no trace)
REFUND_MESSAGES = [
    {"role": "user", "content": "Refund order A1049"},
    {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "lookup_order", "arguments": '{"order_id": "A1049"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"status": "paid"}'},
]


def test_a_real_trace_object_is_read_as_the_mlflow_format() -> None:
    trace = traced()
    record = read_run(trace)
    assert record.metadata["format"] == "mlflow"
    assert [c.payload.name for c in record.tool_calls] == ["lookup_order", "issue_refund"]
    assert record.tool_calls[0].payload.arguments == {"order_id": "A1049"}
    assert record.tool_calls[1].payload.result == {"refunded": 42}
    assert record.run_usage is not None and record.run_usage.total_tokens == 150
    assert record.metadata["trace_id"] == trace.info.trace_id


def test_the_scorer_on_a_real_trace_gives_one_feedback_per_check_and_the_verdict() -> None:
    trace = traced()
    feedbacks = agent_asserts_scorer(refund_checks)(trace=trace)
    assert all(isinstance(f, Feedback) for f in feedbacks)
    spans = {s.name: s.span_id for s in trace.data.spans}
    assert [(f.name, f.value, f.rationale) for f in feedbacks] == [
        (
            "called_tool:lookup_order",
            True,
            f"matched 1 tool calls (evidence: {spans['lookup_order']})",
        ),
        (
            "called_tool:issue_refund",
            True,
            f"matched 1 tool calls (evidence: {spans['issue_refund']})",
        ),
        (
            "tool_order",
            True,
            f"found 2 steps in order: {spans['lookup_order']}, {spans['issue_refund']} "
            f"(evidence: {spans['lookup_order']}, {spans['issue_refund']})",
        ),
        (
            "max_tool_calls:5",
            1.0,
            f"made 2 tool calls, limit 5 (evidence: {spans['lookup_order']}, "
            f"{spans['issue_refund']})",
        ),
        ("tokens_at_most:1000", True, feedbacks[4].rationale),
        ("verdict", True, "PASSED refund_checks: 5 checks: 5 passed; score 1.00"),
    ]
    assert "150" in (feedbacks[4].rationale or "")
    soft = feedbacks[3]
    assert soft.metadata is not None
    assert soft.metadata["severity"] == "soft" and soft.metadata["status"] == "pass"
    assert {f.source.source_type for f in feedbacks} == {"CODE"}
    assert {f.source.source_id for f in feedbacks} == {"agent_asserts"}


def test_a_failed_tool_and_a_gate_failure_fail_the_verdict() -> None:
    trace = traced(amount=420)  # the refund tool raises: its span is an error
    feedbacks = by_name(agent_asserts_scorer(refund_checks)(trace=trace))
    refund = feedbacks["called_tool:issue_refund"]
    assert refund.value is False
    assert "expected 42, got 420" in (refund.rationale or "")
    assert feedbacks["verdict"].value is False
    assert (feedbacks["verdict"].rationale or "").startswith("FAILED refund_checks")


def test_invalid_is_never_a_pass() -> None:
    trace = traced()

    def checks(ctx: Any) -> None:
        ctx.run_duration_at_most(60)
        ctx.state("/orders/A1049/status").equals("refunded")

    feedbacks = by_name(agent_asserts_scorer(checks)(trace=trace))
    state = feedbacks["equals:/orders/A1049/status"]
    assert state.value is False  # an MLflow trace records no state: invalid, never a pass
    assert state.rationale == "invalid: the record has no final_state"
    assert state.metadata is not None and state.metadata["status"] == "invalid"
    assert feedbacks["verdict"].value is False


def test_a_check_that_raises_fails_the_verdict_with_the_error() -> None:
    def checks(ctx: Any) -> None:
        ctx.called_tool("lookup_order")
        raise KeyError("trajectory")  # a row without the expectation the function reads

    feedbacks = agent_asserts_scorer(checks)(trace=traced())
    assert [(f.name, f.value) for f in feedbacks] == [
        ("called_tool:lookup_order", True),
        ("verdict", False),
    ]
    assert "error: KeyError: 'trajectory'" in (feedbacks[1].rationale or "")


def test_a_suite_file_and_a_loaded_suite(tmp_path: Path) -> None:
    path = tmp_path / "refunds.suite.yml"
    path.write_text(SUITE, encoding="utf-8")
    trace = traced()
    from_file = agent_asserts_scorer(path)(trace=trace)
    from_suite = agent_asserts_scorer(load(path))(trace=trace)
    assert [(f.name, f.value) for f in from_file] == [
        ("called_tool:lookup_order", True),
        ("tool_order", True),
        ("max_tool_calls:5", 1.0),
        ("verdict", True),
    ]
    assert [(f.name, f.value, f.rationale) for f in from_suite] == [
        (f.name, f.value, f.rationale) for f in from_file
    ]


def test_checks_that_share_a_name_keep_every_result() -> None:
    def checks(ctx: Any) -> None:
        ctx.called_tool("lookup_order")
        ctx.called_tool("lookup_order", {"order_id": "B2"})

    feedbacks = agent_asserts_scorer(checks)(trace=traced())
    assert [(f.name, f.value) for f in feedbacks] == [
        ("called_tool:lookup_order", True),
        ("called_tool:lookup_order#2", False),
        ("verdict", False),
    ]


def test_outputs_are_read_when_there_is_no_trace() -> None:
    scorer = agent_asserts_scorer(lambda ctx: ctx.called_tool("lookup_order"))
    feedbacks = scorer(outputs=REFUND_MESSAGES)
    assert [(f.name, f.value, f.rationale) for f in feedbacks] == [
        ("called_tool:lookup_order", True, "matched 1 tool calls (evidence: e2)"),
        ("verdict", True, "PASSED <lambda>: 1 check: 1 passed; score 1.00"),
    ]


def test_no_trace_and_no_outputs_is_a_clear_error() -> None:
    message = "agent_asserts scorer: the row has no trace and no outputs to read"
    with pytest.raises(ValueError, match=f"^{message}$"):
        run_of(None, None)


def test_checks_of_a_wrong_kind_are_refused() -> None:
    with pytest.raises(TypeError, match="checks must be a case function fn"):
        agent_asserts_scorer(42)


def test_expectations_carry_a_reference_trajectory() -> None:
    def checks(ctx: Any) -> None:
        expected = ctx.record.metadata["expectations"]["trajectory"]
        ctx.matches_trajectory(expected, arguments="superset")

    scorer = agent_asserts_scorer(checks)
    trace = traced()
    good = scorer(
        trace=trace,
        expectations={"trajectory": [{"name": "lookup_order"}, {"name": "issue_refund"}]},
    )
    bad = scorer(trace=trace, expectations={"trajectory": ["issue_refund", "lookup_order"]})
    assert [(f.name, f.value) for f in good] == [("matches_trajectory", True), ("verdict", True)]
    assert [(f.name, f.value) for f in bad] == [("matches_trajectory", False), ("verdict", False)]


# -- mlflow.genai.evaluate --------------------------------------------------------------------


def test_evaluate_with_a_traced_predict_fn() -> None:
    def checks(ctx: Any) -> None:
        refund_checks(ctx)
        ctx.matches_trajectory(ctx.record.metadata["expectations"]["trajectory"])

    data = [
        {
            "inputs": {"question": "Refund order A1049"},
            "expectations": {
                "trajectory": [
                    {"name": "lookup_order", "arguments": {"order_id": "A1049"}},
                    {"name": "issue_refund", "arguments": {"order_id": "A1049", "amount": 42}},
                ]
            },
        },
        {
            "inputs": {"question": "Refund order A1049 in full", "amount": 420},
            "expectations": {"trajectory": ["issue_refund", "lookup_order"]},
        },
    ]
    result = mlflow.genai.evaluate(
        data=data, predict_fn=refund_agent, scorers=[agent_asserts_scorer(checks)]
    )
    table = result.result_df
    assert table is not None
    # MLflow runs the predictions on a thread pool: two rows can share a request time, so the
    # rows are put in the data's order by their question
    questions = [row["inputs"]["question"] for row in data]
    rows = sorted(table.to_dict("records"), key=lambda r: questions.index(r["request"]["question"]))
    assert [bool(r["verdict/value"]) for r in rows] == [True, False]
    assert [bool(r["called_tool:issue_refund/value"]) for r in rows] == [True, False]
    assert [bool(r["matches_trajectory/value"]) for r in rows] == [True, False]
    assert [float(r["max_tool_calls:5/value"]) for r in rows] == [1.0, 1.0]
    assert rows[0]["verdict/rationale"] == "PASSED checks: 6 checks: 6 passed; score 1.00"
    assert "expected 42, got 420" in rows[1]["called_tool:issue_refund/rationale"]
    assert result.metrics["verdict/mean"] == 0.5
    assert result.metrics["called_tool:lookup_order/mean"] == 1.0
    # MLflow's own assertion helper: a gate failure is a failure; a soft check's score is
    # a number, which MLflow counts as "not a yes/no" (docs/integrations.md)
    assert not result.passed
    assert "verdict: FAILED checks" in result.reason
    assert "max_tool_calls:5: made 2 tool calls, limit 5" in result.reason


def test_evaluate_on_rows_of_traces() -> None:
    traces = [traced(), traced(amount=420)]
    result = mlflow.genai.evaluate(
        data=[{"trace": trace} for trace in traces],
        scorers=[agent_asserts_scorer(refund_checks, name="refund checks")],
    )
    table = result.result_df
    assert table is not None
    verdicts = dict(zip(table["trace_id"], table["verdict/value"], strict=True))
    assert {k: bool(v) for k, v in verdicts.items()} == {
        traces[0].info.trace_id: True,
        traces[1].info.trace_id: False,
    }


def test_evaluate_on_rows_of_outputs_reads_the_outputs() -> None:
    result = mlflow.genai.evaluate(
        data=[{"inputs": {"question": "Refund order A1049"}, "outputs": REFUND_MESSAGES}],
        scorers=[agent_asserts_scorer(lambda ctx: ctx.called_tool("lookup_order"))],
    )
    table = result.result_df
    assert table is not None
    [row] = table.to_dict("records")
    assert bool(row["called_tool:lookup_order/value"]) is True
    assert row["called_tool:lookup_order/rationale"] == "matched 1 tool calls (evidence: e2)"
    assert result.passed


def test_the_docs_example_runs(tmp_path: Path) -> None:
    """docs/examples/mlflow_scorer.py, the example of docs/integrations.md, as a user runs it
    (from a scratch folder: its store and artifacts are written there)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MLFLOW_")}
    env.update(PYTHONPATH=str(ROOT), MLFLOW_DISABLE_TELEMETRY="true")
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs/examples/mlflow_scorer.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if " = " in line]
    assert lines[0].startswith("called_tool:lookup_order = True: matched 1 tool calls")
    assert lines[1].startswith("called_tool:issue_refund = False: matched 0 tool calls")
    assert "$.arguments.amount: expected 42, got 40" in lines[1]
    assert lines[2].startswith("tool_order = True: found 2 steps in order")
    assert lines[3].startswith("max_tool_calls:5 = 1.0: made 2 tool calls, limit 5")
    assert lines[4] == "verdict = False: FAILED refund_checks: 4 checks: 3 passed, 1 failed"
    assert (tmp_path / "mlflow.db").is_file()
