"""The ``openai-agents-run`` adapter (``RunState.to_json()``) and the Agents SDK's
``RunResult.to_input_list()`` read by ``openai-responses``: both made by a real
``Runner.run`` over a stub model, offline."""

from __future__ import annotations

import copy
from typing import Any

import format_runs
import pytest
from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import detect, openai_agents_run, openai_responses


def _state() -> dict[str, Any]:
    data = load_json(fixture("openai-agents-run", "run_state.json"))
    assert isinstance(data, dict)
    return data


def test_a_run_state_through_load_auto() -> None:
    record = TrialRecord.load(fixture("openai-agents-run", "run_state.json"))
    assert_standard_run(record, subagent=False, reasoning=False, invalid_arguments=False)
    (handoff,) = [e for e in record.events if e.kind == "delegation"]
    assert (handoff.payload.subagent, handoff.payload.mode) == ("Refund agent", "handoff")
    assert handoff.agent is None and record.metadata["agent"] == "Triage agent"
    lookup = next(e for e in record.tool_calls if e.payload.name == "lookup_order")
    assert lookup.agent == "Refund agent" and lookup.payload.result == {"status": "paid"}
    assert record.usage is not None and record.usage.total_tokens == 360
    assert record.usage.reported_by == openai_agents_run.REPORTED_BY
    (guardrail,) = [e for e in record.events if e.kind == "guardrail"]
    assert (guardrail.payload.name, guardrail.payload.triggered) == ("no_pii", False)


def test_conservation_every_item_response_and_guardrail_reaches_the_record() -> None:
    data = _state()
    positions = ["$.original_input"]
    positions += [f"$.generated_items[{i}].raw_item" for i in range(len(data["generated_items"]))]
    positions += [f"$.model_responses[{i}]" for i in range(len(data["model_responses"]))]
    positions += ["$.output_guardrail_results[0]"]
    assert_conserved(openai_agents_run.to_record(data), positions)


def test_the_input_list_is_read_by_openai_responses() -> None:
    data = load_json(fixture("openai-responses", "agents_sdk_input_list.json"))
    assert isinstance(data, list)
    assert detect(data) == "openai-responses"
    record = openai_responses.to_record(data)
    calls = [(c.payload.name, c.payload.call_id) for c in record.tool_calls]
    assert calls == [
        f(item)
        for item in data
        if item.get("type") == "function_call"
        for f in [lambda i: (i["name"], i["call_id"])]
    ]
    assert_conserved(record, [f"$[{i}]" for i in range(len(data))])
    assert record.reply == format_runs.REPLY


def test_a_live_run_of_the_real_sdk_reads_like_the_fixtures() -> None:
    input_list, state = format_runs.agents_run()
    fixture_state = TrialRecord.load(fixture("openai-agents-run", "run_state.json"))
    assert suite_verdicts(openai_agents_run.to_record(state)) == suite_verdicts(fixture_state)
    assert detect(state) == "openai-agents-run" and detect(input_list) == "openai-responses"


def test_the_sdk_default_failure_text_fails_the_call() -> None:
    data = _state()
    output = data["generated_items"][5]
    assert output["raw_item"]["call_id"] == "call_2"
    text = "An error occurred while running the tool. Please try again. Error: timed out"
    output["raw_item"]["output"] = output["output"] = text
    refund = next(
        e for e in openai_agents_run.to_record(data).tool_calls if e.payload.call_id == "call_2"
    )
    assert (refund.payload.outcome, refund.payload.error_message) == ("failed", text)


def test_interruptions_unknown_items_and_bad_data() -> None:
    data = copy.deepcopy(_state())
    data["current_step"] = {"type": "next_step_interruption", "interruptions": [{"type": "x"}]}
    data["generated_items"].append({"type": "mcp_approval_request_item", "raw_item": {"type": "x"}})
    data["generated_items"].append("oops")
    record = openai_agents_run.to_record(data)
    assert record.status == "incomplete"
    assert [p.reason for p in record.parse_errors] == [
        "a RunState item of type 'mcp_approval_request_item' is not read",
        "not a RunState item (a type and a raw_item)",
    ]
    with pytest.raises(RecordError, match=r"expected a RunState\.to_json\(\) object"):
        openai_agents_run.to_record({"generated_items": []})
