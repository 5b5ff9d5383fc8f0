"""Argument types checked at the public boundary, from each callable's own type hints.

:func:`guard` wraps every public method of a class (``EvalContext``, ``AssertionHandle``), every
static method of a namespace (``M``) and the constructor of every class a namespace holds
(``on.tool`` is ``ToolSelector``) in a wrapper that checks each argument against its
parameter's type hint before calling the original. A wrong type raises::

    TypeError: EvalContext.called_tool(): 'name' must be str, got int (3)

naming the method, the parameter (``'names[1]'`` for an item, ``a key of 'tools'``), what it
accepts and what it got; the last frame of the traceback is :func:`reject`, here. A right type
with a wrong value (an empty name, an unknown mode) is left to the method, which raises
``ValueError``.

The wrapper is an ordinary closure, built once when :func:`guard` runs (at the import of the
guarded class): the hints are resolved then, each into an :class:`Accepts`, and every call
tests its arguments against them. What a hint accepts, one rule per kind of hint:

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

>>> class Greeter:
...     def hello(self, name: str, times: int = 1) -> str:
...         return " ".join([f"hello {name}"] * times)
>>> guard(Greeter, "Greeter")
>>> Greeter().hello("ada", times=2)
'hello ada hello ada'
>>> Greeter().hello("ada", times="2")
Traceback (most recent call last):
...
TypeError: Greeter.hello(): 'times' must be int, got str ('2')
>>> a = accepts(int | None)
>>> a.text, a.test(3), a.test(True), a.test(None)
('int or None', True, False, True)
>>> accepts(list[str]).problem(["a", 3])
('[1]', 3, 'str')
"""

from __future__ import annotations

import collections
import collections.abc as abc
import functools
import inspect
import numbers
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple, NoReturn

from agent_asserts._text import safe_repr

_SHOWN: Final = 60  # characters of a refused value's repr shown in the message
_FALLBACK: Final[dict[str, Any]] = {
    **{name: getattr(typing, name) for name in typing.__all__},
    **{name: getattr(abc, name) for name in abc.__all__},
}
_GUARDED: Final = "__argument_check__"
_P = inspect.Parameter

# -- what a hint accepts ----------------------------------------------------------------------

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

    __slots__ = ("_checks", "_items", "_keys", "_values", "fast", "parts")

    def __init__(self) -> None:
        self.fast: set[type] = set()
        self.parts: list[str] = []
        self._checks: list[Callable[[Any], bool]] = []
        self._items: Accepts | None = None
        self._keys: Accepts | None = None
        self._values: Accepts | None = None

    @property
    def text(self) -> str:
        """The accepted kinds, as an error names them: ``"int, Count or None"``."""
        parts = list(dict.fromkeys(self.parts))
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]

    def test(self, value: Any) -> bool:
        """Whether ``value`` is accepted (its type, then the items of a list or a dict).

        >>> accepts(float).test(2), accepts(float).test(True)
        (True, False)
        """
        kind = type(value)
        if kind in self.fast:
            return True
        items = self._items
        if items is not None and (kind is list or kind is tuple):
            return all(items.test(item) for item in value)
        if kind is dict and (self._keys is not None or self._values is not None):
            keys, values = self._keys, self._values
            return all(
                (keys is None or keys.test(k)) and (values is None or values.test(v))
                for k, v in value.items()
            )
        checks = self._checks
        if len(checks) == 1:  # one kind (a class): no generator to make
            return bool(checks[0](value))
        return any(check(value) for check in checks)

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
        out.fast.update((list, tuple))
    else:
        inner = items.text
        out.parts.append(f"{noun} of {inner}" if len(items.parts) == 1 else f"{noun} of ({inner})")
    base = abc.Sequence if kind in (list, tuple) else kind  # a list for a tuple hint is fine
    out._checks.append(lambda value: isinstance(value, base) and _not_text(value))
    out._items = items


# -- the wrapper ------------------------------------------------------------------------------


