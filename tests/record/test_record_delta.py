"""The delta D: compute_delta, DeltaEntry."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from record_strategies import json_values

from agent_asserts import MISSING
from agent_asserts.record import DeltaEntry, TrialRecord, compute_delta, parse_pointer
from agent_asserts.record.delta import json_equal


def apply_delta(state: Any, delta: tuple[DeltaEntry, ...]) -> Any:
    """Apply ``delta`` to a copy of ``state`` (test helper)."""
    state = copy.deepcopy(state)
    for entry in delta:
        tokens = parse_pointer(entry.path)
        if not tokens:
            state = copy.deepcopy(entry.after)
            continue
        parent = state
        for token in tokens[:-1]:
            parent = parent[token]
        if entry.op == "removed":
            del parent[tokens[-1]]
        else:
            parent[tokens[-1]] = copy.deepcopy(entry.after)
    return state


def test_nested_change() -> None:
    before = {"orders": {"A1": {"status": "paid", "total": 10}}}
    after = {"orders": {"A1": {"status": "refunded", "total": 10}}}
    assert compute_delta(before, after) == (
        DeltaEntry("/orders/A1/status", "changed", "paid", "refunded"),
    )


def test_added_removed_order() -> None:
    delta = compute_delta({"b": 1, "a": 2, "c": 3}, {"c": 3, "d": 4, "a": 2})
    assert [(d.path, d.op) for d in delta] == [("/b", "removed"), ("/d", "added")]
    assert delta[0].after is MISSING
    assert delta[1].before is MISSING


def test_lists_compared_whole() -> None:
    assert compute_delta({"l": [1, 2, 3]}, {"l": [1, 2, 4]}) == (
        DeltaEntry("/l", "changed", [1, 2, 3], [1, 2, 4]),
    )
    assert compute_delta({"l": [{"a": 1}]}, {"l": [{"a": 1.0}]}) == ()


def test_strict_json_equality() -> None:
    assert compute_delta({"a": 1}, {"a": True}) == (DeltaEntry("/a", "changed", 1, True),)
    assert compute_delta({"a": 0}, {"a": False}) != ()
    assert compute_delta({"a": 2}, {"a": 2.0}) == ()
    assert compute_delta({"a": "1"}, {"a": 1}) != ()
    assert compute_delta({"a": None}, {"a": {}}) != ()
    assert compute_delta({"a": [True]}, {"a": [1]}) != ()


def test_json_equal_containers() -> None:
    assert json_equal({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]})
    assert not json_equal({"a": 1}, {"b": 1})
    assert not json_equal({"a": 1}, {"a": 1, "b": 2})
    assert not json_equal([1], [1, 2])
    assert not json_equal([1], {"0": 1})
    assert not json_equal("a", ["a"])
    assert json_equal(None, None)


def test_type_change_of_a_dict_is_one_entry() -> None:
    assert compute_delta({"a": {"x": 1}}, {"a": [1]}) == (
        DeltaEntry("/a", "changed", {"x": 1}, [1]),
    )


def test_root_change_and_escaping() -> None:
    assert compute_delta(1, 2) == (DeltaEntry("", "changed", 1, 2),)
    assert compute_delta({"a/b": {"~": 1}}, {"a/b": {"~": 2}})[0].path == "/a~1b/~0"


def test_entry_to_dict_and_str() -> None:
    entry = DeltaEntry("/x", "removed", before=[1])
    assert entry.to_dict() == {"path": "/x", "op": "removed", "before": [1]}
    assert str(entry) == "removed /x: [1]"
    assert DeltaEntry("/x", "added", after=None).to_dict() == {
        "path": "/x",
        "op": "added",
        "after": None,
    }


def test_record_delta_is_lazy_and_none_without_states() -> None:
    assert TrialRecord(initial_state={"a": 1}).delta is None
    assert TrialRecord(final_state={"a": 1}).delta is None
    rec = TrialRecord(initial_state={"a": 1}, final_state={"a": 1, "b": 2})
    assert rec.delta is rec.delta
    assert rec.delta == (DeltaEntry("/b", "added", after=2),)


@given(json_values, json_values)
def test_applying_the_delta_gives_the_final_state(initial: Any, final: Any) -> None:
    delta = compute_delta(initial, final)
    assert json_equal(apply_delta(initial, delta), final)


@given(json_values)
def test_delta_to_itself_is_empty(value: Any) -> None:
    assert compute_delta(value, copy.deepcopy(value)) == ()


@given(json_values, json_values)
def test_delta_paths_resolve(initial: Any, final: Any) -> None:
    from agent_asserts.record import resolve

    for entry in compute_delta(initial, final):
        assert json_equal(resolve(initial, entry.path), entry.before) or (
            entry.before is MISSING and resolve(initial, entry.path) is MISSING
        )
        assert json_equal(resolve(final, entry.path), entry.after) or (
            entry.after is MISSING and resolve(final, entry.path) is MISSING
        )
