"""The conversation family (Rasa Mantle's assertions): skill and ordered-block lifecycle, memory,
agent messages, tool runs within one user turn.

Skill and ordered-block lifecycle checks: ``skill_activated`` … ``ordered_block_resumed``.

One implementation, :class:`LifecycleCheck`, counts the events a ``SkillSelector`` or
``BlockSelector`` picks; four field layouts (skill, skill at a step, block, block at a step)
and one table of transitions (one :func:`transition_check` row each, collected in
:data:`LIFECYCLE_CHECKS`) declare the ten registered classes, one per fluent method.
A skill event never satisfies an ordered-block check, nor the reverse (different kinds).
``step_id`` narrows cancel, interrupt and resume (and a block's completion); the classes
that do not take it have no such field.

>>> from agent_asserts.record import TrialRecord
>>> rec = (
...     TrialRecord.builder()
...     .skill("activated", "card_replace")
...     .block("entered", "card_replace", "main")
...     .skill("cancelled", "card_replace", step_id="confirm")
...     .build()
... )
>>> SkillActivated("card_replace").evaluate(rec).message
"skill 'card_replace' activated: e0"
>>> SkillCancelled("card_replace", step_id="autonomous").evaluate(rec).message
"skill 'card_replace' was not cancelled at step 'autonomous' (2 skill events; closest e2)"
>>> BlockEntered("card_replace", "main").default_name()
'ordered_block_entered:card_replace.main'

Memory checks: ``memory_was_set``, ``memory_was_not_set``, ``memory_was_cleared``.

Names are the key exactly as recorded (``scope.field``). Values are compared strictly (JSON
types: ``True`` is not ``1`` nor ``"true"``, objects ignore key order, lists keep it); a plain
value is wrapped in ``M.exact``, a matcher is used as it is, and ``None`` (JSON ``null``) is a
``ValueError`` when the check is built. Writes and clears are separate events:

* ``memory_was_set(name)`` passes on any write of the key; with ``value``, on any write of it;
* ``memory_was_not_set(name)`` fails on any write; with ``value``, only when the *last* write
  had it (clears do not count as writes);
* ``memory_was_cleared(name)`` passes on any clear of the key.

Each check class has ``list_entries = True``: a list of names or ``{"name": ..., "value":
...}`` mappings given to the method means one check per entry (:func:`memory_checks`).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().memory_set("a.flag", 1).memory_clear("a.flag").build()
>>> MemoryWasSet("a.flag", True).evaluate(rec).message
"'a.flag' was written 1 time, never with True (closest e0)"
>>> [c.evaluate(rec).status.value for c in
...  (MemoryWasSet("a.flag"), MemoryWasCleared("a.flag"), MemoryWasNotSet("a.flag"))]
['pass', 'pass', 'fail']

Agent messages: ``bot_uttered`` and ``bot_did_not_utter``.

Both read the agent's messages (``actor_ref == "agent"``) through one
``on.message(actor="agent", …)`` selector. **One message must match every given field** (the
documented Mantle meaning; docs/mantle.md): ``utter_name`` equals the response name,
``text_matches`` is a regular expression searched anywhere in the text (or a matcher applied
to the whole text), and ``buttons`` lists buttons (``title`` and optional ``payload``) the
message must all carry; an expected button without ``payload`` matches any payload. At least
one field is required (``ValueError``), and an invalid regex is a ``ValueError`` when built.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().agent("Sorry, I cannot help", utter_name="utter_sorry").build()
>>> BotDidNotUtter(text_matches="Cannot").evaluate(rec).status.value
'pass'
>>> BotUttered(text_matches="cannot", utter_name="utter_other").evaluate(rec).message
'no agent message matched all given fields (1 agent message; closest e0)'

Tool runs within one user turn: ``tools_within_one_turn``.

The check passes when some user turn holds a run for every listed call. Each run counts
toward one listed call only. Unordered, runs are assigned to calls by **maximum bipartite
matching** (docs/mantle.md), so ``[A (any arguments), A {x: 1}]`` is satisfied by runs
``A {x: 1}, A {x: 2}`` whatever their order; ordered, each call takes the earliest matching run
after the previous call's run (optimal for subsequences). With ``allow_extra_calls=False`` a
turn with any other counted run fails — that disqualifies only its own turn. Tools named in
``ignore`` neither satisfy a call nor count as extra. Turns are the record's (explicit, or
derived from user messages).

>>> from agent_asserts.record import TrialRecord
>>> from agent_asserts import on
>>> rec = (
...     TrialRecord.builder()
...     .user("replace my card")
...     .tool("A", {"x": 1}).tool("A", {"x": 2}).tool("listen")
...     .build()
... )
>>> check = ToolsWithinOneTurn("A", on.tool("A", {"x": 1}), allow_extra_calls=False,
...                            ignore=("listen",))
>>> check.evaluate(rec).message
'turn 1 has every listed call: e2, e1'
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, cast

import attrs

from agent_asserts._text import LazyText, did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import (
    AGENT_MESSAGES,
    closest_fields,
    event_ids,
    held_hint,
    id_list,
    record_names,
    tool_name,
)
from agent_asserts.checks.sequencing import find_in_order, step_label
from agent_asserts.matching import Matcher, render
from agent_asserts.matching.scalar import compile_regex
from agent_asserts.matching.structural import maximum_matching
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import Button, MemoryPayload
from agent_asserts.selectors import (
    BlockSelector,
    MemoryClearedSelector,
    MemorySetSelector,
    MessageSelector,
    Selector,
    SkillSelector,
    ToolSelector,
    as_selector,
)

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def identifier(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: a non-empty string id (``skill_id``, ``block_id``).

    >>> SkillActivated("")
    Traceback (most recent call last):
    ...
    ValueError: 'skill_id' must not be empty
    """
    if not isinstance(value, str):
        raise TypeError(f"'{attribute.name}' must be a str (got {value!r})")
    if not value:
        raise ValueError(f"'{attribute.name}' must not be empty")


