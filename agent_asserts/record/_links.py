"""Validation of the span tree: every ``parent_id`` names another event, and no cycles.

>>> links = [(0, "e0", "e1"), (1, "e1", "e0"), (2, "e2", "nope")]
>>> for path, message in parent_problems(links, {"e0": 0, "e1": 1, "e2": 2}):
...     print(f"{path}: {message}")
$.events[2].parent_id: no event has id 'nope'
$.events[0].parent_id: parent_id cycle: 'e0' -> 'e1' -> 'e0'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Problems = list[tuple[str, str]]


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


__all__ = ["parent_problems"]
