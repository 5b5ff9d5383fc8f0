"""Argument types checked at the public boundary, from each callable's own type hints.

:func:`guard` wraps every public method of a class (``EvalContext``, ``AssertionHandle``), every
static method of a namespace (``M``) and the constructor of every class a namespace holds
(``on.tool`` is ``ToolSelector``) in a wrapper with the same signature that checks each
argument against its parameter's type hint (the rules: :mod:`agent_asserts._accepts`) before
calling the original. A wrong type raises::

    TypeError: EvalContext.called_tool(): 'name' must be str, got int (3)

naming the method, the parameter (``'names[1]'`` for an item, ``a key of 'tools'``), what it
accepts and what it got; the last frame of the traceback is :func:`reject`, here. A right type
with a wrong value (an empty name, an unknown mode) is left to the method, which raises
``ValueError``.

The wrapper is generated from the signature the first time the method is called (so import
stays fast and names imported only for type checking resolve), and costs a type lookup in a
set per checked argument on the happy path.

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
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

from agent_asserts._accepts import Accepts, accepts
from agent_asserts._text import safe_repr

_SHOWN: Final = 60  # characters of a refused value's repr shown in the message
_FALLBACK: Final[dict[str, Any]] = {
    **{name: getattr(typing, name) for name in typing.__all__},
    **{name: getattr(collections.abc, name) for name in collections.abc.__all__},
}
_GUARDED: Final = "__argument_check__"
_P = inspect.Parameter


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


def _hint(annotation: Any, where: str, globalns: Mapping[str, Any], localns: dict[str, Any]) -> Any:
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, dict(globalns), localns)
    except Exception as exc:
        raise TypeError(f"cannot resolve the type hint {annotation!r} of {where}: {exc}") from exc


def checked_function(
    fn: Callable[..., Any], label: str, globalns: Mapping[str, Any], names: Mapping[str, Any]
) -> Callable[..., Any]:
    """A function with ``fn``'s signature that checks its arguments, then calls ``fn``.

    >>> def double(n: int) -> int:
    ...     return 2 * n
    >>> checked_function(double, "double", {}, {})(2)
    4
    """
    signature = inspect.signature(fn)
    localns = {**_FALLBACK, **names}
    env: dict[str, Any] = {"_b_fn": fn, "_b_type": type}
    params: list[str] = []
    call: list[str] = []
    body: list[str] = []
    star = False
    positional_only = 0  # how many parameters come before the "/"
    for i, p in enumerate(signature.parameters.values()):
        name = p.name
        if p.kind is _P.KEYWORD_ONLY and not star:
            params.append("*")
            star = True
        default = ""
        if p.default is not _P.empty:
            env[f"_b_d{i}"] = p.default
            default = f"=_b_d{i}"
        if p.kind is _P.VAR_POSITIONAL:
            params.append(f"*{name}")
            call.append(f"*{name}")
            star = True
        elif p.kind is _P.VAR_KEYWORD:
            params.append(f"**{name}")
            call.append(f"**{name}")
        else:
            params.append(name + default)
            call.append(f"{name}={name}" if p.kind is _P.KEYWORD_ONLY else name)
        if p.kind is _P.POSITIONAL_ONLY:
            positional_only = len(params)
        if p.annotation is _P.empty:
            continue
        accepted = accepts(_hint(p.annotation, f"{label}({name})", globalns, localns))
        if accepted is None:
            continue
        env[f"_b_f{i}"], env[f"_b_t{i}"], env[f"_b_a{i}"] = accepted.fast, accepted.test, accepted
        refused = f"_b_type({{v}}) not in _b_f{i} and not _b_t{i}({{v}})"
        refuse = f"_b_reject({label!r}, {{where}}, _b_a{i}, {{v}}"
        if p.kind is _P.VAR_POSITIONAL:
            body.append(f" for _b_v in {name}:")
            test, where = refused.format(v="_b_v"), repr(name)
            body.append(f"  if {test}: {refuse.format(where=where, v=name)}, items=True)")
        elif p.kind is _P.VAR_KEYWORD:
            body.append(f" for _b_k, _b_v in {name}.items():")
            test, where = refused.format(v="_b_v"), f"{name!r} + '[' + repr(_b_k) + ']'"
            body.append(f"  if {test}: {refuse.format(where=where, v='_b_v')})")
        else:
            test = refused.format(v=name)
            body.append(f" if {test}: {refuse.format(where=repr(name), v=name)})")
    env["_b_reject"] = reject
    if positional_only:
        params.insert(positional_only, "/")
    source = "\n".join(
        [f"def {fn.__name__}({', '.join(params)}):", *body, f" return _b_fn({', '.join(call)})"]
    )
    exec(compile(source, f"<argument check of {label}>", "exec"), env)
    wrapper: Callable[..., Any] = functools.wraps(fn)(env[fn.__name__])
    setattr(wrapper, _GUARDED, True)
    return wrapper


def _install_lazily(
    fn: Callable[..., Any],
    label: str,
    globalns: Mapping[str, Any],
    names: Mapping[str, Any],
    install: Callable[[Callable[..., Any]], None],
    owner: type,
    attr: str,
) -> Callable[..., Any]:
    built: list[Callable[..., Any]] = []

    @functools.wraps(fn)
    def first_call(*args: Any, **kwargs: Any) -> Any:
        if not built:
            built.append(checked_function(fn, label, globalns, names))
        current = vars(owner).get(attr)
        # replace this stub only: a method patched or replaced on the class since (a test's
        # spy that calls the stub as "the original") stays in place
        if current is first_call or getattr(current, "__func__", None) is first_call:
            install(built[0])
        return built[0](*args, **kwargs)

    setattr(first_call, _GUARDED, True)
    return first_call


def guard(owner: type, label: str, names: Mapping[str, Any] | None = None) -> None:
    """Check the argument types of ``owner``'s public methods (its bases' too, installed on
    ``owner``), static methods, and the constructors of the classes it holds.

    Args:
        owner: The class or namespace class.
        label: Its name in error messages (``"EvalContext"``, ``"M"``, ``"on"``).
        names: Names the type hints use that their modules import only for type checking.
    """
    extra = dict(names or {})
    seen: set[str] = set()
    for klass in owner.__mro__[:-1]:
        for attr, value in vars(klass).items():
            if attr.startswith("_") or attr in seen:
                continue
            seen.add(attr)
            where = f"{label}.{attr}"
            if isinstance(value, staticmethod):
                fn = value.__func__
                setter = functools.partial(_set_static, owner, attr)
            elif inspect.isfunction(value):
                fn, setter = value, functools.partial(setattr, owner, attr)
            elif isinstance(value, type) and klass is owner:
                _guard_constructor(value, where, extra)
                continue
            else:
                continue
            if not getattr(fn, _GUARDED, False):
                setter(_install_lazily(fn, where, fn.__globals__, extra, setter, owner, attr))


def _set_static(owner: type, attr: str, fn: Callable[..., Any]) -> None:
    setattr(owner, attr, staticmethod(fn))


def _guard_constructor(cls: type, label: str, names: Mapping[str, Any]) -> None:
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, _GUARDED, False):
        return
    globalns = sys.modules[cls.__module__].__dict__
    setter = functools.partial(setattr, cls, "__init__")
    setter(_install_lazily(init, label, globalns, names, setter, cls, "__init__"))


__all__ = ["checked_function", "guard", "reject"]
