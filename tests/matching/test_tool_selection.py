"""A tool selector's selection over the per-name index equals the general one (each candidate
through ``matches``), with time limits and unrecorded arguments included."""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import M, TrialRecord
from agent_asserts._deadline import re_interruptible, time_limit
from agent_asserts._values import MISSING
from agent_asserts.selectors import ToolSelector, unrecorded_as_matching

keys = st.sampled_from(["a", "b", "orderId"])
scalars = st.sampled_from([0, 1, 2, True, False, 1.0, 2.5, -0.0, "a", "A1", "b1", "", None])
leaf_matchers = st.sampled_from(
    [
        M.regex("^A"),
        M.regex("1$"),
        M.regex("(?i)a"),
        M.gt(0),
        M.one_of(1, "a"),
        M.absent(),
        M.anything(),
        M.partial({"a": 1}),
        M.exact({"a": 1}),
    ]
)


def nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(keys, inner, max_size=3),
        st.dictionaries(keys, inner, max_size=3).map(M.partial),
        st.lists(inner, min_size=1, max_size=2).map(lambda xs: M.any_of(*xs)),
    )


expected_values = st.recursive(scalars | leaf_matchers, nested, max_leaves=8)


def _record(values: list[Any]) -> TrialRecord:
    builder = TrialRecord.builder()
    for value in values:
        if value is MISSING:
            builder.tool("lookup")
        else:
            builder.tool("lookup", arguments=value)
        builder.tool("other", arguments=value if isinstance(value, dict) else {})
    return builder.build()


def _general(selector: ToolSelector, record: TrialRecord) -> list[int]:
    return [i for i in selector.candidates(record) if selector.matches(record.events[i])]


recorded = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b"]), inner),
    max_leaves=6,
)
calls = st.lists(
    st.dictionaries(st.sampled_from(["a", "b", "orderId"]), recorded, max_size=3)
    | st.just(MISSING),
    max_size=5,
)


@given(
    st.dictionaries(keys, expected_values, max_size=3),
    st.sampled_from([None, {"ok": True}, M.anything()]),
    calls,
)
def test_a_selection_equals_the_general_one(arguments: Any, result: Any, values: list[Any]) -> None:
    selector = ToolSelector("lookup", arguments=arguments, result=result)
    record = _record(values)
    assert selector.select(record) == _general(selector, record)
    with unrecorded_as_matching():
        assert selector.select(record) == _general(selector, record)


def test_a_selection_by_name_alone_is_the_per_name_index() -> None:
    record = _record([{"a": 1}, MISSING])
    selector = ToolSelector("lookup")
    assert selector.takes_every_candidate()
    assert selector.select(record) == [0, 2] == _general(selector, record)
    assert not ToolSelector("lookup", arguments={}).takes_every_candidate()
    assert not ToolSelector("lookup|other").takes_every_candidate()


def test_a_limit_armed_in_another_thread_selects_through_the_timed_search() -> None:
    selector = ToolSelector("lookup", arguments={"orderId": M.regex("^A")})
    record = _record([{"orderId": "A1"}, {"orderId": "B2"}, {"orderId": 5}, MISSING])
    seen: list[Any] = []

    def run() -> None:
        with time_limit(30):
            seen.append((re_interruptible(), selector.select(record)))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert seen == [(False, [0])]
    assert selector.select(record) == [0]
