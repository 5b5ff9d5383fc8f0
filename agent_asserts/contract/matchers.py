"""Custom matchers for ``matcher: custom``: Python callables registered by name.

A custom matcher is ``fn(actual, expected) -> bool``: ``actual`` is what the relation sees of
one left item (an event's dict form, a delta entry's, or an extracted value) and ``expected``
the requirement's ``right`` (None when it has none). Returning anything but ``True`` or
``False``, or raising, makes the result ``evaluator_error``.

>>> @register_matcher("same_order")
... def same_order(actual, expected):
...     return actual.get("order_id") == expected
>>> get_matcher("same_order") is same_order
True
>>> unregister_matcher("same_order")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar, overload

from agent_asserts._registry import Registry


class MatcherFn(Protocol):
    """The protocol of a custom matcher (the ``contract matchers`` extension point):
    ``fn(actual, expected) -> bool``, registered with :func:`register_matcher`.

    >>> def positive(actual: object, expected: object) -> bool:
    ...     return isinstance(actual, int) and actual > 0
    >>> matcher: MatcherFn = positive
    >>> matcher(3, None)
    True
    """

    def __call__(self, actual: Any, expected: Any, /) -> bool:
        """True when ``actual`` (one left item) satisfies ``expected`` (``right``)."""
        ...


F = TypeVar("F", bound=MatcherFn)

MATCHERS: Registry[MatcherFn] = Registry("custom matcher")
"""The registered custom matchers by name (there are no built-in ones)."""


@overload
def register_matcher(name: str) -> Callable[[F], F]: ...
@overload
def register_matcher(name: str, fn: F) -> F: ...


def register_matcher(name: str, fn: F | None = None) -> F | Callable[[F], F]:
    """Register ``fn`` as the custom matcher ``name`` (the latest registration wins).

    Use it as a call, ``register_matcher("name", fn)``, or as a decorator,
    ``@register_matcher("name")``; either way it returns ``fn``.

    Args:
        name: The name contracts give in ``custom:``.
        fn: ``fn(actual, expected) -> bool``.

    Returns:
        ``fn`` (or a decorator that registers and returns it).

    Raises:
        TypeError: ``name`` is not a non-empty string or ``fn`` is not callable.

    >>> register_matcher("positive", lambda actual, expected: actual > 0)  # doctest: +ELLIPSIS
    <function <lambda> at ...>
    >>> unregister_matcher("positive")
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"'name' must be a non-empty string (got {name!r})")

    def register(function: F) -> F:
        if not callable(function):
            raise TypeError(f"a custom matcher must be callable (got {function!r})")
        MATCHERS.add(name, function)
        return function

    return register if fn is None else register(fn)


def unregister_matcher(name: str) -> None:
    """Forget the custom matcher ``name`` (no error when it is not registered).

    >>> unregister_matcher("never_registered")
    """
    if name in MATCHERS:
        MATCHERS.remove(name)


def get_matcher(name: str) -> MatcherFn | None:
    """The custom matcher registered as ``name``, or None.

    >>> get_matcher("never_registered") is None
    True
    """
    return MATCHERS.get(name)


def registered_matchers() -> tuple[str, ...]:
    """The registered names, sorted.

    >>> isinstance(registered_matchers(), tuple)
    True
    """
    return tuple(sorted(MATCHERS))


__all__ = [
    "MatcherFn",
    "get_matcher",
    "register_matcher",
    "registered_matchers",
    "unregister_matcher",
]
