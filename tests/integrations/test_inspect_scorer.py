"""The Inspect AI scorer, end to end: ``inspect_ai.eval`` of a task whose ``mockllm`` model
scripts its tool calls (offline), scored by our checks; and the same checks over the finished
eval log (re-scoring without the model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")  # the inspect-ai extra (in the test extra)

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import tool

from agent_asserts.integrations.inspect_ai import agent_asserts_scorer, score_log


@tool
def lookup_order() -> Any:
    async def execute(order_id: str) -> str:
        """Look an order up.

        Args:
            order_id: The order.
        """
        return json.dumps({"status": "paid", "total": 42})

    return execute


@tool
def issue_refund() -> Any:
    async def execute(order_id: str, amount: float) -> str:
        """Refund an order.

        Args:
            order_id: The order.
            amount: How much.
        """
        return json.dumps({"refund_id": "R1"})

    return execute


def _checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(5).soft()


def _run(tmp_path: Path, amount: float) -> Any:
    outputs = [
        ModelOutput.for_tool_call(
            "mockllm/model", "lookup_order", {"order_id": "A1049"}, tool_call_id="c1"
        ),
        ModelOutput.for_tool_call(
            "mockllm/model",
            "issue_refund",
            {"order_id": "A1049", "amount": amount},
            tool_call_id="c2",
        ),
        ModelOutput.from_content("mockllm/model", f"Refunded {amount} for order A1049."),
    ]
    task = Task(
        dataset=[Sample(input="Refund order A1049", target="refund", id="refund-1")],
        solver=[use_tools(lookup_order(), issue_refund()), generate()],
        scorer=agent_asserts_scorer(_checks),
        name="refund",
    )
    model = get_model("mockllm/model", custom_outputs=outputs)
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    return log


def test_a_real_eval_scored_by_our_checks(tmp_path: Path) -> None:
    log = _run(tmp_path, 42)
    assert log.status == "success"
    (sample,) = log.samples
    score = sample.scores["agent_asserts"]
    assert score.value == "C"
    results = {r["name"]: (r["passed"], r["severity"]) for r in score.metadata["results"]}
    assert results == {
        "called_tool:lookup_order": (True, "gate"),
        "called_tool:issue_refund": (True, "gate"),
        "tool_order": (True, "gate"),
        "max_tool_calls:5": (True, "soft"),
    }
    assert score.explanation.startswith("PASSED _checks: 4 checks: 4 passed")
    assert log.results.scores[0].metrics["accuracy"].value == 1.0


def test_a_wrong_argument_is_incorrect_with_the_check_s_message(tmp_path: Path) -> None:
    log = _run(tmp_path, 40)
    score = log.samples[0].scores["agent_asserts"]
    assert score.value == "I"
    failed = [r for r in score.metadata["results"] if not r["passed"]]
    assert [r["name"] for r in failed] == ["called_tool:issue_refund"]
    assert failed[0]["reason"].startswith(
        "matched 0 tool calls of 1 'issue_refund' calls, expected at least 1; closest"
    )
    assert "FAILED _checks" in score.explanation


def test_a_finished_log_is_rescored_without_the_model(tmp_path: Path) -> None:
    log = _run(tmp_path, 42)
    [(sample_id, epoch, score)] = score_log(log.location, _checks)
    assert (sample_id, epoch, score.value) == ("refund-1", 1, "C")
    [(_, _, stricter)] = score_log(log, lambda ctx: ctx.called_tool("issue_refund", count=2))
    assert stricter.value == "I"
