"""The SOP operators are one table: the loader and ``op_matcher`` read the same rows."""

from __future__ import annotations

import pytest

from agent_asserts.loaders.sop import INPUT_OPS, OUTPUT_OPS, SOP_OPERATORS, op_matcher
from agent_asserts.matching import M


def test_every_operator_a_check_accepts_is_a_row_of_the_table() -> None:
    assert set(INPUT_OPS) | set(OUTPUT_OPS) == set(SOP_OPERATORS)


@pytest.mark.parametrize(
    ("op", "value", "expected"),
    [
        ("exists", None, M.not_in(None)),
        ("equals", 7, M.loose(7)),
        ("matches", "^A", M.regex("^A")),
        ("gt", 3, M.any_of(M.gt(3), M.json(M.gt(3)))),
        ("lt", 3, M.any_of(M.lt(3), M.json(M.lt(3)))),
        ("contains", "x", M.contains("x")),
        ("not_in", ["a"], M.all_of(~M.absent(), ~M.loose("a"))),
    ],
)
def test_op_matcher_builds_the_rows_matcher(op: str, value: object, expected: object) -> None:
    assert op_matcher(op, value) == expected
    assert SOP_OPERATORS[op].build(value) == expected


def test_an_unknown_op_suggests_the_closest_row() -> None:
    with pytest.raises(ValueError, match=r"^unknown op 'eqauls' \(did you mean 'equals'\?\)$"):
        op_matcher("eqauls", 1)


def test_an_op_far_from_every_row_lists_them() -> None:
    with pytest.raises(ValueError, match=r"^unknown op 'zzz'") as info:
        op_matcher("zzz", 1)
    assert str(info.value) == (
        "unknown op 'zzz' (expected one of 'exists', 'equals', 'matches', 'gt', 'lt', "
        "'contains', 'not_in')"
    )
