"""The contract family: one :class:`ContractCheck` per bind → require assertion (seed 002).

The result is named by the assertion's ``id``; its severity follows the contract's word
(critical and high gate, medium and low score) and ``evaluator.details["severity"]`` keeps
the word itself.

>>> from agent_asserts.contract import Contract
>>> from agent_asserts.testing import demo_record
>>> contract = Contract.from_dict({
...     "contract": "refunds", "assertions": [{
...         "id": "order-refunded", "severity": "medium",
...         "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
...         "require": {"op": "equals", "left": "status", "right": "refunded"}}]})
>>> check = ContractCheck(contract.assertions[0])
>>> check.default_name(), check.severity_for(None).value, check.run(demo_record()).status.value
('order-refunded', 'soft', 'pass')

Evaluating one assertion over one record (:func:`evaluate_assertion`, at the end): the ``when``
condition, the bindings, the relation, the quantifier, and the severity details.

>>> out = evaluate_assertion(Contract.from_dict({
...     "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
...     "require": {"op": "equals", "left": "status", "right": "refunded"}}).assertions[0],
...     demo_record())
>>> out.status.value, out.evidence
('pass', ('final_state#/orders/A1049/status',))
>>> out.message
"'status' (final_state#/orders/A1049/status) equals 'refunded'"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check
from agent_asserts.contract.bindings import Bound, resolve_binding
from agent_asserts.contract.grammar import BindRef
from agent_asserts.contract.model import (
    SPEC_KINDS,
    Contract,
    ContractAssertion,
    as_contract,
    parse_assertion,
    scope,
    spec_type_error,
)
from agent_asserts.contract.problems import Problems
from agent_asserts.contract.relations import EvaluatorFailed, Relating, Verdicts, operator_of
from agent_asserts.contract.verdicts import ItemVerdict, empty_outcome, items, listing, quantify
from agent_asserts.errors import RecordLacks
from agent_asserts.outcome import Outcome
from agent_asserts.status import Severity, Status

if TYPE_CHECKING:
    from agent_asserts.contract.model import Binding, Requirement
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


def _assertion(value: Any) -> ContractAssertion:
    if isinstance(value, ContractAssertion):
        return value
    if isinstance(value, Mapping):
        return ContractCheck.from_data(value).assertion
    raise TypeError(f"'assertion' must be a ContractAssertion or its dict form (got {value!r})")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class ContractCheck(Check):
    """Evaluates one :class:`~agent_asserts.contract.ContractAssertion` over a record.

    ``run(record, judge=...)`` passes the context's judge to ``semantic`` and
    ``grounded_semantic`` matchers; ``evaluate(record)`` runs without one.
    """

    assertion: ContractAssertion = attrs.field(converter=_assertion)
    method: ClassVar[str] = "contract"
    fluent_expands: ClassVar[bool] = True
    positional: ClassVar[tuple[str, ...]] = ("assertion",)

    @property
    def evaluator_type(self) -> str:  # type: ignore[override]
        """``semantic`` for judged matchers, ``custom`` for custom ones, else deterministic
        (when the ``when`` decides the result, its evaluator's type is used instead).

        >>> from agent_asserts.checks.contract import contract_checks
        >>> bind = {"s": {"from": "final_state", "path": "/orders/A1049/status"}}
        >>> require = {"op": "equals", "left": "s", "right": "refunded"}
        >>> contract_checks({"bind": bind, "require": require})[0].evaluator_type
        'deterministic'
        """
        return self.assertion.require.evaluator_type

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ContractCheck:
        """The check for one assertion in its dict form (``id`` required).

        Raises:
            ContractError: Every problem of the assertion, with key paths.

        >>> ContractCheck.from_data({
        ...     "id": "a", "bind": {"n": {"from": "trace", "extract": "count"}},
        ...     "require": {"op": "equals", "left": "n", "right": 0}}).default_name()
        'a'
        """
        p = Problems()
        assertion = parse_assertion(p, data, default_id=None)
        p.raise_if_any()
        if assertion is None:  # pragma: no cover - None always comes with a problem
            raise p.error()
        return cls(assertion)

    @classmethod
    def from_spec(cls, spec: Any) -> list[ContractCheck]:
        """:func:`contract_checks`: the checks ``ctx.contract(spec)`` records (the context finds
        this class under its method name, so it imports the contract package on first use).

        >>> [c.default_name() for c in ContractCheck.from_spec({"id": "none", "bind": {
        ...     "n": {"from": "trace", "extract": "count"}}, "require": {
        ...     "op": "equals", "left": "n", "right": 0}})]
        ['none']
        """
        return contract_checks(spec)

    def default_name(self) -> str:
        """The assertion's ``id``.

        >>> from agent_asserts.checks.contract import contract_checks
        >>> bind = {"s": {"from": "final_state", "path": "/orders/A1049/status"}}
        >>> require = {"op": "equals", "left": "s", "right": "refunded"}
        >>> contract_checks({"id": "refunded", "bind": bind, "require": require})[0].default_name()
        'refunded'
        """
        return self.assertion.id

    def severity_for(self, judge: Judge | None) -> Severity:
        """GATE for critical and high assertions, SOFT for medium and low.

        >>> from agent_asserts.checks.contract import contract_checks
        >>> bind = {"s": {"from": "final_state", "path": "/orders/A1049/status"}}
        >>> require = {"op": "equals", "left": "s", "right": "refunded"}
        >>> spec = {"severity": "medium", "bind": bind, "require": require}
        >>> contract_checks(spec)[0].severity_for(None)
        <Severity.SOFT: 'soft'>
        """
        return self.assertion.gate_severity

    def evaluate(self, record: TrialRecord) -> Outcome:
        """Evaluate without a judge (judged matchers are then ``invalid``)."""
        return self.run(record)

    def run(self, record: TrialRecord, *, judge: Judge | None = None) -> Outcome:
        """Evaluate with the context's judge."""
        return evaluate_assertion(self.assertion, record, judge)

    def describe(self) -> str:
        """``contract('every-mutation-audited')``."""
        return f"contract({self.assertion.id!r})"

    def to_data(self) -> Any:
        """The native form ``{contract: <assertion dict>}``."""
        return {self.method: self.assertion.to_dict()}


@runtime_checkable
class LoadedSuite(Protocol):
    """What :func:`contract_checks` needs of a ``Suite`` loaded from a contract file."""

    cases: Sequence[Any]


def _from_suite(suite: LoadedSuite) -> Contract:
    """The contract of a suite holding one case of plain contract entries (a contract file)."""
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


def contract_checks(spec: Any) -> list[ContractCheck]:
    """One :class:`ContractCheck` per assertion of a contract, its dict form, or the ``Suite``
    loaded from a contract file (one case whose entries are plain contract assertions).

    Raises:
        ContractError: The dict form has problems (key paths).
        TypeError: ``spec`` is none of these (a path: read it with ``load_contract`` first).

    >>> [c.default_name() for c in contract_checks({
    ...     "bind": {"n": {"from": "trace", "extract": "count"}},
    ...     "require": {"op": "equals", "left": "n", "right": 0}})]
    ['contract']
    """
    if isinstance(spec, Mapping):
        return list(_mapping_checks(spec))
    if isinstance(spec, Contract):
        contract = as_contract(spec)
    elif isinstance(spec, LoadedSuite) and not isinstance(spec, str):
        contract = _from_suite(spec)
    else:
        raise spec_type_error(spec)
    return [ContractCheck(assertion) for assertion in contract.assertions]


def _mapping_checks(spec: Mapping[str, Any]) -> tuple[ContractCheck, ...]:
    """The checks of a contract's dict form."""
    return tuple(ContractCheck(a) for a in as_contract(spec).assertions)


# -- evaluating one assertion over one record: condition, bindings, relation, quantifier ----


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


__all__ = [
    "ContractCheck",
    "LoadedSuite",
    "assertion_details",
    "contract_checks",
    "evaluate_assertion",
    "evaluate_requirement",
]
