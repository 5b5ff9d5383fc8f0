"""Expected values keyed by content: the construction cache reuses a check whose dict, list or
``M.*`` arguments were written inline, and the reused check behaves exactly as a new one."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import EvalContext, M, TrialRecord
from agent_asserts.checks.tools import CalledTool
from agent_asserts.checks.trajectory import EveryCall
from agent_asserts.matching import Matcher, matches
from agent_asserts.matching.content_key import NotKeyable, content_part, private_copy
from agent_asserts.selectors.memo import built

# a small vocabulary, so that equal keys (and near misses: 1, 1.0, True) come up often
keys = st.sampled_from(["a", "b", "orderId"])
scalars = st.sampled_from([0, 1, True, False, 1.0, 0.0, -0.0, "a", "A1", "", None])
leaf_matchers = st.sampled_from(
    [M.regex("^A"), M.regex("1$"), M.gt(0), M.ge(1.0), M.one_of(1, "a"), M.absent(), M.anything()]
)


def nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(keys, inner, max_size=3),
        st.lists(inner, min_size=1, max_size=2).map(lambda xs: M.any_of(*xs)),
        st.builds(M.not_, inner),
    )


expected = st.recursive(scalars | leaf_matchers, nested, max_leaves=6)
arguments = st.dictionaries(keys, expected, max_size=3)
actuals = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3)
)


def keyed(value: Any) -> Any:
    try:
        return content_part(value)
    except NotKeyable:
        return None


@given(arguments, arguments, actuals)
def test_equal_keys_mean_equal_behaviour(a: Any, b: Any, actual: Any) -> None:
    if keyed(a) is not None and keyed(a) == keyed(b):
        assert repr(a) == repr(b)
        assert matches(a, actual) == matches(b, actual)


@given(arguments, st.lists(st.dictionaries(keys, actuals, max_size=3) | actuals, max_size=4))
def test_a_cached_check_evaluates_as_a_new_one(args: Any, calls: list[Any]) -> None:
    builder = TrialRecord.builder()
    for value in calls:
        builder.tool("lookup", arguments=value)
    record = builder.build()
    for cls in (CalledTool, EveryCall):
        fresh = cls("lookup", args)
        first = built(cls, "lookup", copy.deepcopy(args))
        again = built(cls, "lookup", copy.deepcopy(args))
        assert again is first or keyed(args) is None
        assert first == fresh
        assert first.describe() == fresh.describe()
        assert first.evaluate(record) == fresh.evaluate(record)


def test_the_cached_check_is_built_from_a_private_copy() -> None:
    args = {"orderId": "A1", "items": [1, 2]}
    check = built(CalledTool, "lookup", args)
    args["orderId"] = "B2"
    args["items"].append(3)
    assert check.arguments == {"orderId": "A1", "items": [1, 2]}
    assert built(CalledTool, "lookup", {"orderId": "A1", "items": [1, 2]}) is check
    assert built(CalledTool, "lookup", args) is not check


def test_types_and_key_order_are_part_of_the_key() -> None:
    made = [built(CalledTool, "lookup", {"n": n}) for n in (1, 1.0, True)]
    assert len({id(check) for check in made}) == 3
    assert [check.describe() for check in made] == [
        "called_tool('lookup', arguments={'n': 1})",
        "called_tool('lookup', arguments={'n': 1.0})",
        "called_tool('lookup', arguments={'n': True})",
    ]
    ab = built(CalledTool, "lookup", {"a": 1, "b": 2})
    assert built(CalledTool, "lookup", {"b": 2, "a": 1}) is not ab
    assert built(CalledTool, "lookup", {"a": 0.0}) is not built(CalledTool, "lookup", {"a": -0.0})


def test_an_inline_matcher_is_keyed_by_its_fields() -> None:
    first = built(EveryCall, "lookup", {"orderId": M.regex("^A")})
    assert built(EveryCall, "lookup", {"orderId": M.regex("^A")}) is first
    assert built(EveryCall, "lookup", {"orderId": M.regex("^B")}) is not first


@pytest.mark.parametrize(
    "value",
    [
        {"f": M.satisfies(callable)},  # a callable
        {"s": {1, 2}},  # a set
        {1: "a"},  # a key that is not a string
        {"p": M.partial({"a": 1})},  # a dict inside a matcher (shared, not copied)
        {"x": object()},
    ],
)
def test_values_without_a_content_key_are_built_every_time(value: Any) -> None:
    with pytest.raises(NotKeyable):
        content_part(value)
    assert built(CalledTool, "lookup", value) is not built(CalledTool, "lookup", value)


def test_a_value_past_the_depth_limit_raises_the_same_error_every_time() -> None:
    deep: Any = "leaf"
    for _ in range(250):
        deep = {"a": deep}
    with pytest.raises(ValueError, match="nested more than 200 levels") as direct:
        CalledTool("lookup", deep)
    for _ in range(2):
        with pytest.raises(ValueError, match="nested more than 200 levels") as cached:
            built(CalledTool, "lookup", deep)
        assert str(cached.value) == str(direct.value)
    cycle: dict[str, Any] = {}
    cycle["a"] = cycle
    with pytest.raises(NotKeyable):
        content_part(cycle)


def test_a_bad_argument_raises_every_time_and_is_never_cached() -> None:
    ctx = EvalContext(TrialRecord.builder().tool("lookup", {"id": 1}).build())
    for _ in range(2):
        with pytest.raises(ValueError, match="non-empty tool name"):
            ctx.called_tool(" ", arguments={"id": 1})
        with pytest.raises(ValueError, match="needs 'arguments' or 'result'"):
            ctx.every_call("lookup")
    assert ctx.called_tool("lookup", arguments={"id": 1}).result.passed


@given(expected)
def test_private_copy_is_equal_and_shares_no_container(value: Any) -> None:
    if keyed(value) is None:
        return
    copied = private_copy(value)
    assert keyed(copied) == keyed(value)
    assert repr(copied) == repr(value)
    if isinstance(value, dict | list) and not isinstance(value, Matcher):
        assert copied is not value


def test_m_regex_is_one_matcher_per_pattern_and_a_bad_pattern_raises_every_time() -> None:
    assert M.regex("^A") is M.regex("^A")
    assert M.regex("^A") == M.regex("^A") and M.regex("^A") is not M.regex("^B")
    for _ in range(2):
        with pytest.raises(ValueError, match="invalid regular expression"):
            M.regex("(")
        with pytest.raises(TypeError, match="'pattern' must be str"):
            M.regex(3)  # type: ignore[arg-type]
