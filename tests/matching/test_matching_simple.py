"""Tests for M.anything, M.non_empty, M.absent and M.satisfies."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import ANY, M, MatcherError, matches


@pytest.mark.parametrize("actual", [None, MISSING, 0, "", [], {}, False, object()])
def test_anything(actual: Any) -> None:
    assert M.anything().matches(actual)
    assert ANY.explain(actual) == []
    assert M.anything() == ANY


@pytest.mark.parametrize(
    ("actual", "result"),
    [
        ("x", True),
        ("", False),
        ([0], True),
        ([], False),
        ((), False),
        ({"a": None}, True),
        ({}, False),
        (0, True),
        (False, True),
        (None, False),
        (MISSING, False),
    ],
)
def test_non_empty(actual: Any, result: bool) -> None:
    assert M.non_empty().matches(actual) is result
    assert (M.non_empty().explain(actual) == []) is result


def test_non_empty_reason() -> None:
    [m] = M.non_empty().explain("")
    assert m.reason == "expected a non-empty value, got ''"


def test_absent() -> None:
    assert M.absent().matches(MISSING)
    others: list[Any] = [None, 0, "", {}]
    for actual in others:
        assert not M.absent().matches(actual)
    assert matches({"a": M.absent()}, {"b": 1})
    [m] = M.absent().explain(None, "$.a")
    assert str(m) == "$.a: expected absent, got None"


def is_even(n: int) -> bool:
    return n % 2 == 0


def test_satisfies() -> None:
    m = M.satisfies(is_even)
    assert m.matches(2)
    assert not m.matches(3)
    [mismatch] = m.explain(3, "$.n")
    assert str(mismatch) == "$.n: expected a value satisfying is_even, got 3"
    assert M.satisfies(lambda v: v).matches(1)
    assert not M.satisfies(lambda v: v).matches([])


def test_satisfies_raising_is_a_matcher_error() -> None:
    def boom(value: Any) -> bool:
        raise ValueError("bad value")

    m = M.satisfies(boom)
    for call in (m.matches, m.explain, lambda v: matches({"a": m}, {"a": v})):
        with pytest.raises(MatcherError) as info:
            call(1)
        assert isinstance(info.value.original, ValueError)
        assert info.value.__cause__ is info.value.original
        assert str(info.value).endswith("raised ValueError: bad value")
        assert "boom" in info.value.matcher


def test_satisfies_validation_and_data() -> None:
    with pytest.raises(TypeError, match=r"^M.satisfies\(\): 'fn' must be callable, got int"):
        M.satisfies(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"no YAML/JSON form"):
        M.satisfies(is_even).to_data()
