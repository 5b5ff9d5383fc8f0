"""The concrete selectors behind ``on.*`` (see :mod:`agent_asserts.selectors`).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().memory_set("refund.order_id", "A1").build()
>>> MemorySetSelector("refund.order_id", "A1").select(rec)
[0]
"""

from __future__ import annotations

import abc
import difflib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.matching import M, Matcher, Mismatch, as_matcher, render
from agent_asserts.record import (
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
    TrialRecord,
)

SKILL_TRANSITIONS = ("activated", "completed", "cancelled", "interrupted", "resumed")
BLOCK_TRANSITIONS = ("entered", "completed", "cancelled", "interrupted", "resumed")
ENVELOPE_FILTERS = (
    "event_id",
    "actor_ref",
    "surface",
    "audience",
    "turn",
    "phase",
    "entity_ref",
    "operation_ref",
    "correlation_id",
    "caused_by_event_id",
    "status",
    "payload",
)


def call_repr(prefix: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
    """``prefix(arg, key=value)`` with values rendered like Python literals.

    >>> call_repr("on.tool", ["a"], {"arguments": {"x": 1}, "source": None})
    "on.tool('a', arguments={'x': 1})"
    """
    parts = [render(a) for a in args]
    parts += [f"{k}={render(v)}" for k, v in kwargs.items() if v is not None and v is not MISSING]
    return f"{prefix}({', '.join(parts)})"


def _optional_matcher(value: Any) -> Matcher | None:
    return None if value is None else as_matcher(value)


def _check_choice(name: str, value: Any, choices: Sequence[str]) -> None:
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"'{name}' must be one of {allowed} (got {value!r})")


def _mismatch(path: str, expected: Any, actual: Any) -> Mismatch:
    return Mismatch(path, expected, actual, f"expected {render(expected)}, got {render(actual)}")


class Selector(abc.ABC):
    """Which events a check reads. Subclasses are frozen attrs classes."""

    index_kind: ClassVar[str | None] = None

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        """Positions that could match, from the narrowest index available."""
        if self.index_kind is None:
            return range(len(record.events))
        return record.positions_of_kind(self.index_kind)

    @abc.abstractmethod
    def matches(self, event: Event) -> bool:
        """True when ``event`` is selected."""

    @abc.abstractmethod
    def explain(self, event: Event) -> list[Mismatch]:
        """Why ``event`` is not selected (empty when it is)."""

    @abc.abstractmethod
    def to_data(self) -> Any:
        """The YAML/JSON form of the selector."""

    def select(self, record: TrialRecord) -> list[int]:
        """Positions of the selected events, in record order."""
        events = record.events
        return [i for i in self.candidates(record) if self.matches(events[i])]

    def closest(self, record: TrialRecord) -> tuple[Event, list[Mismatch]] | None:
        """The candidate with the fewest mismatches (earliest on ties), or None."""
        best: tuple[Event, list[Mismatch]] | None = None
        for i in self.candidates(record):
            event = record.events[i]
            found = self.explain(event)
            if best is None or len(found) < len(best[1]):
                best = (event, found)
                if not found:
                    break
        return best

    def describe(self) -> str:
        """Human-readable form, the same as ``repr``."""
        return repr(self)


