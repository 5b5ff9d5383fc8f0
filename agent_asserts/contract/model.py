"""The contract model: ``Binding``, ``Requirement``, ``Condition``, ``ContractAssertion`` and
``Contract`` (frozen attrs objects, each checks itself when built), ``as_contract(spec)``, and
the parser of the dict/YAML form (``parse_contract``, ``parse_assertion``, ...).

>>> a = ContractAssertion(
...     "every-mutation-audited",
...     bind=(Binding("mutations", "trace", where={"kind": "mutation", "status": "succeeded"}),
...           Binding("audits", "trace", where={"kind": "audit"})),
...     require=Requirement("has_matching", "mutations", "audits",
...                         on=("operation_ref", "actor_ref", "entity_ref"), within="2s"),
...     severity="critical",
... )
>>> a.require.within, a.gate_severity.value
(2.0, 'gate')
>>> Requirement("equals", "status", "refunded", quantifier="evry")
Traceback (most recent call last):
...
agent_asserts.contract.problems.ContractError: quantifier: must be one of 'every', 'some', ...

The two parts of an assertion: ``Binding`` (what to select) and ``Requirement`` (the relation
that must hold).

>>> Binding("audits", "trace", where={"kind": "audit"}).shape.events
True
>>> Requirement("has_matching", "mutations", "audits", on=["operation_ref"], within="2s").within
2.0
>>> Requirement("equals", "status", "refunded", quantifier="evry")
Traceback (most recent call last):
...
agent_asserts.contract.problems.ContractError: quantifier: must be one of 'every', 'some', ...

``as_contract(spec)`` gives a :class:`Contract` from a contract or its dict form.

Files are read at the edges (``agent_asserts.loaders.load_contract(path)`` gives a
``Contract`` with file positions in every problem); this layer only knows data.

>>> as_contract({"bind": {"n": {"from": "trace", "extract": "count"}},
...     "require": {"op": "equals", "left": "n", "right": 0}}).name
'contract'

The parser reads the dict/YAML form of a contract into the objects, reporting every problem.
Two shapes are accepted: ``contract: <name>`` with ``assertions: [...]`` (each with an ``id``),
or one bare assertion ``{bind, require}`` (seed 002's example; its id is the contract's name).
``$``-operators in ``where`` and in literal ``right`` values become matchers; ``{$bind: name}``
in ``right`` reads another binding; a JSON Schema in ``right`` stays as written. A key written
with a null value is reported as ``is required (got null)`` (never read as absent), except
``right``, where null is the literal value null.

>>> p = Problems()
>>> parse_contract(p, {"bind": {}, "require": {"op": "eqals", "left": "x"}}) is None
True
>>> print(p.error())
2 problems in the contract:
  require.left: 'x' is not bound (bound: none)
  require.op: must be one of 'equals', 'contains', ... (got 'eqals'; did you mean 'equals'?)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from agent_asserts._values import MISSING, depth_message, too_deep
from agent_asserts.contract.grammar import (
    ASSERTION_KEYS,
    BIND_OPERATOR,
    BINDING_KEYS,
    CONDITION_KEYS,
    CONTRACT_KEYS,
    GATE_SEVERITIES,
    REQUIRE_KEYS,
    BindRef,
    Extract,
    format_within,
    parse_extract,
    parse_within,
)
from agent_asserts.contract.problems import (
    NULL,
    UNCHECKED,
    ContractError,
    ContractProblem,
    Problems,
    Shape,
    check_assertion,
    check_binding,
    check_requirement,
    check_unique_ids,
    shape_of,
)
from agent_asserts.contract.relations import Operator, operator_of, row_of
from agent_asserts.matching import OperatorError, from_data, value_to_data
from agent_asserts.status import Severity


def _within(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return parse_within(value)
    except ValueError as exc:
        raise ContractError([ContractProblem(("within",), str(exc))]) from None


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)  # validated later: a bare string is reported as not a list
    return tuple(value)


def _freeze_where(value: Any) -> Mapping[str, Any]:
    return {} if value is None else dict(value)


@attrs.frozen
class Binding:
    """A named selection: ``from`` trace, initial_state, final_state or delta.

    Attributes:
        name: The name ``require`` uses.
        source: ``trace``, ``initial_state``, ``final_state`` or ``delta`` (``from:``).
        where: Trace: envelope fields and ``payload`` (partial, ``$``-operators allowed);
            delta: ``path`` (a pointer prefix) and ``op``.
        path: A JSON Pointer into a state (states only; default: the whole state).
        extract: ``<path>``, ``count``, ``first``, ``last`` or ``set(<path>)``.

    >>> Binding("refund", "trace", where={"kind": "tool_call"}, extract="first").shape.single
    True
    """

    name: str
    source: str
    where: Mapping[str, Any] = attrs.field(factory=dict, converter=_freeze_where)
    path: str | None = None
    extract: str | None = None

    def __attrs_post_init__(self) -> None:
        p = Problems()
        check_binding(p, **attrs.asdict(self, recurse=False))
        p.raise_if_any()

    @property
    def parsed_extract(self) -> Extract | None:
        """The parsed ``extract`` (None without one)."""
        return None if self.extract is None else parse_extract(self.extract)

    @property
    def shape(self) -> Shape:
        """One value or a selection, of events or not."""
        return Shape(self.source, self.parsed_extract)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form (``from:`` for ``source``).

        >>> Binding("s", "final_state", path="/orders/A1/status").to_dict()
        {'from': 'final_state', 'path': '/orders/A1/status'}
        """
        out: dict[str, Any] = {"from": self.source}
        if self.where:
            out["where"] = value_to_data(self.where)
        if self.path is not None:
            out["path"] = self.path
        if self.extract is not None:
            out["extract"] = self.extract
        return out


