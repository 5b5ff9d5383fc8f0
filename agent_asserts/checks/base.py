"""The check protocol: a frozen attrs object with ``evaluate(record) -> Outcome``, and its native
data form.

The check protocol: a frozen attrs object with ``evaluate(record) -> Outcome``.

A check holds its parameters as attrs fields that mirror the fluent method of the same name
(``method``), so one class serves ``EvalContext``, every loader, ``to_data()`` (the native
YAML form) and the JSON Schema.

>>> from agent_asserts.checks.traces import StepCount
>>> from agent_asserts.record import TrialRecord
>>> StepCount(3).evaluate(TrialRecord.from_dict({"steps": 2, "events": []})).message
'expected 3 steps, got 2'

Turn a check's arguments into the native YAML/JSON form (``Check.to_data``).

>>> from agent_asserts.matching import M
>>> argument_to_data(M.gt(3))
{'$gt': 3}
>>> argument_to_data((1, 2))
[1, 2]
"""

from __future__ import annotations

import abc
import functools
import itertools
import reprlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, cast

import attrs

from agent_asserts._text import safe_repr
from agent_asserts._values import MISSING
from agent_asserts.matching import Count, render, value_to_data
from agent_asserts.outcome import Outcome
from agent_asserts.selectors import Selector
from agent_asserts.status import Severity

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


C = TypeVar("C", bound="Check")
T = TypeVar("T")


def given_fields_first(build: Callable[[C], T]) -> Callable[[C], T]:
    """Decorate the ``@field.default`` method of a check's derived field (its selector, its
    steps): when building the value fails, a given field's own validation error is raised
    instead, as when the value was derived after the validators ran.

    attrs computes a derived field's default before it runs the validators of the given
    fields; a bad argument keeps its own message this way, at no cost when nothing fails.

    >>> from agent_asserts.checks.tools import CalledTool
    >>> CalledTool("lookup", arguments="id=1")
    Traceback (most recent call last):
    ...
    TypeError: called_tool() parameter 'arguments' takes a mapping, a list, a matcher or None, \
not a string (got 'id=1'; did you mean {'id': '1'}?)
    """

    @functools.wraps(build)
    def default(check: C) -> T:
        try:
            return build(check)
        except Exception as exc:
            failed = exc
        attrs.validate(
            cast(Any, check)
        )  # outside the except block: the field's error comes unchained
        raise failed

    return default


def _render_arg(value: Any) -> str:
    return render(value)


