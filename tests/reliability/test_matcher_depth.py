"""Deep values and the matchers (issue #17, finding 5): one depth limit, no RecursionError.

An expected value nested past ``MAX_DEPTH`` is refused when the matcher is built (a
``ValueError`` naming where); an actual value of any depth handed straight to ``matches`` or
``explain`` gives a clean answer: where the matcher must walk it whole (``M.regex``, ``M.loose``,
JSON text for ``M.json`` and ``M.lenient``) a value past the limit does not match, and every
mismatch renders it as ``<list nested more than 200 levels deep (the limit of nesting)>``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from agent_asserts._values import MAX_DEPTH
from agent_asserts.matching import M, Matcher

DEEP_TEXT = "[" * 100_000 + "]" * 100_000
TOO_DEEP = "nested more than 200 levels deep (the limit of nesting)"


def nested_list(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(levels - 1):
        value = [value]
    return [value] if levels else value


def nested_dict(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


MATCHERS: dict[str, Matcher] = {
    "absent": M.absent(), "anything": M.anything(), "approx": M.approx(1.0),
    "between": M.between(1, 2), "contains": M.contains(1), "exact": M.exact([1]),
    "gt": M.gt(1), "json": M.json({"a": 1}), "lenient": M.lenient({"a": 1}),
    "loose": M.loose({"a": 1}), "non_empty": M.non_empty(), "not_": M.not_(M.exact([1])),
    "not_in": M.not_in([1]), "one_of": M.one_of(1, 2), "partial": M.partial({"a": 1}),
    "regex": M.regex("1"), "satisfies": M.satisfies(lambda v: False),
    "subset_of": M.subset_of({"a": 1}), "unordered": M.unordered([1]),
    "all_of": M.all_of(M.non_empty(), [[1]]), "any_of": M.any_of(M.gt(1), {"a": {"a": 1}}),
}  # fmt: skip
ACTUALS = {
    "list of 10,000 levels": nested_list(10_000),
    "mapping of 10,000 levels": nested_dict(10_000),
    "JSON text of 100,000 levels": DEEP_TEXT,
}


@pytest.mark.parametrize("actual", sorted(ACTUALS))
@pytest.mark.parametrize("name", sorted(MATCHERS))
def test_a_deep_actual_gets_an_answer_never_a_recursion_error(name: str, actual: str) -> None:
    matcher, value = MATCHERS[name], ACTUALS[actual]
    found = matcher.explain(value)
    assert matcher.matches(value) == (found == [])
    for mismatch in found:
        assert "repr failed" not in mismatch.reason


@pytest.mark.parametrize("name", ["regex", "loose"])
def test_a_value_walked_whole_past_the_limit_does_not_match(name: str) -> None:
    matcher = M.regex("1") if name == "regex" else M.loose(nested_list(MAX_DEPTH))
    assert matcher.matches(nested_list(MAX_DEPTH)) is True  # at the limit: walked
    assert matcher.matches(nested_list(MAX_DEPTH + 1)) is False
    (mismatch,) = matcher.explain(nested_list(MAX_DEPTH + 1), "$.reply")
    assert str(mismatch) == (f"$.reply: expected {matcher.describe()}, got <list {TOO_DEEP}>")


def test_json_text_nested_past_the_limit_is_invalid_json() -> None:
    (mismatch,) = M.json([1]).explain(DEEP_TEXT)
    assert mismatch.reason.endswith(f" (invalid JSON: {TOO_DEEP})")
    (mismatch,) = M.json([1]).explain("[" * 201 + "]" * 201)
    assert mismatch.reason.endswith(f" (invalid JSON: {TOO_DEEP})")
    assert M.json(M.non_empty()).matches("[" * 200 + "1" + "]" * 200)  # at the limit


def test_a_deep_value_in_a_mismatch_is_named_not_a_failed_repr() -> None:
    (mismatch,) = M.gt(1).explain(nested_dict(5_000), "$.n")
    assert str(mismatch) == f"$.n: expected a number > 1, got <dict {TOO_DEEP}> (not a number)"


FACTORIES: dict[str, Any] = {
    "exact": M.exact, "partial": M.partial, "json": M.json, "lenient": M.lenient,
    "loose": M.loose, "unordered": lambda v: M.unordered([v]), "contains": M.contains,
    "one_of": M.one_of, "not_in": M.not_in, "subset_of": lambda v: M.subset_of({"k": v}),
    "all_of": M.all_of, "any_of": M.any_of, "not_": M.not_,
}  # fmt: skip
WHERE = {"unordered": "$[0]", "one_of": "$[0]", "not_in": "$[0]", "subset_of": "$.k",
         "all_of": "$[0]", "any_of": "$[0]"}  # fmt: skip


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 100_000])
@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_a_deep_expected_value_is_refused_when_built(name: str, levels: int) -> None:
    deep = nested_dict(levels)
    with pytest.raises(ValueError, match=re.escape(TOO_DEEP)) as caught:
        FACTORIES[name](deep)
    # the list of M.unordered and the mapping of M.subset_of are the first level themselves
    levels_shown = MAX_DEPTH - 1 if name in ("unordered", "subset_of") else MAX_DEPTH
    path = WHERE.get(name, "$") + ".a" * levels_shown
    assert str(caught.value) == f"expected value at {path}: {TOO_DEEP}"


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_an_expected_value_at_the_limit_is_built(name: str) -> None:
    FACTORIES[name](nested_dict(MAX_DEPTH - 2))
