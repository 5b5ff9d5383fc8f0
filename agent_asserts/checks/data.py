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

from agent_asserts._suggest import did_you_mean, unknown_key_message
from agent_asserts.checks.base import Check
from agent_asserts.checks.expect_reader import read_expectation
from agent_asserts.checks.field_reader import read_value
from agent_asserts.checks.located import DataReading, Problems, problems_of
from agent_asserts.checks.registry import all_checks
from agent_asserts.checks.serialize import argument_to_data
from agent_asserts.checks.signatures import Signature, TypeSpec, build_check, signature
from agent_asserts.errors import AgentAssertsError, Problem
from agent_asserts.record.validators import child, got

C = TypeVar("C", bound=Check)


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
        return read_expectation((args, child("$", method)), DataReading(problems))[0]
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


def value_from_data(value: Any, spec: TypeSpec, path: str, problems: Problems) -> Any:
    """The field value written as ``value``, read as ``spec`` says; a problem (and None) when
    it does not fit: :func:`~agent_asserts.checks.field_reader.read_value` over plain data at
    the JSON path ``path``. Counts, selectors and ``$``-operator matchers come back as objects.

    >>> value_from_data({"between": [1, 3]}, TypeSpec("count"), "$.count", [])
    Count.between(1, 3)
    >>> problems = []
    >>> value_from_data([1], TypeSpec("list", item=TypeSpec("str")), "$.names", problems)
    (None,)
    >>> problems
    [('$.names[0]', 'must be a string (got 1)')]
    """
    return read_value((value, path), spec, DataReading(problems))


__all__ = [
    "CheckDataError",
    "UnserializableCheck",
    "build_check",
    "check_from_data",
    "check_to_data",
    "problems_of",
    "value_from_data",
]
