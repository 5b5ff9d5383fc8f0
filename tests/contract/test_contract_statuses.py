"""Distinct statuses (pass, fail, not_applicable, invalid, evaluator_error) and evidence."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from agent_asserts import evaluate_contract
from agent_asserts.contract import register_matcher, unregister_matcher
from agent_asserts.judges import JudgeResponse
from agent_asserts.record import TrialRecord
from agent_asserts.results import Severity, Status

REFUND = {
    "initial_state": {"orders": {"A1": {"status": "paid", "items": [1, 2]}}},
    "final_state": {"orders": {"A1": {"status": "refunded", "items": [1, 2]}, "B2": {"x": 1}}},
    "surfaces": ["message", "tool_call", "mutation"],
    "events": [
        {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1"}},
        {"kind": "tool_call", "payload": {"name": "refund", "arguments": {"id": "A1"}}},
        {"kind": "message", "actor_ref": "agent", "payload": {"text": "Refunded A1"}},
    ],
}


def _rec(**changes: Any) -> TrialRecord:
    return TrialRecord.from_dict({**REFUND, **changes})


def _one(record: TrialRecord, bind: dict[str, Any], require: dict[str, Any], **extra: Any) -> Any:
    assertion = {"id": "a", "bind": bind, "require": require, **extra}
    (result,) = evaluate_contract(record, {"contract": "c", "assertions": [assertion]})
    return result


STATUS = {"s": {"from": "final_state", "path": "/orders/A1/status"}}


def test_invalid_without_a_final_state() -> None:
    result = _one(_rec(final_state=None), STATUS, {"op": "equals", "left": "s", "right": "x"})
    assert result.status is Status.INVALID
    assert result.message == "the record has no final state (binding 's')"


def test_invalid_on_a_missing_path_unless_absence_is_expected() -> None:
    bind = {"s": {"from": "final_state", "path": "/orders/Z9/status"}}
    result = _one(_rec(), bind, {"op": "equals", "left": "s", "right": "x"})
    assert result.status is Status.INVALID
    assert result.message == "the path 'final_state#/orders/Z9/status' does not exist"
    assert result.evidence == ("final_state#/orders/Z9/status",)
    absent = {"op": "matcher", "matcher": "structural", "left": "s", "right": {"$absent": True}}
    assert _one(_rec(), bind, absent).status is Status.PASS


def test_invalid_on_an_unrecorded_surface() -> None:
    bind = {"m": {"from": "trace", "where": {"kind": "memory"}}}
    result = _one(_rec(), bind, {"op": "contains", "left": "m", "right": "x", "quantifier": "none"})
    assert result.status is Status.INVALID
    assert result.message.startswith("the record has no 'memory' surface")


def test_invalid_when_an_extract_path_is_missing() -> None:
    bind = {"m": {"from": "trace", "where": {"kind": "message"}, "extract": "payload.nope"}}
    result = _one(_rec(), bind, {"op": "equals", "left": "m", "right": "x"})
    assert result.status is Status.INVALID
    assert result.message == "e0 has no value at payload.nope (extract of binding 'm')"


def test_invalid_without_monotonic_time() -> None:
    bind = {
        "asks": {"from": "trace", "where": {"kind": "message", "actor_ref": "user"}},
        "tools": {"from": "trace", "where": {"kind": "tool_call"}},
    }
    require = {"op": "follows_within", "left": "asks", "right": "tools", "within": "500ms"}
    result = _one(_rec(), bind, require)
    assert result.status is Status.INVALID
    assert result.message == (
        "follows_within needs monotonic_time on every event; 'asks' has events without one: e0"
    )


def test_invalid_without_the_jsonschema_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_jsonschema(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "jsonschema":
            raise ImportError("no jsonschema")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jsonschema)
    bind = {"m": {"from": "trace", "where": {"kind": "message"}}}
    result = _one(_rec(), bind, {"op": "matches_schema", "left": "m", "right": {"type": "object"}})
    assert result.status is Status.INVALID
    assert "pip install 'agent-asserts[jsonschema]'" in result.message


def test_matches_schema_names_the_failing_path() -> None:
    bind = {"calls": {"from": "trace", "where": {"kind": "tool_call"}, "extract": "payload"}}
    schema = {"type": "object", "properties": {"arguments": {"required": ["amount"]}}}
    result = _one(_rec(), bind, {"op": "matches_schema", "left": "calls", "right": schema})
    assert result.status is Status.FAIL
    assert result.message.endswith("e1: $.arguments: 'amount' is a required property")


def test_not_applicable_when_the_condition_does_not_pass() -> None:
    when = {
        "bind": {
            "refunds": {
                "from": "trace",
                "where": {"kind": "tool_call", "payload": {"name": "cancel"}},
            }
        },
        "require": {"op": "contains", "left": "refunds", "right": "x", "quantifier": "none"},
    }
    require = {"op": "equals", "left": "s", "right": "cancelled"}
    applies = _one(_rec(), STATUS, require, when=when)
    assert applies.status is Status.FAIL  # none over nothing passes: the condition holds
    when["require"]["quantifier"] = "some"
    skipped = _one(_rec(), STATUS, require, when=when)
    assert skipped.status is Status.NOT_APPLICABLE
    assert skipped.message == "when: selection 'refunds' is empty"
    assert not skipped.failed


def test_a_condition_that_cannot_be_evaluated_makes_the_assertion_invalid() -> None:
    when = {"require": {"op": "equals", "left": "s", "right": "refunded"}}
    result = _one(
        _rec(final_state=None), STATUS, {"op": "equals", "left": "s", "right": "x"}, when=when
    )
    assert result.status is Status.INVALID
    assert result.message == "when: the record has no final state (binding 's')"


def test_evaluator_error_when_a_custom_matcher_raises() -> None:
    def broken(actual: Any, expected: Any) -> bool:
        raise ValueError("boom")

    register_matcher("broken", broken)
    try:
        bind = {"m": {"from": "trace", "where": {"kind": "message"}}}
        require = {
            "op": "matcher",
            "matcher": "custom",
            "custom": "broken",
            "left": "m",
            "right": None,
        }
        result = _one(_rec(), bind, require)
    finally:
        unregister_matcher("broken")
    assert result.status is Status.EVALUATOR_ERROR
    assert result.message == "custom matcher 'broken' raised ValueError: boom (e0)"
    assert result.evaluator.type == "custom"


def test_custom_matcher_must_return_a_bool_and_be_registered() -> None:
    bind = {"m": {"from": "trace", "where": {"kind": "message"}}}
    require = {"op": "matcher", "matcher": "custom", "custom": "maybe", "left": "m", "right": 1}
    unknown = _one(_rec(), bind, require)
    assert unknown.status is Status.INVALID
    assert unknown.message.startswith("no custom matcher is registered as 'maybe'")
    register_matcher("maybe", lambda actual, expected: "yes")
    try:
        result = _one(_rec(), bind, require)
    finally:
        unregister_matcher("maybe")
    assert result.status is Status.EVALUATOR_ERROR
    assert "it must return True or False" in result.message


def test_semantic_matchers_need_a_judge_and_judge_errors_gate() -> None:
    bind = {
        "replies": {
            "from": "trace",
            "where": {"kind": "message", "actor_ref": "agent"},
            "extract": "payload.text",
        }
    }
    require = {
        "op": "matcher",
        "matcher": "semantic",
        "left": "replies",
        "right": "the reply confirms the refund",
    }
    record = _rec()
    no_judge = _one(record, bind, require, severity="low")
    assert no_judge.status is Status.INVALID
    assert no_judge.message == "no judge configured"

    def raising(request: Any) -> Any:
        raise RuntimeError("quota")

    contract = {
        "contract": "c",
        "assertions": [{"id": "a", "severity": "low", "bind": bind, "require": require}],
    }
    (error,) = evaluate_contract(record, contract, judge=raising)
    assert error.status is Status.EVALUATOR_ERROR
    assert error.severity is Severity.GATE  # a judge error gates whatever the severity said
    (ok,) = evaluate_contract(record, contract, judge=lambda r: JudgeResponse(1.0, passed=True))
    assert ok.status is Status.PASS
    assert ok.severity is Severity.SOFT
    assert ok.evaluator.type == "semantic"


def test_grounded_semantic_shows_the_judge_only_the_grounding() -> None:
    seen: list[Any] = []

    def judge(request: Any) -> JudgeResponse:
        seen.append(request)
        return JudgeResponse(0.4, explanation="the reply omits the amount")

    bind = {
        "replies": {"from": "trace", "where": {"kind": "message", "actor_ref": "agent"}},
        "calls": {"from": "trace", "where": {"kind": "tool_call"}},
    }
    require = {
        "op": "matcher",
        "matcher": "grounded_semantic",
        "left": "replies",
        "right": "the reply states what the tool did",
        "grounding": ["calls"],
    }
    contract = {"contract": "c", "assertions": [{"id": "a", "bind": bind, "require": require}]}
    (result,) = evaluate_contract(_rec(), contract, judge=judge)
    assert result.status is Status.FAIL
    assert result.message.endswith("e2: judge score 0.40: the reply omits the amount")
    (request,) = seen
    assert set(request.evidence) == {"value", "grounding"}
    assert [e["event_id"] for e in request.evidence["grounding"]["calls"]] == ["e1"]
    assert request.event_ids == ("e2", "e1")
    assert "refund A1" not in request.prompt  # the user's message is not grounding


def test_delta_bindings_filter_by_path_prefix_and_op() -> None:
    bind = {"changes": {"from": "delta", "where": {"path": "/orders"}, "extract": "path"}}
    result = _one(
        _rec(),
        bind,
        {
            "op": "matcher",
            "matcher": "structural",
            "left": "changes",
            "right": {"$regex": "^/orders/A1/"},
        },
    )
    assert result.status is Status.FAIL
    assert result.message.endswith(
        "added /orders/B2: $: expected a match of '^/orders/A1/', got '/orders/B2'"
    )
    assert result.evidence == (
        {"path": "/orders/A1/status", "op": "changed", "before": "paid", "after": "refunded"},
        {"path": "/orders/B2", "op": "added", "after": {"x": 1}},
    )
    added = {"n": {"from": "delta", "where": {"op": "added"}, "extract": "count"}}
    assert _one(_rec(), added, {"op": "equals", "left": "n", "right": 1}).status is Status.PASS
    nothing = _one(_rec(initial_state=None), added, {"op": "equals", "left": "n", "right": 1})
    assert nothing.status is Status.INVALID


def test_bind_refers_to_another_binding() -> None:
    bind = {
        "asked": {
            "from": "trace",
            "where": {"kind": "tool_call"},
            "extract": "payload.arguments.id",
        },
        "first": {"from": "trace", "where": {"kind": "tool_call"}, "extract": "first"},
        "ids": {"from": "initial_state", "path": "/orders"},
    }
    result = _one(_rec(), bind, {"op": "contains", "left": "ids", "right": {"$bind": "asked"}})
    assert result.status is Status.FAIL  # a mapping contains a key, not a list of keys
    same = _one(_rec(), bind, {"op": "equals", "left": "asked", "right": "A1"})
    assert same.status is Status.PASS
    size = _one(
        _rec(),
        {"n": {"from": "final_state", "path": "/orders"}},
        {"op": "count_at_most", "left": "n", "right": 1},
    )
    assert size.status is Status.FAIL
    assert size.message == "'n' has 2 items, expected at most 1"


def test_single_values_from_first_last_and_count() -> None:
    bind = {
        "first": {"from": "trace", "where": {"kind": "message"}, "extract": "first"},
        "last": {"from": "trace", "where": {"kind": "message"}, "extract": "last"},
        "n": {"from": "trace", "where": {"kind": "message"}, "extract": "count"},
    }
    assert (
        _one(
            _rec(),
            bind,
            {
                "op": "matcher",
                "matcher": "structural",
                "left": "first",
                "right": {"actor_ref": "user"},
            },
        ).status
        is Status.PASS
    )
    last = _one(_rec(), bind, {"op": "precedes", "left": "first", "right": "last"})
    assert last.status is Status.PASS
    count = _one(_rec(), bind, {"op": "equals", "left": "n", "right": 3})
    assert count.status is Status.FAIL
    assert count.message == "'n' (count of 'n') fails (equals 3): $: expected 3, got 2"
    empty = {
        "f": {"from": "trace", "where": {"kind": "tool_call", "status": "x"}, "extract": "first"}
    }
    missing = _one(_rec(), empty, {"op": "equals", "left": "f", "right": 1})
    assert missing.status is Status.FAIL
    assert missing.message == "selection 'f' is empty, so it has no item to test"
