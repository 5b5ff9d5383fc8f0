"""Time views of a record: when each event started, relative to the run's first event.

An event's time is its ``wall_time`` (ISO 8601 text or epoch seconds) when the record has
wall times, else its ``monotonic_time``; the two are never mixed. The run lasts from the
earliest event time to the latest end (time + ``duration``).

>>> from agent_asserts.record import TrialRecord
>>> rec = (TrialRecord.builder().user("hi", wall_time="2026-05-01T10:00:00Z")
...        .tool("lookup", {}, wall_time="2026-05-01T10:00:02Z", duration=1.5).build())
>>> rec.timeline.elapsed(1), rec.timeline.duration
(2.0, 3.5)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from agent_asserts.record.event import Event


def _seconds(value: str | float | None) -> float | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return float(value)
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


@attrs.frozen
class Timeline:
    """The start time (seconds) of every timed event and the run's bounds.

    Attributes:
        basis: ``"wall_time"``, ``"monotonic_time"``, or None when no event has a time.
        starts: Position → start time in seconds, for the events that have one.
        unreadable: Positions whose ``wall_time`` is text that is not an ISO 8601 time.
        start: The earliest start, or None.
        end: The latest end (start + duration), or None.
    """

    basis: str | None
    starts: dict[int, float]
    unreadable: tuple[int, ...]
    start: float | None
    end: float | None

    @classmethod
    def build(cls, events: Sequence[Event]) -> Timeline:
        """Read the times of ``events`` once.

        >>> Timeline.build(()).basis is None
        True
        """
        basis = None
        if any(e.wall_time is not None for e in events):
            basis = "wall_time"
        elif any(e.monotonic_time is not None for e in events):
            basis = "monotonic_time"
        starts: dict[int, float] = {}
        unreadable: list[int] = []
        end: float | None = None
        if basis is not None:
            for position, event in enumerate(events):
                raw = event.wall_time if basis == "wall_time" else event.monotonic_time
                seconds = _seconds(raw)
                if seconds is None:
                    if raw is not None:
                        unreadable.append(position)
                    continue
                starts[position] = seconds
                finish = seconds + (event.duration or 0.0)
                end = finish if end is None else max(end, finish)
        start = min(starts.values()) if starts else None
        return cls(basis, starts, tuple(unreadable), start, end)

    def elapsed(self, position: int) -> float | None:
        """Seconds from the run's first event to the start of the event at ``position``.

        >>> Timeline("monotonic_time", {0: 5.0, 2: 7.5}, (), 5.0, 7.5).elapsed(2)
        2.5
        """
        at = self.starts.get(position)
        return None if at is None or self.start is None else at - self.start

    @property
    def duration(self) -> float | None:
        """How long the run lasted (first start to last end), or None without times.

        >>> Timeline(None, {}, (), None, None).duration is None
        True
        """
        if self.start is None or self.end is None:
            return None
        return self.end - self.start


__all__ = ["Timeline"]
