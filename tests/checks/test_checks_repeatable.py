"""A check evaluated twice on one record, or on a fresh copy of it, answers the same.

Checks are frozen and keep nothing of a record: random records (tool calls of a few names,
events of a few kinds, some in parallel groups) are evaluated twice and against a fresh copy,
and the paths the record's own indexes answer (a tool name alone) against the paths that
read the events. Each result gets its own details.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts import ANY, TrialRecord, on
from agent_asserts._values import MISSING
from agent_asserts.checks.conversation import BlockEntered, SkillActivated
from agent_asserts.checks.events import CalledSubagent, EventCheck
from agent_asserts.checks.selection import event_ids, tool_call_names
from agent_asserts.checks.sequencing import (
    Sequencing,
    ToolOrder,
    find_in_order,
    found_in_order,
    order_outcome,
)
from agent_asserts.checks.state import Changed, _at_path, _change_at
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import ConfirmationRequested, FollowedBy
from agent_asserts.outcome import Outcome
from agent_asserts.record.delta import json_equal
from agent_asserts.selectors import Selector, ToolSelector
from agent_asserts.status import Status

TOOLS = ("a", "b", "c")
KINDS = ("audit", "mutation")
GROUPS = st.sampled_from([None, None, "g1", "g2"])

events = st.lists(
    st.one_of(
        st.tuples(st.just("tool"), st.sampled_from(TOOLS), GROUPS),
        st.tuples(st.just("event"), st.sampled_from(KINDS), GROUPS),
    ),
    max_size=14,
)


def build(items: list[tuple[str, str, str | None]]) -> TrialRecord:
    builder = TrialRecord.builder()
    for what, name, group in items:
        if what == "tool":
            builder.tool(name, {"n": 1}, group_id=group)
        else:
            builder.event(name, group_id=group, operation_ref="op-7")
    return builder.build()


step_names = st.lists(st.sampled_from(TOOLS), min_size=1, max_size=3)


def same(a: Outcome, b: Outcome) -> bool:
    return a == b and a.message == b.message and a.details == b.details


@settings(max_examples=150, deadline=None)
@given(events, st.sampled_from((*TOOLS, "d")))
def test_tool_ids_are_the_ids_of_the_per_name_positions(items: Any, name: str) -> None:
    rec = build(items)
    assert rec.index.tool_ids(name) == event_ids(rec, rec.tool_positions(name))


@settings(max_examples=150, deadline=None)
@given(events, st.sampled_from(TOOLS), st.one_of(st.none(), st.integers(0, 4)))
def test_called_tool_by_name_answers_as_the_reading_path(
    items: Any, name: str, count: int | None
) -> None:
    rec = build(items)
    by_name = CalledTool(name, count=count).evaluate(rec)  # the per-name index answers
    read = CalledTool(name, arguments=ANY, count=count).evaluate(rec)  # reads every call
    assert (by_name.status, by_name.message, by_name.evidence, by_name.observed) == (
        read.status,
        read.message,
        read.evidence,
        read.observed,
    )


@settings(max_examples=200, deadline=None)
@given(events, st.lists(st.sampled_from((*TOOLS, *KINDS)), min_size=1, max_size=3))
def test_an_ordered_search_with_ids_equals_the_search(items: Any, names: list[str]) -> None:
    rec = build(items)
    steps: list[Selector] = [on.tool(n) if n in TOOLS else on.event(n) for n in names]
    fresh = find_in_order(rec, steps)
    assert found_in_order(rec, steps) == (fresh, event_ids(rec, fresh.positions))


@settings(max_examples=150, deadline=None)
@given(events, step_names)
def test_tool_order_answers_as_a_fresh_search(items: Any, names: list[str]) -> None:
    rec = build(items)
    check = ToolOrder(*names)
    steps = [ToolSelector(n) for n in names]
    observed = list(tool_call_names(rec))
    fresh = order_outcome(rec, names, find_in_order(rec, steps), observed=observed)
    for _ in range(2):
        assert same(check.evaluate(rec), fresh)


@settings(max_examples=100, deadline=None)
@given(events, step_names)
def test_sequencing_answers_as_a_fresh_search(items: Any, names: list[str]) -> None:
    rec = build(items)
    steps = [ToolSelector(n) for n in names]
    fresh = order_outcome(rec, names, find_in_order(rec, steps))
    assert Sequencing(*names).evaluate(rec) == fresh


selectors = st.one_of(
    st.sampled_from(TOOLS), st.sampled_from(KINDS).map(lambda kind: on.event(kind))
)


@settings(max_examples=200, deadline=None)
@given(events, st.sampled_from(TOOLS), selectors)
def test_followed_by_answers_alike_twice_and_on_a_fresh_record(
    items: Any, name: str, nxt: Any
) -> None:
    rec = build(items)
    check = FollowedBy(name, nxt)
    first, again, fresh = check.evaluate(rec), check.evaluate(rec), check.evaluate(build(items))
    assert same(first, again) and same(first, fresh)
    if "pairs" in first.details:  # each result has its own pairs
        assert first.details["pairs"] is not again.details["pairs"]


@settings(max_examples=200, deadline=None)
@given(events, st.sampled_from(TOOLS), selectors)
def test_not_called_before_answers_alike_twice_and_on_a_fresh_record(
    items: Any, name: str, marker: Any
) -> None:
    rec = build(items)
    check = NotCalledTool(name, before=marker)
    first = check.evaluate(rec)
    assert same(first, check.evaluate(rec)) and same(first, check.evaluate(build(items)))


envelope_selectors = st.builds(
    lambda kind, ref, typed: on.event(kind, **({"event_type": "x"} if typed else {}), **ref),
    st.sampled_from(KINDS),
    st.sampled_from([{}, {"operation_ref": "op-7"}, {"operation_ref": "op-8"}]),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(events, envelope_selectors, st.one_of(st.none(), st.integers(0, 3)))
def test_event_answers_as_its_selection(items: Any, selector: Any, count: int | None) -> None:
    rec = build(items)
    check = EventCheck(selector, count=count)
    first = check.evaluate(rec)
    assert same(first, check.evaluate(rec)) and same(first, check.evaluate(build(items)))
    matched = selector.select(rec)
    assert first.observed == len(matched)
    if first.status is Status.PASS:
        assert first.evidence == event_ids(rec, matched)


states = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["x", "y"])),
    lambda inner: st.dictionaries(st.sampled_from("ab"), inner, max_size=2),
    max_leaves=6,
)
paths = st.lists(st.sampled_from("ab"), max_size=3).map(lambda keys: "".join("/" + k for k in keys))
wanted = st.sampled_from([ANY, "x", 1, True, None])


@settings(max_examples=300, deadline=None)
@given(states, states, paths, wanted, wanted)
def test_changed_answers_alike_twice_and_on_a_fresh_record(
    initial: Any, final: Any, path: str, before: Any, after: Any
) -> None:
    data = {"events": [], "initial_state": {"s": initial}, "final_state": {"s": final}}
    rec = TrialRecord.from_dict(data)
    check = Changed("/s" + path, before=before, after=after)
    first = check.evaluate(rec)
    assert check.evaluate(rec) == first
    assert check.evaluate(TrialRecord.from_dict(data)) == first
    found = _change_at(rec, check.path)
    if not isinstance(found, Outcome):
        entries, was, now, change = found
        assert (list(entries), was, now) == _at_path(rec, check.path)
        assert (change is None) == json_equal(was, now)
        assert first.evidence == tuple(e.to_dict() for e in entries)
        if entries:  # fresh dicts for every result: one result's evidence never changes another's
            assert first.evidence[0] is not check.evaluate(rec).evidence[0]


def rich(items: list[tuple[Any, ...]]) -> TrialRecord:
    builder = TrialRecord.builder()
    for item in items:
        getattr(builder, item[0])(*item[1:])
    return builder.build()


rich_events = st.lists(
    st.one_of(
        st.tuples(
            st.just("tool"),
            st.sampled_from(["a", "b"]),
            st.just({}),
            st.none(),
            st.sampled_from([None, True, False]),
        ),
        st.tuples(
            st.just("memory_set"), st.sampled_from(["x", "y"]), st.sampled_from([1, True, "1"])
        ),
        st.tuples(st.just("memory_clear"), st.sampled_from(["x", "y"])),
        st.tuples(st.just("skill"), st.sampled_from(["activated", "completed"]), st.just("s")),
        st.tuples(st.just("block"), st.just("entered"), st.just("s"), st.sampled_from(["m", "n"])),
        st.tuples(st.just("subagent"), st.just("r"), st.sampled_from(["completed", "failed"])),
        st.tuples(st.just("agent"), st.sampled_from(["hi", "Shall I?"])),
    ),
    max_size=12,
)
plain_selectors = st.one_of(
    st.builds(on.tool, st.sampled_from(["a", "b", "a|b"]), is_error=st.sampled_from([None, True])),
    st.builds(on.memory_set, st.sampled_from(["x", "y"]), st.sampled_from([MISSING, 1, True, "1"])),
    st.builds(on.memory_cleared, st.sampled_from(["x", "y"])),
    st.builds(on.skill, st.sampled_from(["activated", "completed"]), st.just("s")),
    st.builds(on.block, st.just("entered"), st.just("s"), st.sampled_from(["m", "n"])),
    st.builds(
        on.subagent,
        st.just("r"),
        status=st.sampled_from([None, "failed", ("completed", "transferred")]),
    ),
    st.builds(on.message, text=st.sampled_from([None, "hi"])),
)


@settings(max_examples=300, deadline=None)
@given(rich_events, plain_selectors)
def test_a_selection_and_its_ids_agree(items: Any, selector: Any) -> None:
    rec = rich(items)
    positions = selector.select(rec)
    assert event_ids(rec, positions) == tuple(rec.events[p].event_id for p in positions)
    assert selector.select(rec) == positions


lifecycle_checks = st.one_of(
    st.builds(SkillActivated, st.sampled_from(["s", "t"])),
    st.builds(BlockEntered, st.just("s"), st.sampled_from(["m", "n"])),
    st.builds(CalledSubagent, st.sampled_from(["r", "q"]), st.sampled_from([None, 1, 2])),
)


@settings(max_examples=200, deadline=None)
@given(rich_events, lifecycle_checks)
def test_lifecycle_and_subagent_checks_answer_alike_twice_and_on_a_fresh_record(
    items: Any, check: Any
) -> None:
    rec = rich(items)
    first = check.evaluate(rec)
    assert same(first, check.evaluate(rec)) and same(first, check.evaluate(rich(items)))


@settings(max_examples=200, deadline=None)
@given(rich_events, st.sampled_from(["a", "b", "a|b"]), st.sampled_from(["(?i)shall", "hi"]))
def test_confirmation_answers_alike_twice_and_on_a_fresh_record(
    items: Any, tool: str, pattern: str
) -> None:
    check = ConfirmationRequested(tool, pattern, 2)
    rec = rich(items)
    first, again, fresh = check.evaluate(rec), check.evaluate(rec), check.evaluate(rich(items))
    assert same(first, again) and same(first, fresh)
    if "confirmed" in first.details:  # each result has its own pairs
        assert first.details["confirmed"] is not again.details["confirmed"]
