"""The LangSmith / openevals evaluator with the real types, offline: run trees built by
``@traceable`` functions (a chain with child LLM and tool runs) under ``tracing_context(
enabled="local")`` and a client that never sends; called as LangSmith calls run evaluators
(``run=``, ``example=``; ``run_evaluator``; a whole ``evaluate(..., upload_results=False)``)
and as openevals calls its evaluators (``outputs=``, ``reference_outputs=``), beside openevals'
own trajectory match evaluator."""

from __future__ import annotations

import asyncio
import json
import socket
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langsmith")  # the langsmith extra (in the test extra)
pytest.importorskip("openevals")  # the openevals extra (in the test extra)

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langsmith import Client, aevaluate, evaluate, traceable
from langsmith.evaluation import run_evaluator
from langsmith.run_helpers import tracing_context
from langsmith.run_trees import RunTree
from langsmith.schemas import Example
from openevals.trajectory.match import create_trajectory_match_evaluator

from agent_asserts import TrialRecord
from agent_asserts.integrations.langsmith import (
    AgentAssertsEvaluator,
    agent_asserts_evaluator,
)


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No connection and no name lookup: any attempt to reach LangSmith fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"network use in an offline test: {args[1:] or args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.fixture
def client() -> Iterator[Client]:
    """A client that sends nothing: no background batch thread, an address never used."""
    local = Client(api_url="http://127.0.0.1:9", api_key="offline", auto_batch_tracing=False)
    yield local
    local.cleanup()


# ---- a small agent traced by LangSmith: a chain whose child runs are an LLM and two tools ----


@traceable(run_type="tool", name="lookup_order")
def lookup_order(order_id: str) -> dict[str, Any]:
    return {"order_id": order_id, "total": 42}


@traceable(run_type="tool", name="issue_refund")
def issue_refund(order_id: str, amount: int) -> dict[str, Any]:
    if amount > 100:
        raise ValueError("refund over the limit")
    return {"refund_id": "R1", "amount": amount}


TOOLS: dict[str, Callable[..., Any]] = {"lookup_order": lookup_order, "issue_refund": issue_refund}


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"id": call_id, "type": "function", "function": function}


def _model(amount: int) -> Callable[..., dict[str, Any]]:
    """A scripted chat model, traced as an ``llm`` run: lookup, refund ``amount``, answer."""

    @traceable(
        run_type="llm",
        name="ChatModel",
        metadata={"ls_provider": "openai", "ls_model_name": "gpt-4o-mini"},
    )
    def chat(messages: list[dict[str, Any]]) -> dict[str, Any]:
        done = sum(1 for m in messages if m["role"] == "tool")
        message: dict[str, Any] = {"role": "assistant", "content": ""}
        if done == 0:
            message["tool_calls"] = [_call("c1", "lookup_order", {"order_id": "A1049"})]
        elif done == 1:
            message["tool_calls"] = [
                _call("c2", "issue_refund", {"order_id": "A1049", "amount": amount})
            ]
        else:
            message["content"] = f"Refunded {amount} for order A1049."
        usage = {"prompt_tokens": 20 + 10 * done, "completion_tokens": 5, "total_tokens": 0}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return {"choices": [{"message": message, "finish_reason": "stop"}], "usage": usage}

    return chat


def _agent(amount: int) -> Callable[..., dict[str, Any]]:
    chat = _model(amount)

    @traceable(name="refund_agent")
    def agent(question: str) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
        while True:
            # a copy: a local run keeps its inputs by reference
            message = chat(list(messages))["choices"][0]["message"]
            messages.append(message)
            if not message.get("tool_calls"):
                return {"answer": message["content"], "messages": messages}
            for call in message["tool_calls"]:
                function = call["function"]
                try:
                    result: Any = TOOLS[function["name"]](**json.loads(function["arguments"]))
                except ValueError as error:
                    result = {"error": str(error)}
                messages.append(
                    {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(result)}
                )

    return agent