def _right_to_data(row: Operator, right: Any) -> Any:
    if isinstance(right, BindRef):
        return right.to_data()
    return right if row.right in ("schema", "criterion") else value_to_data(right)


@attrs.frozen
class Requirement:
    """The relation that must hold: ``op`` between ``left`` and ``right``.

    ``right`` is a binding name for has_matching, precedes and follows_within, and a literal
    (or a :class:`~agent_asserts.contract.grammar.BindRef`) for the others; ``quantifier``
    None means ``every``; ``within`` is read as seconds (``"500ms"``, ``"2s"``, ``1.5``).

    >>> Requirement("count_at_most", "refunds", 1).to_dict()
    {'op': 'count_at_most', 'left': 'refunds', 'right': 1}
    """

    op: str
    left: str
    right: Any = MISSING
    quantifier: str | None = None
    on: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    within: float | None = attrs.field(default=None, converter=_within)
    matcher: str | None = None
    grounding: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    custom: str | None = None

    def __attrs_post_init__(self) -> None:
        p = Problems()
        self.check(p, None)
        p.raise_if_any()

    def check(self, p: Problems, bindings: Mapping[str, Shape | None] | None) -> None:
        """Add this requirement's problems to ``p`` (names checked against ``bindings``)."""
        check_requirement(p, **attrs.asdict(self, recurse=False), bindings=bindings)

    @property
    def evaluator_type(self) -> str:
        """``semantic`` for judged matchers, ``custom`` for a custom one, else deterministic.

        >>> Requirement("matcher", "m", matcher="custom", custom="f").evaluator_type
        'custom'
        """
        return operator_of(self).evaluator_type

    @property
    def effective_quantifier(self) -> str:
        """The quantifier, ``every`` by default."""
        return self.quantifier or "every"

    def names(self) -> tuple[str, ...]:
        """Every binding name this requirement reads (left, right, ``$bind``, grounding)."""
        names = [self.left]
        if isinstance(self.right, BindRef):
            names.append(self.right.name)
        elif operator_of(self).right == "binding":
            names.append(self.right)
        names.extend(self.grounding)
        return tuple(dict.fromkeys(names))

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form (``within`` as a duration, ``$bind`` for binding values)."""
        out: dict[str, Any] = {}
        if self.quantifier is not None:
            out["quantifier"] = self.quantifier
        out["op"] = self.op
        out["left"] = self.left
        if self.right is not MISSING:
            out["right"] = _right_to_data(operator_of(self), self.right)
        if self.on:
            out["on"] = list(self.on)
        if self.within is not None:
            out["within"] = format_within(self.within)
        if self.matcher is not None:
            out["matcher"] = self.matcher
        if self.grounding:
            out["grounding"] = list(self.grounding)
        if self.custom is not None:
            out["custom"] = self.custom
        return out


def _bindings(value: Iterable[Binding] | Mapping[str, Binding]) -> tuple[Binding, ...]:
    if isinstance(value, Mapping):
        return tuple(value.values())
    return tuple(value)


def scope(*groups: Iterable[Binding]) -> dict[str, Binding]:
    """Binding names to bindings; later groups shadow earlier ones."""
    out: dict[str, Binding] = {}
    for group in groups:
        out.update((b.name, b) for b in group)
    return out


@attrs.frozen
class Condition:
    """``when: {bind, require}``: the assertion applies only when this requirement passes.

    Its ``require`` may also read the assertion's own bindings (its ``bind`` shadows them).
    """

    require: Requirement
    bind: tuple[Binding, ...] = attrs.field(default=(), converter=_bindings)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form."""
        out: dict[str, Any] = {}
        if self.bind:
            out["bind"] = {b.name: b.to_dict() for b in self.bind}
        out["require"] = self.require.to_dict()
        return out


