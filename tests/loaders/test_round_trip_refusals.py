"""Suites whose ``to_dict()`` would not load back are refused when built (issue 25)."""

from __future__ import annotations

import pytest

from agent_asserts.checks.trajectory_match import MatchesTrajectory
from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.loaders.suite import Case, CheckEntry, Suite


@pytest.mark.parametrize("reference", [[""], [{"name": ""}], [("", {})]])
def test_an_empty_reference_tool_name_is_refused_in_python_as_in_a_file(reference: list) -> None:
    with pytest.raises(TypeError) as caught:
        MatchesTrajectory(reference)
    assert str(caught.value) == "reference[0].name: must be a non-empty string (got '')"


def test_a_suite_of_two_cases_of_one_name_is_refused() -> None:
    case = Case("c", (CheckEntry(MatchesTrajectory(["a"])),))
    with pytest.raises(ValueError, match=r"^cases\[1\]: duplicate case name 'c'$"):
        Suite("s", [case, case])


def test_a_suite_file_with_duplicate_case_names_is_a_load_error_not_a_value_error() -> None:
    text = "cases:\n- name: a\n  checks: [succeeded]\n- name: a\n  checks: [succeeded]\n"
    with pytest.raises(LoadError, match="duplicate case name 'a'"):
        loads(text)


def test_a_suite_of_unique_cases_loads_back_from_its_to_dict() -> None:
    suite = Suite("s", [Case(n, (CheckEntry(MatchesTrajectory(["a"])),)) for n in "ab"])
    assert load(suite.to_dict()) == suite


def _nest(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


def _suite(levels: int) -> Suite:
    check = MatchesTrajectory([{"name": "a", "arguments": {"x": _nest(levels)}}])
    return Suite("s", [Case("c", (CheckEntry(check),))])


@pytest.mark.parametrize("levels", [150, 190])
def test_a_suite_with_deep_values_within_the_limit_loads_back(levels: int) -> None:
    suite = _suite(levels)
    assert load(suite.to_dict()) == suite


@pytest.mark.parametrize("levels", [195, 199])
def test_a_suite_past_the_limit_once_written_says_so_instead_of_writing_unloadable_data(
    levels: int,
) -> None:
    suite = _suite(levels)
    with pytest.raises(ValueError, match="would not load back") as caught:
        suite.to_dict()
    text = str(caught.value)
    assert text.startswith("cases[0].checks[0].matches_trajectory.reference[0].arguments.x[0]")
    assert text.endswith(
        "nested more than 200 levels deep (the limit of nesting) once written as a suite "
        "document, which would not load back"
    )
    check = suite.cases[0].entries[0].check
    with pytest.raises(LoadError):  # what writing it would have given
        load({"name": "s", "cases": [{"name": "c", "checks": [check.to_data()]}]})  # type: ignore[attr-defined]


def test_a_cxas_file_with_two_evals_of_one_name_is_a_load_error() -> None:
    # was ValueError from Suite once Suite refused duplicates; before that, a suite whose
    # to_dict() did not load back
    with pytest.raises(LoadError) as caught:
        loads("evals:\n  - name: a\n  - name: a\n", dialect="cxas")
    assert str(caught.value) == (
        "<string>:3:11: evals[1].name: duplicate eval name 'a' (first defined at line 2, column 11)"
    )


def test_a_dialect_building_two_cases_of_one_name_gets_a_load_error() -> None:
    from agent_asserts.loaders.dialects import BuildContext

    ctx = BuildContext.for_source(None, dialect="x", default_name="s")
    case = Case("c", ())
    suite = ctx.suite([case, case])
    assert [c.name for c in suite.cases] == ["c"]
    with pytest.raises(LoadError, match="duplicate case name 'c'"):
        ctx.problems.raise_if_any()