def reject(
    label: str, param: str, accepted: Accepts, value: Any, *, items: bool = False
) -> NoReturn:
    """Raise the ``TypeError`` for a refused argument (``items``: ``value`` holds ``*args``).

    >>> reject("M.regex", "pattern", accepts(str), 3)
    Traceback (most recent call last):
    ...
    TypeError: M.regex(): 'pattern' must be str, got int (3)
    """
    where, hint = param, ""
    if items:
        for i, item in enumerate(value):
            if not accepted.test(item):
                where, value = f"{param}[{i}]", item
                if isinstance(item, list | tuple):
                    hint = f"; give the items as separate arguments (*{param})"
                break
    problem = accepted.problem(value) or ("", value, accepted.text)
    suffix, refused, text = problem
    named = f"a key of {where!r}" if suffix == " key" else repr(where + suffix)
    shown = safe_repr(refused)
    if len(shown) > _SHOWN:
        shown = shown[: _SHOWN - 1] + "…"
    got = f"got {type(refused).__name__} ({shown})"
    raise TypeError(f"{label}(): {named} must be {text}, {got}{hint}")


class _Checked(NamedTuple):
    """One checked parameter: its name, its place among the positional arguments (None for
    a keyword-only one) and what it accepts."""

    name: str
    position: int | None
    accepted: Accepts


def _resolve(
    annotation: Any,
    where: str,
    globalns: dict[str, Any],
    localns: Mapping[str, Any],
    resolved: dict[tuple[str, str], Any],
) -> Any:
    if not isinstance(annotation, str):
        return annotation
    key = (globalns.get("__name__", ""), annotation)
    if key in resolved:
        return resolved[key]
    holder = _Annotated({"hint": annotation})
    try:
        hint = typing.get_type_hints(holder, globalns, localns)["hint"]
    except Exception as exc:
        raise TypeError(f"cannot resolve the type hint {annotation!r} of {where}: {exc}") from exc
    resolved[key] = hint
    return hint


class _Annotated:
    """An object that carries one annotation, for :func:`typing.get_type_hints`."""

    def __init__(self, annotations: dict[str, Any]) -> None:
        self.__annotations__ = annotations


