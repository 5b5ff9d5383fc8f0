"""Tool-call and message selectors (``on.tool``, ``on.message``) and unrecorded arguments.

Memory, lifecycles and delegations are in :mod:`agent_asserts.selectors.conversation`, the base
and ``on.event`` in :mod:`agent_asserts.selectors.base`; every selector is importable from this
module.

A call without recorded arguments (``ToolCallPayload.arguments`` is ``MISSING``) neither
matches nor fails an argument matcher: the result of a check may depend on it. Checks are
evaluated with such calls treated as *not* matching (the default) and, when the record has
any, again with them treated as matching (:func:`unrecorded_as_matching`); a check whose
status differs between the two is ``invalid`` ("arguments not recorded"), never a fail.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": 1}).build()
>>> [str(m) for m in ToolSelector("lookup", arguments={"id": 2}).explain(rec.events[0])]
['$.arguments.id: expected 2, got 1']
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, ClassVar, cast

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher, Mismatch, render, value_to_data
from agent_asserts.record import (
    Button,
    Event,
    MessagePayload,
    ToolCallPayload,
    TrialRecord,
)
from agent_asserts.record.event import BLOCK_TRANSITIONS, SKILL_TRANSITIONS, TOOL_OUTCOMES
from agent_asserts.selectors.base import (
    ENVELOPE_FILTERS,
    EventSelector,
    Selector,
    _check_choice,
    _check_str,
    _mismatch,
    _optional_matcher,
    call_repr,
    check_agent,
)
from agent_asserts.selectors.conversation import (
    BlockSelector,
    MemoryClearedSelector,
    MemorySetSelector,
    SkillSelector,
    SubagentSelector,
)

_UNRECORDED_MATCH: ContextVar[bool] = ContextVar("unrecorded_arguments_match", default=False)


def unrecorded_match() -> bool:
    """Whether a call without recorded arguments counts as matching an argument matcher now.

    >>> unrecorded_match()
    False
    >>> with unrecorded_as_matching():
    ...     unrecorded_match()
    True
    """
    return _UNRECORDED_MATCH.get()


@contextlib.contextmanager
def unrecorded_as_matching() -> Iterator[None]:
    """Within the block, calls without recorded arguments match every argument matcher.

    >>> with unrecorded_as_matching():
    ...     pass
    """
    token = _UNRECORDED_MATCH.set(True)
    try:
        yield
    finally:
        _UNRECORDED_MATCH.reset(token)


def check_arguments(method: str, value: Any) -> None:
    """Raise ``TypeError`` when expected tool ``arguments`` are a string (a mapping, a list, a
    matcher or None are accepted); ``key=value`` text gets the mapping to write instead.

    >>> check_arguments("called_tool", "orderId=A1049")
    Traceback (most recent call last):
    ...
    TypeError: called_tool() parameter 'arguments' takes a mapping, ... not a string
    (got 'orderId=A1049'; did you mean {'orderId': 'A1049'}?)
    """
    if not isinstance(value, str | bytes):
        return
    hint = ""
    if isinstance(value, str) and "=" in value:
        pairs = [part.split("=", 1) for part in value.replace(";", ",").split(",") if part]
        if all(len(p) == 2 and p[0].strip() for p in pairs):
            guess = {k.strip(): v.strip() for k, v in pairs}
            hint = f"; did you mean {guess!r}?"
    raise TypeError(
        f"{method}() parameter 'arguments' takes a mapping, a list, a matcher or None, "
        f"not a string (got {value!r}{hint})"
    )


@attrs.frozen(repr=False)
class ToolSelector(Selector):
    """Tool calls by name (``"a|b"`` for alternatives) and, optionally, partial arguments etc.

    >>> ToolSelector("a|b").names
    ('a', 'b')
    """

    __argument_text__ = "ToolSelector (on.tool)"

    name: str
    arguments: Any = None
    result: Any = None
    is_error: bool | None = None
    source: str | None = None
    mcp_server: str | None = None
    skill_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)
    outcome: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after every argument above is validated)
    names: tuple[str, ...] = attrs.field(init=False, eq=False)
    _arguments: Matcher | None = attrs.field(init=False, eq=False)
    _result: Matcher | None = attrs.field(init=False, eq=False)
    # how select() reads the record: _BY_NAME_ONLY (by name alone: the per-name index holds
    # exactly the selected calls), _BY_NAME_AND_VALUES (by one name and arguments/result only:
    # the per-name index, reading only those two) or _BY_FIELDS (every field of a candidate)
    _plan: int = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "tool_call"

    @names.default
    def _validated_names(self) -> tuple[str, ...]:
        if self.agent is not None:
            check_agent(self.agent)
        if self.outcome is not None:
            _check_choice("outcome", self.outcome, TOOL_OUTCOMES)
        name = self.name
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"'name' must be a non-empty tool name (got {name!r})")
        if self.arguments is not None:
            check_arguments("on.tool", self.arguments)
        if self.source is not None:
            _check_choice("source", self.source, ("local", "mcp"))
        if self.mcp_server is not None and self.source == "local":
            raise ValueError("'mcp_server' is not allowed when 'source' is 'local'")
        if self.is_error is not None and not isinstance(self.is_error, bool):
            raise TypeError(f"'is_error' must be a bool or None (got {self.is_error!r})")
        if self.mcp_server is not None:
            _check_str("mcp_server", self.mcp_server)
        if self.skill_id is not None:
            _check_str("skill_id", self.skill_id)
        if "|" not in name:
            return (name.strip(),)  # one name (not empty: checked above)
        names = tuple(part.strip() for part in name.split("|"))
        if any(not part for part in names):
            raise ValueError(f"'name' has an empty alternative (got {self.name!r})")
        return names

    @_arguments.default
    def _arguments_matcher(self) -> Matcher | None:
        return _optional_matcher(self.arguments)

    @_result.default
    def _result_matcher(self) -> Matcher | None:
        return _optional_matcher(self.result)

    @_plan.default
    def _select_plan(self) -> int:
        if not (  # _TOOL_KEYWORDS[2:] are all None
            len(self.names) == 1
            and self.is_error is None
            and self.source is None
            and self.mcp_server is None
            and self.skill_id is None
            and self.outcome is None
            and self.agent is None
        ):
            return _BY_FIELDS
        if self.arguments is None and self.result is None:
            return _BY_NAME_ONLY
        return _BY_NAME_AND_VALUES

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

    def takes_every_candidate(self) -> bool:
        # By name alone, the per-name index is the answer: it holds exactly the tool calls of
        # that name, so no call needs reading.
        return self._plan == _BY_NAME_ONLY

    def select(self, record: TrialRecord) -> list[int]:
        plan = self._plan
        if plan == _BY_NAME_ONLY:
            return list(record.tool_positions(self.names[0]))
        if plan == _BY_FIELDS:
            return super().select(record)
        # matches_fields() inlined over the per-name index: the name holds, only the arguments
        # and the result are read
        events = record.events
        arguments, result = self._arguments, self._result
        unrecorded = unrecorded_match()
        out = []
        for i in record.tool_positions(self.names[0]):
            p = cast(ToolCallPayload, events[i].payload)  # the per-name index holds tool calls
            if arguments is not None:
                if p.arguments is MISSING:  # not recorded: see unrecorded_match()
                    if not unrecorded:
                        continue
                elif not arguments.matches(p.arguments):
                    continue
            if result is None or result.matches(p.result):
                out.append(i)
        return out

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        if not isinstance(p, ToolCallPayload) or p.name not in self.names:
            return False
        if self.is_error is not None and p.is_error is not self.is_error:
            return False
        if self.outcome is not None and p.outcome != self.outcome:
            return False
        if self.source is not None and p.source != self.source:
            return False
        if self.mcp_server is not None and p.mcp_server != self.mcp_server:
            return False
        if self.skill_id is not None and p.skill_id != self.skill_id:
            return False
        if self._arguments is not None:
            if p.arguments is MISSING:  # not recorded: see unrecorded_match()
                if not unrecorded_match():
                    return False
            elif not self._arguments.matches(p.arguments):
                return False
        return self._result is None or self._result.matches(p.result)

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, ToolCallPayload):
            return [_mismatch("$.kind", "tool_call", event.kind)]
        found: list[Mismatch] = []
        if p.name not in self.names:
            found.append(_mismatch("$.name", self.name, p.name))
        for field in ("is_error", "outcome", "source", "mcp_server", "skill_id"):
            want = getattr(self, field)
            if want is not None and getattr(p, field) != want:
                found.append(_mismatch(f"$.{field}", want, getattr(p, field)))
        if self._arguments is not None:
            if p.arguments is MISSING:
                if not unrecorded_match():
                    found.append(
                        Mismatch("$.arguments", self._arguments, MISSING, "arguments not recorded")
                    )
            else:
                found += self._arguments.explain(p.arguments, "$.arguments")
        if self._result is not None:
            found += self._result.explain(p.result, "$.result")
        return found

    def to_data(self) -> Any:
        out: dict[str, Any] = {"tool": self.name}
        for field in _TOOL_KEYWORDS:
            value = getattr(self, field)
            if value is not None:
                out[field] = value_to_data(value)
        return out


_BY_FIELDS, _BY_NAME_AND_VALUES, _BY_NAME_ONLY = 0, 1, 2  # ToolSelector._plan

_TOOL_KEYWORDS = (
    "arguments",
    "result",
    "is_error",
    "source",
    "mcp_server",
    "skill_id",
    "outcome",
    "agent",
)


def _as_button(value: Any) -> Button:
    if isinstance(value, Button):
        return value
    if isinstance(value, Mapping) and "title" in value and set(value) <= {"title", "payload"}:
        return Button(title=value["title"], payload=value.get("payload"))
    raise ValueError(f"a button is {{'title': ..., 'payload': ... (optional)}} (got {value!r})")


def _as_buttons(values: Iterable[Any] | None) -> tuple[Button, ...] | None:
    return None if values is None else tuple(_as_button(x) for x in values)


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
        converter=_as_buttons,
    )
    agent: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after the arguments above are validated)
    _text: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "message"

    @_text.default
    def _validated_text(self) -> Matcher | None:
        check_agent(self.agent)
        _check_str("actor", self.actor)
        _check_str("utter_name", self.utter_name)
        if self.text is not None and not isinstance(self.text, str | Matcher):
            raise TypeError(
                f"'text' must be a regular expression (a string), a matcher or None "
                f"(got {self.text!r})"
            )
        matcher = M.regex(self.text) if isinstance(self.text, str) else self.text
        return _optional_matcher(matcher)

    def __repr__(self) -> str:
        buttons = None if self.buttons is None else [_button_data(b) for b in self.buttons]
        return call_repr(
            "on.message",
            [],
            {
                "actor": self.actor,
                "text": self.text,
                "utter_name": self.utter_name,
                "buttons": buttons,
                "agent": self.agent,
            },
        )

    def select(self, record: TrialRecord) -> list[int]:
        if self.agent is not None or self.buttons is not None:
            return super().select(record)
        # matches_fields() inlined over the message index (no call per message)
        events = record.events
        actor, utter, text = self.actor, self.utter_name, self._text
        out = []
        for i in record.positions_of_kind("message"):
            event = events[i]
            p = event.payload
            if (
                isinstance(p, MessagePayload)
                and (actor is None or event.actor_ref == actor)
                and (utter is None or p.utter_name == utter)
                and (text is None or text.matches(p.text))
            ):
                out.append(i)
        return out

    def matches_fields(self, event: Event) -> bool:
        # explain_fields() without building its mismatches: the same tests, stopping at the first
        p = event.payload
        if not isinstance(p, MessagePayload):
            return False
        if self.actor is not None and event.actor_ref != self.actor:
            return False
        if self.utter_name is not None and p.utter_name != self.utter_name:
            return False
        if self._text is not None and not self._text.matches(p.text):
            return False
        return all(
            any(_button_matches(want, have) for have in p.buttons) for want in self.buttons or ()
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
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
        out: dict[str, Any] = {"message": {"actor": self.actor}}
        body = out["message"]
        if self.text is not None:
            body["text"] = value_to_data(self.text)
        if self.utter_name is not None:
            body["utter_name"] = self.utter_name
        if self.buttons is not None:
            body["buttons"] = [_button_data(b) for b in self.buttons]
        self.agent_data(body)
        return out


def _button_data(button: Button) -> dict[str, Any]:
    data: dict[str, Any] = {"title": button.title}
    if button.payload is not None:
        data["payload"] = button.payload
    return data


def _button_matches(want: Button, have: Button) -> bool:
    return want.title == have.title and (want.payload is None or want.payload == have.payload)


__all__ = [
    "BLOCK_TRANSITIONS",
    "ENVELOPE_FILTERS",
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
    "check_arguments",
    "unrecorded_as_matching",
    "unrecorded_match",
]
