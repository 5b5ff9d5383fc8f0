"""Tests for M.loose (SOP equals: JavaScript String() coercion)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M
from agent_asserts.matching.lenient import js_number, js_string


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (True, "true"),
        (False, "false"),
        (None, "null"),
        (2, "2"),
        (2.0, "2"),
        (-2.0, "-2"),
        (1.5, "1.5"),
        (0.1, "0.1"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.5e-7, "1.5e-7"),
        (1e-6, "0.000001"),
        (123.456, "123.456"),
        (1.2345e25, "1.2345e+25"),
        (float("inf"), "Infinity"),
        (float("-inf"), "-Infinity"),
        (float("nan"), "NaN"),
        ("x", "x"),
        ("", ""),
        ({"a": 1.0, "b": [True, None, "é"]}, '{"a":1,"b":[true,null,"é"]}'),
        ([1, "a"], '[1,"a"]'),
        ((), "[]"),
        ({"n": float("nan")}, '{"n":null}'),
        (MISSING, None),
    ],
)
def test_js_string(value: Any, text: str | None) -> None:
    assert js_string(value) == text


def test_js_number_of_ints_is_exact() -> None:
    assert js_number(10**25) == str(10**25)


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        ("123", 123, True),
        (123, "123", True),
        ("123", 123.0, True),
        ("123.0", 123.0, False),
        (True, "true", True),
        ("True", True, False),
        (None, "null", True),
        ("null", None, True),
        (1.5, "1.5", True),
        ({"a": 1}, '{"a":1}', True),
        ({"a": 1}, {"a": 1.0}, True),
        ({"a": 1}, '{"a": 1}', False),
        ("undefined", MISSING, False),
        ("x", MISSING, False),
    ],
)
def test_loose(expected: Any, actual: Any, result: bool) -> None:
    assert M.loose(expected).matches(actual) is result
    assert (M.loose(expected).explain(actual) == []) is result


def test_loose_reasons() -> None:
    [m] = M.loose("124").explain(123)
    assert m.reason == "expected a value whose string form is '124', got 123 (string form '123')"
    [m] = M.loose("a").explain("b")
    assert m.reason == "expected a value whose string form is 'a', got 'b'"
    [m] = M.loose("a").explain(MISSING)
    assert m.reason == "expected a value whose string form is 'a', got MISSING"


def test_loose_validation() -> None:
    with pytest.raises(ValueError, match=r"M.loose\(\) takes a plain JSON value"):
        M.loose(M.gt(1))
    with pytest.raises(ValueError, match="plain JSON value"):
        M.loose({"a": [MISSING]})
