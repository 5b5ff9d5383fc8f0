"""The check families: one frozen attrs class per concept, ``evaluate(record) -> Outcome``.

A family is named once — its check module(s), its fluent mixin (:mod:`agent_asserts.fluent`)
and its docs page (``docs/checks-<family>.md``): outcome (``outcome``), trajectory (``tools``,
``trajectory``, ``sequencing``, ``trajectory_match``), events
(``events``), traces (``traces``), state (``state``) and conversation (``conversation``);
``expectations``, ``semantic`` and ``contract`` hold what ``ctx.expect``/``ctx.state``,
``judge`` and ``contract`` build. The fluent methods of
:class:`~agent_asserts.context.EvalContext` and every loader build these same objects;
:func:`all_checks` lists them by method name; :func:`register_check` adds one (the check
extension point, see :mod:`agent_asserts.checks.registry`).
"""

from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import all_checks, register_check, unregister_check
from agent_asserts.outcome import Outcome

__all__ = ["Check", "Outcome", "all_checks", "register_check", "unregister_check"]
