"""``ContractCheck.run``: the outcome of a missing state, and a dict spec changed in place."""

from __future__ import annotations

from typing import Any

from agent_asserts import EvalContext, TrialRecord
from agent_asserts.checks.contract import ContractCheck, contract_checks
from agent_asserts.contract.model import Contract


def test_a_missing_state_makes_the_assertion_invalid() -> None:
    contract = Contract.from_dict(
        {
            "bind": {"s": {"from": "final_state", "path": "/s"}},
            "require": {"op": "equals", "left": "s", "right": None},
        }
    )
    outcome = ContractCheck(contract.assertions[0]).run(TrialRecord())
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
