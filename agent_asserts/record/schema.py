"""The JSON Schema of the canonical record, shipped as ``record.schema.json`` beside this module.

Generated from the record's own key lists (so a new key without a description fails here);
regenerate the file with ``python -m agent_asserts.record.schema`` after changing the model.
A test keeps the shipped file equal to :func:`record_schema`.

>>> schema = record_schema()
>>> schema["properties"]["events"]["items"]["$ref"]
'#/$defs/event'
>>> sorted(schema["$defs"]["payload.tool_call"]["properties"])[:3]
['arguments', 'arguments_raw', 'call_id']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Final

from agent_asserts.record.declared_tools import TOOL_KEYS
from agent_asserts.record.decoding import TOP_LEVEL_KEYS
from agent_asserts.record.event import (
    BLOCK_TRANSITIONS,
    DELEGATION_MODES,
    ENVELOPE_FIELDS,
    MEMORY_EVENT_TYPES,
    PAYLOAD_KEYS,
    SKILL_TRANSITIONS,
    TOOL_OUTCOMES,
    TOOL_SOURCES,
    USAGE_COUNTERS,
)

SCHEMA_PATH: Final = Path(__file__).with_name("record.schema.json")

_STR = {"type": "string"}
_OPT_STR = {"type": ["string", "null"]}
_COUNT = {"type": "integer", "minimum": 0}
_ANY: dict[str, Any] = {}


def _d(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {**schema, "description": text}


_TOP: Final[dict[str, dict[str, Any]]] = {
    "initial_state": _d(_ANY, "S0: the state before the run (any JSON); absent: not recorded."),
    "final_state": _d(_ANY, "Sf: the state after the run (any JSON); absent: not recorded."),
    "status": _d(_OPT_STR, "The run's final status (completed, stopped...)."),
    "reply": _d(_OPT_STR, "The reply; derived from the last agent message when absent."),
    "steps": _d({"type": ["integer", "null"], "minimum": 0}, "The number of agent steps."),
    "usage": _d({"$ref": "#/$defs/usage"}, "Token usage of the run."),
    "errors": _d({"type": "array"}, "Errors the harness recorded (JSON values)."),
    "surfaces": _d(
        {"type": "array", "items": _STR},
        "The kinds the harness recorded; absent: every kind counts as recorded.",
    ),
    "events": _d(
        {"type": "array", "items": {"$ref": "#/$defs/event"}},
        "The events, in order of occurrence.",
    ),
    "tools": _d(
        {"type": "array", "items": {"$ref": "#/$defs/tool"}},
        "The tools the agent was offered (names unique); absent: not recorded.",
    ),
    "parse_errors": _d(
        {"type": "array", "items": {"$ref": "#/$defs/parse_error"}},
        "Items an adapter could not decode.",
    ),
    "metadata": _d({"type": "object"}, "Free JSON data about the run."),
}

_ENVELOPE: Final[dict[str, dict[str, Any]]] = {
    "event_id": _d({"type": "string", "minLength": 1}, "Unique id; e{position} when absent."),
    "wall_time": _d(
        {"type": ["string", "number", "null"]}, "Wall-clock time: ISO 8601 text or epoch seconds."
    ),
    "monotonic_time": _d({"type": ["number", "null"]}, "Monotonic seconds."),
    "duration": _d(
        {"type": ["number", "null"], "minimum": 0},
        "Seconds the event lasted: the event is the interval starting at its time.",
    ),
    "actor_ref": _d(_OPT_STR, "Who acted or spoke (user, agent, a sub-agent id...)."),
    "agent": _d(_OPT_STR, "The agent that acted: absent for the root agent."),
    "surface": _d(_OPT_STR, "Where the event happened (a channel, a UI...)."),
    "audience": _d(_OPT_STR, "Who could observe it."),
    "turn": _d({"type": ["integer", "null"], "minimum": 0}, "The turn; derived when absent."),
    "phase": _d(_OPT_STR, "A run phase label."),
    "kind": _d(
        {"type": "string", "minLength": 1},
        "message, tool_call, memory, skill, ordered_block, delegation, model_call, reasoning,"
        " guardrail (typed payloads) or any other kind (payload kept as JSON).",
    ),
    "event_type": _d(
        _OPT_STR,
        "The sub-type: set|clear for memory, the transition for skill and ordered_block, the"
        " outcome for delegation.",
    ),
    "entity_refs": _d({"type": ["array", "null"], "items": _STR}, "Business entities concerned."),
    "operation_ref": _d(_OPT_STR, "The operation this event belongs to."),
    "correlation_id": _d(_OPT_STR, "Groups the events of one workflow."),
    "caused_by_event_id": _d(_OPT_STR, "The event that caused this one."),
    "parent_id": _d(
        _OPT_STR,
        "The event_id of the enclosing event (agent invocation, model call); must name another"
        " event of the record, without cycles.",
    ),
    "group_id": _d(
        _OPT_STR,
        "Events issued together (the parallel tool calls of one model response): no order"
        " among them.",
    ),
    "status": _d(_OPT_STR, "Outcome of the event."),
    "payload": _d({"type": "object"}, "The payload: typed for the known kinds."),
}

_PAYLOADS: Final[dict[str, dict[str, dict[str, Any]]]] = {
    "message": {
        "text": _d(_STR, "What was said."),
        "utter_name": _d(_OPT_STR, "A response-template name."),
        "buttons": _d({"type": "array", "items": {"$ref": "#/$defs/button"}}, "Buttons offered."),
    },
    "tool_call": {
        "name": _d({"type": "string", "minLength": 1}, "The tool's name."),
        "arguments": _d(_ANY, "The arguments; absent: not recorded ({} is a call without any)."),
        "result": _d(_ANY, "The result."),
        "is_error": _d(
            {"type": "boolean"}, "The boolean view of outcome: true for failed and retried."
        ),
        "source": _d({"enum": list(TOOL_SOURCES)}, "local, or mcp (then mcp_server names it)."),
        "mcp_server": _d(_OPT_STR, "The MCP server of an mcp call."),
        "skill_id": _d(_OPT_STR, "The skill the call belongs to."),
        "call_id": _d(_OPT_STR, "The call's id in its source format."),
        "error_message": _d(_OPT_STR, "The error text."),
        "outcome": _d(
            {"enum": list(TOOL_OUTCOMES)}, "How the call ended; derived from is_error when absent."
        ),
        "error_type": _d(_OPT_STR, "The error's type or code."),
        "arguments_raw": _d(
            _OPT_STR, "The original text of arguments that were not valid JSON (no arguments)."
        ),
    },
    "memory": {
        "name": _d({"type": "string", "minLength": 1}, "The memory key (scope.field)."),
        "value": _d(_ANY, "The value written (set only)."),
    },
    "skill": {
        "skill_id": _d({"type": "string", "minLength": 1}, "The skill."),
        "step_id": _d(_OPT_STR, "The step."),
    },
    "ordered_block": {
        "skill_id": _d({"type": "string", "minLength": 1}, "The skill."),
        "block_id": _d({"type": "string", "minLength": 1}, "The block."),
        "step_id": _d(_OPT_STR, "The step."),
    },
    "delegation": {
        "subagent": _d({"type": "string", "minLength": 1}, "The sub-agent delegated to."),
        "output": _d(_ANY, "What it returned."),
        "from_agent": _d(_OPT_STR, "The delegating agent."),
        "mode": _d(
            {"enum": [*DELEGATION_MODES, None]},
            "handoff (control passes to the sub-agent) or tool (called like a tool, returns).",
        ),
    },
    "model_call": {
        "model": _d(_OPT_STR, "The model name."),
        "provider": _d(_OPT_STR, "Who served it."),
        "usage": _d({"$ref": "#/$defs/usage"}, "The tokens of this call."),
        "finish_reason": _d(_OPT_STR, "Why the model stopped."),
        "is_error": _d({"type": "boolean"}, "Whether the call failed."),
        "error_message": _d(_OPT_STR, "The error text."),
        "error_type": _d(_OPT_STR, "The error's type or code."),
    },
    "reasoning": {
        "text": _d(_OPT_STR, "The reasoning text."),
        "summary": _d(_OPT_STR, "A summary of it."),
        "redacted": _d({"type": "boolean"}, "Whether it was redacted."),
    },
    "guardrail": {
        "name": _d({"type": "string", "minLength": 1}, "The guardrail."),
        "triggered": _d({"type": "boolean"}, "Whether it tripped."),
        "output": _d(_ANY, "What it reported."),
    },
}
_REQUIRED: Final = {
    "tool_call": ["name"],
    "memory": ["name"],
    "skill": ["skill_id"],
    "ordered_block": ["skill_id", "block_id"],
    "delegation": ["subagent"],
    "guardrail": ["name", "triggered"],
}
_EVENT_TYPES: Final = {
    "memory": MEMORY_EVENT_TYPES,
    "skill": SKILL_TRANSITIONS,
    "ordered_block": BLOCK_TRANSITIONS,
}
_USAGE: Final[dict[str, dict[str, Any]]] = {
    "input_tokens": _d({"type": ["integer", "null"], "minimum": 0}, "Prompt tokens."),
    "output_tokens": _d({"type": ["integer", "null"], "minimum": 0}, "Completion tokens."),
    "total_tokens": _d(
        {"type": ["integer", "null"], "minimum": 0}, "All tokens; input + output when absent."
    ),
    "details": _d(
        {"type": "object", "additionalProperties": _COUNT},
        "Further counters (cached_input_tokens, reasoning_tokens...).",
    ),
    "reported_by": _d(_OPT_STR, "How the counts were obtained."),
}
_TOOL: Final[dict[str, dict[str, Any]]] = {
    "name": _d({"type": "string", "minLength": 1}, "The tool's name."),
    "description": _d(_OPT_STR, "Its description."),
    "parameters": _d({"type": "object"}, "The JSON Schema of its arguments."),
}


def _checked(keys: tuple[str, ...], described: dict[str, Any], what: str) -> dict[str, Any]:
    if set(keys) != set(described):
        raise AssertionError(f"{what}: keys {sorted(set(keys) ^ set(described))} undocumented")
    return {key: described[key] for key in keys}


def _payload_def(kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "description": f"The payload of a {kind} event (unknown keys are kept).",
        "properties": _checked(PAYLOAD_KEYS[kind], _PAYLOADS[kind], f"payload {kind}"),
    }
    if kind in _REQUIRED:
        out["required"] = _REQUIRED[kind]
    return out


def _event_def() -> dict[str, Any]:
    branches: list[dict[str, Any]] = []
    for kind in PAYLOAD_KEYS:
        then: dict[str, Any] = {"properties": {"payload": {"$ref": f"#/$defs/payload.{kind}"}}}
        if kind in _EVENT_TYPES:
            then["properties"]["event_type"] = {"enum": list(_EVENT_TYPES[kind])}
            then["required"] = ["event_type"]
        branches.append({"if": {"properties": {"kind": {"const": kind}}}, "then": then})
    return {
        "type": "object",
        "description": "One event: the envelope and a payload.",
        "properties": _checked(ENVELOPE_FIELDS, _ENVELOPE, "envelope"),
        "required": ["kind"],
        "additionalProperties": False,
        "allOf": branches,
    }


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the canonical record.

    >>> record_schema()["additionalProperties"]
    False
    """
    defs: dict[str, Any] = {
        "event": _event_def(),
        "usage": {
            "type": "object",
            "description": "Token counts; any further key holding a non-negative integer is"
            " a counter kept in details.",
            "properties": _checked((*USAGE_COUNTERS, "details", "reported_by"), _USAGE, "usage"),
            "additionalProperties": _COUNT,
        },
        "tool": {
            "type": "object",
            "description": "A tool the agent was offered.",
            "properties": _checked(TOOL_KEYS, _TOOL, "tool"),
            "required": ["name"],
            "additionalProperties": False,
        },
        "button": {
            "type": "object",
            "description": "A button offered with an agent message.",
            "properties": {
                "title": _d(_STR, "Its title."),
                "payload": _d(_OPT_STR, "Its payload."),
            },
            "required": ["title"],
            "additionalProperties": False,
        },
        "parse_error": {
            "type": "object",
            "description": "An item an adapter could not decode.",
            "properties": {
                "position": _d(_STR, "Where it was in the source."),
                "reason": _d(_STR, "Why it could not be decoded."),
                "item": _d(_ANY, "The item."),
                "source": _d(_OPT_STR, "The source file."),
            },
            "required": ["position", "reason"],
            "additionalProperties": False,
        },
    }
    for kind in PAYLOAD_KEYS:
        defs[f"payload.{kind}"] = _payload_def(kind)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://agent-asserts.dev/record.schema.json",
        "title": "agent_asserts trial record",
        "description": "What happened in one agent run: S0, the events, Sf, run-level data.",
        "type": "object",
        "properties": _checked(TOP_LEVEL_KEYS, _TOP, "record"),
        "additionalProperties": False,
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the shipped file holds it (sorted keys, two-space indent, final newline).

    >>> schema_text().startswith("{")
    True
    """
    return json.dumps(record_schema(), indent=2, sort_keys=True) + "\n"


def write_schema(path: Path = SCHEMA_PATH) -> Path:
    """Write the schema (default: the shipped file) and return the path.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_schema(Path(tmp, "record.schema.json")).read_text() == schema_text()
    True
    """
    path.write_text(schema_text(), encoding="utf-8")
    return path


if __name__ == "__main__":  # pragma: no cover - python -m agent_asserts.record.schema
    sys.stdout.write(f"wrote {write_schema()}\n")

__all__ = ["SCHEMA_PATH", "record_schema", "schema_text", "write_schema"]
