"""Checks as data: what a check class accepts in YAML/JSON and the one reader of its fields
(signatures, located values, field reading), and checks as JSON-ready data and back,
including an ``expect:`` entry.

What a check class accepts in YAML/JSON, read from its attrs fields and type hints.

The native dialect, its JSON Schema and the converter of :mod:`agent_asserts.serialization`
(through :func:`check_from_data`, below) are all built from these signatures, so a new check
class (registered in :data:`agent_asserts.checks.CHECKS`) is available in suite files
and in the schema with no loader change. A field's type becomes a :class:`TypeSpec`:

* ``str``, ``int``, ``float``, ``bool``, ``Literal[...]`` — typed scalars
* ``Any``, ``Matcher`` (and anything unknown) — any value, ``$``-operators allowed
* ``Count`` — an int or ``{at_least: n}`` / ``{at_most: n}`` / ``{between: [a, b]}``
* ``Selector`` — a string (tool name or kind) or a selector mapping
* ``tuple[X, ...]`` — a list; ``X | None`` — nullable; callables — Python only
* another class of the library — its plain data form (the check's converter reads it)

>>> from agent_asserts.checks.tools import CalledTool
>>> sig = signature(CalledTool)
>>> [(p.name, p.spec.kind) for p in sig.params][:4]
[('name', 'str'), ('arguments', 'any'), ('result', 'any'), ('is_error', 'bool')]
>>> sig.positional, [p.name for p in sig.params if p.required]
(('name',), ['name'])
>>> sig.call_positional
('name', 'arguments', 'result', 'is_error', 'count')

A value with where it was written: what the one reader of check fields walks.

Two things are read as a check's fields: a suite file's nodes (file:line:col positions, the
loaders' collector) and plain data (JSON paths, the cattrs converter). The reader
(:func:`read_value`, :func:`check_from_data`, :func:`read_expectation`) walks an
opaque *handle* ``at`` through a :class:`Reading`, which knows the handle's kind of location:
what the value is (:meth:`~Reading.peek`), its items or members, and where and how a problem is
reported. :class:`DataReading` reads plain data; the loaders' ``NodeReading`` reads nodes.

The wording of a type problem is this module's, once: ``must be {what} (got …)``, ``is required
(got null)``. A location family renders the value (``got``) its own way (``true``, ``a list``
in suite files; Python's repr in data), and the few words the two families have always used
differently are one table, :data:`WORDS`, with a column for each.

>>> problems: list[tuple[str, str]] = []
>>> data = DataReading(problems)
>>> at = ([1, "x"], "$.names")
>>> [data.peek(item) for item in data.items_of(at)], data.peek(at) is IS_LIST
([1, 'x'], True)
>>> data.wrong_type(data.items_of(at)[0], "str", "a string")
>>> problems
[('$.names[0]', 'must be a string (got 1)')]

Read one check field's value by its :class:`TypeSpec`.

:func:`read_value` is the one walk over a field's type, for the suite-file loader (nodes with
positions) and for the cattrs converter (plain data with JSON paths): the value is a handle of
a :class:`Reading`, which says what it holds and takes the
problems. Typed scalars are checked, lists read item by item, a union picks the option its
shape fits, counts and selectors go through their data forms, values of type ``Any`` through
the ``$``-operators.

>>> problems: list[tuple[str, str]] = []
>>> data = DataReading(problems)
>>> read_value(({"between": [1, 3]}, "$.count"), TypeSpec("count"), data)
Count.between(1, 3)
>>> read_value(({"tol": "x"}, "$.before"), TypeSpec("selector"), data)
>>> read_value((-1, "$.count"), TypeSpec("count", nullable=True), data)
>>> problems
[('$.before', "unknown selector 'tol' (did you mean 'tool'?)"), \
('$.count', 'a count takes an int >= 0 (got -1)')]

Checks as JSON-ready data and back: :func:`check_to_data` and :func:`check_from_data`.

A check's data form is its native suite-file entry in keyword form, ``Check.to_data()``:
``{method: {field: value, …}}`` (fields at their defaults left out; counts, selectors and
matchers in their own data forms), or ``{"expect": {…}}`` for a value expectation. Reading it
back uses what the registry declares: the method names the class
(:func:`~agent_asserts.checks.all_checks`, ``VALUE_CHECKS``), the class's
:class:`Signature` says what each field takes, and
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

import collections.abc
import functools
import sys
import types
import typing
from collections import ChainMap
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

import attrs

from agent_asserts._text import choice_list, did_you_mean, unknown_key_message
from agent_asserts._values import MISSING
from agent_asserts.checks import all_checks
from agent_asserts.checks.base import Check, argument_to_data
from agent_asserts.checks.expectations import VALUE_CHECKS, LiteralValue, source_for
from agent_asserts.errors import AgentAssertsError, Problem
from agent_asserts.matching import Count, Matcher, OperatorError, from_data
from agent_asserts.record.validators import child, got
from agent_asserts.selectors import Selector, selector_from_data

_SCALARS = {str: "str", int: "int", float: "float", bool: "bool"}


@attrs.frozen
class TypeSpec:
    """The YAML shape of one field type.

    ``kind`` is one of ``str``, ``int``, ``float``, ``bool``, ``choice``, ``any``, ``count``,
    ``selector``, ``list`` (of ``item``), ``union`` (of ``options``), ``callable``, or
    ``data``: an object of the library (a contract assertion…) given in its plain data form,
    which the check's own converter reads.
    """

    kind: str
    nullable: bool = False
    choices: tuple[Any, ...] = ()
    item: TypeSpec | None = None
    options: tuple[TypeSpec, ...] = ()

    @property
    def yaml_ok(self) -> bool:
        """False when a value of this type cannot be written in YAML (a callable).

        >>> from collections.abc import Callable
        >>> type_spec(int).yaml_ok, type_spec(Callable[[int], bool]).yaml_ok
        (True, False)
        """
        if self.kind == "callable":
            return False
        if self.kind == "list" and self.item is not None:
            return self.item.yaml_ok
        return all(option.yaml_ok for option in self.options)

    def fits(self, value: Any) -> bool:
        """True when a value of this shape can be of this type: how a union picks its option.
        The suite-file loader asks with ``[]`` for a list and ``{}`` for a mapping.

        >>> TypeSpec("selector").fits({}), TypeSpec("str").fits(3), TypeSpec("float").fits(3)
        (True, False, True)
        """
        if isinstance(value, list | tuple):
            return self.kind in ("list", "any")
        if isinstance(value, dict):
            return self.kind in ("selector", "count", "any")
        wanted = _FITS.get(self.kind)
        if wanted is not None:
            return isinstance(value, wanted)
        return self.kind in ("any", "choice")


_FITS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "count": (int,),
    "selector": (str,),
}


@attrs.frozen
class Param:
    """One constructor parameter of a check class."""

    name: str
    spec: TypeSpec
    required: bool
    default: Any = MISSING


@attrs.frozen
class Signature:
    """What a check class accepts: its parameters, positional order and varargs field.

    ``positional`` is the class's own order (how ``__init__`` takes its positional fields);
    ``call_positional`` is the order in which a YAML list fills the parameters: the class's
    ``yaml_positional`` (the fluent method's positional parameters, e.g. ``called_tool(name,
    arguments, result, is_error, count)``; the parity test keeps the two equal), else
    ``positional``. ``list_entries`` (the class's ``list_entries``) makes a YAML list mean one check
    per item instead.
    """

    method: str
    cls: type
    params: tuple[Param, ...]
    positional: tuple[str, ...]
    varargs: str | None
    call_positional: tuple[str, ...] = ()
    list_entries: bool = False

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, or None.

        >>> from agent_asserts.checks.tools import CalledTool
        >>> signature(CalledTool).param("count").required, signature(CalledTool).param("x")
        (False, None)
        """
        return next((p for p in self.params if p.name == name), None)

    @property
    def keywords(self) -> tuple[str, ...]:
        """The names a keyword mapping may use (callable fields excluded).

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> signature(MaxSteps).keywords
        ('n',)
        """
        return tuple(p.name for p in self.params if p.spec.yaml_ok)

    @property
    def takes_data(self) -> bool:
        """True when the check's one argument is a library object in its data form (a
        contract assertion): a mapping given to the method is that value, not keywords.

        >>> from agent_asserts.checks.contract import ContractCheck
        >>> from agent_asserts.checks.traces import MaxSteps
        >>> signature(ContractCheck).takes_data, signature(MaxSteps).takes_data
        (True, False)
        """
        if len(self.call_positional) != 1 or self.varargs is not None:
            return False
        param = self.param(self.call_positional[0])
        return param is not None and param.spec.kind == "data"

    @property
    def yaml_ok(self) -> bool:
        """False for checks that need a Python callable (``events_satisfy``…).

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.checks.events import EventsSatisfy
        >>> signature(MaxSteps).yaml_ok, signature(EventsSatisfy).yaml_ok
        (True, False)
        """
        if getattr(self.cls, "python_only", False):
            return False
        return all(p.spec.yaml_ok for p in self.params if p.required)


def _namespace(cls: type) -> ChainMap[str, Any]:
    """Names a field annotation may use, including ones imported only for type checking."""
    extra: dict[str, Any] = {"Callable": collections.abc.Callable, "Any": Any}
    extra.update(Count=Count, Matcher=Matcher, Selector=Selector)
    for module, names in (("agent_asserts.record", ("Event", "TrialRecord")),):
        loaded = sys.modules.get(module)
        for name in names:
            if loaded is not None and hasattr(loaded, name):
                extra[name] = getattr(loaded, name)
    module_globals = vars(sys.modules[cls.__module__])
    return ChainMap(dict(vars(typing)), extra, module_globals)


def _resolve(annotation: Any, cls: type) -> Any:
    """A field's annotation as a type: a string is resolved as ``typing.get_type_hints``
    resolves it, in :func:`_namespace`; a name nothing defines gives ``Any``.

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> _resolve("int | None", MaxSteps), _resolve("NoSuchName", MaxSteps)
    (int | None, typing.Any)
    """
    if not isinstance(annotation, str):
        return annotation

    def holder() -> None: ...

    holder.__annotations__ = {"value": annotation}
    try:
        return typing.get_type_hints(holder, globalns=dict(_namespace(cls)))["value"]
    except Exception:
        return Any


def type_spec(hint: Any) -> TypeSpec:
    """The :class:`TypeSpec` of a resolved type hint.

    >>> type_spec(int | None)
    TypeSpec(kind='int', nullable=True, choices=(), item=None, options=())
    >>> type_spec(tuple[str, ...]).item.kind
    'str'
    """
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(hint)
        nullable = type(None) in args
        rest = [a for a in args if a is not type(None)]
        specs = [type_spec(a) for a in rest]
        kinds = {s.kind for s in specs}
        if "count" in kinds:
            return TypeSpec("count", nullable)
        if "selector" in kinds and kinds <= {"selector", "str"}:
            return TypeSpec("selector", nullable)
        if len(specs) == 1:
            return attrs.evolve(specs[0], nullable=nullable or specs[0].nullable)
        if "any" in kinds:
            return TypeSpec("any", nullable)
        return TypeSpec("union", nullable, options=tuple(specs))
    if origin is typing.Literal:
        return TypeSpec("choice", choices=typing.get_args(hint))
    if origin in (tuple, list, collections.abc.Sequence):
        args = typing.get_args(hint)
        return TypeSpec("list", item=type_spec(args[0] if args else Any))
    if origin is collections.abc.Callable or hint is collections.abc.Callable:
        return TypeSpec("callable")
    if hint is type(None):
        return TypeSpec("any", True)
    if isinstance(hint, type):
        if hint in _SCALARS:
            return TypeSpec(_SCALARS[hint])
        if issubclass(hint, Count):
            return TypeSpec("count")
        if issubclass(hint, Selector):
            return TypeSpec("selector")
        if issubclass(hint, Matcher):
            return TypeSpec("any")  # a matcher is written in its $-operator form
        if hint.__module__.startswith("agent_asserts."):
            return TypeSpec("data")
    return TypeSpec("any")


def signature(cls: type) -> Signature:
    """The :class:`Signature` of a check class (init fields not starting with ``_``).

    >>> from agent_asserts.checks.tools import CalledTool
    >>> [p.name for p in signature(CalledTool).params][:3]
    ['name', 'arguments', 'result']
    """
    params: list[Param] = []
    for field in attrs.fields(cls):
        if not field.init or field.name.startswith("_"):
            continue
        spec = type_spec(_resolve(field.type, cls))
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        required = default is attrs.NOTHING
        params.append(Param(field.name, spec, required, MISSING if required else default))
    method = str(getattr(cls, "method", ""))
    positional = tuple(getattr(cls, "positional", ()))
    return Signature(
        method=method,
        cls=cls,
        params=tuple(params),
        positional=positional,
        varargs=getattr(cls, "varargs", None),
        call_positional=tuple(getattr(cls, "yaml_positional", None) or positional),
        list_entries=bool(getattr(cls, "list_entries", False)),
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


L = TypeVar("L")


Problems = list[tuple[str, str]]


DataAt = tuple[Any, str]


"""A plain-data handle: the value and its JSON path."""


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


IS_LIST: Final = _Marker("IS_LIST")


"""What :meth:`Reading.peek` says of a list."""


IS_MAPPING: Final = _Marker("IS_MAPPING")


"""What :meth:`Reading.peek` says of a mapping."""


UNREADABLE: Final = _Marker("UNREADABLE")


"""What :meth:`Reading.peek` says of a value whose problem was already reported (a bad tag)."""


_COUNT_FORMS = "{at_least: n}, {at_most: n} or {between: [low, high]}"


WORDS: Final[dict[str, tuple[str, str]]] = {
    # where the two families word a problem differently: (suite files, JSON data); the data
    # words are those of JSON data elsewhere in the library (the record decoder's "must be a
    # boolean", the texts of Count.from_data)
    "boolean": ("true or false", "a boolean"),
    "not a count": (
        f"must be a count: an int, {_COUNT_FORMS}",
        f"a count is an int, {_COUNT_FORMS}",
    ),
    "negative count": ("must be >= 0", "a count takes an int >= 0"),
    "callable": (
        "takes a Python callable and cannot be written in a suite file",
        "takes a Python callable, which has no data form",
    ),
}


"""The few words the suite files and the JSON data form have always used differently."""


class Reading(Generic[L]):
    """How values of one kind of location are looked at and where their problems go.

    ``FAMILY`` picks the column of :data:`WORDS` (0: suite files, 1: JSON data);
    ``NULL_IS_A_VALUE`` is True where ``null`` is a value an ``any`` or ``data`` field may
    hold (written data: ``MemoryWasSet(name, None)``), False where a ``null`` is a forgotten
    value (a suite file).
    """

    FAMILY = 0
    NULL_IS_A_VALUE = False

    def words(self, problem: str) -> str:
        """This family's words for ``problem`` (a key of :data:`WORDS`).

        >>> Reading().words("boolean"), DataReading([]).words("boolean")
        ('true or false', 'a boolean')
        """
        return WORDS[problem][self.FAMILY]

    def peek(self, at: L) -> Any:
        """The scalar at ``at``, or :data:`IS_LIST`, :data:`IS_MAPPING`, :data:`UNREADABLE`."""
        raise NotImplementedError

    def items_of(self, at: L) -> Sequence[L]:
        """The items of a list."""
        raise NotImplementedError

    def keys_of(self, at: L) -> Collection[str]:
        """The keys of a mapping."""
        raise NotImplementedError

    def member(self, at: L, key: str) -> L:
        """The value under ``key`` of a mapping."""
        raise NotImplementedError

    def plain(self, at: L) -> Any:
        """The value as plain data (dicts, lists, scalars)."""
        raise NotImplementedError

    def got(self, at: L) -> str:
        """The value as a message shows it after ``got``."""
        raise NotImplementedError

    def problem(self, at: L, message: str) -> None:
        """Report ``message`` at ``at``."""
        raise NotImplementedError

    def key_problem(self, at: L, key: str, message: str) -> None:
        """Report ``message`` about the key ``key`` of the mapping at ``at``."""
        raise NotImplementedError

    def raised(self, at: L, exc: Exception) -> None:
        """Report what a constructor or decoder raised; an error listing its own problems at
        relative paths gives one problem each, at its own place."""
        raise NotImplementedError

    def problem_count(self) -> int:
        """How many problems were reported so far."""
        raise NotImplementedError

    def unreadable_below(self, at: L) -> bool:
        """True when a value at or below ``at`` could not be read (already reported)."""
        return False

    def must_be(self, at: L, kind: str, what: str) -> str:
        """The message for a value that is not ``what`` (a field of ``kind``)."""
        return f"must be {what} (got {self.got(at)})"

    def wrong_type(self, at: L, kind: str, what: str) -> None:
        """Report that the value is not ``what``: ``is required (got null)`` for a null, nothing
        more for an unreadable value, else :meth:`must_be`.

        >>> problems: list[tuple[str, str]] = []
        >>> data = DataReading(problems)
        >>> data.wrong_type((None, "$.a"), "str", "a string")
        >>> data.wrong_type(("yes", "$.b"), "bool", data.words("boolean"))
        >>> problems
        [('$.a', 'is required (got null)'), ('$.b', "must be a boolean (got 'yes')")]
        """
        value = self.peek(at)
        if value is UNREADABLE:
            return
        self.problem(
            at, "is required (got null)" if value is None else self.must_be(at, kind, what)
        )


class DataReading(Reading[DataAt]):
    """Plain data (what ``to_data`` wrote) with JSON paths; problems as ``(path, message)``."""

    FAMILY = 1
    NULL_IS_A_VALUE = True

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def peek(self, at: DataAt) -> Any:
        value = at[0]
        if isinstance(value, list | tuple):
            return IS_LIST
        return IS_MAPPING if isinstance(value, Mapping) else value

    def items_of(self, at: DataAt) -> Sequence[DataAt]:
        path = at[1]
        return [(value, child(path, i)) for i, value in enumerate(at[0])]

    def keys_of(self, at: DataAt) -> Collection[str]:
        keys: Collection[str] = at[0].keys()
        return keys

    def member(self, at: DataAt, key: str) -> DataAt:
        return at[0][key], child(at[1], key)

    def plain(self, at: DataAt) -> Any:
        return at[0]

    def got(self, at: DataAt) -> str:
        return got(at[0])

    def problem(self, at: DataAt, message: str) -> None:
        self.problems.append((at[1], message))

    def key_problem(self, at: DataAt, key: str, message: str) -> None:
        self.problems.append((at[1], message))

    def raised(self, at: DataAt, exc: Exception) -> None:
        self.problems.extend(problems_of(exc, at[1]))

    def problem_count(self) -> int:
        return len(self.problems)


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


ANY = TypeSpec("any")


COUNT_KEYS = ("at_least", "at_most", "between", "exactly")


def read_value(at: L, spec: TypeSpec, via: Reading[L]) -> Any:
    """The value at ``at`` as ``spec`` says; on a problem, ``None`` (and the problem reported
    through ``via``). A ``null`` is ``None`` for a nullable type (and, where ``via`` holds
    written data, for ``any`` and ``data``), else ``is required (got null)``.

        >>> problems: list[tuple[str, str]] = []
    >>> read_value(([1], "$.names"), TypeSpec("list", item=TypeSpec("str")), DataReading(problems))
    (None,)
    >>> problems
    [('$.names[0]', 'must be a string (got 1)')]
    """
    value = via.peek(at)
    if value is None:
        if spec.nullable or (via.NULL_IS_A_VALUE and spec.kind in ("any", "data")):
            return None
        via.problem(at, "is required (got null)")
        return None
    if value is UNREADABLE:
        return None
    return _READERS.get(spec.kind, _any)(at, value, spec, via)


def _str(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, str):
        return value
    via.wrong_type(at, "str", "a string")
    return None


def _int(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    via.wrong_type(at, "int", "an integer")
    return None


def _float(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    via.wrong_type(at, "float", "a number")
    return None


def _bool(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, bool):
        return value
    via.wrong_type(at, "bool", via.words("boolean"))
    return None


def _choice(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if value in spec.choices:
        return value
    via.wrong_type(at, "choice", choice_list(list(spec.choices)))
    return None


def _list(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if value is not IS_LIST:
        via.wrong_type(at, "list", "a list")
        return None
    item = spec.item or ANY
    return tuple(read_value(one, item, via) for one in via.items_of(at))


def _union(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """The first option whose shape fits the value (lists for list options, etc.)."""
    shape = [] if value is IS_LIST else {} if value is IS_MAPPING else value
    for option in spec.options:
        if option.fits(shape):
            return read_value(at, option, via)
    return read_value(at, spec.options[0], via) if spec.options else None


def _count(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """An int >= 0 as it is, a count mapping as a :class:`Count`."""
    if value is IS_MAPPING:
        keys = via.keys_of(at)
        unknown = [str(key) for key in keys if key not in COUNT_KEYS]
        for key in unknown:
            via.key_problem(at, key, unknown_key_message(key, COUNT_KEYS))
        if unknown:
            return None
        if len(keys) != 1:
            via.problem(at, f"{via.words('not a count')} (got {len(keys)} keys)")
            return None
        try:
            return Count.from_data(via.plain(at))
        except (TypeError, ValueError) as exc:
            via.problem(at, str(exc))
            return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 0:
            return value
        via.problem(at, f"{via.words('negative count')} (got {via.got(at)})")
        return None
    via.problem(at, f"{via.words('not a count')} (got {via.got(at)})")
    return None


def _selector(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """A plain string as the check reads it (a tool name or a kind), or a selector mapping."""
    if isinstance(value, str):
        return value
    if value is not IS_MAPPING:
        via.wrong_type(at, "selector", "a name or a selector mapping")
        return None
    try:
        return selector_from_data(from_data(via.plain(at)))
    except (TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None


def _data(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """An object of the library in its data form: the check's own converter reads it."""
    return via.plain(at)


def _callable(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    via.problem(at, via.words("callable"))
    return None


def _any(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """Any value, ``$``-operator mappings turned into matchers."""
    try:
        return from_data(via.plain(at))
    except (OperatorError, TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None


_READERS: dict[str, Callable[[Any, Any, TypeSpec, Reading[Any]], Any]] = {
    "str": _str,
    "int": _int,
    "float": _float,
    "bool": _bool,
    "choice": _choice,
    "list": _list,
    "union": _union,
    "count": _count,
    "selector": _selector,
    "data": _data,
    "callable": _callable,
}


# -- checks as JSON-ready data and back --------------------------------------------------------

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
    it does not fit: :func:`read_value` over plain data at
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
    "COUNT_KEYS",
    "EXPECT_SOURCES",
    "IS_LIST",
    "IS_MAPPING",
    "UNREADABLE",
    "CheckDataError",
    "DataAt",
    "DataReading",
    "Param",
    "Problems",
    "Reading",
    "Signature",
    "TypeSpec",
    "UnserializableCheck",
    "build_check",
    "check_from_data",
    "check_to_data",
    "expect_signatures",
    "problems_of",
    "read_expectation",
    "read_value",
    "signature",
    "type_spec",
    "value_from_data",
]
