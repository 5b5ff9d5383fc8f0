"""The ``langsmith`` adapter: run trees and flat run lists made by LangChain and LangSmith."""

from __future__ import annotations

import copy
import json
from typing import Any

import format_runs
import pytest
from adapter_checks import assert_standard_run, fixture, load_json, suite_verdicts

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import detect, langsmith

SHAPES = ["run_tree.json", "runs_flat.json"]


@pytest.mark.parametrize("name", SHAPES)
def test_standard_run_through_load_auto(name: str) -> None:
    record = TrialRecord.load(fixture("langsmith", name))
    assert_standard_run(record, subagent=False, reasoning=False, invalid_arguments=False)
    assert record.metadata["agent"] == "refund_agent"
    assert record.usage is not None and record.usage.total_tokens == 295
    refund = next(e for e in record.tool_calls if e.payload.name == "issue_refund").payload
    assert refund.error_message == format_runs.GATEWAY_ERROR and refund.call_id == "call_2"


def _runs(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, list):
        return data
    out, todo = [], [data]
    while todo:
        run = todo.pop()
        out.append(run)
        todo.extend(run.get("child_runs") or [])
    return out


@pytest.mark.parametrize("name", SHAPES)
def test_conservation_every_run_is_an_event_or_the_record_itself(name: str) -> None:
    data = load_json(fixture("langsmith", name))
    record = langsmith.to_record(data)
    ids = {e.event_id for e in record.events}
    runs = _runs(data)
    missing = [r["name"] for r in runs if r["id"] not in ids]
    assert missing == ["refund_agent"]  # the root run is the record itself
    calls = [(c.payload.name, c.payload.arguments) for c in record.tool_calls]
    tool_runs = [(r["name"], r["inputs"]) for r in runs if r["run_type"] == "tool"]
    assert sorted(calls, key=str) == sorted(tool_runs, key=str)


def test_live_run_of_the_real_library_reads_like_the_fixture() -> None:
    live = langsmith.to_record(format_runs.langsmith_tree())
    assert suite_verdicts(live) == suite_verdicts(TrialRecord.load(fixture("langsmith", SHAPES[0])))
    assert detect(format_runs.langsmith_flat()) == "langsmith"


def test_openai_messages_of_a_traceable_llm_run() -> None:
    from langsmith.run_trees import RunTree

    root = RunTree(name="bot", run_type="chain", inputs={"question": "Refund A1"})
    ask = {"role": "user", "content": "Refund A1"}
    llm = root.create_child(
        name="ChatOpenAI",
        run_type="llm",
        inputs={"messages": [ask], "model": "gpt-4o"},
        extra={"metadata": {"ls_model_name": "gpt-4o"}},
    )
    call = {"id": "c1", "type": "function", "function": {"name": "refund", "arguments": "{"}}
    message = {"role": "assistant", "content": "Refunding.", "tool_calls": [call]}
    usage = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    llm.end(outputs={"choices": [{"message": message}], "usage": usage})
    root.end(outputs={"answer": "Refunding."})
    data = json.loads(format_runs._run(root, True).model_dump_json())
    record = langsmith.to_record(data)
    (pending,) = record.tool_calls
    assert (pending.payload.name, pending.payload.outcome) == ("refund", "pending")
    assert pending.payload.arguments_raw == "{"
    assert record.events[0].payload.text == "Refund A1"
    model = next(e for e in record.events if e.kind == "model_call").payload
    assert (model.model, model.usage.total_tokens) == ("gpt-4o", 12)
    assert record.reply == "Refunding."


def test_a_failed_root_fails_the_run_and_bad_runs_are_parse_errors() -> None:
    data = copy.deepcopy(load_json(fixture("langsmith", "runs_flat.json")))
    assert isinstance(data, list)
    root = next(r for r in data if r["parent_run_id"] is None)
    root["error"] = "RateLimitError"
    data.append({"run_type": "tool", "inputs": {}, "parent_run_id": root["id"], "id": None})
    record = langsmith.to_record(data)
    assert record.status == "failed"
    assert [p.reason for p in record.parse_errors] == ["a run needs to be an object with an 'id'"]


def test_several_traces_one_record_each() -> None:
    first = load_json(fixture("langsmith", "run_tree.json"))
    second = copy.deepcopy(first)
    assert isinstance(second, dict)
    second["id"] = second["trace_id"] = "other"
    records = list(langsmith.to_records([first, second]))
    assert [r.metadata["trace_id"] for r in records][1] == "other"
    with pytest.raises(RecordError, match="traces; read them with to_records"):
        langsmith.to_record([first, second])
    with pytest.raises(RecordError, match="expected a LangSmith run"):
        list(langsmith.to_records(3))


def test_langchain_messages_of_llm_runs_as_langchain_tracer_writes_them() -> None:
    """Two llm runs, no tool run: the call the first asked for is paired with the result the
    second one's input history holds (by call id)."""
    from langchain_core.load import dumpd
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    ask = AIMessage("", tool_calls=[{"name": "refund", "args": {"id": "A1"}, "id": "c1"}])
    history = [HumanMessage("Refund A1"), ask, ToolMessage("gateway timed out", tool_call_id="c1")]
    usage = {"input_tokens": 7, "output_tokens": 2, "total_tokens": 9}
    reply = AIMessage("It failed.", usage_metadata=usage)

    def llm(run_id: str, inputs: list[Any], output: Any) -> dict[str, Any]:
        generation = {"text": output.content, "message": dumpd(output)}
        return {
            "id": run_id,
            "run_type": "llm",
            "parent_run_id": "r",
            "trace_id": "r",
            "start_time": f"2026-08-01T12:00:0{run_id[-1]}Z",
            "inputs": {"messages": [[dumpd(m) for m in inputs]]},
            "outputs": {"generations": [[generation]]},
        }

    runs = [
        {"id": "r", "run_type": "chain", "name": "bot", "trace_id": "r", "inputs": {}},
        llm("l1", history[:1], ask),
        llm("l2", history, reply),
    ]
    record = langsmith.to_record(runs)
    (call,) = record.tool_calls
    found = (call.payload.name, call.payload.call_id, call.payload.arguments, call.payload.result)
    assert found == ("refund", "c1", {"id": "A1"}, "gateway timed out")
    assert record.events[0].payload.text == "Refund A1" and record.reply == "It failed."
    # only the second llm run carries usage: the run has none (docs/record.md, partial data)
    assert record.usage is None and record.run_usage is None
    models = [e.payload for e in record.events if e.kind == "model_call"]
    assert [None if m.usage is None else m.usage.total_tokens for m in models] == [None, 9]
