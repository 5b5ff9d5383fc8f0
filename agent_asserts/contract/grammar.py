"""The words of the contract grammar (seed 002), in one place; the operators (``op`` and
``matcher``) are the keys of the tables in :mod:`agent_asserts.contract.operators`.

>>> SOURCES[0], QUANTIFIERS, SEVERITIES[0]
('trace', ('every', 'some', 'none'), 'critical')
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from agent_asserts.selectors.calls import ENVELOPE_FILTERS

SOURCES: Final = ("trace", "initial_state", "final_state", "delta")
STATE_SOURCES: Final = ("initial_state", "final_state")
QUANTIFIERS: Final = ("every", "some", "none")
SEVERITIES: Final = ("critical", "high", "medium", "low")
GATE_SEVERITIES: Final = ("critical", "high")
TRACE_WHERE: Final = ("kind", "event_type", *ENVELOPE_FILTERS)
DELTA_WHERE: Final = ("path", "op")
DELTA_OPS: Final = ("added", "removed", "changed")

BINDING_KEYS: Final = ("from", "where", "path", "extract")
REQUIRE_KEYS: Final = (
    "quantifier",
    "op",
    "left",
    "right",
    "on",
    "within",
    "matcher",
    "grounding",
    "custom",
)
ASSERTION_KEYS: Final = ("id", "severity", "when", "bind", "require", "allow_empty")
CONDITION_KEYS: Final = ("bind", "require")
CONTRACT_KEYS: Final = ("contract", "name", "assertions")
BIND_OPERATOR: Final = "$bind"


@attrs.frozen
class BindRef:
    """``{$bind: name}`` in ``right``: the value of another binding instead of a literal.

    >>> BindRef("refund_ids").to_data()
    {'$bind': 'refund_ids'}
    """

    name: str

    def to_data(self) -> dict[str, Any]:
        """The YAML/JSON form."""
        return {BIND_OPERATOR: self.name}


__all__ = [
    "ASSERTION_KEYS",
    "BINDING_KEYS",
    "BIND_OPERATOR",
    "CONDITION_KEYS",
    "CONTRACT_KEYS",
    "DELTA_OPS",
    "DELTA_WHERE",
    "GATE_SEVERITIES",
    "QUANTIFIERS",
    "REQUIRE_KEYS",
    "SEVERITIES",
    "SOURCES",
    "STATE_SOURCES",
    "TRACE_WHERE",
    "BindRef",
]
