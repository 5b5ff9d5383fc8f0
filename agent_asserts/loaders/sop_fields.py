"""The field assertions of SOP ``tool_input_contains``/``tool_output_contains`` entries.

``assertions`` maps a field (dotted, or a JSON Pointer) to ``{op, value}``; the operators
become matchers and the fields one nested partial mapping (the ``arguments`` or ``result`` of
the ``CalledTool`` that :mod:`agent_asserts.loaders.sop` builds).

>>> nest([(field_path("order.id"), op_matcher("equals", 123))])
{'order': {'id': M.loose(123)}}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, Literal

import attrs

from agent_asserts._text import unknown_key_message
from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.errors import choice_list
from agent_asserts.loaders.nodes import Node, ScalarNode, describe_value
from agent_asserts.matching import M, Matcher
from agent_asserts.record import parse_pointer


@attrs.frozen
class SopOperator:
    """One SOP assertion operator: the keys it reads beside ``op``, how its value is read,
    and the matcher it builds from that value.

    >>> SOP_OPERATORS["gt"].keys, SOP_OPERATORS["gt"].reads
    (('value',), 'number')
    """

    keys: tuple[str, ...]
    """The keys of ``{op, …}`` the operator needs (``()`` for ``exists``)."""
    reads: Literal["nothing", "scalar", "scalars", "number", "string"]
    """How the value under ``keys[0]`` is read (``scalars``: a non-empty list of them)."""
    build: Callable[[Any], Matcher]
    """The matcher of the value read."""


def _compare(bound: Matcher) -> Matcher:
    return M.any_of(bound, M.json(bound))


SOP_OPERATORS: Final[Mapping[str, SopOperator]] = MappingProxyType(
    {
        "exists": SopOperator((), "nothing", lambda _: M.not_in(None)),
        "equals": SopOperator(("value",), "scalar", M.loose),
        "matches": SopOperator(("pattern",), "string", M.regex),
        "gt": SopOperator(("value",), "number", lambda v: _compare(M.gt(v))),
        "lt": SopOperator(("value",), "number", lambda v: _compare(M.lt(v))),
        "contains": SopOperator(("value",), "string", M.contains),
        "not_in": SopOperator(
            ("values",), "scalars", lambda vs: M.all_of(~M.absent(), *(~M.loose(v) for v in vs))
        ),
    }
)
"""Every SOP assertion operator by name: the one table ``op_matcher`` and the loader read."""

INPUT_OPS: Final = ("exists", "equals", "matches", "gt", "lt", "contains")
"""``contains`` is accepted on inputs too, as modelguide's implementation does
(docs/decisions.md)."""
OUTPUT_OPS: Final = ("exists", "equals", "contains", "not_in")


def field_path(field: str) -> tuple[str, ...]:
    """The keys a field name leads through: dotted, or a JSON Pointer when it starts with ``/``.

    >>> field_path("address.zip"), field_path("/dotted.key/x"), field_path("plain")
    (('address', 'zip'), ('dotted.key', 'x'), ('plain',))
    """
    parts = parse_pointer(field) if field.startswith("/") else tuple(field.split("."))
    if not parts or any(not part for part in parts):
        raise ValueError(f"invalid field path {field!r} (an empty key)")
    return parts


def op_matcher(op: str, value: Any) -> Matcher:
    """The matcher of one SOP assertion operator.

    ``exists``: present and not null; ``equals``: JavaScript ``String()`` forms (``M.loose``);
    ``matches``: regex search; ``gt``/``lt``: a number, or a string JSON reads as one;
    ``contains``: substring (or list item); ``not_in``: present and no string form in ``value``.

    >>> op_matcher("gt", 3).matches("4"), op_matcher("exists", None).matches(0)
    (True, True)
    """
    operator = SOP_OPERATORS.get(op)
    if operator is None:
        raise ValueError(unknown_key_message(op, list(SOP_OPERATORS), what="op"))
    return operator.build(value)


def nest(assertions: list[tuple[tuple[str, ...], Matcher]]) -> dict[str, Any]:
    """One nested partial mapping from (path, matcher) pairs; a key that has both its own
    matchers and nested keys gets ``M.all_of(own…, {nested})``.

    >>> nest([(("a", "b"), M.gt(1)), (("a",), M.not_in(None))])
    {'a': M.all_of(M.not_in(None), {'b': M.gt(1)})}
    """
    own: dict[str, list[Matcher]] = {}
    children: dict[str, list[tuple[tuple[str, ...], Matcher]]] = {}
    for path, matcher in assertions:
        head, rest = path[0], path[1:]
        if rest:
            children.setdefault(head, []).append((rest, matcher))
        else:
            own.setdefault(head, []).append(matcher)
        own.setdefault(head, [])
    out: dict[str, Any] = {}
    for key, matchers in own.items():
        parts: list[Any] = list(matchers)
        if key in children:
            parts.append(nest(children[key]))
        out[key] = parts[0] if len(parts) == 1 else M.all_of(*parts)
    return out


def _assertion(node: Node, ops: tuple[str, ...], ctx: BuildContext) -> Matcher | None:
    p = ctx.problems
    spec = p.expect_mapping(node)
    if spec is None:
        return None
    if "op" not in spec.items:
        p.add(spec, "required key 'op' missing")
        return None
    op = p.expect_str(spec.get("op"), non_empty=True)
    if op is None:
        return None
    if op not in ops:
        p.add(spec.get("op"), f"must be {choice_list(ops)} (got {op!r})")
        return None
    operator = SOP_OPERATORS[op]
    keys = operator.keys
    if op == "matches" and "pattern" not in spec.items and "value" in spec.items:
        keys = ("value",)  # modelguide reads the pattern from `value:` too (docs/decisions.md)
    if not p.check_keys(spec, required=["op", *keys]):
        return None
    value = _read_value(operator.reads, spec.get(keys[0]) if keys else None, ctx)
    if value is None and keys:
        return None
    try:
        return operator.build(value)
    except (TypeError, ValueError) as exc:
        p.add(spec.get(keys[0]) if keys else spec, str(exc))
        return None


def _read_value(reads: str, node: Node | None, ctx: BuildContext) -> Any:
    if reads in ("scalar", "scalars"):
        return _scalars(node, ctx, many=reads == "scalars")
    if reads == "number":
        return ctx.problems.expect_number(node)
    if reads == "string":
        return ctx.problems.expect_str(node)
    return None


def _scalars(node: Node | None, ctx: BuildContext, *, many: bool) -> Any:
    p = ctx.problems
    items = p.expect_list(node, non_empty=True) if many else [] if node is None else [node]
    if items is None:
        return None
    values = []
    for item in items:
        value = item.value if isinstance(item, ScalarNode) else None
        if value is None or not isinstance(value, str | int | float):
            wording = "is required (got null)" if isinstance(item, ScalarNode) else None
            p.add(
                item, wording or f"must be a string, number or boolean (got {describe_value(item)})"
            )
            return None
        values.append(value)
    return values if many else values[0]


def field_matchers(
    node: Node | None, ops: tuple[str, ...], ctx: BuildContext
) -> dict[str, Any] | None:
    """The nested matcher of an ``assertions`` mapping (field → ``{op, value}``), or None
    when a problem was reported.

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="sop", file="<doc>")
    >>> field_matchers(from_plain({"order.id": {"op": "gt", "value": 1}}), INPUT_OPS, ctx)
    {'order': {'id': M.any_of(M.gt(1), M.json(M.gt(1)))}}
    """
    p = ctx.problems
    mapping = p.expect_mapping(node)
    if mapping is None:
        return None
    if not mapping.items:
        p.add(mapping, "must not be empty")
        return None
    found: list[tuple[tuple[str, ...], Matcher]] = []
    ok = True
    for field, spec in mapping.items.items():
        try:
            path = field_path(field)
        except ValueError as exc:
            p.add_key_problem(mapping, field, str(exc))
            ok = False
            continue
        matcher = _assertion(spec, ops, ctx)
        if matcher is None:
            ok = False
        else:
            found.append((path, matcher))
    return nest(found) if ok else None


__all__ = [
    "INPUT_OPS",
    "OUTPUT_OPS",
    "SOP_OPERATORS",
    "SopOperator",
    "field_matchers",
    "field_path",
    "nest",
    "op_matcher",
]
