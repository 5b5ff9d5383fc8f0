"""Selectors for memory, skill and ordered-block lifecycles and delegations.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().memory_set("refund.order_id", "A1").build()
>>> MemorySetSelector("refund.order_id", "A1").select(rec)
[0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher, Mismatch, render, value_to_data
from agent_asserts.record import (
    BlockPayload,
    DelegationPayload,
    Event,
    MemoryPayload,
    SkillPayload,
    TrialRecord,
)
from agent_asserts.record.event import BLOCK_TRANSITIONS, SKILL_TRANSITIONS
from agent_asserts.selectors.base import (
    Selector,
    _check_choice,
    _check_name,
    _check_str,
    _mismatch,
    call_repr,
    check_agent,
)


@attrs.frozen(repr=False)
class MemorySetSelector(Selector):
    """Writes to one memory key (``scope.field``), optionally of one value (strict).

    >>> MemorySetSelector("a.b", 5)
    on.memory_set('a.b', 5)
    """

    name: str
    value: Any = MISSING
    agent: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after the arguments above are validated)
    _value: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "memory"

    @_value.default
    def _validated_value(self) -> Matcher | None:
        check_agent(self.agent)
        _check_memory_name(self.name)
        if self.value is None:
            raise ValueError("'value' must not be None: null is not accepted as a memory value")
        if self.value is MISSING:
            return None
        return self.value if isinstance(self.value, Matcher) else M.exact(self.value)

    def __repr__(self) -> str:
        args = [self.name] if self.value is MISSING else [self.name, self.value]
        return call_repr("on.memory_set", args, {"agent": self.agent})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, MemoryPayload)
            and event.event_type == "set"
            and p.name == self.name
            and (self._value is None or self._value.matches(p.value))
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
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
        if self.value is MISSING and self.agent is None:
            return {"memory_set": self.name}
        body: dict[str, Any] = {"name": self.name}
        if self.value is not MISSING:
            body["value"] = value_to_data(self.value)
        return {"memory_set": self.agent_data(body)}


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
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "memory"

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_memory_name(self.name)

    def __repr__(self) -> str:
        return call_repr("on.memory_cleared", [self.name], {"agent": self.agent})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return isinstance(p, MemoryPayload) and event.event_type == "clear" and p.name == self.name

    def explain_fields(self, event: Event) -> list[Mismatch]:
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
        if self.agent is None:
            return {"memory_cleared": self.name}
        return {"memory_cleared": {"name": self.name, "agent": self.agent}}


class _LifecycleSelector(Selector):
    """Skill and ordered-block selectors: an event of ``index_kind`` at ``transition`` whose
    payload (a ``payload_type``) has each of ``matched_fields`` that is set (not None)."""

    transition: str
    payload_type: ClassVar[type]
    matched_fields: ClassVar[tuple[str, ...]]

    def _wanted(self) -> list[tuple[str, Any]]:
        wanted = ((name, getattr(self, name)) for name in self.matched_fields)
        return [(name, value) for name, value in wanted if value is not None]

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, self.payload_type)
            and event.event_type == self.transition
            and all(getattr(p, name) == want for name, want in self._wanted())
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        if not isinstance(event.payload, self.payload_type):
            return [_mismatch("$.kind", self.index_kind, event.kind)]
        found = []
        if event.event_type != self.transition:
            found.append(_mismatch("$.event_type", self.transition, event.event_type))
        for name, want in self._wanted():
            have = getattr(event.payload, name, MISSING)
            if have != want:
                found.append(_mismatch(f"$.{name}", want, have))
        return found

    def to_data(self) -> Any:
        body = dict(self._wanted())
        return {f"{self.index_kind}_{self.transition}": self.agent_data(body)}


@attrs.frozen(repr=False)
class SkillSelector(_LifecycleSelector):
    """Skill lifecycle events; ``step_id`` narrows cancelled/interrupted/resumed only.

    >>> SkillSelector("activated", "card_replace")
    on.skill('activated', 'card_replace')
    """

    transition: str
    skill_id: str
    step_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "skill"
    payload_type: ClassVar[type] = SkillPayload
    matched_fields: ClassVar[tuple[str, ...]] = ("skill_id", "step_id")

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_choice("transition", self.transition, SKILL_TRANSITIONS)
        _check_name("skill_id", self.skill_id)
        _check_str("step_id", self.step_id)
        if self.step_id is not None and self.transition in ("activated", "completed"):
            raise ValueError(f"'step_id' is not allowed for skill {self.transition!r} events")

    def __repr__(self) -> str:
        return call_repr(
            "on.skill",
            [self.transition, self.skill_id],
            {"step_id": self.step_id, "agent": self.agent},
        )


@attrs.frozen(repr=False)
class BlockSelector(_LifecycleSelector):
    """Ordered-block lifecycle events; ``step_id`` is not allowed on ``entered``.

    >>> BlockSelector("entered", "card_replace", "main")
    on.block('entered', 'card_replace', 'main')
    """

    transition: str
    skill_id: str
    block_id: str
    step_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "ordered_block"
    payload_type: ClassVar[type] = BlockPayload
    matched_fields: ClassVar[tuple[str, ...]] = ("skill_id", "block_id", "step_id")

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_choice("transition", self.transition, BLOCK_TRANSITIONS)
        _check_name("skill_id", self.skill_id)
        _check_name("block_id", self.block_id)
        _check_str("step_id", self.step_id)
        if self.step_id is not None and self.transition == "entered":
            raise ValueError("'step_id' is not allowed for ordered-block 'entered' events")

    def __repr__(self) -> str:
        args = [self.transition, self.skill_id, self.block_id]
        return call_repr("on.block", args, {"step_id": self.step_id, "agent": self.agent})


def _outcomes(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


@attrs.frozen(repr=False)
class SubagentSelector(Selector):
    """Delegations to a sub-agent; ``status`` narrows to one outcome (``completed``…) or to
    any of several (a list).

    >>> SubagentSelector("researcher")
    on.subagent('researcher')
    >>> SubagentSelector("r", status=["completed", "transferred"]).status
    ('completed', 'transferred')
    """

    name: str
    status: str | tuple[str, ...] | None = attrs.field(default=None, converter=_outcomes)
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "delegation"

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_name("name", self.name)
        if isinstance(self.status, tuple):
            if not self.status:
                raise ValueError("'status' must name at least one outcome")
            for i, outcome in enumerate(self.status):
                _check_str(f"status[{i}]", outcome, optional=False)
        else:
            _check_str("status", self.status)

    @property
    def outcomes(self) -> tuple[str, ...] | None:
        """The accepted outcomes, or None for any."""
        if self.status is None:
            return None
        return self.status if isinstance(self.status, tuple) else (self.status,)

    def __repr__(self) -> str:
        return call_repr("on.subagent", [self.name], {"status": self.status, "agent": self.agent})

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, DelegationPayload)
            and p.subagent == self.name
            and (self.outcomes is None or event.event_type in self.outcomes)
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, DelegationPayload):
            return [_mismatch("$.kind", "delegation", event.kind)]
        found = []
        if p.subagent != self.name:
            found.append(_mismatch("$.subagent", self.name, p.subagent))
        outcomes = self.outcomes
        if outcomes is not None and event.event_type not in outcomes:
            if len(outcomes) == 1:
                found.append(_mismatch("$.event_type", outcomes[0], event.event_type))
            else:
                wanted = ", ".join(repr(o) for o in outcomes)
                reason = f"expected one of {wanted}, got {render(event.event_type)}"
                found.append(Mismatch("$.event_type", outcomes, event.event_type, reason))
        return found

    def to_data(self) -> Any:
        if self.status is None and self.agent is None:
            return {"subagent": self.name}
        body: dict[str, Any] = {"name": self.name}
        if self.status is not None:
            body["status"] = list(self.status) if isinstance(self.status, tuple) else self.status
        return {"subagent": self.agent_data(body)}


__all__ = [
    "BlockSelector",
    "MemoryClearedSelector",
    "MemorySetSelector",
    "SkillSelector",
    "SubagentSelector",
]
