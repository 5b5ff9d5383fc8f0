"""Pattern search under a time limit: the one place a regular expression is run on data.

:func:`search` is ``compiled.search(text)``: the ``re`` engine, whose semantics the docs
describe. Under a time limit (``run_case(timeout=...)``, ``agent-asserts check --timeout``,
``evaluate_many(timeout=...)``) armed in the main thread, the limit's signal interrupts
``re`` itself. Under a limit armed in another thread (thread pools, the live processor),
where no signal can reach the match, the same pattern runs on the ``regex`` engine when the
``regex`` package is installed (the ``regex`` extra), with the time left as its match
``timeout``; past it, the case's ``TimeLimitExceeded`` is raised. The ``regex`` engine's
timeout is checked coarsely: it may overrun by a few seconds on the worst patterns.

>>> search(re.compile("A\\\\d+"), "order A1049").group(0)
'A1049'
"""

from __future__ import annotations

import functools
import re
from typing import Any

from agent_asserts._deadline import expired, re_interruptible, remaining


@functools.lru_cache(maxsize=256)
def _timed_engine(pattern: str) -> Any:
    try:
        import regex  # the optional engine, imported only when a limit needs it
    except ImportError:
        return None
    try:
        return regex.compile(pattern)
    except Exception:  # a pattern ``re`` accepts but ``regex`` does not: keep ``re``
        return None


def search(compiled: re.Pattern[str], text: str) -> Any:
    """``compiled.search(text)``, bounded by the armed time limit (if any).

    Returns the match object (``re.Match`` or ``regex.Match``, same ``group``/``span``) or
    None.
    """
    if re_interruptible() or compiled.flags & ~re.UNICODE:
        return compiled.search(text)
    engine = _timed_engine(compiled.pattern)
    if engine is None:
        return compiled.search(text)
    try:
        return engine.search(text, timeout=max(remaining() or 0.0, 1e-3))
    except TimeoutError:
        raise expired() from None


__all__ = ["search"]
