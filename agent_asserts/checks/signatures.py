"""What a check class accepts in YAML/JSON, read from its attrs fields and type hints.

The native dialect, its JSON Schema and the converter of :mod:`agent_asserts.serialization`
(through :mod:`agent_asserts.checks.data`) are all built from these signatures, so a new check
class (registered in :data:`agent_asserts.checks.registry.CHECKS`) is available in suite files
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
"""

from __future__ import annotations

import collections.abc
import sys
import types
import typing
from collections import ChainMap
from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching import Count, Matcher
from agent_asserts.selectors.calls import Selector

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

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> signature(MaxSteps).keywords
        ('n',)
        """
        return tuple(p.name for p in self.params if p.spec.yaml_ok)

    @property
    def takes_data(self) -> bool:
        """True when the check's one argument is a library object in its data form (a
        contract assertion): a mapping given to the method is that value, not keywords.

        >>> from agent_asserts.checks.contract import ContractCheck
        >>> from agent_asserts.checks.cost import MaxSteps
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

        >>> from agent_asserts.checks.cost import MaxSteps
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
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, {}, _namespace(cls))
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


__all__ = ["Param", "Signature", "TypeSpec", "build_check", "signature", "type_spec"]
