"""Errors raised for invalid records: every problem, each with its JSON path.

>>> err = RecordError([Problem("$.steps", "must be an integer (got 'four')")])
>>> print(err)
invalid record: 1 problem(s)
  $.steps: must be an integer (got 'four')
"""

from __future__ import annotations

from collections.abc import Iterable

from agent_asserts.errors import AgentAssertsError, Problem


class RecordError(AgentAssertsError, ValueError):
    """A record could not be built: lists every problem found, not only the first.

    Args:
        problems: The problems, in the order they were found.

    >>> err = RecordError([Problem("$.events[0].kind", "required field missing")])
    >>> err.problems
    (Problem(path='$.events[0].kind', message='required field missing', source=None),)
    >>> str(err).splitlines()[0]
    'invalid record: 1 problem(s)'
    """

    problems: tuple[Problem, ...]

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(self._render())

    def _render(self) -> str:
        lines = [f"invalid record: {len(self.problems)} problem(s)"]
        lines.extend(f"  {problem}" for problem in self.problems)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self._render()

    def __reduce__(self) -> tuple[type[RecordError], tuple[tuple[Problem, ...]]]:
        return (type(self), (self.problems,))


__all__ = ["Problem", "RecordError"]
