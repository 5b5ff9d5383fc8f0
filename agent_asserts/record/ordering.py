"""Order with parallel groups: events sharing a ``group_id`` have no order among them.

An event *strictly precedes* another when its group (itself, when it has no ``group_id``) ends
before the other's group starts. Order-sensitive checks use :class:`GroupSpans` to say
"after" that way, so two tool calls issued in one model response are never ordered.

>>> from agent_asserts.record import TrialRecord
>>> rec = (TrialRecord.builder().tool("a", group_id="r1").tool("b", group_id="r1")
...        .tool("c").build())
>>> spans = rec.groups
>>> spans.precedes(0, 1), spans.precedes(0, 2), spans.parallel(0, 1)
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from agent_asserts.record.event import Event


@attrs.frozen
class GroupSpans:
    """The first and last position of every parallel group of a record.

    Attributes:
        spans: ``group_id`` → ``(first position, last position)``.
        group_of: Position → ``group_id``, for the events that have one.
    """

    spans: dict[str, tuple[int, int]]
    group_of: dict[int, str]

    @classmethod
    def build(cls, events: Sequence[Event]) -> GroupSpans:
        """Scan the events once.

        >>> GroupSpans.build(()).spans
        {}
        """
        spans: dict[str, tuple[int, int]] = {}
        group_of: dict[int, str] = {}
        for position, event in enumerate(events):
            group = event.group_id
            if group is not None:
                group_of[position] = group
                first = spans.get(group)
                spans[group] = (position, position) if first is None else (first[0], position)
        return cls(spans, group_of)

    def start(self, position: int) -> int:
        """Where the group of the event at ``position`` starts (the position itself alone).

        >>> GroupSpans({"g": (1, 3)}, {1: "g", 3: "g"}).start(3)
        1
        """
        group = self.group_of.get(position)
        return position if group is None else self.spans[group][0]

    def end(self, position: int) -> int:
        """Where the group of the event at ``position`` ends (the position itself alone).

        >>> GroupSpans({"g": (1, 3)}, {1: "g", 3: "g"}).end(1)
        3
        """
        group = self.group_of.get(position)
        return position if group is None else self.spans[group][1]

    def precedes(self, earlier: int, later: int) -> bool:
        """True when the event at ``earlier`` strictly precedes the one at ``later``.

        >>> GroupSpans({}, {}).precedes(1, 2)
        True
        """
        if not self.group_of:
            return earlier < later
        return self.end(earlier) < self.start(later)

    def parallel(self, a: int, b: int) -> bool:
        """True when two different events share a group.

        >>> GroupSpans({"g": (0, 1)}, {0: "g", 1: "g"}).parallel(0, 1)
        True
        """
        group = self.group_of.get(a)
        return a != b and group is not None and self.group_of.get(b) == group


__all__ = ["GroupSpans"]
