"""Memory checks: ``memory_was_*`` with one name or with a list (one result per entry)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import EvalContext, M
from agent_asserts.checks.conversation import MemoryWasCleared, MemoryWasNotSet, MemoryWasSet
from agent_asserts.record import TrialRecord


def record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .memory_set("a.x", 1)
        .memory_set("a.y", "y")
        .memory_clear("a.draft")
        .build()
    )


def test_a_name_records_one_result_and_returns_its_handle() -> None:
    ctx = EvalContext(record())
    handle = ctx.memory_was_set("a.x", 1)
    assert handle.result.name == "memory_was_set:a.x"
    assert len(ctx.results) == 1


def test_memory_was_set_with_a_list_records_one_result_per_entry() -> None:
    ctx = EvalContext(record())
    handles = ctx.memory_was_set(["a.x", {"name": "a.y", "value": "z"}, {"name": "a.x"}])
    assert [(h.result.name, h.result.status.value) for h in handles] == [
        ("memory_was_set:a.x", "pass"),
        ("memory_was_set:a.y", "fail"),
        ("memory_was_set:a.x", "pass"),
    ]
    assert [r.name for r in ctx.results] == [h.result.name for h in handles]
    assert handles[1].result.message == "'a.y' was written 1 time, never with 'z' (closest e1)"
    handles[1].soft()
    assert ctx.results[1].severity.value == "soft"


def test_memory_was_not_set_and_cleared_with_a_list() -> None:
    ctx = EvalContext(record())
    not_set = ctx.memory_was_not_set([{"name": "a.x", "value": M.gt(5)}, "a.never"])
    cleared = ctx.memory_was_cleared(["a.draft", {"name": "a.x"}])
    assert [(h.result.name, h.result.status.value) for h in [*not_set, *cleared]] == [
        ("memory_was_not_set:a.x", "pass"),
        ("memory_was_not_set:a.never", "pass"),
        ("memory_was_cleared:a.draft", "pass"),
        ("memory_was_cleared:a.x", "fail"),
    ]
    assert [h.result.name for h in ctx.memory_was_set(("a.x",))] == ["memory_was_set:a.x"]


def test_list_entries_are_the_same_checks_as_single_calls() -> None:
    assert [h.result for h in EvalContext(record()).memory_was_set(["a.x"])] == [
        EvalContext(record()).memory_was_set("a.x").result
    ]
    assert MemoryWasSet.list_entries and MemoryWasNotSet.list_entries
    assert MemoryWasCleared.list_entries


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda ctx: ctx.memory_was_set([]),
            ValueError,
            "memory_was_set([]) needs at least one name",
        ),
        (
            lambda ctx: ctx.memory_was_set(["a.x"], 1),
            TypeError,
            "memory_was_set() takes 'value' only with a single name; with a list, give each "
            "value in its entry: {'name': ..., 'value': ...}",
        ),
        (
            lambda ctx: ctx.memory_was_cleared([{"name": "a.x", "value": 1}]),
            ValueError,
            "memory_was_cleared entry [0]: 'value' is not allowed (a clear has no value)",
        ),
        (
            lambda ctx: ctx.memory_was_not_set(["a.x", {"nme": "a.y"}]),
            ValueError,
            "memory_was_not_set entry [1]: unknown key 'nme' (did you mean 'name'?)",
        ),
        (
            lambda ctx: ctx.memory_was_set([{"value": 1}]),
            ValueError,
            "memory_was_set entry [0]: required key 'name' missing",
        ),
        (
            lambda ctx: ctx.memory_was_set(["a.x", 3]),
            TypeError,
            "EvalContext.memory_was_set(): 'name[1]' must be str or mapping, got int (3)",
        ),
        (
            lambda ctx: ctx.memory_was_set([{"name": "a.x", "value": None}]),
            ValueError,
            "'value' must not be None: null is not accepted as a memory value",
        ),
    ],
)
def test_bad_lists_raise_when_built(call: Any, error: type[Exception], message: str) -> None:
    ctx = EvalContext(record())
    with pytest.raises(error) as info:
        call(ctx)
    assert str(info.value) == message
    assert ctx.results == ()  # nothing recorded: every entry is checked first
