"""Checks as JSON-ready data and back: :func:`check_to_data` and :func:`check_from_data`.

A check's data form is its native suite-file entry in keyword form, ``Check.to_data()``:
``{method: {field: value, …}}`` (fields at their defaults left out; counts, selectors and
matchers in their own data forms), or ``{"expect": {…}}`` for a value expectation. Reading it
back uses what the registry declares: the method names the class
(:func:`~agent_asserts.checks.registry.all_checks`, ``VALUE_CHECKS``), the class's
:class:`~agent_asserts.checks.signatures.Signature` says what each field takes, and
:func:`build_check` makes the object, as it does for the native loader. This is what
``agent_asserts.serialization.converter`` does with checks.

>>> from agent_asserts import Count, M
>>> from agent_asserts.checks.tools import CalledTool
>>> check = CalledTool("refund", arguments={"amount": M.gt(0)}, count=Count.at_most(1))
>>> check_to_data(check)
{'called_tool': {'name': 'refund', 'arguments': {'amount': {'$gt': 0}}, 'count': {'at_most': 1}}}
>>> check_from_data(check_to_data(check)) == check
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from agent_asserts._suggest import choice_list, did_you_mean, unknown_key_message
from agent_asserts.checks.base import Check
from agent_asserts.checks.expectations import VALUE_CHECKS
from agent_asserts.checks.registry import all_checks
from agent_asserts.checks.serialize import argument_to_data
from agent_asserts.checks.signatures import Signature, TypeSpec, signature
from agent_asserts.checks.sources import LiteralValue, source_for
from agent_asserts.errors import AgentAssertsError, Problem
from agent_asserts.matching import Count, from_data
from agent_asserts.record._validators import (
    child,
    got,
    must_be_bool,
    must_be_int,
    must_be_number,
    must_be_str,
)
from agent_asserts.selectors.data import selector_from_data

C = TypeVar("C", bound=Check)
Problems = list[tuple[str, str]]
_SOURCE_KEYS = ("value", "initial", "literal")


class CheckDataError(AgentAssertsError, ValueError):
    """Data that is not the data form of a check; every problem, each at its JSON path.

    >>> print(CheckDataError([Problem("$.max_steps.n", "must be an integer (got 'x')")]))
    $.max_steps.n: must be an integer (got 'x')
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UnserializableCheck(AgentAssertsError, TypeError):
    """A check holding a Python callable (or another value JSON cannot hold) has no data form.

    >>> from agent_asserts.checks.events import EventsSatisfy
    >>> check_to_data(EventsSatisfy(len))
    Traceback (most recent call last):
    ...
    agent_asserts.checks.data.UnserializableCheck: EventsSatisfy (events_satisfy) cannot be \
written as data: its field 'fn' holds a Python callable (<built-in function len>)
    """

    def __init__(self, check: Check, field: str, what: str) -> None:
        self.check = check
        self.field = field
        super().__init__(
            f"{type(check).__name__} ({check.method}) cannot be written as data: "
            f"its field {field!r} {what}"
        )


def build_check(sig: Signature, kwargs: Mapping[str, Any]) -> Any:
    """The check of ``sig`` from keyword arguments: a class with ``varargs`` takes its
    positional fields and the varargs positionally (``ToolOrder(*names, contiguous=False)``).

    Raises:
        TypeError, ValueError: What the class's constructor raises for bad arguments.

    >>> from agent_asserts.checks.sequencing import ToolOrder
    >>> build_check(signature(ToolOrder), {"names": ("a", "b"), "contiguous": True})
    ToolOrder(names=('a', 'b'), contiguous=True)
    """
    rest = dict(kwargs)
    args: list[Any] = []
    if sig.varargs is not None:
        args = [rest.pop(name) for name in sig.positional if name in rest]
        args += list(rest.pop(sig.varargs, ()))
    return sig.cls(*args, **rest)


def check_to_data(check: Check) -> Any:
    """``check.to_data()``, refused with :class:`UnserializableCheck` when a field holds a
    value that JSON cannot hold (a callable, ``M.satisfies``, ``MISSING``).

    >>> from agent_asserts.checks.cost import MaxSteps
    >>> check_to_data(MaxSteps(5))
    {'max_steps': {'n': 5}}
    """
    try:
        data = check.to_data()
    except TypeError as exc:
        raise UnserializableCheck(check, _field_that_raises(check), f"cannot: {exc}") from exc
    where = _not_json(data, ())
    if where is not None:
        path, value = where
        key = str(path[1]) if len(path) > 1 else "?"
        field = {check.method: "expected", "literal": "source"}.get(key, key)
        what = "a Python callable" if callable(value) else "a value JSON cannot hold"
        raise UnserializableCheck(check, field, f"holds {what} ({got(value)})")
    return data


