"""The SOP dialect: the evaluator catalogue of SOP procedures (``{type: …}`` entries).

A document is a list of entries, or a mapping with ``checks:`` (and ``name:``, ``record:``).
Each type builds the check class the fluent API builds (see docs/sop.md): ``tool_called`` and
``tool_input_contains``/``tool_output_contains`` → ``CalledTool`` (the field assertions become
one nested argument/result matcher), ``tool_sequence`` → ``ToolOrder``, ``no_tool_called`` →
one ``NotCalledTool`` per slug, ``confirmation_requested`` → ``ConfirmationRequested``,
``llm_judge`` → ``JudgeCheck``. ``catalogSlug`` goes through ``load(tool_resolver=…)``, a
callable ``(catalog_slug, tool_slug) -> tool name`` (default ``{catalogSlug}_{toolSlug}``;
without a ``catalogSlug`` the slug is the name).

>>> from agent_asserts.loaders import load
>>> from agent_asserts.record import TrialRecord
>>> suite = load([{"type": "tool_input_contains", "toolSlug": "get_order",
...                "assertions": {"order.id": {"op": "equals", "value": 123}}}])
>>> suite.cases[0].checks[0]
CalledTool(name='get_order', arguments={'order': {'id': M.loose(123)}}, ...)
>>> rec = TrialRecord.builder().tool("get_order", {"order": {"id": "123"}}).build()
>>> [r.status.value for r in suite.evaluate(rec)[0].results]
['pass']

The field assertions of SOP ``tool_input_contains``/``tool_output_contains`` entries.

``assertions`` maps a field (dotted, or a JSON Pointer) to ``{op, value}``; the operators
become matchers and the fields one nested partial mapping (the ``arguments`` or ``result`` of
the ``CalledTool`` built for the entry).

>>> nest([(field_path("order.id"), op_matcher("equals", 123))])
{'order': {'id': M.loose(123)}}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, Literal

import attrs

from agent_asserts.checks.base import Check
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.checks.sequencing import ToolOrder
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import ConfirmationRequested
from agent_asserts.loaders.collector import choice_list, unknown_key_message
from agent_asserts.loaders.dialects import BuildContext, builtin_dialect
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode, describe_value
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.matching import M, Matcher
from agent_asserts.matching.scalar import compile_regex
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


Resolver = Callable[[str | None, str], str]

TYPES: Final[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "tool_called": (("toolSlug",), ("catalogSlug",)),
    "tool_sequence": (("sequence",), ("contiguous", "catalogSlug")),
    "tool_input_contains": (("toolSlug", "assertions"), ("catalogSlug",)),
    "tool_output_contains": (("toolSlug", "assertions"), ("catalogSlug",)),
    "no_tool_called": (("toolSlugs",), ("catalogSlug",)),
    "confirmation_requested": (("beforeToolSlug", "pattern"), ("withinLastNTurns", "catalogSlug")),
    "llm_judge": (("criterion",), ("model", "rubric", "catalogSlug")),
}
"""Type → (required keys, optional keys), besides ``type``."""

KEYS: Final = frozenset(key for req, opt in TYPES.values() for key in (*req, *opt))
"""Every key an SOP evaluator may have (used to tell SOP documents from cxas ones)."""


def default_resolver(catalog_slug: str | None, tool_slug: str) -> str:
    """``{catalogSlug}_{toolSlug}``, or the bare slug without a catalog.

    >>> default_resolver("shopify", "get_order"), default_resolver(None, "get_order")
    ('shopify_get_order', 'get_order')
    """
    return tool_slug if catalog_slug is None else f"{catalog_slug}_{tool_slug}"


def _kind(item: Mapping[str, Any]) -> str:
    kind = item.get("type")
    return kind if isinstance(kind, str) else ""


def detect(data: Any) -> bool:
    """A list (or ``checks:`` list) of ``{type, …}`` entries with SOP keys or types.

    >>> detect([{"type": "tool_called", "toolSlug": "a"}]), detect({"checks": [{"max_steps": 1}]})
    (True, False)
    """
    if isinstance(data, Mapping):
        data = data.get("checks")
    if not isinstance(data, list):
        return False
    entries = [item for item in data if isinstance(item, Mapping)]
    sop_only = set(TYPES) - {"tool_called"}
    return any(KEYS & set(item) or _kind(item) in sop_only for item in entries)


def _slugs(node: Node | None, ctx: BuildContext, *, many: bool = False) -> list[str] | None:
    p = ctx.problems
    items = p.expect_list(node, non_empty=True) if many else [] if node is None else [node]
    if items is None:
        return None
    slugs = [p.expect_str(item, non_empty=True) for item in items]
    return None if any(s is None for s in slugs) else [s for s in slugs if s is not None]


def _bad_regex(pattern: str, node: Node | None, ctx: BuildContext) -> bool:
    try:
        compile_regex(pattern)
    except ValueError as exc:
        ctx.problems.add(node, str(exc))
        return True
    return False


def _build(kind: str, node: MappingNode, ctx: BuildContext) -> list[tuple[Check, str]]:
    p = ctx.problems
    resolver: Resolver = ctx.tool_resolver or default_resolver
    catalog = p.expect_str(node.get("catalogSlug"), non_empty=True)

    def name(slug: str) -> str:
        names = []
        for part in slug.split("|"):
            try:
                resolved = resolver(catalog, part)
            except Exception as exc:
                text = f"tool_resolver raised {type(exc).__name__} for {part!r}: {exc}"
                raise ValueError(text) from None
            if not isinstance(resolved, str) or not resolved:
                raise ValueError(f"tool_resolver returned {resolved!r} for {part!r}")
            names.append(resolved)
        return "|".join(names)

    if kind == "llm_judge":
        criterion = p.expect_str(node.get("criterion"), non_blank=True)
        rubric = p.expect_str(node.get("rubric"))
        model = p.expect_str(node.get("model"), non_empty=True)
        if criterion is None:
            return []
        return [(JudgeCheck(criterion, rubric=rubric, model=model), f"llm_judge:{criterion}")]
    if kind == "tool_sequence":
        steps = _slugs(node.get("sequence"), ctx, many=True)
        contiguous = p.expect_bool(node.get("contiguous"))
        if steps is None:
            return []
        order = ToolOrder(*(name(s) for s in steps), contiguous=bool(contiguous))
        return [(order, "tool_sequence")]
    if kind == "no_tool_called":
        slugs = _slugs(node.get("toolSlugs"), ctx, many=True) or []
        return [(NotCalledTool(name(s)), f"no_tool_called:{s}") for s in slugs]
    key = "beforeToolSlug" if kind == "confirmation_requested" else "toolSlug"
    found = _slugs(node.get(key), ctx)
    if kind == "confirmation_requested":
        pattern = p.expect_str(node.get("pattern"), non_empty=True)
        if pattern is not None and _bad_regex(pattern, node.get("pattern"), ctx):
            pattern = None
        turns = p.expect_int(node.get("withinLastNTurns"), minimum=1)
        if not found or pattern is None:
            return []
        confirm = ConfirmationRequested(name(found[0]), pattern, turns or 4)
        return [(confirm, f"{kind}:{found[0]}")]
    ops = INPUT_OPS if kind == "tool_input_contains" else OUTPUT_OPS
    fields = field_matchers(node.get("assertions"), ops, ctx) if kind != "tool_called" else {}
    if not found or fields is None:
        return []
    if kind == "tool_called":
        return [(CalledTool(name(found[0])), f"{kind}:{found[0]}")]
    if kind == "tool_input_contains":
        return [(CalledTool(name(found[0]), arguments=fields), f"{kind}:{found[0]}")]
    return [(CalledTool(name(found[0]), result=fields), f"{kind}:{found[0]}")]


def entries_of(node: Node, ctx: BuildContext) -> list[CheckEntry]:
    """The check entries of one SOP entry (``no_tool_called`` gives one per slug); problems
    go to ``ctx.problems``.

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="sop")
    >>> node = from_plain({"type": "no_tool_called", "toolSlugs": ["refund", "cancel"]})
    >>> [(e.name, e.check) for e in entries_of(node, ctx)]  # doctest: +NORMALIZE_WHITESPACE
    [('no_tool_called:refund', NotCalledTool(name='refund', arguments=None, before=None)),
     ('no_tool_called:cancel', NotCalledTool(name='cancel', arguments=None, before=None))]
    """
    p = ctx.problems
    mapping = p.expect_mapping(node)
    if mapping is None:
        return []
    if "type" not in mapping.items:
        p.add(mapping, "required key 'type' missing")
        return []
    kind = p.expect_str(mapping.get("type"), non_empty=True)
    if kind is None:
        return []
    if kind not in TYPES:
        p.add(mapping.get("type"), unknown_key_message(kind, list(TYPES), what="type"))
        return []
    required, optional = TYPES[kind]
    start = len(p)
    p.check_keys(mapping, required=["type", *required], optional=optional)
    try:
        built = _build(kind, mapping, ctx)
    except (TypeError, ValueError) as exc:
        p.add(mapping, str(exc))
        return []
    if len(p) > start:
        return []
    return [CheckEntry(check, name=name) for check, name in built]


def build(doc: Node, ctx: BuildContext) -> Suite:
    """Build the one-case suite of an SOP document (a list, or a mapping with ``checks:``).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="sop")
    >>> doc = from_plain({"name": "p", "checks": [{"type": "tool_called", "toolSlug": "a"}]})
    >>> suite = build(doc, ctx)
    >>> suite.name, suite.cases[0].name, suite.cases[0].checks
    ('p', 'p', (CalledTool(name='a', ...),))
    """
    p = ctx.problems
    name, record = ctx.default_name, None
    items = doc
    if isinstance(doc, MappingNode):
        name, record = ctx.top_level(doc)
        p.check_keys(doc, required=["checks"], optional=["name", "record"])
        items = doc.items.get("checks", doc)
    entries: list[CheckEntry] = []
    catalogs: dict[str, str] = {}
    for item in p.expect_list(items) or []:
        built = entries_of(item, ctx)
        entries += built
        catalogs.update(_judge_catalog(item, built))
    # A judge has no tool to resolve: its catalogSlug is kept as case metadata (by result name).
    metadata = {"llm_judge_catalogs": catalogs} if catalogs else {}
    return ctx.suite([Case(name, tuple(entries), record, metadata, ctx.judge)], name=name)


def _judge_catalog(item: Node, built: list[CheckEntry]) -> dict[str, str]:
    if not isinstance(item, MappingNode) or len(built) != 1:
        return {}
    kind, catalog = item.items.get("type"), item.items.get("catalogSlug")
    if not isinstance(kind, ScalarNode) or kind.value != "llm_judge":
        return {}
    if not isinstance(catalog, ScalarNode):
        return {}
    return {built[0].name or built[0].check.default_name(): str(catalog.value)}


builtin_dialect(
    "sop",
    detect=detect,
    build=build,
    shape="a list (or `checks:` list) of `{type, toolSlug, …}` entries",
    order=30,
)


__all__ = [
    "INPUT_OPS",
    "KEYS",
    "OUTPUT_OPS",
    "SOP_OPERATORS",
    "TYPES",
    "SopOperator",
    "build",
    "default_resolver",
    "detect",
    "entries_of",
    "field_matchers",
    "field_path",
    "nest",
    "op_matcher",
]
