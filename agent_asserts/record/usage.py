"""Token usage of a run or of one model call.

>>> Usage(input_tokens=900, output_tokens=120).total_tokens
1020
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

USAGE_COUNTERS: Final = ("input_tokens", "output_tokens", "total_tokens")
"""The named counters of :class:`Usage` (any other counter goes to ``details``)."""


@attrs.frozen(repr=False, init=False)
class Usage:
    """Token counts; ``total_tokens`` defaults to input + output when both are given.

    Attributes:
        input_tokens: Prompt tokens, or None when not recorded.
        output_tokens: Completion tokens, or None when not recorded.
        total_tokens: All tokens; derived from the other two when not given.
        details: Further non-negative integer counters by name (``cached_input_tokens``,
            ``reasoning_tokens``… any key).
        reported_by: Free text on how the counts were obtained (whether cache tokens are
            inside ``input_tokens``, or that the run-level usage is a sum over model calls).

    >>> Usage(input_tokens=10, output_tokens=5)
    Usage(input_tokens=10, output_tokens=5, total_tokens=15)
    >>> Usage(total_tokens=7, details={"reasoning_tokens": 2}).to_dict()
    {'total_tokens': 7, 'details': {'reasoning_tokens': 2}}
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    details: Mapping[str, int] = attrs.field(factory=dict)
    reported_by: str | None = None

    def __init__(
        self,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        total_tokens: int | None = None,
        details: Mapping[str, int] = attrs.NOTHING,  # type: ignore[assignment]
        reported_by: str | None = None,
    ) -> None:
        # total_tokens is derived here, before the fields are set (a frozen instance is never
        # written after): attrs' own __init__ sets them
        if total_tokens is None and input_tokens is not None and output_tokens is not None:
            total_tokens = input_tokens + output_tokens
        given: Any = details  # attrs.NOTHING when not given, as attrs' own __init__ shows
        details = {} if given is attrs.NOTHING else given
        self.__attrs_init__(input_tokens, output_tokens, total_tokens, details, reported_by)

    def __repr__(self) -> str:
        parts = [
            f"input_tokens={self.input_tokens!r}",
            f"output_tokens={self.output_tokens!r}",
            f"total_tokens={self.total_tokens!r}",
        ]
        if self.details:
            parts.append(f"details={dict(self.details)!r}")
        if self.reported_by is not None:
            parts.append(f"reported_by={self.reported_by!r}")
        return f"Usage({', '.join(parts)})"

    def counter(self, name: str) -> int | None:
        """The value of a named counter or a ``details`` key; None when not recorded.

        >>> Usage(5, 1, details={"cached_input_tokens": 3}).counter("cached_input_tokens")
        3
        >>> Usage(5, 1).counter("total_tokens"), Usage(5, 1).counter("reasoning_tokens")
        (6, None)
        """
        if name in USAGE_COUNTERS:
            value: int | None = getattr(self, name)
            return value
        return self.details.get(name)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form, omitting counts that were not recorded.

        >>> Usage(1, 2).to_dict()
        {'input_tokens': 1, 'output_tokens': 2, 'total_tokens': 3}
        """
        out: dict[str, Any] = {}
        if self.input_tokens is not None:
            out["input_tokens"] = self.input_tokens
        if self.output_tokens is not None:
            out["output_tokens"] = self.output_tokens
        if self.total_tokens is not None:
            out["total_tokens"] = self.total_tokens
        if self.details:
            out["details"] = dict(self.details)
        if self.reported_by is not None:
            out["reported_by"] = self.reported_by
        return out


__all__ = ["USAGE_COUNTERS", "Usage"]
