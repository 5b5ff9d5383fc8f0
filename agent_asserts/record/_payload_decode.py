"""Decoding of the typed payloads (part of :mod:`agent_asserts.record.decode`).

Each decoder takes the raw payload mapping, its JSON path and the problem list (``(path,
message)`` pairs); it returns the typed payload, or None when it found a problem.

>>> problems: list[tuple[str, str]] = []
>>> decode_payload("skill", {"step_id": 3}, "$.p", problems)
>>> problems
[('$.p.skill_id', 'required field missing'), ('$.p.step_id', 'must be a string (got 3)')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record._model_payload_decode import (
    decode_guardrail,
    decode_model_call,
    decode_reasoning,
)
from agent_asserts.record._payload_fields import (
    MISSING_FIELD,
    Problems,
    extra_keys,
    optional_choice,
    optional_str,
    required_str,
    resolve_outcome,
)
from agent_asserts.record._validators import (
    child,
    json_copy,
    must_be_bool,
    must_be_list,
    must_be_object,
    must_be_str,
    one_of,
    unknown_key,
)
from agent_asserts.record.payloads import (
    DELEGATION_MODES,
    PAYLOAD_KEYS,
    TOOL_OUTCOMES,
    TOOL_SOURCES,
    BlockPayload,
    Button,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    Payload,
    SkillPayload,
    ToolCallPayload,
)

_MISSING_FIELD: Final = MISSING_FIELD
_extra = extra_keys
_required_str = required_str
_optional_str = optional_str

_BUTTON_KEYS: Final = frozenset({"title", "payload"})
_MESSAGE_KEYS: Final = frozenset(PAYLOAD_KEYS["message"])
_TOOL_KEYS: Final = frozenset(PAYLOAD_KEYS["tool_call"])
_TOOL_COMMON: Final = frozenset({"name", "arguments", "result", "is_error", "source"})
_MEMORY_KEYS: Final = frozenset(PAYLOAD_KEYS["memory"])
_SKILL_KEYS: Final = frozenset(PAYLOAD_KEYS["skill"])
_BLOCK_KEYS: Final = frozenset(PAYLOAD_KEYS["ordered_block"])
_DELEGATION_KEYS: Final = frozenset(PAYLOAD_KEYS["delegation"])


def _button(raw: Any, path: str, problems: Problems) -> Button | None:
    message = must_be_object(raw)
    if message is not None:
        problems.append((path, message))
        return None
    before = len(problems)
    for key in raw:
        if key not in _BUTTON_KEYS:
            problems.append((child(path, key), unknown_key(key, sorted(_BUTTON_KEYS))))
    title = raw.get("title", MISSING)
    if title is MISSING:
        problems.append((child(path, "title"), _MISSING_FIELD))
    elif (message := must_be_str(title)) is not None:
        problems.append((child(path, "title"), message))
    payload = _optional_str(raw, "payload", path, problems)
    if len(problems) != before:
        return None
    return Button(title, payload)


def decode_message(raw: Mapping[str, Any], path: str, problems: Problems) -> Payload | None:
    """Decode a ``message`` payload.

    >>> decode_message({"text": "hi", "lang": "en"}, "$", [])
    MessagePayload(text='hi', utter_name=None, buttons=(), extra={'lang': 'en'})
    """
    before = len(problems)
    text = raw.get("text", "")
    if type(text) is not str and (message := must_be_str(text)) is not None:
        problems.append((child(path, "text"), message))
    utter_name = _optional_str(raw, "utter_name", path, problems)
    buttons: tuple[Button | None, ...] = ()
    raw_buttons = raw.get("buttons", MISSING)
    if raw_buttons is not MISSING:
        bpath = child(path, "buttons")
        if (message := must_be_list(raw_buttons)) is not None:
            problems.append((bpath, message))
        else:
            buttons = tuple(
                _button(item, child(bpath, i), problems) for i, item in enumerate(raw_buttons)
            )
    extra = _extra(raw, _MESSAGE_KEYS, path, problems)
    if len(problems) != before:
        return None
    return MessagePayload(text, utter_name, buttons, extra)  # type: ignore[arg-type]


def decode_tool_call(raw: Mapping[str, Any], path: str, problems: Problems) -> Payload | None:
    """Decode a ``tool_call`` payload (absent ``arguments``: ``MISSING``, not recorded).

    >>> decode_tool_call({"name": "t", "arguments": {"q": 1}}, "$", []).arguments
    {'q': 1}
    >>> decode_tool_call({"name": "t", "outcome": "retried"}, "$", []).is_error
    True
    """
    before = len(problems)
    name = raw.get("name")
    if type(name) is not str or not name:
        name = _required_str(raw, "name", path, problems)
    arguments = raw.get("arguments", MISSING)
    if arguments is not MISSING:
        arguments = json_copy(arguments, child(path, "arguments"), problems)
    result = json_copy(raw.get("result"), child(path, "result"), problems)
    is_error = raw.get("is_error", MISSING)
    if is_error is not MISSING and is_error is not False and is_error is not True:
        problems.append((child(path, "is_error"), must_be_bool(is_error) or ""))
    source = raw.get("source", "local")
    if source != "local" and source != "mcp":
        if (message := must_be_str(source)) is None:
            message = f"must be one of {one_of(TOOL_SOURCES)} (got {source!r})"
        problems.append((child(path, "source"), message))
    outcome = error_type = arguments_raw = None
    if raw.keys() <= _TOOL_COMMON:
        mcp_server = skill_id = call_id = error_message = None
        extra: Any = {}
    else:
        mcp_server = _optional_str(raw, "mcp_server", path, problems)
        skill_id = _optional_str(raw, "skill_id", path, problems)
        call_id = _optional_str(raw, "call_id", path, problems)
        error_message = _optional_str(raw, "error_message", path, problems)
        outcome = optional_choice(raw, "outcome", TOOL_OUTCOMES, path, problems)
        error_type = _optional_str(raw, "error_type", path, problems)
        arguments_raw = _optional_str(raw, "arguments_raw", path, problems)
        if arguments_raw is not None and arguments is not MISSING:
            problems.append(
                (
                    child(path, "arguments_raw"),
                    "not allowed with 'arguments' (arguments_raw keeps arguments that were"
                    " not valid JSON)",
                )
            )
        extra = _extra(raw, _TOOL_KEYS, path, problems)
    is_error, outcome, conflict = resolve_outcome(is_error, outcome)
    if conflict is not None:
        problems.append((child(path, "is_error"), conflict))
    if len(problems) != before:
        return None
    return ToolCallPayload(
        name,
        arguments,
        result,
        is_error,
        source,
        mcp_server,
        skill_id,
        call_id,
        error_message,
        extra,
        outcome,
        error_type,
        arguments_raw,
    )


def decode_memory(
    raw: Mapping[str, Any], path: str, problems: Problems, event_type: Any = None
) -> Payload | None:
    """Decode a ``memory`` payload (``value`` required for ``set``, absent for ``clear``).

    >>> decode_memory({"name": "a", "value": 1}, "$", [], "set")
    MemoryPayload(name='a', value=1, extra={})
    """
    before = len(problems)
    name = _required_str(raw, "name", path, problems)
    value = raw.get("value", MISSING)
    if value is not MISSING:
        if event_type == "clear":
            problems.append((child(path, "value"), "not allowed for event_type 'clear'"))
        value = json_copy(value, child(path, "value"), problems)
    elif event_type == "set":
        problems.append((child(path, "value"), _MISSING_FIELD))
    extra = _extra(raw, _MEMORY_KEYS, path, problems)
    if len(problems) != before:
        return None
    return MemoryPayload(name, value, extra)


def decode_skill(raw: Mapping[str, Any], path: str, problems: Problems) -> Payload | None:
    """Decode a ``skill`` payload.

    >>> decode_skill({"skill_id": "refund"}, "$", [])
    SkillPayload(skill_id='refund', step_id=None, extra={})
    """
    before = len(problems)
    skill_id = _required_str(raw, "skill_id", path, problems)
    step_id = _optional_str(raw, "step_id", path, problems)
    extra = _extra(raw, _SKILL_KEYS, path, problems)
    if len(problems) != before:
        return None
    return SkillPayload(skill_id, step_id, extra)


def decode_block(raw: Mapping[str, Any], path: str, problems: Problems) -> Payload | None:
    """Decode an ``ordered_block`` payload.

    >>> decode_block({"skill_id": "refund", "block_id": "main"}, "$", []).block_id
    'main'
    """
    before = len(problems)
    skill_id = _required_str(raw, "skill_id", path, problems)
    block_id = _required_str(raw, "block_id", path, problems)
    step_id = _optional_str(raw, "step_id", path, problems)
    extra = _extra(raw, _BLOCK_KEYS, path, problems)
    if len(problems) != before:
        return None
    return BlockPayload(skill_id, block_id, step_id, extra)


def decode_delegation(raw: Mapping[str, Any], path: str, problems: Problems) -> Payload | None:
    """Decode a ``delegation`` payload.

    >>> decode_delegation({"subagent": "researcher"}, "$", [])
    DelegationPayload(subagent='researcher', output=None, extra={})
    """
    before = len(problems)
    subagent = _required_str(raw, "subagent", path, problems)
    output = json_copy(raw.get("output"), child(path, "output"), problems)
    from_agent = _optional_str(raw, "from_agent", path, problems)
    mode = optional_choice(raw, "mode", DELEGATION_MODES, path, problems)
    extra = _extra(raw, _DELEGATION_KEYS, path, problems)
    if len(problems) != before:
        return None
    return DelegationPayload(subagent, output, extra, from_agent, mode)


_DECODERS: Final[Mapping[str, Callable[[Mapping[str, Any], str, Problems], Payload | None]]] = {
    "message": decode_message,
    "tool_call": decode_tool_call,
    "skill": decode_skill,
    "ordered_block": decode_block,
    "delegation": decode_delegation,
    "model_call": decode_model_call,
    "reasoning": decode_reasoning,
    "guardrail": decode_guardrail,
}


def decode_payload(
    kind: str, raw: Mapping[str, Any], path: str, problems: Problems, event_type: Any = None
) -> Payload | None:
    """Decode the payload of an event of ``kind`` (other kinds: a JSON copy of the object).

    Args:
        kind: The event kind.
        raw: The payload object.
        path: Its JSON path, for problems.
        problems: Where problems are appended as ``(path, message)``.
        event_type: The event's ``event_type`` (memory payloads depend on it).

    Returns:
        The payload, or None when a problem was found.

    >>> decode_payload("audit", {"text": "refund"}, "$", [])
    {'text': 'refund'}
    """
    decoder = _DECODERS.get(kind)
    if decoder is not None:
        return decoder(raw, path, problems)
    if kind == "memory":
        return decode_memory(raw, path, problems, event_type)
    before = len(problems)
    copied: dict[str, Any] = json_copy(raw, path, problems)
    return copied if len(problems) == before else None


__all__ = [
    "decode_block",
    "decode_delegation",
    "decode_memory",
    "decode_message",
    "decode_payload",
    "decode_skill",
    "decode_tool_call",
]
