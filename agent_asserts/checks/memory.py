"""Memory checks: ``memory_was_set``, ``memory_was_not_set``, ``memory_was_cleared``.

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
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._lazy import LazyText
from agent_asserts._missing import MISSING
from agent_asserts._suggest import did_you_mean
from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import closest_fields, event_ids, id_list
from agent_asserts.checks.suggest_names import held_hint
from agent_asserts.matching import Matcher, render
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import MemoryPayload
from agent_asserts.selectors.calls import MemoryClearedSelector, MemorySetSelector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def _times(n: int) -> str:
    return f"{n} time" if n == 1 else f"{n} times"


def _written(record: TrialRecord, position: int) -> Any:
    payload = record.events[position].payload
    return payload.value if isinstance(payload, MemoryPayload) else MISSING


def _value_text(value: Any) -> str:
    return value.describe() if isinstance(value, Matcher) else render(value)


@attrs.frozen
class _MemoryCheck(Check):
    name: str
    value: Any = MISSING
    _writes: MemorySetSelector = attrs.field(init=False, eq=False, repr=False)
    positional: ClassVar[tuple[str, ...]] = ("name",)
    list_entries: ClassVar[bool] = True

    @_writes.default
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
@attrs.frozen
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
@attrs.frozen
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
@attrs.frozen
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


__all__ = ["MemoryEntry", "MemoryWasCleared", "MemoryWasNotSet", "MemoryWasSet", "memory_checks"]