def _shapes(bindings: Mapping[str, Binding]) -> dict[str, Shape | None]:
    return {name: b.shape for name, b in bindings.items()}


@attrs.frozen
class ContractAssertion:
    """One assertion: bindings, the requirement, an optional condition, a severity.

    ``severity`` is critical, high (default), medium or low: critical and high gate the case,
    medium and low only score it. ``allow_empty`` lets ``every``/``some`` pass over an empty
    selection.
    """

    id: str
    bind: tuple[Binding, ...] = attrs.field(converter=_bindings)
    require: Requirement
    when: Condition | None = None
    severity: str = "high"
    allow_empty: bool = False

    def __attrs_post_init__(self) -> None:
        p = Problems()
        self.check(p)
        p.raise_if_any()

    def check(self, p: Problems) -> None:
        """Add the cross-reference problems (unbound names, shapes) to ``p``."""
        check_assertion(p, ident=self.id, severity=self.severity, allow_empty=self.allow_empty)
        names = [b.name for b in self.bind]
        for name in {n for n in names if names.count(n) > 1}:
            p.add(("bind",), f"{name!r} is bound twice")
        own = scope(self.bind)
        self.require.check(p.at("require"), _shapes(own))
        if self.when is not None:
            inner = scope(self.bind, self.when.bind)
            self.when.require.check(p.at("when", "require"), _shapes(inner))

    @property
    def gate_severity(self) -> Severity:
        """``GATE`` for critical and high, ``SOFT`` for medium and low."""
        return Severity.GATE if self.severity in GATE_SEVERITIES else Severity.SOFT

    @property
    def bindings(self) -> dict[str, Binding]:
        """The bindings by name."""
        return scope(self.bind)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form of the assertion."""
        out: dict[str, Any] = {"id": self.id, "severity": self.severity}
        if self.when is not None:
            out["when"] = self.when.to_dict()
        out["bind"] = {b.name: b.to_dict() for b in self.bind}
        out["require"] = self.require.to_dict()
        if self.allow_empty:
            out["allow_empty"] = True
        return out


def _assertions(value: Iterable[ContractAssertion]) -> tuple[ContractAssertion, ...]:
    return tuple(value)


@attrs.frozen
class Contract:
    """A named list of assertions over one record (ids are unique).

    >>> Contract.from_dict({"bind": {"s": {"from": "final_state", "path": "/a"}},
    ...                     "require": {"op": "equals", "left": "s", "right": 1}}).to_dict()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'contract': 'contract', 'assertions': [{'id': 'contract', 'severity': 'high',
      'bind': {'s': {'from': 'final_state', 'path': '/a'}},
      'require': {'op': 'equals', 'left': 's', 'right': 1}}]}
    """

    name: str = "contract"
    assertions: tuple[ContractAssertion, ...] = attrs.field(default=(), converter=_assertions)

    def __attrs_post_init__(self) -> None:
        p = Problems()
        if not isinstance(self.name, str) or not self.name:
            p.add(("contract",), f"must be a non-empty string (got {self.name!r})")
        check_unique_ids(p, [a.id for a in self.assertions])
        p.raise_if_any()

    @classmethod
    def from_dict(cls, data: Any, *, name: str | None = None) -> Contract:
        """Read the dict/YAML form (``contract:`` + ``assertions:``, or one bare assertion).

        Args:
            data: The parsed document.
            name: The contract name when the document gives none (default ``contract``).

        Raises:
            ContractError: Every problem of the document, each with its key path.

        >>> Contract.from_dict({"assertions": [{"id": "a", "bind": {},
        ...     "require": {"op": "equals", "left": "x", "right": 1}}]})
        Traceback (most recent call last):
        ...
        agent_asserts.contract.problems.ContractError: assertions[0].require.left: 'x' is not ...
        """
        p = Problems()
        contract = parse_contract(p, data, default_name=name)
        p.raise_if_any()
        if contract is None:  # pragma: no cover - a None contract always comes with a problem
            raise p.error()
        return contract

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form; ``Contract.from_dict(c.to_dict()) == c``."""
        return {"contract": self.name, "assertions": [a.to_dict() for a in self.assertions]}


