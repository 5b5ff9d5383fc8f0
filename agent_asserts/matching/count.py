"""``Count``: how many matching things a check expects (``called_tool(..., count=…)``).

>>> Count.of(None), Count.of(2), Count.between(1, 3).matches(3)
(Count.at_least(1), Count.exactly(2), True)
>>> Count.at_most(2).describe(), Count.at_least(2).to_data()
('at most 2', {'at_least': 2})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

import attrs

from agent_asserts.matching.base import MatcherError
from agent_asserts.matching.scalar import callable_name

CountKind = Literal["exactly", "at_least", "at_most", "between", "satisfies"]


def _check_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} takes an int >= 0 (got {value!r})")
    return value


@attrs.frozen(repr=False)
class Count:
    """An expected count: exactly, at least, at most, between (inclusive), or a predicate.

    Build one with the class methods; ``Count.of`` accepts the shorthand forms of the checks'
    ``count=`` parameter (``None`` = at least one, an int = exactly).

    Attributes:
        kind: ``"exactly"``, ``"at_least"``, ``"at_most"``, ``"between"`` or ``"satisfies"``.
        low: The lower bound (``exactly``, ``at_least``, ``between``), else None.
        high: The upper bound (``exactly``, ``at_most``, ``between``), else None.
        fn: The predicate of ``Count.satisfies``, else None.

    >>> Count.exactly(1).matches(1), Count.at_least(2).matches(1)
    (True, False)
    """

    kind: CountKind
    low: int | None = None
    high: int | None = None
    fn: Callable[[int], object] | None = None

    @classmethod
    def exactly(cls, n: int) -> Count:
        """Exactly ``n``.

        >>> Count.exactly(2).matches(2)
        True
        """
        n = _check_count("Count.exactly()", n)
        return cls("exactly", n, n)

    @classmethod
    def at_least(cls, n: int) -> Count:
        """``n`` or more.

        >>> Count.at_least(1).matches(5)
        True
        """
        return cls("at_least", _check_count("Count.at_least()", n), None)

    @classmethod
    def at_most(cls, n: int) -> Count:
        """``n`` or fewer.

        >>> Count.at_most(1).matches(2)
        False
        """
        return cls("at_most", None, _check_count("Count.at_most()", n))

    @classmethod
    def between(cls, low: int, high: int) -> Count:
        """From ``low`` to ``high``, both included.

        Raises:
            ValueError: When a bound is not an int >= 0 or ``low > high``.

        >>> Count.between(1, 2).matches(2), Count.between(1, 2).matches(0)
        (True, False)
        """
        low = _check_count("Count.between()", low)
        high = _check_count("Count.between()", high)
        if low > high:
            raise ValueError(f"Count.between() needs low <= high (got {low!r}, {high!r})")
        return cls("between", low, high)

    @classmethod
    def satisfies(cls, fn: Callable[[int], object]) -> Count:
        """Any count for which ``fn(n)`` is true (a raising ``fn`` raises ``MatcherError``).

        >>> Count.satisfies(lambda n: n % 2 == 0).matches(4)
        True
        """
        if not callable(fn):
            raise ValueError(f"Count.satisfies() takes a callable (got {fn!r})")
        return cls("satisfies", fn=fn)

    @classmethod
    def of(cls, value: int | Count | None) -> Count:
        """Normalize a ``count=`` argument: None = at least one, an int = exactly.

        Raises:
            ValueError: For a bool, a negative int, or anything else.

        >>> Count.of(None), Count.of(0), Count.of(Count.at_most(3))
        (Count.at_least(1), Count.exactly(0), Count.at_most(3))
        """
        if value is None:
            return _AT_LEAST_ONE if cls is Count else cls.at_least(1)
        if isinstance(value, Count):
            return value
        return cls.exactly(_check_count("a count", value))

    @classmethod
    def from_data(cls, data: Any) -> Count:
        """Read the data form written by :meth:`to_data` (``null`` means at least one).

        Raises:
            ValueError: For an unknown shape.

        >>> Count.from_data({"between": [1, 3]}), Count.from_data(2)
        (Count.between(1, 3), Count.exactly(2))
        """
        if data is None or isinstance(data, int):
            return cls.of(data)
        if isinstance(data, Mapping) and len(data) == 1:
            ((key, arg),) = data.items()
            if key == "at_least":
                return cls.at_least(arg)
            if key == "at_most":
                return cls.at_most(arg)
            if key == "exactly":
                return cls.exactly(arg)
            if key == "between" and isinstance(arg, list | tuple) and len(arg) == 2:
                return cls.between(arg[0], arg[1])
        raise ValueError(
            "a count is an int, {at_least: n}, {at_most: n} or {between: [low, high]} "
            f"(got {data!r})"
        )

    def matches(self, n: int) -> bool:
        """Tell whether the observed count ``n`` is acceptable.

        >>> Count.at_most(2).matches(0)
        True
        """
        if self.fn is not None:
            try:
                return bool(self.fn(n))
            except Exception as exc:
                raise MatcherError(repr(self), exc) from exc
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    def describe(self) -> str:
        """Describe the count: ``exactly 1``, ``at least 1``, ``between 1 and 3``…

        >>> Count.between(1, 3).describe(), Count.exactly(1).describe()
        ('between 1 and 3', 'exactly 1')
        """
        if self.kind == "exactly":
            return f"exactly {self.low}"
        if self.kind == "at_least":
            return f"at least {self.low}"
        if self.kind == "at_most":
            return f"at most {self.high}"
        if self.kind == "between":
            return f"between {self.low} and {self.high}"
        return f"a count satisfying {callable_name(self.fn) if self.fn else '?'}"

    def to_data(self) -> Any:
        """The data form: an int for exactly, ``{"at_least": n}``, ``{"at_most": n}``,
        ``{"between": [low, high]}``.

        Raises:
            TypeError: For ``Count.satisfies``, which takes a Python callable.

        >>> Count.exactly(3).to_data(), Count.between(1, 2).to_data()
        (3, {'between': [1, 2]})
        """
        if self.kind == "exactly":
            return self.low
        if self.kind == "at_least":
            return {"at_least": self.low}
        if self.kind == "at_most":
            return {"at_most": self.high}
        if self.kind == "between":
            return {"between": [self.low, self.high]}
        raise TypeError("Count.satisfies(...) takes a Python callable and has no YAML/JSON form")

    def __repr__(self) -> str:
        if self.kind == "exactly":
            return f"Count.exactly({self.low})"
        if self.kind == "at_least":
            return f"Count.at_least({self.low})"
        if self.kind == "at_most":
            return f"Count.at_most({self.high})"
        if self.kind == "between":
            return f"Count.between({self.low}, {self.high})"
        return f"Count.satisfies({callable_name(self.fn) if self.fn else '?'})"


_AT_LEAST_ONE: Final = Count("at_least", low=1)
"""``Count.of(None)``: the default count of the checks (one immutable value, shared)."""


__all__ = ["Count"]
