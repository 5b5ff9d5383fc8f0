"""What a parameter's type hint accepts, compiled once into a fast test and a description.

:func:`accepts` turns a resolved type hint into an :class:`Accepts`: a set of exact types
that pass at once (``type(value) in accepts.fast``), a slower test for everything else
(subclasses, ABCs, callables, the items of a list), and the text an error shows ("int, Count
or None"). The public boundary (:mod:`agent_asserts._boundary`) builds one per parameter.

The rules, one per kind of hint:

* ``Any`` and ``object`` accept anything (:func:`accepts` returns None: nothing to check);
* ``int`` accepts integers but not ``bool``; ``float`` accepts ``int`` and ``float`` (not
  ``bool``); ``bool`` accepts ``bool`` (and NumPy's ``bool_``); ``str`` accepts strings;
* a class accepts its instances (an error names it by its ``__argument_text__`` when it has
  one, ``"Selector (on.*)"``, else by its name); ``Literal[...]`` accepts values of its
  values' types (which value is the method's own check: a wrong value is a ``ValueError``, a
  wrong type a ``TypeError``); ``Callable`` accepts callables;
* ``Mapping[K, V]`` accepts mappings, and checks the keys and values of a ``dict``;
  ``Sequence[X]``, ``Iterable[X]``, ``list[X]`` and ``tuple[X, ...]`` accept lists and tuples
  (and other sequences or iterables, by their ABC) but never a string or bytes, and check the
  items of a list or tuple one level deep;
* a union accepts what any of its members accepts.

>>> a = accepts(int | None)
>>> a.text, a.test(3), a.test(True), a.test(None)
('int or None', True, False, True)
>>> accepts(list[str]).problem(["a", 3])
('[1]', 3, 'str')
"""

from __future__ import annotations

import collections.abc as abc
import numbers
import typing
from collections.abc import Callable
from typing import Any, Final

_ANY_HINTS: Final = (Any, object)
_CONTAINERS: Final = {
    abc.Sequence: "sequence",
    abc.MutableSequence: "sequence",
    abc.Iterable: "iterable",
    abc.Collection: "collection",
    list: "list",
    tuple: "tuple",
}
_MAPPINGS: Final = (abc.Mapping, abc.MutableMapping, dict)
_NAMES: Final = {type(None): "None"}
_FAST_LIMIT: Final = 32  # exact types a parameter learns to pass at once


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"


def _not_text(value: Any) -> bool:
    return not isinstance(value, str | bytes | bytearray)


