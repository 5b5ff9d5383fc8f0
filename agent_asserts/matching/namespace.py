"""``M``: the namespace of matcher factories, and ``ANY``.

>>> M.partial({"amount": M.gt(0), "reason": M.regex("dup.*")})
M.partial({'amount': M.gt(0), 'reason': M.regex('dup.*')})
>>> ANY
M.anything()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from agent_asserts._boundary import guard
from agent_asserts.matching.base import Matcher
from agent_asserts.matching.combinators import AllOfMatcher, AnyOfMatcher, NotMatcher
from agent_asserts.matching.containers import ContainsMatcher, JsonMatcher, UnorderedMatcher
from agent_asserts.matching.lenient import LenientMatcher, LooseMatcher
from agent_asserts.matching.scalar import (
    AbsentMatcher,
    AnythingMatcher,
    ApproxMatcher,
    BetweenMatcher,
    CompareMatcher,
    NonEmptyMatcher,
    OneOfMatcher,
    RegexMatcher,
    SatisfiesMatcher,
)
from agent_asserts.matching.structural import ExactMatcher, PartialMatcher, SubsetOfMatcher


class M:
    """Matcher factories: ``M.regex('dup.*')``, ``M.gt(3)``, ``M.unordered([...])``…

    Every factory validates its arguments when called (``ValueError`` on a bad one) and returns
    a frozen matcher whose repr reads like the call. Plain values given to a factory follow the
    default rules (mapping: partial; list: element-wise; scalar: strict).

    >>> M.between(1, 3)
    M.between(1, 3)
    >>> M.between(3, 1)
    Traceback (most recent call last):
    ...
    ValueError: M.between() needs low <= high (got 3, 1)
    """

    def __init__(self) -> None:
        raise TypeError("M is a namespace; call its static methods, e.g. M.regex('x')")

    @staticmethod
    def partial(value: Mapping[Any, Any] | Sequence[Any]) -> Matcher:
        """Every expected key present and matching (extra keys ignored); lists element-wise.

        >>> M.partial({"a": 1}).matches({"a": 1, "b": 2})
        True
        """
        return PartialMatcher(value)

    @staticmethod
    def subset_of(mapping: Mapping[Any, Any]) -> Matcher:
        """Every actual key appears in ``mapping`` with a matching value (missing keys are fine).

        >>> M.subset_of({"a": 1, "b": 2}).matches({"a": 1}), M.subset_of({"a": 1}).matches({"c": 3})
        (True, False)
        """
        return SubsetOfMatcher(mapping)

    @staticmethod
    def exact(value: Any) -> Matcher:
        """Deep equality: no extra keys, dict key order ignored, list order kept, strict types.

        >>> M.exact({"a": [1]}).matches({"a": [1]}), M.exact({"a": 1}).matches({"a": 1, "b": 2})
        (True, False)
        """
        return ExactMatcher(value)

    @staticmethod
    def regex(pattern: str) -> Matcher:
        """``re.search(pattern, text)``; non-strings are JSON-encoded first.

        Raises:
            ValueError: For an invalid pattern (naming it and the ``re`` error).

        >>> M.regex(r"A\\d+").matches("order A1049"), M.regex("true").matches(True)
        (True, True)
        """
        return RegexMatcher(pattern)

    @staticmethod
    def satisfies(fn: Callable[[Any], object]) -> Matcher:
        """``bool(fn(actual))``; a raising ``fn`` raises ``MatcherError`` (an evaluator error).

        >>> M.satisfies(lambda s: s.isupper()).matches("OK")
        True
        """
        return SatisfiesMatcher(fn)

    @staticmethod
    def anything() -> Matcher:
        """No constraint (even a missing value matches); also available as ``ANY``.

        >>> M.anything().matches(None)
        True
        """
        return AnythingMatcher()

    @staticmethod
    def non_empty() -> Matcher:
        """A non-empty string/list/mapping, or any other non-null value (cxas ``*``).

        >>> M.non_empty().matches(0), M.non_empty().matches("")
        (True, False)
        """
        return NonEmptyMatcher()

    @staticmethod
    def absent() -> Matcher:
        """Only a missing value (absent key, absent state path) matches.

        >>> M.absent().matches(None)
        False
        """
        return AbsentMatcher()

    @staticmethod
    def all_of(*parts: Any) -> Matcher:
        """Every part matches (``m1 & m2``).

        >>> M.all_of(M.gt(1), M.lt(5)).matches(3)
        True
        """
        return AllOfMatcher(parts)

    @staticmethod
    def any_of(*parts: Any) -> Matcher:
        """At least one part matches (``m1 | m2``).

        >>> M.any_of("a", "b").matches("b")
        True
        """
        return AnyOfMatcher(parts)

    @staticmethod
    def not_(part: Any) -> Matcher:
        """The part does not match (``~m``).

        >>> M.not_(M.regex("refund")).matches("lookup")
        True
        """
        return NotMatcher(part)

    @staticmethod
    def gt(bound: float) -> Matcher:
        """A number > ``bound`` (bools are not numbers).

        >>> M.gt(3).matches(4), M.gt(3).matches("4")
        (True, False)
        """
        return CompareMatcher("gt", bound)

    @staticmethod
    def ge(bound: float) -> Matcher:
        """A number >= ``bound``.

        >>> M.ge(3).matches(3)
        True
        """
        return CompareMatcher("ge", bound)

    @staticmethod
    def lt(bound: float) -> Matcher:
        """A number < ``bound``.

        >>> M.lt(3).matches(3)
        False
        """
        return CompareMatcher("lt", bound)

    @staticmethod
    def le(bound: float) -> Matcher:
        """A number <= ``bound``.

        >>> M.le(3).matches(3.0)
        True
        """
        return CompareMatcher("le", bound)

    @staticmethod
    def between(low: float, high: float) -> Matcher:
        """A number from ``low`` to ``high``, both included.

        >>> M.between(1, 3).matches(2.5)
        True
        """
        return BetweenMatcher(low, high)

    @staticmethod
    def contains(item: Any) -> Matcher:
        """A substring of a string, a matching item of a list, or a key of a mapping.

        >>> M.contains("A10").matches("A1049"), M.contains(M.gt(2)).matches([1, 3])
        (True, True)
        """
        return ContainsMatcher(item)

    @staticmethod
    def one_of(*values: Any) -> Matcher:
        """Strictly equal to one of ``values`` (``True`` is not one of ``1, 2``).

        >>> M.one_of("paid", "refunded").matches("paid")
        True
        """
        return OneOfMatcher(values)

    @staticmethod
    def not_in(*values: Any) -> Matcher:
        """A value strictly equal to none of ``values`` (a missing value does not match).

        >>> M.not_in("shipped").matches("paid")
        True
        """
        return OneOfMatcher(values, negate=True)

    @staticmethod
    def approx(value: float, rel: float | None = None, abs: float | None = None) -> Matcher:
        """``math.isclose(actual, value, rel_tol=rel or 1e-9, abs_tol=abs or 0)``.

        >>> M.approx(0.3).matches(0.1 + 0.2), M.approx(10, rel=0.1).matches(10.9)
        (True, True)
        """
        return ApproxMatcher(value, rel, abs)

    @staticmethod
    def unordered(items: Sequence[Any]) -> Matcher:
        """Same items in any order (bag match by maximum bipartite matching).

        >>> M.unordered([M.anything(), 1]).matches([1, 2])
        True
        """
        return UnorderedMatcher(items)

    @staticmethod
    def json(expected: Any) -> Matcher:
        """Parse a JSON string, then match the parsed value by the default rules.

        >>> M.json({"ok": True}).matches('{"ok": true}')
        True
        """
        return JsonMatcher(expected)

    @staticmethod
    def lenient(value: Any) -> Matcher:
        """The cxas rules: subsets, ``"*"``, bool/number coercion, JSON strings, envelopes.

        >>> M.lenient({"quantity": 2}).matches({"quantity": "2"})
        True
        """
        return LenientMatcher(value)

    @staticmethod
    def loose(value: Any) -> Matcher:
        """The SOP ``equals``: JavaScript ``String()`` forms compared.

        >>> M.loose("123").matches(123)
        True
        """
        return LooseMatcher(value)


guard(M, "M")

ANY: Final[Matcher] = AnythingMatcher()
"""No constraint: ``ANY == M.anything()``."""

__all__ = ["ANY", "M"]
