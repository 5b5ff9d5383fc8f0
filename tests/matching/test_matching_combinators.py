"""Tests for M.all_of, M.any_of, M.not_ and the &, |, ~ operators."""

from __future__ import annotations

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M, matches


def test_all_of() -> None:
    m = M.all_of(M.gt(1), M.lt(5))
    assert m.matches(3)
    assert not m.matches(7)
    assert [str(x) for x in m.explain(7)] == ["$: expected a number < 5, got 7"]
    assert [str(x) for x in m.explain("x")] == [
        "$: expected a number > 1, got 'x' (not a number)",
        "$: expected a number < 5, got 'x' (not a number)",
    ]
    assert m.describe() == "a number > 1 and a number < 5"


def test_all_of_with_plain_values_uses_default_rules() -> None:
    m = M.all_of({"a": 1}, {"b": 2})
    assert m.matches({"a": 1, "b": 2, "c": 3})
    assert [str(x) for x in m.explain({"a": 1})] == ["$.b: missing key (expected 2)"]


def test_any_of() -> None:
    m = M.any_of(M.regex("^A"), 5)
    assert m.matches("Abc")
    assert m.matches(5.0)
    assert not m.matches(True)
    [x] = m.explain("B")
    assert x.reason == "expected a match of '^A' or 5, got 'B'"
    assert x.expected == m


def test_not() -> None:
    m = M.not_(M.regex("x"))
    assert m.matches("abc")
    assert not m.matches("xyz")
    assert not m.matches(MISSING)  # a negation asserts the value is there
    assert m.explain(MISSING)[0].reason == "missing key (expected not a match of 'x')"
    assert (M.absent() | m).matches(MISSING)
    assert m.explain("x")[0].reason == "expected not a match of 'x', got 'x'"
    assert M.not_(1).matches(True)
    assert not M.not_(1).matches(1.0)


def test_a_missing_key_fails_negations_and_predicates() -> None:
    from agent_asserts import explain, matches

    assert not matches({"amount": ~M.gt(100)}, {})
    assert [str(x) for x in explain({"amount": ~M.gt(100)}, {})] == [
        "$.amount: missing key (expected not a number > 100)"
    ]
    assert not matches({"k": M.not_(M.one_of("x"))}, {})
    assert not matches({"k": M.satisfies(lambda v: v != "x")}, {})


def test_nested_descriptions_are_parenthesized() -> None:
    m = M.any_of(M.all_of(M.gt(1), M.lt(5)), M.absent())
    assert m.describe() == "(a number > 1 and a number < 5) or absent"
    assert M.not_(M.any_of(1, 2)).describe() == "not (1 or 2)"


def test_operators_build_combinators() -> None:
    a, b, c = M.gt(1), M.lt(5), M.one_of(2, 3)
    assert a & b == M.all_of(a, b)
    assert (a & b) & c == M.all_of(a, b, c)
    assert a | b == M.any_of(a, b)
    assert (a | b) | c == M.any_of(a, b, c)
    assert ~a == M.not_(a)
    assert 5 | M.absent() == M.any_of(5, M.absent())
    assert {"a": 1} & M.partial({"b": 2}) == M.all_of({"a": 1}, M.partial({"b": 2}))
    assert (None | M.absent()).matches(MISSING)


def test_empty_combinators_are_errors() -> None:
    with pytest.raises(ValueError, match=r"M.all_of\(\) needs at least one"):
        M.all_of()
    with pytest.raises(ValueError, match=r"M.any_of\(\) needs at least one"):
        M.any_of()


def test_combinators_in_structures() -> None:
    expected = {"status": M.one_of("paid", "refunded") | M.absent()}
    assert matches(expected, {})
    assert matches(expected, {"status": "paid"})
    assert not matches(expected, {"status": "lost"})
