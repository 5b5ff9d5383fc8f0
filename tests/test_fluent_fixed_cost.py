"""The fixed cost of a fluent call (#16): the construction cache's keys and the direct filling
of results must never change what a call builds or records."""

from __future__ import annotations

import copy
import pickle
import weakref

import attrs
import pytest

from agent_asserts import EvalContext, on
from agent_asserts._fill import filler, twin_of
from agent_asserts.checks import sequencing, tools
from agent_asserts.checks.cost import StepCount
from agent_asserts.checks.memo import built
from agent_asserts.matching.namespace import ANY
from agent_asserts.outcome import Outcome
from agent_asserts.results import AssertionResult, EvaluatorInfo, Severity, Status
from agent_asserts.testing import demo_record

# -- the construction cache -------------------------------------------------------------------


def test_one_flat_value_is_cached_by_value_and_type() -> None:
    assert built(StepCount, 3) is built(StepCount, 3)
    assert built(tools.NotCalledTool, "a") is not built(tools.NotCalledTool, "b")
    with pytest.raises(TypeError, match=r"'n' must be an int \(got True\)"):
        built(StepCount, True)  # True == 1 and hashes alike: the type keeps them apart
    assert built(StepCount, 1).n == 1


def test_bool_and_int_never_share_an_entry_in_any_key_shape() -> None:
    first = built(tools.CalledTool, "a", None, None, None, 1)
    assert built(tools.CalledTool, "a", None, None, None, 1) is first
    with pytest.raises(TypeError):
        built(tools.CalledTool, "a", None, None, None, True)
    named = built(tools.CalledTool, "a", count=1, total=False)
    assert built(tools.CalledTool, "a", count=1, total=False) is named
    with pytest.raises(TypeError, match="'total' must be True or False"):
        built(tools.CalledTool, "a", count=1, total=0)


def test_keyword_names_are_part_of_the_key() -> None:
    order = built(sequencing.ToolOrder, "a", "b", contiguous=False)
    assert built(sequencing.ToolOrder, "a", "b", contiguous=False) is order
    assert built(sequencing.ToolOrder, "a", "b") == order  # equal, not the same entry shape
    contiguous = built(sequencing.ToolOrder, "a", "b", contiguous=True)
    assert contiguous.contiguous is True


def test_a_selector_is_keyed_by_identity_and_kept_alive() -> None:
    lookup = on.tool("refunds_lookup")
    check = built(tools.NotCalledTool, "refunds_issue", None, before=lookup)
    assert built(tools.NotCalledTool, "refunds_issue", None, before=lookup) is check
    twin = on.tool("refunds_lookup")  # equal, another object: another entry
    assert built(tools.NotCalledTool, "refunds_issue", None, before=twin) is not check
    ref = weakref.ref(lookup)
    del lookup
    assert ref() is not None  # the entry holds it: its id is never reused while cached


def test_unplain_arguments_build_a_new_object_every_time() -> None:
    def predicate(x: object) -> bool:
        return True

    assert built(tools.CalledTool, "a", result=1.5) is not built(tools.CalledTool, "a", result=1.5)
    assert built(tools.CalledTool, "a", predicate) is not built(tools.CalledTool, "a", predicate)


def test_an_error_of_an_uncached_build_is_raised_without_a_chained_context() -> None:
    def predicate(x: object) -> bool:
        return True

    with pytest.raises(TypeError) as raised:
        built(tools.CalledTool, 3, predicate)
    assert raised.value.__context__ is None


def test_any_and_tuples_are_cached() -> None:
    from agent_asserts.checks import state

    changed = built(state.Changed, "/a", before=ANY, after="x", op=None)
    assert built(state.Changed, "/a", before=ANY, after="x", op=None) is changed

    @attrs.frozen
    class Pair:
        a: object
        b: object = None

    nested = built(Pair, "a", ("b", 1))
    assert built(Pair, "a", ("b", 1)) is nested
    assert built(Pair, "a", ("b", True)).b == ("b", True)  # typed item by item
    assert built(Pair, "a", b=("b", on.tool("x"))) is not built(Pair, "a", b=("b", on.tool("x")))


# -- filling results directly -----------------------------------------------------------------


def _values() -> tuple[object, ...]:
    """The field values of one result, in field order."""
    return (
        "n", Status.PASS, 1.0, Severity.GATE, None, None, "ok", 1, 1, (), None, ("e1",),
        EvaluatorInfo(), "d()", True,
    )  # fmt: skip