@attrs.frozen(repr=False)
class ToolSelector(Selector):
    """Tool calls by name (``"a|b"`` for alternatives) and, optionally, partial arguments etc.

    >>> ToolSelector("a|b").names
    ('a', 'b')
    """

    name: str
    arguments: Any = None
    result: Any = None
    is_error: bool | None = None
    source: str | None = None
    mcp_server: str | None = None
    skill_id: str | None = None
    names: tuple[str, ...] = attrs.field(init=False, eq=False)
    _arguments: Matcher | None = attrs.field(init=False, eq=False)
    _result: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "tool_call"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"'name' must be a non-empty tool name (got {self.name!r})")
        if self.source is not None:
            _check_choice("source", self.source, ("local", "mcp"))
        if self.mcp_server is not None and self.source == "local":
            raise ValueError("'mcp_server' is not allowed when 'source' is 'local'")
        if self.is_error is not None and not isinstance(self.is_error, bool):
            raise TypeError(f"'is_error' must be a bool or None (got {self.is_error!r})")
        names = tuple(part.strip() for part in self.name.split("|"))
        if any(not part for part in names):
            raise ValueError(f"'name' has an empty alternative (got {self.name!r})")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "_arguments", _optional_matcher(self.arguments))
        object.__setattr__(self, "_result", _optional_matcher(self.result))

    def __repr__(self) -> str:
        fields = {f: getattr(self, f) for f in _TOOL_KEYWORDS}
        return call_repr("on.tool", [self.name], fields)

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        if len(self.names) == 1:
            return record.tool_positions(self.names[0])
        merged: list[int] = []
        for name in dict.fromkeys(self.names):
            merged.extend(record.tool_positions(name))
        return sorted(merged)

    def matches(self, event: Event) -> bool:
        p = event.payload
        if not isinstance(p, ToolCallPayload) or p.name not in self.names:
            return False
        if self.is_error is not None and p.is_error is not self.is_error:
            return False
        if self.source is not None and p.source != self.source:
            return False
        if self.mcp_server is not None and p.mcp_server != self.mcp_server:
            return False
        if self.skill_id is not None and p.skill_id != self.skill_id:
            return False
        if self._arguments is not None and not self._arguments.matches(p.arguments):
            return False
        return self._result is None or self._result.matches(p.result)

    def explain(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, ToolCallPayload):
            return [_mismatch("$.kind", "tool_call", event.kind)]
        found: list[Mismatch] = []
        if p.name not in self.names:
            found.append(_mismatch("$.name", self.name, p.name))
        for field in ("is_error", "source", "mcp_server", "skill_id"):
            want = getattr(self, field)
            if want is not None and getattr(p, field) != want:
                found.append(_mismatch(f"$.{field}", want, getattr(p, field)))
        if self._arguments is not None:
            found += self._arguments.explain(p.arguments, "$.arguments")
        if self._result is not None:
            found += self._result.explain(p.result, "$.result")
        return found

    def to_data(self) -> Any:
        from agent_asserts.matching import value_to_data

        out: dict[str, Any] = {"tool": self.name}
        for field in _TOOL_KEYWORDS:
            value = getattr(self, field)
            if value is not None:
                out[field] = value_to_data(value)
        return out


_TOOL_KEYWORDS = ("arguments", "result", "is_error", "source", "mcp_server", "skill_id")


def _as_button(value: Any) -> Button:
    if isinstance(value, Button):
        return value
    if isinstance(value, Mapping) and "title" in value and set(value) <= {"title", "payload"}:
        return Button(title=value["title"], payload=value.get("payload"))
    raise ValueError(f"a button is {{'title': ..., 'payload': ... (optional)}} (got {value!r})")


@attrs.frozen(repr=False)
class MessageSelector(Selector):
    """Messages by speaker (``actor``; None for any), text, response name and buttons.

    A plain string ``text`` is a regular expression searched anywhere in the text; a matcher
    is applied to the whole text. Every expected button must be carried by the message; an
    expected button without ``payload`` matches any payload.

    >>> MessageSelector(text="refund").describe()
    "on.message(actor='agent', text='refund')"
    """

    actor: str | None = "agent"
    text: Any = None
    utter_name: str | None = None
    buttons: tuple[Button, ...] | None = attrs.field(
        default=None,
        converter=lambda b: None if b is None else tuple(_as_button(x) for x in b),
    )
    _text: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "message"

    def __attrs_post_init__(self) -> None:
        matcher = M.regex(self.text) if isinstance(self.text, str) else self.text
        object.__setattr__(self, "_text", _optional_matcher(matcher))

    def __repr__(self) -> str:
        buttons = None if self.buttons is None else [_button_data(b) for b in self.buttons]
        return call_repr(
            "on.message",
            [],
            {"actor": self.actor, "text": self.text, "utter_name": self.utter_name, "buttons": buttons},
        )

    def matches(self, event: Event) -> bool:
        return isinstance(event.payload, MessagePayload) and not self.explain(event)

    def explain(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MessagePayload):
            return [_mismatch("$.kind", "message", event.kind)]
        found: list[Mismatch] = []
        if self.actor is not None and event.actor_ref != self.actor:
            found.append(_mismatch("$.actor_ref", self.actor, event.actor_ref))
        if self.utter_name is not None and p.utter_name != self.utter_name:
            found.append(_mismatch("$.utter_name", self.utter_name, p.utter_name))
        if self._text is not None:
            found += self._text.explain(p.text, "$.text")
        for i, want in enumerate(self.buttons or ()):
            if not any(_button_matches(want, have) for have in p.buttons):
                reason = f"expected a button {render(_button_data(want))}, none carried matches"
                found.append(Mismatch(f"$.buttons[{i}]", _button_data(want), MISSING, reason))
        return found

    def to_data(self) -> Any:
        from agent_asserts.matching import value_to_data

        out: dict[str, Any] = {"message": {"actor": self.actor}}
        body = out["message"]
        if self.text is not None:
            body["text"] = value_to_data(self.text)
        if self.utter_name is not None:
            body["utter_name"] = self.utter_name
        if self.buttons is not None:
            body["buttons"] = [_button_data(b) for b in self.buttons]
        return out


