"""The gemini adapter: ADK session events, contents (both key cases), eval sets, real types."""

from __future__ import annotations

import json

from adapter_checks import (
    PARTIAL_USAGE_VERDICTS,
    assert_conserved,
    assert_standard_run,
    fixture,
    load_json,
    suite_verdicts,
)
from google.genai import types

from agent_asserts import TrialRecord, iter_records
from agent_asserts.record.adapters import gemini

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("gemini"))
    assert_standard_run(record, invalid_arguments=False, timestamps=True)
    (handoff,) = [e for e in record.events if e.kind == "delegation"]
    assert (handoff.event_type, handoff.payload.mode, handoff.payload.from_agent) == (
        "transferred",
        "handoff",
        None,
    )
    memory = [e for e in record.events if e.kind == "memory"]
    assert [(m.payload.name, m.payload.value) for m in memory] == [("refund.order_id", "A1049")]
    assert record.final_state == {"refund.order_id": "A1049"}
    assert record.usage.details == {"thoughts_token_count": 8}
    assert record.tool_calls[0].duration == 0.5


def test_conservation() -> None:
    data = load_json(fixture("gemini"))
    positions = []
    for i, event in enumerate(data["events"]):  # type: ignore[index]
        positions += [
            f"$.events[{i}].content.parts[{j}]" for j in range(len(event["content"]["parts"]))
        ]
        if "actions" in event:
            positions.append(
                f"$.events[{i}].actions"
                + (".stateDelta" if "stateDelta" in event["actions"] else "")
            )
    assert_conserved(gemini.to_record(data), positions)


def test_contents_in_camel_and_snake_case_read_the_same() -> None:
    camel = load_json(fixture("gemini", "contents_rest.json"))
    snake = json.loads(
        json.dumps(camel)
        .replace("functionCall", "function_call")
        .replace("functionResponse", "function_response")
        .replace("usageMetadata", "usage_metadata")
        .replace("promptTokenCount", "prompt_token_count")
        .replace("candidatesTokenCount", "candidates_token_count")
        .replace("totalTokenCount", "total_token_count")
        .replace("modelVersion", "model_version")
    )
    one, two = gemini.to_record(camel), gemini.to_record(snake)
    assert [e.to_dict() for e in one.events] == [e.to_dict() for e in two.events]
    # only the final response carries usage: the budget is invalid, not judged on part of it
    assert suite_verdicts(one) == PARTIAL_USAGE_VERDICTS
    assert one.events[0].actor_ref == "system"


def test_an_eval_set_is_one_record_per_case() -> None:
    path = fixture("gemini", "evalset_snake.json")
    first, second = iter_records(path)
    assert first.initial_state == {"orders": {"A1049": "paid"}}
    assert first.metadata == {"eval_id": "refund_timeout", "format": "gemini"}
    assert [e.agent for e in first.events if e.kind == "message"] == [None, "billing", None]
    assert first.reply == REPLY
    refund = next(e for e in first.tool_calls if e.payload.name == "issue_refund")
    assert refund.payload.outcome == "failed"
    assert [e.payload.name for e in second.tool_calls] == ["greet"]
    camel = json.loads(
        json.dumps(load_json(path))
        .replace('"eval_cases"', '"evalCases"')
        .replace('"eval_set_id"', '"evalSetId"')
    )
    assert [r.reply for r in iter_records(camel)] == [REPLY, "Hello!"]


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = gemini.to_record(
        [
            {"role": "model", "parts": [{"functionCall": {"args": {}}}, 3]},
            {"role": "user", "parts": [{"functionResponse": "x"}]},
        ]
    )
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$[0].parts[0]", "a functionCall without a name"),
        ("$[0].parts[1]", "a part must be an object"),
        ("$[1].parts[0]", "a functionResponse must be an object"),
    ]


def test_an_intermediate_list_of_another_type_is_a_parse_error_with_where() -> None:
    case = {
        "eval_id": "c1",
        "conversation": [
            {
                "intermediate_data": {
                    "tool_uses": 7,
                    "tool_responses": "ab",
                    "intermediate_responses": {"a": 1},
                }
            }
        ],
    }
    (record,) = iter_records({"eval_set_id": "s", "eval_cases": [case]})
    at = "$.eval_cases[0].conversation[0].intermediate_data"
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        (f"{at}.tool_uses", "expected a list"),
        (f"{at}.tool_responses", "expected a list"),
        (f"{at}.intermediate_responses", "expected a list"),
    ]


def test_pairing_by_name_and_order_without_ids() -> None:
    record = gemini.to_record(
        [
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "a", "args": {}}},
                    {"functionCall": {"name": "a", "args": {"n": 2}}},
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "a", "response": {"output": 1}}}],
            },
        ]
    )
    first, second = record.tool_calls
    assert (first.payload.result, first.payload.outcome, second.payload.outcome) == (
        1,
        "succeeded",
        "pending",
    )


def test_data_made_by_google_genai() -> None:
    contents = [
        types.Content(role="user", parts=[types.Part(text="Refund order A1049")]),
        types.Content(
            role="model",
            parts=[
                types.Part(text="Check the order first.", thought=True),
                types.Part(
                    function_call=types.FunctionCall(
                        id="c1", name="lookup_order", args={"order_id": "A1049"}
                    )
                ),
                types.Part(
                    function_call=types.FunctionCall(
                        id="c2", name="issue_refund", args={"order_id": "A1049"}
                    )
                ),
            ],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="c1", name="lookup_order", response={"output": {"status": "paid"}}
                    )
                ),
                types.Part(
                    function_response=types.FunctionResponse(
                        id="c2", name="issue_refund", response={"error": "gateway timed out"}
                    )
                ),
            ],
        ),
    ]
    response = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(role="model", parts=[types.Part(text=REPLY)]),
                finish_reason=types.FinishReason.STOP,
            )
        ],
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=200, candidates_token_count=15, total_token_count=215
        ),
        model_version="gemini-2.5-flash",
    )
    for by_alias in (True, False):
        data = {
            "contents": [
                c.model_dump(mode="json", exclude_none=True, by_alias=by_alias) for c in contents
            ],
            "response": response.model_dump(mode="json", exclude_none=True, by_alias=by_alias),
        }
        record = TrialRecord.from_trace(data)
        assert suite_verdicts(record) == PARTIAL_USAGE_VERDICTS
        assert_standard_run(record, subagent=False, invalid_arguments=False, partial_usage=True)