def test_a_filled_result_is_a_plain_frozen_result() -> None:
    filled = filler(AssertionResult)(_values())
    made = AssertionResult(
        "n", "pass", 1.0, message="ok", expected=1, observed=1, evidence=["e1"],
        evaluator=EvaluatorInfo(), description="d()",
    )  # fmt: skip
    assert type(filled) is AssertionResult
    assert filled == made
    assert repr(filled) == repr(made)
    assert pickle.dumps(filled) == pickle.dumps(made)
    assert pickle.loads(pickle.dumps(filled)) == made
    assert copy.deepcopy(filled) == made
    assert filled.to_dict() == made.to_dict()
    assert weakref.ref(filled)() is filled
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        filled.name = "other"  # type: ignore[misc]


def test_a_class_with_its_own_slots_falls_back_to_descriptors() -> None:
    @attrs.frozen
    class Point:
        x: int
        y: int

    assert twin_of(Point) is None
    assert filler(Point)((1, 2)) == Point(1, 2)


def test_fluent_results_equal_their_constructed_form() -> None:
    ctx = EvalContext(demo_record())
    result = ctx.step_count(4).result
    assert result == AssertionResult(
        "step_count:4", "pass", 1.0, message="expected 4 steps, got 4", expected=4,
        observed=4, evaluator=EvaluatorInfo(), description="step_count(4)",
    )  # fmt: skip
    assert type(result) is AssertionResult


def test_selectors_among_flat_values_are_keyed_by_identity() -> None:
    from agent_asserts.checks import events

    audit = on.event("audit", operation_ref="op-7")
    check = built(events.EventCheck, audit, None, None)
    assert built(events.EventCheck, audit, None, None) is check  # by value (selector's id)
    assert built(events.EventCheck, audit, None, None) is check  # by identity from now on
    assert built(events.EventCheck, audit, None, 1) is not check
    assert built(events.EventCheck, on.event("audit", entity_ref="x"), None, None) is not check
    with pytest.raises(TypeError):
        built(events.EventCheck, audit, None, True)  # the types are part of the key
    alone = built(events.NotEvent, audit)
    assert built(events.NotEvent, audit) is alone
    lookup = on.tool("refunds_lookup")
    named = built(tools.NotCalledTool, "refunds_issue", before=lookup)
    assert built(tools.NotCalledTool, "refunds_issue", before=lookup) is named
    computed = "".join(["refunds_", "issue"])  # equal to the literal, another object
    assert built(tools.NotCalledTool, computed, before=lookup) is named  # found by value
    assert built(tools.NotCalledTool, "refunds_issue", before=on.tool("x")) is not named


def test_outcome_of_with_extra_fields_equals_its_constructed_form() -> None:
    fast = Outcome.of(False, message="m", observed=1, mismatches=["x"], closest="e1")
    slow = Outcome(Status.FAIL, 0.0, message="m", observed=1, mismatches=("x",), closest="e1")
    assert fast == slow and fast.mismatches == ("x",) and repr(fast) == repr(slow)
    judged = Outcome.of(True, evaluator={"model": "m"}, force_gate=True, passed_by_judge=True)
    assert judged.evaluator == {"model": "m"} and judged.force_gate and judged.passed_by_judge
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        Outcome.of(True, nope=1)


@pytest.mark.parametrize(
    ("outcome_of", "severity", "details", "score_decides"),
    [
        (lambda: Outcome.of(True), Severity.SOFT, {}, True),
        (lambda: Outcome.of(True).replace(force_gate=True), Severity.GATE, {}, True),
        (lambda: Outcome.of(True, details={"a": 1}), Severity.SOFT, {"a": 1}, True),
        (lambda: Outcome.of(True, evaluator={"model": "m"}), Severity.SOFT, {"model": "m"}, True),
        (lambda: Outcome.of(False).replace(passed_by_judge=True), Severity.SOFT, {}, False),
        (lambda: Outcome.invalid("x").replace(details={"b": 2}), Severity.SOFT, {"b": 2}, True),
        (lambda: Outcome(Status.PASS, 1.0, force_gate=True), Severity.GATE, {}, True),
    ],
)
def test_the_recorder_reads_every_special_field_an_outcome_sets(
    outcome_of: object, severity: Severity, details: dict[str, object], score_decides: bool
) -> None:
    """Outcomes from the fast constructors skip the reads of details, evaluator, forced gate
    and judge verdict; any of them set (given, replaced or constructed) is still recorded."""
    from agent_asserts.fluent.recording import outcome_to_result

    outcome = outcome_of()  # type: ignore[operator]
    result = outcome_to_result(StepCount(1), outcome, severity="soft")
    assert result.severity is severity
    assert dict(result.evaluator.details) == details
    assert result.score_decides is score_decides
