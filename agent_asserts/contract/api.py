"""``evaluate_contract(record, spec)``: every assertion of a contract, one result each.

``spec`` is a :class:`~agent_asserts.contract.Contract`, its dict form, or the path of a
YAML/JSON contract file (read by the loaders, with positions in every problem).

>>> from agent_asserts.testing import demo_record
>>> results = evaluate_contract(demo_record(), {
...     "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
...     "require": {"op": "equals", "left": "status", "right": "refunded"}})
>>> [(r.name, r.status.value, r.severity.value, r.evaluator.details["severity"]) for r in results]
[('contract', 'pass', 'gate', 'high')]
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agent_asserts.contract.model import Contract

if TYPE_CHECKING:
    from agent_asserts.checks.contract import ContractCheck
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord
    from agent_asserts.results import AssertionResult

ContractSpec = Contract | Mapping[str, Any] | str | os.PathLike[str]


def as_contract(spec: Any) -> Contract:
    """A :class:`Contract` from a contract, its dict form or a contract file.

    Raises:
        ContractError: The dict form has problems (key paths).
        LoadError: The file has problems (file, line, column, key path).
        TypeError: ``spec`` is none of these.

    >>> as_contract({"contract": "c", "assertions": [{"id": "a", "bind": {},
    ...     "require": {"op": "equals", "left": "nope", "right": 1}}]})
    Traceback (most recent call last):
    ...
    agent_asserts.contract.problems.ContractError: assertions[0].require.left: 'nope' is not ...
    """
    if isinstance(spec, Contract):
        return spec
    if isinstance(spec, Mapping):
        return Contract.from_dict(spec)
    if isinstance(spec, str | os.PathLike):
        from agent_asserts.loaders.contract import load_contract

        return load_contract(spec)
    raise TypeError(f"a contract spec is a Contract, a mapping or a file path (got {spec!r})")


def contract_checks(spec: Any) -> list[ContractCheck]:
    """One :class:`~agent_asserts.checks.contract.ContractCheck` per assertion of ``spec``."""
    from agent_asserts.checks.contract import ContractCheck

    return [ContractCheck(assertion) for assertion in as_contract(spec).assertions]


def evaluate_contract(
    record: TrialRecord, spec: ContractSpec, *, judge: Judge | None = None
) -> list[AssertionResult]:
    """Evaluate every assertion of ``spec`` over ``record``, without an ``EvalContext``.

    Args:
        record: The trial record.
        spec: A :class:`Contract`, its dict form, or a path to a YAML/JSON contract file.
        judge: The judge for ``semantic`` / ``grounded_semantic`` matchers.

    Returns:
        One result per assertion, named by its ``id``, in contract order; severity GATE for
        critical/high and SOFT for medium/low.
    """
    from agent_asserts.context import outcome_to_result, run_check

    results = []
    for check in contract_checks(spec):
        outcome = run_check(check, record, judge=judge)
        severity = check.assertion.gate_severity
        results.append(
            outcome_to_result(check, outcome, name=check.assertion.id, severity=severity)
        )
    return results


__all__ = ["ContractSpec", "as_contract", "contract_checks", "evaluate_contract"]
