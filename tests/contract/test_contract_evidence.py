"""What a failure names: the closest candidate (a right-side event id), the differing ``on``
field, the partner of an item that ``none`` rejects, counts in the right number, and the
evaluator that failed."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import EvalContext, evaluate_contract
from agent_asserts.contract import register_matcher, unregister_matcher
from agent_asserts.loaders import load, loads
from agent_asserts.record import TrialRecord
from agent_asserts.results import AssertionResult, Status


def _one(events: list[dict[str, Any]], spec: dict[str, Any], **record: Any) -> AssertionResult:
    (result,) = evaluate_contract(TrialRecord.from_dict({"events": events, **record}), spec)
    return result


def _mismatches(result: AssertionResult) -> list[tuple[str, Any, Any]]:
    return [(m.path, m.expected, m.actual) for m in result.mismatches]


ORDERS = [
    {"event_id": "m1", "kind": "mutation", "monotonic_time": 1.0, "payload": {"order": "A"}},
    {"event_id": "m2", "kind": "mutation", "monotonic_time": 5.0, "payload": {"order": "B"}},
    {"event_id": "a1", "kind": "audit", "monotonic_time": 1.1, "payload": {"order": "A"}},
    {"event_id": "a2", "kind": "audit", "monotonic_time": 4.0, "payload": {"order": "C"}},
    {"event_id": "a3", "kind": "audit", "monotonic_time": 9.0, "payload": {"order": "D"}},
]
BIND = {
    "m": {"from": "trace", "where": {"kind": "mutation"}},
    "a": {"from": "trace", "where": {"kind": "audit"}},
}


def test_one_on_field_names_the_nearest_candidate_in_time_and_the_field() -> None:
    spec = {
        "bind": BIND,
        "require": {"op": "has_matching", "left": "m", "right": "a", "on": ["payload.order"]},
    }
    result = _one(ORDERS, spec)
    assert result.status is Status.FAIL
    assert result.message == (
        "1 of 2 items of 'm' fails (has a matching 'a' item on payload.order): m2: no 'a' item "
        "has the same payload.order; closest a2 (the nearest) differs on payload.order "
        "(expected 'B', got 'C')"
    )
    assert result.closest == "a2"  # 1s before m2; a3 is 4s after it
    assert _mismatches(result) == [("$.payload.order", "B", "C")]


def test_without_times_the_nearest_candidate_is_by_record_order() -> None:
    events = [{k: v for k, v in e.items() if k != "monotonic_time"} for e in ORDERS]
    events = [events[0], events[2], events[3], events[1], events[4]]  # m2 between a2 and a3
    spec = {
        "bind": BIND,
        "require": {"op": "has_matching", "left": "m", "right": "a", "on": ["payload.order"]},
    }
    result = _one(events, spec)
    assert result.closest == "a2"
    assert _mismatches(result) == [("$.payload.order", "B", "C")]


def test_several_fields_none_shared_names_the_nearest_and_every_field() -> None:
    events = [
        {
            "event_id": "m",
            "kind": "mutation",
            "operation_ref": "op-1",
            "actor_ref": "agent",
            "payload": {},
        },
        {
            "event_id": "x",
            "kind": "audit",
            "operation_ref": "op-2",
            "actor_ref": "bot",
            "payload": {},
        },
    ]
    spec = {
        "bind": BIND,
        "require": {
            "op": "has_matching",
            "left": "m",
            "right": "a",
            "on": ["operation_ref", "actor_ref"],
        },
    }
    result = _one(events, spec)
    assert result.closest == "x"
    assert result.observed["violations"][0]["reason"] == (
        "no 'a' item shares any of operation_ref, actor_ref with it; closest x (the nearest) "
        "differs on operation_ref (expected 'op-1', got 'op-2'), actor_ref (expected 'agent', "
        "got 'bot')"
    )
    assert _mismatches(result) == [
        ("$.operation_ref", "op-1", "op-2"),
        ("$.actor_ref", "agent", "bot"),
    ]


def test_a_time_bound_violation_names_the_right_candidate() -> None:
    events = [dict(e, operation_ref="op") for e in ORDERS[:1] + ORDERS[3:4]]  # m1 at 1, a2 at 4
    spec = {
        "bind": BIND,
        "require": {
            "op": "has_matching",
            "left": "m",
            "right": "a",
            "on": ["operation_ref"],
            "within": "2s",
        },
    }
    result = _one(events, spec)
    assert result.closest == "a2"
    assert _mismatches(result) == [("$.monotonic_time", "within 2s of 1", 4.0)]
    follows = _one(
        events,
        {
            "bind": BIND,
            "require": {"op": "follows_within", "left": "m", "right": "a", "within": "2s"},
        },
    )
    assert follows.closest == "a2"
    assert _mismatches(follows) == [("$.monotonic_time", "at most 3", 4.0)]


def test_values_counts_and_delta_entries_have_no_closest_candidate() -> None:
    count = _one(
        ORDERS,
        {
            "bind": {"n": {"from": "trace", "extract": "count"}},
            "require": {"op": "equals", "left": "n", "right": 2},
        },
    )
    assert (count.status, count.closest) == (Status.FAIL, None)
    assert _mismatches(count) == [("$", 2, 5)]
    first = _one(
        ORDERS,
        {
            "bind": {"n": {"from": "trace", "extract": "first"}},
            "require": {"op": "equals", "left": "n", "right": 2},
        },
    )
    assert (first.status, first.closest) == (Status.FAIL, None)  # a literal is no candidate
    states = {"initial_state": {"o": {"A": 1, "B": 1}}, "final_state": {"o": {"A": 2}, "n": 1}}
    changed = {"from": "delta", "where": {"op": "changed"}}
    delta = _one(
        [],
        {"bind": {"d": changed}, "require": {"op": "contains", "left": "d", "right": "x"}},
        **states,
    )
    assert (delta.status, delta.closest) == (Status.FAIL, None)
    assert delta.message.startswith("1 of 1 item of 'd' fails (contains 'x'): changed /o/A: ")
    pairs = _one(
        [],
        {
            "bind": {"d": changed, "r": {"from": "delta", "where": {"op": "removed"}}},
            "require": {"op": "has_matching", "left": "d", "right": "r", "on": ["path"]},
        },
        **states,
    )
    assert (pairs.status, pairs.closest) == (Status.FAIL, None)  # a delta entry has no event id
    assert pairs.observed["violations"][0]["reason"] == (
        "no 'r' item has the same path; closest removed /o/B (the nearest) differs on path "
        "(expected '/o/A', got '/o/B')"
    )
    assert _mismatches(pairs) == [("$.path", "/o/A", "/o/B")]


def test_none_names_what_each_violating_item_matched() -> None:
    audits = [dict(e, operation_ref="op") for e in ORDERS[:1] + ORDERS[2:3]]
    result = _one(
        audits,
        {
            "bind": BIND,
            "require": {
                "quantifier": "none",
                "op": "has_matching",
                "left": "m",
                "right": "a",
                "on": ["operation_ref"],
            },
        },
    )
    assert result.message == (
        "1 of 1 item of 'm' has a matching 'a' item on operation_ref, expected none: "
        "m1: has a matching 'a' item a1"
    )
    assert result.observed["violations"] == [{"item": "m1", "reason": "has a matching 'a' item a1"}]
    assert result.closest == "a1"
    texts = _one(
        ORDERS,
        {
            "bind": {"o": {"from": "trace", "extract": "payload.order"}},
            "require": {"quantifier": "none", "op": "equals", "left": "o", "right": "A"},
        },
    )
    assert texts.message == "2 of 5 items of 'o' equal 'A', expected none: m1: got 'A'; a1: got 'A'"


def test_counts_agree_in_number() -> None:
    two = [
        {"event_id": "e0", "kind": "a", "payload": {}},
        {"event_id": "e1", "kind": "a", "payload": {}},
        {"event_id": "e2", "kind": "b", "payload": {}},
    ]
    bind = {
        "a": {"from": "trace", "where": {"kind": "a"}},
        "b": {"from": "trace", "where": {"kind": "b"}},
    }
    precedes = _one(
        two,
        {
            "bind": bind,
            "require": {"quantifier": "none", "op": "precedes", "left": "a", "right": "b"},
        },
    )
    assert precedes.message == (
        "2 of 2 items of 'a' occur before some 'b' item, expected none: "
        "e0: 'b' item e2 occurs after it; e1: 'b' item e2 occurs after it"
    )
    kinds = {"k": {"from": "trace", "where": {"kind": "a"}, "extract": "event_id"}}
    some = _one(
        two,
        {
            "bind": kinds,
            "require": {"quantifier": "some", "op": "equals", "left": "k", "right": "e0"},
        },
    )
    assert some.message == "1 of 2 items of 'k' equals 'e0' (e0)"
    count = _one(
        two[:1], {"bind": kinds, "require": {"op": "count_at_most", "left": "k", "right": 0}}
    )
    assert count.message == "'k' has 1 item (e0), expected at most 0"
    failing = _one(two, {"bind": kinds, "require": {"op": "equals", "left": "k", "right": "zz"}})
    assert failing.message.startswith("2 of 2 items of 'k' fail (equals 'zz'): e0: ")


@pytest.fixture
def _boom() -> Any:
    def boom(actual: Any, expected: Any) -> bool:
        raise ZeroDivisionError("division by zero")

    register_matcher("boom", boom)
    yield
    unregister_matcher("boom")


@pytest.mark.usefixtures("_boom")
def test_a_when_whose_custom_matcher_raises_is_a_custom_evaluator_error() -> None:
    spec = {
        "bind": {"n": {"from": "trace", "extract": "count"}},
        "require": {"op": "equals", "left": "n", "right": 1},
        "when": {
            "bind": {"e": {"from": "trace"}},
            "require": {"op": "matcher", "matcher": "custom", "custom": "boom", "left": "e"},
        },
    }
    result = _one([{"event_id": "e0", "kind": "a", "payload": {}}], spec)
    assert result.status is Status.EVALUATOR_ERROR
    assert result.evaluator.type == "custom"
    assert result.message == (
        "when: custom matcher 'boom' raised ZeroDivisionError: division by zero (e0)"
    )
    judged = dict(
        spec,
        when={"require": {"op": "matcher", "matcher": "semantic", "left": "n", "right": "is one"}},
    )
    missing = _one([], judged)
    assert (missing.status, missing.evaluator.type) == (Status.INVALID, "semantic")
    plain = _one(
        [{"event_id": "e0", "kind": "a", "payload": {}}], {k: spec[k] for k in ("bind", "require")}
    )
    assert (plain.status, plain.evaluator.type) == (Status.PASS, "deterministic")


CONTRACT_FILE = """\
contract: refunds
assertions:
  - id: low
    severity: low
    bind: {s: {from: final_state, path: /a/b}}
    require: {op: equals, left: s, right: 2}
  - id: high
    bind: {s: {from: final_state, path: /a/b}}
    require: {op: equals, left: s, right: 1}