ContractSpec = Contract | Mapping[str, Any]
SPEC_KINDS = "a Contract, its dict form or a Suite loaded from a contract file"


def spec_type_error(spec: Any) -> TypeError:
    """The error for a spec of none of the accepted kinds (a path gets a pointer to the loader).

    >>> print(spec_type_error("audit.yaml"))
    a contract spec is ... (got a path, 'audit.yaml': read it with
    agent_asserts.loaders.load_contract(path))
    """
    if isinstance(spec, str | os.PathLike):
        return TypeError(
            f"a contract spec is {SPEC_KINDS} (got a path, {os.fspath(spec)!r}: read it with "
            f"agent_asserts.loaders.load_contract(path))"
        )
    return TypeError(f"a contract spec is {SPEC_KINDS} (got {type(spec).__name__})")


def as_contract(spec: Any) -> Contract:
    """A :class:`Contract` from a contract or its dict form.

    Raises:
        ContractError: The dict form has problems (key paths).
        TypeError: ``spec`` is neither (the message names its type).

    >>> as_contract(42)
    Traceback (most recent call last):
    ...
    TypeError: a contract spec is a Contract, its dict form or a Suite loaded ... (got int)

    >>> as_contract({"contract": "c", "assertions": [{"id": "a", "bind": {},
    ...     "require": {"op": "equals", "left": "nope", "right": 1}}]})
    Traceback (most recent call last):
    ...
    agent_asserts.contract.problems.ContractError: assertions[0].require.left: 'nope' is not ...
    """
    if isinstance(spec, Contract):
        return spec
    if isinstance(spec, Mapping):
        return Contract.from_dict(spec)
    raise spec_type_error(spec)


# The dict/YAML form: reading it into the objects, reporting every problem.

T = TypeVar("T")

_YAML11 = (
    " (YAML 1.1 reads a bare on: as true: quote it, or load the file with agent_asserts.loaders)"
)


def _mapping(p: Problems, value: Any, path: tuple[str | int, ...], what: str) -> bool:
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                hint = _YAML11 if key is True else ""
                p.add(path, f"keys must be strings (got {key!r}){hint}", key=str(key))
        return True
    got = "a list" if isinstance(value, list | tuple) else repr(value)
    subject = "" if p.prefix or path else f"{what} "
    p.add(path, f"{subject}must be a mapping (got {got})")
    return False


def _keys(
    p: Problems,
    data: Mapping[str, Any],
    allowed: Sequence[str],
    required: Sequence[str],
    nullable: Sequence[str] = (),
) -> dict[str, Any]:
    """Report missing and unknown keys; returns ``data`` with each null value of a known key
    (but ``nullable`` ones) reported as ``is required (got null)`` and replaced by
    :data:`UNCHECKED`, so no other check reports it again."""
    for key in required:
        if key not in data:
            p.add((), f"required key {key!r} missing")
    out = dict(data)
    for key, value in data.items():
        if not isinstance(key, str):
            continue
        if key not in allowed:
            p.unknown_key((), key, allowed)
        elif value is None and key not in nullable:
            p.add((key,), NULL)
            out[key] = UNCHECKED
    return out


