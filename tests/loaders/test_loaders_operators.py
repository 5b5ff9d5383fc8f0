"""$-operators in suite values become matchers; their problems keep their positions."""

from __future__ import annotations

import pytest

from agent_asserts.loaders.collector import (
    ProblemCollector,
    is_operator,
    matcher_value,
    relative_parts,
)
from agent_asserts.loaders.nodes import from_plain
from agent_asserts.loaders.source import parse_text
from agent_asserts.matching import M


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{$regex: "^A\\\\d+"}', M.regex(r"^A\d+")),
        ("{$anything: true}", M.anything()),
        ("{$absent: true}", M.absent()),
        ("{$non_empty: true}", M.non_empty()),
        ("{$gt: 3}", M.gt(3)),
        ("{$ge: 3}", M.ge(3)),
        ("{$lt: 3}", M.lt(3)),
        ("{$le: 3}", M.le(3)),
        ("{$between: [1, 3]}", M.between(1, 3)),
        ("{$contains: x}", M.contains("x")),
        ("{$one_of: [a, b]}", M.one_of("a", "b")),
        ("{$not_in: [a, b]}", M.not_in("a", "b")),
        ("{$approx: {value: 0.3, abs: 1.0e-9}}", M.approx(0.3, abs=1e-9)),
        ("{$unordered: [1, 2]}", M.unordered([1, 2])),
        ("{$json: {a: 1}}", M.json({"a": 1})),
        ("{$exact: {a: 1}}", M.exact({"a": 1})),
        ("{$partial: {a: 1}}", M.partial({"a": 1})),
        ("{$not: {$gt: 3}}", M.not_(M.gt(3))),
        ("{$all_of: [{$gt: 1}, {$lt: 5}]}", M.all_of(M.gt(1), M.lt(5))),
        ("{$any_of: [1, 2]}", M.any_of(1, 2)),
        ("{$lenient: 'true'}", M.lenient("true")),
        ("{$loose: '123'}", M.loose("123")),
    ],
)
def test_each_operator(text: str, expected: object) -> None:
    value = matcher_value(parse_text(f"v: {text}").get("v"), ProblemCollector("s.yml"))  # type: ignore[union-attr,arg-type]
    assert value == expected


def test_nested_and_escaped() -> None:
    doc = parse_text(
        "arguments:\n  orderId: {$regex: '^A'}\n  $$ref: {$$raw: 1}\n"
        "  items: [{sku: {$one_of: [a]}}]\n"
    )
    value = matcher_value(doc.get("arguments"), ProblemCollector("s.yml"))  # type: ignore[union-attr,arg-type]
    assert value == {
        "orderId": M.regex("^A"),
        "$ref": {"$raw": 1},
        "items": [{"sku": M.one_of("a")}],
    }


def test_every_problem_at_its_position() -> None:
    text = (
        "arguments:\n"
        "  a: {$regex: '(unclosed'}\n"
        "  b:\n"
        "    $all_of:\n"
        "      - {$gt: x}\n"
        "      - {$lt: 5, n: 1}\n"
        "  c: {$betwen: [1, 2]}\n"
    )
    problems = ProblemCollector("s.yml")
    assert matcher_value(parse_text(text, file="s.yml"), problems) is None
    assert str(problems.error()) == (
        "s.yml:2:15: arguments.a.$regex: invalid regular expression '(unclosed': "
        "missing ), unterminated subpattern at position 0\n"
        "s.yml:5:15: arguments.b.$all_of[0].$gt: $gt takes a number (got 'x')\n"
        "s.yml:6:9: arguments.b.$all_of[1]: a mapping cannot mix operators ('$lt') with plain "
        "keys ('n'); write a literal key that starts with '$' as '$$key'\n"
        "s.yml:7:16: arguments.c.$betwen: unknown operator '$betwen' (did you mean '$between'?)"
    )


def test_problems_in_data_name_the_path() -> None:
    problems = ProblemCollector("<data>")
    matcher_value(from_plain({"x": [{"$gt": "a"}]}), problems)
    assert str(problems.error()) == "<data>: x[0].$gt: $gt takes a number (got 'a')"


def test_is_operator() -> None:
    assert is_operator(from_plain({"$gt": 1}))
    assert not is_operator(from_plain({"$$gt": 1}))
    assert not is_operator(from_plain({}))
    assert not is_operator(from_plain([{"$gt": 1}]))


def test_relative_parts() -> None:
    assert relative_parts(("a", 0)) == ("a", 0)
    assert relative_parts("$.a[0]['odd key'].$gt") == ("a", 0, "odd key", "$gt")
    assert relative_parts("") == ()
