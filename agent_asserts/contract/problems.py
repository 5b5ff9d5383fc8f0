"""Contract problems: every mistake of one contract, each with its key path, in one error.

A contract is checked completely before it runs. Each problem names the key path where it was
written (``assertions[0].require.left``); :class:`ContractError` carries all of them.

>>> problems = Problems()
>>> problems.add(("assertions", 0, "require", "left"), "'mutatons' is not bound")
>>> print(problems.error())
assertions[0].require.left: 'mutatons' is not bound
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agent_asserts._text import choice_list, closest_word, unknown_key_message
from agent_asserts._values import PathPart, format_path
from agent_asserts.errors import AgentAssertsError, Collector, Problem

KeyPath = tuple[PathPart, ...]


ContractProblem = Problem
"""One contract problem: a :class:`~agent_asserts.errors.Problem` whose ``path`` is the key
path (and ``key`` the key itself for a problem about a key, such as an unknown one).

>>> str(ContractProblem(("assertions", 0), "unknown key 'bnd'", key="bnd"))
"assertions[0]: unknown key 'bnd'"
"""


class ContractError(AgentAssertsError, ValueError):
    """A contract (or one of its parts) is malformed; ``problems`` lists every problem found.

    >>> err = ContractError([ContractProblem(("op",), "unknown op 'eqals'")])
    >>> str(err), len(err.problems)
    ("op: unknown op 'eqals'", 1)
    """

    def __init__(self, problems: Iterable[ContractProblem]) -> None:
        self.problems: tuple[ContractProblem, ...] = tuple(dict.fromkeys(problems))
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            lines = "\n".join(f"  {p}" for p in self.problems)
            text = f"{len(self.problems)} problems in the contract:\n{lines}"
        super().__init__(text)

    def __reduce__(self) -> tuple[type[ContractError], tuple[tuple[ContractProblem, ...]]]:
        return (type(self), (self.problems,))


class Problems(Collector):
    """Collects problems while a contract is read or built, under a path prefix.

    >>> p = Problems(("assertions", 1))
    >>> p.at("require").add(("op",), "unknown op 'x'")
    >>> [str(x) for x in p.problems]
    ["assertions[1].require.op: unknown op 'x'"]
    """

    error_type = ContractError

    def __init__(self, prefix: KeyPath = (), sink: list[Problem] | None = None) -> None:
        super().__init__(sink)
        self.prefix = prefix

    def at(self, *parts: PathPart) -> Problems:
        """A collector writing to the same list under a longer prefix."""
        return Problems((*self.prefix, *parts), self.problems)

    def add(self, path: KeyPath, message: str, *, key: str | None = None) -> None:
        """Record ``message`` at ``path`` (relative to the prefix)."""
        self.problems.append(Problem((*self.prefix, *path), message, key=key))

    def unknown_key(self, path: KeyPath, key: str, allowed: Sequence[str]) -> None:
        """Record ``unknown key 'x' (did you mean 'y'?)`` for ``key`` of the mapping at ``path``."""
        self.add(path, unknown_key_message(key, allowed, list_at_most=None), key=key)

    def error(self) -> ContractError:
        """A :class:`ContractError` with every problem recorded so far."""
        return ContractError(self.problems)


def bad_choice(value: object, allowed: Sequence[str]) -> str:
    """``must be one of … (got 'x')`` with a suggestion for a misspelt word.

    >>> bad_choice("evry", ["every", "some", "none"])
    "must be one of 'every', 'some', 'none' (got 'evry'; did you mean 'every'?)"
    """
    close = closest_word(value, allowed) if isinstance(value, str) else None
    hint = "" if close is None else f"; did you mean {close!r}?"
    return f"must be {choice_list(allowed)} (got {value!r}{hint})"


__all__ = [
    "ContractError",
    "ContractProblem",
    "KeyPath",
    "PathPart",
    "Problems",
    "bad_choice",
    "format_path",
]