def _field_that_raises(check: Check) -> str:
    for name, value in check.given_arguments().items():
        try:
            value.to_data() if name == "source" else argument_to_data(value)
        except TypeError:
            return name
    return "?"  # pragma: no cover - to_data raised for a field-less reason


def _not_json(value: Any, path: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any] | None:
    """The path and value of the first part of ``value`` that is not JSON data, or None."""
    if value is None or isinstance(value, str | int | float | bool):
        return None
    if isinstance(value, list):
        items: Iterable[tuple[Any, Any]] = enumerate(value)
    elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
        items = value.items()
    else:
        return path, value
    for key, item in items:
        found = _not_json(item, (*path, key))
        if found is not None:
            return found
    return None


def check_from_data(data: Any, cls: type[C] = Check) -> C:  # type: ignore[assignment]
    """The check whose data form is ``data`` (as :func:`check_to_data` wrote it); a bare
    method name stands for a check without arguments.

    Raises:
        CheckDataError: Every problem found, at its JSON path (an unknown method or field,
            a value of the wrong type, what the check's constructor refused).

    >>> check_from_data({"tool_order": {"names": ["lookup", "issue"]}})
    ToolOrder(names=('lookup', 'issue'), contiguous=False)
    >>> check_from_data({"expect": {"value": "reply", "includes": "A1049"}})
    Includes(source=RecordField(name='reply'), expected='A1049')
    >>> check_from_data({"max_step": {"n": "five"}})
    Traceback (most recent call last):
    ...
    agent_asserts.checks.data.CheckDataError: $: unknown check 'max_step' (did you mean \
'max_steps'?)
    """
    problems: Problems = []
    check = _check(data, problems)
    if check is not None and not isinstance(check, cls):
        problems.append(("$", f"is a {check.method!r} check, not a {cls.__name__}"))
    if problems or check is None:
        raise CheckDataError(Problem(path, message) for path, message in problems)
    built: C = check
    return built


def _check(data: Any, problems: Problems) -> Any:
    if isinstance(data, str):
        method, args = data, None
    elif isinstance(data, Mapping) and len(data) == 1:
        ((method, args),) = data.items()
    else:
        form = "{method: {argument: value, ...}} or a method name"
        problems.append(("$", f"must be a check's data form, {form} (got {got(data)})"))
        return None
    if method == "expect":
        return _expectation(args, child("$", method), problems)
    checks = all_checks()
    if method not in checks:
        known = [*checks, "expect"]
        problems.append(("$", f"unknown check {method!r}{did_you_mean(str(method), known)}"))
        return None
    sig = signature(checks[method])
    path = child("$", method)
    if args is None:
        args = {}
    if sig.takes_data:  # {contract: <assertion>}: the mapping is the one argument
        args = {sig.call_positional[0]: args}
    if not isinstance(args, Mapping):
        problems.append((path, f"must be a mapping of its arguments (got {got(args)})"))
        return None
    names = [p.name for p in sig.params]
    kwargs: dict[str, Any] = {}
    for key, value in args.items():
        param = sig.param(key) if isinstance(key, str) else None
        if param is None:
            problems.append((path, unknown_key_message(str(key), names)))
        else:
            kwargs[key] = value_from_data(value, param.spec, child(path, key), problems)
    for param in sig.params:
        if param.required and param.name not in args:
            problems.append((path, f"required key {param.name!r} missing"))
    return _built(sig, kwargs, path, problems)


def _built(sig: Signature, kwargs: dict[str, Any], path: str, problems: Problems) -> Any:
    if problems:
        return None
    try:
        return build_check(sig, kwargs)
    except (TypeError, ValueError) as exc:
        problems.extend(problems_of(exc, path))
        return None