def optional_identifier(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: None or a non-empty string id (``step_id``).

    >>> SkillCancelled("card_replace", step_id=3)
    Traceback (most recent call last):
    ...
    TypeError: 'step_id' must be a str (got 3)
    """
    if value is not None:
        identifier(instance, attribute, value)


@attrs.frozen(slots=False, repr=False, eq=False)
class LifecycleCheck(Check):
    """Passes when at least one lifecycle event matches :meth:`selector`.

    Subclasses set ``kind`` (``skill`` or ``ordered_block``) and ``transition``, and build
    their selector from their fields. A failure carries the closest event of that kind.
    """

    kind: ClassVar[str] = "skill"
    transition: ClassVar[str] = ""

    def selector(self) -> Selector:
        """The selector of the events this check counts.

        >>> BlockEntered("card_replace", "main").selector()
        on.block('entered', 'card_replace', 'main')
        """
        raise NotImplementedError  # pragma: no cover - every registered subclass overrides

    def subject(self) -> str:
        """``skill 'card_replace'`` or ``ordered block 'main' of skill 'card_replace'``.

        >>> SkillCompleted("card_replace").subject()
        "skill 'card_replace'"
        """
        raise NotImplementedError  # pragma: no cover

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, self.kind)
        if invalid is not None:
            return invalid
        selector = self.selector()
        step_id = getattr(self, "step_id", None)
        at = "" if step_id is None else f" at step {step_id!r}"
        matched = selector.select(record)
        ids = event_ids(record, matched)
        details = {"selector": selector.describe()}
        if matched:
            text = LazyText(_reached_text, self, at, ids)
            return Outcome.of(True, message=text, evidence=ids, observed=len(ids), details=details)
        candidates = record.positions_of_kind(self.kind)
        noun = "skill event" if self.kind == "skill" else "ordered-block event"
        seen = plural(len(candidates), noun)
        closest = selector.closest(record)  # None only when there is no candidate
        near = "" if closest is None else f"; closest {closest[0].event_id}"
        skill = getattr(self, "skill_id", None)
        hint = ""
        skills = record_names(record, "skill") if candidates else []
        if skill is not None and skills and skill not in skills:
            hint = held_hint(record, "skill", skill)
        return Outcome.of(
            False,
            message=f"{self.subject()} was not {self.transition}{at} ({seen}{near}){hint}",
            observed=0,
            evidence=event_ids(record, candidates),
            details=details,
            **closest_fields(closest),
        )


def _reached_text(check: LifecycleCheck, at: str, ids: tuple[str, ...]) -> str:
    return f"{check.subject()} {check.transition}{at}: {id_list(ids)}"


@attrs.frozen(slots=False, repr=False, eq=False)
class _Skill(LifecycleCheck):
    skill_id: str = attrs.field(validator=identifier)
    positional: ClassVar[tuple[str, ...]] = ("skill_id",)

    def selector(self) -> Selector:
        return SkillSelector(self.transition, self.skill_id, getattr(self, "step_id", None))

    def subject(self) -> str:
        return f"skill {self.skill_id!r}"


@attrs.frozen(slots=False, repr=False, eq=False)
class _SkillAtStep(_Skill):
    yaml_positional: ClassVar[tuple[str, ...]] = ("skill_id", "step_id")
    step_id: str | None = attrs.field(default=None, validator=optional_identifier)


@attrs.frozen(slots=False, repr=False, eq=False)
class _Block(LifecycleCheck):
    skill_id: str = attrs.field(validator=identifier)
    block_id: str = attrs.field(validator=identifier)
    kind: ClassVar[str] = "ordered_block"
    positional: ClassVar[tuple[str, ...]] = ("skill_id", "block_id")

    def primary(self) -> Any:
        """``skill_id.block_id``: a skill may own several blocks."""
        return f"{self.skill_id}.{self.block_id}"

    def selector(self) -> Selector:
        step_id = getattr(self, "step_id", None)
        return BlockSelector(self.transition, self.skill_id, self.block_id, step_id)

    def subject(self) -> str:
        return f"ordered block {self.block_id!r} of skill {self.skill_id!r}"


@attrs.frozen(slots=False, repr=False, eq=False)
class _BlockAtStep(_Block):
    yaml_positional: ClassVar[tuple[str, ...]] = ("skill_id", "block_id", "step_id")
    step_id: str | None = attrs.field(default=None, validator=optional_identifier)


S = TypeVar("S", bound=LifecycleCheck)


def transition_check(shape: type[S], transition: str) -> type[S]:
    """Declare and register the check class of ``shape`` (its fields) at ``transition``.

    ``shape`` is one of the four field layouts (skill, skill at a step, block, block at a
    step); the class is ``Skill<Transition>`` or ``Block<Transition>`` and its method (the
    fluent name and native key) ``skill_<transition>`` or ``ordered_block_<transition>``.
    Every lifecycle check below is one row of this table.

    >>> LIFECYCLE_CHECKS["ordered_block_resumed"].__name__, BlockResumed.transition
    ('BlockResumed', 'resumed')
    >>> print(SkillCancelled.__doc__)
    A ``cancelled`` event of skill ``skill_id`` (at ``step_id``, when given).
    """
    skill = shape.kind == "skill"
    name = ("Skill" if skill else "Block") + transition.capitalize()
    subject = "skill ``skill_id``" if skill else "ordered block ``block_id`` of ``skill_id``"
    at = " (at ``step_id``, when given)" if "step_id" in attrs.fields_dict(shape) else ""
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"A ``{transition}`` event of {subject}{at}.",
        "method": f"{'skill' if skill else 'ordered_block'}_{transition}",
        "transition": transition,
    }
    cls = attrs.frozen(type(name, (shape,), namespace), slots=False, repr=False, eq=False)
    return cast("type[S]", register(cls))


SkillActivated = transition_check(_Skill, "activated")


SkillCompleted = transition_check(_Skill, "completed")


SkillCancelled = transition_check(_SkillAtStep, "cancelled")


SkillInterrupted = transition_check(_SkillAtStep, "interrupted")


SkillResumed = transition_check(_SkillAtStep, "resumed")


BlockEntered = transition_check(_Block, "entered")


BlockCompleted = transition_check(_BlockAtStep, "completed")


BlockCancelled = transition_check(_BlockAtStep, "cancelled")


BlockInterrupted = transition_check(_BlockAtStep, "interrupted")


BlockResumed = transition_check(_BlockAtStep, "resumed")


LIFECYCLE_CHECKS: Final[dict[str, type[LifecycleCheck]]] = {
    cls.method: cls
    for cls in (
        SkillActivated,
        SkillCompleted,
        SkillCancelled,
        SkillInterrupted,
        SkillResumed,
        BlockEntered,
        BlockCompleted,
        BlockCancelled,
        BlockInterrupted,
        BlockResumed,
    )
}


"""Method name (fluent method, native and Mantle key) → its lifecycle check class.

>>> LIFECYCLE_CHECKS["skill_cancelled"]("refund", step_id="autonomous").describe()
"skill_cancelled('refund', step_id='autonomous')"
>>> LIFECYCLE_CHECKS["skill_resumed"]("refund").to_data()
{'skill_resumed': {'skill_id': 'refund'}}
>>> BlockCompleted("refund", "main").default_name()
'ordered_block_completed:refund.main'
>>> BlockCancelled("refund", "main", step_id="s2").describe()
"ordered_block_cancelled('refund', 'main', step_id='s2')"
"""


def _times(n: int) -> str:
    return f"{n} time" if n == 1 else f"{n} times"


def _written(record: TrialRecord, position: int) -> Any:
    payload = record.events[position].payload
    return payload.value if isinstance(payload, MemoryPayload) else MISSING


def _value_text(value: Any) -> str:
    return value.describe() if isinstance(value, Matcher) else render(value)


@attrs.frozen(slots=False, repr=False, eq=False)
class _MemoryCheck(Check):
    name: str
    value: Any = MISSING
    _writes: MemorySetSelector = attrs.field(init=False, eq=False, repr=False)
    positional: ClassVar[tuple[str, ...]] = ("name",)
    list_entries: ClassVar[bool] = True

    @_writes.default
    @given_fields_first
    def _select_writes(self) -> MemorySetSelector:
        # the selector validates the name and rejects a null value
        return MemorySetSelector(self.name, self.value)

    def write_positions(self, record: TrialRecord) -> list[int]:
        """Positions of every write (``set`` event) of the key, whatever its value."""
        events = record.events
        return [
            p
            for p in record.memory_positions(self.name)
            if events[p].event_type == "set" and isinstance(events[p].payload, MemoryPayload)
        ]

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "memory")
        if invalid is not None:
            return invalid
        return self.verdict(record, self.write_positions(record))

    @abc.abstractmethod
    def verdict(self, record: TrialRecord, writes: list[int]) -> Outcome:
        """The outcome, given the positions of every write of the key."""


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MemoryWasSet(_MemoryCheck):
    """The key was written (with ``value``, when given) at least once.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().memory_set("card.reason", "damaged").build()
    >>> MemoryWasSet("card.reason", "damaged").evaluate(rec).message
    "'card.reason' was written with 'damaged': e0"
    >>> MemoryWasSet("card.reason", None)
    Traceback (most recent call last):
    ...
    ValueError: 'value' must not be None: null is not accepted as a memory value
    """

    method: ClassVar[str] = "memory_was_set"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "value")

    def verdict(self, record: TrialRecord, writes: list[int]) -> Outcome:
        matched = [p for p in writes if self._writes.matches(record.events[p])]
        if matched:
            ids = event_ids(record, matched)
            written = LazyText(_written_text, self.name, self.value, ids)
            return Outcome.of(True, message=written, evidence=ids, observed=len(ids))
        with_value = "" if self.value is MISSING else f" with {_value_text(self.value)}"
        if not writes:
            text = f"{self.name!r} was never written" + held_hint(record, "memory", self.name)
            return Outcome.of(False, message=text, observed=0)
        closest = self._writes.closest(record)
        text = f"{self.name!r} was written {_times(len(writes))}, never{with_value}"
        if closest is not None:
            text += f" (closest {closest[0].event_id})"
        values = [_written(record, p) for p in writes]
        evidence = event_ids(record, writes)
        return Outcome.of(
            False, message=text, evidence=evidence, observed=values, **closest_fields(closest)
        )


def _written_text(name: str, value: Any, ids: tuple[str, ...]) -> str:
    with_value = "" if value is MISSING else f" with {_value_text(value)}"
    return f"{name!r} was written{with_value}: {id_list(ids)}"


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MemoryWasNotSet(_MemoryCheck):
    """The key was never written; with ``value``, its last write was not ``value``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().memory_set("a.x", "x").memory_set("a.x", "y").build()
    >>> MemoryWasNotSet("a.x", "x").evaluate(rec).message
    "the last write of 'a.x' (e1) was 'y', not 'x'"
    >>> MemoryWasNotSet("a.x").evaluate(rec).message
    "'a.x' was written 2 times: e0, e1"
    """

    method: ClassVar[str] = "memory_was_not_set"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "value")

    def verdict(self, record: TrialRecord, writes: list[int]) -> Outcome:
        if not writes:
            return Outcome.of(True, message=f"{self.name!r} was never written", observed=0)
        ids = event_ids(record, writes)
        if self.value is MISSING:
            text = f"{self.name!r} was written {_times(len(writes))}: {id_list(ids)}"
            return Outcome.of(False, message=text, evidence=ids, observed=len(writes))
        last = record.events[writes[-1]]
        actual = _written(record, writes[-1])
        wanted = _value_text(self.value)
        if self._writes.matches(last):
            text = f"the last write of {self.name!r} ({last.event_id}) was {wanted}"
            return Outcome.of(False, message=text, evidence=(last.event_id,), observed=actual)
        text = (
            f"the last write of {self.name!r} ({last.event_id}) was {render(actual)}, not {wanted}"
        )
        return Outcome.of(True, message=text, evidence=(last.event_id,), observed=actual)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MemoryWasCleared(Check):
    """The key was cleared at least once (a clear has no value).

    >>> from agent_asserts.record import TrialRecord
    >>> MemoryWasCleared("a.draft").evaluate(TrialRecord.builder().build()).message
    "'a.draft' was never cleared"
    """

    name: str
    _clears: MemoryClearedSelector = attrs.field(init=False, eq=False, repr=False)
    method: ClassVar[str] = "memory_was_cleared"
    positional: ClassVar[tuple[str, ...]] = ("name",)
    list_entries: ClassVar[bool] = True

    @_clears.default
    @given_fields_first
    def _select_clears(self) -> MemoryClearedSelector:
        return MemoryClearedSelector(self.name)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "memory")
        if invalid is not None:
            return invalid
        cleared = self._clears.select(record)
        if cleared:
            ids = event_ids(record, cleared)
            text = f"{self.name!r} was cleared: {id_list(ids)}"
            return Outcome.of(True, message=text, evidence=ids, observed=len(ids))
        writes = record.memory_positions(self.name)
        text = f"{self.name!r} was never cleared"
        if writes:
            text += f" (written {_times(len(writes))}: {id_list(event_ids(record, writes))})"
        else:
            text += held_hint(record, "memory", self.name)
        return Outcome.of(False, message=text, evidence=event_ids(record, writes), observed=0)


MemoryEntry = str | Mapping[str, Any]


"""One entry of a ``memory_was_*`` list: a key name or ``{"name": ..., "value": ...}``."""


_NO_VALUE = "a clear has no value"


def memory_checks(
    cls: type[_MemoryCheck | MemoryWasCleared],
    entries: Sequence[MemoryEntry],
    value: Any = MISSING,
) -> list[Check]:
    """One check of ``cls`` per entry of a ``memory_was_*`` list (``ValueError``/``TypeError``
    naming the entry when one is malformed).

    >>> memory_checks(MemoryWasSet, ["a.x", {"name": "a.y", "value": 1}])
    [MemoryWasSet(name='a.x', value=MISSING), MemoryWasSet(name='a.y', value=1)]
    >>> memory_checks(MemoryWasCleared, [{"name": "a.x", "value": 1}])
    Traceback (most recent call last):
    ...
    ValueError: memory_was_cleared entry [0]: 'value' is not allowed (a clear has no value)
    """
    method = cls.method
    if value is not MISSING:
        raise TypeError(
            f"{method}() takes 'value' only with a single name; with a list, give each "
            "value in its entry: {'name': ..., 'value': ...}"
        )
    if not entries:
        raise ValueError(f"{method}([]) needs at least one name")
    keys = [f.name for f in attrs.fields(cls) if f.init and not f.name.startswith("_")]
    checks: list[Check] = []
    for i, entry in enumerate(entries):
        where = f"{method} entry [{i}]"
        if isinstance(entry, str):
            checks.append(cls(entry))
            continue
        if not isinstance(entry, Mapping):
            raise TypeError(
                f"{where}: must be a name or a mapping {{'name': ..., 'value': ...}} "
                f"(got {render(entry)})"
            )
        for key in entry:
            if key == "value" and "value" not in keys:
                raise ValueError(f"{where}: 'value' is not allowed ({_NO_VALUE})")
            if key not in keys:
                raise ValueError(f"{where}: unknown key {key!r}{did_you_mean(str(key), keys)}")
        if "name" not in entry:
            raise ValueError(f"{where}: required key 'name' missing")
        checks.append(cls(**entry))
    return checks


def _button_data(value: Any) -> dict[str, Any]:
    if isinstance(value, Button):
        value = value.to_dict()
    if not isinstance(value, Mapping) or set(value) - {"title", "payload"}:
        raise ValueError(f"a button is {{'title': ..., 'payload': ... (optional)}} (got {value!r})")
    title, payload = value.get("title"), value.get("payload")
    if not isinstance(title, str):
        raise ValueError(f"a button's 'title' must be a str (got {title!r})")
    if payload is not None and not isinstance(payload, str):
        raise ValueError(f"a button's 'payload' must be a str (got {payload!r})")
    return {"title": title} if payload is None else {"title": title, "payload": payload}


def _buttons(value: Any) -> tuple[dict[str, Any], ...] | None:
    if value is None:
        return None
    if isinstance(value, str | Mapping | Button) or not isinstance(value, Sequence):
        raise ValueError(f"'buttons' must be a list of buttons (got {value!r})")
    if not value:
        raise ValueError("'buttons' must not be empty: list the buttons the message carries")
    return tuple(_button_data(b) for b in value)


def _text(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is None or isinstance(value, Matcher):
        return
    compile_regex(value, name="text_matches")


def _utter_name(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not value):
        raise TypeError(f"'utter_name' must be a non-empty str (got {value!r})")


@attrs.frozen(slots=False, repr=False, eq=False)
class MessageCheck(Check):
    """The shared fields and selector of ``bot_uttered`` and ``bot_did_not_utter``."""

    utter_name: str | None = attrs.field(default=None, kw_only=True, validator=_utter_name)
    text_matches: str | Matcher | None = attrs.field(default=None, kw_only=True, validator=_text)
    buttons: tuple[dict[str, Any], ...] | None = attrs.field(
        default=None, kw_only=True, converter=_buttons
    )
    _selector: MessageSelector = attrs.field(init=False, eq=False, repr=False)

    @_selector.default
    @given_fields_first
    def _select_messages(self) -> MessageSelector:
        if self.utter_name is None and self.text_matches is None and self.buttons is None:
            raise ValueError(
                f"{self.method}() needs at least one of 'utter_name', 'text_matches', 'buttons'"
            )
        return MessageSelector(
            actor="agent",
            text=self.text_matches,
            utter_name=self.utter_name,
            buttons=self.buttons,
        )

    def selector(self) -> MessageSelector:
        """The ``on.message(actor="agent", …)`` selector of the messages this check reads.

        >>> BotUttered(utter_name="utter_refund_done").selector()
        on.message(actor='agent', utter_name='utter_refund_done')
        """
        return self._selector

    def agent_messages(self, record: TrialRecord) -> list[int]:
        """Positions of the agent's messages.

        >>> from agent_asserts.testing import demo_record
        >>> BotUttered(utter_name="utter_refund_done").agent_messages(demo_record())
        [4]
        """
        return AGENT_MESSAGES.select(record)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "message")
        if invalid is not None:
            return invalid
        details = {"selector": self._selector.describe()}
        return self.verdict(record, self._selector.select(record), details)

    @abc.abstractmethod
    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        """The outcome, given the positions of the agent messages that match every field."""


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class BotUttered(MessageCheck):
    """At least one agent message matches every given field.

    >>> from agent_asserts.record import TrialRecord
    >>> buttons = [{"title": "Yes", "payload": "/y"}]
    >>> rec = TrialRecord.builder().agent("Pick", buttons=buttons).build()
    >>> BotUttered(buttons=[{"title": "Yes"}]).evaluate(rec).message
    'e0 matched'
    """

    method: ClassVar[str] = "bot_uttered"

    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        if matched:
            ids = event_ids(record, matched)
            text = f"{id_list(ids)} matched"
            return Outcome.of(True, message=text, evidence=ids, observed=len(ids), details=details)
        said = self.agent_messages(record)
        if not said:
            return Outcome.of(False, message="the agent sent no message", observed=0)
        closest = closest_fields(self._selector.closest(record, said))
        text = "no agent message matched all given fields "
        text += f"({plural(len(said), 'agent message')}; closest {closest.get('closest')})"
        return Outcome.of(
            False,
            message=text,
            observed=0,
            evidence=event_ids(record, said),
            details=details,
            **closest,
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class BotDidNotUtter(MessageCheck):
    """No agent message matches every given field.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().agent("hi", utter_name="utter_cannot_help").build()
    >>> BotDidNotUtter(utter_name="utter_cannot_help").evaluate(rec).message
    '1 agent message matched: e0'
    """

    method: ClassVar[str] = "bot_did_not_utter"

    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        if not matched:
            said = len(self.agent_messages(record))
            text = f"none of {plural(said, 'agent message')} matched"
            return Outcome.of(True, message=text, observed=0, details=details)
        ids = event_ids(record, matched)
        text = f"{plural(len(ids), 'agent message')} matched: {id_list(ids)}"
        return Outcome.of(False, message=text, evidence=ids, observed=len(ids), details=details)


MAX_TURNS_SHOWN = 6


def _bool(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"'{attribute.name}' must be a bool (got {value!r})")


def _names(value: Iterable[ToolSelector | str] | str) -> tuple[ToolSelector | str, ...]:
    if isinstance(value, str):
        raise TypeError(f"'ignore' must be a list of tool names, not one string (got {value!r})")
    entries = tuple(value)
    for i, entry in enumerate(entries):
        if isinstance(entry, ToolSelector):
            continue
        if not isinstance(entry, str) or not entry:
            raise TypeError(
                f"'ignore[{i}]' must be a tool name or an on.tool(...) selector (got {entry!r})"
            )
    return entries


def _covers(entry: ToolSelector | str, name: str, step: ToolSelector) -> bool:
    """True when ``entry`` ignores every run of ``name`` that the listed call ``step`` matches."""
    if isinstance(entry, str):
        return entry == name
    same_source = entry.source is None or entry.source == step.source
    return name in entry.names and same_source


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class ToolsWithinOneTurn(Check):
    """Every listed call (``on.tool(...)`` or a tool name) ran in one and the same user turn.

    Args:
        *calls: At least two tool selectors; a string is a tool name.
        allow_extra_calls: ``False`` fails a turn holding any other counted run.
        ordered: Require the listed order inside the turn.
        ignore: Tool names, or ``on.tool(...)`` selectors (e.g. only local runs of a name), whose
            runs neither satisfy a call nor count as extra.

    >>> ToolsWithinOneTurn("a", allow_extra_calls=True)
    Traceback (most recent call last):
    ...
    ValueError: tools_within_one_turn() needs at least two calls (got 1)
    """

    calls: tuple[ToolSelector | str, ...]
    allow_extra_calls: bool = attrs.field(validator=_bool)
    ordered: bool = attrs.field(default=False, validator=_bool)
    ignore: tuple[ToolSelector | str, ...] = attrs.field(default=(), converter=_names)
    _steps: tuple[ToolSelector, ...] = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "tools_within_one_turn"
    varargs: ClassVar[str | None] = "calls"

    def __init__(
        self,
        *calls: ToolSelector | str,
        allow_extra_calls: bool,
        ordered: bool = False,
        ignore: Iterable[ToolSelector | str] = (),
    ) -> None:
        self.__attrs_init__(
            calls=tuple(calls),
            allow_extra_calls=allow_extra_calls,
            ordered=ordered,
            ignore=ignore,
        )

    @_steps.default
    @given_fields_first
    def _select_steps(self) -> tuple[ToolSelector, ...]:
        if len(self.calls) < 2:
            raise ValueError(
                f"tools_within_one_turn() needs at least two calls (got {len(self.calls)})"
            )
        steps: list[ToolSelector] = []
        for position, call in enumerate(self.calls):
            step: Selector = as_selector(call, default="tool", name=f"calls[{position}]")
            if not isinstance(step, ToolSelector):
                raise TypeError(
                    f"'calls[{position}]' must be an on.tool(...) selector or a tool name "
                    f"(got {call!r})"
                )
            if all(any(_covers(e, n, step) for e in self.ignore) for n in step.names):
                raise ValueError(
                    f"{step_label(call)} names an ignored tool: it could never be satisfied"
                )
            steps.append(step)
        return tuple(steps)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call", "message")
        if invalid is not None:
            return invalid
        turns: dict[int, list[int]] = {}
        names = {e for e in self.ignore if isinstance(e, str)}
        selectors = [e for e in self.ignore if isinstance(e, ToolSelector)]
        for p in record.positions_of_kind("tool_call"):
            event = record.events[p]
            if tool_name(record, p) in names or any(s.matches(event) for s in selectors):
                continue
            turns.setdefault(event.turn or 0, []).append(p)
        observed = {t: [tool_name(record, p) for p in runs] for t, runs in turns.items()}
        reasons: list[str] = []
        for turn, runs in sorted(turns.items()):
            assigned, why = self._fit(record, runs)
            if why is None:
                ids = event_ids(record, assigned)
                text = f"turn {turn} has every listed call: {id_list(ids, limit=10)}"
                return Outcome.of(True, message=text, evidence=ids, observed=observed)
            reasons.append(f"turn {turn}: {why}")
        counted = event_ids(record, [p for runs in turns.values() for p in runs])
        if not reasons:
            return Outcome.of(False, message="no counted tool run in any turn", observed=observed)
        shown = "; ".join(reasons[:MAX_TURNS_SHOWN])
        if len(reasons) > MAX_TURNS_SHOWN:
            shown += f"; … ({len(reasons)} turns with runs)"
        text = f"no turn has every listed call: {shown}"
        return Outcome.of(False, message=text, evidence=counted, observed=observed)

    def _fit(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        """The runs assigned to the calls (in call order) and why the turn fails, or None."""
        fit = self._fit_ordered if self.ordered else self._fit_unordered
        assigned, why = fit(record, runs)
        if why is None and not self.allow_extra_calls:
            used = set(assigned)
            extra = [p for p in runs if p not in used]
            if extra:
                events = record.events
                shown = ", ".join(f"{tool_name(record, p)!r} ({events[p].event_id})" for p in extra)
                return assigned, f"extra runs not allowed: {shown}"
        return assigned, why

    def _fit_ordered(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        # the earliest-match subsequence search of tool_order/sequencing, over this turn's runs
        found = find_in_order(record, self._steps, within=runs)
        assigned = list(found.positions)
        k = found.missing
        if k is None:
            return assigned, None
        where = "" if k == 0 else f" after {record.events[assigned[-1]].event_id}"
        return assigned, f"{step_label(self.calls[k])} not found{where}"

    def _fit_unordered(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        events = record.events
        adjacency = [[j for j, p in enumerate(runs) if s.matches(events[p])] for s in self._steps]
        matching = maximum_matching(adjacency, len(runs))
        missing = [k for k, j in enumerate(matching) if j < 0]
        if not missing:
            return [runs[j] for j in matching], None
        parts = []
        for k in missing:
            label = step_label(self.calls[k])
            if adjacency[k]:
                parts.append(f"{label} has no run of its own (its runs count toward other calls)")
            else:
                parts.append(f"no run of {label}")
        return [], ", ".join(parts)


__all__ = [
    "LIFECYCLE_CHECKS",
    "BlockCancelled",
    "BlockCompleted",
    "BlockEntered",
    "BlockInterrupted",
    "BlockResumed",
    "BotDidNotUtter",
    "BotUttered",
    "LifecycleCheck",
    "MemoryEntry",
    "MemoryWasCleared",
    "MemoryWasNotSet",
    "MemoryWasSet",
    "MessageCheck",
    "SkillActivated",
    "SkillCancelled",
    "SkillCompleted",
    "SkillInterrupted",
    "SkillResumed",
    "ToolsWithinOneTurn",
    "memory_checks",
]
