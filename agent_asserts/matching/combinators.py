"""Logical combinators: ``M.all_of``, ``M.any_of``, ``M.not_`` (and ``&``, ``|``, ``~``).

Parts may be matchers or plain values (plain values follow the default rules).

>>> from agent_asserts.matching import M
>>> M.regex("^A") & M.regex("9$")
M.all_of(M.regex('^A'), M.regex('9$'))
>>> (M.gt(10) | 0).matches(0), (~M.one_of("shipped")).matches("paid")
(True, True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching.base import ROOT, Matcher, Mismatch, describe_value, value_to_data
from agent_asserts.matching.structural import explain_value, match_value
from agent_asserts.matching.values import data_key, each_within_depth, render, within_depth


def _validate_parts(instance: Any, _: Any, value: tuple[Any, ...]) -> None:
    if not value:
        raise ValueError(f"{instance.name}() needs at least one matcher or value")
    each_within_depth(instance, _, value)


def _part_text(part: Any) -> str:
    text = describe_value(part)
    return f"({text})" if isinstance(part, AllOfMatcher | AnyOfMatcher) else text


@attrs.frozen(repr=False)
class AllOfMatcher(Matcher):
    """``M.all_of(*parts)``: every part matches; the explanation lists each failing part.

    >>> from agent_asserts.matching import M
    >>> [m.reason for m in M.all_of(M.gt(1), M.lt(5)).explain(7)]
    ['expected a number < 5, got 7']
    """

    name: ClassVar[str] = "M.all_of"
    parts: tuple[Any, ...] = attrs.field(eq=data_key, validator=_validate_parts)

    def matches(self, actual: Any) -> bool:
        return all(match_value(part, actual) for part in self.parts)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        out: list[Mismatch] = []
        for part in self.parts:
            out.extend(explain_value(part, actual, path))
        return out

    def describe(self) -> str:
        return " and ".join(_part_text(part) for part in self.parts)

    def to_data(self) -> Any:
        return {"$all_of": [value_to_data(part) for part in self.parts]}

    def __repr__(self) -> str:
        return f"M.all_of({', '.join(repr(part) for part in self.parts)})"


@attrs.frozen(repr=False)
class AnyOfMatcher(Matcher):
    """``M.any_of(*parts)``: at least one part matches.

    >>> from agent_asserts.matching import M
    >>> [m.reason for m in M.any_of(M.regex("^A"), 5).explain("B")]
    ["expected a match of '^A' or 5, got 'B'"]
    """

    name: ClassVar[str] = "M.any_of"
    parts: tuple[Any, ...] = attrs.field(eq=data_key, validator=_validate_parts)

    def matches(self, actual: Any) -> bool:
        return any(match_value(part, actual) for part in self.parts)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if self.matches(actual) else self._fail(actual, path)

    def describe(self) -> str:
        return " or ".join(_part_text(part) for part in self.parts)

    def to_data(self) -> Any:
        return {"$any_of": [value_to_data(part) for part in self.parts]}

    def __repr__(self) -> str:
        return f"M.any_of({', '.join(repr(part) for part in self.parts)})"


@attrs.frozen(repr=False)
class NotMatcher(Matcher):
    """``M.not_(part)`` (also ``~m``): the value is there and the part does not match it.

    A negation never accepts a missing value (key must exist): ``~M.gt(100)`` on an absent
    ``amount`` fails; write ``M.absent() | ~M.gt(100)`` to allow absence.

    >>> from agent_asserts.matching import M
    >>> ~M.regex("x")
    M.not_(M.regex('x'))
    >>> [m.reason for m in M.not_("x").explain("x")]
    ["expected not 'x', got 'x'"]
    """

    part: Any = attrs.field(eq=data_key, validator=within_depth)

    def matches(self, actual: Any) -> bool:
        return actual is not MISSING and not match_value(self.part, actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        if actual is MISSING:
            reason = f"missing key (expected not {_part_text(self.part)})"
            return [Mismatch(path, self, actual, reason)]
        reason = f"expected not {_part_text(self.part)}, got {render(actual)}"
        return [Mismatch(path, self, actual, reason)]

    def describe(self) -> str:
        return f"not {_part_text(self.part)}"

    def to_data(self) -> Any:
        return {"$not": value_to_data(self.part)}

    def __repr__(self) -> str:
        return f"M.not_({self.part!r})"


def all_of(*parts: Any) -> Matcher:
    """Combine parts with ``&`` semantics, flattening nested ``M.all_of`` (used by ``&``).

    Args:
        *parts: Matchers or plain values.

    Returns:
        An ``M.all_of`` matcher.

    >>> from agent_asserts.matching import M
    >>> all_of(M.gt(1) & M.lt(5), M.one_of(2, 3))
    M.all_of(M.gt(1), M.lt(5), M.one_of(2, 3))
    """
    flat: list[Any] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, AllOfMatcher) else (part,))
    return AllOfMatcher(tuple(flat))


def any_of(*parts: Any) -> Matcher:
    """Combine parts with ``|`` semantics, flattening nested ``M.any_of`` (used by ``|``).

    Args:
        *parts: Matchers or plain values.

    Returns:
        An ``M.any_of`` matcher.

    >>> from agent_asserts.matching import M
    >>> any_of(M.absent() | None, "")
    M.any_of(M.absent(), None, '')
    """
    flat: list[Any] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, AnyOfMatcher) else (part,))
    return AnyOfMatcher(tuple(flat))


__all__ = ["AllOfMatcher", "AnyOfMatcher", "NotMatcher", "all_of", "any_of"]
