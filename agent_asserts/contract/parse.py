"""Reading the dict/YAML form of a contract into the objects, reporting every problem.

Two shapes are accepted: ``contract: <name>`` with ``assertions: [...]`` (each with an ``id``),
or one bare assertion ``{bind, require}`` (seed 002's example; its id is the contract's name).
``$``-operators in ``where`` and in literal ``right`` values become matchers; ``{$bind: name}``
in ``right`` reads another binding; a JSON Schema in ``right`` stays as written. A key written
with a null value is reported as ``is required (got null)`` (never read as absent), except
``right``, where null is the literal value null.

>>> from agent_asserts.contract.problems import Problems
>>> p = Problems()
>>> parse_contract(p, {"bind": {}, "require": {"op": "eqals", "left": "x"}}) is None
True
>>> print(p.error())
2 problems in the contract:
  require.left: 'x' is not bound (bound: none)
  require.op: must be one of 'equals', 'contains', ... (got 'eqals'; did you mean 'equals'?)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from agent_asserts._depth import depth_message, too_deep
from agent_asserts._values import MISSING
from agent_asserts.contract.grammar import (
    ASSERTION_KEYS,
    BIND_OPERATOR,
    BINDING_KEYS,
    CONDITION_KEYS,
    CONTRACT_KEYS,
    REQUIRE_KEYS,
    BindRef,
)
from agent_asserts.contract.model import (
    Binding,
    Condition,
    Contract,
    ContractAssertion,
    Requirement,
)
from agent_asserts.contract.operators import row_of
from agent_asserts.contract.problems import (
    NULL,
    UNCHECKED,
    ContractError,
    Problems,
    Shape,
    check_assertion,
    check_binding,
    check_requirement,
    check_unique_ids,
    shape_of,
)
from agent_asserts.matching import OperatorError, from_data

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


__all__ = ["parse_assertion", "parse_binding", "parse_contract", "parse_requirement"]