def _built(p: Problems, before: int, build: Callable[[], T]) -> T | None:
    """``build()`` when no problem was added since ``before``; its own problems otherwise."""
    if len(p) > before:
        return None
    try:
        return build()
    except ContractError as exc:
        for problem in exc.problems:
            p.add(problem.parts, problem.message, key=problem.key)
        return None


def parse_binding(p: Problems, name: str, data: Any) -> Binding | None:
    """One binding (``p`` is positioned at the binding)."""
    before = len(p)
    if not _mapping(p, data, (), f"binding {name!r}"):
        return None
    data = _keys(p, data, BINDING_KEYS, ("from",))
    source = data.get("from")
    raw_where = where = data.get("where")
    if where is not None and source == "trace" and isinstance(where, Mapping):
        where = _convert(p.at("where"), where)
    check_binding(
        p,
        name=name,
        source=source,
        where=raw_where if where is UNCHECKED else where,  # its keys are still checked
        path=data.get("path"),
        extract=data.get("extract"),
    )
    return _built(
        p,
        before,
        lambda: Binding(
            name, source, where=where, path=data.get("path"), extract=data.get("extract")
        ),
    )


def _convert(p: Problems, value: Any) -> Any:
    try:
        return from_data(value)
    except OperatorError as exc:
        for problem in exc.problems:
            p.add(problem.parts, problem.message)
    except (TypeError, ValueError) as exc:
        p.add((), str(exc))
    return UNCHECKED


def _right(p: Problems, data: Mapping[str, Any]) -> Any:
    if "right" not in data:
        return MISSING
    right = data["right"]
    if isinstance(right, Mapping) and BIND_OPERATOR in right:
        if len(right) != 1:
            p.add(("right",), f"{{{BIND_OPERATOR}: name}} takes no other keys")
            return UNCHECKED
        return BindRef(right[BIND_OPERATOR])
    row = row_of(data.get("op"), data.get("matcher"))
    if row is not None and row.right in ("schema", "criterion"):  # kept as written
        return right
    return _convert(p.at("right"), right)


def parse_requirement(
    p: Problems, data: Any, shapes: Mapping[str, Shape | None] | None
) -> Requirement | None:
    """One ``require`` (``p`` is positioned at it); names are checked against ``shapes``."""
    before = len(p)
    if data is UNCHECKED or not _mapping(p, data, (), "require"):
        return None
    data = _keys(p, data, REQUIRE_KEYS, ("op", "left"), nullable=("right",))
    right = _right(p, data)
    fields = {key: data.get(key) for key in REQUIRE_KEYS if key != "right"}
    if fields["on"] not in (None, UNCHECKED) and not isinstance(fields["on"], list):
        p.add(("on",), f"must be a list of field names (got {fields['on']!r})")
        fields["on"] = UNCHECKED
    if fields["grounding"] not in (None, UNCHECKED) and not isinstance(fields["grounding"], list):
        p.add(("grounding",), f"must be a list of binding names (got {fields['grounding']!r})")
        fields["grounding"] = UNCHECKED
    if "op" in data and "left" in data:
        check_requirement(p, right=right, bindings=shapes, **fields)
    return _built(p, before, lambda: Requirement(right=right, **fields))


def _parse_bind(p: Problems, data: Any) -> tuple[list[Binding], dict[str, Shape | None] | None]:
    """The bindings and their shapes (None when ``bind`` itself is unusable: names unchecked)."""
    bindings: list[Binding] = []
    shapes: dict[str, Shape | None] = {}
    if data is UNCHECKED:  # a null bind: the names cannot be checked
        return bindings, None
    if not _mapping(p, data, (), "bind"):
        return bindings, shapes
    for name, raw in data.items():
        if not isinstance(name, str):
            continue
        binding = parse_binding(p.at(name), name, raw)
        if binding is not None:
            bindings.append(binding)
        ok = isinstance(raw, Mapping)
        shapes[name] = shape_of(raw.get("from"), raw.get("extract")) if ok else None
    return bindings, shapes


def _too_deep(p: Problems, data: Any) -> bool:
    """Whether ``data`` is nested past the limit of nesting (one problem at its path): found
    before any message renders a value of it, which a deep value would not survive."""
    where = too_deep(data)
    if where is None:
        return False
    p.add(where, depth_message())
    return True