class Check(abc.ABC):
    """Base of every check. Subclasses are ``@attrs.frozen`` and set ``method``.

    ``positional`` names the fields a scalar given in YAML fills and ``describe()`` shows
    unnamed, in order; ``yaml_positional``, when set, is the order in which a YAML list fills
    the fields: the fluent method's positional parameters (``called_tool(name, arguments,
    result, is_error, count)``), which the parity test ties to the ``EvalContext`` method;
    ``varargs`` names the field that collects ``*args`` of the fluent method;
    ``list_entries`` says that a list given to the method (in Python or YAML) means one
    check per item (``memory_was_set(["a.x", {"name": "a.y", "value": 1}])``);
    ``python_only`` that the check has no YAML form (it holds a callable);
    ``fluent_expands`` that the fluent method takes a whole spec and records one check per
    part (``contract(spec)``), so its parameters are not the check's fields.

    The library's check classes are declared ``@attrs.frozen(slots=False, repr=False,
    eq=False)``: they share the ``repr``, ``==`` and ``hash`` below, which read the attrs fields
    as attrs' own generated methods do, instead of each class compiling its own copies when
    its module is imported (a third of the time of importing the check families). A check
    class declared with a plain ``@attrs.frozen`` (your own) gets attrs' methods, as before; one
    declared with ``repr=False`` or ``eq=False`` inherits these.

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> MaxSteps(4), MaxSteps(4) == MaxSteps(4), MaxSteps(4) == MaxSteps(5)
    (MaxSteps(n=4), True, False)
    >>> {MaxSteps(4), MaxSteps(4)}
    {MaxSteps(n=4)}
    """

    method: ClassVar[str] = ""
    default_severity: ClassVar[Severity] = Severity.GATE
    evaluator_type: ClassVar[str] = "deterministic"
    positional: ClassVar[tuple[str, ...]] = ()
    yaml_positional: ClassVar[tuple[str, ...] | None] = None
    varargs: ClassVar[str | None] = None
    list_entries: ClassVar[bool] = False
    python_only: ClassVar[bool] = False
    fluent_expands: ClassVar[bool] = False

    @reprlib.recursive_repr()  # '...' for a check met again inside itself, as attrs writes
    def __repr__(self) -> str:
        cls = type(self)
        shown = []
        for field in attrs.fields(cast(Any, cls)):
            if field.repr is not False:
                show = repr if field.repr is True else field.repr
                value = (  # a derived field not made yet shows NOTHING, as in attrs' repr
                    getattr(self, field.name)
                    if field.init
                    else getattr(self, field.name, attrs.NOTHING)
                )
                shown.append(f"{field.name}={show(value)}")
        return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({', '.join(shown)})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        same: Any = True  # the last comparison, or the first false one, as attrs' ``and``
        for field in attrs.fields(cast(Any, type(self))):
            if field.eq:
                key = field.eq_key
                mine, theirs = getattr(self, field.name), getattr(other, field.name)
                same = key(mine) == key(theirs) if key else mine == theirs
                if not same:
                    return same  # type: ignore[no-any-return]
        return same  # type: ignore[no-any-return]

    def __hash__(self) -> int:
        return hash(
            (
                type(self),
                *(
                    field.eq_key(getattr(self, field.name))
                    if field.eq_key
                    else getattr(self, field.name)
                    for field in attrs.fields(cast(Any, type(self)))
                    if field.hash is True or (field.hash is None and field.eq is True)
                ),
            )
        )

    @abc.abstractmethod
    def evaluate(self, record: TrialRecord) -> Outcome:
        """Evaluate over ``record``; never raises for a malformed or incomplete record.

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> MaxSteps(2).evaluate(demo_record()).message
        'expected at most 2 steps, got 4'
        """

    def severity_for(self, judge: Judge | None) -> Severity | None:
        """The severity this check records with when it decides its own (a contract
        assertion's word, a judge check's), or None for the recorder's default.

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> MaxSteps(5).severity_for(None) is None
        True
        """
        return None

    def own_threshold(self) -> float | None:
        """The threshold this check graded its score against (a judge's ``threshold=``), which
        its result carries; None for checks without one.

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> MaxSteps(5).own_threshold() is None
        True
        """
        return None

    def run(self, record: TrialRecord, *, judge: Judge | None = None) -> Outcome:
        """Evaluate with the context's services (a judge); plain checks ignore them.

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> MaxSteps(5).run(demo_record(), judge=None).status
        <Status.PASS: 'pass'>
        """
        return self.evaluate(record)

    def primary(self) -> Any:
        """The value that names the result after the colon, or ``MISSING`` for none.

        >>> from agent_asserts.checks.tools import CalledTool, UsedNoTools
        >>> CalledTool("refunds_issue").primary(), UsedNoTools().primary()
        ('refunds_issue', MISSING)
        """
        if self.varargs is None and self.positional:
            return getattr(self, self.positional[0])
        return MISSING

    def default_name(self) -> str:
        """``{method}:{primary argument}`` or ``{method}``, at most :data:`MAX_NAME_LENGTH`
        characters: a longer primary argument is cut, and ends with ``…`` (see
        :func:`bounded_text`).

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.checks.outcome import OutputEquals
        >>> MaxSteps(4).default_name()
        'max_steps:4'
        >>> name = OutputEquals([["x" * 10_000] * 1_000] * 1_000).default_name()
        >>> len(name), name[:20], name[-3:]
        (1000, "output_equals:[['xxx", 'xx…')
        """
        primary = self.primary()
        if primary is MISSING or primary is None:
            return self.method
        prefix = f"{self.method}:"
        limit = MAX_NAME_LENGTH - len(prefix)
        if type(primary) is str and len(primary) <= limit:
            return prefix + primary  # what bounded_text gives a short string
        if type(primary) is int:  # bounded_text's text of an int: str(), cut when too long
            text = str(primary)
            if len(text) <= limit:
                return prefix + text
        return prefix + bounded_text(primary, limit)

    def given_arguments(self) -> dict[str, Any]:
        """The fields that differ from their defaults, in declaration order.

        (Named so that it never collides with a check field called ``arguments``, as in
        ``called_tool(name, arguments=...)``; ``arguments()`` is kept as an alias for checks
        without such a field.)

        >>> from agent_asserts.checks.tools import CalledTool
        >>> CalledTool("refunds_issue", arguments={"amount": 42}).given_arguments()
        {'name': 'refunds_issue', 'arguments': {'amount': 42}}
        """
        out: dict[str, Any] = {}
        for field in attrs.fields(cast(Any, type(self))):
            if not field.init or field.name.startswith("_"):
                continue
            value = getattr(self, field.name)
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if (
                field.name == self.varargs
                or field.name in self.positional
                or default is attrs.NOTHING
                or not _same(value, default)
            ):
                out[field.name] = value
        return out

    arguments = given_arguments

    def describe(self) -> str:
        """The call that builds this check: ``called_tool('refund', count=1)``.

        >>> from agent_asserts.checks.traces import StepCount
        >>> StepCount(3).describe()
        'step_count(3)'
        """
        parts: list[str] = []
        for key, value in self.given_arguments().items():
            if key == self.varargs:
                parts.extend(_render_arg(v) for v in value)
            elif key in self.positional:
                parts.append(_render_arg(value))
            else:
                parts.append(f"{key}={_render_arg(value)}")
        return f"{self.method}({', '.join(parts)})"

    def to_data(self) -> Any:
        """The native YAML/JSON form ``{method: {argument: value, …}}``.

        >>> from agent_asserts.checks.traces import StepCount
        >>> StepCount(3).to_data()
        {'step_count': {'n': 3}}
        """
        return {self.method: arguments_to_data(self)}


