"""Tests for the $-operator data form: from_data, to_data, value_to_data, OperatorError."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import (
    ANY,
    OPERATORS,
    M,
    Matcher,
    OperatorError,
    from_data,
    value_to_data,
)

ALL_OPERATORS = {
    "$partial", "$exact", "$regex", "$anything", "$any", "$non_empty", "$absent", "$all_of",
    "$any_of", "$not", "$gt", "$ge", "$lt", "$le", "$between", "$contains", "$one_of",
    "$not_in", "$approx", "$unordered", "$json", "$lenient", "$loose", "$subset_of",
}  # fmt: skip


def test_operator_names() -> None:
    assert set(OPERATORS) == ALL_OPERATORS


@pytest.mark.parametrize(
    ("data", "matcher"),
    [
        ({"$partial": {"a": 1}}, M.partial({"a": 1})),
        ({"$partial": [1]}, M.partial([1])),
        ({"$exact": {"a": 1}}, M.exact({"a": 1})),
        ({"$regex": "^A"}, M.regex("^A")),
        ({"$anything": True}, M.anything()),
        ({"$any": True}, ANY),
        ({"$non_empty": True}, M.non_empty()),
        ({"$absent": True}, M.absent()),
        ({"$all_of": [{"$gt": 1}, {"$lt": 5}]}, M.all_of(M.gt(1), M.lt(5))),
        ({"$any_of": [1, {"$regex": "x"}]}, M.any_of(1, M.regex("x"))),
        ({"$not": {"$regex": "x"}}, M.not_(M.regex("x"))),
        ({"$not": {"a": 1}}, M.not_({"a": 1})),
        ({"$gt": 3}, M.gt(3)),
        ({"$ge": 3.5}, M.ge(3.5)),
        ({"$lt": -1}, M.lt(-1)),
        ({"$le": 0}, M.le(0)),
        ({"$between": [1, 3]}, M.between(1, 3)),
        ({"$contains": "x"}, M.contains("x")),
        ({"$one_of": ["a", "b"]}, M.one_of("a", "b")),
        ({"$not_in": ["a"]}, M.not_in("a")),
        ({"$approx": 0.3}, M.approx(0.3)),
        ({"$approx": {"value": 0.3, "abs": 1e-9}}, M.approx(0.3, abs=1e-9)),
        ({"$approx": {"value": 1, "rel": 0.1, "abs": None}}, M.approx(1, rel=0.1)),
        ({"$unordered": [1, {"$gt": 1}]}, M.unordered([1, M.gt(1)])),
        ({"$json": {"ok": True}}, M.json({"ok": True})),
        ({"$lenient": {"qty": 2, "id": "*"}}, M.lenient({"qty": 2, "id": "*"})),
        ({"$loose": "123"}, M.loose("123")),
    ],
)
def test_from_data_builds_each_operator(data: Any, matcher: Matcher) -> None:
    assert from_data(data) == matcher


def test_from_data_plain_values_and_escapes() -> None:
    assert from_data({"a": [1, {"b": {"$gt": 2}}]}) == {"a": [1, {"b": M.gt(2)}]}
    assert from_data({"$$ref": {"$$x": 1}, "y": 2}) == {"$ref": {"$x": 1}, "y": 2}
    assert from_data({"$$": 1}) == {"$": 1}
    assert from_data({}) == {}
    assert from_data(5) == 5
    assert from_data({"$exact": {"$$k": 1}}) == M.exact({"$k": 1})


def error(data: Any) -> OperatorError:
    with pytest.raises(OperatorError) as info:
        from_data(data)
    return info.value


def test_unknown_operator_suggests() -> None:
    err = error({"$betwen": [1, 3]})
    assert err.path == ("$betwen",)
    assert err.message == "unknown operator '$betwen' (did you mean '$between'?)"
    assert isinstance(err, ValueError)
    assert error({"$zzz": 1}).message == "unknown operator '$zzz'"


def test_satisfies_has_no_data_form() -> None:
    assert error({"$satisfies": "x"}).message == (
        "M.satisfies(...) takes a Python callable and has no YAML/JSON form"
    )


def test_shape_errors_carry_relative_paths() -> None:
    cases: list[tuple[Any, tuple[Any, ...], str]] = [
        ({"$between": 3}, ("$between",),
         "$between takes a list of two numbers [low, high] (got 3)"),
        ({"$between": [1, "x"]}, ("$between", 1), "$between takes numbers (got 'x')"),
        ({"$between": [3, 1]}, ("$between",), "M.between() needs low <= high (got 3, 1)"),
        ({"$gt": "x"}, ("$gt",), "$gt takes a number (got 'x')"),
        ({"$gt": True}, ("$gt",), "$gt takes a number (got True)"),
        ({"$regex": 1}, ("$regex",), "$regex takes a pattern string (got 1)"),
        ({"$anything": False}, ("$anything",), "$anything takes true (got False)"),
        ({"$absent": None}, ("$absent",), "$absent takes true (got None)"),
        ({"$all_of": []}, ("$all_of",), "$all_of takes a non-empty list (got [])"),
        ({"$one_of": "a"}, ("$one_of",), "$one_of takes a non-empty list (got 'a')"),
        ({"$partial": 3}, ("$partial",), "$partial takes a mapping or a list (got 3)"),
        ({"$unordered": 3}, ("$unordered",), "$unordered takes a list (got 3)"),
        ({"$approx": "x"}, ("$approx",),
         "$approx takes a number or {value: x, rel: r, abs: a} (got 'x')"),
        ({"$approx": {"value": 1, "abss": 1}}, ("$approx", "abss"),
         "unknown $approx key 'abss' (did you mean 'abs'?)"),
        ({"$approx": {"value": 1, "rel": "x"}}, ("$approx", "rel"),
         "$approx rel takes a number (got 'x')"),
        ({"$one_of": [{"$gt": 1}]}, ("$one_of",),
         "M.one_of() takes plain values compared strictly (got M.gt(1)); "
         "use M.any_of() or M.not_(M.any_of()) to combine matchers"),
        ({"a": {"$regex": "("}}, ("a", "$regex"),
         "invalid regular expression '(': missing ), unterminated subpattern at position 0"),
    ]  # fmt: skip
    for data, path, message in cases:
        err = error(data)
        assert (err.path, err.message) == (path, message), data


def test_mixing_and_multiple_operators() -> None:
    err = error({"$gt": 1, "$lt": 5})
    assert err.path == ()
    assert err.message == "a mapping holds exactly one operator (got '$gt', '$lt')"
    err = error({"x": {"$gt": 1, "n": 2}})
    assert err.path == ("x",)
    assert err.message.startswith("a mapping cannot mix operators ('$gt') with plain keys ('n')")


def test_every_problem_is_reported() -> None:
    err = error({"a": {"$gt": "x"}, "b": [{"$nope": 1}, {"$between": [2, 1]}]})
    assert [(p.parts, p.message) for p in err.problems] == [
        (("a", "$gt"), "$gt takes a number (got 'x')"),
        (("b", 0, "$nope"), "unknown operator '$nope' (did you mean '$not'?)"),
        (("b", 1, "$between"), "M.between() needs low <= high (got 2, 1)"),
    ]
    assert str(err).splitlines()[0] == "3 problems:"
    assert (
        str(err).splitlines()[2] == "  b[0].$nope: unknown operator '$nope' (did you mean '$not'?)"
    )


def test_value_to_data() -> None:
    value = {"amount": M.gt(3), "$ref": "x", "items": (1, [M.absent()])}
    data = value_to_data(value)
    assert data == {"amount": {"$gt": 3}, "$$ref": "x", "items": [1, [{"$absent": True}]]}
    assert from_data(data) == {"amount": M.gt(3), "$ref": "x", "items": [1, [M.absent()]]}
    with pytest.raises(TypeError, match="MISSING has no YAML/JSON form"):
        value_to_data({"a": MISSING})


def test_to_data_forms() -> None:
    assert M.approx(0.3).to_data() == {"$approx": 0.3}
    assert M.approx(0.3, rel=0.1).to_data() == {"$approx": {"value": 0.3, "rel": 0.1}}
    assert M.partial({"$k": M.gt(1)}).to_data() == {"$partial": {"$$k": {"$gt": 1}}}
    assert M.not_in(1, 2).to_data() == {"$not_in": [1, 2]}
    assert M.unordered((1, 2)).to_data() == {"$unordered": [1, 2]}
    assert ANY.to_data() == {"$anything": True}
