"""The pydantic-evals evaluator, end to end: a real ``Dataset.evaluate`` over a pydantic-ai
agent run with a scripted ``FunctionModel`` (offline), from Python and from a dataset file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_evals")  # the pydantic-evals extra (in the test extra)

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_evals import Case, Dataset

from agent_asserts.integrations.pydantic_evals import AgentAsserts


def _scripted(amount: int) -> FunctionModel:
    """A model that looks the order up, refunds ``amount``, then answers."""

    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        done = [
            p for m in messages for p in getattr(m, "parts", ()) if p.part_kind == "tool-return"
        ]
        if not done:
            return ModelResponse(parts=[ToolCallPart("lookup_order", {"order_id": "A1049"}, "c1")])
        if len(done) == 1:
            return ModelResponse(
                parts=[ToolCallPart("issue_refund", {"order_id": "A1049", "amount": amount}, "c2")]
            )
        return ModelResponse(parts=[TextPart(f"Refunded {amount} for order A1049.")])

    return FunctionModel(reply)


def _agent(amount: int) -> Agent[None, str]:
    agent = Agent(_scripted(amount))

    @agent.tool_plain
    def lookup_order(order_id: str) -> dict[str, Any]:
        return {"order_id": order_id, "total": 42}

    @agent.tool_plain
    def issue_refund(order_id: str, amount: int) -> dict[str, Any]:
        return {"refund_id": "R1", "amount": amount}

    return agent


def _refund_checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(5).soft()


def _task(amount: int) -> Any:
    async def run(question: str) -> Any:
        return await _agent(amount).run(question)

    return run


def test_the_evaluator_in_a_real_dataset_run() -> None:
    dataset = Dataset(
        name="refunds",
        cases=[Case(name="refund", inputs="Refund order A1049")],
        evaluators=[AgentAsserts(_refund_checks)],
    )
    good = dataset.evaluate_sync(_task(42), progress=False)
    [case] = good.cases
    assertions = {name: (r.value, r.reason) for name, r in case.assertions.items()}
    assert assertions["called_tool:lookup_order"] == (True, "matched 1 tool calls (evidence: e2)")
    assert assertions["tool_order"][0] is True
    assert assertions["verdict"][0] is True
    assert case.scores["max_tool_calls:5"].value == 1.0

    bad = dataset.evaluate_sync(_task(40), progress=False)
    [case] = bad.cases
    value, reason = (
        case.assertions["called_tool:issue_refund"].value,
        case.assertions["called_tool:issue_refund"].reason,
    )
    assert value is False
    assert reason is not None and reason.startswith(
        "matched 0 tool calls of 1 'issue_refund' calls, expected at least 1"
    )
    assert case.assertions["verdict"].value is False


def test_the_evaluator_from_a_dataset_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("refund.suite.yml").write_text(
        "checks:\n"
        "  - called_tool: {name: issue_refund, arguments: {amount: 42}}\n"
        "  - not_called_tool: cancel_order\n"
    )
    Path("cases.yaml").write_text(
        "cases:\n"
        "  - name: refund\n"
        "    inputs: Refund order A1049\n"
        "evaluators:\n"
        "  - AgentAsserts: refund.suite.yml\n"
    )
    dataset = Dataset[str, Any, Any].from_file("cases.yaml", custom_evaluator_types=[AgentAsserts])
    [case] = dataset.evaluate_sync(_task(42), progress=False).cases
    assert {n: r.value for n, r in case.assertions.items()} == {
        "called_tool:issue_refund": True,
        "not_called_tool:cancel_order": True,
        "verdict": True,
    }


def test_an_output_that_is_no_run_is_an_evaluator_failure() -> None:
    dataset = Dataset(
        name="text",
        cases=[Case(name="text", inputs="hi")],
        evaluators=[AgentAsserts(_refund_checks)],
    )

    async def plain(question: str) -> str:
        return "just text"

    report = dataset.evaluate_sync(plain, progress=False)
    [case] = report.cases
    assert case.assertions == {}
    [failure] = case.evaluator_failures
    assert "cannot tell the trace format" in failure.error_message or failure.error_message
