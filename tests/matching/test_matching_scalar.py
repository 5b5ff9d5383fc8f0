"""Tests for regex, numeric comparisons, between, approx, one_of and not_in."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher


def reason(m: Matcher, actual: Any) -> str:
    [mismatch] = m.explain(actual)
    return mismatch.reason


# -- regex ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "actual", "result"),
    [
        ("dup", "a duplicate", True),
        ("^dup", "a duplicate", False),
        ("DUP", "dup", False),
        ("(?i)DUP", "dup", True),
        ("^42$", 42, True),
        ("^true$", True, True),
        ("^null$", None, True),
        ('"a": 1', {"a": 1}, True),
        (r"^\[1, 2\]$", [1, 2], True),
        ("é", ["é"], True),
        ("^2.0$", 2.0, True),
        (".*", MISSING, False),
    ],
)
def test_regex(pattern: str, actual: Any, result: bool) -> None:
    assert M.regex(pattern).matches(actual) is result
    assert (M.regex(pattern).explain(actual) == []) is result


def test_regex_reason_and_json_key_order() -> None:
    assert reason(M.regex("dup.*"), "other") == "expected a match of 'dup.*', got 'other'"
    assert M.regex('^{"b": 1, "a": 2}$').matches({"b": 1, "a": 2})


def test_regex_invalid_pattern_raises_when_built() -> None:
    with pytest.raises(ValueError, match=r"invalid regular expression '\(unclosed': missing \)"):
        M.regex("(unclosed")
    with pytest.raises(TypeError, match=r"^M.regex\(\): 'pattern' must be str, got int \(5\)$"):
        M.regex(5)  # type: ignore[arg-type]


def test_regex_non_json_value_falls_back_to_str() -> None:
    assert M.regex(r"^\{1\}$").matches({1})
    assert M.regex(r'^\["\{1\}"\]$').matches([{1}])


# -- comparisons ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "actual", "result"),
    [
        (M.gt(3), 4, True),
        (M.gt(3), 3, False),
        (M.ge(3), 3, True),
        (M.lt(3), 2.5, True),
        (M.lt(3), 3, False),
        (M.le(3), 3.0, True),
        (M.gt(0), True, False),
        (M.ge(0), False, False),
        (M.gt(0), "5", False),
        (M.gt(0), None, False),
        (M.gt(0), MISSING, False),
        (M.between(1, 3), 1, True),
        (M.between(1, 3), 3, True),
        (M.between(1, 3), 3.01, False),
        (M.between(1, 3), True, False),
        (M.between(1.5, 1.5), 1.5, True),
    ],
)
def test_comparisons(matcher: Matcher, actual: Any, result: bool) -> None:
    assert matcher.matches(actual) is result
    assert (matcher.explain(actual) == []) is result


def test_comparison_reasons() -> None:
    assert reason(M.gt(3), 2) == "expected a number > 3, got 2"
    assert reason(M.ge(3), 2) == "expected a number >= 3, got 2"
    assert reason(M.lt(3), 4) == "expected a number < 3, got 4"
    assert reason(M.le(3), 4) == "expected a number <= 3, got 4"
    assert reason(M.gt(3), "x") == "expected a number > 3, got 'x' (not a number)"
    assert reason(M.gt(0), True) == "expected a number > 0, got True (not a number)"
    assert reason(M.between(1, 3), 4) == "expected a number between 1 and 3, got 4"
    assert reason(M.between(1, 3), None) == (
        "expected a number between 1 and 3, got None (not a number)"
    )


@pytest.mark.parametrize("bad", ["x", True, None, [1]])
def test_comparison_wrong_types(bad: Any) -> None:
    got = f"got {type(bad).__name__} ({bad!r})"
    for name in ("gt", "ge", "lt", "le"):
        with pytest.raises(TypeError) as info:
            getattr(M, name)(bad)
        assert str(info.value) == f"M.{name}(): 'bound' must be int or float, {got}"
    with pytest.raises(TypeError, match=r"^M.between\(\): 'low' must be int or float, got"):
        M.between(bad, 3)


def test_comparison_validation() -> None:
    for factory in (M.gt, M.ge, M.lt, M.le):
        with pytest.raises(ValueError, match="takes a number"):
            factory(float("nan"))
    with pytest.raises(ValueError, match="takes a number"):
        M.between(float("nan"), 3)


def test_between_validation() -> None:
    with pytest.raises(ValueError, match=r"M.between\(\) needs low <= high \(got 3, 1\)"):
        M.between(3, 1)


# -- approx -------------------------------------------------------------------------------


def test_approx() -> None:
    assert M.approx(0.3).matches(0.1 + 0.2)
    assert not M.approx(0.3).matches(0.31)
    assert M.approx(0.3, abs=0.02).matches(0.31)
    assert M.approx(100, rel=0.1).matches(109)
    assert not M.approx(100, rel=0.1).matches(112)
    assert not M.approx(1).matches(True)
    assert not M.approx(0).matches(1e-12)
    assert M.approx(0, abs=1e-9).matches(1e-12)
    assert reason(M.approx(0.3), 0.31) == (
        "expected a number close to 0.3 (rel=1e-09, abs=0.0), got 0.31"
    )
    assert reason(M.approx(1), "1") == (
        "expected a number close to 1 (rel=1e-09, abs=0.0), got '1' (not a number)"
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: M.approx(float("nan")),
        lambda: M.approx(1, rel=-1),
        lambda: M.approx(1, abs=float("nan")),
    ],
)
def test_approx_validation(build: Any) -> None:
    with pytest.raises(ValueError, match=r"M.approx\(\)"):
        build()


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: M.approx(True), "'value' must be int or float, got bool (True)"),
        (lambda: M.approx("0.3"), "'value' must be int or float, got str ('0.3')"),
        (lambda: M.approx(1, abs=True), "'abs' must be int, float or None, got bool (True)"),
    ],
)
def test_approx_wrong_types(build: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        build()
    assert str(info.value) == f"M.approx(): {message}"


# -- one_of / not_in ---------------------------------------------------------------------


def test_one_of_is_strict() -> None:
    assert M.one_of(1, 2).matches(2.0)
    assert not M.one_of(1, 2).matches(True)
    assert not M.one_of(True).matches(1)
    assert not M.one_of(0).matches(False)
    assert not M.one_of("1").matches(1)
    assert M.one_of({"a": 1}).matches({"a": 1})
    assert not M.one_of({"a": 1}).matches({"a": 1, "b": 2})
    assert not M.one_of(None).matches(MISSING)
    assert reason(M.one_of(1, 2), 3) == "expected one of [1, 2], got 3"


def test_not_in() -> None:
    assert M.not_in("shipped").matches("paid")
    assert not M.not_in("shipped").matches("shipped")
    assert M.not_in(1).matches(True)
    assert not M.not_in("x").matches(MISSING)
    assert reason(M.not_in("shipped", "lost"), "lost") == (
        "expected none of ['shipped', 'lost'], got 'lost'"
    )
    assert reason(M.not_in("x"), MISSING) == "expected none of ['x'], got MISSING"


def test_one_of_validation() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        M.one_of()
    with pytest.raises(ValueError, match=r"M.not_in\(\) needs at least one value"):
        M.not_in()
    with pytest.raises(ValueError, match=r"use M\.any_of"):
        M.one_of(M.gt(1))
