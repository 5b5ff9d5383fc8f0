"""Edit distance between two strings, with the C extension imported on first use.

``Levenshtein`` (and the ``rapidfuzz`` modules it loads) costs several milliseconds to import;
only similarity matching and "did you mean" suggestions need it, so ``import agent_asserts``
and the fluent API's first import do not pay for it.

>>> edit_distance("stpe", "step"), edit_distance("", "abc")
(2, 3)
"""

from __future__ import annotations


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance: insertions, deletions and substitutions, one each."""
    import Levenshtein  # third-party C extension, deferred: see the module docstring

    distance: int = Levenshtein.distance(a, b)
    return distance


__all__ = ["edit_distance"]
