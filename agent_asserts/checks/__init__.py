"""The check families: one frozen attrs class per concept, ``evaluate(record) -> Outcome``.

Each module holds one family (outcome, tools, trajectory, events, sequencing, cost, state,
values, memory, lifecycle, messages, turns, semantic, contract). The fluent methods of
:class:`~agent_asserts.context.EvalContext` and every loader build these same objects;
:func:`~agent_asserts.checks.registry.all_checks` lists them by method name.
"""

from agent_asserts.checks.base import Check, Outcome

__all__ = ["Check", "Outcome"]
