"""The contract operators are two tables (``op``, and ``matcher`` of ``op: matcher``): the
validator accepts and suggests their keys, the evaluator dispatches through their rows."""

from __future__ import annotations

import pytest

from agent_asserts.contract import Contract, ContractError
from agent_asserts.contract.model import Requirement
from agent_asserts.contract.relations import (
    MATCHER_OPERATORS,
    OPERATORS,
    EvaluatorFailed,
    matcher_tester,
    operator_of,
    row_of,
)
from agent_asserts.matching import M


def _contract(require: dict[str, object]) -> Contract:
    bind = {"m": {"from": "trace", "where": {"kind": "message"}}}
    return Contract.from_dict({"assertions": [{"id": "a", "bind": bind, "require": require}]})


def test_the_op_table_lists_every_op_in_message_order() -> None:
    assert list(OPERATORS) == [
        "equals",
        "contains",
        "matches_schema",
        "count_at_most",
        "precedes",
        "follows_within",
        "has_matching",
        "matcher",
    ]


def test_an_unknown_op_is_named_with_the_tables_keys_and_a_suggestion() -> None:
    with pytest.raises(ContractError) as info:
        _contract({"op": "contians", "left": "m", "right": "x"})
    listed = ", ".join(repr(op) for op in OPERATORS)
    assert str(info.value.problems[0]) == (
        f"assertions[0].require.op: must be one of {listed} (got 'contians'; "
        "did you mean 'contains'?)"
    )


def test_an_unknown_matcher_is_named_with_the_matcher_tables_keys() -> None:
    with pytest.raises(ContractError) as info:
        _contract({"op": "matcher", "matcher": "exct", "left": "m", "right": "x"})
    listed = ", ".join(repr(name) for name in MATCHER_OPERATORS)
    assert str(info.value.problems[0]) == (
        f"assertions[0].require.matcher: must be one of {listed} (got 'exct'; "
        "did you mean 'exact'?)"
    )


@pytest.mark.parametrize("matcher", list(MATCHER_OPERATORS))
def test_op_matcher_dispatches_to_the_row_of_its_matcher(matcher: str) -> None:
    extra = {"custom": "f"} if matcher == "custom" else {}
    extra |= {"grounding": ("m",)} if matcher == "grounded_semantic" else {}
    req = Requirement("matcher", "m", "x", matcher=matcher, **extra)  # type: ignore[arg-type]
    assert operator_of(req) is MATCHER_OPERATORS[matcher]


@pytest.mark.parametrize(
    ("op", "right", "expected"),
    [
        ("equals", 3, "equals 3"),
        ("contains", "A1", "contains 'A1'"),
        ("matches_schema", {}, "matches the schema"),
        ("count_at_most", 2, "has at most 2 items"),
    ],
)
def test_each_value_op_words_its_relation(op: str, right: object, expected: str) -> None:
    req = Requirement(op, "m", right)
    assert operator_of(req).describe(req, right) == expected


def test_count_at_most_has_no_per_item_verdicts() -> None:
    assert OPERATORS["count_at_most"].verdicts is None
    assert all(
        row.verdicts is not None for name, row in OPERATORS.items() if name != "count_at_most"
    )


def _boom(value: object) -> bool:
    raise ZeroDivisionError("division by zero")


def test_a_matcher_tester_that_raises_is_an_evaluator_failure() -> None:
    test = matcher_tester(M.satisfies(_boom))
    with pytest.raises(EvaluatorFailed) as info:
        test(3, "e1")
    assert str(info.value) == (
        "a matcher raised MatcherError: M.satisfies(_boom) raised ZeroDivisionError: "
        "division by zero (e1)"
    )


def test_each_row_says_what_right_holds() -> None:
    kinds = {name: row.right for name, row in OPERATORS.items() if name != "matcher"}
    assert kinds == {
        "equals": "value",
        "contains": "value",
        "matches_schema": "schema",
        "count_at_most": "count",
        "precedes": "binding",
        "follows_within": "binding",
        "has_matching": "binding",
    }
    assert {name: row.right for name, row in MATCHER_OPERATORS.items()} == {
        "exact": "value",
        "structural": "value",
        "semantic": "criterion",
        "grounded_semantic": "criterion",
        "custom": "value",
    }


def test_row_of_names_no_row_for_an_unknown_name() -> None:
    assert row_of("equals") is OPERATORS["equals"]
    assert row_of("matcher", "custom") is MATCHER_OPERATORS["custom"]
    assert (row_of("equal"), row_of("matcher", "exct"), row_of("matcher"), row_of(3)) == (
        None,
        None,
        None,
        None,
    )


def test_only_a_custom_matcher_may_leave_right_out() -> None:
    assert [name for name, row in MATCHER_OPERATORS.items() if not row.needs_right] == ["custom"]
    assert all(row.needs_right for row in OPERATORS.values())
    with pytest.raises(ContractError) as info:
        _contract({"op": "matcher", "matcher": "exact", "left": "m"})
    assert str(info.value.problems[0]) == "assertions[0].require: required key 'right' missing"


@pytest.mark.parametrize(
    ("op", "right", "expected"),
    [
        ("equals", 3, 3),
        ("count_at_most", 2, 2),
        ("precedes", "a", "occurs before some 'a' item"),
    ],
)
def test_the_outcomes_expected_follows_what_right_holds(
    op: str, right: object, expected: object
) -> None:
    req = Requirement(op, "m", right)
    row = operator_of(req)
    assert row.expected(req, right, row.describe(req, right)) == expected


def test_the_evaluator_type_is_the_rows() -> None:
    semantic = Requirement("matcher", "m", "polite", matcher="semantic")
    custom = Requirement("matcher", "m", matcher="custom", custom="f")
    assert (semantic.evaluator_type, custom.evaluator_type) == ("semantic", "custom")
    assert Requirement("equals", "m", 1).evaluator_type == "deterministic"
