"""Suggestions for misspelt names: the one place that finds the closest known word.

Used wherever a misspelt name is reported (record keys, builder keyword arguments, event
filters, matcher operators, suite-file keys), so every message suggests the same way.

>>> closest_word("stauts", ["status", "steps"])
'status'
>>> did_you_mean("tunr", ["turn", "phase"])
" (did you mean 'turn'?)"
>>> did_you_mean("zzz", ["turn"])
''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6
"""How alike a word and a suggestion must be (``difflib``'s ratio), unless a caller says."""


def closest_word(word: str, choices: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The choice most like ``word`` (at least ``cutoff`` alike), or None.

    Args:
        word: The misspelt word.
        choices: The known words.
        cutoff: The least similarity (0 to 1) a suggestion must have.

    Returns:
        The closest choice, or None when none is close enough.

    >>> closest_word("tpyo", ["type", "kind"], cutoff=0.5)
    'type'
    >>> closest_word("zzz", ["type"]) is None
    True
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or ``''`` when none is close.

    >>> "unknown key 'nme'" + did_you_mean("nme", ["name"])
    "unknown key 'nme' (did you mean 'name'?)"
    """
    close = closest_word(word, choices, cutoff=cutoff)
    return "" if close is None else f" (did you mean {close!r}?)"


__all__ = ["CUTOFF", "closest_word", "did_you_mean"]
