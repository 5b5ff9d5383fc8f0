"""Load problems and the error that carries them all (both defined in :mod:`agent_asserts.errors`).

A suite file is checked completely before anything runs: every problem found in it becomes a
:class:`LoadProblem` (file, line, column, key path, message), and :class:`LoadError` carries the
whole list, sorted by position, one problem a line.

>>> err = LoadError([
...     LoadProblem("s.yml", 4, 7, "checks[1]", "unknown key 'nme' (did you mean 'name'?)"),
...     LoadProblem("s.yml", 2, 3, "name", "must be a string (got 3)"),
... ])
>>> print(err)
s.yml:2:3: name: must be a string (got 3)
s.yml:4:7: checks[1]: unknown key 'nme' (did you mean 'name'?)
"""

from __future__ import annotations

from collections.abc import Iterable

from agent_asserts._text import choice_list, closest_word, unknown_key_message
from agent_asserts.errors import LoadError, LoadProblem


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest of ``choices`` to a misspelt ``word``, or None.

    >>> suggest("tool_nme", ["tool_name", "arguments"])
    'tool_name'
    >>> suggest("zzz", ["tool_name"]) is None
    True
    """
    return closest_word(word, choices)


__all__ = ["LoadError", "LoadProblem", "choice_list", "suggest", "unknown_key_message"]
