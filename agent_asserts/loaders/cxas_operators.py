"""The operators of cxas ``tool_expectations`` (``{type, tool, …}``) and the checks they build.

Each operator builds the check class the fluent API builds; values compare by the cxas rules
(``M.lenient``). :mod:`agent_asserts.loaders.cxas` reads the documents around them.

>>> sorted(OPERATORS)[:3]
['end_session', 'every_call', 'followed_by']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from agent_asserts.checks.base import Check
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import (
    EndedSession,
    EveryCall,
    FollowedBy,
    LastTool,
    TerminalTool,
)
from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.errors import unknown_key_message
from agent_asserts.loaders.nodes import MappingNode, Node, to_plain
from agent_asserts.loaders.suite import CheckEntry
from agent_asserts.matching import Count, M
from agent_asserts.selectors import on

OPERATORS: Final[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "tool_called": (("tool",), ("min",)),
    "tool_not_called": (("tool",), ("args", "before")),
    "tool_input": (("tool", "args"), ("min",)),
    "tool_output": (("tool", "result"), ("min",)),
    "last_tool": (("tool",), ("args",)),
    "every_call": (("tool",), ("args", "result")),
    "followed_by": (("tool", "next"), ("args",)),
    "terminal_tool": (("tool",), ()),
    "end_session": ((), ("args", "tool")),
    "handoff": ((), ("args", "tool")),
}
"""Operator → (required keys, optional keys), besides ``type``."""


def _lenient(value: Any) -> Any:
    """``M.lenient(value)``, or None for an absent value."""
    return None if value is None else M.lenient(value)


def _tool_selector(node: Node | None, ctx: BuildContext, keys: tuple[str, ...]) -> Any:
    """``before:`` / ``next:`` — a tool name, or ``{tool, args?, result?}``."""
    p = ctx.problems
    if node is None:
        return None
    if not isinstance(node, MappingNode):
        return p.expect_str(node, non_empty=True)
    if not p.check_keys(node, required=["tool"], optional=keys):
        return None
    name = p.expect_str(node.get("tool"), non_empty=True)
    arguments = _value(node.get("args"), ctx, mapping=True)
    result = _value(node.get("result"), ctx) if "result" in keys else None
    if name is None:
        return None
    return on.tool(name, arguments=_lenient(arguments), result=_lenient(result))


def _value(node: Node | None, ctx: BuildContext, *, mapping: bool = False) -> Any:
    if node is None:
        return None
    if mapping and ctx.problems.expect_mapping(node) is None:
        return None
    if ctx.problems.expect_value(node) is None:
        return None
    return ctx.problems.matcher_value(node)


def _build_check(op: str, node: MappingNode, ctx: BuildContext, start: int) -> Check | None:
    p = ctx.problems
    required, optional = OPERATORS[op]
    allowed = {*required, *optional}

    def get(key: str) -> Node | None:
        return node.get(key) if key in allowed else None

    tool = p.expect_str(get("tool"), non_empty=True)
    args = _lenient(_value(get("args"), ctx, mapping=True))
    result = _lenient(_value(get("result"), ctx))
    least = p.expect_int(get("min"), minimum=1)
    count = Count.at_least(1 if least is None else least)
    before = _tool_selector(get("before"), ctx, ("args", "result"))
    after = _tool_selector(get("next"), ctx, ("args",))
    if op == "every_call" and args is None and result is None and len(p) == start:
        p.add(node, "every_call needs 'args' or 'result' (it would check nothing)")
    if len(p) > start:
        return None
    if op in ("end_session", "handoff"):
        return EndedSession(args, tool=tool or "end_session")
    if tool is None:
        return None
    builders: dict[str, Callable[[], Check]] = {
        "tool_called": lambda: CalledTool(tool, count=count),
        "tool_not_called": lambda: NotCalledTool(tool, args, before=before),
        "tool_input": lambda: CalledTool(tool, arguments=args, count=count),
        "tool_output": lambda: CalledTool(tool, result=result, count=count),
        "last_tool": lambda: LastTool(tool, args),
        "every_call": lambda: EveryCall(tool, args, result),
        "followed_by": lambda: FollowedBy(tool, after, arguments=args),
        "terminal_tool": lambda: TerminalTool(tool),
    }
    return builders[op]()


def operator_entry(node: Node, ctx: BuildContext) -> CheckEntry | None:
    """One ``tool_expectations`` item as a check entry named ``{type}:{tool}`` (or None, with
    its problems added to ``ctx.problems``).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="cxas")
    >>> entry = operator_entry(from_plain({"type": "terminal_tool", "tool": "end_session"}), ctx)
    >>> entry.name, entry.check
    ('terminal_tool:end_session', TerminalTool(name='end_session'))
    """
    p = ctx.problems
    mapping = p.expect_mapping(node)
    if mapping is None:
        return None
    op = p.expect_str(mapping.get("type"), non_empty=True)
    if "type" not in mapping.items:
        p.add(mapping, "required key 'type' missing")
        return None
    if op is None:
        return None
    if op not in OPERATORS:
        p.add(mapping.get("type"), unknown_key_message(op, list(OPERATORS), what="operator"))
        return None
    required, optional = OPERATORS[op]
    before = len(p)
    p.check_keys(mapping, required=["type", *required], optional=optional)
    try:
        check = _build_check(op, mapping, ctx, before)
    except (TypeError, ValueError) as exc:
        p.add(mapping, str(exc))
        return None
    if check is None or len(p) > before:
        return None
    tool = to_plain(mapping.items["tool"]) if "tool" in mapping.items else None
    return CheckEntry(check, name=op if tool is None else f"{op}:{tool}")


__all__ = ["OPERATORS", "operator_entry"]
