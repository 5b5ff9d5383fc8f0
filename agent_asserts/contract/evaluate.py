"""Evaluating one assertion over one record: condition, bindings, relation, quantifier.

>>> from agent_asserts.contract.model import Contract
>>> from agent_asserts.testing import demo_record
>>> contract = Contract.from_dict({
...     "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
...     "require": {"op": "equals", "left": "status", "right": "refunded"}})
>>> out = evaluate_assertion(contract.assertions[0], demo_record())
>>> out.status.value, out.evidence
('pass', ('final_state#/orders/A1049/status',))
>>> out.message
"'status' (final_state#/orders/A1049/status) equals 'refunded'"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.contract.bindings import Bound, resolve_binding
from agent_asserts.contract.grammar import BindRef
from agent_asserts.contract.model import scope
from agent_asserts.contract.operators import Relating, Verdicts, operator_of
from agent_asserts.contract.relations import EvaluatorFailed
from agent_asserts.contract.verdicts import ItemVerdict, empty_outcome, items, listing, quantify
from agent_asserts.errors import RecordLacks
from agent_asserts.outcome import Outcome
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.contract.model import Binding, ContractAssertion, Requirement
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


def _dedupe(evidence: Iterable[Any]) -> tuple[Any, ...]:
    evidence = list(evidence)
    if all(type(ref) is str for ref in evidence):
        return tuple(dict.fromkeys(evidence))
    seen: set[str] = set()
    out = []
    for ref in evidence:
        key = ref if isinstance(ref, str) else repr(ref)
        if key not in seen:
            seen.add(key)
            out.append(ref)
    return tuple(out)


def _count(left: Bound, limit: int) -> Outcome:
    if left.single:
        value = left.items[0] if left.items else MISSING
        if value is MISSING:
            return Outcome.invalid(f"the path {left.labels[0]!r} does not exist")
        if not isinstance(value, list | dict):
            return Outcome.invalid(
                f"count_at_most counts a list or a mapping; {left.labels[0]} holds {value!r}"
            )
        size, names = len(value), ""
    else:
        size = len(left.items)
        listed = listing([ItemVerdict(label, False) for label in left.labels], reasons=False)
        names = f" ({listed})" if left.items else ""
    text = f"{left.name!r} has {items(size)}{names}, expected at most {limit}"
    return Outcome.of(size <= limit, message=text, expected=limit, observed=size)


def _right_value(req: Requirement, bound: Mapping[str, Bound]) -> Any:
    if not isinstance(req.right, BindRef):
        return None if req.right is MISSING else req.right
    other = bound[req.right.name]
    value = other.value()
    if other.single and value is MISSING:
        label = other.labels[0] if other.labels else repr(other.name)
        raise RecordLacks(f"the path {label!r} does not exist (right: {{$bind: {other.name}}})")
    return value


def evaluate_requirement(
    req: Requirement,
    bindings: Mapping[str, Binding],
    record: TrialRecord,
    *,
    judge: Judge | None = None,
    allow_empty: bool = False,
) -> Outcome:
    """The outcome of one requirement (without severity details)."""
    evidence: list[Any] = []
    bound: dict[str, Bound] = {}
    evaluator: dict[str, Any] = {}  # what a judge reports of itself
    try:
        for name in req.names():
            bound[name] = resolve_binding(bindings[name], record)
            evidence.extend(bound[name].evidence)
        right = _right_value(req, bound)
        left = bound[req.left]
        operator = operator_of(req)
        description = operator.describe(req, right)
        if operator.verdicts is None:  # count_at_most: the whole selection at once
            outcome = _count(left, int(req.right))
        else:
            relating = Relating(req, bound, right, judge, evaluator)
            outcome = empty_outcome(left, req.effective_quantifier, allow_empty) or _judge_items(
                relating, operator.verdicts, description
            )
    except RecordLacks as exc:
        return Outcome.invalid(str(exc), evidence=_dedupe(evidence), evaluator=evaluator)
    except EvaluatorFailed as exc:
        return Outcome.error(
            str(exc), evidence=_dedupe(evidence), evaluator=evaluator, force_gate=exc.force_gate
        )
    return outcome.replace(
        evidence=_dedupe(evidence),
        expected=operator.expected(req, right, description),
        evaluator={**outcome.evaluator, **evaluator},
    )


def _judge_items(relating: Relating, judge_each: Verdicts, description: str) -> Outcome:
    left = relating.left
    verdicts = judge_each(relating)
    outcome = quantify(left, verdicts, relating.req.effective_quantifier, description)
    if left.single and left.items and left.items[0] is MISSING and not verdicts[0].ok:
        return Outcome.invalid(f"the path {left.labels[0]!r} does not exist")
    return outcome


def assertion_details(assertion: ContractAssertion) -> dict[str, Any]:
    """What every outcome of ``assertion`` carries in its details: the contract ``severity``
    word, the ``op`` and the quantifier (when given; ``count_at_most`` has none).

    >>> from agent_asserts.contract.model import Contract
    >>> assertion_details(Contract.from_dict({
    ...     "bind": {"n": {"from": "trace", "extract": "count"}},
    ...     "require": {"op": "equals", "left": "n", "right": 0}}).assertions[0])
    {'severity': 'high', 'op': 'equals'}
    """
    req = assertion.require
    details: dict[str, Any] = {"severity": assertion.severity, "op": req.op}
    if req.op != "count_at_most" and req.quantifier is not None:
        details["quantifier"] = req.quantifier
    return details


def evaluate_assertion(
    assertion: ContractAssertion, record: TrialRecord, judge: Judge | None = None
) -> Outcome:
    """The outcome of one assertion: ``not_applicable`` when its ``when`` does not pass.

    The outcome's details carry the contract ``severity`` word, the ``op`` and quantifier, and,
    when the ``when`` decides the result, the outcome's ``evaluator_type`` is the condition's
    (``custom`` when its custom matcher raised), which the result's ``evaluator.type`` takes.
    """
    req = assertion.require
    details = assertion_details(assertion)
    before: tuple[Any, ...] = ()
    if assertion.when is not None:
        inner = scope(assertion.bind, assertion.when.bind)
        condition = evaluate_requirement(assertion.when.require, inner, record, judge=judge)
        if condition.status is not Status.PASS:
            # the condition decided the result: its evaluator is the one that ran (or failed)
            evaluator_type = assertion.when.require.evaluator_type
            merged = {**condition.details, **details}
            message = f"when: {condition.message}"
            if condition.status is Status.FAIL:
                return Outcome.not_applicable(
                    message,
                    evidence=condition.evidence,
                    details=merged,
                    evaluator=condition.evaluator,
                    evaluator_type=evaluator_type,
                    force_gate=condition.force_gate,
                )
            return attrs.evolve(
                condition, message=message, details=merged, evaluator_type=evaluator_type
            )
        before = condition.evidence
    outcome = evaluate_requirement(
        req, assertion.bindings, record, judge=judge, allow_empty=assertion.allow_empty
    )
    return outcome.replace(
        evidence=_dedupe((*before, *outcome.evidence)),
        details={**outcome.details, **details},
    )


__all__ = ["assertion_details", "evaluate_assertion", "evaluate_requirement"]
