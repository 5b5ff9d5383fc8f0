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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from agent_asserts.checks.base import Check
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.checks.sequencing import ToolOrder
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import ConfirmationRequested
from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.dialects import register_dialect
from agent_asserts.loaders.errors import unknown_key_message
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode
from agent_asserts.loaders.sop_fields import (
    INPUT_OPS,
    OUTPUT_OPS,
    field_matchers,
    field_path,
    nest,
    op_matcher,
)
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.matching.scalar import compile_regex

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
        criterion = p.expect_str(node.get("criterion"), non_empty=True)
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


register_dialect(
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
    "TYPES",
    "build",
    "default_resolver",
    "detect",
    "entries_of",
    "field_path",
    "nest",
    "op_matcher",
]
