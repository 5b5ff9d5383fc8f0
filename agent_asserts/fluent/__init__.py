"""The fluent families of :class:`~agent_asserts.context.EvalContext`: one mixin per family.

Each method is one line: build the check object named after it and record it through the
:class:`~agent_asserts.fluent.recording.Recorder`. :mod:`.handles` holds the handle a method
returns and the value expectation of ``ctx.expect``/``ctx.state``.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).called_tool("refunds_issue").result.message
'matched 1 tool calls'
"""

from __future__ import annotations

from agent_asserts.fluent.conversation import ConversationMethods
from agent_asserts.fluent.events import EventMethods
from agent_asserts.fluent.outcome import OutcomeMethods
from agent_asserts.fluent.state import StateMethods
from agent_asserts.fluent.traces import TraceMethods
from agent_asserts.fluent.trajectory import TrajectoryMethods

__all__ = [
    "ConversationMethods",
    "EventMethods",
    "OutcomeMethods",
    "StateMethods",
    "TraceMethods",
    "TrajectoryMethods",
]