def _expectation(args: Any, path: str, problems: Problems) -> Any:
    """A value expectation: its source keys and one ``VALUE_CHECKS`` key, as ``to_data`` wrote."""
    if not isinstance(args, Mapping):
        problems.append((path, f"must be a mapping (got {got(args)})"))
        return None
    methods = [key for key in args if key in VALUE_CHECKS]
    if len(methods) != 1:
        names = choice_list(list(VALUE_CHECKS))
        problems.append((path, f"must name one expectation, {names} (got {len(methods)})"))
        return None
    sig = signature(VALUE_CHECKS[methods[0]])
    kwargs: dict[str, Any] = {"source": _source(args, path, problems)}
    allowed = [*_SOURCE_KEYS, methods[0]]
    for param in sig.params:
        key = methods[0] if param.name == "expected" else param.name
        if param.name != "source" and key in args:
            allowed.append(key)
            kwargs[param.name] = value_from_data(args[key], param.spec, child(path, key), problems)
    for key in args:
        if key not in allowed:
            problems.append((path, unknown_key_message(str(key), allowed)))
    return _built(sig, kwargs, path, problems)


def _source(args: Mapping[str, Any], path: str, problems: Problems) -> Any:
    if "literal" in args:
        literal = value_from_data(args["literal"], TypeSpec("any", True), path, problems)
        return LiteralValue(literal)
    if "value" not in args:
        problems.append((path, "required key 'value' missing"))
        return None
    name, initial = args["value"], args.get("initial", False)
    for key, message in (("value", must_be_str(name)), ("initial", must_be_bool(initial))):
        if message is not None:
            problems.append((child(path, key), message))
    if not isinstance(name, str) or not isinstance(initial, bool):
        return None
    try:
        return source_for(name, initial=initial)
    except ValueError as exc:
        problems.append((path, str(exc)))
        return None


def value_from_data(value: Any, spec: TypeSpec, path: str, problems: Problems) -> Any:
    """The field value written as ``value``, read as ``spec`` says; a problem (and None) when
    it does not fit. Counts, selectors and ``$``-operator matchers come back as objects.

    >>> value_from_data({"between": [1, 3]}, TypeSpec("count"), "$.count", [])
    Count.between(1, 3)
    >>> problems = []
    >>> value_from_data([1], TypeSpec("list", item=TypeSpec("str")), "$.names", problems)
    (None,)
    >>> problems
    [('$.names[0]', 'must be a string (got 1)')]
    """
    if value is None and (spec.nullable or spec.kind in ("any", "data")):
        return None
    kind = spec.kind
    message: str | None = None
    if value is None:
        message = "is required (got null)"
    elif kind in _SCALARS:
        message = _SCALARS[kind](value)
        if message is None:
            return float(value) if kind == "float" else value
    elif kind == "choice":
        if value in spec.choices:
            return value
        message = f"must be {choice_list(list(spec.choices))} (got {got(value)})"
    elif kind == "list":
        if isinstance(value, list | tuple):
            item = spec.item or TypeSpec("any")
            return tuple(
                value_from_data(v, item, child(path, i), problems) for i, v in enumerate(value)
            )
        message = f"must be a list (got {got(value)})"
    elif kind == "union":
        options = [o for o in spec.options if o.fits(value)] or list(spec.options[:1])
        return value_from_data(value, options[0], path, problems) if options else value
    elif kind == "callable":
        message = "takes a Python callable, which has no data form"
    elif kind == "data":
        return value
    else:
        return _decoded(value, kind, path, problems)
    problems.append((path, message))
    return None


def _decoded(value: Any, kind: str, path: str, problems: Problems) -> Any:
    """A count, a selector or an ``any`` value (``$``-operators become matchers)."""
    try:
        if kind == "count":
            plain = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            return value if plain else Count.from_data(value)
        if kind == "selector":
            if isinstance(value, str):
                return value
            if not isinstance(value, Mapping):
                problems.append((path, f"must be a name or a selector mapping (got {got(value)})"))
                return None
            return selector_from_data(from_data(value))
        return from_data(value)
    except (TypeError, ValueError) as exc:
        problems.extend(problems_of(exc, path))
        return None


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


_SCALARS = {
    "str": must_be_str,
    "int": lambda value: must_be_int(value, minimum=None),
    "float": must_be_number,
    "bool": must_be_bool,
}


__all__ = [
    "CheckDataError",
    "UnserializableCheck",
    "build_check",
    "check_from_data",
    "check_to_data",
    "problems_of",
    "value_from_data",
]
