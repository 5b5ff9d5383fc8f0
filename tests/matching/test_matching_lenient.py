"""Tests for M.lenient (the cxas value-matching rules)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        # numbers
        (2, 2.0, True),
        (2, "2", True),
        (2, "2.0", True),
        (2, " 2 ", True),
        (2.5, "2.5", True),
        ("2", 2, True),
        ("2.0", 2, True),
        (2, "three", False),
        (2, True, False),
        (1, "true", False),
        ("2", "2.0", False),
        ("007", "7", False),
        (10**20, str(10**20), True),
        (2, "nan", False),
        (2, "1_0", False),
        # bools
        (True, "true", True),
        (True, "TRUE", True),
        (False, "False", True),
        (True, True, True),
        (True, "false", False),
        (True, 1, False),
        (True, "yes", False),
        ("true", True, True),
        ("True", "true", False),
        # strings and null
        ("abc", "abc", True),
        ("abc", "ABC", False),
        ("abc", 5, False),
        (None, None, True),
        (None, "null", False),
        (None, MISSING, False),
        # wildcard
        ("*", "x", True),
        ("*", 0, True),
        ("*", False, True),
        ("*", "", False),
        ("*", [], False),
        ("*", {}, False),
        ("*", None, False),
        ("*", MISSING, False),
        # mappings
        ({"a": 1}, {"a": "1", "b": 2}, True),
        ({"a": {"b": True}}, {"a": {"b": "true", "c": 1}}, True),
        ({"a": 1}, '{"a": 1, "b": 2}', True),
        ({"a": {"b": 1}}, {"a": '{"b": "1"}'}, True),
        ({"a": 1}, "not json", False),
        ({"a": 1}, "[1]", False),
        ({"a": None}, {}, False),
        ({"a": "*"}, {}, False),
        ({"a": M.absent()}, {}, True),
        # lists
        ([1, "2"], ["1", 2], True),
        ([1, 2], [1, 2, 3], False),
        ([1, 2], "[1, 2.0]", True),
        ([{"a": 1}], [{"a": "1", "b": 0}], True),
        # matchers inside keep their own (strict) rules
        ({"a": M.gt(1)}, {"a": "5"}, False),
        ({"a": M.regex("^A")}, {"a": "A1"}, True),
    ],
)
def test_lenient_rules(expected: Any, actual: Any, result: bool) -> None:
    m = M.lenient(expected)
    assert m.matches(actual) is result
    assert (m.explain(actual) == []) is result


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        ({"order_id": "*"}, {"result": {"order_id": "A1"}}, True),
        ({"order_id": "*"}, {"result": '{"order_id": "A1"}'}, True),
        ({"order_id": "*"}, '{"result": {"order_id": "A1"}}', True),
        ({"status": "ok"}, {"status": "ok", "result": {}}, True),
        ({"status": "ok"}, {"result": {"status": "ok"}, "meta": 1}, True),
        (5, {"result": 5}, True),
        ("*", {"result": ""}, True),
        ({"result": {"a": 1}}, {"result": {"a": 1}}, True),
        ({"result": 1}, {"result": {"result": 1}}, False),
        ({"a": 1}, {"result": {"result": {"a": 1}}}, False),
        ({"a": 1}, {"x": {"result": {"a": 1}}}, False),
    ],
)
def test_lenient_envelope(expected: Any, actual: Any, result: bool) -> None:
    m = M.lenient(expected)
    assert m.matches(actual) is result
    assert (m.explain(actual) == []) is result


def reasons(expected: Any, actual: Any) -> list[str]:
    return [str(x) for x in M.lenient(expected).explain(actual)]


def test_lenient_reasons() -> None:
    assert reasons({"quantity": 2}, {"quantity": "three"}) == [
        "$.quantity: expected 2 (lenient: numeric), got 'three'"
    ]
    assert reasons(True, "yes") == ["$: expected True (lenient: bool), got 'yes'"]
    assert reasons("a", "b") == ["$: expected 'a' (lenient: string), got 'b'"]
    assert reasons(None, 0) == ["$: expected None (lenient: null), got 0"]
    assert reasons("*", "") == ["$: expected '*' (lenient: wildcard), got ''"]
    assert reasons({"a": 1}, 5) == ["$: expected a mapping (lenient: subset), got 5"]
    assert reasons([1], 5) == ["$: expected a list (lenient: element-wise), got 5"]
    assert reasons([1, 2], [1]) == ["$: expected 2 items (lenient: element-wise), got 1"]
    assert reasons({"a": 1, "b": 2}, {"b": "x"}) == [
        "$.a: missing key (expected 1)",
        "$.b: expected 2 (lenient: numeric), got 'x'",
    ]


def test_lenient_envelope_explanation_goes_through_result() -> None:
    assert reasons({"qty": 2}, {"result": {"qty": "3"}}) == [
        "$.result.qty: expected 2 (lenient: numeric), got '3'"
    ]


def test_lenient_describe() -> None:
    assert M.lenient({"a": 1}).describe() == "{'a': 1} (lenient)"
