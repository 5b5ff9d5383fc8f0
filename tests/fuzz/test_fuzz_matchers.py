"""Every ``M.*`` factory with random arguments, on random actual values.

Building raises only the documented errors (``ValueError``, ``TypeError``); a built matcher's
``matches`` and ``explain`` never raise on any JSON-like actual (only ``MatcherError``, from a
predicate of ``M.satisfies``, which is documented), ``matches(x) == (explain(x) == [])``, and
``describe``, ``repr`` and every mismatch's text work. A matcher with a data form reads back
equal through ``from_data`` (``M.satisfies`` has none: ``TypeError``).
"""

from __future__ import annotations

from typing import Any

import attrs
from fuzz_seeds import json_like
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher, MatcherError, from_data

EXAMPLES = settings(max_examples=250, suppress_health_check=list(HealthCheck), deadline=None)
BUILD_ERRORS = (ValueError, TypeError)


def _raises(value: Any) -> bool:
    raise RuntimeError("predicate failed")


PREDICATES = [bool, callable, lambda v: v == 1, _raises, lambda v: "not a bool", len]
ODD = ["", "\x00", "\u202e", "é", "🙂", "(", "[a-", "a" * 200, "$regex", "^\\d+$", "(a|aa)+$",
       2**64, -(10**40), 1e308, -0.0, float("inf"), float("nan"), 0.1, True, None]  # fmt: skip
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                    st.text(max_size=6), st.sampled_from(ODD))  # fmt: skip
keys = st.one_of(st.text(max_size=4), st.sampled_from(["a", "$regex", "id"]))
data: Any = json_like(scalars, keys, size=3, leaves=10, tuples=True)


def _deep(levels: int, mapping: bool) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value} if mapping else [value]
    return value


actuals = st.one_of(
    data,
    st.just(MISSING),
    st.builds(_deep, st.sampled_from([199, 200, 201, 5_000]), st.booleans()),
    st.sampled_from(["[" * 300 + "]" * 300, '{"a": 1}', "[1, 2]", "not json", b'{"a": 1}']),
)


@attrs.frozen
class Recipe:
    """How to build a matcher: ``M.<factory>(*args)``, args possibly recipes themselves."""

    factory: str
    args: tuple[Any, ...]

    def build(self) -> Matcher:
        args = [_cook(arg) for arg in self.args]
        if self.factory == "&":
            return args[0] & args[1]  # type: ignore[no-any-return]
        if self.factory == "~":
            return ~args[0]  # type: ignore[no-any-return]
        return getattr(M, self.factory)(*args)  # type: ignore[no-any-return]


def _cook(value: Any) -> Any:
    return value.build() if isinstance(value, Recipe) else value


def recipe(factory: str, *args: Any) -> Any:
    return st.tuples(*args).map(lambda drawn: Recipe(factory, drawn))


numbers = st.one_of(st.integers(), st.floats(), st.sampled_from(ODD), st.text(max_size=2))
opt = st.one_of(st.none(), numbers)
recipes: Any = st.deferred(lambda: st.one_of(leaf_recipes, nested_recipes))
values = st.one_of(data, recipes)
leaf_recipes = st.one_of(
    recipe("anything"), recipe("non_empty"), recipe("absent"),
    recipe("regex", st.one_of(st.sampled_from(ODD), st.text(max_size=6), data)),
    *(recipe(op, numbers) for op in ("gt", "ge", "lt", "le")),
    recipe("between", numbers, numbers), recipe("approx", numbers, opt, opt),
    recipe("satisfies", st.one_of(st.sampled_from(PREDICATES), data)),
    recipe("loose", data), recipe("one_of", data, data), recipe("not_in", data),
)  # fmt: skip
nested_recipes = st.one_of(
    *(recipe(name, values) for name in ("exact", "partial", "subset_of", "json", "lenient",
                                         "unordered", "contains", "not_")),
    recipe("all_of", values, values), recipe("any_of", values, values),
    recipe("&", recipes, values), recipe("~", recipes),
)  # fmt: skip


def built(plan: Recipe) -> Matcher | None:
    """The matcher of ``plan``, or None when building raised a documented error."""
    try:
        return plan.build()
    except BUILD_ERRORS:
        return None


def answers_every_actual(plan: Recipe, cases: list[Any]) -> None:
    matcher = built(plan)
    if matcher is None:
        return
    assert isinstance(matcher.describe(), str) and isinstance(repr(matcher), str)
    for actual in cases:
        try:  # a predicate of M.satisfies may raise (documented); ``matches`` may not call it
            matched = matcher.matches(actual)
            found = matcher.explain(actual)
        except MatcherError:
            continue
        assert matched == (found == []), (matcher, actual, found)
        assert all(isinstance(str(m), str) for m in found)


def reads_back(plan: Recipe) -> None:
    matcher = built(plan)
    if matcher is None:
        return
    try:
        form = matcher.to_data()
    except TypeError:  # M.satisfies, or a value holding one: no data form
        return
    assert from_data(form) == matcher, (matcher, form)


cases = st.lists(actuals, min_size=1, max_size=4)


@EXAMPLES
@given(recipes, cases)
def test_matchers_answer_every_actual_with_only_documented_errors(
    plan: Recipe, actual_values: list[Any]
) -> None:
    answers_every_actual(plan, actual_values)


@EXAMPLES
@given(recipes)
def test_a_matcher_reads_back_from_its_data_form(plan: Recipe) -> None:
    reads_back(plan)


PROPERTIES = [
    ("M.* matches/explain", st.tuples(recipes, cases), answers_every_actual),
    ("M.* to_data/from_data", st.tuples(recipes), reads_back),
]
