"""Reprs read like the constructor call; equality, hashing and immutability."""

from __future__ import annotations

import attrs
import pytest

from agent_asserts.matching import ANY, M, Matcher


def is_even(n: int) -> bool:
    return n % 2 == 0


@pytest.mark.parametrize(
    ("matcher", "text"),
    [
        (M.partial({"a": 1, "b": M.regex("x")}), "M.partial({'a': 1, 'b': M.regex('x')})"),
        (M.partial([1, "a"]), "M.partial([1, 'a'])"),
        (M.exact({"a": None, "b": True}), "M.exact({'a': None, 'b': True})"),
        (M.regex("dup.*"), "M.regex('dup.*')"),
        (M.regex(r"\d+"), "M.regex('\\\\d+')"),
        (M.satisfies(is_even), "M.satisfies(is_even)"),
        (M.anything(), "M.anything()"),
        (ANY, "M.anything()"),
        (M.non_empty(), "M.non_empty()"),
        (M.absent(), "M.absent()"),
        (M.all_of(M.gt(1), M.lt(5)), "M.all_of(M.gt(1), M.lt(5))"),
        (M.any_of("a", 1), "M.any_of('a', 1)"),
        (~M.regex("x"), "M.not_(M.regex('x'))"),
        (M.not_(None), "M.not_(None)"),
        (M.gt(3), "M.gt(3)"),
        (M.ge(2.5), "M.ge(2.5)"),
        (M.lt(0), "M.lt(0)"),
        (M.le(-1), "M.le(-1)"),
        (M.between(1, 3), "M.between(1, 3)"),
        (M.contains("x"), "M.contains('x')"),
        (M.one_of("a", True), "M.one_of('a', True)"),
        (M.not_in(1), "M.not_in(1)"),
        (M.approx(0.3), "M.approx(0.3)"),
        (M.approx(0.3, abs=1e-9), "M.approx(0.3, abs=1e-09)"),
        (M.approx(1, rel=0.1, abs=0.5), "M.approx(1, rel=0.1, abs=0.5)"),
        (M.unordered((1, M.gt(2))), "M.unordered([1, M.gt(2)])"),
        (M.json({"ok": True}), "M.json({'ok': True})"),
        (M.lenient({"q": 2}), "M.lenient({'q': 2})"),
        (M.loose("123"), "M.loose('123')"),
    ],
)
def test_repr(matcher: Matcher, text: str) -> None:
    assert repr(matcher) == text


def test_repr_evaluates_back_to_an_equal_matcher() -> None:
    for matcher in [
        M.partial({"a": [1, M.gt(2)]}),
        M.all_of(M.regex("^a"), M.not_(M.one_of("ab"))),
        M.approx(0.3, abs=1e-9),
        M.unordered([{"a": 1}]),
    ]:
        assert eval(repr(matcher), {"M": M}) == matcher


def test_equality_is_json_typed_and_hashable() -> None:
    assert M.exact(True) != M.exact(1)
    assert M.exact(2) == M.exact(2.0)
    assert M.one_of(1, True) != M.one_of(1, 1)
    assert M.partial({"a": (1, 2)}) == M.partial({"a": [1, 2]})
    assert hash(M.partial({"a": [1, 2]})) == hash(M.partial({"a": (1, 2)}))
    assert len({M.gt(1), M.gt(1), M.gt(1.0), M.lt(1)}) == 2
    assert M.regex("a") == M.regex("a")
    assert M.regex("a") != M.regex("b")
    assert M.gt(1) != M.ge(1)
    assert M.one_of(1) != M.not_in(1)


def test_matchers_are_frozen() -> None:
    m = M.gt(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        m.bound = 2  # type: ignore[attr-defined]


def test_m_is_a_namespace() -> None:
    with pytest.raises(TypeError, match="namespace"):
        M()


def test_describe() -> None:
    assert M.regex("dup.*").describe() == "a match of 'dup.*'"
    assert M.gt(3).describe() == "a number > 3"
    assert M.exact(42).describe() == "42"
    assert M.between(1, 3).describe() == "a number between 1 and 3"
    assert M.contains("x").describe() == "a value containing 'x'"
    assert M.one_of(1, 2).describe() == "one of [1, 2]"
    assert M.not_in(1).describe() == "none of [1]"
    assert M.unordered([1]).describe() == "the items [1] in any order"
    assert M.json({"a": 1}).describe() == "JSON text of {'a': 1}"
    assert M.loose(True).describe() == "a value whose string form is 'true'"