def _button_data(button: Button) -> dict[str, Any]:
    data: dict[str, Any] = {"title": button.title}
    if button.payload is not None:
        data["payload"] = button.payload
    return data


def _button_matches(want: Button, have: Button) -> bool:
    return want.title == have.title and (want.payload is None or want.payload == have.payload)


@attrs.frozen(repr=False)
class MemorySetSelector(Selector):
    """Writes to one memory key (``scope.field``), optionally of one value (strict).

    >>> MemorySetSelector("a.b", 5)
    on.memory_set('a.b', 5)
    """

    name: str
    value: Any = MISSING
    _value: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "memory"

    def __attrs_post_init__(self) -> None:
        _check_memory_name(self.name)
        if self.value is None:
            raise ValueError("'value' must not be None: null is not accepted as a memory value")
        matcher = None
        if self.value is not MISSING:
            matcher = self.value if isinstance(self.value, Matcher) else M.exact(self.value)
        object.__setattr__(self, "_value", matcher)

    def __repr__(self) -> str:
        args = [self.name] if self.value is MISSING else [self.name, self.value]
        return call_repr("on.memory_set", args, {})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, MemoryPayload)
            and event.event_type == "set"
            and p.name == self.name
            and (self._value is None or self._value.matches(p.value))
        )

    def explain(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MemoryPayload):
            return [_mismatch("$.kind", "memory", event.kind)]
        found: list[Mismatch] = []
        if event.event_type != "set":
            found.append(_mismatch("$.event_type", "set", event.event_type))
        if p.name != self.name:
            found.append(_mismatch("$.name", self.name, p.name))
        if self._value is not None:
            found += self._value.explain(p.value, "$.value")
        return found

    def to_data(self) -> Any:
        from agent_asserts.matching import value_to_data

        if self.value is MISSING:
            return {"memory_set": self.name}
        return {"memory_set": {"name": self.name, "value": value_to_data(self.value)}}


def _check_memory_name(name: Any) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"'name' must be a memory key 'scope.field' (got {name!r})")


@attrs.frozen(repr=False)
class MemoryClearedSelector(Selector):
    """Clears of one memory key.

    >>> MemoryClearedSelector("a.b")
    on.memory_cleared('a.b')
    """

    name: str
    index_kind: ClassVar[str | None] = "memory"

    def __attrs_post_init__(self) -> None:
        _check_memory_name(self.name)

    def __repr__(self) -> str:
        return call_repr("on.memory_cleared", [self.name], {})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches(self, event: Event) -> bool:
        p = event.payload
        return isinstance(p, MemoryPayload) and event.event_type == "clear" and p.name == self.name

    def explain(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MemoryPayload):
            return [_mismatch("$.kind", "memory", event.kind)]
        found = []
        if event.event_type != "clear":
            found.append(_mismatch("$.event_type", "clear", event.event_type))
        if p.name != self.name:
            found.append(_mismatch("$.name", self.name, p.name))
        return found

    def to_data(self) -> Any:
        return {"memory_cleared": self.name}


