"""A value with where it was written: what the one reader of check fields walks.

Two things are read as a check's fields: a suite file's nodes (file:line:col positions, the
loaders' collector) and plain data (JSON paths, the cattrs converter). The reader
(:mod:`agent_asserts.checks.field_reader`, :mod:`agent_asserts.checks.expect_reader`) walks an
opaque *handle* ``at`` through a :class:`Reading`, which knows the handle's kind of location:
what the value is (:meth:`~Reading.peek`), its items or members, and where and how a problem is
reported. :class:`DataReading` reads plain data; the loaders' ``NodeReading`` reads nodes.

The wording of a type problem is this module's, once: ``must be {what} (got …)``, ``is required
(got null)``. A location family renders the value (``got``) its own way (``true``, ``a list``
in suite files; Python's repr in data), and the few words the two families have always used
differently are one table, :data:`WORDS`, with a column for each.

>>> problems: list[tuple[str, str]] = []
>>> data = DataReading(problems)
>>> at = ([1, "x"], "$.names")
>>> [data.peek(item) for item in data.items_of(at)], data.peek(at) is IS_LIST
([1, 'x'], True)
>>> data.wrong_type(data.items_of(at)[0], "str", "a string")
>>> problems
[('$.names[0]', 'must be a string (got 1)')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

from agent_asserts.record.validators import child, got

L = TypeVar("L")
Problems = list[tuple[str, str]]
DataAt = tuple[Any, str]
"""A plain-data handle: the value and its JSON path."""


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


IS_LIST: Final = _Marker("IS_LIST")
"""What :meth:`Reading.peek` says of a list."""
IS_MAPPING: Final = _Marker("IS_MAPPING")
"""What :meth:`Reading.peek` says of a mapping."""
UNREADABLE: Final = _Marker("UNREADABLE")
"""What :meth:`Reading.peek` says of a value whose problem was already reported (a bad tag)."""


_COUNT_FORMS = "{at_least: n}, {at_most: n} or {between: [low, high]}"
WORDS: Final[dict[str, tuple[str, str]]] = {
    # where the two families word a problem differently: (suite files, JSON data); the data
    # words are those of JSON data elsewhere in the library (the record decoder's "must be a
    # boolean", the texts of Count.from_data)
    "boolean": ("true or false", "a boolean"),
    "not a count": (
        f"must be a count: an int, {_COUNT_FORMS}",
        f"a count is an int, {_COUNT_FORMS}",
    ),
    "negative count": ("must be >= 0", "a count takes an int >= 0"),
    "callable": (
        "takes a Python callable and cannot be written in a suite file",
        "takes a Python callable, which has no data form",
    ),
}
"""The few words the suite files and the JSON data form have always used differently."""


class Reading(Generic[L]):
    """How values of one kind of location are looked at and where their problems go.

    ``FAMILY`` picks the column of :data:`WORDS` (0: suite files, 1: JSON data);
    ``NULL_IS_A_VALUE`` is True where ``null`` is a value an ``any`` or ``data`` field may
    hold (written data: ``MemoryWasSet(name, None)``), False where a ``null`` is a forgotten
    value (a suite file).
    """

    FAMILY = 0
    NULL_IS_A_VALUE = False

    def words(self, problem: str) -> str:
        """This family's words for ``problem`` (a key of :data:`WORDS`).

        >>> Reading().words("boolean"), DataReading([]).words("boolean")
        ('true or false', 'a boolean')
        """
        return WORDS[problem][self.FAMILY]

    def peek(self, at: L) -> Any:
        """The scalar at ``at``, or :data:`IS_LIST`, :data:`IS_MAPPING`, :data:`UNREADABLE`."""
        raise NotImplementedError

    def items_of(self, at: L) -> Sequence[L]:
        """The items of a list."""
        raise NotImplementedError

    def keys_of(self, at: L) -> Collection[str]:
        """The keys of a mapping."""
        raise NotImplementedError

    def member(self, at: L, key: str) -> L:
        """The value under ``key`` of a mapping."""
        raise NotImplementedError

    def plain(self, at: L) -> Any:
        """The value as plain data (dicts, lists, scalars)."""
        raise NotImplementedError

    def got(self, at: L) -> str:
        """The value as a message shows it after ``got``."""
        raise NotImplementedError

    def problem(self, at: L, message: str) -> None:
        """Report ``message`` at ``at``."""
        raise NotImplementedError

    def key_problem(self, at: L, key: str, message: str) -> None:
        """Report ``message`` about the key ``key`` of the mapping at ``at``."""
        raise NotImplementedError

    def raised(self, at: L, exc: Exception) -> None:
        """Report what a constructor or decoder raised; an error listing its own problems at
        relative paths gives one problem each, at its own place."""
        raise NotImplementedError

    def problem_count(self) -> int:
        """How many problems were reported so far."""
        raise NotImplementedError

    def unreadable_below(self, at: L) -> bool:
        """True when a value at or below ``at`` could not be read (already reported)."""
        return False

    def must_be(self, at: L, kind: str, what: str) -> str:
        """The message for a value that is not ``what`` (a field of ``kind``)."""
        return f"must be {what} (got {self.got(at)})"

    def wrong_type(self, at: L, kind: str, what: str) -> None:
        """Report that the value is not ``what``: ``is required (got null)`` for a null, nothing
        more for an unreadable value, else :meth:`must_be`.

        >>> problems: list[tuple[str, str]] = []
        >>> data = DataReading(problems)
        >>> data.wrong_type((None, "$.a"), "str", "a string")
        >>> data.wrong_type(("yes", "$.b"), "bool", data.words("boolean"))
        >>> problems
        [('$.a', 'is required (got null)'), ('$.b', "must be a boolean (got 'yes')")]
        """
        value = self.peek(at)
        if value is UNREADABLE:
            return
        self.problem(
            at, "is required (got null)" if value is None else self.must_be(at, kind, what)
        )


class DataReading(Reading[DataAt]):
    """Plain data (what ``to_data`` wrote) with JSON paths; problems as ``(path, message)``."""

    FAMILY = 1
    NULL_IS_A_VALUE = True

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def peek(self, at: DataAt) -> Any:
        value = at[0]
        if isinstance(value, list | tuple):
            return IS_LIST
        return IS_MAPPING if isinstance(value, Mapping) else value

    def items_of(self, at: DataAt) -> Sequence[DataAt]:
        path = at[1]
        return [(value, child(path, i)) for i, value in enumerate(at[0])]

    def keys_of(self, at: DataAt) -> Collection[str]:
        keys: Collection[str] = at[0].keys()
        return keys

    def member(self, at: DataAt, key: str) -> DataAt:
        return at[0][key], child(at[1], key)

    def plain(self, at: DataAt) -> Any:
        return at[0]

    def got(self, at: DataAt) -> str:
        return got(at[0])

    def problem(self, at: DataAt, message: str) -> None:
        self.problems.append((at[1], message))

    def key_problem(self, at: DataAt, key: str, message: str) -> None:
        self.problems.append((at[1], message))

    def raised(self, at: DataAt, exc: Exception) -> None:
        self.problems.extend(problems_of(exc, at[1]))

    def problem_count(self) -> int:
        return len(self.problems)


def problems_of(exc: Exception, path: str) -> Problems:
    """``exc`` as problems under ``path``: an error listing its own problems at relative key
    paths (``OperatorError``, ``ContractError``) gives one each, at its JSON path.

    >>> from agent_asserts.matching import OperatorError
    >>> problems_of(OperatorError("unknown operator '$regx'", ("id", "$regx")), "$.x.arguments")
    [("$.x.arguments.id['$regx']", "unknown operator '$regx'")]
    >>> problems_of(ValueError("bad"), "$.x")
    [('$.x', 'bad')]
    """
    found = getattr(exc, "problems", None)
    if not isinstance(found, tuple | list) or not found:
        return [(path, str(exc))]
    out: Problems = []
    for item in found:
        where = path
        for part in getattr(item, "parts", ()):
            where = child(where, part)
        out.append((where, str(getattr(item, "message", item))))
    return out


__all__ = [
    "IS_LIST",
    "IS_MAPPING",
    "UNREADABLE",
    "DataAt",
    "DataReading",
    "Problems",
    "Reading",
    "problems_of",
]