def parse_assertion(
    p: Problems, data: Any, *, default_id: str | None, extra_keys: Sequence[str] = ()
) -> ContractAssertion | None:
    """One assertion (``p`` is positioned at it); ``default_id`` serves the bare form."""
    before = len(p)
    if _too_deep(p, data) or not _mapping(p, data, (), "an assertion"):
        return None
    required = ("bind", "require") if default_id is not None else ("id", "bind", "require")
    data = _keys(p, data, (*ASSERTION_KEYS, *extra_keys), required)
    ident = data.get("id", default_id)
    severity = data.get("severity", "high")
    allow_empty = data.get("allow_empty", False)
    shown_id = ident if "id" in data else UNCHECKED
    check_assertion(p, ident=shown_id, severity=severity, allow_empty=allow_empty)
    bindings, shapes = _parse_bind(p.at("bind"), data.get("bind", {}))
    require = None
    if "require" in data:
        require = parse_requirement(p.at("require"), data["require"], shapes)
    when = None
    if "when" in data and data["when"] is not UNCHECKED:
        when = _parse_when(p.at("when"), data["when"], shapes)
    if require is None:
        return None
    return _built(
        p,
        before,
        lambda: ContractAssertion(
            ident,
            bindings,
            require,
            when=when,
            severity=severity,
            allow_empty=allow_empty,
        ),
    )


def _parse_when(
    p: Problems, data: Any, outer: Mapping[str, Shape | None] | None
) -> Condition | None:
    before = len(p)
    if not _mapping(p, data, (), "when"):
        return None
    data = _keys(p, data, CONDITION_KEYS, ("require",))
    bindings, shapes = _parse_bind(p.at("bind"), data.get("bind", {}))
    require = None
    if "require" in data:
        scope = None if outer is None or shapes is None else {**outer, **shapes}
        require = parse_requirement(p.at("require"), data["require"], scope)
    if require is None:
        return None
    return _built(p, before, lambda: Condition(require, bindings))


def parse_contract(p: Problems, data: Any, *, default_name: str | None = None) -> Contract | None:
    """A whole contract document; None (with problems in ``p``) when it has any problem."""
    before = len(p)
    if _too_deep(p, data) or not _mapping(p, data, (), "a contract"):
        return None
    if "assertions" in data:
        data = _keys(p, data, CONTRACT_KEYS, ())
    else:  # the bare form: parse_assertion checks the keys
        data = dict(data)
        for key in ("contract", "name"):
            if key in data and data[key] is None:
                p.add((key,), NULL)
                data[key] = UNCHECKED
    name = data.get("contract", data.get("name", default_name or "contract"))
    if "contract" in data and "name" in data:
        p.add((), "give the contract's name once: contract: or name:, not both", key="name")
    key = "contract" if "contract" in data else "name"
    if name is not UNCHECKED and (not isinstance(name, str) or not name):
        p.add((key,), f"must be a non-empty string (got {name!r})")
    assertions: list[ContractAssertion | None] = []
    if "assertions" in data:
        items = data["assertions"]
        if items is UNCHECKED:
            items = []
        elif not isinstance(items, list) or not items:
            p.add(("assertions",), f"must be a non-empty list of assertions (got {items!r})")
            items = []
        for index, item in enumerate(items):
            assertions.append(parse_assertion(p.at("assertions", index), item, default_id=None))
        check_unique_ids(p, [i.get("id") if isinstance(i, Mapping) else None for i in items])
    else:
        ident = name if isinstance(name, str) and name else "contract"
        assertions.append(
            parse_assertion(p, data, default_id=ident, extra_keys=("contract", "name"))
        )
    if len(p) > before or any(a is None for a in assertions):
        return None
    return _built(p, before, lambda: Contract(name, [a for a in assertions if a is not None]))


__all__ = [
    "SPEC_KINDS",
    "Binding",
    "Condition",
    "Contract",
    "ContractAssertion",
    "ContractSpec",
    "Requirement",
    "as_contract",
    "parse_assertion",
    "parse_binding",
    "parse_contract",
    "parse_requirement",
    "scope",
    "spec_type_error",
]