def checked_function(
    fn: Callable[..., Any],
    label: str,
    globalns: dict[str, Any],
    names: Mapping[str, Any],
    resolved: dict[tuple[str, str], Any] | None = None,
) -> Callable[..., Any]:
    """A function with ``fn``'s signature that checks its arguments, then calls ``fn``.

    ``globalns`` and ``names`` resolve the hints written as strings (``names``: those its
    module imports only for type checking); ``resolved`` holds the hints already resolved by
    the same caller, by module and text (one :func:`guard` call shares one). Arguments left to
    their defaults are not checked; a call with the wrong number of arguments gets Python's own
    error from ``fn``.

    >>> def double(n: int) -> int:
    ...     return 2 * n
    >>> checked = checked_function(double, "double", {}, {})
    >>> checked(2)
    4
    >>> checked(n="2")
    Traceback (most recent call last):
    ...
    TypeError: double(): 'n' must be int, got str ('2')
    """
    localns = collections.ChainMap(dict(names), _FALLBACK)
    resolved = {} if resolved is None else resolved
    plain: list[_Checked] = []  # positional-or-keyword and keyword-only parameters
    star: _Checked | None = None  # *args
    double: _Checked | None = None  # **kwargs
    keywords: set[str] = set()  # the names a keyword argument may bind to
    positional = 0  # how many parameters take positional arguments
    for p in inspect.signature(fn).parameters.values():
        index: int | None = None
        if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD):
            index, positional = positional, positional + 1
        if p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY):
            keywords.add(p.name)
        if p.annotation is _P.empty:
            continue
        accepted = accepts(
            _resolve(p.annotation, f"{label}({p.name})", globalns, localns, resolved)
        )
        if accepted is None:
            continue
        if p.kind is _P.VAR_POSITIONAL:
            star = _Checked(p.name, positional, accepted)
        elif p.kind is _P.VAR_KEYWORD:
            double = _Checked(p.name, None, accepted)
        else:
            plain.append(_Checked(p.name, index, accepted))

    # the same checks, read by place and by keyword: a call tests only the arguments it gives
    by_place: list[tuple[int, Accepts]] = []  # (place, accepts) of the annotated ones, in order
    by_keyword: dict[str, Accepts] = {}
    for name, index, accepted in plain:
        if index is not None:
            by_place.append((index, accepted))
        by_keyword[name] = accepted

    def first_refused(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # the first refused argument in the order of the signature (its message is the error)
        given = len(args)
        for name, index, accepted in plain:
            if index is not None and index < given:
                value = args[index]
            elif name in kwargs:
                value = kwargs[name]
            else:
                continue  # its default, or missing: fn says so
            if type(value) not in accepted.fast and not accepted.test(value):
                reject(label, name, accepted, value)
        if star is not None and given > positional:
            extra = args[positional:]
            if not all(star.accepted.test(item) for item in extra):
                reject(label, star.name, star.accepted, extra, items=True)
        if double is not None:
            for key, value in kwargs.items():
                if key not in keywords and not double.accepted.test(value):
                    reject(label, f"{double.name}[{key!r}]", double.accepted, value)

    # first_refused raises for the first refused argument in the signature's order; it returns
    # only for a value also given by place, where fn then says "multiple values"
    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        given = len(args)
        for index, at_place in by_place:  # extra places: *args, or fn says
            if index >= given:
                break
            value = args[index]
            if type(value) not in at_place.fast and not at_place.test(value):
                first_refused(args, kwargs)
        if kwargs:
            for key, value in kwargs.items():
                accepted = by_keyword.get(key)
                if accepted is not None:
                    if type(value) not in accepted.fast and not accepted.test(value):
                        first_refused(args, kwargs)
                elif double is not None and key not in keywords and not double.accepted.test(value):
                    first_refused(args, kwargs)
        if star is not None and given > positional:
            extra = args[positional:]
            if not all(star.accepted.test(item) for item in extra):
                first_refused(args, kwargs)
        return fn(*args, **kwargs) if kwargs else fn(*args)  # no empty mapping to copy

    setattr(checked, _GUARDED, True)
    return checked


def guard(owner: type, label: str, names: Mapping[str, Any] | None = None) -> None:
    """Check the argument types of ``owner``'s public methods (its bases' too, installed on
    ``owner``), static methods, and the constructors of the classes it holds.

    Each is replaced, once and now, by its :func:`checked_function`; a method already
    checked (a base's, guarded with the base) is left as it is.

    Args:
        owner: The class or namespace class.
        label: Its name in error messages (``"EvalContext"``, ``"M"``, ``"on"``).
        names: Names the type hints use that their modules import only for type checking.
    """
    extra = dict(names or {})
    resolved: dict[tuple[str, str], Any] = {}  # hints already resolved, by module and text
    seen: set[str] = set()
    for klass in owner.__mro__[:-1]:
        for attr, value in vars(klass).items():
            if attr.startswith("_") or attr in seen:
                continue
            seen.add(attr)
            where = f"{label}.{attr}"
            if isinstance(value, staticmethod):
                fn = value.__func__
                if not getattr(fn, _GUARDED, False):
                    checked = checked_function(fn, where, fn.__globals__, extra, resolved)
                    setattr(owner, attr, staticmethod(checked))
            elif inspect.isfunction(value):
                if not getattr(value, _GUARDED, False):
                    checked = checked_function(value, where, value.__globals__, extra, resolved)
                    setattr(owner, attr, checked)
            elif isinstance(value, type) and klass is owner:
                _guard_constructor(value, where, extra, resolved)


def _guard_constructor(
    cls: type, label: str, names: Mapping[str, Any], resolved: dict[tuple[str, str], Any]
) -> None:
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, _GUARDED, False):
        return
    globalns = sys.modules[cls.__module__].__dict__
    setattr(cls, "__init__", checked_function(init, label, globalns, names, resolved))  # noqa: B010


__all__ = ["Accepts", "accepts", "checked_function", "guard", "reject"]
