"""Suggestions for misspelt names: the one place that finds the closest known word.

Used wherever a misspelt name is reported (record keys, builder keyword arguments, event
filters, matcher operators, suite-file keys), so every message suggests the same way.

>>> closest_word("stauts", ["status", "steps"])
'status'
>>> did_you_mean("tunr", ["turn", "phase"])
" (did you mean 'turn'?)"
>>> did_you_mean("zzz", ["turn"])
''
>>> unknown_key_message("nme", ["name", "record"])
"unknown key 'nme' (did you mean 'name'?)"
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

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


def choice_list(choices: Sequence[object]) -> str:
    """``'a'``, ``'a' or 'b'``, or ``one of 'a', 'b', 'c'``.

    >>> choice_list(["local", "mcp"])
    "'local' or 'mcp'"
    >>> choice_list(["a", "b", "c"])
    "one of 'a', 'b', 'c'"
    """
    shown = [repr(c) for c in choices]
    if len(shown) == 1:
        return shown[0]
    if len(shown) == 2:
        return f"{shown[0]} or {shown[1]}"
    return "one of " + ", ".join(shown)


def unknown_key_message(
    key: str, allowed: Sequence[str], *, what: str = "key", list_at_most: int | None = 12
) -> str:
    """``unknown key 'x' (did you mean 'y'?)``, else the allowed keys when there are few.

    Args:
        key: The unknown key (or operator, type… as ``what`` says).
        allowed: The known keys.
        what: The word for a key in the message.
        list_at_most: The most allowed keys the message lists; None lists them all.

    Returns:
        The message.

    >>> unknown_key_message("zz", ["name", "record"])
    "unknown key 'zz' (expected 'name' or 'record')"
    >>> unknown_key_message("zz", ["a", "b", "c"], what="operator", list_at_most=2)
    "unknown operator 'zz'"
    """
    close = closest_word(key, allowed)
    if close is not None:
        return f"unknown {what} {key!r} (did you mean {close!r}?)"
    if allowed and (list_at_most is None or len(allowed) <= list_at_most):
        return f"unknown {what} {key!r} (expected {choice_list(allowed)})"
    return f"unknown {what} {key!r}"


__all__ = ["CUTOFF", "choice_list", "closest_word", "did_you_mean", "unknown_key_message"]