def _lifecycle_explain(event: Event, transition: str, wanted: Mapping[str, Any]) -> list[Mismatch]:
    found = []
    if event.event_type != transition:
        found.append(_mismatch("$.event_type", transition, event.event_type))
    for field, want in wanted.items():
        have = getattr(event.payload, field, MISSING)
        if want is not None and have != want:
            found.append(_mismatch(f"$.{field}", want, have))
    return found


@attrs.frozen(repr=False)
class SkillSelector(Selector):
    """Skill lifecycle events; ``step_id`` narrows cancelled/interrupted/resumed only.

    >>> SkillSelector("activated", "card_replace")
    on.skill('activated', 'card_replace')
    """

    transition: str
    skill_id: str
    step_id: str | None = None
    index_kind: ClassVar[str | None] = "skill"

    def __attrs_post_init__(self) -> None:
        _check_choice("transition", self.transition, SKILL_TRANSITIONS)
        if self.step_id is not None and self.transition in ("activated", "completed"):
            raise ValueError(f"'step_id' is not allowed for skill {self.transition!r} events")

    def __repr__(self) -> str:
        return call_repr("on.skill", [self.transition, self.skill_id], {"step_id": self.step_id})

    def matches(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, SkillPayload)
            and event.event_type == self.transition
            and p.skill_id == self.skill_id
            and (self.step_id is None or p.step_id == self.step_id)
        )

    def explain(self, event: Event) -> list[Mismatch]:
        if not isinstance(event.payload, SkillPayload):
            return [_mismatch("$.kind", "skill", event.kind)]
        wanted = {"skill_id": self.skill_id, "step_id": self.step_id}
        return _lifecycle_explain(event, self.transition, wanted)

    def to_data(self) -> Any:
        body = {"skill_id": self.skill_id}
        if self.step_id is not None:
            body["step_id"] = self.step_id
        return {f"skill_{self.transition}": body}


@attrs.frozen(repr=False)
class BlockSelector(Selector):
    """Ordered-block lifecycle events; ``step_id`` is not allowed on ``entered``.

    >>> BlockSelector("entered", "card_replace", "main")
    on.block('entered', 'card_replace', 'main')
    """

    transition: str
    skill_id: str
    block_id: str
    step_id: str | None = None
    index_kind: ClassVar[str | None] = "ordered_block"

    def __attrs_post_init__(self) -> None:
        _check_choice("transition", self.transition, BLOCK_TRANSITIONS)
        if self.step_id is not None and self.transition == "entered":
            raise ValueError("'step_id' is not allowed for ordered-block 'entered' events")

    def __repr__(self) -> str:
        args = [self.transition, self.skill_id, self.block_id]
        return call_repr("on.block", args, {"step_id": self.step_id})

    def matches(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, BlockPayload)
            and event.event_type == self.transition
            and p.skill_id == self.skill_id
            and p.block_id == self.block_id
            and (self.step_id is None or p.step_id == self.step_id)
        )

    def explain(self, event: Event) -> list[Mismatch]:
        if not isinstance(event.payload, BlockPayload):
            return [_mismatch("$.kind", "ordered_block", event.kind)]
        wanted = {"skill_id": self.skill_id, "block_id": self.block_id, "step_id": self.step_id}
        return _lifecycle_explain(event, self.transition, wanted)

    def to_data(self) -> Any:
        body = {"skill_id": self.skill_id, "block_id": self.block_id}
        if self.step_id is not None:
            body["step_id"] = self.step_id
        return {f"ordered_block_{self.transition}": body}


