"""The contract grammar (seed 002): named bindings over S0, T, Sf and D, and one requirement.

An assertion selects evidence (``bind``), states the relation that must hold (``require``),
may apply only under a condition (``when``), and carries a severity. See ``docs/contract.md``.

>>> from agent_asserts import evaluate_contract
>>> from agent_asserts.testing import demo_record
>>> [r.status.value for r in evaluate_contract(demo_record(), {
...     "bind": {"calls": {"from": "trace", "where": {"kind": "tool_call"},
...                        "extract": "payload.name"}},
...     "require": {"quantifier": "some", "op": "equals", "left": "calls",
...                 "right": "refunds_issue"}})]
['pass']
"""

from agent_asserts.contract.grammar import BindRef
from agent_asserts.contract.model import (
    Binding,
    Condition,
    Contract,
    ContractAssertion,
    Requirement,
    as_contract,
)
from agent_asserts.contract.problems import ContractError, ContractProblem
from agent_asserts.contract.relations import register_matcher, unregister_matcher

__all__ = [
    "BindRef",
    "Binding",
    "Condition",
    "Contract",
    "ContractAssertion",
    "ContractError",
    "ContractProblem",
    "Requirement",
    "as_contract",
    "register_matcher",
    "unregister_matcher",
]
