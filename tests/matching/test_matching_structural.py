"""Tests for the default rules: matches, explain, as_matcher, M.partial, M.exact."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Mismatch, as_matcher, explain, matches


def reasons(expected: Any, actual: Any) -> list[str]:
    return [str(m) for m in explain(expected, actual)]


# -- pinned behaviour ---------------------------------------------------------------------


def test_pinned_default_rules() -> None:
    assert matches([1, 2], [1, 2, 3]) is False
    assert matches(True, 1) is False
    assert matches(2, 2.0) is True
    assert matches({"a": None}, {}) is False


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        ({"a": 1}, {"a": 1, "b": 2}, True),
        ({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}, True),
        ({}, {"x": 1}, True),
        ({}, [], False),
        ({"a": 1}, {"a": "1"}, False),
        ({"a": None}, {"a": None}, True),
        ([{"a": 1}], [{"a": 1, "b": 2}], True),
        ([1, 2], [2, 1], False),
        ((1, 2), [1, 2], True),
        ([1, 2], (1, 2), True),
        ([], [], True),
        ("5", 5, False),
        (False, 0, False),
        (None, MISSING, False),
        (MISSING, MISSING, True),
        ({"a": [True]}, {"a": [1]}, False),
    ],
)
def test_default_rules(expected: Any, actual: Any, result: bool) -> None:
    assert matches(expected, actual) is result
    assert (explain(expected, actual) == []) is result


def test_explain_paths_and_reasons() -> None:
    expected = {
        "amount": 42,
        "reason": M.regex("dup.*"),
        "items": [{"sku": "A"}, {"sku": "B"}],
        "odd key": 1,
        "gone": 42,
    }
    actual = {
        "amount": 40,
        "reason": "other",
        "items": [{"sku": "A"}, {"sku": "C"}],
        "odd key": 2,
    }
    assert reasons(expected, actual) == [
        "$.amount: expected 42, got 40",
        "$.reason: expected a match of 'dup.*', got 'other'",
        "$.items[1].sku: expected 'B', got 'C'",
        "$['odd key']: expected 1, got 2",
        "$.gone: missing key (expected 42)",
    ]


def test_explain_shape_reasons() -> None:
    assert reasons({"a": 1}, [1]) == ["$: expected a mapping, got [1]"]
    assert reasons([1], {"a": 1}) == ["$: expected a list, got {'a': 1}"]
    assert reasons([1, 2, 3], [1, 2]) == ["$: expected 3 items, got 2"]
    assert reasons([1], []) == ["$: expected 1 item, got 0"]
    assert reasons(True, 1) == ["$: expected True, got 1"]
    assert reasons(5, "5") == ["$: expected 5, got '5'"]


def test_missing_key_with_matcher_describes_it() -> None:
    assert reasons({"a": M.gt(3)}, {}) == ["$.a: missing key (expected a number > 3)"]
    assert reasons({"a": {"b": 1}}, {}) == ["$.a: missing key (expected {'b': 1})"]
    [mismatch] = explain({"a": 42}, {})
    assert mismatch == Mismatch("$.a", 42, MISSING, "missing key (expected 42)")


def test_missing_key_accepted_by_absent_and_anything() -> None:
    assert matches({"a": M.absent()}, {})
    assert matches({"a": M.anything()}, {})
    assert not matches({"a": M.absent()}, {"a": None})
    assert reasons({"a": M.absent()}, {"a": None}) == ["$.a: expected absent, got None"]


def test_explain_custom_root_path() -> None:
    assert [str(m) for m in explain({"a": 1}, {"a": 2}, "$.arguments")] == [
        "$.arguments.a: expected 1, got 2"
    ]


def test_mismatch_str_and_fields() -> None:
    mismatch = Mismatch("$.x", 1, 2, "expected 1, got 2")
    assert str(mismatch) == "$.x: expected 1, got 2"
    assert (mismatch.path, mismatch.expected, mismatch.actual) == ("$.x", 1, 2)


def test_non_string_and_unicode_keys_in_paths() -> None:
    assert reasons({1: "a"}, {1: "b"}) == ["$[1]: expected 'a', got 'b'"]
    assert reasons({"ключ": 1}, {"ключ": 2}) == ["$.ключ: expected 1, got 2"]
    assert reasons({"a-b": 1}, {"a-b": 2}) == ["$['a-b']: expected 1, got 2"]


def test_as_matcher() -> None:
    m = M.gt(1)
    assert as_matcher(m) is m
    assert as_matcher({"a": 1}) == M.partial({"a": 1})
    assert as_matcher([1]) == M.partial([1])
    assert as_matcher(3) == M.exact(3)
    assert as_matcher("x").matches("x")


def test_partial_matcher() -> None:
    m = M.partial({"a": {"b": 1}})
    assert m.matches({"a": {"b": 1, "c": 2}})
    assert not m.matches({"a": {"b": 2}})
    assert M.partial([1, {"a": 1}]).matches([1, {"a": 1, "b": 0}])
    with pytest.raises(TypeError) as info:
        M.partial(3)  # type: ignore[arg-type]
    assert str(info.value) == "M.partial(): 'value' must be mapping or sequence, got int (3)"


def test_exact_matcher() -> None:
    m = M.exact({"a": {"b": [1, 2]}, "c": "x"})
    assert m.matches({"c": "x", "a": {"b": [1, 2.0]}})
    assert not m.matches({"c": "x", "a": {"b": [2, 1]}})
    assert not m.matches({"c": "x", "a": {"b": [1, 2], "z": 0}})
    assert [str(x) for x in m.explain({"c": "x", "a": {"b": [1, 2], "z": 0}, "y": 1})] == [
        "$.a.z: unexpected key (got 0)",
        "$.y: unexpected key (got 1)",
    ]
    assert [str(x) for x in m.explain({"a": {"b": [1, 2]}})] == ["$.c: missing key (expected 'x')"]
    assert M.exact(True).explain(1)[0].reason == "expected True, got 1"
    assert M.exact(3).describe() == "3"


def test_exact_with_nested_matchers() -> None:
    m = M.exact({"id": M.regex("^A"), "gone": M.absent()})
    assert m.matches({"id": "A1"})
    assert not m.matches({"id": "A1", "gone": 1})
    assert not m.matches({"id": "A1", "other": 1})


def test_partial_inside_exact_and_exact_inside_partial() -> None:
    assert matches({"a": M.exact({"b": 1})}, {"a": {"b": 1}, "z": 9})
    assert not matches({"a": M.exact({"b": 1})}, {"a": {"b": 1, "c": 2}})
    assert M.exact({"a": M.partial({"b": 1})}).matches({"a": {"b": 1, "c": 2}})
