"""``on.event(kind, event_type, **envelope_filters)``: every envelope field is a filter."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import M, TrialRecord, on
from agent_asserts.loaders import loads
from agent_asserts.record.event import ENVELOPE_FIELDS
from agent_asserts.selectors import ENVELOPE_FILTERS


def record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .event(
            "audit",
            entity_refs=["order:A1049", "user:u1"],
            monotonic_time=12.4,
            wall_time="2024-05-01T10:00:00Z",
        )
        .event("audit", entity_refs=["order:A1049"], monotonic_time=3.0, wall_time=1714557600.0)
        .build()
    )


def test_every_envelope_field_but_kind_and_event_type_is_a_filter() -> None:
    assert set(ENVELOPE_FILTERS) == (set(ENVELOPE_FIELDS) - {"kind", "event_type"}) | {"entity_ref"}


@pytest.mark.parametrize(
    ("filters", "selected"),
    [
        ({"entity_refs": ["order:A1049"]}, [1]),  # the whole list, compared as a list
        ({"entity_refs": ["order:A1049", "user:u1"]}, [0]),
        ({"entity_refs": ["user:u1", "order:A1049"]}, []),  # lists keep their order
        ({"entity_refs": M.unordered(["user:u1", "order:A1049"])}, [0]),
        ({"entity_ref": "order:A1049"}, [0, 1]),  # membership
        ({"monotonic_time": M.gt(10)}, [0]),
        ({"monotonic_time": 3.0}, [1]),
        ({"wall_time": M.regex("^2024-05")}, [0]),
        ({"wall_time": 1714557600.0}, [1]),
        ({"event_id": "e1"}, [1]),
        ({"payload": {}}, [0, 1]),
    ],
)
def test_envelope_filters(filters: dict[str, Any], selected: list[int]) -> None:
    assert on.event("audit", **filters).select(record()) == selected


def test_mismatches_name_the_field() -> None:
    sel = on.event(entity_refs=["order:A1049"], monotonic_time=M.gt(20))
    assert [str(m) for m in sel.explain(record().events[0])] == [
        "$.entity_refs: expected 1 item, got 2",
        "$.monotonic_time: expected a number > 20, got 12.4",
    ]


def test_unknown_filter_suggests() -> None:
    with pytest.raises(ValueError, match="unknown event filter") as info:
        on.event(monotonic=1)
    assert str(info.value) == "unknown event filter 'monotonic' (did you mean 'monotonic_time'?)"


def test_filters_in_a_suite_file_and_back() -> None:
    suite = loads(
        "checks:\n"
        "  - event:\n"
        "      selector: {event: {kind: audit, monotonic_time: {$gt: 10},"
        " entity_refs: [order:A1049, user:u1]}}\n"
    )
    (check,) = suite.cases[0].checks
    assert check.selector == on.event(
        "audit", monotonic_time=M.gt(10), entity_refs=["order:A1049", "user:u1"]
    )
    assert suite.evaluate(record())[0].results[0].evidence == ("e0",)
    assert check.selector.to_data() == {
        "event": {
            "kind": "audit",
            "monotonic_time": {"$gt": 10},
            "entity_refs": ["order:A1049", "user:u1"],
        }
    }


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (
            lambda: on.event(kind=5),
            TypeError,
            "on.event(): 'kind' must be str or None, got int (5)",
        ),
        (
            lambda: on.event("a", 7),
            TypeError,
            "on.event(): 'event_type' must be str or None, got int (7)",
        ),
        (lambda: on.event(turn="1"), TypeError, "'turn' must be an int or a matcher (got '1')"),
        (lambda: on.event(turn=True), TypeError, "'turn' must be an int or a matcher (got True)"),
        (
            lambda: on.event(entity_refs="order:A1"),
            TypeError,
            "'entity_refs' must be a list of strings or a matcher (got 'order:A1')",
        ),
        (
            lambda: on.event(entity_refs=["a", 5]),
            TypeError,
            "'entity_refs' must be a list of strings or a matcher (got ['a', 5])",
        ),
        (
            lambda: on.event(entity_ref=["a"]),
            TypeError,
            "'entity_ref' must be a string or a matcher (got ['a'])",
        ),
        (
            lambda: on.event(actor_ref=5),
            TypeError,
            "'actor_ref' must be a string, None or a matcher (got 5)",
        ),
        (
            lambda: on.event(monotonic_time="12"),
            TypeError,
            "'monotonic_time' must be a number, None or a matcher (got '12')",
        ),
        (
            lambda: on.event(wall_time=[1]),
            TypeError,
            "'wall_time' must be a string, a number, None or a matcher (got [1])",
        ),
        (
            lambda: on.event(event_id=None),
            TypeError,
            "'event_id' must be a string or a matcher (got None)",
        ),
        (
            lambda: on.event(payload=[1]),
            TypeError,
            "'payload' must be a mapping or a matcher (got [1])",
        ),
        (lambda: on.subagent(5), TypeError, "on.subagent(): 'name' must be str, got int (5)"),
        (lambda: on.subagent(""), ValueError, "'name' must be a non-empty string (got '')"),
        (
            lambda: on.subagent("r", status=1),
            TypeError,
            "'status' must be a string or None (got 1)",
        ),
        (
            lambda: on.message(actor=5),
            TypeError,
            "on.message(): 'actor' must be str or None, got int (5)",
        ),
        (
            lambda: on.message(utter_name=5),
            TypeError,
            "on.message(): 'utter_name' must be str or None, got int (5)",
        ),
        (
            lambda: on.message(text=5),
            TypeError,
            "'text' must be a regular expression (a string), a matcher or None (got 5)",
        ),
        (
            lambda: on.skill("activated", 5),
            TypeError,
            "on.skill(): 'skill_id' must be str, got int (5)",
        ),
        (
            lambda: on.skill("cancelled", "s", step_id=3),
            TypeError,
            "on.skill(): 'step_id' must be str or None, got int (3)",
        ),
        (
            lambda: on.block("entered", "s", ""),
            ValueError,
            "'block_id' must be a non-empty string (got '')",
        ),
        (
            lambda: on.tool("a", skill_id=5),
            TypeError,
            "on.tool(): 'skill_id' must be str or None, got int (5)",
        ),
        (
            lambda: on.tool("a", mcp_server=5),
            TypeError,
            "on.tool(): 'mcp_server' must be str or None, got int (5)",
        ),
    ],
)
def test_wrong_argument_types_are_errors_when_built(
    build: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_filters_of_the_right_type_or_matchers_are_accepted() -> None:
    rec = record()
    assert on.event(turn=M.ge(0), entity_refs=[M.regex("order"), "user:u1"]).select(rec) == [0]
    assert on.event(actor_ref=None, phase=None, monotonic_time=12.4).select(rec) == [0]
    assert on.event(wall_time=1714557600.0, entity_refs=("order:A1049",)).select(rec) == [1]
    assert on.tool("a", arguments=5).arguments == 5  # a scalar is a strict expectation


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda ctx: ctx.tools_within_one_turn("a", 5, allow_extra_calls=False),
            "EvalContext.tools_within_one_turn(): 'calls[1]' must be ToolSelector (on.tool) or "
            "str, got int (5)",
        ),
        (
            lambda ctx: ctx.tools_within_one_turn("a", on.event("x"), allow_extra_calls=False),
            "EvalContext.tools_within_one_turn(): 'calls[1]' must be ToolSelector (on.tool) or "
            "str, got EventSelector (on.event('x'))",
        ),
        (
            lambda ctx: ctx.event(None),
            "EvalContext.event(): 'selector' must be Selector (on.*) or str, got NoneType (None)",
        ),
        (
            lambda ctx: ctx.not_event(5),
            "EvalContext.not_event(): 'selector' must be Selector (on.*) or str, got int (5)",
        ),
    ],
)
def test_a_step_that_is_not_a_selector_names_its_parameter(build: Any, message: str) -> None:
    from agent_asserts import EvalContext

    with pytest.raises(TypeError) as info:
        build(EvalContext(TrialRecord.builder().build()))
    assert str(info.value) == message
