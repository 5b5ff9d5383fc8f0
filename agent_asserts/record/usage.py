"""Token usage of a run.

>>> Usage(input_tokens=900, output_tokens=120).total_tokens
1020
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Usage:
    """Token counts of a run; ``total_tokens`` defaults to input + output when both are given.

    Attributes:
        input_tokens: Prompt tokens, or None when not recorded.
        output_tokens: Completion tokens, or None when not recorded.
        total_tokens: All tokens; derived from the other two when not given.

    >>> Usage(input_tokens=10, output_tokens=5)
    Usage(input_tokens=10, output_tokens=5, total_tokens=15)
    >>> Usage(total_tokens=7).to_dict()
    {'total_tokens': 7}
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None

    def __attrs_post_init__(self) -> None:
        if (
            self.total_tokens is None
            and self.input_tokens is not None
            and self.output_tokens is not None
        ):
            object.__setattr__(self, "total_tokens", self.input_tokens + self.output_tokens)

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
        return out


__all__ = ["Usage"]
