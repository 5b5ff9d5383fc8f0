"""Resolving bindings over one record: the selected items, their labels and the evidence.

A binding resolves to a :class:`Bound`: a selection of items (events, delta entries or
extracted values) or one value (a state path, ``extract: count | first | last``). When the
record lacks what it needs (no final state, an unrecorded surface, a missing extract path)
resolving raises :class:`RecordLacks`, and the assertion is ``invalid``.

>>> from agent_asserts.contract.model import Binding
>>> from agent_asserts.testing import demo_record
>>> bound = resolve_binding(Binding("calls", "trace", where={"kind": "tool_call"}), demo_record())
>>> bound.labels, bound.single
(('e1', 'e3'), False)
>>> resolve_binding(Binding("s", "final_state", path="/orders/A1049/status"), demo_record()).items
('refunded',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.contract.grammar import Extract, hash_key, item_form, read_path
from agent_asserts.errors import RecordLacks
from agent_asserts.outcome import missing_surface
from agent_asserts.record import DeltaEntry, Event, resolve
from agent_asserts.selectors import EventSelector

if TYPE_CHECKING:
    from agent_asserts.contract.model import Binding
    from agent_asserts.record import TrialRecord


@attrs.frozen
class Bound:
    """A resolved binding.

    Attributes:
        name: The binding's name.
        single: One value (the quantifier does not apply) rather than a selection.
        items: The selected items; for a single value, one item (none for ``first``/``last``
            of an empty selection).
        labels: One label per item (an event id, ``changed /a/b``, ``final_state#/a``).
        events: The event each item came from (None for states and delta entries).
        positions: That event's position in the record (None likewise).
        evidence: Event ids, ``source#pointer`` strings or delta entries (dicts) used.
        source_size: How many items the underlying selection had (before count/first/last).
    """

    name: str
    single: bool
    items: tuple[Any, ...]
    labels: tuple[str, ...]
    events: tuple[Event | None, ...]
    positions: tuple[int | None, ...]
    evidence: tuple[Any, ...]
    source_size: int

    def forms(self) -> list[Any]:
        """What relations see of each item (``Event.to_dict()`` for events)."""
        return [item_form(item) for item in self.items]

    def value(self) -> Any:
        """A ``{$bind: name}`` operand: the single value, else the list of item forms."""
        if self.single:
            return item_form(self.items[0]) if self.items else MISSING
        return self.forms()


def _path_text(path: Sequence[str | int]) -> str:
    return ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")


def _extracted(
    name: str,
    extract: Extract | None,
    items: list[Any],
    labels: list[str],
    events: list[Event | None],
    positions: list[int | None],
    evidence: tuple[Any, ...],
) -> Bound:
    size = len(items)
    if extract is not None and extract.kind == "count":
        return Bound(name, True, (size,), (f"count of {name!r}",), (None,), (None,), evidence, size)
    if extract is not None and extract.kind in ("first", "last"):
        if not items:
            return Bound(name, True, (), (), (), (), evidence, 0)
        at = 0 if extract.kind == "first" else size - 1
        return Bound(
            name, True, (items[at],), (labels[at],), (events[at],), (positions[at],), evidence, size
        )
    values = items if extract is None else _values(name, extract, items, labels)
    keep: Sequence[int] = range(size)
    if extract is not None and extract.kind == "set":
        seen: dict[Any, int] = {}
        for index, value in enumerate(values):
            seen.setdefault(hash_key(value), index)
        keep = list(seen.values())
    return Bound(
        name,
        False,
        tuple(values[i] for i in keep),
        tuple(labels[i] for i in keep),
        tuple(events[i] for i in keep),
        tuple(positions[i] for i in keep),
        evidence,
        size,
    )


def _values(name: str, extract: Extract, items: list[Any], labels: list[str]) -> list[Any]:
    path = extract.path or ()
    values: list[Any] = []
    for item, label in zip(items, labels, strict=True):
        value = read_path(item_form(item), path)
        if value is MISSING:
            raise RecordLacks(
                f"{label} has no value at {_path_text(path)} (extract of binding {name!r})"
            )
        values.append(value)
    return values


def _trace(binding: Binding, record: TrialRecord) -> Bound:
    where: Mapping[str, Any] = binding.where
    kind = where.get("kind")
    if kind is not None:
        outcome = missing_surface(record, kind)
        if outcome is not None:
            raise RecordLacks(f"{outcome.message} (binding {binding.name!r})")
    filters = {k: v for k, v in where.items() if k not in ("kind", "event_type")}
    selector = EventSelector(kind=kind, event_type=where.get("event_type"), filters=filters)
    positions = selector.select(record)
    events = [record.events[i] for i in positions]
    labels = [e.event_id for e in events]
    return _extracted(
        binding.name,
        binding.parsed_extract,
        list(events),
        labels,
        list(events),
        list(positions),
        tuple(labels),
    )


def _state(binding: Binding, record: TrialRecord) -> Bound:
    state = record.initial_state if binding.source == "initial_state" else record.final_state
    if state is None:
        what = binding.source.replace("_", " ")
        raise RecordLacks(f"the record has no {what} (binding {binding.name!r})")
    pointer = binding.path or ""
    label = f"{binding.source}#{pointer}"
    return Bound(
        binding.name, True, (resolve(state, pointer),), (label,), (None,), (None,), (label,), 1
    )


def _under(path: str, prefix: str) -> bool:
    return prefix == "" or path == prefix or path.startswith(prefix + "/")


def _delta(binding: Binding, record: TrialRecord) -> Bound:
    delta = record.delta
    if delta is None:
        raise RecordLacks(
            f"the record has no delta: it needs both the initial and the final state "
            f"(binding {binding.name!r})"
        )
    prefix = binding.where.get("path")
    ops = binding.where.get("op")
    wanted = None if ops is None else ({ops} if isinstance(ops, str) else set(ops))
    entries: list[DeltaEntry] = [
        e
        for e in delta
        if (prefix is None or _under(e.path, prefix)) and (wanted is None or e.op in wanted)
    ]
    labels = [f"{e.op} {e.path}" for e in entries]
    evidence = tuple(e.to_dict() for e in entries)
    nones: list[Any] = [None] * len(entries)
    return _extracted(
        binding.name, binding.parsed_extract, list(entries), labels, nones, list(nones), evidence
    )


def resolve_binding(binding: Binding, record: TrialRecord) -> Bound:
    """Resolve one binding over ``record``.

    Raises:
        RecordLacks: The record lacks what the binding needs.
    """
    if binding.source == "trace":
        return _trace(binding, record)
    if binding.source == "delta":
        return _delta(binding, record)
    return _state(binding, record)


__all__ = ["Bound", "RecordLacks", "resolve_binding"]
