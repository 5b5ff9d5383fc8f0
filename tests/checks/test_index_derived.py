"""What checks derive from a record's indexes and keep there equals what they compute afresh.

Random records (tool calls of a few names, events of a few kinds, some in parallel groups);
each kept or index-answered path is compared with the path that reads the events.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts import ANY, M, TrialRecord, on
from agent_asserts._values import MISSING
from agent_asserts.checks.confirmation import ConfirmationRequested
from agent_asserts.checks.events import CalledSubagent, EventCheck
from agent_asserts.checks.index_plan import index_plan, plan_entry, selected
from agent_asserts.checks.lifecycle import BlockEntered, SkillActivated
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
from agent_asserts.checks.trajectory import FollowedBy
from agent_asserts.outcome import Outcome
from agent_asserts.record.delta import json_equal
from agent_asserts.selectors.calls import Selector, ToolSelector

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


def reading(selector: ToolSelector) -> ToolSelector:
    """The same selector, made to read every call (its index answer switched off)."""
    copy = ToolSelector(selector.name)
    copy.__dict__["_by_name_only"] = False
    return copy


step_names = st.lists(st.sampled_from(TOOLS), min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(events, st.sampled_from((*TOOLS, "d")))
def test_tool_ids_are_the_ids_of_the_per_name_positions(items: Any, name: str) -> None:
    rec = build(items)
    assert rec.index.tool_ids(name) == event_ids(rec, rec.tool_positions(name))
    assert rec.index.tool_ids(name) is rec.index.tool_ids(name)  # kept


@settings(max_examples=150, deadline=None)
@given(events, st.sampled_from(TOOLS), st.one_of(st.none(), st.integers(0, 4)))
def test_called_tool_by_name_answers_as_the_reading_path(
    items: Any, name: str, count: int | None
) -> None:
    rec = build(items)
    check = CalledTool(name, count=count)
    read = CalledTool(name, count=count)
    object.__setattr__(read, "_selector", reading(read._selector))
    assert check.evaluate(rec) == read.evaluate(rec)
    assert check.evaluate(rec).message == read.evaluate(rec).message


@settings(max_examples=200, deadline=None)
@given(events, st.lists(st.sampled_from((*TOOLS, *KINDS)), min_size=1, max_size=3))
def test_an_ordered_search_kept_on_the_index_equals_a_fresh_one(
    items: Any, names: list[str]
) -> None:
    rec = build(items)
    steps: list[Selector] = [on.tool(n) if n in TOOLS else on.event(n) for n in names]
    plan = index_plan(steps)
    assert [selected(rec, s, entry) for s, entry in zip(steps, plan, strict=True)] == [
        (tuple(s.select(rec)), event_ids(rec, s.select(rec))) for s in steps
    ]
    fresh = find_in_order(rec, steps)
    assert found_in_order(rec, steps, plan) == (fresh, event_ids(rec, fresh.positions))
    assert found_in_order(rec, steps, plan) == found_in_order(rec, steps, ())


@settings(max_examples=150, deadline=None)
@given(events, step_names)
def test_tool_order_answers_as_a_fresh_search(items: Any, names: list[str]) -> None:
    rec = build(items)
    check = ToolOrder(*names)
    steps = [ToolSelector(n) for n in names]
    observed = list(tool_call_names(rec))
    fresh = order_outcome(rec, names, find_in_order(rec, steps), observed=observed)
    for _ in range(2):  # computed, then kept
        out = check.evaluate(rec)
        assert out == fresh and out.message == fresh.message and out.details == fresh.details


@settings(max_examples=100, deadline=None)
@given(events, step_names)
def test_sequencing_answers_as_a_fresh_search(items: Any, names: list[str]) -> None:
    rec = build(items)
    steps = [ToolSelector(n) for n in names]
    fresh = order_outcome(rec, names, find_in_order(rec, steps))
    assert Sequencing(*names).evaluate(rec) == fresh


def test_the_kept_values_are_not_pickled() -> None:
    rec = build([("tool", "a", None)])
    rec.index.tool_ids("a")
    assert rec.index.derived
    assert not pickle.loads(pickle.dumps(rec.index)).derived
    assert pickle.loads(pickle.dumps(rec.index)) == rec.index


def test_a_selector_with_more_than_plain_values_has_no_plan() -> None:
    assert index_plan([on.tool("a"), on.tool("a", arguments={"x": 1})]) == ()
    assert index_plan([on.event("audit", payload={"x": 1})]) == ()
    assert index_plan([on.event(operation_ref="op-7")]) == ()  # every event: no index
    assert index_plan([on.memory_set("x", M.regex("a"))]) == ()
    assert index_plan([on.message(text=M.regex("a"))]) == ()


def test_plain_selectors_are_planned_by_their_typed_values() -> None:
    assert index_plan([on.event("audit", operation_ref="op-7")]) == (
        ("events", "audit", None, (("operation_ref", "op-7"),)),
    )
    assert index_plan([on.tool("a")]) == (("tools", "a"),)
    (entry,) = index_plan([on.tool("a|b")])
    assert entry[:2] == ("fields", ToolSelector)
    # True == 1, but they select differently: the entries differ
    assert index_plan([on.memory_set("x", True)]) != index_plan([on.memory_set("x", 1)])
    assert index_plan([on.subagent("r", status=["completed", "failed"])]) != ()


def fresh(check: Any) -> Any:
    """A copy of ``check`` without an index plan: it computes everything from the events."""
    copy = attrs.evolve(check)
    copy.__dict__["_plan"] = ()
    return copy


selectors = st.one_of(
    st.sampled_from(TOOLS), st.sampled_from(KINDS).map(lambda kind: on.event(kind))
)


@settings(max_examples=200, deadline=None)
@given(events, st.sampled_from(TOOLS), selectors)
def test_followed_by_kept_on_the_index_answers_as_a_fresh_pairing(
    items: Any, name: str, nxt: Any
) -> None:
    rec = build(items)
    check = FollowedBy(name, nxt)
    assert check.evaluate(rec) == fresh(check).evaluate(rec)
    kept = check.evaluate(rec)  # read from the index this time
    again = fresh(check).evaluate(rec)
    assert (kept.message, kept.evidence, kept.details) == (
        again.message,
        again.evidence,
        again.details,
    )
    assert kept.details is not again.details
    if "pairs" in kept.details:  # the kept pairs are copied into each result
        assert kept.details["pairs"] is not check.evaluate(rec).details["pairs"]


@settings(max_examples=200, deadline=None)
@given(events, st.sampled_from(TOOLS), selectors)
def test_not_called_before_kept_on_the_index_answers_as_a_fresh_search(
    items: Any, name: str, marker: Any
) -> None:
    rec = build(items)
    check = NotCalledTool(name, before=marker)
    for _ in range(2):  # computed, then kept
        out, again = check.evaluate(rec), fresh(check).evaluate(rec)
        assert out == again and out.message == again.message


def test_a_fresh_copy_really_has_no_plan() -> None:
    rec = build([("tool", "a", None), ("tool", "b", None)])
    fresh(FollowedBy("a", "b")).evaluate(rec)
    fresh(NotCalledTool("a", before="b")).evaluate(rec)
    assert not rec.index.derived


envelope_selectors = st.builds(
    lambda kind, ref, typed: on.event(kind, **({"event_type": "x"} if typed else {}), **ref),
    st.sampled_from(KINDS),
    st.sampled_from([{}, {"operation_ref": "op-7"}, {"operation_ref": "op-8"}]),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(events, envelope_selectors, st.one_of(st.none(), st.integers(0, 3)))
def test_event_kept_on_the_index_answers_as_a_fresh_selection(
    items: Any, selector: Any, count: int | None
) -> None:
    rec = build(items)
    check = EventCheck(selector, count=count)
    for _ in range(2):  # computed, then kept
        out, again = check.evaluate(rec), fresh(check).evaluate(rec)
        assert out == again and out.message == again.message


states = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["x", "y"])),
    lambda inner: st.dictionaries(st.sampled_from("ab"), inner, max_size=2),
    max_leaves=6,
)
paths = st.lists(st.sampled_from("ab"), max_size=3).map(lambda keys: "".join("/" + k for k in keys))
wanted = st.sampled_from([ANY, "x", 1, True, None])


@settings(max_examples=300, deadline=None)
@given(states, states, paths, wanted, wanted)
def test_changed_kept_per_path_answers_as_a_fresh_record(
    initial: Any, final: Any, path: str, before: Any, after: Any
) -> None:
    data = {"events": [], "initial_state": {"s": initial}, "final_state": {"s": final}}
    rec = TrialRecord.from_dict(data)
    check = Changed("/s" + path, before=before, after=after)
    first = check.evaluate(rec)
    assert check.evaluate(rec) == first  # kept on the record now
    assert check.evaluate(TrialRecord.from_dict(data)) == first  # a record computing afresh
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
@given(rich_events, plain_selectors, plain_selectors)
def test_selectors_with_one_plan_entry_select_the_same_events(
    items: Any, first: Any, second: Any
) -> None:
    rec = rich(items)
    entry = plan_entry(first)
    assert entry is not None
    assert selected(rec, first, entry) == (
        tuple(first.select(rec)),
        event_ids(rec, first.select(rec)),
    )
    if plan_entry(second) == entry:
        assert second.select(rec) == first.select(rec)


lifecycle_checks = st.one_of(
    st.builds(SkillActivated, st.sampled_from(["s", "t"])),
    st.builds(BlockEntered, st.just("s"), st.sampled_from(["m", "n"])),
    st.builds(CalledSubagent, st.sampled_from(["r", "q"]), st.sampled_from([None, 1, 2])),
)


@settings(max_examples=200, deadline=None)
@given(rich_events, lifecycle_checks)
def test_lifecycle_and_subagent_checks_kept_on_the_index_answer_as_fresh_ones(
    items: Any, check: Any
) -> None:
    rec = rich(items)
    for _ in range(2):  # computed, then kept
        out, again = check.evaluate(rec), fresh(check).evaluate(rec)
        assert out == again and out.message == again.message and out.details == again.details


@settings(max_examples=200, deadline=None)
@given(rich_events, st.sampled_from(["a", "b", "a|b"]), st.sampled_from(["(?i)shall", "hi"]))
def test_confirmation_kept_on_the_index_answers_as_on_a_fresh_record(
    items: Any, tool: str, pattern: str
) -> None:
    check = ConfirmationRequested(tool, pattern, 2)
    rec = rich(items)
    first = check.evaluate(rec)
    kept = check.evaluate(rec)
    again = check.evaluate(rich(items))
    assert first == kept == again and first.message == kept.message == again.message
    assert first.details == kept.details and first.details is not kept.details
    if "confirmed" in first.details:  # the kept pairs are copied into each result
        assert first.details["confirmed"] is not kept.details["confirmed"]
