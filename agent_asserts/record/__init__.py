"""The trial record: what happened in one agent run (S0, T, Sf and the derived delta D).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().user("hi").agent("hello").build()
>>> rec.reply
'hello'
"""

from agent_asserts.record.builder import RecordBuilder
from agent_asserts.record.declared_tools import DeclaredTool
from agent_asserts.record.delta import (
    DeltaEntry,
    compute_delta,
    escape_token,
    join,
    parse_pointer,
    resolve,
)
from agent_asserts.record.errors import ParseError, Problem, RecordError
from agent_asserts.record.event import (
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    ReasoningPayload,
    SkillPayload,
    ToolCallPayload,
    Usage,
)
from agent_asserts.record.trial import TrialRecord

__all__ = [
    "BlockPayload",
    "Button",
    "DeclaredTool",
    "DelegationPayload",
    "DeltaEntry",
    "Event",
    "GuardrailPayload",
    "MemoryPayload",
    "MessagePayload",
    "ModelCallPayload",
    "ParseError",
    "Problem",
    "ReasoningPayload",
    "RecordBuilder",
    "RecordError",
    "SkillPayload",
    "ToolCallPayload",
    "TrialRecord",
    "Usage",
    "compute_delta",
    "escape_token",
    "join",
    "parse_pointer",
    "resolve",
]