def _traced(client: Client, amount: int = 42) -> RunTree:
    """The run tree of one agent run, built locally (nothing is sent)."""
    runs: list[RunTree] = []
    with tracing_context(enabled="local", client=client):
        _agent(amount)("Refund order A1049", langsmith_extra={"on_end": runs.append})
    [run] = runs
    return run


def _example(outputs: dict[str, Any] | None = None) -> Example:
    return Example(
        id=uuid.uuid4(),
        dataset_id=uuid.uuid4(),
        inputs={"question": "Refund order A1049"},
        outputs=outputs or {},
        created_at=datetime.now(UTC),
    )


def refund_checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(3).soft()


def _by_key(results: list[dict[str, Any]]) -> dict[str, tuple[Any, str]]:
    return {r["key"]: (r["score"], r["comment"]) for r in results}


# ---- the run tree ----


def test_a_run_tree_is_read_with_its_child_llm_and_tool_runs(client: Client) -> None:
    run = _traced(client)
    assert [child.run_type for child in run.child_runs] == ["llm", "tool", "llm", "tool", "llm"]
    record = TrialRecord.from_trace(run)
    calls = [(e.payload.name, e.payload.arguments) for e in record.tool_calls]
    assert calls == [
        ("lookup_order", {"order_id": "A1049"}),
        ("issue_refund", {"order_id": "A1049", "amount": 42}),
    ]
    assert record.metadata["format"] == "langsmith"
    assert record.usage is not None and record.usage.total_tokens == 105
    assert record.reply == "Refunded 42 for order A1049."


# ---- as LangSmith calls run evaluators ----


def test_called_as_a_langsmith_run_evaluator(client: Client) -> None:
    evaluator = agent_asserts_evaluator(refund_checks)
    results = evaluator(run=_traced(client), example=_example())
    assert [r["key"] for r in results] == [
        "called_tool:lookup_order",
        "called_tool:issue_refund",
        "tool_order",
        "max_tool_calls:3",
        "verdict",
    ]
    got = _by_key(results)
    assert got["called_tool:lookup_order"][0] is True
    assert got["tool_order"][0] is True
    assert got["max_tool_calls:3"][0] == 1.0
    assert got["verdict"] == (True, "PASSED refund_checks: 4 checks: 4 passed; score 1.00")
    assert results[0]["metadata"]["status"] == "pass"
    assert results[3]["metadata"]["severity"] == "soft"


def test_langsmith_run_evaluator_wraps_it_and_takes_its_results(client: Client) -> None:
    """LangSmith's own wrapper reads our keyword signature and accepts the list of results."""
    wrapped = run_evaluator(agent_asserts_evaluator(refund_checks))
    with tracing_context(enabled=False):
        evaluated = wrapped.evaluate_run(_traced(client, amount=40), _example())
    assert isinstance(evaluated, dict)
    scores = {r.key: (r.score, r.comment) for r in evaluated["results"]}
    assert scores["called_tool:issue_refund"][0] is False
    assert "$.arguments.amount: expected 42, got 40" in str(scores["called_tool:issue_refund"][1])
    assert scores["called_tool:lookup_order"][0] is True
    assert scores["verdict"][0] is False
    assert str(scores["verdict"][1]).startswith(
        "FAILED refund_checks: 4 checks: 3 passed, 1 failed"
    )


def test_a_gate_failure_scores_false_even_when_its_score_is_partial(client: Client) -> None:
    """A reversed order is a failure, never half a pass."""

    def order(ctx: Any) -> None:
        ctx.matches_trajectory(["issue_refund", "lookup_order"], arguments="ignore")

    got = _by_key(agent_asserts_evaluator(order)(run=_traced(client)))
    score, comment = got["matches_trajectory"]
    assert score is False
    assert comment.startswith("the run does not match the reference (order 'strict'")


