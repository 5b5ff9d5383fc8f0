"""has_matching, precedes and follows_within: keys, sets, time bounds, and linear cost."""

from __future__ import annotations

from typing import Any

import pytest

import agent_asserts.contract.relations as keys_module
from agent_asserts import evaluate_contract
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status


def _ev(event_id: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"event_id": event_id, "kind": kind, "payload": fields.pop("payload", {}), **fields}


def _check(events: list[dict[str, Any]], require: dict[str, Any]) -> Any:
    bind = {
        "left": {"from": "trace", "where": {"kind": "a"}},
        "right": {"from": "trace", "where": {"kind": "b"}},
    }
    contract = {"bind": bind, "require": {"left": "left", "right": "right", **require}}
    (result,) = evaluate_contract(TrialRecord.from_dict({"events": events}), contract)
    return result


@pytest.mark.parametrize(
    ("left_refs", "right_refs", "status"),
    [
        (["order:A", "user:1"], ["user:1", "order:A"], Status.PASS),
        (["order:A"], ["order:A", "user:1"], Status.FAIL),
        (["order:A", "order:A"], ["order:A"], Status.PASS),
    ],
)
def test_entity_ref_compares_the_lists_as_sets(
    left_refs: list[str], right_refs: list[str], status: Status
) -> None:
    events = [_ev("m", "a", entity_refs=left_refs), _ev("x", "b", entity_refs=right_refs)]
    result = _check(events, {"op": "has_matching", "on": ["entity_ref"]})
    assert result.status is status
    if status is Status.FAIL:
        assert "m: no 'right' item has the same entity_ref" in result.message


def test_an_unrecorded_on_field_matches_nothing() -> None:
    events = [_ev("m", "a"), _ev("x", "b")]
    result = _check(events, {"op": "has_matching", "on": ["operation_ref"]})
    assert result.status is Status.FAIL
    assert result.message.endswith(
        "m: it records no operation_ref, so no 'right' item can match it"
    )


def test_closest_candidate_names_every_differing_field() -> None:
    events = [
        _ev("m", "a", operation_ref="op-1", actor_ref="agent", correlation_id="c1"),
        _ev("x", "b", operation_ref="op-2", actor_ref="agent", correlation_id="c9"),
        _ev("y", "b", operation_ref="op-1", actor_ref="bot", correlation_id="c1"),
    ]
    result = _check(
        events, {"op": "has_matching", "on": ["operation_ref", "actor_ref", "correlation_id"]}
    )
    assert result.closest == "y"
    assert result.message.endswith("closest y differs on actor_ref (expected 'agent', got 'bot')")
    empty = _check(events[:1], {"op": "has_matching", "on": ["operation_ref"]})
    assert empty.message.endswith("m: selection 'right' is empty")


def test_has_matching_on_payload_paths_uses_json_equality() -> None:
    events = [
        _ev("m1", "a", payload={"n": 2}),
        _ev("m2", "a", payload={"n": True}),
        _ev("x", "b", payload={"n": 2.0}),
        _ev("y", "b", payload={"n": 1}),
    ]
    result = _check(events, {"op": "has_matching", "on": ["payload.n"]})
    assert [v["item"] for v in result.observed["violations"]] == ["m2"]


def test_has_matching_within_needs_times() -> None:
    events = [
        _ev("m", "a", operation_ref="o", monotonic_time=1.0),
        _ev("x", "b", operation_ref="o"),
    ]
    result = _check(events, {"op": "has_matching", "on": ["operation_ref"], "within": "1s"})
    assert result.status is Status.INVALID
    assert result.message == (
        "has_matching with within needs monotonic_time on every event; 'right' has events "
        "without one: x"
    )


def test_precedes_uses_record_order_and_optional_keys() -> None:
    events = [
        _ev("a1", "a", correlation_id="c1"),
        _ev("b1", "b", correlation_id="c1"),
        _ev("a2", "a", correlation_id="c2"),
        _ev("b2", "b", correlation_id="c1"),
    ]
    plain = _check(events, {"op": "precedes"})
    assert plain.status is Status.PASS
    keyed = _check(events, {"op": "precedes", "on": ["correlation_id"]})
    assert keyed.status is Status.FAIL
    assert keyed.message.endswith("a2: no 'right' item with the same correlation_id exists")
    late = _check(
        [*events, _ev("a3", "a", correlation_id="c1")], {"op": "precedes", "on": ["correlation_id"]}
    )
    assert (
        "a3: no 'right' item with the same correlation_id occurs after it (the last one is b2)"
        in late.message
    )


def test_follows_within_is_inclusive_and_only_counts_later_events() -> None:
    events = [
        _ev("b0", "b", monotonic_time=0.9),
        _ev("a1", "a", monotonic_time=1.0),
        _ev("b1", "b", monotonic_time=1.5),
        _ev("a2", "a", monotonic_time=2.0),
        _ev("b2", "b", monotonic_time=4.0),
    ]
    result = _check(events, {"op": "follows_within", "within": "500ms"})
    assert result.status is Status.FAIL
    assert [v["item"] for v in result.observed["violations"]] == ["a2"]
    assert result.message.endswith(
        "a2: the earliest 'right' item after it, b2, follows after 2s (more than 500ms)"
    )
    assert _check(events, {"op": "follows_within", "within": 2}).status is Status.PASS


def test_follows_within_with_keys() -> None:
    events = [
        _ev("a1", "a", correlation_id="c1", monotonic_time=1.0),
        _ev("b1", "b", correlation_id="c2", monotonic_time=1.1),
        _ev("b2", "b", correlation_id="c1", monotonic_time=5.0),
    ]
    result = _check(events, {"op": "follows_within", "within": "1s", "on": ["correlation_id"]})
    assert result.status is Status.FAIL
    assert "b2, follows after 4s" in result.message


@pytest.mark.parametrize("op", ["has_matching", "precedes", "follows_within"])
def test_cost_is_linear_in_the_two_selections(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    real = keys_module.hash_key

    def counted(value: Any) -> Any:
        calls["n"] += 1
        return real(value)

    monkeypatch.setattr(keys_module, "hash_key", counted)
    n = 2000
    events = []
    for i in range(n):
        events.append(_ev(f"a{i}", "a", operation_ref=f"op-{i}", monotonic_time=float(i)))
        events.append(_ev(f"b{i}", "b", operation_ref=f"op-{i}", monotonic_time=i + 0.5))
    require: dict[str, Any] = {"op": op, "on": ["operation_ref"]}
    if op != "precedes":
        require["within"] = "1s"
    assert _check(events, require).status is Status.PASS
    assert calls["n"] <= 2 * n  # one key per item on each side: no nested scan


@pytest.mark.parametrize("op", ["has_matching", "precedes", "follows_within"])
def test_one_shared_key_relates_every_item(op: str) -> None:
    # Speed lives in benchmarks/contract_has_matching.py (the one-shared-key measure); this
    # test pins the result when every item shares the key and only the time tells them apart.
    n = 5_000
    events = []
    for i in range(n):
        events.append(_ev(f"a{i}", "a", actor_ref="agent", monotonic_time=float(i)))
        events.append(_ev(f"b{i}", "b", actor_ref="agent", monotonic_time=i + 0.5))
    require: dict[str, Any] = {"op": op, "on": ["actor_ref"]}
    if op != "precedes":
        require["within"] = 1
    assert _check(events, require).status is Status.PASS
