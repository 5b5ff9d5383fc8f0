"""The root of every exception the library raises on purpose.

Catch :class:`AgentAssertsError` to catch them all: a record that cannot be decoded
(:class:`~agent_asserts.record.RecordError`), a suite file that cannot be loaded
(``agent_asserts.loaders.LoadError``), a contract mistake, a judge error, a matcher built
with bad arguments. Each keeps its historical built-in base too (``ValueError`` for input
errors), so existing ``except ValueError`` code goes on working.

>>> from agent_asserts import RecordError, TrialRecord
>>> try:
...     TrialRecord.from_dict({"events": 3})
... except AgentAssertsError as exc:
...     print(type(exc).__name__)
RecordError
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs


class AgentAssertsError(Exception):
    """The base class of every exception ``agent_asserts`` raises on purpose."""


@attrs.frozen
class LoadProblem:
    """One problem of a suite file.

    ``line`` and ``col`` are 1-based and ``None`` when unknown (data given as Python objects,
    or JSON read without PyYAML); ``path`` is the key path (``goals.assertions[2].source``),
    empty for the document itself.

    >>> str(LoadProblem("s.yml", 14, 9, "goals[2].source", "must be 'local' or 'mcp' (got 'x')"))
    "s.yml:14:9: goals[2].source: must be 'local' or 'mcp' (got 'x')"
    >>> str(LoadProblem("<data>", None, None, "", "unknown document shape"))
    '<data>: unknown document shape'
    """

    file: str
    line: int | None
    col: int | None
    path: str
    message: str

    @property
    def location(self) -> str:
        """``file:line:col``, or ``file`` alone when the position is unknown.

        >>> LoadProblem("a.json", 3, 1, "", "x").location
        'a.json:3:1'
        """
        if self.line is None:
            return self.file
        if self.col is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"

    def sort_key(self) -> tuple[int, int]:
        """Position order; problems without a position keep their order (stable sort).

        >>> LoadProblem("s.yml", 3, 7, "name", "bad").sort_key()
        (3, 7)
        """
        return (self.line or 0, self.col or 0)

    def __str__(self) -> str:
        prefix = f"{self.location}: {self.path}: " if self.path else f"{self.location}: "
        return prefix + self.message


class LoadError(AgentAssertsError, ValueError):
    """Every problem of a suite file; ``str()`` lists them one a line, sorted by position.

    >>> err = LoadError([LoadProblem("s.yml", 1, 1, "", "the file is empty")])
    >>> err.problems[0].message
    'the file is empty'
    """

    def __init__(self, problems: Iterable[LoadProblem]) -> None:
        unique = list(dict.fromkeys(problems))
        self.problems: tuple[LoadProblem, ...] = tuple(sorted(unique, key=LoadProblem.sort_key))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[LoadError], tuple[tuple[LoadProblem, ...]]]:
        return (type(self), (self.problems,))


__all__ = ["AgentAssertsError", "LoadError", "LoadProblem"]
