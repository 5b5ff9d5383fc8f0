"""Matchers without structure: anything, non-empty, absent, and a Python predicate.

>>> from agent_asserts._values import MISSING
>>> from agent_asserts.matching import M
>>> M.anything().matches(MISSING), M.non_empty().matches(""), M.absent().matches(None)
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching.base import ROOT, Matcher, MatcherError, Mismatch
from agent_asserts.matching.values import is_list


@attrs.frozen(repr=False)
class AnythingMatcher(Matcher):
    """``M.anything()`` (also ``ANY``): no constraint; even ``MISSING`` matches.

    >>> from agent_asserts.matching import M
    >>> M.anything().matches(None), M.anything().explain(42)
    (True, [])
    """

    def matches(self, actual: Any) -> bool:
        return True

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return []

    def describe(self) -> str:
        return "anything"

    def to_data(self) -> Any:
        return {"$anything": True}

    def __repr__(self) -> str:
        return "M.anything()"


def is_non_empty(actual: Any) -> bool:
    """The cxas ``*`` wildcard: a non-empty string/list/mapping, or any other non-null value.

    Args:
        actual: The actual value.

    Returns:
        False for ``""``, ``[]``, ``{}``, ``None`` and ``MISSING``; True otherwise (``0`` and
        ``False`` are values).

    >>> is_non_empty("x"), is_non_empty([]), is_non_empty(0), is_non_empty(None)
    (True, False, True, False)
    """
    if actual is None or actual is MISSING:
        return False
    if isinstance(actual, str | Mapping) or is_list(actual):
        return len(actual) > 0
    return True


@attrs.frozen(repr=False)
class NonEmptyMatcher(Matcher):
    """``M.non_empty()``: the cxas ``*`` wildcard (see :func:`is_non_empty`).

    >>> from agent_asserts.matching import M
    >>> M.non_empty().matches({"a": 1}), M.non_empty().matches({})
    (True, False)
    """

    def matches(self, actual: Any) -> bool:
        return is_non_empty(actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if is_non_empty(actual) else self._fail(actual, path)

    def describe(self) -> str:
        return "a non-empty value"

    def to_data(self) -> Any:
        return {"$non_empty": True}

    def __repr__(self) -> str:
        return "M.non_empty()"


@attrs.frozen(repr=False)
class AbsentMatcher(Matcher):
    """``M.absent()``: only ``MISSING`` (an absent key or state path) matches; ``None`` is a value.

    >>> from agent_asserts.matching import M, matches
    >>> matches({"a": M.absent()}, {}), matches({"a": M.absent()}, {"a": None})
    (True, False)
    """

    def matches(self, actual: Any) -> bool:
        return actual is MISSING

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if actual is MISSING else self._fail(actual, path)

    def describe(self) -> str:
        return "absent"

    def to_data(self) -> Any:
        return {"$absent": True}

    def __repr__(self) -> str:
        return "M.absent()"


def _validate_callable(_: Any, __: Any, value: Any) -> None:
    if not callable(value):
        raise ValueError(f"M.satisfies() takes a callable (got {value!r})")


def callable_name(fn: Callable[..., Any]) -> str:
    """Name a callable for reprs: its ``__qualname__`` (``<lambda>`` for lambdas), else ``repr``.

    Args:
        fn: The callable.

    Returns:
        A short name.

    >>> callable_name(len), callable_name(lambda n: n > 1)
    ('len', '<lambda>')
    """
    name = getattr(fn, "__qualname__", None)
    return name if isinstance(name, str) else repr(fn)


@attrs.frozen(repr=False)
class SatisfiesMatcher(Matcher):
    """``M.satisfies(fn)``: ``bool(fn(actual))``; a raising predicate raises :class:`MatcherError`.

    A raising predicate is neither a pass nor a fail: the checks layer records it as an
    ``EVALUATOR_ERROR``. A missing value never satisfies (the predicate is not called): the key
    must exist.

    >>> from agent_asserts.matching import M
    >>> def is_even(n: int) -> bool:
    ...     return n % 2 == 0
    >>> M.satisfies(is_even).matches(4), M.satisfies(is_even).explain(3)[0].reason
    (True, 'expected a value satisfying is_even, got 3')
    >>> M.satisfies(is_even).matches("x")
    Traceback (most recent call last):
    ...
    agent_asserts.matching.base.MatcherError: M.satisfies(is_even) raised TypeError: ...
    """

    fn: Callable[[Any], object] = attrs.field(validator=_validate_callable)

    def matches(self, actual: Any) -> bool:
        if actual is MISSING:
            return False
        try:
            return bool(self.fn(actual))
        except Exception as exc:
            raise MatcherError(repr(self), exc) from exc

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if self.matches(actual) else self._fail(actual, path)

    def describe(self) -> str:
        return f"a value satisfying {callable_name(self.fn)}"

    def to_data(self) -> Any:
        raise TypeError("M.satisfies(...) takes a Python callable and has no YAML/JSON form")

    def __repr__(self) -> str:
        return f"M.satisfies({callable_name(self.fn)})"


__all__ = [
    "AbsentMatcher",
    "AnythingMatcher",
    "NonEmptyMatcher",
    "SatisfiesMatcher",
    "callable_name",
    "is_non_empty",
]
