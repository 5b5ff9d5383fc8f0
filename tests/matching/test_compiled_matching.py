"""A compiled expected value answers exactly as the default rules, and a selector's compiled
selection equals the general one (time limits and unrecorded arguments included)."""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import M, TrialRecord
from agent_asserts._deadline import re_interruptible, time_limit
from agent_asserts._values import MISSING
from agent_asserts.matching.compiled import compile_filter, compile_test
from agent_asserts.matching.structural import match_value
from agent_asserts.selectors.calls import ToolSelector
from agent_asserts.selectors.unrecorded import unrecorded_as_matching

keys = st.sampled_from(["a", "b", "orderId", 3])
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
actual_values = st.recursive(
    scalars | st.just(MISSING),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=10,
)


@given(expected_values, actual_values)
def test_a_compiled_value_answers_as_the_default_rules(expected: Any, actual: Any) -> None:
    assert bool(compile_test(expected)(actual)) == match_value(expected, actual)


@given(st.dictionaries(keys, expected_values, max_size=4), actual_values)
def test_a_compiled_mapping_answers_as_the_default_rules(expected: Any, actual: Any) -> None:
    assert bool(compile_test(expected)(actual)) == match_value(expected, actual)


def test_large_and_deep_mappings_use_the_general_rules() -> None:
    wide = {f"k{i}": i for i in range(100)}
    assert compile_test(wide)(dict(wide)) is True
    assert compile_test(wide)({**wide, "k99": 0}) is False
    deep: Any = {"a": "x"}
    for _ in range(20):
        deep = {"a": deep}
    assert compile_test(deep)(deep) is True
    assert compile_test(deep)({"a": {"a": 1}}) is False


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


@given(st.dictionaries(keys.filter(lambda k: k != 3), expected_values, max_size=3), calls)
def test_a_selection_equals_the_general_one(arguments: Any, values: list[Any]) -> None:
    selector = ToolSelector("lookup", arguments=arguments)
    record = _record(values)
    assert selector.select(record) == _general(selector, record)
    with unrecorded_as_matching():
        assert selector.select(record) == _general(selector, record)


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


@given(st.dictionaries(keys, expected_values, max_size=4), st.lists(actual_values, max_size=6))
def test_a_compiled_filter_keeps_what_the_default_rules_match(
    expected: Any, items: list[Any]
) -> None:
    keep = compile_filter(expected, "items[i]")
    assert keep is not None
    positions = list(range(len(items)))
    assert keep(positions, items) == [i for i in positions if match_value(expected, items[i])]
    assert compile_filter(M.partial(expected), "items[i]") is not None
    assert compile_filter(M.gt(1), "items[i]") is None