def test_a_failed_tool_run_is_a_failed_call(client: Client) -> None:
    def succeeded(ctx: Any) -> None:
        ctx.called_tool("issue_refund")
        ctx.no_failed_actions()

    run = _traced(client, amount=500)
    got = _by_key(agent_asserts_evaluator(succeeded)(run=run))
    assert got["called_tool:issue_refund"][0] is True
    assert got["no_failed_actions"][0] is False
    assert got["no_failed_actions"][1].startswith("1 failed tool call (")
    [refund] = [e.payload for e in TrialRecord.from_trace(run).tool_calls][1:]
    assert refund.outcome == "failed"
    assert str(refund.error_message).startswith("ValueError('refund over the limit')")


@pytest.mark.filterwarnings("ignore:'upload_runs' parameter is in beta")
def test_a_whole_langsmith_evaluate_offline(client: Client) -> None:
    """``evaluate`` with local examples and ``upload_results=False`` runs without the network:
    the target's run tree reaches the evaluator, our results become its feedback."""
    good, wrong = _agent(42), _agent(40)

    def target(inputs: dict[str, Any]) -> dict[str, Any]:
        agent = good if inputs["question"].endswith("A1049") else wrong
        return agent("Refund order A1049")

    examples = [
        _example({"trajectory": ["lookup_order", "issue_refund"]}),
        Example(
            id=uuid.uuid4(),
            dataset_id=uuid.uuid4(),
            inputs={"question": "Refund order A1049 (again)"},
            outputs={"trajectory": ["issue_refund"]},
            created_at=datetime.now(UTC),
        ),
    ]
    evaluator = agent_asserts_evaluator(refund_checks, trajectory="superset", arguments="ignore")
    rows = list(
        evaluate(target, data=examples, evaluators=[evaluator], client=client, upload_results=False)
    )
    verdicts = {}
    for row in rows:
        feedback = {r.key: r for r in row["evaluation_results"]["results"]}
        assert isinstance(row["run"], RunTree) and row["run"].child_runs
        assert feedback["matches_trajectory"].score is True
        verdicts[row["example"].inputs["question"]] = (
            feedback["called_tool:issue_refund"].score,
            feedback["verdict"].score,
        )
    assert verdicts == {
        "Refund order A1049": (True, True),
        "Refund order A1049 (again)": (False, False),
    }


@pytest.mark.filterwarnings("ignore:'upload_runs' parameter is in beta")
def test_langsmith_aevaluate_calls_it_too(client: Client) -> None:
    """The async ``aevaluate`` runs the (sync) evaluator in a worker thread: same results."""
    agent = _agent(40)

    async def target(inputs: dict[str, Any]) -> dict[str, Any]:
        return agent(inputs["question"])

    async def run() -> list[Any]:
        results = await aevaluate(
            target,
            data=[_example()],
            evaluators=[agent_asserts_evaluator(refund_checks)],
            client=client,
            upload_results=False,
        )
        return [row async for row in results]

    [row] = asyncio.run(run())
    scores = {r.key: r.score for r in row["evaluation_results"]["results"]}
    assert scores == {
        "called_tool:lookup_order": True,
        "called_tool:issue_refund": False,
        "tool_order": True,
        "max_tool_calls:3": 1.0,
        "verdict": False,
    }


# ---- as openevals calls evaluators ----

REFERENCE = [
    {"role": "user", "content": "Refund order A1049"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [_call("r1", "lookup_order", {"order_id": "A1049"})],
    },
    {"role": "tool", "tool_call_id": "r1", "content": '{"total": 42}'},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [_call("r2", "issue_refund", {"order_id": "A1049", "amount": 42})],
    },
    {"role": "tool", "tool_call_id": "r2", "content": '{"refund_id": "R1"}'},
    {"role": "assistant", "content": "Refunded 42 for order A1049."},
]


