"""Checks as JSON-ready data and back, including an ``expect:`` entry.

Checks as JSON-ready data and back: :func:`check_to_data` and :func:`check_from_data`.

A check's data form is its native suite-file entry in keyword form, ``Check.to_data()``:
``{method: {field: value, …}}`` (fields at their defaults left out; counts, selectors and
matchers in their own data forms), or ``{"expect": {…}}`` for a value expectation. Reading it
back uses what the registry declares: the method names the class
(:func:`~agent_asserts.checks.all_checks`, ``VALUE_CHECKS``), the class's
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

Read an ``expect:`` entry: a value expectation over a record field, a state path or a literal.

``value`` names the value (``reply``, ``status``, ``steps``, ``usage.total_tokens``… or a JSON
Pointer into ``final_state``; ``initial: true`` reads ``initial_state``), or ``literal`` gives
it; one expectation key (``includes``, ``equals``, ``matches``, ``similarity``…, from
:data:`~agent_asserts.checks.expectations.VALUE_CHECKS`) holds the expected value, and the
expectation's other fields sit beside it. :func:`read_expectation` is the one reader of this
mapping, for the suite-file loader (which also allows its sibling keys, ``severity``…) and for
the cattrs converter (a check's data form ``{"expect": {…}}``).

>>> from agent_asserts.checks.signatures import DataReading
>>> problems: list[tuple[str, str]] = []
>>> body = {"value": "reply", "similarity": "Refund issued"}
>>> read_expectation((body, "$.expect"), DataReading(problems))
(Similarity(source=RecordField(name='reply'), expected='Refund issued'), {})
>>> read_expectation(({"value": "reply"}, "$.expect"), DataReading(problems))
(None, {})
>>> problems
[('$.expect', "names no expectation (one of 'includes', 'equals', 'matches', 'similarity')")]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from agent_asserts._text import did_you_mean, unknown_key_message
from agent_asserts.checks import all_checks
from agent_asserts.checks.base import Check, argument_to_data
from agent_asserts.checks.expectations import VALUE_CHECKS, LiteralValue, source_for
from agent_asserts.checks.signatures import (
    IS_MAPPING,
    DataReading,
    Problems,
    Reading,
    Signature,
    TypeSpec,
    build_check,
    problems_of,
    read_value,
    signature,
)
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

    >>> from agent_asserts.checks.traces import MaxSteps
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
    it does not fit: :func:`~agent_asserts.checks.signatures.read_value` over plain data at
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


L = TypeVar("L")


EXPECT_SOURCES = ("value", "initial", "literal")


"""The keys of an ``expect:`` mapping that name its value (a record field, or a literal)."""


_LITERAL = TypeSpec("any", nullable=True)


_NAME = TypeSpec("str")


_INITIAL = TypeSpec("bool")


@functools.cache
def expect_signatures() -> dict[str, Signature]:
    """The value expectations that can be written as data (``includes``, ``similarity``…).

    >>> list(expect_signatures())
    ['includes', 'equals', 'matches', 'similarity']
    """
    sigs = {name: signature(cls) for name, cls in VALUE_CHECKS.items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


@functools.cache
def _extras() -> tuple[str, ...]:
    """The fields of every expectation besides ``source`` and ``expected``."""
    params = {p.name for sig in expect_signatures().values() for p in sig.params}
    return tuple(sorted(params - {"source", "expected"}))


def read_expectation(
    at: L,
    via: Reading[L],
    *,
    siblings: Sequence[str] = (),
    read_siblings: Callable[[L], dict[str, Any]] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The check of the ``expect:`` mapping at ``at`` (None after reporting its problems) and
    what ``read_siblings`` read of the ``siblings`` keys the caller allows beside it.

    >>> from agent_asserts.checks.signatures import DataReading
    >>> problems: list[tuple[str, str]] = []
    >>> body = {"value": "/orders/A1/status", "initial": True, "equals": "paid"}
    >>> read_expectation((body, "$.expect"), DataReading(problems))[0]
    Equals(source=StatePath(pointer='/orders/A1/status', initial=True), expected='paid')
    """
    if via.peek(at) is not IS_MAPPING:
        via.wrong_type(at, "mapping", "a mapping")
        return None, {}
    before = via.problem_count()
    sigs = expect_signatures()
    keys = via.keys_of(at)
    allowed = list(dict.fromkeys([*EXPECT_SOURCES, *sigs, *_extras(), *siblings]))
    unknown = [str(key) for key in keys if key not in allowed]
    for key in unknown:
        via.key_problem(at, key, unknown_key_message(key, allowed))
    methods = [key for key in keys if key in sigs]
    if len(methods) != 1:
        if methods:
            listed = " and ".join(repr(m) for m in methods)
            via.key_problem(at, methods[1], f"one expectation per 'expect:' (found {listed})")
        elif not unknown:  # a misspelt expectation was reported as an unknown key
            names = ", ".join(repr(m) for m in sigs)
            via.problem(at, f"names no expectation (one of {names})")
        return None, {}
    method = methods[0]
    sig = sigs[method]
    kwargs: dict[str, Any] = {"source": _source(at, keys, via)}
    for param in sig.params:
        key = method if param.name == "expected" else param.name
        if param.name != "source" and key in keys:
            kwargs[param.name] = read_value(via.member(at, key), param.spec, via)
    for key in _extras():
        if key in keys and sig.param(key) is None:
            via.key_problem(at, key, f"{method!r} takes no {key!r}")
    beside = {} if read_siblings is None else read_siblings(at)
    if via.problem_count() > before or via.unreadable_below(at):
        return None, beside
    try:
        return build_check(sig, kwargs), beside
    except (TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None, beside


def _source(at: L, keys: Any, via: Reading[L]) -> Any:
    """The value's source: ``literal``, or the record field or state path ``value`` names."""
    if "literal" in keys:
        if "value" in keys or "initial" in keys:
            via.problem(at, "use either 'value' (a record field) or 'literal', not both")
            return None
        return LiteralValue(read_value(via.member(at, "literal"), _LITERAL, via))
    if "value" not in keys:
        via.problem(at, "required key 'value' missing")
        return None
    name_at = via.member(at, "value")
    name = read_value(name_at, _NAME, via)
    initial = read_value(via.member(at, "initial"), _INITIAL, via) if "initial" in keys else False
    if name is None or initial is None:
        return None
    try:
        return source_for(name, initial=initial)
    except (TypeError, ValueError) as exc:
        wrong_initial = initial and not name.startswith("/") and name != ""
        via.problem(via.member(at, "initial") if wrong_initial else name_at, str(exc))
        return None


__all__ = [
    "EXPECT_SOURCES",
    "CheckDataError",
    "UnserializableCheck",
    "build_check",
    "check_from_data",
    "check_to_data",
    "expect_signatures",
    "problems_of",
    "read_expectation",
    "value_from_data",
]
