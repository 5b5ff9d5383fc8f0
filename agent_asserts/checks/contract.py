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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import attrs

from agent_asserts.checks import register
from agent_asserts.checks.base import Check
from agent_asserts.contract.evaluate import evaluate_assertion
from agent_asserts.contract.model import (
    SPEC_KINDS,
    Contract,
    ContractAssertion,
    as_contract,
    parse_assertion,
    spec_type_error,
)
from agent_asserts.contract.problems import Problems
from agent_asserts.outcome import Outcome
from agent_asserts.status import Severity

if TYPE_CHECKING:
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


__all__ = ["ContractCheck", "LoadedSuite", "contract_checks"]
