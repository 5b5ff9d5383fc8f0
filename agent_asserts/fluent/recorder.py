"""The base every fluent family builds on: one abstract recording path.

>>> from agent_asserts import EvalContext
>>> issubclass(EvalContext, Recorder)
True
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from agent_asserts.matching import Count

if TYPE_CHECKING:
    from agent_asserts.checks.base import Check
    from agent_asserts.fluent.handles import AssertionHandle

CountLike = int | Count | None


class Recorder(abc.ABC):
    """Implemented by :class:`~agent_asserts.context.EvalContext`: evaluate and record a check."""

    @abc.abstractmethod
    def record_check(self, check: Check) -> AssertionHandle:
        """Evaluate and record one check.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.checks.cost import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).record_check(MaxSteps(5)).result.passed
        True
        """

    def _record(self, check: Check) -> AssertionHandle:
        """:meth:`record_check` with its defaults, the fluent methods' call (an implementation
        may skip the argument checks of its public method here)."""
        return self.record_check(check)


__all__ = ["CountLike", "Recorder"]