MAX_NAME_LENGTH: Final = 1000
"""The longest name a check gives its result (``{method}:{primary argument}``)."""

CUT: Final = "…"
"""The marker that ends a text cut to its limit."""


def _text_size(value: Any, limit: int) -> int:
    """A lower bound of the length of ``str(value)``, counted only up to just past ``limit``:
    each container, mapping and attrs instance counts 1 plus its items, a string its length;
    every value visited adds at least 1, so at most ``limit + 1`` values are visited."""
    size = 0
    stack = [value]
    while stack and size <= limit:
        current = stack.pop()
        size += 1
        if isinstance(current, str | bytes):
            size += len(current)
        elif isinstance(current, Mapping):
            stack.extend(itertools.islice(current.items(), limit + 1))
        elif isinstance(current, list | tuple | set | frozenset):
            stack.extend(itertools.islice(current, limit + 1))
        elif attrs.has(type(current)):
            stack.extend(
                getattr(current, field.name, None) for field in attrs.fields(type(current))
            )
    return size


def _bounded_repr(value: Any, limit: int) -> str:
    """``repr(value)`` for containers of plain data, built piece by piece and stopped past
    ``limit`` characters (the caller cuts it): a container's items are visited one at a time,
    so only what is shown is ever visited."""
    pieces: list[str] = []
    size = 0
    stack: list[Iterator[Any]] = [iter([value])]
    while stack and size <= limit:
        current = next(stack[-1], _END)
        if current is _END:
            stack.pop()
            continue
        if isinstance(current, _Literal):
            text = current.text
        elif isinstance(current, str):
            text = repr(current if len(current) <= limit else current[: limit + 1])
        elif isinstance(current, list | tuple) or type(current) is dict:
            text = "{" if isinstance(current, dict) else "[" if isinstance(current, list) else "("
            stack.append(_items(current))
        elif _text_size(current, limit) <= limit:
            text = safe_repr(current)
        else:
            text = f"<{type(current).__name__} of more than {limit} characters>"
        pieces.append(text)
        size += len(text)
    return "".join(pieces)


_END: Final = object()


@attrs.frozen
class _Literal:
    text: str


def _items(container: Any) -> Iterator[Any]:
    """A list's, tuple's or dict's items, with the separators and the closing text."""
    if isinstance(container, dict):
        for i, (key, item) in enumerate(container.items()):
            if i:
                yield _Literal(", ")
            yield key
            yield _Literal(": ")
            yield item
        yield _Literal("}")
        return
    for i, item in enumerate(container):
        if i:
            yield _Literal(", ")
        yield item
    if isinstance(container, list):
        yield _Literal("]")
    else:
        yield _Literal(",)" if len(container) == 1 else ")")


def bounded_text(value: Any, limit: int) -> str:
    """``str(value)``, or, when it would be longer than ``limit`` characters, its first
    ``limit - 1`` characters and :data:`CUT` — without building the whole text first (a few
    YAML aliases can make a value whose text is a gigabyte).

    A string is cut directly; lists, tuples and dicts are rendered item by item until the
    limit; another value too large to show is named by its type.

    >>> bounded_text("refund", 10), bounded_text("x" * 20, 10)
    ('refund', 'xxxxxxxxx…')
    >>> bounded_text([["ab" * 50] * 100] * 100, 16)
    "[['abababababab…"
    """
    if _text_size(value, limit) <= limit:
        text = str(value)  # short: the exact text
    elif isinstance(value, str):
        text = value[: limit + 1]
    else:
        text = _bounded_repr(value, limit)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + CUT


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def argument_to_data(value: Any) -> Any:
    """One argument: counts, selectors and matchers use their own ``to_data``.

    >>> from agent_asserts import Count, M, on
    >>> argument_to_data(Count.at_least(2)), argument_to_data([on.tool("a"), M.regex("^A")])
    ({'at_least': 2}, [{'tool': 'a'}, {'$regex': '^A'}])
    """
    if isinstance(value, Count | Selector):
        return value.to_data()
    if isinstance(value, tuple | list):
        return [argument_to_data(v) for v in value]
    return value_to_data(value)


def arguments_to_data(check: Check) -> dict[str, Any]:
    """The check's non-default arguments as a mapping of plain data.

    >>> from agent_asserts import Count
    >>> from agent_asserts.checks.tools import CalledTool
    >>> arguments_to_data(CalledTool("refunds_issue", count=Count.at_most(1)))
    {'name': 'refunds_issue', 'count': {'at_most': 1}}
    """
    return {key: argument_to_data(value) for key, value in check.given_arguments().items()}


__all__ = [
    "CUT",
    "MAX_NAME_LENGTH",
    "Check",
    "argument_to_data",
    "arguments_to_data",
    "bounded_text",
]