@attrs.frozen(repr=False)
class SubagentSelector(Selector):
    """Delegations to a sub-agent; ``status`` narrows to one outcome (``completed``…).

    >>> SubagentSelector("researcher")
    on.subagent('researcher')
    """

    name: str
    status: str | None = None
    index_kind: ClassVar[str | None] = "delegation"

    def __repr__(self) -> str:
        return call_repr("on.subagent", [self.name], {"status": self.status})

    def matches(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, DelegationPayload)
            and p.subagent == self.name
            and (self.status is None or event.event_type == self.status)
        )

    def explain(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, DelegationPayload):
            return [_mismatch("$.kind", "delegation", event.kind)]
        found = []
        if p.subagent != self.name:
            found.append(_mismatch("$.subagent", self.name, p.subagent))
        if self.status is not None and event.event_type != self.status:
            found.append(_mismatch("$.event_type", self.status, event.event_type))
        return found

    def to_data(self) -> Any:
        if self.status is None:
            return {"subagent": self.name}
        return {"subagent": {"name": self.name, "status": self.status}}


def _payload_data(event: Event) -> Any:
    payload = event.payload
    to_dict = getattr(payload, "to_dict", None)
    return to_dict() if callable(to_dict) else payload


@attrs.frozen(repr=False)
class EventSelector(Selector):
    """Events by kind, event type and envelope fields; ``payload`` matches partially,
    ``entity_ref`` is membership in ``entity_refs``.

    >>> EventSelector(kind="audit", filters={"operation_ref": "op-7"})
    on.event('audit', operation_ref='op-7')
    """

    kind: str | None = None
    event_type: str | None = None
    filters: Mapping[str, Any] = attrs.field(factory=dict, converter=dict)
    _matchers: dict[str, Matcher] = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        matchers: dict[str, Matcher] = {}
        for key, value in self.filters.items():
            if key not in ENVELOPE_FILTERS:
                close = difflib.get_close_matches(key, ENVELOPE_FILTERS, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(f"unknown event filter {key!r}{hint}")
            matchers[key] = as_matcher(value)
        object.__setattr__(self, "_matchers", matchers)

    @property
    def index_kind(self) -> str | None:  # type: ignore[override]
        return self.kind

    def __repr__(self) -> str:
        args = [self.kind] if self.kind is not None else []
        kwargs: dict[str, Any] = {} if self.kind is not None else {"kind": None}
        kwargs["event_type"] = self.event_type
        kwargs.update(self.filters)
        return call_repr("on.event", args, kwargs)

    def matches(self, event: Event) -> bool:
        if self.kind is not None and event.kind != self.kind:
            return False
        if self.event_type is not None and event.event_type != self.event_type:
            return False
        return all(self._field_matches(event, k, m) for k, m in self._matchers.items())

    @staticmethod
    def _field_matches(event: Event, key: str, matcher: Matcher) -> bool:
        if key == "entity_ref":
            return any(matcher.matches(ref) for ref in event.entity_refs)
        if key == "payload":
            return matcher.matches(_payload_data(event))
        return matcher.matches(getattr(event, key))

    def explain(self, event: Event) -> list[Mismatch]:
        found: list[Mismatch] = []
        if self.kind is not None and event.kind != self.kind:
            found.append(_mismatch("$.kind", self.kind, event.kind))
        if self.event_type is not None and event.event_type != self.event_type:
            found.append(_mismatch("$.event_type", self.event_type, event.event_type))
        for key, matcher in self._matchers.items():
            if key == "entity_ref":
                if not self._field_matches(event, key, matcher):
                    reason = f"expected an entity ref {matcher.describe()}, got {render(list(event.entity_refs))}"
                    found.append(Mismatch("$.entity_refs", matcher, list(event.entity_refs), reason))
            elif key == "payload":
                found += matcher.explain(_payload_data(event), "$.payload")
            else:
                found += matcher.explain(getattr(event, key), f"$.{key}")
        return found

    def to_data(self) -> Any:
        from agent_asserts.matching import value_to_data

        body: dict[str, Any] = {}
        if self.kind is not None:
            body["kind"] = self.kind
        if self.event_type is not None:
            body["event_type"] = self.event_type
        body.update({k: value_to_data(v) for k, v in self.filters.items()})
        return {"event": body}


__all__ = [
    "BLOCK_TRANSITIONS",
    "SKILL_TRANSITIONS",
    "BlockSelector",
    "EventSelector",
    "MemoryClearedSelector",
    "MemorySetSelector",
    "MessageSelector",
    "Selector",
    "SkillSelector",
    "SubagentSelector",
    "ToolSelector",
    "call_repr",
]
