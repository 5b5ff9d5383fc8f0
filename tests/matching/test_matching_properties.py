"""Hypothesis properties of the matcher vocabulary."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher, explain, from_data, matches, value_to_data
from agent_asserts.matching.structural import match_value

keys = st.text(max_size=4) | st.sampled_from(["$ref", "$$x", "$", "a", "result", "odd key"])
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | st.sampled_from(["*", "true", "2", "2.0", "{}", '{"a": 1}', "[1]", "null"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)
numbers = st.integers(-100, 100) | st.floats(-100, 100, allow_nan=False)
patterns = st.sampled_from(["a", "^a", "1$", "true", r"\d", '"', "^$", "(?i)A", "null"])


def leaf_matchers() -> st.SearchStrategy[Matcher]:
    return st.one_of(
        st.builds(M.gt, numbers),
        st.builds(M.ge, numbers),
        st.builds(M.lt, numbers),
        st.builds(M.le, numbers),
        st.tuples(numbers, numbers).map(lambda t: M.between(min(t), max(t))),
        st.builds(M.regex, patterns),
        st.just(M.anything()),
        st.just(M.non_empty()),
        st.just(M.absent()),
        st.lists(scalars, min_size=1, max_size=3).map(lambda xs: M.one_of(*xs)),
        st.lists(scalars, min_size=1, max_size=3).map(lambda xs: M.not_in(*xs)),
        st.builds(
            M.approx,
            numbers,
            st.none() | st.floats(0, 1),
            st.none() | st.floats(0, 10),
        ),
        st.builds(M.contains, json_values),
        st.builds(M.exact, json_values),
        st.builds(M.json, json_values),
        st.builds(M.lenient, json_values),
        st.builds(M.loose, json_values),
    )


def matchers_of(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Matcher]:
    """The matchers built from other expected values (``inner``)."""
    return st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: M.all_of(*xs)),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: M.any_of(*xs)),
        st.builds(M.not_, inner),
        st.builds(M.contains, inner),
        st.lists(inner, max_size=3).map(M.unordered),
        st.dictionaries(keys, inner, max_size=3).map(M.partial),
        st.builds(M.exact, inner),
        st.builds(M.json, inner),
        st.builds(M.lenient, inner),
    )


def with_matchers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return (
        st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3) | matchers_of(inner)
    )


expected_values = st.recursive(scalars | leaf_matchers(), with_matchers, max_leaves=8)
# every draw is a matcher (built, not filtered out of expected_values)
matchers = leaf_matchers() | matchers_of(expected_values)


def mutate(value: Any, data: st.DataObject) -> Any:
    """A value near ``value``: sometimes equal, sometimes with one part changed."""
    if isinstance(value, dict):
        out = {k: mutate(v, data) for k, v in value.items()}
        if len(out) > 0 and data.draw(st.booleans()):
            out.pop(data.draw(st.sampled_from(sorted(out, key=repr))))
        if data.draw(st.booleans()):
            out[data.draw(keys)] = data.draw(json_values)
        return out
    if isinstance(value, list):
        return [mutate(v, data) for v in value]
    return data.draw(st.just(value) | json_values)


@settings(max_examples=300)
@given(expected=expected_values, actual=json_values)
def test_matches_iff_explain_is_empty(expected: Any, actual: Any) -> None:
    assert matches(expected, actual) is (explain(expected, actual) == [])


@settings(max_examples=300)
@given(expected=json_values, data=st.data())
def test_matches_iff_explain_is_empty_on_near_values(expected: Any, data: st.DataObject) -> None:
    actual = mutate(expected, data)
    for e in (expected, M.exact(expected), M.lenient(expected), M.unordered([expected])):
        assert matches(e, actual) is (explain(e, actual) == [])


@given(matcher=matchers, actual=json_values | st.just(MISSING))
def test_matcher_methods_agree(matcher: Matcher, actual: Any) -> None:
    mismatches = matcher.explain(actual, "$.x")
    assert matcher.matches(actual) is (mismatches == [])
    assert all(m.path.startswith("$.x") and m.reason for m in mismatches)


@given(value=json_values)
def test_plain_values_match_themselves(value: Any) -> None:
    assert matches(value, value)
    assert M.exact(value).matches(value)
    assert M.lenient(value).matches(value)
    assert M.loose(value).matches(value)


def bools_to_ints(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dict):
        return {k: bools_to_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [bools_to_ints(v) for v in value]
    return value


def has_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, dict):
        return any(has_bool(v) for v in value.values())
    if isinstance(value, list):
        return any(has_bool(v) for v in value)
    return False


# JSON values holding a bool at some depth, by construction (a bool, wrapped in lists and
# mappings that also hold other values), so no draw is thrown away
json_values_with_a_bool = st.recursive(
    st.booleans(),
    lambda inner: (
        st.tuples(st.lists(json_values, max_size=2), inner, st.lists(json_values, max_size=2)).map(
            lambda t: [*t[0], t[1], *t[2]]
        )
        | st.tuples(st.dictionaries(keys, json_values, max_size=3), keys, inner).map(
            lambda t: {**t[0], t[1]: t[2]}
        )
    ),
    max_leaves=4,
)


@given(value=json_values_with_a_bool)
def test_a_bool_never_equals_a_number_at_any_depth(value: Any) -> None:
    assert has_bool(value)
    numeric = bools_to_ints(value)
    assert not matches(value, numeric)
    assert not matches(numeric, value)
    assert not M.exact(value).matches(numeric)
    assert not M.one_of(value).matches(numeric)
    assert not M.contains(value).matches([numeric])
    assert not M.contains(numeric).matches([value])
    assert not M.unordered([value]).matches([numeric])


@given(flag=st.booleans(), other=st.sampled_from([0, 1, 0.0, 1.0]))
def test_bool_and_number_in_membership_matchers(flag: bool, other: float) -> None:
    assert not M.one_of(flag).matches(other)
    assert not M.one_of(other).matches(flag)
    assert M.not_in(flag).matches(other)
    assert not M.contains(flag).matches([other])
    assert not M.contains(other).matches([flag])


def brute_force_bag(items: list[Any], actual: list[Any]) -> bool:
    if len(items) != len(actual):
        return False
    return any(
        all(match_value(want, actual[j]) for want, j in zip(items, perm, strict=True))
        for perm in itertools.permutations(range(len(actual)))
    )


small_items = st.sampled_from([1, 2, "a", True, M.anything(), M.gt(1), M.one_of(1, 2), {}])


@settings(max_examples=300)
@given(
    items=st.lists(small_items, max_size=5),
    actual=st.lists(st.sampled_from([1, 2, 3, "a", True, {"k": 1}]), max_size=5),
)
def test_unordered_agrees_with_brute_force(items: list[Any], actual: list[Any]) -> None:
    m = M.unordered(items)
    assert m.matches(actual) is brute_force_bag(items, actual)
    assert m.matches(actual) is (m.explain(actual) == [])


@given(xs=st.lists(json_values, max_size=4), extra=json_values, data=st.data())
def test_unordered_finds_matching_that_first_fit_misses(
    xs: list[Any], extra: Any, data: st.DataObject
) -> None:
    # M.anything() listed first greedily grabs an item another expected item needs
    actual = data.draw(st.permutations([*xs, extra]))
    assert M.unordered([M.anything(), *xs]).matches(actual)


@settings(max_examples=300)
@given(matcher=matchers)
def test_to_data_from_data_round_trip(matcher: Matcher) -> None:
    assert from_data(matcher.to_data()) == matcher


@given(value=expected_values)
def test_value_to_data_round_trip(value: Any) -> None:
    assert from_data(value_to_data(value)) == value
