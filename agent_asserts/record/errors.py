"""What goes wrong with record data: :class:`RecordError` (every problem with its JSON path) and
:class:`ParseError` (an item an adapter could not decode, kept in the record).

Errors raised for invalid records: every problem, each with its JSON path.

>>> err = RecordError([Problem("$.steps", "must be an integer (got 'four')")])
>>> print(err)
invalid record: 1 problem(s)
  $.steps: must be an integer (got 'four')

Items of a foreign trace that an adapter could not decode (kept, never dropped silently).

>>> print(ParseError("events[4]", "unknown event type 'foo'", source="trace.json"))
trace.json:events[4]: unknown event type 'foo'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import attrs

from agent_asserts._values import MAX_DEPTH, capped
from agent_asserts.errors import AgentAssertsError, Problem


class RecordError(AgentAssertsError, ValueError):
    """A record could not be built: lists every problem found, not only the first.

    Args:
        problems: The problems, in the order they were found.

    >>> err = RecordError([Problem("$.events[0].kind", "required field missing")])
    >>> err.problems
    (Problem(path='$.events[0].kind', message='required field missing', source=None),)
    >>> str(err).splitlines()[0]
    'invalid record: 1 problem(s)'
    """

    problems: tuple[Problem, ...]

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(self._render())

    def _render(self) -> str:
        lines = [f"invalid record: {len(self.problems)} problem(s)"]
        lines.extend(f"  {problem}" for problem in self.problems)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self._render()

    def __reduce__(self) -> tuple[type[RecordError], tuple[tuple[Problem, ...]]]:
        return (type(self), (self.problems,))


ITEM_DEPTH: Final = MAX_DEPTH - 3
"""How deep a parse error's item may be: it sits three levels down in a record
(``parse_errors``, the error, ``item``)."""


def _kept_item(item: Any) -> Any:
    """attrs converter: a parse error's item, capped at :data:`ITEM_DEPTH`."""
    return capped(item, ITEM_DEPTH)


@attrs.frozen
class ParseError:
    """One undecodable item of a foreign trace.

    Attributes:
        position: Where the item was in the source (``events[4]``, ``line 12``).
        reason: Why it could not be decoded.
        item: The raw item (JSON data), or None. Parts nested deeper than the record's depth
            limit allows at ``parse_errors[i].item`` are replaced by a note, so that the record
            written out (``to_dict``) loads back.
        source: The file or stream name, or None.

    >>> str(ParseError("line 3", "not JSON"))
    'line 3: not JSON'
    >>> ParseError("line 3", "not JSON", item="{oops").to_dict()
    {'position': 'line 3', 'reason': 'not JSON', 'item': '{oops'}
    """

    position: str
    reason: str
    item: Any = attrs.field(default=None, converter=_kept_item)
    source: str | None = None

    def __str__(self) -> str:
        prefix = f"{self.source}:" if self.source is not None else ""
        return f"{prefix}{self.position}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``item`` and ``source`` omitted when None).

        >>> ParseError("e1", "bad").to_dict()
        {'position': 'e1', 'reason': 'bad'}
        """
        out: dict[str, Any] = {"position": self.position, "reason": self.reason}
        if self.item is not None:
            out["item"] = self.item
        if self.source is not None:
            out["source"] = self.source
        return out


__all__ = [
    "ParseError",
    "Problem",
    "RecordError",
]
