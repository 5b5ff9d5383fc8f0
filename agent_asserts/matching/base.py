"""The matcher protocol: :class:`Matcher`, :class:`Mismatch`, :class:`MatcherError`, paths, and
the plain-data (``$``-operator) form of values that hold matchers.

A matcher answers two questions about an actual value: does it match (``matches``, the fast
path, no allocation on success) and, if not, why (``explain``, a list of :class:`Mismatch`
whose ``path`` says where in the actual value the problem is).

>>> from agent_asserts.matching import M
>>> m = M.gt(1) & M.lt(5)
>>> m
M.all_of(M.gt(1), M.lt(5))
>>> m.matches(3), [str(x) for x in m.explain(7)]
(True, ['$: expected a number < 5, got 7'])

:func:`value_to_data` turns a value that may contain matchers into plain YAML/JSON data. A
mapping key that starts with ``$`` is an operator in the data form, so a *literal* key that
starts with ``$`` is written with one more ``$`` (``$name`` → ``$$name``); ``from_data``
(:mod:`agent_asserts.matching.operators`) undoes it.

>>> value_to_data({"amount": M.gt(3), "$ref": "x", "tags": ("a",)})
{'amount': {'$gt': 3}, '$$ref': 'x', 'tags': ['a']}
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.matching.values import is_list, render

ROOT = "$"
"""The path of the whole actual value."""


def key_path(path: str, key: object) -> str:
    """Extend a path with a mapping key: ``.key`` for identifier-like keys, ``['odd key']`` else.

    Args:
        path: The path of the mapping.
        key: The key.

    Returns:
        The path of the value under ``key``.

    >>> key_path("$", "amount"), key_path("$.a", "odd key"), key_path("$", 3)
    ('$.amount', "$.a['odd key']", '$[3]')
    """
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def index_path(path: str, index: int) -> str:
    """Extend a path with a list index: ``[2]``.

    Args:
        path: The path of the list.
        index: The item's position.

    Returns:
        The path of the item.

    >>> index_path("$.items", 2)
    '$.items[2]'
    """
    return f"{path}[{index}]"


@attrs.frozen
class Mismatch:
    """One reason why an actual value does not match, and where.

    Attributes:
        path: Where in the actual value (``$.arguments.items[2].sku``).
        expected: The expected value or matcher at that path.
        actual: The actual value there (``MISSING`` for an absent key).
        reason: Short text such as ``expected 42, got 40``.

    >>> str(Mismatch("$.amount", 42, 40, "expected 42, got 40"))
    '$.amount: expected 42, got 40'
    """

    path: str
    expected: Any
    actual: Any
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class MatcherError(AgentAssertsError):
    """A matcher could not decide: a user predicate (``M.satisfies``, ``Count.satisfies``) raised.

    It is neither a match nor a mismatch; the checks layer records it as ``EVALUATOR_ERROR``.
    The original exception is ``original`` (and ``__cause__``).

    Attributes:
        matcher: The repr of the matcher (or count) whose predicate raised.
        original: The exception the predicate raised.

    >>> err = MatcherError("M.satisfies(f)", ValueError("boom"))
    >>> str(err)
    'M.satisfies(f) raised ValueError: boom'
    """

    def __init__(self, matcher: str, original: BaseException) -> None:
        self.matcher = matcher
        self.original = original
        super().__init__(f"{matcher} raised {type(original).__name__}: {original}")


class Matcher(abc.ABC):
    """Base class of every matcher; concrete matchers are frozen attrs classes.

    Subclasses implement :meth:`explain`, :meth:`describe` and :meth:`to_data`, and override
    :meth:`matches` with a fast path that builds no :class:`Mismatch`.
    ``m1 & m2``, ``m1 | m2`` and ``~m`` build ``M.all_of``, ``M.any_of`` and ``M.not_``.

    >>> from agent_asserts.matching import M
    >>> (~M.regex("x")).matches("abc"), (M.one_of(1, 2) | M.gt(10)).matches(11)
    (True, True)
    """

    __argument_text__ = "Matcher (M.*)"  # how an argument-type error names what it accepts

    __slots__ = ()

    @abc.abstractmethod
    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        """List why ``actual`` does not match (empty when it matches).

        Args:
            actual: The actual value.
            path: The path of ``actual`` in the whole value.

        Returns:
            The mismatches, empty on a match.

        >>> from agent_asserts.matching import M
        >>> M.gt(3).explain(2, "$.n")
        [Mismatch(path='$.n', expected=M.gt(3), actual=2, reason='expected a number > 3, got 2')]
        """

    def matches(self, actual: Any) -> bool:
        """Tell whether ``actual`` matches.

        Args:
            actual: The actual value.

        Returns:
            True exactly when :meth:`explain` would return an empty list.

        >>> from agent_asserts.matching import M
        >>> M.regex("dup.*").matches("a duplicate")
        True
        """
        return not self.explain(actual)

    @abc.abstractmethod
    def describe(self) -> str:
        """Describe what the matcher accepts, as used in ``expected …`` reasons.

        Returns:
            Text such as ``a match of 'dup.*'`` or ``a number > 3``.

        >>> from agent_asserts.matching import M
        >>> M.regex("dup.*").describe()
        "a match of 'dup.*'"
        """

    @abc.abstractmethod
    def to_data(self) -> Any:
        """Return the YAML/JSON ``$``-operator form; ``from_data`` turns it back.

        Returns:
            Plain data such as ``{"$regex": "dup.*"}``.

        Raises:
            TypeError: For ``M.satisfies``, which has no data form.

        >>> from agent_asserts.matching import M
        >>> M.between(1, 3).to_data()
        {'$between': [1, 3]}
        """

    def _fail(self, actual: Any, path: str, note: str = "") -> list[Mismatch]:
        """Build the usual single mismatch ``expected {describe}, got {actual}{note}``."""
        reason = f"expected {self.describe()}, got {render(actual)}{note}"
        return [Mismatch(path, self, actual, reason)]

    def __and__(self, other: Any) -> Matcher:
        from agent_asserts.matching.combinators import all_of

        return all_of(self, other)

    def __rand__(self, other: Any) -> Matcher:
        from agent_asserts.matching.combinators import all_of

        return all_of(other, self)

    def __or__(self, other: Any) -> Matcher:
        from agent_asserts.matching.combinators import any_of

        return any_of(self, other)

    def __ror__(self, other: Any) -> Matcher:
        from agent_asserts.matching.combinators import any_of

        return any_of(other, self)

    def __invert__(self) -> Matcher:
        from agent_asserts.matching.combinators import NotMatcher

        return NotMatcher(self)


def describe_value(expected: Any) -> str:
    """Describe an expected value: a matcher's :meth:`~Matcher.describe`, else :func:`render`.

    Args:
        expected: A matcher or a plain value.

    Returns:
        The description.

    >>> from agent_asserts.matching import M
    >>> describe_value(M.gt(3)), describe_value("a")
    ('a number > 3', "'a'")
    """
    if isinstance(expected, Matcher):
        return expected.describe()
    return render(expected)


def escape_key(key: Any) -> Any:
    """Escape a literal mapping key for the data form (``$x`` → ``$$x``).

    Args:
        key: A mapping key.

    Returns:
        The key as written in data.

    >>> escape_key("$name"), escape_key("name"), escape_key(1)
    ('$$name', 'name', 1)
    """
    if isinstance(key, str) and key.startswith("$"):
        return "$" + key
    return key


def unescape_key(key: Any) -> Any:
    """Undo :func:`escape_key` on a plain (non-operator) data key (``$$x`` → ``$x``).

    Args:
        key: A key read from data.

    Returns:
        The literal key.

    >>> unescape_key("$$name"), unescape_key("name")
    ('$name', 'name')
    """
    if isinstance(key, str) and key.startswith("$$"):
        return key[1:]
    return key


def value_to_data(value: Any) -> Any:
    """Turn a value that may contain matchers into plain data.

    Matchers become their ``$``-operator form (:meth:`Matcher.to_data`), tuples become lists,
    literal ``$`` keys are escaped as ``$$``; other values are returned as they are.

    Args:
        value: A plain value, a matcher, or a structure containing matchers.

    Returns:
        Data that ``from_data`` turns back into an equal value.

    Raises:
        TypeError: For ``MISSING`` (write ``M.absent()``) and for ``M.satisfies``.

    >>> from agent_asserts.matching import M
    >>> value_to_data([M.regex("^A"), {"n": 1}])
    [{'$regex': '^A'}, {'n': 1}]
    """
    if isinstance(value, Matcher):
        return value.to_data()
    if isinstance(value, Mapping):
        return {escape_key(k): value_to_data(v) for k, v in value.items()}
    if is_list(value):
        return [value_to_data(item) for item in value]
    if value is MISSING:
        raise TypeError("MISSING has no YAML/JSON form; write M.absent() to expect no value")
    return value


__all__ = [
    "ROOT",
    "Matcher",
    "MatcherError",
    "Mismatch",
    "describe_value",
    "escape_key",
    "index_path",
    "key_path",
    "unescape_key",
    "value_to_data",
]
