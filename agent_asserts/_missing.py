"""The ``MISSING`` sentinel: "no value here", distinct from JSON ``null`` (``None``).

>>> from agent_asserts import MISSING
>>> MISSING
MISSING
>>> bool(MISSING)
False
"""

from __future__ import annotations

from typing import Final, Literal


class _Missing:
    """The type of :data:`MISSING`; there is exactly one instance."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> Literal[False]:
        return False

    def __reduce__(self) -> str:
        return "MISSING"

    def __copy__(self) -> _Missing:
        return self

    def __deepcopy__(self, memo: object) -> _Missing:
        return self


MISSING: Final = _Missing()
"""An absent value: a missing key, a memory clear, a state path that does not exist."""

__all__ = ["MISSING"]
