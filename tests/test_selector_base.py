"""``on.event(kind, event_type, **envelope_filters)``: every envelope field is a filter."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import M, TrialRecord, on
from agent_asserts.loaders import loads
from agent_asserts.record.event import ENVELOPE_FIELDS
from agent_asserts.selector_base import ENVELOPE_FILTERS


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
