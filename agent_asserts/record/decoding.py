"""The one decoder of a record: its canonical dict form into ``TrialRecord`` fields, collecting
every problem.

:func:`decode_record` is what ``TrialRecord.from_dict`` (and every reader of files) uses: it
returns the keyword arguments of ``TrialRecord`` or raises one :class:`RecordError` that lists
every problem with its JSON path. Events are decoded one by one (:func:`decode_event`: ids
assigned by position, turns derived, ``parent_id`` links checked), each payload by the decoder
of its kind (:func:`decode_payload`). Values are copied as plain JSON data while their depth is
measured (:func:`~agent_asserts.record.validators.copy_within`), so valid data is walked once;
data nested past :data:`~agent_asserts._values.MAX_DEPTH` is refused with one problem naming the
first container of the record nested too deeply.

>>> decode_record({"steps": "four", "stauts": "ok"})
Traceback (most recent call last):
...
agent_asserts.record.errors.RecordError: invalid record: 2 problem(s)
  $.stauts: unknown key (did you mean 'status'?)
  $.steps: must be an integer (got 'four')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from agent_asserts._text import did_you_mean
from agent_asserts._values import MAX_DEPTH, MISSING, depth_message, json_path, too_deep
from agent_asserts.record.declared_tools import decode_tools
from agent_asserts.record.errors import ParseError, Problem, RecordError
from agent_asserts.record.event import (
    DELEGATION_MODES,
    ENVELOPE_FIELDS,
    KIND_EVENT_TYPES,
    PAYLOAD_KEYS,
    STR_ENVELOPE_FIELDS,
    TOOL_OUTCOMES,
    TOOL_SOURCES,
    USAGE_COUNTERS,
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    Payload,
    ReasoningPayload,
    SkillPayload,
    ToolCallPayload,
    TurnTracker,
    Usage,
    opens_turn,
)
from agent_asserts.record.validators import (
    MISSING_FIELD,
    NotJSON,
    Problems,
    TooDeep,
    child,
    copy_within,
    fast_copy,
    must_be_bool,
    must_be_duration,
    must_be_int,
    must_be_list,
    must_be_number,
    must_be_object,
    must_be_str,
    one_of,
    optional_bool,
    optional_choice,
    optional_str,
    required_str,
    resolve_outcome,
    scalar_types,
    unknown_key,
    unknown_keys,
    warn_suspicious,
)

TOP_LEVEL_KEYS: Final = (
    "initial_state",
    "final_state",
    "status",
    "reply",
    "steps",
    "usage",
    "errors",
    "surfaces",
    "events",
    "tools",
    "parse_errors",
    "metadata",
)
"""The keys of a record in its canonical JSON form."""

# How many levels of nesting a value may hold, by where it stands: a record is level 1 of
# nesting, a member of it (a state, the events list) level 2, an event or a declared tool 3, a
# payload 4, a payload's value 5.
_MEMBER_LEVELS: Final = MAX_DEPTH - 1
_PAYLOAD_LEVELS: Final = MAX_DEPTH - 3
_VALUE_LEVELS: Final = MAX_DEPTH - 4

_TOP_LEVEL_SET: Final = frozenset(TOP_LEVEL_KEYS)
_PARSE_ERROR_KEYS: Final = ("position", "reason", "item", "source")
_ENVELOPE_SET: Final = frozenset(ENVELOPE_FIELDS)
_STR_SET: Final = frozenset(STR_ENVELOPE_FIELDS)
_NOT_FREE: Final = frozenset({*KIND_EVENT_TYPES, "delegation"})
_MODEL_KEYS: Final = frozenset(
    {"model", "provider", "usage", "finish_reason", "is_error", "error_message", "error_type"}
)
_REASONING_KEYS: Final = frozenset({"text", "summary", "redacted"})
_GUARDRAIL_KEYS: Final = frozenset({"name", "triggered", "output"})
_USAGE_KEYS: Final = (*USAGE_COUNTERS, "details", "reported_by")
_COUNTER_SET: Final = frozenset(USAGE_COUNTERS)
_SCALARS: Final = scalar_types()
_TYPO: Final = 0.85  # closer than this to a named key: a typo, not a further counter
_BUTTON_KEYS: Final = frozenset({"title", "payload"})
_MESSAGE_KEYS: Final = frozenset(PAYLOAD_KEYS["message"])
_TOOL_KEYS: Final = frozenset(PAYLOAD_KEYS["tool_call"])
_TOOL_COMMON: Final = frozenset({"name", "arguments", "result", "is_error", "source"})
_TOOL_STRINGS: Final = ("mcp_server", "skill_id", "call_id", "error_message")
_MEMORY_KEYS: Final = frozenset(PAYLOAD_KEYS["memory"])
_SKILL_KEYS: Final = frozenset(PAYLOAD_KEYS["skill"])
_BLOCK_KEYS: Final = frozenset(PAYLOAD_KEYS["ordered_block"])
_DELEGATION_KEYS: Final = frozenset(PAYLOAD_KEYS["delegation"])
_MISSING_FIELD: Final = MISSING_FIELD


def _value(value: Any, path: str, key: str, problems: Problems) -> Any:
    """The JSON value of a payload's ``key``, copied (refused when nested too deeply); its
    path is only spelt out for a problem."""
    if type(value) in _SCALARS:
        return value
    try:
        return fast_copy(value, _VALUE_LEVELS)
    except NotJSON:
        return copy_within(value, child(path, key), problems, _VALUE_LEVELS)


def _extra(raw: Mapping[str, Any], known: frozenset[str], path: str, problems: Problems) -> Any:
    """A copy of the keys of ``raw`` outside ``known`` (the payload's ``extra``)."""
    if raw.keys() <= known:
        return {}
    warn_suspicious(raw, known, path)
    extra = {key: value for key, value in raw.items() if key not in known}
    return copy_within(extra, path, problems, _PAYLOAD_LEVELS)


# -- the span tree: parent_id links ---------------------------------------------------------


def parent_problems(links: Iterable[tuple[int, str, str]], ids: Mapping[str, int]) -> Problems:
    """The problems of the ``parent_id`` links of a record.

    Args:
        links: ``(position, event_id, parent_id)`` of every event that has a parent.
        ids: The position of every event id of the record.

    Returns:
        ``(path, message)`` pairs: unknown parents, an event naming itself, each cycle once
        (at its earliest event).

    >>> parent_problems([(0, "e0", "e0")], {"e0": 0})
    [('$.events[0].parent_id', "must name another event (got the event's own id 'e0')")]
    >>> parent_problems([(1, "e1", "e0")], {"e0": 0, "e1": 1})
    []
    """
    problems: Problems = []
    parent_of: dict[str, str] = {}
    for position, event_id, parent_id in links:
        path = f"$.events[{position}].parent_id"
        if parent_id == event_id:
            own = f"must name another event (got the event's own id {event_id!r})"
            problems.append((path, own))
        elif parent_id not in ids:
            problems.append((path, f"no event has id {parent_id!r}"))
        else:
            parent_of[event_id] = parent_id
    done: set[str] = set()
    for start in parent_of:
        walk: list[str] = []
        on_walk: set[str] = set()
        node: str | None = start
        while node is not None and node not in done and node not in on_walk:
            walk.append(node)
            on_walk.add(node)
            node = parent_of.get(node)
        if node is not None and node in on_walk:
            cycle = walk[walk.index(node) :]
            first = min(cycle, key=ids.__getitem__)
            at = cycle.index(first)
            ordered = [*cycle[at:], *cycle[:at], first]
            problems.append(
                (
                    f"$.events[{ids[first]}].parent_id",
                    "parent_id cycle: " + " -> ".join(repr(i) for i in ordered),
                )
            )
        done.update(walk)
    return problems


# -- usage, model_call, reasoning, guardrail ---------------------------------------------------


def _plain_usage(raw: Any) -> Usage | None:
    """The usual usage, named counters only, all valid; None for anything else."""
    if type(raw) is dict and raw.keys() <= _COUNTER_SET:
        get = raw.get
        given = (get("input_tokens"), get("output_tokens"), get("total_tokens"))
        if all(n is None or (type(n) is int and n >= 0) for n in given):
            return Usage(given[0], given[1], given[2])
    return None


def _strings(raw: Mapping[str, Any], keys: tuple[str, ...], path: str, problems: Problems) -> Any:
    """:func:`optional_str` of each of ``keys``, in order (one call for several fields)."""
    get = raw.get
    out = [get(key) for key in keys]
    for i, value in enumerate(out):
        if value is not None and type(value) is not str:
            out[i] = optional_str(raw, keys[i], path, problems)
    return out


def decode_usage(raw: Any, path: str, problems: Problems) -> Usage | None:
    """Decode a usage object: the named counters, ``details``, ``reported_by``; any other key
    is a further counter (a non-negative integer) kept in ``details``, unless it is a near
    miss of a named key (``ouput_tokens``): that is reported as a typo.

    >>> problems: Problems = []
    >>> decode_usage({"input_tokens": -1, "note": "x"}, "$.usage", problems); problems
    [('$.usage.input_tokens', 'must be a non-negative integer (got -1)'),
     ('$.usage.note', "must be an integer (got 'x')")]
    """
    if raw is None:
        return None
    plain = _plain_usage(raw)
    if plain is not None:
        return plain
    if (message := must_be_object(raw)) is not None:
        problems.append((path, message))
        return None
    before = len(problems)
    further: list[Any] = []
    for key in raw:
        if key in _USAGE_KEYS:
            continue
        hint = did_you_mean(key, _USAGE_KEYS, cutoff=_TYPO) if isinstance(key, str) else ""
        if hint:  # a misspelt named key, not a further counter
            problems.append((child(path, key), "unknown key" + hint))
        else:
            further.append(key)
    counts: list[Any] = []
    for key in USAGE_COUNTERS:
        value = raw.get(key)
        if value is not None and (message := must_be_int(value)) is not None:
            problems.append((child(path, key), message))
        counts.append(value)
    details: dict[str, int] = {}
    raw_details = raw.get("details")
    if raw_details is not None:
        dpath = child(path, "details")
        if (message := must_be_object(raw_details)) is not None:
            problems.append((dpath, message))
        else:
            _counters(raw_details, raw_details.keys(), dpath, details, problems)
    for key in further:
        if key in details:
            problems.append((child(path, key), "also given in details"))
    _counters(raw, further, path, details, problems)
    reported_by = optional_str(raw, "reported_by", path, problems)
    if len(problems) != before:
        return None
    return Usage(
        input_tokens=counts[0],
        output_tokens=counts[1],
        total_tokens=counts[2],
        details=details,
        reported_by=reported_by,
    )


def _counters(
    raw: Mapping[str, Any], keys: Any, path: str, out: dict[str, int], problems: Problems
) -> None:
    for key in keys:
        value = raw[key]
        if not isinstance(key, str):
            problems.append((path, f"keys must be strings (got {key!r})"))
        elif (message := must_be_int(value)) is not None:
            problems.append((child(path, key), message))
        else:
            out[key] = value


def decode_model_call(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``model_call`` payload (every field optional).

    >>> decode_model_call({"model": "gpt-4o", "usage": {"total_tokens": 5}}, "$", []).usage
    Usage(input_tokens=None, output_tokens=None, total_tokens=5)
    """
    before = len(problems)
    model, provider = _strings(raw, ("model", "provider"), path, problems)
    raw_usage = raw.get("usage")
    usage = _plain_usage(raw_usage)
    if usage is None and raw_usage is not None:
        usage = decode_usage(raw_usage, child(path, "usage"), problems)
    finish_reason = optional_str(raw, "finish_reason", path, problems)
    is_error = optional_bool(raw, "is_error", path, problems)
    error_message, error_type = _strings(raw, ("error_message", "error_type"), path, problems)
    extra = _extra(raw, _MODEL_KEYS, path, problems)
    if len(problems) != before:
        return None
    return ModelCallPayload(
        model, provider, usage, finish_reason, is_error, error_message, error_type, extra
    )


def decode_reasoning(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``reasoning`` payload.

    >>> decode_reasoning({"summary": "s", "redacted": True}, "$", [])
    ReasoningPayload(text=None, summary='s', redacted=True, extra={})
    """
    before = len(problems)
    text = optional_str(raw, "text", path, problems)
    summary = optional_str(raw, "summary", path, problems)
    redacted = optional_bool(raw, "redacted", path, problems)
    extra = _extra(raw, _REASONING_KEYS, path, problems)
    if len(problems) != before:
        return None
    return ReasoningPayload(text, summary, redacted, extra)


def decode_guardrail(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``guardrail`` payload (``name`` and ``triggered`` required).

    >>> problems: Problems = []
    >>> decode_guardrail({"name": "pii"}, "$", problems); problems
    [('$.triggered', 'required field missing')]
    """
    before = len(problems)
    name = required_str(raw, "name", path, problems)
    triggered = optional_bool(raw, "triggered", path, problems, MISSING)
    if triggered is MISSING:
        problems.append((child(path, "triggered"), "required field missing"))
    output = _value(raw.get("output"), path, "output", problems)
    extra = _extra(raw, _GUARDRAIL_KEYS, path, problems)
    if len(problems) != before:
        return None
    return GuardrailPayload(name, triggered, output, extra)


# -- the typed payloads -----------------------------------------------------------------------


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
    payload = optional_str(raw, "payload", path, problems)
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
    utter_name = optional_str(raw, "utter_name", path, problems)
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
        name = required_str(raw, "name", path, problems)
    arguments = raw.get("arguments", MISSING)
    if arguments is not MISSING:
        arguments = _value(arguments, path, "arguments", problems)
    result = _value(raw.get("result"), path, "result", problems)
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
        mcp_server, skill_id, call_id, error_message = _strings(raw, _TOOL_STRINGS, path, problems)
        outcome = optional_choice(raw, "outcome", TOOL_OUTCOMES, path, problems)
        error_type, arguments_raw = _strings(raw, ("error_type", "arguments_raw"), path, problems)
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
    name = required_str(raw, "name", path, problems)
    value = raw.get("value", MISSING)
    if value is not MISSING:
        if event_type == "clear":
            problems.append((child(path, "value"), "not allowed for event_type 'clear'"))
        value = _value(value, path, "value", problems)
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
    skill_id = required_str(raw, "skill_id", path, problems)
    step_id = optional_str(raw, "step_id", path, problems)
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
    skill_id = required_str(raw, "skill_id", path, problems)
    block_id = required_str(raw, "block_id", path, problems)
    step_id = optional_str(raw, "step_id", path, problems)
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
    subagent = required_str(raw, "subagent", path, problems)
    output = _value(raw.get("output"), path, "output", problems)
    from_agent = optional_str(raw, "from_agent", path, problems)
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
    copied: dict[str, Any] = copy_within(raw, path, problems, _PAYLOAD_LEVELS)
    return copied if len(problems) == before else None


# -- events ------------------------------------------------------------------------------------


def _check_event_type(kind: Any, event_type: Any, path: str, problems: Problems) -> Any:
    allowed = KIND_EVENT_TYPES.get(kind) if type(kind) is str else None
    if event_type is None:
        if allowed is not None:
            problems.append((child(path, "event_type"), _MISSING_FIELD))
        return "completed" if kind == "delegation" else None
    if type(event_type) is not str and (message := must_be_str(event_type)) is not None:
        problems.append((child(path, "event_type"), message))
    elif allowed is not None and event_type not in allowed:
        problems.append(
            (
                child(path, "event_type"),
                f"must be one of {one_of(allowed)} for kind {kind!r} (got {event_type!r})",
            )
        )
    return event_type


def decode_event(
    raw: Any,
    position: int,
    problems: Problems,
    tracker: TurnTracker,
    seen: dict[str, int],
) -> Event | None:
    """Decode one event thoroughly, adding every problem it has; None when it has any.

    Args:
        raw: The event object.
        position: Its index in ``events``.
        problems: Where problems are appended as ``(path, message)``.
        tracker: The turn tracker of this pass.
        seen: Event ids seen so far, with their positions.

    Returns:
        The event, or None.

    >>> problems: Problems = []
    >>> raw = {"kind": "skill", "payload": {"skill_id": "a"}}
    >>> decode_event(raw, 0, problems, TurnTracker(), {})
    >>> problems
    [('$.events[0].event_type', 'required field missing')]
    """
    path = f"$.events[{position}]"
    if type(raw) is not dict and not isinstance(raw, Mapping):
        problems.append((path, must_be_object(raw) or ""))
        return None
    before = len(problems)
    if not raw.keys() <= _ENVELOPE_SET:
        unknown_keys(raw, _ENVELOPE_SET, path, problems)
    get = raw.get
    event_id = get("event_id")
    if event_id is None:
        event_id = f"e{position}"
        assigned = " (assigned by position)"
    else:
        assigned = ""
        if (message := must_be_str(event_id, non_empty=True)) is not None:
            problems.append((child(path, "event_id"), message))
            event_id = None
    if event_id is not None:
        first = seen.setdefault(event_id, position)
        if first != position:
            problems.append(
                (
                    child(path, "event_id"),
                    f"duplicate event id {event_id!r}{assigned}"
                    f" (already used by $.events[{first}])",
                )
            )
    wall_time = get("wall_time")
    if wall_time is not None and type(wall_time) is not str and must_be_number(wall_time):
        problems.append(
            (child(path, "wall_time"), f"must be a string or a number (got {wall_time!r})")
        )
    monotonic_time = get("monotonic_time")
    if monotonic_time is not None and (message := must_be_number(monotonic_time)) is not None:
        problems.append((child(path, "monotonic_time"), message))
    for name, value in raw.items():
        if (
            value is not None
            and type(value) is not str
            and name in _STR_SET
            and (message := must_be_str(value))
        ):
            problems.append((child(path, name), message))
    turn = get("turn")
    if turn is not None and (message := must_be_int(turn)) is not None:
        problems.append((child(path, "turn"), message))
        turn = None
    duration = get("duration")
    if duration is not None and (message := must_be_duration(duration)) is not None:
        problems.append((child(path, "duration"), message))
    kind = get("kind", MISSING)
    if kind is MISSING:
        problems.append((child(path, "kind"), _MISSING_FIELD))
    elif type(kind) is not str or not kind:
        problems.append((child(path, "kind"), must_be_str(kind, non_empty=True) or ""))
    event_type = get("event_type")
    if not (
        type(kind) is str
        and kind not in _NOT_FREE
        and (event_type is None or type(event_type) is str)
    ):
        event_type = _check_event_type(kind, event_type, path, problems)
    entity_refs: tuple[str, ...] = ()
    raw_refs = get("entity_refs")
    if raw_refs is not None:
        rpath = child(path, "entity_refs")
        if (message := must_be_list(raw_refs)) is not None:
            problems.append((rpath, message))
        else:
            for i, ref in enumerate(raw_refs):
                if (message := must_be_str(ref)) is not None:
                    problems.append((child(rpath, i), message))
            entity_refs = tuple(raw_refs)
    raw_payload = get("payload", MISSING)
    ppath = path + ".payload"
    payload: Any = None
    if raw_payload is MISSING:
        raw_payload = {}
    if type(raw_payload) is not dict and (message := must_be_object(raw_payload)) is not None:
        problems.append((ppath, message))
    elif type(kind) is str and kind:
        payload = decode_payload(kind, raw_payload, ppath, problems, event_type)
    if len(problems) != before:
        return None
    actor_ref = get("actor_ref")
    opens = kind == "message" and actor_ref == "user" and opens_turn(kind, actor_ref, payload)
    return Event(
        kind,
        payload,
        event_id,  # type: ignore[arg-type]
        event_type,
        wall_time,
        monotonic_time,
        actor_ref,
        get("surface"),
        get("audience"),
        tracker.assign(turn, opens),
        get("phase"),
        entity_refs,
        get("operation_ref"),
        get("correlation_id"),
        get("caused_by_event_id"),
        get("status"),
        duration,
        get("parent_id"),
        get("group_id"),
        get("agent"),
    )


def decode_events(raw: Any, problems: Problems) -> tuple[Event, ...]:
    """Decode the ``events`` list: ids assigned, turns derived, ``parent_id`` links checked,
    every problem collected.

    Args:
        raw: The value of ``events``.
        problems: Where problems are appended as ``(path, message)``.

    Returns:
        The events (incomplete when problems were found).

    Raises:
        TooDeep: An event holds data nested past the depth limit.

    >>> raw = [{"kind": "message", "actor_ref": "user", "payload": {"text": "hi"}}]
    >>> events = decode_events(raw, [])
    >>> events[0].event_id, events[0].turn
    ('e0', 1)
    """
    if (message := must_be_list(raw)) is not None:
        problems.append(("$.events", message))
        return ()
    tracker = TurnTracker()
    seen: dict[str, int] = {}
    events: list[Event] = []
    links: list[tuple[int, str, str]] = []
    decode = decode_event
    for position, item in enumerate(raw):
        event = decode(item, position, problems, tracker, seen)
        if event is not None:
            events.append(event)
            if event.parent_id is not None:
                links.append((position, event.event_id, event.parent_id))
    if links:
        problems.extend(parent_problems(links, seen))
    return tuple(events)


# -- the record ----------------------------------------------------------------------------------


def _optional(
    data: Mapping[str, Any], key: str, check: Any, problems: Problems, path: str = "$"
) -> Any:
    value = data.get(key)
    if value is not None and (message := check(value)) is not None:
        problems.append((child(path, key), message))
        return None
    return value


def _string_list(raw: Any, path: str, problems: Problems) -> list[str]:
    if (message := must_be_list(raw)) is not None:
        problems.append((path, message))
        return []
    for i, item in enumerate(raw):
        if (message := must_be_str(item)) is not None:
            problems.append((child(path, i), message))
    return [item for item in raw if isinstance(item, str)]  # the rest is reported above


def _parse_errors(raw: Any, problems: Problems) -> tuple[ParseError, ...]:
    if (message := must_be_list(raw)) is not None:
        problems.append(("$.parse_errors", message))
        return ()
    out: list[ParseError] = []
    for i, item in enumerate(raw):
        path = f"$.parse_errors[{i}]"
        if (message := must_be_object(item)) is not None:
            problems.append((path, message))
            continue
        before = len(problems)
        unknown_keys(item, _PARSE_ERROR_KEYS, path, problems)
        fields: list[Any] = []
        for key in ("position", "reason"):
            value = item.get(key, MISSING)
            if value is MISSING:
                problems.append((child(path, key), _MISSING_FIELD))
            elif (message := must_be_str(value)) is not None:
                problems.append((child(path, key), message))
            fields.append(value)
        item_value = copy_within(item.get("item"), child(path, "item"), problems, _PAYLOAD_LEVELS)
        source = item.get("source")
        if source is not None and (message := must_be_str(source)) is not None:
            problems.append((child(path, "source"), message))
        if len(problems) == before:
            out.append(ParseError(fields[0], fields[1], item_value, source))
    return tuple(out)


def _too_deep(data: Mapping[str, Any], source: str | None) -> RecordError | None:
    """The error naming the first container of the record nested past the depth limit, or
    None when there is none."""
    deep = too_deep(data)
    if deep is None:
        return None
    return RecordError([Problem(json_path(deep), depth_message(), source)])


def decode_record(data: Any, source: str | None = None) -> dict[str, Any]:
    """Validate a record's dict form and decode it into ``TrialRecord`` keyword arguments.

    Args:
        data: The parsed JSON document.
        source: The file it came from (named in every problem), or None.

    Returns:
        The keyword arguments of ``TrialRecord``.

    Raises:
        RecordError: With every problem found, each with its JSON path; or one problem
            naming the first container nested past the depth limit, when there is one.

    >>> sorted(decode_record({"events": [], "steps": 2}))  # doctest: +NORMALIZE_WHITESPACE
    ['errors', 'events', 'final_state', 'initial_state', 'metadata', 'parse_errors', 'reply',
     'status', 'steps', 'surfaces', 'tools', 'usage']
    """
    problems: Problems = []
    if not isinstance(data, Mapping):
        problems.append(("$", must_be_object(data) or ""))
        raise RecordError(Problem(p, m, source) for p, m in problems)
    fields: dict[str, Any] | None
    try:
        fields = _decode_fields(data, problems)
    except TooDeep:
        fields = None
    if fields is None or problems:
        # data nested too deeply anywhere is refused first (it may be what the problems are)
        raise _too_deep(data, source) or RecordError(Problem(p, m, source) for p, m in problems)
    return fields


def _decode_fields(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    if not data.keys() <= _TOP_LEVEL_SET:
        unknown_keys(data, _TOP_LEVEL_SET, "$", problems)
    get = data.get
    initial_state = copy_within(get("initial_state"), "$.initial_state", problems, _MEMBER_LEVELS)
    final_state = copy_within(get("final_state"), "$.final_state", problems, _MEMBER_LEVELS)
    status = _optional(data, "status", must_be_str, problems)
    reply = _optional(data, "reply", must_be_str, problems)
    steps = _optional(data, "steps", must_be_int, problems)
    usage = decode_usage(get("usage"), "$.usage", problems)
    errors: Any = get("errors", ())
    if (message := must_be_list(errors)) is not None:
        problems.append(("$.errors", message))
        errors = ()
    errors = tuple(copy_within(list(errors), "$.errors", problems, _MEMBER_LEVELS))
    surfaces_raw = get("surfaces")
    surfaces = None
    if surfaces_raw is not None:
        surfaces = frozenset(_string_list(surfaces_raw, "$.surfaces", problems))
    events = decode_events(get("events", ()), problems)
    tools_raw = get("tools")
    tools = None if tools_raw is None else decode_tools(tools_raw, problems)
    parse_errors = _parse_errors(get("parse_errors", ()), problems)
    metadata: Any = get("metadata", {})
    if (message := must_be_object(metadata)) is not None:
        problems.append(("$.metadata", message))
        metadata = {}
    metadata = copy_within(metadata, "$.metadata", problems, _MEMBER_LEVELS) if metadata else {}
    return {
        "events": events,
        "initial_state": initial_state,
        "final_state": final_state,
        "status": status,
        "reply": reply,
        "steps": steps,
        "usage": usage,
        "errors": errors,
        "surfaces": surfaces,
        "parse_errors": parse_errors,
        "metadata": metadata,
        "tools": tools,
    }


__all__ = [
    "TOP_LEVEL_KEYS",
    "decode_block",
    "decode_delegation",
    "decode_event",
    "decode_events",
    "decode_guardrail",
    "decode_memory",
    "decode_message",
    "decode_model_call",
    "decode_payload",
    "decode_reasoning",
    "decode_record",
    "decode_skill",
    "decode_tool_call",
    "decode_usage",
    "parent_problems",
]
