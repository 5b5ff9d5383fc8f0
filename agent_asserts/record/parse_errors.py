"""Items of a foreign trace that an adapter could not decode (kept, never dropped silently).

>>> print(ParseError("events[4]", "unknown event type 'foo'", source="trace.json"))
trace.json:events[4]: unknown event type 'foo'
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ParseError:
    """One undecodable item of a foreign trace.

    Attributes:
        position: Where the item was in the source (``events[4]``, ``line 12``).
        reason: Why it could not be decoded.
        item: The raw item (JSON data), or None.
        source: The file or stream name, or None.

    >>> str(ParseError("line 3", "not JSON"))
    'line 3: not JSON'
    >>> ParseError("line 3", "not JSON", item="{oops").to_dict()
    {'position': 'line 3', 'reason': 'not JSON', 'item': '{oops'}
    """

    position: str
    reason: str
    item: Any = None
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


__all__ = ["ParseError"]
