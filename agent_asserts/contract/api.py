"""``evaluate_contract(record, spec)``: every assertion of a contract, one result each.

``spec`` is a :class:`~agent_asserts.contract.Contract`, its dict form, the path of a
YAML/JSON contract file (read by the loaders, with positions in every problem), or the
:class:`~agent_asserts.loaders.Suite` that ``load()`` gives for a contract file.

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
    from agent_asserts.loaders.suite import Suite
    from agent_asserts.record import TrialRecord
    from agent_asserts.results import AssertionResult

ContractSpec = Contract | Mapping[str, Any] | str | os.PathLike[str]


SPEC_KINDS = "a Contract, its dict form, a contract file path or a Suite loaded from one"


def _from_suite(suite: Suite) -> Contract:
    """The contract of a suite holding one case of plain contract entries (a contract file)."""
    from agent_asserts.checks.contract import ContractCheck

    if len(suite.cases) != 1:
        raise TypeError(
            f"a contract spec is {SPEC_KINDS} (got a Suite of {len(suite.cases)} cases; "
            f"evaluate it with suite.evaluate(record))"
        )
    case = suite.cases[0]
    assertions = []
    for entry in case.entries:
        check = entry.check
        plain = (entry.name, entry.severity, entry.threshold, entry.label) == (None,) * 4
        if not isinstance(check, ContractCheck) or not plain:
            raise TypeError(
                f"a contract spec is {SPEC_KINDS} (got a Suite whose case {case.name!r} holds "
                f"{check.describe()}, not a plain contract assertion; evaluate it with "
                f"suite.evaluate(record))"
            )
        assertions.append(check.assertion)
    return Contract(case.name, assertions)


def as_contract(spec: Any) -> Contract:
    """A :class:`Contract` from a contract, its dict form, a contract file or the ``Suite``
    loaded from one (one case whose entries are contract assertions).

    Raises:
        ContractError: The dict form has problems (key paths).
        LoadError: The file has problems (file, line, column, key path).
        TypeError: ``spec`` is none of these (the message names its type).

    >>> as_contract(42)
    Traceback (most recent call last):
    ...
    TypeError: a contract spec is a Contract, its dict form, a contract file path ... (got int)

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
    from agent_asserts.loaders.suite import Suite

    if isinstance(spec, Suite):
        return _from_suite(spec)
    raise TypeError(f"a contract spec is {SPEC_KINDS} (got {type(spec).__name__})")


def contract_checks(spec: Any) -> list[ContractCheck]:
    """One :class:`~agent_asserts.checks.contract.ContractCheck` per assertion of ``spec``."""
    from agent_asserts.checks.contract import ContractCheck

    return [ContractCheck(assertion) for assertion in as_contract(spec).assertions]


def evaluate_contract(
    record: TrialRecord, spec: ContractSpec | Suite, *, judge: Judge | None = None
) -> list[AssertionResult]:
    """Evaluate every assertion of ``spec`` over ``record``, without an ``EvalContext``.

    Args:
        record: The trial record.
        spec: A :class:`Contract`, its dict form, a path to a YAML/JSON contract file, or the
            ``Suite`` that ``load()`` gives for one.
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