def _langchain_run(amount: int, *, reversed_order: bool = False) -> list[Any]:
    """The same run as LangChain message objects (what a LangGraph agent returns)."""
    lookup = {"name": "lookup_order", "args": {"order_id": "A1049"}, "id": "c1"}
    refund = {"name": "issue_refund", "args": {"order_id": "A1049", "amount": amount}, "id": "c2"}
    first, second = (refund, lookup) if reversed_order else (lookup, refund)
    return [
        HumanMessage("Refund order A1049"),
        AIMessage("", tool_calls=[first]),
        ToolMessage('{"ok": true}', tool_call_id=first["id"]),
        AIMessage("", tool_calls=[second]),
        ToolMessage('{"ok": true}', tool_call_id=second["id"]),
        AIMessage(f"Refunded {amount} for order A1049."),
    ]


def test_called_as_openevals_calls_evaluators_beside_its_trajectory_match() -> None:
    theirs = create_trajectory_match_evaluator(trajectory_match_mode="strict")
    ours = agent_asserts_evaluator(refund_checks, trajectory="strict")

    outputs = {"messages": _langchain_run(42)}
    mine = _by_key(ours(outputs=outputs, reference_outputs={"messages": REFERENCE}))
    other = theirs(outputs=outputs, reference_outputs={"messages": REFERENCE})
    assert isinstance(other, dict)
    assert (other["key"], other["score"]) == ("trajectory_strict_match", True)
    assert mine["matches_trajectory"][0] is True
    assert mine["verdict"][0] is True

    reversed_run = _langchain_run(42, reversed_order=True)
    other = theirs(outputs=reversed_run, reference_outputs=REFERENCE)
    mine = _by_key(ours(outputs=reversed_run, reference_outputs=REFERENCE))
    assert isinstance(other, dict) and other["score"] is False
    assert mine["matches_trajectory"][0] is False
    assert mine["tool_order"][0] is False
    assert mine["tool_order"][1] == (
        "step 2 'issue_refund' was not found after e4 (step 1 'lookup_order') (evidence: e4)"
    )
    assert mine["verdict"][0] is False


def test_what_a_trajectory_match_cannot_say() -> None:
    """A wrong amount: openevals' superset match with arguments ignored passes it; our check
    of the argument fails it, with the mismatch."""
    theirs = create_trajectory_match_evaluator(
        trajectory_match_mode="superset", tool_args_match_mode="ignore"
    )
    run = _langchain_run(40)
    other = theirs(outputs=run, reference_outputs=REFERENCE)
    assert isinstance(other, dict) and other["score"] is True
    mine = _by_key(agent_asserts_evaluator(refund_checks)(outputs=run))
    assert mine["called_tool:issue_refund"] == (
        False,
        "matched 0 tool calls of 1 'issue_refund' calls, expected at least 1; "
        "closest e4: $.arguments.amount: expected 42, got 40 (evidence: e4)",
    )


def test_invalid_is_never_a_pass() -> None:
    """Plain messages record no usage: a token budget is invalid — a gate scores False, a soft
    check 0.0, the comment says invalid."""

    def budget(ctx: Any) -> None:
        ctx.total_tokens_at_most(1000)
        ctx.total_tokens_at_most(2000).soft()

    results = agent_asserts_evaluator(budget)(outputs=REFERENCE)
    gate, soft, verdict = results
    assert (gate["score"], soft["score"]) == (False, 0.0)
    assert gate["comment"].startswith("invalid: ")
    assert gate["metadata"]["status"] == "invalid"
    assert [gate["key"], soft["key"]] == ["total_tokens_at_most:1000", "total_tokens_at_most:2000"]
    assert verdict["score"] is False


def test_an_example_without_a_reference_trajectory_makes_the_match_invalid() -> None:
    results = agent_asserts_evaluator(refund_checks, trajectory="unordered")(
        outputs=REFERENCE, reference_outputs={"answer": "Refunded."}
    )
    got = _by_key(results)
    assert got["matches_trajectory"] == (
        False,
        "invalid: the example records no reference trajectory: reference_outputs holds keys "
        "'answer', not a list of calls or messages or a 'trajectory' or 'messages' key",
    )
    assert got["verdict"][0] is False