class Accepts:
    """What one hint accepts: ``fast`` exact types, a full ``test``, and its ``text``."""

    __slots__ = ("_checks", "_items", "_keys", "_learns", "_values", "fast", "parts")

    def __init__(self) -> None:
        self.fast: set[type] = set()
        self.parts: list[str] = []
        self._checks: list[Callable[[Any], bool]] = []
        self._items: Accepts | None = None
        self._keys: Accepts | None = None
        self._values: Accepts | None = None
        self._learns = True

    @property
    def text(self) -> str:
        """The accepted kinds, as an error names them: ``"int, Count or None"``."""
        parts = list(dict.fromkeys(self.parts))
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]

    def test(self, value: Any) -> bool:
        """Whether ``value`` is accepted (its type, then the items of a list or a dict).

        A type found acceptable by a test that depends on the type alone joins ``fast``.
        """
        kind = type(value)
        if kind in self.fast:
            return True
        items = self._items
        if items is not None and (kind is list or kind is tuple):
            fast = items.fast
            return all(type(item) in fast or items.test(item) for item in value)
        if kind is dict and (self._keys is not None or self._values is not None):
            keys, values = self._keys, self._values
            return all(
                (keys is None or keys.test(k)) and (values is None or values.test(v))
                for k, v in value.items()
            )
        for check in self._checks:
            if check(value):
                if self._learns and len(self.fast) < _FAST_LIMIT:
                    self.fast.add(kind)
                return True
        return False

    def problem(self, value: Any) -> tuple[str, Any, str] | None:
        """Where ``value`` is refused: ``(path suffix, refused value, accepted text)``.

        >>> accepts(dict[str, int]).problem({"a": "x"})
        ("['a']", 'x', 'int')
        """
        if self.test(value):
            return None
        kind = type(value)
        if self._items is not None and (kind is list or kind is tuple):
            for i, item in enumerate(value):
                inner = self._items.problem(item)
                if inner is not None:
                    return (f"[{i}]{inner[0]}", inner[1], inner[2])
        if kind is dict:
            for k, v in value.items():
                if self._keys is not None and not self._keys.test(k):
                    return (" key", k, self._keys.text)
                inner = None if self._values is None else self._values.problem(v)
                if inner is not None:
                    return (f"[{k!r}]{inner[0]}", inner[1], inner[2])
        return ("", value, self.text)

    def _add(self, other: Accepts) -> None:
        self.fast |= other.fast
        self.parts.extend(other.parts)
        self._checks.extend(other._checks)
        self._learns = self._learns and other._learns
        for name in ("_items", "_keys", "_values"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if theirs is not None:
                if mine is not None:
                    raise TypeError("two container hints with item types in one union")
                setattr(self, name, theirs)


def accepts(hint: Any) -> Accepts | None:
    """What ``hint`` (a resolved annotation) accepts; None when it accepts anything.

    Raises:
        TypeError: a hint this module does not know (a ``TypeVar``, ``type[...]``…).

    >>> accepts(str).text, accepts(typing.Any)
    ('str', None)
    >>> accepts(typing.Literal["a", "b"]).text
    "'a' or 'b'"
    """
    if hint in _ANY_HINTS:
        return None
    out = Accepts()
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or isinstance(hint, type(int | None)):
        for member in args:
            part = accepts(member)
            if part is None:
                return None
            out._add(part)
    elif origin is typing.Literal:
        kinds = tuple(dict.fromkeys(type(v) for v in args))
        out.fast.update(kinds)
        out.parts.extend(repr(v) for v in args)
        out._checks.append(lambda value: isinstance(value, kinds))
    elif hint is None or hint is type(None):
        out.fast.add(type(None))
        out.parts.append("None")
    elif origin is abc.Callable or hint is abc.Callable:
        out._checks.append(callable)
        out.parts.append("callable")
    elif origin in _MAPPINGS or hint in _MAPPINGS:
        _mapping(out, origin or hint, args)
    elif origin in _CONTAINERS or hint in _CONTAINERS:
        _container(out, origin or hint, args)
    elif isinstance(hint, type):
        _plain_class(out, hint)
    else:
        raise TypeError(f"no argument check for the type hint {hint!r}")
    return out


def _plain_class(out: Accepts, hint: type) -> None:
    out.fast.add(hint)
    out.parts.append(_NAMES.get(hint) or vars(hint).get("__argument_text__") or hint.__name__)
    if hint is bool:
        out._checks.append(_is_bool)
    elif hint is int:
        out._checks.append(_is_int)
    elif hint is float:
        out.fast.add(int)
        out.parts[-1:] = ["int", "float"]
        out._checks.append(_is_number)
    else:
        out._checks.append(lambda value: isinstance(value, hint))


def _mapping(out: Accepts, kind: Any, args: tuple[Any, ...]) -> None:
    out.parts.append("mapping")
    base = abc.Mapping if kind is not dict else dict
    out._checks.append(lambda value: isinstance(value, base))
    if len(args) == 2:
        out._keys, out._values = accepts(args[0]), accepts(args[1])
    if out._keys is None and out._values is None:
        out.fast.add(dict)


def _container(out: Accepts, kind: Any, args: tuple[Any, ...]) -> None:
    items_hint = args[0] if args and (kind is not tuple or args[1:] == (...,)) else Any
    items = accepts(items_hint)
    noun = _CONTAINERS[kind]
    if items is None:
        out.parts.append(noun)
    else:
        inner = items.text
        out.parts.append(f"{noun} of {inner}" if len(items.parts) == 1 else f"{noun} of ({inner})")
    base = abc.Sequence if kind in (list, tuple) else kind  # a list for a tuple hint is fine
    out._checks.append(lambda value: isinstance(value, base) and _not_text(value))
    out._items = items
    if items is None:
        out.fast.update((list, tuple))
    else:
        out._learns = False  # acceptance depends on the items, not on the type alone


__all__ = ["Accepts", "accepts"]
