"""The outcome family of :class:`~agent_asserts.context.EvalContext`: status and reply.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).succeeded().result.passed
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent_asserts.checks import outcome
from agent_asserts.fluent.recording import Recorder

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle


class OutcomeMethods(Recorder):
    """``succeeded``, ``stopped``, ``message_includes``, ``output_equals``, ``output_matches``,
    ``ended_with_reply``, ``ended_without_error``."""

    def succeeded(self) -> AssertionHandle:
        """The run's status is ``completed``.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).succeeded().result.message
        "status is 'completed'"
        """
        return self._record(outcome.Succeeded())

    def stopped(self) -> AssertionHandle:
        """The run's status is ``stopped``.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).stopped().result.message
        "expected status 'stopped', got 'completed'"
        """
        return self._record(outcome.Stopped())

    def message_includes(self, text: str) -> AssertionHandle:
        """The reply contains ``text``.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).message_includes("A1049").result.message
        "the reply includes 'A1049'"
        """
        return self._record(outcome.MessageIncludes(text))

    def output_equals(self, expected: Any) -> AssertionHandle:
        """The reply matches ``expected`` (a string or a matcher).

        >>> from agent_asserts import EvalContext, M
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).output_equals(M.regex("Refund issued.*")).result.passed
        True
        """
        return self._record(outcome.OutputEquals(expected))

    def output_matches(self, pattern: str) -> AssertionHandle:
        """A regular expression is found in the reply.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).output_matches(r"order A\\d+").result.status.value
        'pass'
        """
        return self._record(outcome.OutputMatches(pattern))

    def ended_with_reply(self) -> AssertionHandle:
        """The run ended with a reply to the user.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).ended_with_reply().result.message
        'the run ended with a reply'
        """
        return self._record(outcome.EndedWithReply())

    def ended_without_error(self) -> AssertionHandle:
        """The run's status is not an error status and no run error was recorded.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).ended_without_error().result.message
        "the run ended with status 'completed'"
        """
        return self._record(outcome.EndedWithoutError())


__all__ = ["OutcomeMethods"]
