"""Events decoded on first read: a record loaded from a file keeps its checked event objects
and builds its ``events`` tuple the first time something reads it.

``TrialRecord.load`` (and every reader of files: :func:`agent_asserts.iter_records`) checks
each event at load time exactly as ``TrialRecord.from_dict`` does — a malformed record still
fails there, with the same errors — but does not build one ``Event`` and one payload object per
event: it keeps the parsed objects (which nothing else holds) with the plan of
:func:`~agent_asserts.record._event_decode.check_events` (each event's derived turn), in the
record's ``__dict__`` under :data:`PENDING`. ``TrialRecord.__getattr__`` (only called while
``events`` is absent from the ``__dict__``) builds the tuple once, stores it where attrs keeps
the field, and drops the parsed objects; from then on the record is exactly an eagerly built
one. Equality, hashing, ``repr``, ``to_dict``, the indexes and ``attrs.evolve`` all read
``events``, so they build it first. A pickle (or ``copy``) of a record not read yet carries
the parsed objects, and builds its own events on first read: equal to the original's.

Building is under one lock, so threads reading a fresh record at once get one tuple.

>>> import json, pathlib, tempfile
>>> from agent_asserts import TrialRecord
>>> file = pathlib.Path(tempfile.mkdtemp()) / "run.json"
>>> _ = file.write_text(json.dumps({"events": [{"kind": "step", "payload": {"i": 1}}]}))
>>> rec = TrialRecord.load(file)
>>> is_pending(rec)
True
>>> rec.events[0].payload, is_pending(rec)
({'i': 1}, False)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from agent_asserts.record._event_decode import Plan, build_events
from agent_asserts.record._fast import kept
from agent_asserts.record.event import Event

PENDING: Final = "_pending_events"
"""The key of a lazily loaded record's :class:`PendingEvents` in its ``__dict__``."""

_BUILDING = threading.Lock()


def _new_lock() -> None:
    """A fresh lock in a forked child (a thread of the parent may have held it at the fork)."""
    global _BUILDING
    _BUILDING = threading.Lock()


os.register_at_fork(after_in_child=_new_lock)


class PendingEvents(NamedTuple):
    """The checked events of a record, not built yet.

    Attributes:
        raw: The parsed ``events`` list (owned: nothing else holds it).
        plan: What :func:`~agent_asserts.record._event_decode.check_events` found, by position.
    """

    raw: Sequence[Any]
    plan: Plan

    def build(self) -> tuple[Event, ...]:
        """The events, sharing their values with the parsed objects.

        >>> PendingEvents([{"kind": "step"}], [0]).build()[0].kind
        'step'
        """
        return build_events(self.raw, self.plan, kept)


def defer(state: dict[str, Any], pending: PendingEvents) -> None:
    """Make the record whose ``__dict__`` is ``state`` build its events from ``pending`` on
    first read (``state`` holds the placeholder ``events`` its ``__init__`` set)."""
    del state["events"]
    state[PENDING] = pending


def is_pending(record: Any) -> bool:
    """Whether ``record`` has not built its events yet (for tests and benchmarks).

    >>> from agent_asserts import TrialRecord
    >>> is_pending(TrialRecord.from_dict({"events": [{"kind": "step"}]}))
    False
    """
    return PENDING in record.__dict__


def pending_of(record: Any) -> PendingEvents | None:
    """The events ``record`` has not built yet, or None (built, or never deferred)."""
    pending: PendingEvents | None = record.__dict__.get(PENDING)
    return pending


def built_events(state: dict[str, Any]) -> tuple[Event, ...] | None:
    """The events of the record whose ``__dict__`` is ``state``, built once (under a lock, so
    that concurrent first reads get the same tuple); None when ``state`` has neither events nor
    pending ones (an instance made without ``__init__``, as ``pickle`` makes it before
    restoring its state).
    """
    with _BUILDING:
        events: tuple[Event, ...] | None = state.get("events")
        if events is None:
            pending: PendingEvents | None = state.get(PENDING)
            if pending is None:
                return None
            events = pending.build()
            state["events"] = events
            del state[PENDING]
    return events


__all__ = ["PENDING", "PendingEvents", "built_events", "defer", "is_pending", "pending_of"]
