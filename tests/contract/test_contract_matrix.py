"""The matrix: relation × quantifier × {empty, one, many selections} × status.

Each left item is built to satisfy the relation ("good") or not ("bad"); the expected status
follows from the quantifier, and every failure must name the violating event ids with what each
lacked (or, for ``none``, what it matched), and ``closest`` must be a right-side event id (for
has_matching with the ``on`` field that differed on it), never a left item.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import evaluate_contract
from agent_asserts.contract import register_matcher, unregister_matcher
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status

VALUE_RELATIONS: dict[str, tuple[dict[str, Any], Any, Any]] = {
    # name: (require keys besides op/left/quantifier, good value, bad value)
    "equals": ({"op": "equals", "right": "ok"}, "ok", "no"),
    "contains": ({"op": "contains", "right": "ok"}, "is ok", "nope"),
    "matches_schema": (
        {"op": "matches_schema", "right": {"type": "string", "minLength": 2}},
        "ok",
        "x",
    ),
    "matcher_exact": ({"op": "matcher", "matcher": "exact", "right": {"a": 1}}, {"a": 1}, {"a": 2}),
    "matcher_structural": (
        {"op": "matcher", "matcher": "structural", "right": {"$regex": "^o"}},
        "ok",
        "no",
    ),
    "matcher_custom": (
        {"op": "matcher", "matcher": "custom", "custom": "same_text", "right": "ok"},
        "ok",
        "no",
    ),
}
SELECTION_RELATIONS = ("has_matching", "precedes", "follows_within")
RELATIONS = (*VALUE_RELATIONS, *SELECTION_RELATIONS)
SHAPES = {
    "empty": (),
    "one-good": ("good",),
    "one-bad": ("bad",),
    "many-good": ("good", "good", "good"),
    "many-mixed": ("good", "bad", "good", "bad"),
    "many-bad": ("bad", "bad", "bad"),
}


@pytest.fixture(autouse=True)
def _custom_matcher() -> Any:
    register_matcher("same_text", lambda actual, expected: actual == expected)
    yield
    unregister_matcher("same_text")


def _value_case(
    relation: str, flags: tuple[str, ...]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    keys, good, bad = VALUE_RELATIONS[relation]
    events = [
        {"event_id": f"L{i}", "kind": "item", "payload": {"v": good if f == "good" else bad}}
        for i, f in enumerate(flags)
    ]
    bind = {"items": {"from": "trace", "where": {"kind": "item"}, "extract": "payload.v"}}
    return events, {"bind": bind, "require": dict(keys)}


def _selection_case(
    relation: str, flags: tuple[str, ...]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    events: list[dict[str, Any]] = []
    require: dict[str, Any] = {"op": relation, "right": "others"}
    if relation == "has_matching":
        for i, f in enumerate(flags):
            op = f"op-{i}" if f == "good" else f"op-x{i}"
            events.append(
                {
                    "event_id": f"L{i}",
                    "kind": "item",
                    "operation_ref": op,
                    "actor_ref": "agent",
                    "payload": {},
                }
            )
            events.append(
                {
                    "event_id": f"R{i}",
                    "kind": "other",
                    "operation_ref": f"op-{i}",
                    "actor_ref": "agent",
                    "payload": {},
                }
            )
        require["on"] = ["operation_ref", "actor_ref"]
    elif relation == "precedes":  # good items come before the right event, bad ones after it
        goods = [i for i, f in enumerate(flags) if f == "good"]
        bads = [i for i, f in enumerate(flags) if f == "bad"]
        events += [{"event_id": f"L{i}", "kind": "item", "payload": {}} for i in goods]
        events.append({"event_id": "R0", "kind": "other", "payload": {}})
        events += [{"event_id": f"L{i}", "kind": "item", "payload": {}} for i in bads]
    else:  # follows_within: good items 0.5s before the right event, bad ones 10s before
        for i, f in enumerate(flags):
            t = 9.5 if f == "good" else 0.0
            events.append({"event_id": f"L{i}", "kind": "item", "monotonic_time": t, "payload": {}})
        events.append({"event_id": "R0", "kind": "other", "monotonic_time": 10.0, "payload": {}})
        require["within"] = "1s"
    bind = {
        "items": {"from": "trace", "where": {"kind": "item"}},
        "others": {"from": "trace", "where": {"kind": "other"}},
    }
    return events, {"bind": bind, "require": require}


def _expected(quantifier: str, flags: tuple[str, ...]) -> Status:
    if not flags:
        return Status.PASS if quantifier == "none" else Status.FAIL
    goods = [f == "good" for f in flags]
    passed = {"every": all(goods), "some": any(goods), "none": not any(goods)}[quantifier]
    return Status.PASS if passed else Status.FAIL


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("quantifier", ["every", "some", "none"])
@pytest.mark.parametrize("relation", RELATIONS)
def test_relation_quantifier_selection_status(relation: str, quantifier: str, shape: str) -> None:
    flags = SHAPES[shape]
    build = _value_case if relation in VALUE_RELATIONS else _selection_case
    events, contract = build(relation, flags)
    contract["require"].update(quantifier=quantifier, left="items")
    record = TrialRecord.from_dict({"events": events, "surfaces": ["item", "other"]})
    (result,) = evaluate_contract(record, contract)
    expected = _expected(quantifier, flags)
    assert result.status is expected, result.message
    if expected is Status.PASS:
        return
    if not flags:
        assert result.message == "selection 'items' is empty"
        return
    ids = [f"L{i}" for i, f in enumerate(flags)]
    if quantifier == "every":
        violating = [i for i, f in zip(ids, flags, strict=True) if f == "bad"]
    elif quantifier == "some":
        violating = ids
    else:
        violating = [i for i, f in zip(ids, flags, strict=True) if f == "good"]
    violations = result.observed["violations"]
    assert [v["item"] for v in violations] == violating
    for violation in violations:  # each names its item and what it lacked (or matched)
        assert violation["reason"]
        assert f"{violation['item']}: {violation['reason']}" in result.message
    _check_closest(relation, quantifier, violations, result)


def _check_closest(
    relation: str, quantifier: str, violations: list[dict[str, Any]], result: Any
) -> None:
    """``closest`` is a right-side event id (R…), never a left item; None for literals."""
    first = violations[0]["item"]
    n = first[1:]
    if relation not in SELECTION_RELATIONS:
        assert result.closest is None
        if quantifier != "none":
            assert result.mismatches
        return
    assert result.closest is not None and result.closest.startswith("R")
    if quantifier == "none":  # each violating item names the partner it has
        partners = {
            "has_matching": "has a matching 'others' item R{n}",
            "precedes": "'others' item R0 occurs after it",
            "follows_within": "'others' item R0 follows it after 0.5s",
        }[relation]
        for violation in violations:
            assert violation["reason"] == partners.format(n=violation["item"][1:])
        assert result.closest == (f"R{n}" if relation == "has_matching" else "R0")
        return
    assert result.closest == "R0"
    if relation == "has_matching":  # R0 shares actor_ref; operation_ref differed on it
        assert [(m.path, m.expected, m.actual) for m in result.mismatches] == [
            ("$.operation_ref", f"op-x{n}", "op-0")
        ]
        for violation in violations:
            item = violation["item"]
            assert violation["reason"] == (
                "no 'others' item has the same operation_ref, actor_ref; closest R0 differs "
                f"on operation_ref (expected 'op-x{item[1:]}', got 'op-0')"
            )
    elif relation == "follows_within":
        assert [m.path for m in result.mismatches] == ["$.monotonic_time"]
        assert violations[0]["reason"] == (
            "the earliest 'others' item after it, R0, follows after 10s (more than 1s)"
        )
    else:
        assert violations[0]["reason"] == "no 'others' item occurs after it (the last one is R0)"


@pytest.mark.parametrize(
    ("size", "limit", "status"),
    [
        (0, 0, Status.PASS),
        (1, 1, Status.PASS),
        (1, 0, Status.FAIL),
        (3, 3, Status.PASS),
        (3, 2, Status.FAIL),
    ],
)
def test_count_at_most_counts_the_whole_selection(size: int, limit: int, status: Status) -> None:
    events = [{"event_id": f"L{i}", "kind": "item", "payload": {}} for i in range(size)]
    contract = {
        "bind": {"items": {"from": "trace", "where": {"kind": "item"}}},
        "require": {"op": "count_at_most", "left": "items", "right": limit},
    }
    (result,) = evaluate_contract(TrialRecord.from_dict({"events": events}), contract)
    assert result.status is status
    assert result.observed == size
    if status is Status.FAIL:
        ids = ", ".join(f"L{i}" for i in range(size))
        noun = "item" if size == 1 else "items"
        assert result.message == f"'items' has {size} {noun} ({ids}), expected at most {limit}"


@pytest.mark.parametrize("allow_empty", [False, True])
@pytest.mark.parametrize("quantifier", ["every", "some", "none"])
def test_allow_empty(quantifier: str, allow_empty: bool) -> None:
    contract = {
        "contract": "c",
        "assertions": [
            {
                "id": "a",
                "allow_empty": allow_empty,
                "bind": {"mutations": {"from": "trace", "where": {"kind": "mutation"}}},
                "require": {
                    "op": "contains",
                    "left": "mutations",
                    "right": "x",
                    "quantifier": quantifier,
                },
            }
        ],
    }
    (result,) = evaluate_contract(TrialRecord.from_dict({"events": []}), contract)
    passes = allow_empty or quantifier == "none"
    assert result.status is (Status.PASS if passes else Status.FAIL)
    assert result.message.startswith("selection 'mutations' is empty")
