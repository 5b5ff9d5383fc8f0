"""The compiled passing case of the simplest assertions gives exactly the outcome of the
general evaluation (every field, the message included), and defers every other case to it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts import EvalContext, TrialRecord
from agent_asserts.checks.contract import ContractCheck, contract_checks
from agent_asserts.contract.compiled import compile_assertion
from agent_asserts.contract.evaluate import evaluate_assertion
from agent_asserts.contract.model import Contract

keys = st.sampled_from(["a", "b", "status"])
scalars = st.sampled_from([0, 1, True, 1.0, "refunded", "open", "", None])
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
rights = values | st.sampled_from(
    [{"$regex": "^ref"}, {"$gt": 0}, {"a": {"$regex": "o"}}, {"$absent": True}, ["open"]]
)
paths = st.sampled_from(["", "/a", "/a/b", "/status", "/a/0", "/b/status"])
requires = st.one_of(
    st.builds(
        lambda op, right: {"op": op, "right": right},
        st.sampled_from(["equals", "contains"]),
        rights,
    ),
    st.builds(
        lambda m, right: {"op": "matcher", "matcher": m, "right": right},
        st.sampled_from(["exact", "structural"]),
        rights,
    ),
    st.builds(lambda n: {"op": "count_at_most", "right": n}, st.integers(0, 2)),
)


def _spec(source: str, path: str, require: dict[str, Any], severity: str) -> Any:
    req = {**require, "left": "s"}
    return {
        "severity": severity,
        "bind": {"s": {"from": source, "path": path}},
        "require": req,
    }


def _fields(outcome: Any) -> dict[str, Any]:
    names = (
        "status",
        "score",
        "message",
        "expected",
        "observed",
        "evidence",
        "mismatches",
        "closest",
        "details",
        "evaluator",
        "evaluator_type",
        "force_gate",
        "passed_by_judge",
    )
    return {name: getattr(outcome, name) for name in names}


def _placed(state: Any, path: str, value: Any) -> Any:
    """``state`` with ``value`` at ``path`` (as far as the containers on the way allow)."""
    parts = path.split("/")[1:]
    if not parts:
        return value if isinstance(value, dict) else state
    root = state if isinstance(state, dict) else {}
    node = root
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value
    return root


@settings(max_examples=250)
@given(
    st.sampled_from(["final_state", "initial_state"]),
    paths,
    requires,
    st.sampled_from(["critical", "high", "medium", "low"]),
    st.none() | values,
    st.none() | values,
    st.booleans(),
)
def test_the_compiled_case_gives_the_general_outcome(
    source: str, path: str, require: Any, severity: str, initial: Any, final: Any, place: bool
) -> None:
    (check,) = contract_checks(_spec(source, path, require, severity))
    if place:  # the right value itself at the path: equals and exact then pass
        right = require["right"]
        if source == "final_state":
            final = _placed(final, path, right)
        else:
            initial = _placed(initial, path, right)
    record = TrialRecord(
        initial_state=initial if isinstance(initial, dict) else None,
        final_state=final if isinstance(final, dict) else None,
    )
    general = evaluate_assertion(check.assertion, record)
    compiled = compile_assertion(check.assertion)(record)
    if compiled is not None:
        assert general.status.value == "pass"
        assert _fields(compiled) == _fields(general)
        assert repr(compiled) == repr(general)
    assert _fields(check.run(record)) == _fields(general)


def test_the_simple_shape_passes_through_the_compiled_case() -> None:
    spec = {
        "bind": {"s": {"from": "final_state", "path": "/orders/A1/status"}},
        "require": {"op": "equals", "left": "s", "right": "refunded"},
    }
    record = TrialRecord(final_state={"orders": {"A1": {"status": "refunded"}}})
    (check,) = contract_checks(spec)
    outcome = compile_assertion(check.assertion)(record)
    assert outcome is not None
    assert outcome.message == "'s' (final_state#/orders/A1/status) equals 'refunded'"
    result = EvalContext(record).contract(spec)[0].result
    assert (result.status.value, result.evidence) == ("pass", ("final_state#/orders/A1/status",))
    assert result.evaluator.details == {"severity": "high", "op": "equals"}


def test_other_shapes_and_failures_are_left_to_the_general_path() -> None:
    record = TrialRecord(final_state={"s": "open"}, initial_state={"s": "open"})
    specs = [
        {  # a failing value
            "bind": {"s": {"from": "final_state", "path": "/s"}},
            "require": {"op": "equals", "left": "s", "right": "refunded"},
        },
        {  # a trace binding
            "bind": {"n": {"from": "trace", "extract": "count"}},
            "require": {"op": "equals", "left": "n", "right": 0},
        },
        {  # a when
            "when": {"require": {"op": "equals", "left": "s", "right": "open"}},
            "bind": {"s": {"from": "final_state", "path": "/s"}},
            "require": {"op": "equals", "left": "s", "right": "open"},
        },
        {  # right bound to another binding
            "bind": {
                "s": {"from": "final_state", "path": "/s"},
                "t": {"from": "initial_state", "path": "/s"},
            },
            "require": {"op": "equals", "left": "s", "right": {"$bind": "t"}},
        },
    ]
    for spec in specs:
        for check in contract_checks(spec):
            assert compile_assertion(check.assertion)(record) is None
            assert _fields(check.run(record)) == _fields(
                evaluate_assertion(check.assertion, record)
            )


def test_a_missing_state_is_left_to_the_general_path() -> None:
    contract = Contract.from_dict(
        {
            "bind": {"s": {"from": "final_state", "path": "/s"}},
            "require": {"op": "equals", "left": "s", "right": None},
        }
    )
    check = ContractCheck(contract.assertions[0])
    outcome = check.run(TrialRecord())
    assert compile_assertion(check.assertion)(TrialRecord()) is None
    assert outcome.status.value == "invalid"
    assert outcome.message == "the record has no final state (binding 's')"


def _status(ctx: EvalContext, spec: Any) -> str:
    return str(ctx.contract(spec)[0].result.status.value)


def test_the_same_dict_changed_in_place_is_parsed_again() -> None:
    record = TrialRecord(final_state={"s": "refunded", "n": 1})
    ctx = EvalContext(record)
    spec: dict[str, Any] = {
        "bind": {"s": {"from": "final_state", "path": "/s"}},
        "require": {"op": "equals", "left": "s", "right": "refunded"},
    }
    first = contract_checks(spec)
    assert contract_checks(spec) == first
    assert _status(ctx, spec) == "pass"
    spec["require"]["right"] = "open"
    assert _status(ctx, spec) == "fail"
    spec["require"]["right"] = "refunded"
    assert _status(ctx, spec) == "pass"
    numbers: dict[str, Any] = {
        "bind": {"n": {"from": "final_state", "path": "/n"}},
        "require": {"op": "equals", "left": "n", "right": 1},
    }
    assert _status(ctx, numbers) == "pass"
    numbers["require"]["right"] = True  # equal to 1, not the same value
    assert _status(ctx, numbers) == "fail"
    numbers["require"]["right"] = 1.0
    assert ctx.contract(numbers)[0].result.message == "'n' (final_state#/n) equals 1.0"
