"""An assertion compiled once: the passing case of the simplest shape answered directly.

The most common contract assertion compares one state value with a literal —
``bind: {s: {from: final_state, path: /orders/A1049/status}}``, ``require: {op: equals, left:
s, right: refunded}`` (or ``contains``, ``matcher: exact | structural``), no ``when``. For that
shape :func:`compile_assertion` resolves the path and tests the value with the operator's own
matcher (built once, not per evaluation) and returns the passing outcome — the very outcome
:func:`~agent_asserts.contract.evaluate.evaluate_assertion` gives, its message rendered only
when read. Anything else (a failing value, a missing path or state, a matcher that raises,
any other shape) answers None: the general evaluation decides, with its messages.

>>> from agent_asserts.contract.model import Contract
>>> from agent_asserts.testing import demo_record
>>> contract = Contract.from_dict({
...     "bind": {"s": {"from": "final_state", "path": "/orders/A1049/status"}},
...     "require": {"op": "equals", "left": "s", "right": "refunded"}})
>>> passing = compile_assertion(contract.assertions[0])
>>> outcome = passing(demo_record())
>>> outcome.status.value, outcome.evidence
('pass', ('final_state#/orders/A1049/status',))
>>> outcome.message
"'s' (final_state#/orders/A1049/status) equals 'refunded'"
>>> compile_assertion(Contract.from_dict({
...     "bind": {"n": {"from": "trace", "extract": "count"}},
...     "require": {"op": "equals", "left": "n", "right": 0}}).assertions[0])(demo_record())
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agent_asserts._text import LazyText
from agent_asserts._values import MISSING
from agent_asserts.contract.evaluate import assertion_details
from agent_asserts.contract.grammar import BindRef
from agent_asserts.contract.operators import Operator, operator_of
from agent_asserts.contract.verdicts import single_pass_text
from agent_asserts.outcome import Outcome
from agent_asserts.record import resolve

if TYPE_CHECKING:
    from agent_asserts.contract.model import ContractAssertion, Requirement
    from agent_asserts.record import TrialRecord

Passing = Callable[["TrialRecord"], Outcome | None]
"""The passing outcome of an assertion over a record, or None: the general path decides."""


def _general(record: TrialRecord) -> None:
    return None


def _passed_text(name: str, label: str, operator: Operator, req: Requirement, right: Any) -> str:
    return single_pass_text(name, label, operator.describe(req, right))


def compile_assertion(assertion: ContractAssertion) -> Passing:
    """The compiled passing case of ``assertion`` (a function that always answers None when
    its shape is not the simple one)."""
    req = assertion.require
    operator = operator_of(req)
    if assertion.when is not None or operator.matcher is None or isinstance(req.right, BindRef):
        return _general
    binding = assertion.bindings.get(req.left)
    if req.names() != (req.left,) or binding is None:
        return _general
    if binding.source not in ("initial_state", "final_state"):
        return _general
    right = None if req.right is MISSING else req.right
    try:
        matcher = operator.matcher(right)
    except Exception:  # the general path reports it as it always has
        return _general
    initial = binding.source == "initial_state"
    pointer = binding.path or ""
    label = f"{binding.source}#{pointer}"
    evidence = (label,)
    details = assertion_details(assertion)

    def passing(record: TrialRecord) -> Outcome | None:
        state = record.initial_state if initial else record.final_state
        if state is None:
            return None
        value = resolve(state, pointer)
        try:
            if not matcher.matches(value):
                return None
        except Exception:  # a raising matcher: the general path makes it an evaluator error
            return None
        text = LazyText(_passed_text, binding.name, label, operator, req, right)
        return Outcome.of(True, text, right, None, evidence, {**details})

    return passing


__all__ = ["Passing", "compile_assertion"]