"""


def test_ctx_contract_accepts_the_suite_of_a_contract_file(tmp_path: Any) -> None:
    path = tmp_path / "c.yml"
    path.write_text(CONTRACT_FILE)
    record = TrialRecord.from_dict({"events": [], "final_state": {"a": {"b": 1}}})
    ctx = EvalContext(record)
    handles = ctx.contract(load(path))
    assert [(h.result.name, h.result.status.value) for h in handles] == [
        ("low", "fail"),
        ("high", "pass"),
    ]
    assert ctx.verdict().value == "scored"
    assert [r.name for r in evaluate_contract(record, load(path))] == ["low", "high"]


@pytest.mark.parametrize(
    ("spec", "got"),
    [
        (42, "got int"),
        (["bind"], "got list"),
        (
            loads("checks: [succeeded]"),
            "got a Suite whose case 'suite' holds succeeded(), not a "
            "plain contract assertion; evaluate it with suite.evaluate(record)",
        ),
        (
            loads("cases: [{name: a, checks: [succeeded]}, {name: b, checks: [stopped]}]"),
            "got a Suite of 2 cases; evaluate it with suite.evaluate(record)",
        ),
    ],
)
def test_other_specs_are_a_short_type_error(spec: Any, got: str) -> None:
    ctx = EvalContext(TrialRecord.from_dict({"events": []}))
    with pytest.raises(TypeError) as caught:
        ctx.contract(spec)
    assert str(caught.value) == (
        "a contract spec is a Contract, its dict form or a Suite loaded from a contract file "
        f"({got})"
    )
