"""The state family of :class:`~agent_asserts.context.EvalContext`: what the run changed.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).only_changed("/orders/A1049/status").result.passed
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from agent_asserts.checks import state
from agent_asserts.fluent.recording import Recorder
from agent_asserts.matching import ANY

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle


class StateMethods(Recorder):
    """The world state: what changed between the initial and the final state."""

    def changed(
        self,
        path: str,
        *,
        before: Any = ANY,
        after: Any = ANY,
        op: Literal["added", "removed", "changed"] | None = None,
    ) -> AssertionHandle:
        """A delta entry at ``path`` (added, removed or changed; narrow with ``op``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.changed("/orders/A1049/status", before="paid", after="refunded").result.message
        "/orders/A1049/status changed: 'paid' -> 'refunded'"
        """
        return self._record(state.Changed(path, before=before, after=after, op=op))

    def unchanged(self, path: str) -> AssertionHandle:
        """Nothing at or below ``path`` changed.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).unchanged("/orders/A1049/amount").result.message
        '/orders/A1049/amount did not change'
        """
        return self._record(state.Unchanged(path))

    def only_changed(self, *paths: str) -> AssertionHandle:
        """Frame condition: every change lies at or below one of ``paths``.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).only_changed("/orders/A1049/amount").result.message
        "changed outside /orders/A1049/amount: changed /orders/A1049/status: 'paid' -> 'refunded'"
        """
        return self._record(state.OnlyChanged(*paths))


__all__ = ["StateMethods"]
