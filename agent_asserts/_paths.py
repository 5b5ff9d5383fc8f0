"""Key paths as text: the one way a problem's place in a document is written.

Used by the suite-file loaders (``goals.assertions[2].source``) and by contract problems
(``assertions[0].require.left``), so both point at a key the same way.

>>> format_path(("assertions", 0, "bind", "my audits"))
"assertions[0].bind['my audits']"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

PathPart = str | int
"""One step of a key path: a mapping key or a list index."""

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*\Z")


def format_path(path: Sequence[PathPart]) -> str:
    """``goals.assertions[2].source``; odd keys are quoted (``changed['/a b']``).

    Args:
        path: Mapping keys and list indexes from the document root.

    Returns:
        The text; ``''`` for the document itself.

    >>> format_path(("goals", "assertions", 2, "tool_executed", "source"))
    'goals.assertions[2].tool_executed.source'
    >>> format_path(("state", "/orders/A1", 0))
    "state['/orders/A1'][0]"
    >>> format_path(())
    ''
    """
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENTIFIER.match(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{part!r}]")
    return "".join(out)


__all__ = ["PathPart", "format_path"]
