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

from collections.abc import Iterable, Sequence
from typing import ClassVar

import attrs

from agent_asserts._values import PathPart, format_path


class AgentAssertsError(Exception):
    """The base class of every exception ``agent_asserts`` raises on purpose."""


class RecordWarning(UserWarning):
    """A record loaded, but part of it looks like a mistake: a payload key that is an alias or
    a near miss of one of the payload's fields (``args`` for ``arguments``), kept in ``extra``.

    >>> import warnings
    >>> from agent_asserts import TrialRecord
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = TrialRecord.from_dict({"events": [{"kind": "tool_call",
    ...                                            "payload": {"name": "t", "args": {"a": 1}}}]})
    >>> print(caught[0].category.__name__, caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    RecordWarning $.events[0].payload.args: unknown key kept in 'extra';
    it looks like 'arguments' (rename it)
    """


@attrs.frozen(repr=False, init=False)
class Problem:
    """One problem of an input, with where it is: the one problem type of the library.

    The record decoder (JSON paths), the suite-file loaders (file, line, column and key path),
    the contract validator and the ``$``-operator reader (key paths) all report these.

    Attributes:
        path: Where in the document, as text (``$.events[3].payload.name``,
            ``goals[2].source``, ``assertions[0].bind``); ``''`` for the document itself.
            Give it as text or as key-path parts (``("assertions", 0, "bind")``).
        parts: The key-path parts when the path was given as parts, else ``(path,)`` (or
            ``()`` for the document).
        message: What is wrong (``required field missing``).
        source: The file (or other label) the document came from; None for in-memory data.
        line: The 1-based line in ``source``, when known.
        col: The 1-based column in ``source``, when known.
        key: For a problem about a key of the mapping at ``path`` (an unknown key), that key:
            the text shows the mapping's path, a loader points at the key's own position.
        hint: How to fix it, when the message does not say (shown after it).

    >>> str(Problem("$.events[3].payload.name", "required field missing"))
    '$.events[3].payload.name: required field missing'
    >>> str(Problem("$.steps", "must be an integer (got 'four')", source="run.json"))
    "run.json: $.steps: must be an integer (got 'four')"
    >>> p = Problem(("assertions", 0, "bind", "my audits"), "unknown binding")
    >>> str(p), p.parts
    ("assertions[0].bind['my audits']: unknown binding", ('assertions', 0, 'bind', 'my audits'))
    >>> str(Problem("goals[2].source", "must be 'local' or 'mcp' (got 'x')",
    ...             source="s.yml", line=14, col=9))
    "s.yml:14:9: goals[2].source: must be 'local' or 'mcp' (got 'x')"
    >>> str(Problem("", "no extra", hint="pip install 'agent-asserts[yaml]'"))
    "no extra; pip install 'agent-asserts[yaml]'"
    """

    path: str
    message: str
    source: str | None
    line: int | None
    col: int | None
    key: str | None
    hint: str | None
    parts: tuple[PathPart, ...]

    def __init__(
        self,
        path: str | Sequence[PathPart],
        message: str,
        source: str | None = None,
        *,
        line: int | None = None,
        col: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        parts: tuple[PathPart, ...]
        if isinstance(path, str):
            text, parts = path, ((path,) if path else ())
        else:
            parts = tuple(path)
            text = format_path(parts)
        self.__attrs_init__(text, message, source, line, col, key, hint, parts)

    @property
    def file(self) -> str:
        """The source label (``''`` for in-memory data): the loaders' name for ``source``."""
        return self.source or ""

    @property
    def location(self) -> str:
        """``file:line:col``, ``file:line`` or ``file`` as far as the position is known.

        >>> Problem("", "x", source="a.json", line=3, col=1).location
        'a.json:3:1'
        """
        if self.line is None:
            return self.file
        if self.col is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"

    def sort_key(self) -> tuple[int, int]:
        """Position order; problems without a position keep their order (stable sort).

        >>> Problem("name", "bad", source="s.yml", line=3, col=7).sort_key()
        (3, 7)
        """
        return (self.line or 0, self.col or 0)

    def __str__(self) -> str:
        message = f"{self.message}; {self.hint}" if self.hint else self.message
        return ": ".join(part for part in (self.location, self.path, message) if part)

    def __repr__(self) -> str:
        shown = [f"path={self.path!r}", f"message={self.message!r}", f"source={self.source!r}"]
        for name in ("line", "col", "key", "hint"):
            value = getattr(self, name)
            if value is not None:
                shown.append(f"{name}={value!r}")
        return f"Problem({', '.join(shown)})"


def LoadProblem(  # noqa: N802 - the loaders' historical constructor, kept by name
    file: str, line: int | None, col: int | None, path: str, message: str
) -> Problem:
    """A :class:`Problem` of a suite file at a position (the loaders' argument order).

    ``line`` and ``col`` are 1-based and ``None`` when unknown (data given as Python objects,
    or JSON read without PyYAML); ``path`` is the key path (``goals.assertions[2].source``),
    empty for the document itself.

    >>> str(LoadProblem("s.yml", 14, 9, "goals[2].source", "must be 'local' or 'mcp' (got 'x')"))
    "s.yml:14:9: goals[2].source: must be 'local' or 'mcp' (got 'x')"
    >>> str(LoadProblem("<data>", None, None, "", "unknown document shape"))
    '<data>: unknown document shape'
    """
    return Problem(path, message, source=file, line=line, col=col)


class Unavailable(AgentAssertsError, ImportError):
    """An optional part of the library needs an extra that is not installed; the message ends
    with the ``pip install`` line that fixes it.

    >>> print(Unavailable("reading YAML needs PyYAML", extra="yaml"))
    reading YAML needs PyYAML: pip install 'agent-asserts[yaml]'
    >>> isinstance(Unavailable("x", extra="yaml"), ImportError)
    True
    """

    def __init__(self, needs: str, *, extra: str, note: str = "") -> None:
        self.needs = needs
        self.extra = extra
        text = f"{needs}: pip install 'agent-asserts[{extra}]'"
        super().__init__(f"{text} {note}" if note else text)


class RecordLacks(AgentAssertsError):
    """Internal: the record lacks what a value source or a contract binding needs (a surface,
    a state path); the check or assertion becomes ``invalid`` with this text. Never escapes
    the evaluation of a check.

    >>> str(RecordLacks("the record has no final state"))
    'the record has no final state'
    """


class Collector:
    """The one problem collector: gathers :class:`Problem` objects while an input is read, so
    every problem is reported at once, then raises them together.

    Subclasses name their error (``error_type``) and add the ways their readers locate a
    problem: the loaders' ``ProblemCollector`` by document node (file, line, column), the
    contract's ``Problems`` by key path under a prefix.

    >>> class Demo(Collector):
    ...     error_type = LoadError
    >>> c = Demo()
    >>> c.record(Problem("name", "must be a string (got 3)", source="s.yml", line=2, col=3))
    >>> len(c), str(c.error())
    (1, 's.yml:2:3: name: must be a string (got 3)')
    """

    error_type: ClassVar[type[AgentAssertsError]]

    def __init__(self, sink: list[Problem] | None = None) -> None:
        self.problems: list[Problem] = [] if sink is None else sink

    def record(self, problem: Problem) -> None:
        """Keep ``problem``."""
        self.problems.append(problem)

    def __len__(self) -> int:
        return len(self.problems)

    def error(self) -> AgentAssertsError:
        """The error carrying every problem recorded so far."""
        return type(self).error_type(self.problems)

    def raise_if_any(self) -> None:
        """Raise :meth:`error` when a problem was recorded."""
        if self.problems:
            raise self.error()


class LoadError(AgentAssertsError, ValueError):
    """Every problem of a suite file; ``str()`` lists them one a line, sorted by position.

    >>> err = LoadError([LoadProblem("s.yml", 1, 1, "", "the file is empty")])
    >>> err.problems[0].message
    'the file is empty'
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        unique = list(dict.fromkeys(problems))
        self.problems: tuple[Problem, ...] = tuple(sorted(unique, key=Problem.sort_key))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[LoadError], tuple[tuple[Problem, ...]]]:
        return (type(self), (self.problems,))


__all__ = [
    "AgentAssertsError",
    "Collector",
    "LoadError",
    "LoadProblem",
    "Problem",
    "RecordLacks",
    "RecordWarning",
    "Unavailable",
]
