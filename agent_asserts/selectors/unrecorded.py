"""Tool calls whose arguments were not recorded: how argument matchers treat them.

A call without recorded arguments (``ToolCallPayload.arguments`` is ``MISSING``) neither
matches nor fails an argument matcher: the result of a check may depend on it. Checks are
evaluated with such calls treated as *not* matching (the default) and, when the record has
any, again with them treated as matching (:func:`unrecorded_as_matching`); a check whose
status differs between the two is ``invalid`` ("arguments not recorded"), never a fail.

>>> unrecorded_match()
False
>>> with unrecorded_as_matching():
...     unrecorded_match()
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_MATCH: ContextVar[bool] = ContextVar("unrecorded_arguments_match", default=False)


def unrecorded_match() -> bool:
    """Whether a call without recorded arguments counts as matching an argument matcher now.

    >>> unrecorded_match()
    False
    """
    return _MATCH.get()


@contextlib.contextmanager
def unrecorded_as_matching() -> Iterator[None]:
    """Within the block, calls without recorded arguments match every argument matcher.

    >>> with unrecorded_as_matching():
    ...     pass
    """
    token = _MATCH.set(True)
    try:
        yield
    finally:
        _MATCH.reset(token)


__all__ = ["unrecorded_as_matching", "unrecorded_match"]