def test_reference_calls_with_arguments() -> None:
    reference = {
        "trajectory": [
            {"name": "lookup_order"},
            {"name": "issue_refund", "arguments": {"amount": 42}},
        ]
    }
    ours = agent_asserts_evaluator(refund_checks, trajectory="strict", arguments="superset")
    assert _by_key(ours(outputs=REFERENCE, reference_outputs=reference))["matches_trajectory"][0]
    assert not _by_key(ours(outputs=_langchain_run(40), reference_outputs=reference))[
        "matches_trajectory"
    ][0]


def test_argument_modes_per_tool() -> None:
    """openevals' ``tool_args_match_overrides``: here ``tools=``, a mode per tool name."""
    ours = agent_asserts_evaluator(
        refund_checks, trajectory="strict", tools={"issue_refund": "ignore"}
    )
    got = _by_key(ours(outputs=_langchain_run(40), reference_outputs=REFERENCE))
    assert got["matches_trajectory"][0] is True
    assert got["called_tool:issue_refund"][0] is False


def test_a_suite_file_and_repeated_names(tmp_path: Path) -> None:
    suite = tmp_path / "refund.suite.yml"
    suite.write_text(
        "name: refund\n"
        "cases:\n"
        "  - name: refund\n"
        "    checks:\n"
        "      - called_tool: {name: issue_refund, arguments: {amount: 42}}\n"
        "      - called_tool: {name: issue_refund, arguments: {order_id: A1049}}\n"
    )
    results = agent_asserts_evaluator(str(suite))(outputs=REFERENCE)
    assert [(r["key"], r["score"]) for r in results] == [
        ("called_tool:issue_refund", True),
        ("called_tool:issue_refund#2", True),
        ("verdict", True),
    ]


def test_a_run_that_cannot_be_read_is_a_failed_case_that_says_why() -> None:
    """Not an exception LangSmith would only log: a failed ``verdict`` with the reason."""
    evaluator = agent_asserts_evaluator(refund_checks, trajectory="strict")
    unreadable, verdict = evaluator(outputs={"answer": "Refunded."})
    assert (unreadable["key"], unreadable["score"]) == ("evaluation", False)
    assert unreadable["comment"].startswith(
        "evaluator_error: cannot read the run: invalid record: 1 problem(s) $: cannot tell the "
        "trace format: no format matches (looked at top-level keys 'answer')"
    )
    assert (verdict["key"], verdict["score"]) == ("verdict", False)
    [nothing, _] = evaluator(inputs={"question": "Refund order A1049"})
    assert nothing["comment"] == (
        "evaluator_error: cannot read the run: invalid record: 1 problem(s) outputs: $: no run "
        "to check: pass outputs= (a message list, a run tree, any trace) or run="
    )


def test_a_reference_that_cannot_be_read_makes_the_match_invalid() -> None:
    evaluator = agent_asserts_evaluator(refund_checks, trajectory="strict")
    got = _by_key(evaluator(outputs=REFERENCE, reference_outputs={"trajectory": [1, 2]}))
    score, comment = got["matches_trajectory"]
    assert score is False
    assert comment.startswith(
        "invalid: cannot read the reference trajectory: invalid record: 1 problem(s) "
        "reference_outputs: $: neither a list of reference calls (reference[0]: must be a tool "
        "name, a {name, arguments} mapping or a (name, arguments) pair (got 1)) nor a trace "
        "(cannot tell the trace format"
    )
    assert got["called_tool:issue_refund"][0] is True


def test_wrong_arguments_are_a_clear_error_at_once() -> None:
    with pytest.raises(ValueError, match="parameter 'order' takes one of"):
        agent_asserts_evaluator(refund_checks, trajectory="exact")
    with pytest.raises(ValueError, match="parameter 'arguments' takes 'exact'"):
        agent_asserts_evaluator(refund_checks, trajectory="strict", arguments="loose")
    with pytest.raises(TypeError, match="checks must be a case function"):
        AgentAssertsEvaluator(42)
